#include "agents/builtin/builtin_team.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "agents/builtin/catalogue.h"
#include "agents/builtin/limiter.h"
#include "agents/builtin/strategy.h"
#include "agents/grounded.h"
#include "core/hash.h"

namespace stark {

using builtin::catalogue;
using builtin::find_strategy;
using builtin::Params;
using builtin::parse_label;
using builtin::Strategy;
using builtin::Subject;

BuiltinTeam::BuiltinTeam(std::filesystem::path source_root, ClangSetup setup)
    : root_(std::move(source_root)), setup_(std::move(setup)) {}

Expected<std::shared_ptr<const KernelAnalysis>> BuiltinTeam::analysis(const Kernel& kernel, const std::string& source) {
  std::string key = kernel.id + "|" + content_hash(source);
  {
    std::lock_guard lock(mutex_);
    if (auto it = analyses_.find(key); it != analyses_.end()) return it->second;
  }
  auto a = analyze_kernel(kernel, source, setup_, root_);  // a parse: outside the lock
  if (!a) return a.error();
  auto shared = std::make_shared<const KernelAnalysis>(std::move(*a));
  std::lock_guard lock(mutex_);
  analyses_[key] = shared;
  return shared;
}

namespace {

/// Candidates that differ only in their launch share a source: key by both.
std::string candidate_key(const std::string& source, const LaunchOverride& launch) {
  return content_hash(source + "\n" + nlohmann::json(launch).dump());
}

/// Each list's first element, then each list's second, and so on.
template <typename T>
std::vector<T> round_robin(const std::vector<std::vector<T>>& lists) {
  std::vector<T> out;
  for (size_t rank = 0;; ++rank) {
    size_t before = out.size();
    for (const auto& list : lists)
      if (rank < list.size()) out.push_back(list[rank]);
    if (out.size() == before) return out;
  }
}

}  // namespace

std::vector<std::string> BuiltinTeam::applied_on(const std::string& source, const LaunchOverride& launch) {
  std::lock_guard lock(mutex_);
  auto it = origins_.find(candidate_key(source, launch));
  return it == origins_.end() ? std::vector<std::string>{} : it->second.applied;
}

Expected<std::vector<std::string>> BuiltinTeam::options(const Kernel& kernel, const std::string& source,
                                                        const LaunchOverride& launch, const std::optional<GpuInfo>& gpu,
                                                        const Scalars& scalars, const ProfileFacts& profile) {
  auto a = analysis(kernel, source);
  if (!a) return a.error();
  Subject s{&kernel, source, launch, a->get(), gpu, applied_on(source, launch), scalars};
  // Structural strategies with all their parameter sets first (they are the
  // big wins and the parameters matter), each family's first set before any
  // family's second, so that the first attempts reach every family the kernel
  // fits (on the H100, mean over a middle dimension: four block-per-row sets
  // and nine polish attempts came before split-reduction's first set, the one
  // that gained, docs/gpu-runs/2026-12-07-h100-split-reduction); then each
  // polish strategy's first set; then the polish alternatives. Within each group, what eases the
  // limiter the node's profile names comes first (limiter.h).
  // (Ranking fast-math first where expf sits in a loop was measured on the
  // H200 and dropped: on softmax's row-cached variants it was slower in 6 of
  // 8 tries, docs/gpu-runs/2026-12-03-h200-third.)
  // What the code already says holds: a kernel whose launches a patch cannot
  // rewrite keeps its launch, and no block outgrows the author's
  // __launch_bounds__ (the launch would fail).
  const int64_t bound = a->get()->launch_bounds_threads;
  auto respects_code = [&](const Strategy& strategy, const Params& params) {
    if (kernel.fixed_launch.empty() && bound <= 0) return true;
    auto v = strategy.apply(s, params);
    if (!v) return true;  // its error shows where it is tried
    if (!kernel.fixed_launch.empty() && !(v->launch == launch)) return false;
    return bound <= 0 || builtin::constant_block(v->launch) <= bound;
  };
  const builtin::Limiter limiter = builtin::diagnose(profile).limiter;
  using Option = std::pair<const Strategy*, std::string>;
  std::vector<Option> structural, polish, alternatives;
  std::vector<std::vector<Option>> families;  // the structural ones, each in its own order
  for (const auto& strategy : catalogue()) {
    auto sets = strategy->candidates(s);
    sets.erase(std::remove_if(sets.begin(), sets.end(), [&](const Params& p) { return !respects_code(*strategy, p); }),
               sets.end());
    if (sets.empty()) continue;
    if (builtin::is_structural(*strategy)) families.emplace_back();
    for (size_t i = 0; i < sets.size(); ++i) {
      Option o{strategy.get(), label(*strategy, sets[i])};
      if (builtin::is_structural(*strategy)) families.back().push_back(std::move(o));
      else (i == 0 ? polish : alternatives).push_back(std::move(o));
    }
  }
  structural = round_robin(families);
  std::vector<std::string> out;
  for (auto* group : {&structural, &polish, &alternatives}) {
    std::stable_partition(group->begin(), group->end(), [&](const Option& o) { return o.first->eases(limiter); });
    for (auto& o : *group) out.push_back(std::move(o.second));
  }
  return out;
}

Expected<Variant> BuiltinTeam::build(const Kernel& kernel, const std::string& label_text, const std::string& source,
                                     const LaunchOverride& launch, const std::optional<GpuInfo>& gpu,
                                     const std::vector<std::string>& applied, const Scalars& scalars) {
  auto parsed = parse_label(label_text);
  if (!parsed) return Error{fmt::format("builtin: '{}' is not a strategy of the built-in expert", label_text)};
  const Strategy* strategy = find_strategy(parsed->first);
  if (!strategy) return Error{fmt::format("builtin: unknown strategy '{}'", parsed->first)};
  auto a = analysis(kernel, source);
  if (!a) return a.error();
  Subject s{&kernel, source, launch, a->get(), gpu, applied, scalars};
  auto v = strategy->apply(s, parsed->second);
  if (!v) return v.error();
  Origin origin{source, launch, label_text, applied};
  origin.applied.push_back(strategy->name());
  std::lock_guard lock(mutex_);
  origins_[candidate_key(v->source, v->launch)] = std::move(origin);
  return v;
}

RoleReply<Plan> BuiltinTeam::plan(const PlanInput& in) {
  const Kernel& kernel = *in.brief->kernel;
  const SearchNode& node = *in.node;
  auto all =
      options(kernel, node.candidate().source, node.candidate().launch, in.brief->gpu, in.brief->scalars, node.profile);
  if (!all) return {Error{"builtin: cannot analyse the kernel: " + all.error().message}, {}};
  std::set<std::string> tried;
  for (const SearchNode* c : in.children) tried.insert(c->strategy);
  std::vector<std::string> untried;
  for (const auto& l : *all)
    if (!tried.count(l)) untried.push_back(l);
  // A family the search has not spent an attempt on anywhere comes before
  // one it has, each group in the catalogue's (profile-ranked) order.
  std::set<std::string> families;
  for (const auto& t : in.tried)
    if (auto p = parse_label(t)) families.insert(p->first);
  std::stable_partition(untried.begin(), untried.end(), [&](const std::string& l) {
    auto p = parse_label(l);
    return !p || !families.count(p->first);
  });
  // Plans made at the same time for this node take the next ones in order.
  if (static_cast<size_t>(in.proposal) >= untried.size())
    return {Error{fmt::format("builtin: no untried transformation left for this kernel ({} tried)", tried.size())},
            {},
            /*nothing_left=*/true};
  const std::string& choice = untried[static_cast<size_t>(in.proposal)];
  auto parsed = parse_label(choice);
  const Strategy* strategy = parsed ? find_strategy(parsed->first) : nullptr;
  Plan p;
  p.strategy = choice;
  auto body = find_body(node.candidate().source, kernel.name);
  // The instruction says why, when the node's profile chose it.
  std::string instruction = strategy ? strategy->summary() : std::string();
  if (strategy) {
    builtin::Diagnosis d = builtin::diagnose(node.profile);
    if (strategy->eases(d.limiter)) instruction += fmt::format(" (eases {}: {})", builtin::to_string(d.limiter), d.why);
  }
  if (body && strategy) p.grounded = ground_whole_body(node.candidate().source, *body, instruction);
  return {p, {}};
}

RoleReply<Variant> BuiltinTeam::code(const CodeInput& in) {
  const SearchNode& node = *in.node;
  auto v = build(*in.brief->kernel, in.plan.strategy, node.candidate().source, node.candidate().launch, in.brief->gpu,
                 applied_on(node.candidate().source, node.candidate().launch), in.brief->scalars);
  if (!v) return {v.error(), {}};
  return {*v, {}};
}

RoleReply<Variant> BuiltinTeam::debug(const DebugInput& in) {
  const SearchNode& failed = *in.node;
  Origin origin;
  {
    std::lock_guard lock(mutex_);
    auto it = origins_.find(candidate_key(failed.candidate().source, failed.candidate().launch));
    if (it == origins_.end())
      return {Error{"builtin: the failed candidate was not made by this run of the expert; nothing to repair"}, {}};
    origin = it->second;
  }
  auto parsed = parse_label(origin.label);
  const Strategy* strategy = parsed ? find_strategy(parsed->first) : nullptr;
  if (!strategy) return {Error{"builtin: no repair for '" + origin.label + "'"}, {}};
  // Back off to the next parameter set of the same strategy that neither this
  // candidate nor its siblings used.
  std::set<std::string> used = {origin.label};
  for (const SearchNode* s : in.siblings) used.insert(s->strategy);
  auto a = analysis(*in.brief->kernel, origin.parent_source);
  if (!a) return {a.error(), {}};
  std::vector<std::string> parent_applied(origin.applied.begin(), origin.applied.end() - 1);
  Subject s{in.brief->kernel, origin.parent_source, origin.parent_launch, a->get(),
            in.brief->gpu,    parent_applied,       in.brief->scalars};
  for (const auto& params : strategy->candidates(s)) {
    std::string l = label(*strategy, params);
    if (used.count(l)) continue;
    auto v = build(*in.brief->kernel, l, origin.parent_source, origin.parent_launch, in.brief->gpu, parent_applied,
                   in.brief->scalars);
    if (v) return {*v, {}};
  }
  return {Error{fmt::format("builtin: every parameter set of {} was tried; nothing left to repair", strategy->name())},
          {},
          /*nothing_left=*/true};
}

std::unique_ptr<Team> make_builtin_team(const Manifest& manifest, const ClangSetup& setup) {
  return std::make_unique<BuiltinTeam>(manifest.source_root, setup);
}

}  // namespace stark
