// stark eval: one variant against the original kernel, on its captures.
#include <string>
#include <memory>
#include <fmt/format.h>

#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "core/text.h"
#include "harness/evaluator/eval_runner.h"

namespace stark::cli {

namespace {

class EvalCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub = app.add_subcommand("eval", "Judge one variant of a kernel on the GPU; print a stark.evaluation/1 JSON");
    sub->add_option("--manifest", o_.manifest, "Manifest from stark scan")->required()->transform(absolute_path());
    sub->add_option("--kernel", o_.kernel, "Kernel id, as in the manifest (file:qualified name)")->required();
    sub->add_option("--variant", o_.variant, "Variant file (stark.variant/1)")->required()->transform(absolute_path());
    sub->add_option("--captures", captures_, "Capture store (default: BUILD_DIR/.stark/captures)")
        ->transform(absolute_path());
    sub->add_option("--device", o_.evaluator.devices, "GPU to use (repeat for several; default 0)");
    sub->add_option(
        "--worker", worker_,
        "Command that starts a GPU worker, {device} replaced by the device number\n"
        "(default: the stark-worker installed with stark; e.g. \"srun -n1 stark-worker --device {device}\")");
    sub->add_option("--seed", o_.evaluator.seed, "Seed of the fuzzed inputs")->capture_default_str();
    sub->add_flag("--no-sanitize", no_sanitize_,
                  "Skip compute-sanitizer (memcheck, racecheck); the verdict then says \"correct, not sanitized\"");
    sub->footer(
        "\nThe variant is first checked by clang (the kernel and its __device__ helpers only, no\n"
        "preprocessor directives or host code), then compiled with the kernel's own flags for this GPU, run on every "
        "capture\n"
        "(outputs poisoned, guard canaries, smaller sizes derived from the captures, fuzzed inputs,\n"
        "repeated, timed launches read back at random, re-checked after timing), timed against the\n"
        "original, and run once under compute-sanitizer's memcheck and racecheck on exact-size\n"
        "buffers: every gate, whatever its speed (stark optimize sanitizes only candidates that can\n"
        "win). Exit 0 when accepted, 1 when rejected or not evaluated; an accepted candidate whose\n"
        "sanitizers could not run is reported as \"correct, not sanitized: <why>\".\n"
        "\nExample:\n"
        "  stark eval --manifest m.json --kernel src/ops.cu:saxpy --variant v.json\n");
    return sub;
  }

  int run() override {
    harness::Printer out{[](const std::string& s) { print_note(s); }, [](const std::string& s) { print_warning(s); },
                         [](const std::string& s) { print_error(s); }};
    o_.evaluator.store = captures_;
    if (!worker_.empty()) o_.evaluator.worker = shell_split(worker_);
    // The variant is untrusted: the clang variant check (kernel and device
    // helpers only, no directives) runs before nvcc reads it.
    o_.validate = [](const Kernel& kernel, const Variant& variant, const std::string& root) -> Expected<void> {
      auto setup = locate_clang_setup();
      if (!setup) return setup.error();
      return ClangVariantValidator(*setup, root).validate(kernel, variant);
    };
    // A judge called by hand runs every gate, slower candidates included.
    o_.evaluator.sanitize =
        no_sanitize_ ? harness::GpuEvaluatorOptions::Sanitize::Never : harness::GpuEvaluatorOptions::Sanitize::Always;
    return harness::run_eval(o_, out);
  }

 private:
  harness::EvalOptions o_;
  std::string captures_, worker_;
  bool no_sanitize_ = false;
};

}  // namespace

std::unique_ptr<Command> make_eval_command() { return std::make_unique<EvalCommand>(); }

}  // namespace stark::cli
