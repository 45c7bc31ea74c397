#include "agents/search.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <future>
#include <sstream>

#include "agents/context_windows.h"
#include "agents/grounded.h"
#include "core/file_io.h"
#include "core/hash.h"

namespace stark {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxDiagnostics = 6000;  // what the debug role gets of a compiler log

std::string clip(std::string s) {
  if (s.size() <= kMaxDiagnostics) return s;
  return s.substr(0, kMaxDiagnostics / 2) + "\n[...]\n" + s.substr(s.size() - kMaxDiagnostics / 2);
}

void add_usage(RoleUsage& total, const RoleUsage& u) {
  total.tokens.prompt += u.tokens.prompt;
  total.tokens.completion += u.tokens.completion;
  total.cost_usd += u.cost_usd;
}

SearchNode failed(SearchNode n, std::string status, std::string why) {
  n.state = NodeState::Failed;
  n.status = std::move(status);
  n.diagnostics = clip(std::move(why));
  return n;
}

/// One attempt: roles, checks, evaluation. Never throws; failures are nodes.
struct Expander {
  const KernelBrief& brief;
  Team& team;
  Evaluator& evaluator;
  VariantValidator& validator;

  std::pair<SearchNode, RoleUsage> expand(const SearchTree& tree, const Selection& sel) {
    SearchNode n;
    n.parent = sel.node;
    RoleUsage usage;
    Variant variant;
    if (sel.expansion == Expansion::PlanCode) {
      n.role = "plan+code";
      PlanInput window = plan_window(tree, sel.node, brief);
      window.proposal = sel.proposal;
      auto plan = team.plan(window);
      add_usage(usage, plan.usage);
      if (!plan.value) return {failed(n, "plan_failed", plan.value.error().message), usage};
      Plan p = *plan.value;
      n.strategy = p.strategy;
      auto spans = parse_spans(p.grounded);
      if (!spans || spans->empty()) {
        // A plan without (usable) markers: one span over the body.
        const std::string& parent_source = tree.node(sel.node).variant.source;
        auto body = find_body(parent_source, brief.kernel->name);
        if (!body) return {failed(n, "plan_failed", "cannot find the kernel body to ground the plan on"), usage};
        p.grounded = ground_whole_body(parent_source, *body, p.strategy.empty() ? "apply the plan" : p.strategy);
      }
      n.plan = p.grounded;
      auto code = team.code(code_window(tree, sel.node, brief, p));
      add_usage(usage, code.usage);
      if (!code.value) return {failed(n, "code_failed", code.value.error().message), usage};
      variant = *code.value;
      if (auto filled = check_spans_filled(variant.source); !filled)
        return {failed(n, "unfilled_spans", filled.error().message), usage};
      if (variant.launch.empty()) variant.launch = p.launch;
    } else {
      n.role = "debug";
      n.strategy = "fix: " + tree.node(sel.node).strategy;
      auto fix = team.debug(debug_window(tree, sel.node, brief));
      add_usage(usage, fix.usage);
      if (!fix.value) return {failed(n, "debug_failed", fix.value.error().message), usage};
      variant = *fix.value;
    }
    variant.kernel = brief.kernel->id;
    n.variant = variant;
    if (auto valid = validator.validate(*brief.kernel, variant); !valid)
      return {failed(n, "invalid", valid.error().message), usage};
    apply_evaluation(n, evaluator.evaluate(*brief.kernel, variant));
    return {n, usage};
  }
};

/// What survives an interruption: the tree, the random state, and the
/// selections of the wave in progress.
struct State {
  std::string kernel, source_hash;
  SearchTree tree;
  std::string rng;
  std::vector<Selection> pending;
  RoleUsage usage;
};

json state_json(const State& s) {
  json pending = json::array();
  for (const auto& p : s.pending)
    pending.push_back({{"node", p.node}, {"debug", p.expansion == Expansion::Debug}, {"proposal", p.proposal}});
  return {{"schema", "stark.search/1"},
          {"kernel", s.kernel},
          {"source_hash", s.source_hash},
          {"tree", s.tree.to_json()},
          {"rng", s.rng},
          {"pending", pending},
          {"usage", {{"prompt", s.usage.tokens.prompt}, {"completion", s.usage.tokens.completion}, {"cost_usd", s.usage.cost_usd}}}};
}

std::optional<State> load_state(const std::filesystem::path& file, const KernelBrief& brief) {
  std::error_code ec;
  if (file.empty() || !std::filesystem::exists(file, ec)) return std::nullopt;
  auto j = read_json_file(file);
  if (!j || j->value("schema", "") != "stark.search/1") return std::nullopt;
  if (j->value("kernel", "") != brief.kernel->id || j->value("source_hash", "") != content_hash(brief.source))
    return std::nullopt;  // another kernel, or the kernel changed: start afresh
  auto tree = SearchTree::from_json(j->at("tree"));
  if (!tree) return std::nullopt;
  State s{brief.kernel->id, content_hash(brief.source), std::move(*tree), j->value("rng", ""), {}, {}};
  for (const auto& p : j->value("pending", json::array()))
    s.pending.push_back({p.at("node").get<int>(), p.value("debug", false) ? Expansion::Debug : Expansion::PlanCode,
                         p.value("proposal", 0)});
  auto u = j->value("usage", json::object());
  s.usage.tokens.prompt = u.value("prompt", int64_t{0});
  s.usage.tokens.completion = u.value("completion", int64_t{0});
  s.usage.cost_usd = u.value("cost_usd", 0.0);
  return s;
}

std::string rng_text(const std::mt19937_64& rng) {
  std::ostringstream os;
  os << rng;
  return os.str();
}

}  // namespace

void apply_evaluation(SearchNode& n, const Evaluation& e) {
  n.checks = e.checks;
  n.seconds = e.seconds;
  n.status = to_string(e.verdict);
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
    n.status = "compile_error";
    n.diagnostics = clip(e.compile_log.empty() ? e.reason : e.compile_log);
    return;
  }
  if (e.untimed) {
    n.state = NodeState::Untimed;
    n.status = "untimed";
    n.diagnostics = e.reason;
    return;
  }
  n.state = NodeState::Failed;
  std::string why = e.reason;
  for (const auto& c : e.checks)
    if (c.ok == false) why += fmt::format("\n{}: {}", c.name, c.detail);
  n.diagnostics = clip(why);
}

SearchOutcome run_search(const KernelBrief& brief, Team& team, Evaluator& evaluator, VariantValidator& validator,
                         const SearchOptions& options) {
  const Kernel& kernel = *brief.kernel;
  std::mt19937_64 rng(options.seed ^ std::hash<std::string>{}(kernel.id));
  SearchOutcome out{SearchTree(SearchNode{}), 0, {}, "", false};

  std::optional<State> state = load_state(options.state_file, brief);
  if (state) {
    std::istringstream is(state->rng);
    is >> rng;
    out.resumed = true;
  } else {
    SearchNode root;
    root.role = "root";
    root.strategy = "original";
    root.variant = Variant{kernel.id, brief.source, {}};
    apply_evaluation(root, evaluator.evaluate(kernel, root.variant));
    state = State{kernel.id, content_hash(brief.source), SearchTree(root), rng_text(rng), {}, {}};
  }
  auto save = [&] {
    if (!options.state_file.empty()) (void)write_json_file(options.state_file, state_json(*state));
  };
  save();
  SearchTree& tree = state->tree;
  auto finish = [&](std::string why) {
    out.tree = tree;
    out.attempts = static_cast<int>(tree.size()) - 1;
    out.usage = state->usage;
    out.stopped = std::move(why);
    return out;
  };
  if (!tree.root().healthy()) return finish("baseline failed");

  Expander expander{brief, team, evaluator, validator};
  auto start = Clock::now();
  for (;;) {
    int attempts = static_cast<int>(tree.size()) - 1;
    if (attempts >= options.budget) return finish("budget");
    if (options.max_cost_usd && state->usage.cost_usd >= *options.max_cost_usd) return finish("cost limit");
    if (options.time_limit && Clock::now() - start >= *options.time_limit) return finish("time limit");

    if (state->pending.empty()) {
      int wave = std::min(std::max(options.parallel, 1), options.budget - attempts);
      std::map<int, int> in_flight;
      for (int i = 0; i < wave; ++i) {
        auto sel = select_node(tree, options.rules, rng, in_flight);
        if (!sel) break;
        sel->proposal = in_flight[sel->node];
        state->pending.push_back(*sel);
        ++in_flight[sel->node];
      }
      state->rng = rng_text(rng);
      if (state->pending.empty()) return finish("nothing left to expand");
      save();
    }

    // Expand the wave concurrently; the tree is read-only until all are done.
    std::vector<std::future<std::pair<SearchNode, RoleUsage>>> jobs;
    for (const auto& sel : state->pending)
      jobs.push_back(std::async(std::launch::async, [&, sel] { return expander.expand(tree, sel); }));
    std::vector<std::pair<SearchNode, RoleUsage>> results;
    for (auto& j : jobs) results.push_back(j.get());

    for (auto& [node, usage] : results) {  // commit in selection order
      add_usage(state->usage, usage);
      int id = tree.add(std::move(node));
      state->pending.erase(state->pending.begin());
      save();
      if (options.on_node) options.on_node(tree, tree.node(id));
    }
  }
}

}  // namespace stark
