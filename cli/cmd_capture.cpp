// stark capture: record the real inputs of the marked kernels while a
// command (the project's tests) runs.
#include <vector>
#include <string>
#include <memory>
#include <fmt/format.h>

#include "clang_tool/scan.h"
#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "harness/capture/capture_runner.h"

namespace stark::cli {

namespace {

class CaptureCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub = app.add_subcommand("capture", "Record the marked kernels' launches while a command runs");
    sub->add_option("-p,--build-dir", build_dir_, "Build tree (its compile database locates the kernels)")
        ->required()
        ->transform(absolute_path());
    sub->add_option("--manifest", manifest_, "Manifest from stark scan (default: scan the build tree now)")
        ->transform(absolute_path());
    sub->add_option("--out", out_, "Capture store folder (default: BUILD_DIR/.stark/captures)")
        ->transform(absolute_path());
    sub->add_option("--max-per-kernel", limits_.max_per_kernel, "Launches kept per kernel, distinct shapes first")
        ->check(whole_number(1, 10000))
        ->capture_default_str();
    sub->add_option("--max-capture-bytes", max_capture_, "Snapshot size cap of one launch (before + after)")
        ->capture_default_str();
    sub->add_option("--max-store-bytes", max_store_, "Compressed size cap of the whole store")->capture_default_str();
    sub->add_option("--device-stage", device_stage_,
                    "Device memory for snapshots on their way to the host (0: copy straight to the host, "
                    "slower; default: a quarter of the free memory, at most 8G)");
    sub->add_flag("--fresh", fresh_, "Empty the store before capturing");
    sub->add_option("command", command_, "The command to run, after --")->required();
    sub->footer(
        "\nEvery CUDA process the command starts gets STARK's capture library (CUDA_INJECTION64_PATH);\n"
        "for each launch of a marked kernel it records the arguments and the memory behind each\n"
        "pointer before and after the launch. Processes may run in parallel (ctest -j).\n"
        "Launches that cannot be recorded faithfully (graphs, host-mapped memory, pointers inside\n"
        "structs, textures, another GPU) are listed with the reason.\n"
        "Exit 1 when the command fails, no CUDA process ran, or no kernel got inputs.\n"
        "\nExamples:\n"
        "  stark capture -p build -- ctest --test-dir build -j8\n"
        "  stark capture -p build --manifest m.json --fresh -- build/tests/ops_tests\n");
    return sub;
  }

  int run() override {
    harness::Printer out{[](const std::string& s) { print_note(s); }, [](const std::string& s) { print_warning(s); },
                         [](const std::string& s) { print_error(s); }};
    harness::CaptureOptions o;
    o.store = out_;
    o.limits = limits_;
    o.fresh = fresh_;
    o.command = command_;
    for (auto [text, slot] :
         {std::pair{&max_capture_, &o.limits.max_capture_bytes}, {&max_store_, &o.limits.max_store_bytes}}) {
      if (text->empty()) continue;
      auto v = harness::parse_size(*text);
      if (!v) {
        print_error(v.error().message);
        return kExitUsage;
      }
      *slot = *v;
    }
    if (!device_stage_.empty()) {
      auto v = harness::parse_size(device_stage_);
      if (!v) {
        print_error(v.error().message);
        return kExitUsage;
      }
      o.device_stage = *v;
    }
    Manifest manifest;
    if (!manifest_.empty()) {
      auto m = load_manifest(manifest_);
      if (!m) {
        print_error(m.error().message);
        return kExitFailed;
      }
      manifest = std::move(*m);
    } else {
      ScanOptions scan;
      scan.build_dir = build_dir_;
      auto s = scan_build(scan);
      if (!s) {
        print_error(s.error().message);
        return kExitFailed;
      }
      for (const auto& d : s->manifest.diagnostics) print_diagnostic(d);
      if (s->manifest.has_errors()) return kExitFailed;
      manifest = std::move(s->manifest);
    }
    if (manifest.build_dir.empty()) manifest.build_dir = build_dir_;
    if (o.store.empty()) o.store = harness::default_store(build_dir_);
    o.cache_dir = harness::default_cache(build_dir_);
    return harness::run_capture(manifest, o, out);
  }

 private:
  std::string build_dir_, manifest_, out_, max_capture_ = "4G", max_store_ = "32G", device_stage_;
  harness::StoreLimits limits_;
  bool fresh_ = false;
  std::vector<std::string> command_;
};

}  // namespace

std::unique_ptr<Command> make_capture_command() { return std::make_unique<CaptureCommand>(); }

}  // namespace stark::cli
