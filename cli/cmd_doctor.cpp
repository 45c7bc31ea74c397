// stark doctor: checks everything STARK needs and says what to fix.
#include <dlfcn.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <regex>

#include "clang_tool/nvcc_args.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/unit_scan.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "cli/version.h"
#include "core/file_io.h"
#include "core/process.h"
#include "core/scratch_dir.h"

namespace stark::cli {

namespace {

namespace fs = std::filesystem;

enum class Status { Ok, Warn, Fail };

/// One line of the doctor's report.
struct Finding {
  std::string what;
  Status status;
  std::string detail;
};

/// The GPUs the CUDA driver sees, through dlopen so that stark runs (and
/// says so) on machines without a driver.
Finding check_gpu() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return {"GPU", Status::Warn, "no CUDA driver (libcuda.so.1): capture and timing cannot run; kernels end untimed"};
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int*);
  using GetFn = int (*)(int*, int);
  using NameFn = int (*)(char*, int, int);
  using VersionFn = int (*)(int*);
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
  auto count = reinterpret_cast<CountFn>(dlsym(lib, "cuDeviceGetCount"));
  auto get = reinterpret_cast<GetFn>(dlsym(lib, "cuDeviceGet"));
  auto name = reinterpret_cast<NameFn>(dlsym(lib, "cuDeviceGetName"));
  auto version = reinterpret_cast<VersionFn>(dlsym(lib, "cuDriverGetVersion"));
  int n = 0;
  if (!init || !count || !get || !name || init(0) != 0 || count(&n) != 0 || n == 0)
    return {"GPU", Status::Warn, "the CUDA driver sees no GPU: capture and timing cannot run; kernels end untimed"};
  std::string list;
  for (int i = 0; i < n; ++i) {
    int dev = 0;
    char buf[256] = {};
    if (get(&dev, i) == 0 && name(buf, sizeof buf, dev) == 0) list += fmt::format("{}{}", i ? ", " : "", buf);
  }
  int v = 0;
  if (version) version(&v);
  return {"GPU", Status::Ok,
          fmt::format("{} ({} device{}, driver API {}.{})", list, n, n == 1 ? "" : "s", v / 1000, (v % 1000) / 10)};
}

Finding check_tool(const std::string& name, const std::vector<std::string>& version_args, const std::string& why) {
  auto run = run_process(version_args);
  if (!run || !run->status.success()) return {name, Status::Warn, "not found: " + why};
  std::smatch m;
  static const std::regex version_re(R"((\d+\.\d+(\.\d+)?))");
  std::string v = std::regex_search(run->output, m, version_re) ? m[1].str() : "found";
  return {name, Status::Ok, v};
}

/// Parses a small annotated kernel exactly as scan would.
Finding check_parse(const ClangSetup& setup, const fs::path& cuda) {
  auto scratch = ScratchDir::create("doctor");
  if (!scratch) return {"test parse", Status::Fail, scratch.error().message};
  const fs::path& dir = scratch->path();
  fs::path file = dir / "probe.cu";
  auto written = write_file_atomic(file,
                                   "#include <cuda_runtime.h>\n"
                                   "[[stark::optimize(\"budget=1\")]] __global__ void stark_probe(int n, float* x) {\n"
                                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  if (i < n) x[i] *= 2.0f;\n"
                                   "}\n"
                                   "void launch(float* x) { stark_probe<<<1, 32>>>(32, x); }\n");
  if (!written) return {"test parse", Status::Fail, written.error().message};
  CompileCommand c{dir.string(), file.string(), {(cuda / "bin" / "nvcc").string(), "-c", file.string()}, "", {"90"}};
  UnitScan unit = scan_unit(c, setup);
  for (const auto& d : unit.diagnostics)
    if (d.level == Severity::Error) return {"test parse", Status::Fail, d.format()};
  if (unit.kernels.size() != 1 || unit.launches.size() != 1 ||
      unit.kernels[0].kernel.instantiations.at(0).mangled != "_Z11stark_probeiPf")
    return {"test parse", Status::Fail, "the probe kernel was not found as expected"};
  return {"test parse", Status::Ok, fmt::format("{:.2f} s, CUDA wrappers from {}", unit.seconds, unit.cuda_wrappers)};
}

class DoctorCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub = app.add_subcommand("doctor", "Check the toolchain, the GPU and the profilers STARK uses");
    sub->add_flag("--json", json_, "Print the findings as JSON");
    sub->footer("\nExit code 0 when scanning and compiling work (a missing GPU is only a warning), 1 otherwise.");
    return sub;
  }

  int run() override {
    std::vector<Finding> findings;
    auto setup = locate_clang_setup();
    if (setup) {
      findings.push_back({"clang resource dir", Status::Ok, setup->resource_dir.string()});
      findings.push_back({"stub headers", Status::Ok, setup->stub_dir.string()});
    } else {
      findings.push_back({"clang resource dir", Status::Fail, setup.error().message});
    }
    fs::path cuda = cuda_path_of({});
    auto nvcc = run_process({(cuda / "bin" / "nvcc").string(), "--version"});
    std::smatch m;
    static const std::regex release_re(R"(release (\d+\.\d+))");
    if (nvcc && nvcc->status.success() && std::regex_search(nvcc->output, m, release_re)) {
      bool new_enough = std::stoi(m[1].str()) >= 13;
      findings.push_back({"CUDA toolkit", new_enough ? Status::Ok : Status::Warn,
                          fmt::format("{} (nvcc {}){}", cuda.string(), m[1].str(),
                                      new_enough ? "" : ": STARK is tested with CUDA 13")});
    } else {
      findings.push_back(
          {"CUDA toolkit", Status::Fail,
           fmt::format("no nvcc at {}; install CUDA 13 or set CUDA_HOME", (cuda / "bin/nvcc").string())});
    }
    std::error_code ec;
    findings.push_back(
        fs::exists(cuda / "include" / "cccl", ec)
            ? Finding{"CCCL headers", Status::Ok, (cuda / "include" / "cccl").string()}
            : Finding{"CCCL headers", Status::Warn, "no include/cccl in the toolkit: CUDA 13 layout expected"});
    if (setup) findings.push_back(check_parse(*setup, cuda));
    findings.push_back(check_tool("cmake", {"cmake", "--version"}, "needed by the CMake package and File API intake"));
    findings.push_back(check_gpu());
    findings.push_back(check_tool("compute-sanitizer", {(cuda / "bin" / "compute-sanitizer").string(), "--version"},
                                  "the sanitizer gate will be reported as not run"));
    findings.push_back(check_tool("ncu", {(cuda / "bin" / "ncu").string(), "--version"},
                                  "profile facts will lack ncu's throughput figures (registers, occupancy and "
                                  "bandwidth still come)"));

    bool failed = false;
    for (const auto& f : findings) failed |= f.status == Status::Fail;
    if (json_) {
      nlohmann::json j = {{"version", stark_version_string()}, {"ok", !failed}, {"checks", nlohmann::json::array()}};
      for (const auto& f : findings)
        j["checks"].push_back({{"name", f.what},
                               {"status", f.status == Status::Ok     ? "ok"
                                          : f.status == Status::Warn ? "warn"
                                                                     : "fail"},
                               {"detail", f.detail}});
      fmt::print("{}\n", j.dump(2));
    } else {
      fmt::print("stark {}\n", stark_version_string());
      bool color = isatty(STDOUT_FILENO) && use_color();
      for (const auto& f : findings) {
        const char* tag = f.status == Status::Ok ? "ok  " : f.status == Status::Warn ? "warn" : "FAIL";
        const char* on = !color                     ? ""
                         : f.status == Status::Ok   ? "\033[32m"
                         : f.status == Status::Warn ? "\033[33m"
                                                    : "\033[31m";
        fmt::print("  {}{}{}  {:<19} {}\n", on, tag, color ? "\033[0m" : "", f.what, f.detail);
      }
    }
    return failed ? kExitFailed : kExitOk;
  }

 private:
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_doctor_command() { return std::make_unique<DoctorCommand>(); }

}  // namespace stark::cli
