#include "tests/support/nvcc_symbols.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "core/process.h"
#include "tests/support/temp_dir.h"

namespace stark::testing {

std::set<std::string> nvcc_kernel_symbols(const CompileCommand& c) {
  namespace fs = std::filesystem;
  TempDir tmp("symbols");
  fs::path cubin = tmp / (fs::path(c.file).stem().string() + ".cubin");
  std::vector<std::string> args = {c.arguments.at(0)};
  for (size_t i = 1; i < c.arguments.size(); ++i) {
    const std::string& a = c.arguments[i];
    if (a == "-o" || a == "-MF" || a == "-MT") {
      ++i;
      continue;
    }
    if (a == "-c" || a == "-MD" || a.rfind("--generate-code", 0) == 0) continue;
    args.push_back(a);
  }
  args.insert(args.end(), {"-cubin", "-arch=sm_90", "-o", cubin.string()});
  std::set<std::string> out;
  auto nvcc = run_process(args, ProcessOptions::in(c.directory));
  if (!nvcc || nvcc->status.code != 0) {
    ADD_FAILURE() << "nvcc failed for " << c.file << ": " << (nvcc ? nvcc->output : nvcc.error().message);
    return out;
  }
  auto readelf = run_process({"readelf", "-sW", cubin.string()});
  if (!readelf || readelf->status.code != 0) {
    ADD_FAILURE() << "readelf failed on " << cubin;
    return out;
  }
  std::istringstream lines(readelf->output);
  for (std::string line; std::getline(lines, line);)
    if (line.find(" FUNC ") != std::string::npos) out.insert(line.substr(line.find_last_of(' ') + 1));
  return out;
}

}  // namespace stark::testing
