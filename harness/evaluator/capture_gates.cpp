// The evaluator's gates between the compiles and the GPU: is there a GPU to
// judge on, which captures judge the candidate, and does the candidate
// assume more about its callers (__restrict__) than the captures allow.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/cpp_tokens.h"
#include "core/text.h"
#include "harness/evaluator/gpu_evaluator.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

namespace {

bool is_restrict_keyword(std::string_view t) { return t == "__restrict__" || t == "__restrict" || t == "restrict"; }

// Names the source #defines: a parameter spelled with one may hide a
// __restrict__ behind it, so it counts as declaring one.
std::set<std::string_view> defined_macros(std::string_view text, const std::vector<CppToken>& tokens) {
  std::set<std::string_view> out;
  for (size_t i = 0; i + 2 < tokens.size(); ++i)
    if (token_text(text, tokens[i]) == "#" && token_text(text, tokens[i + 1]) == "define")
      out.insert(token_text(text, tokens[i + 2]));
  return out;
}

}  // namespace

std::vector<std::string> restrict_added(const Kernel& kernel, std::string_view variant_source) {
  auto tokens = cpp_tokens(variant_source);
  auto text = [&](size_t i) { return token_text(variant_source, tokens[i]); };
  // The parameter list after the first `__global__ ... <name> (`.
  std::optional<size_t> open;
  bool global = false;
  for (size_t i = 0; i + 1 < tokens.size() && !open; ++i) {
    global = global || text(i) == "__global__";
    if (global && text(i) == kernel.name && text(i + 1) == "(") open = i + 1;
  }
  if (!open) return {};
  auto macros = defined_macros(variant_source, tokens);
  std::vector<bool> restricted(1, false);  // per parameter, in order
  int depth = 0;
  for (size_t i = *open; i < tokens.size(); ++i) {
    std::string_view t = text(i);
    if (t == "(" || t == "[" || t == "{" || t == "<") ++depth;
    if (t == ")" || t == "]" || t == "}" || t == ">") --depth;
    if (t == ">>") depth -= 2;
    if (depth == 0) break;
    if (depth == 1 && t == ",") restricted.push_back(false);
    if (is_restrict_keyword(t) || macros.count(t)) restricted.back() = true;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < restricted.size() && i < kernel.params.size(); ++i)
    if (restricted[i] && kernel.params[i].kind == ParamKind::Pointer && !kernel.params[i].is_restrict)
      out.push_back(kernel.params[i].name);
  return out;
}

void GpuEvaluator::require_gpu(EvaluationRun& run) {
  if (run.gpu) {
    run.e.gpu = *run.gpu;
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (no_gpu_workers_) return;  // workers without a GPU still check what they can
  }
  // Compiled and signature-checked: the search keeps it as an untimed node.
  run.e.untimed = true;
  run.error(fmt::format("compiled for sm_{}; nothing was run or timed: {}", run.sm, no_gpu_reason()));
}

void GpuEvaluator::choose_captures(EvaluationRun& run) {
  auto ids = captures_for(run.kernel);
  if (!ids) return run.error(ids.error().message);
  run.captures = std::move(*ids);
  if (run.judged_instantiations.size() == run.kernel.instantiations.size()) return;
  const CaptureIndex* index = run.capture_index(options_.store);
  if (!index) return;
  std::vector<std::string> kept;
  for (const auto& id : run.captures)
    if (const Capture* c = index->find(id); c && run.judged_instantiations.count(c->mangled)) kept.push_back(id);
  if (kept.empty())
    return run.error(
        fmt::format("the captures of {} launch only instantiations made in other translation units than "
                    "{}: none can be judged with its cubin",
                    run.kernel.id, run.kernel.compile ? run.kernel.compile->file : "the compiled one"));
  run.captures = std::move(kept);
}

void GpuEvaluator::check_restrict_assumption(EvaluationRun& run) {
  std::vector<std::string> restricted = restrict_added(run.kernel, run.variant.source);
  if (restricted.empty()) return;
  std::string aliased;
  if (const CaptureIndex* index = run.capture_index(options_.store))
    for (const auto& id : run.captures) {
      const Capture* c = index->find(id);
      if (!c) continue;
      for (size_t i = 0; i < c->args.size() && aliased.empty(); ++i)
        for (size_t j = 0; j < c->args.size() && aliased.empty(); ++j)
          if (i != j && c->args[i].buffer && c->args[i].buffer == c->args[j].buffer &&
              std::find(restricted.begin(), restricted.end(), c->args[i].name) != restricted.end())
            aliased =
                fmt::format("capture {} passes {} and {} into one allocation", c->id, c->args[i].name, c->args[j].name);
    }
  if (!aliased.empty())
    return run.reject(CheckName::RestrictAssumption,
                      fmt::format("the variant declares {} __restrict__, but {}", join(restricted, ", "), aliased));
  run.pass(CheckName::RestrictAssumption,
           fmt::format("assumes {} never alias{} another argument: no captured launch aliased them",
                       join(restricted, ", "), restricted.size() == 1 ? "es" : ""));
}

}  // namespace stark::harness
