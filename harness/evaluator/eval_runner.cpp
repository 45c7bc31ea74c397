#include "harness/evaluator/eval_runner.h"

#include <string>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/check_names.h"
#include "core/manifest.h"
#include "core/text.h"
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
  // The variant is refused before nvcc reads it (what it includes or defines
  // never runs), and before anything needs a GPU.
  Evaluation e;
  auto valid = o.validate && kernel->compile ? o.validate(*kernel, *variant, manifest->source_root) : Expected<void>{};
  if (!valid) {
    e.kernel = kernel->id;
    e.verdict = Verdict::Rejected;
    e.reason = "variant_check: " + valid.error().message;
    e.checks = {Check{CheckName::VariantCheck, false, valid.error().message}};
  } else {
    GpuEvaluator evaluator(*manifest, o.evaluator);
    if (!evaluator.gpu()) {
      out.error(fmt::format("no CUDA GPU to evaluate on: {}", evaluator.no_gpu_reason()));
      return 1;
    }
    e = evaluator.evaluate(*kernel, *variant);
  }
  fmt::print("{}\n", nlohmann::json(e).dump(2));
  if (e.verdict == Verdict::Error) {
    out.error(e.reason);
    return 1;
  }
  out.note(verdict_line(e));
  return e.verdict == Verdict::Accepted ? 0 : 1;
}

std::string verdict_line(const Evaluation& e) {
  if (e.verdict == Verdict::Rejected) return "rejected: " + e.reason;
  if (e.verdict == Verdict::Error) return e.reason;
  std::vector<std::string> unsanitized, unjudged;
  for (const auto& c : e.checks) {
    if (c.ok) continue;
    if (c.name == CheckName::Memcheck || c.name == CheckName::Racecheck || c.name == CheckName::HostCode)
      unsanitized.push_back(fmt::format("{} {}", c.name, c.detail));
    else if (c.name == CheckName::OtherSizes) unjudged.push_back(fmt::format("no other size judged ({})", c.detail));
  }
  std::string line = unsanitized.empty()
                         ? "accepted: " + e.reason
                         : fmt::format("correct, not sanitized: {}; {}", join(unsanitized, "; "), e.reason);
  if (!unjudged.empty()) line += "; " + join(unjudged, "; ");
  return line;
}

}  // namespace stark::harness
