#include "harness/evaluator/eval_runner.h"

#include <string>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/manifest.h"
#include "core/variant.h"

namespace stark::harness {

int run_eval(EvalOptions o, const Printer& out) {
  auto manifest = load_manifest(o.manifest);
  if (!manifest) {
    out.error(manifest.error().message);
    return 1;
  }
  const Kernel* kernel = manifest->find_kernel(o.kernel);
  if (!kernel) {
    std::string known;
    for (const auto& k : manifest->kernels) known += (known.empty() ? "" : ", ") + k.id;
    out.error(fmt::format("no kernel {} in {} (it has: {})", o.kernel, o.manifest, known.empty() ? "none" : known));
    return 1;
  }
  auto variant = load_variant(o.variant);
  if (!variant) {
    out.error(variant.error().message);
    return 1;
  }
  if (o.evaluator.store.empty()) o.evaluator.store = default_store(manifest->build_dir);
  if (o.evaluator.cache_dir.empty()) o.evaluator.cache_dir = default_cache(manifest->build_dir);
  GpuEvaluator evaluator(*manifest, o.evaluator);
  if (!evaluator.gpu()) {
    out.error(fmt::format("no CUDA GPU to evaluate on: {}", evaluator.no_gpu_reason()));
    return 1;
  }
  Evaluation e = evaluator.evaluate(*kernel, *variant);
  fmt::print("{}\n", nlohmann::json(e).dump(2));
  if (e.verdict == Verdict::Accepted) {
    out.note(fmt::format("accepted: {}", e.reason));
    return 0;
  }
  if (e.verdict == Verdict::Rejected) out.note(fmt::format("rejected: {}", e.reason));
  else out.error(e.reason);
  return 1;
}

}  // namespace stark::harness
