// stark-harness: `stark capture` and `stark eval` for machines without the
// clang front end (a GPU box with only the CUDA toolkit): the same code, with
// a manifest made elsewhere by `stark scan`.
//
//   stark-harness capture --manifest M [--out DIR] [--fresh] -- COMMAND...
//   stark-harness eval --manifest M --kernel ID --variant FILE [--captures DIR]
#include <cstdio>
#include <string>
#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/manifest.h"
#include "core/text.h"
#include "harness/capture/capture_runner.h"
#include "harness/evaluator/eval_runner.h"

int main(int argc, char** argv) {
  using namespace stark;
  using namespace stark::harness;
  CLI::App app{"stark-harness: capture kernel inputs and evaluate variants on the GPU (no clang needed)",
               "stark-harness"};
  app.require_subcommand(1);
  Printer out{[](const std::string& s) { fmt::print(stderr, "stark-harness: {}\n", s); },
              [](const std::string& s) { fmt::print(stderr, "stark-harness: warning: {}\n", s); },
              [](const std::string& s) { fmt::print(stderr, "stark-harness: error: {}\n", s); }};

  std::string manifest_path, out_dir, max_capture = "4G", max_store = "32G", device_stage;
  CaptureOptions capture;
  auto* cap = app.add_subcommand("capture", "Record the manifest kernels' launches while COMMAND runs");
  cap->add_option("--manifest", manifest_path, "Manifest from stark scan")->required();
  cap->add_option("--out", out_dir, "Capture store (default: BUILD_DIR/.stark/captures)");
  cap->add_option("--max-per-kernel", capture.limits.max_per_kernel, "Launches kept per kernel")->capture_default_str();
  cap->add_option("--max-capture-bytes", max_capture, "Snapshot cap of one launch")->capture_default_str();
  cap->add_option("--max-store-bytes", max_store, "Compressed cap of the store")->capture_default_str();
  cap->add_option("--device-stage", device_stage, "Device memory for snapshots in flight (0: none; default: auto)");
  cap->add_flag("--fresh", capture.fresh, "Empty the store first");
  cap->add_option("command", capture.command, "Command to run, after --")->required();

  EvalOptions eval;
  std::string captures, worker;
  bool no_sanitize = false;
  auto* ev = app.add_subcommand("eval", "Judge one variant; print a stark.evaluation/1 JSON");
  ev->add_option("--manifest", eval.manifest, "Manifest from stark scan")->required();
  ev->add_option("--kernel", eval.kernel, "Kernel id")->required();
  ev->add_option("--variant", eval.variant, "Variant file (stark.variant/1)")->required();
  ev->add_option("--captures", captures, "Capture store (default: BUILD_DIR/.stark/captures)");
  ev->add_option("--device", eval.evaluator.devices, "GPU to use (repeatable)");
  ev->add_option("--worker", worker, "Worker command ({device} is replaced)");
  ev->add_flag("--no-sanitize", no_sanitize, "Skip compute-sanitizer");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (cap->parsed()) {
    if (!device_stage.empty()) {
      auto v = parse_size(device_stage);
      if (!v) {
        out.error(v.error().message);
        return 2;
      }
      capture.device_stage = *v;
    }
    for (auto [text, slot] :
         {std::pair{&max_capture, &capture.limits.max_capture_bytes}, {&max_store, &capture.limits.max_store_bytes}}) {
      auto v = parse_size(*text);
      if (!v) {
        out.error(v.error().message);
        return 2;
      }
      *slot = *v;
    }
    auto manifest = load_manifest(manifest_path);
    if (!manifest) {
      out.error(manifest.error().message);
      return 1;
    }
    capture.store = out_dir;
    return run_capture(*manifest, capture, out);
  }
  eval.evaluator.store = captures;
  if (!worker.empty()) eval.evaluator.worker = shell_split(worker);
  if (no_sanitize) eval.evaluator.sanitize = GpuEvaluatorOptions::Sanitize::Never;
  return run_eval(eval, out);
}
