#include "agents/expander.h"

#include <fmt/format.h>

#include <algorithm>

#include "agents/context_windows.h"
#include "agents/grounded.h"
#include "agents/grounding.h"

namespace stark {

namespace {

constexpr size_t kMaxDiagnostics = 6000;  // what the debug role gets of a compiler log

std::string clip(std::string s) {
  if (s.size() <= kMaxDiagnostics) return s;
  return s.substr(0, kMaxDiagnostics / 2) + "\n[...]\n" + s.substr(s.size() - kMaxDiagnostics / 2);
}

SearchNode failed(SearchNode n, NodeStatus status, std::string why) {
  n.state = NodeState::Failed;
  n.status = status;
  n.diagnostics = clip(std::move(why));
  return n;
}

NodeStatus status_of(Verdict v) {
  switch (v) {
    case Verdict::Accepted: return NodeStatus::Accepted;
    case Verdict::Rejected: return NodeStatus::Rejected;
    case Verdict::Error: return NodeStatus::Error;
  }
  return NodeStatus::Error;
}

/// The plan's markers in the node's own source (grounding.h); a plan in
/// words only, or without markers, is grounded on the whole kernel body. An
/// Error says why the plan cannot be grounded, for the plan role.
Expected<AnchoredPlan> ground(const std::string& source, const std::string& kernel_name, const Plan& plan) {
  auto spans = parse_spans(plan.grounded);
  if (!spans) return Error{"the plan's markers cannot be read: " + spans.error().message};
  if (!spans->empty()) {
    auto anchored = anchor_plan(source, plan.grounded);
    if (!anchored) return Error{"the plan does not mark the current kernel's code: " + anchored.error().message};
    return anchored;
  }
  auto body = find_body(source, kernel_name);
  if (!body) return Error{"the plan has no markers, and the kernel's body to ground it on cannot be found"};
  return AnchoredPlan{ground_whole_body(source, *body, plan.strategy.empty() ? "apply the plan" : plan.strategy),
                      Grounding::WholeBody};
}

}  // namespace

void add_usage(RoleUsage& total, const RoleUsage& u) {
  total.tokens.prompt += u.tokens.prompt;
  total.tokens.completion += u.tokens.completion;
  total.cost_usd += u.cost_usd;
  for (const auto& role : u.temperature_dropped)
    if (std::find(total.temperature_dropped.begin(), total.temperature_dropped.end(), role) ==
        total.temperature_dropped.end())
      total.temperature_dropped.push_back(role);
}

std::optional<SearchNode> Expander::plan_and_code(const SearchTree& tree, const Selection& sel, SearchNode& n,
                                                  RoleUsage& usage, Variant& variant) const {
  const std::string& parent_source = tree.node(sel.node).candidate().source;
  PlanInput window = plan_window(tree, sel.node, brief, static_cast<size_t>(std::max(rules.top_r, 0)));
  window.proposal = sel.proposal;
  window.deadline = deadline;
  window.temperature = temperatures.plan;
  auto plan = team.plan(window);
  add_usage(usage, plan.usage);
  if (!plan.value)
    return failed(n, plan.nothing_left ? NodeStatus::Exhausted : NodeStatus::PlanFailed, plan.value.error().message);
  auto grounded = ground(parent_source, brief.kernel->name, *plan.value);
  if (!grounded) {
    // Sent back once, with the reason: the plan must mark the node's own code.
    window.refused = grounded.error().message;
    auto again = team.plan(window);
    add_usage(usage, again.usage);
    if (!again.value) return failed(n, NodeStatus::PlanFailed, again.value.error().message);
    plan.value = *again.value;
    grounded = ground(parent_source, brief.kernel->name, *plan.value);
    if (!grounded) {
      n.strategy = plan.value->strategy;
      return failed(n, NodeStatus::PlanUngrounded, "sent back once, and still refused: " + grounded.error().message);
    }
  }
  Plan p = *plan.value;
  n.strategy = p.strategy;
  p.grounded = grounded->grounded;
  n.plan = p.grounded;
  n.grounding = grounded->mode;
  CodeInput code_in = code_window(tree, sel.node, brief, p);
  code_in.deadline = deadline;
  code_in.temperature = temperatures.code;
  auto code = team.code(code_in);
  add_usage(usage, code.usage);
  if (!code.value) return failed(n, NodeStatus::CodeFailed, code.value.error().message);
  variant = *code.value;
  if (auto filled = check_spans_filled(variant.source); !filled)
    return failed(n, NodeStatus::UnfilledSpans, filled.error().message);
  if (auto edit = outside_span_edit(p.grounded, variant.source)) {
    n.grounding = Grounding::OutsideSpans;
    n.grounding_note = *edit;
  }
  if (variant.launch.empty()) variant.launch = p.launch;
  return std::nullopt;
}

std::pair<SearchNode, RoleUsage> Expander::expand(const SearchTree& tree, const Selection& sel, int seq) const {
  SearchNode n;
  n.parent = sel.node;
  RoleUsage usage;
  Variant variant;
  if (sel.expansion == Expansion::PlanCode) {
    n.role = NodeRole::PlanCode;
    if (auto refused = plan_and_code(tree, sel, n, usage, variant)) return {*refused, usage};
  } else {
    n.role = NodeRole::Debug;
    n.strategy = "fix: " + tree.node(sel.node).strategy;
    DebugInput debug_in = debug_window(tree, sel.node, brief);
    debug_in.deadline = deadline;
    debug_in.temperature = temperatures.debug;
    auto fix = team.debug(debug_in);
    add_usage(usage, fix.usage);
    if (!fix.value)
      return {failed(n, fix.nothing_left ? NodeStatus::Exhausted : NodeStatus::DebugFailed, fix.value.error().message),
              usage};
    variant = *fix.value;
  }
  variant.kernel = brief.kernel->id;
  n.variant = variant;
  if (auto valid = validator.validate(*brief.kernel, variant); !valid)
    return {failed(n, NodeStatus::Invalid, valid.error().message), usage};
  if (ledger)
    if (auto first = ledger->claim(candidate_key(variant), seq))
      return {failed(n, NodeStatus::Duplicate,
                     fmt::format("the same code and launch as {} (spacing and comments aside): not evaluated again",
                                 *first)),
              usage};
  apply_evaluation(n, evaluator.evaluate(*brief.kernel, variant));
  return {n, usage};
}

void apply_evaluation(SearchNode& n, const Evaluation& e) {
  n.checks = e.checks;
  n.seconds = e.seconds;
  n.profile = e.variant_profile;
  n.status = status_of(e.verdict);
  if (e.verdict == Verdict::Accepted && e.variant_us) {
    n.state = NodeState::Correct;
    n.time_us = e.variant_us;
    n.baseline_us = e.baseline_us;
    n.speedup = e.speedup;
    n.captures = capture_times(e);
    return;
  }
  if (!e.compile_ok) {
    n.state = NodeState::Failed;
    n.status = NodeStatus::CompileError;
    n.diagnostics = clip(e.compile_log.empty() ? e.reason : e.compile_log);
    return;
  }
  if (e.untimed) {
    n.state = NodeState::Untimed;
    n.status = NodeStatus::Untimed;
    n.diagnostics = e.reason;
    return;
  }
  n.state = NodeState::Failed;
  for (const auto& c : e.captures)
    if (c.max_abs_err || c.max_rel_err)
      n.errors.push_back({c.id, c.max_abs_err.value_or(0), c.max_rel_err.value_or(0)});
  std::string why = e.reason;
  for (const auto& c : e.checks)
    if (c.ok == false) why += fmt::format("\n{}: {}", c.name, c.detail);
  n.diagnostics = clip(why);
}

}  // namespace stark
