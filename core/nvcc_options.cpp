#include "core/nvcc_options.h"

#include <set>
#include <string>

namespace stark {

bool nvcc_output_option(std::string_view option) {
  static const std::set<std::string, std::less<>> kOutputs = {"-o",
                                                              "--output-file",
                                                              "-MF",
                                                              "-MT",
                                                              "-MQ",
                                                              "--dependency-output",
                                                              "--dependency-target-name",
                                                              "-arch",
                                                              "--gpu-architecture",
                                                              "-code",
                                                              "--gpu-code",
                                                              "-gencode",
                                                              "--generate-code",
                                                              "-odir",
                                                              "--output-directory"};
  return kOutputs.count(option) > 0;
}

bool nvcc_output_flag(std::string_view flag) {
  static const std::set<std::string, std::less<>> kProducts = {"-c",
                                                               "--compile",
                                                               "-MD",
                                                               "-MMD",
                                                               "-MP",
                                                               "-M",
                                                               "-MM",
                                                               "--generate-dependencies-with-compile",
                                                               "--generate-nonsystem-dependencies-with-compile",
                                                               "-cubin",
                                                               "--cubin",
                                                               "-ptx",
                                                               "--ptx",
                                                               "-fatbin",
                                                               "--fatbin"};
  return kProducts.count(flag) > 0;
}

bool nvcc_takes_value(std::string_view option) {
  // Both spellings of each, as `nvcc --help` lists them (CUDA 13).
  static const std::set<std::string, std::less<>> kTakesValue = {
      // outputs and dependency files
      "-o", "--output-file", "-MF", "--dependency-output", "-MT", "--dependency-target-name", "-MQ", "-odir",
      "--output-directory", "--keep-dir", "-keep-dir", "-time", "--time",
      // the language and the preprocessor
      "-x", "--x", "-std", "--std", "-D", "--define-macro", "-U", "--undefine-macro", "-I", "--include-path",
      "-isystem", "--system-include", "-include", "--pre-include", "-iquote", "-idirafter", "-imacros",
      // the tools nvcc drives, and options handed to them
      "-ccbin", "--compiler-bindir", "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xnvlink",
      "--nvlink-options", "-Xlinker", "--linker-options", "-Xarchive", "--archive-options", "-Xcudafe", "-Xcudafe-all",
      "-Xfatbin", "--fatbin-options", "-Xnvvm", "--nvvm-options", "--options-file", "-optf", "-run-args", "--run-args",
      // targets and code generation
      "-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code", "-rdc",
      "--relocatable-device-code", "-maxrregcount", "--maxrregcount", "-default-stream", "--default-stream", "-ftz",
      "--ftz", "-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt", "-fmad", "--fmad",
      "-static-global-template-stub", "--static-global-template-stub",
      // the build itself
      "-t", "--threads", "-split-compile", "--split-compile", "-L", "--library-path", "-l", "--library", "-cudart",
      "--cudart", "-cudadevrt", "--cudadevrt",
      // diagnostics
      "-Werror", "--Werror", "-diag-suppress", "--diag-suppress", "-diag-error", "--diag-error", "-diag-warn",
      "--diag-warn"};
  return kTakesValue.count(option) != 0;
}

}  // namespace stark
