#include "agents/search.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "agents/context_windows.h"
#include "agents/grounded.h"
#include "core/hash.h"

namespace stark {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string rng_text(const std::mt19937_64& rng) {
  std::ostringstream os;
  os << rng;
  return os.str();
}

/// Expansions running on their own threads, each on a snapshot of the tree
/// as it was when it was selected; finished ones are reported in the order
/// they finish.
class Flights {
 public:
  explicit Flights(const Expander& expander) : expander_(expander), done_(std::make_shared<Done>()) {}
  ~Flights() {
    for (auto& f : flights_) f.job.wait();
  }

  void launch(const InFlight& p, const SearchTree& tree) {
    auto snapshot = std::make_shared<const SearchTree>(tree.prefix(p.tree_size));
    auto done = done_;
    const Expander& expander = expander_;
    Selection sel = p.selection;
    int seq = p.seq;
    flights_.push_back({p, std::async(std::launch::async, [&expander, snapshot, sel, seq, done] {
                          struct Report {  // reported even if the expansion throws
                            std::shared_ptr<Done> done;
                            int seq;
                            ~Report() {
                              std::lock_guard lock(done->mutex);
                              done->seqs.push_back(seq);
                              done->changed.notify_all();
                            }
                          } report{done, seq};
                          return expander.expand(*snapshot, sel, seq);
                        })});
  }

  bool empty() const { return flights_.empty(); }
  bool has(int seq) const {
    return std::any_of(flights_.begin(), flights_.end(), [&](const Flight& f) { return f.pending.seq == seq; });
  }
  size_t size() const { return flights_.size(); }

  /// Expansions in flight per node, as selection counts them.
  std::map<int, int> per_node() const {
    std::map<int, int> out;
    for (const auto& f : flights_) ++out[f.pending.selection.node];
    return out;
  }

  /// Waits for the expansion numbered `seq` (any, when nullopt) to finish,
  /// and hands it over.
  std::pair<InFlight, std::pair<SearchNode, RoleUsage>> take(std::optional<int> seq) {
    int got;
    {
      std::unique_lock lock(done_->mutex);
      done_->changed.wait(lock, [&] {
        return seq ? std::find(done_->seqs.begin(), done_->seqs.end(), *seq) != done_->seqs.end()
                   : !done_->seqs.empty();
      });
      auto it = seq ? std::find(done_->seqs.begin(), done_->seqs.end(), *seq) : done_->seqs.begin();
      got = *it;
      done_->seqs.erase(it);
    }
    auto f = std::find_if(flights_.begin(), flights_.end(), [&](const Flight& x) { return x.pending.seq == got; });
    Flight flight = std::move(*f);
    flights_.erase(f);
    return {flight.pending, flight.job.get()};
  }

 private:
  struct Done {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<int> seqs;
  };
  struct Flight {
    InFlight pending;
    std::future<std::pair<SearchNode, RoleUsage>> job;
  };
  const Expander& expander_;
  std::shared_ptr<Done> done_;
  std::vector<Flight> flights_;
};

/// Attempts spent: every node below the root but the duplicates and the
/// exhausted plans, which are free up to as many as the budget (so a team
/// that only repeats itself, or has nothing left, still comes to an end).
int spent_attempts(const SearchTree& tree, int budget) {
  int nodes = static_cast<int>(tree.size()) - 1, free = 0;
  for (const auto& n : tree.nodes()) free += costs_no_attempt(n);
  return nodes - free + std::max(0, free - std::max(budget, 0));
}

}  // namespace

void preview_roles(const KernelBrief& brief, Team& team, const SelectionRules& rules) {
  SearchNode root;
  root.role = NodeRole::Root;
  root.strategy = "original";
  root.variant = Variant{brief.kernel->id, brief.source, {}};
  root.state = NodeState::Untimed;
  root.status = NodeStatus::NotEvaluated;
  SearchTree tree(root);
  (void)team.plan(plan_window(tree, 0, brief, static_cast<size_t>(std::max(rules.top_r, 0))));

  Plan placeholder;
  placeholder.strategy = "<the plan role's strategy>";
  auto body = find_body(brief.source, brief.kernel->name);
  placeholder.grounded =
      body ? ground_whole_body(brief.source, *body, "<the plan role's instruction for this span>") : brief.source;
  (void)team.code(code_window(tree, 0, brief, placeholder));

  SearchNode candidate;
  candidate.parent = 0;
  candidate.role = NodeRole::PlanCode;
  candidate.strategy = placeholder.strategy;
  candidate.plan = placeholder.grounded;
  candidate.variant = root.variant;
  candidate.state = NodeState::Failed;
  candidate.status = NodeStatus::CompileError;
  candidate.diagnostics = "<the compiler's or the checks' messages about the candidate>";
  int id = tree.add(candidate);
  (void)team.debug(debug_window(tree, id, brief));
}

std::string search_identity(const Team& team, const SearchOptions& options) {
  json team_identity = json::parse(team.identity(), nullptr, /*allow_exceptions=*/false);
  json identity{{"team", team_identity.is_discarded() ? json(team.identity()) : team_identity},
                {"seed", options.seed},
                {"parallel", options.parallel},
                {"rules",
                 {{"epsilon", options.rules.epsilon},
                  {"n_root", options.rules.n_root},
                  {"n_child", options.rules.n_child},
                  {"top_r", options.rules.top_r}}}};
  // Only when an annotation sets them, so the searches saved before they existed still resume.
  auto put = [&](const char* role, const std::optional<double>& t) {
    if (t) identity["temperatures"][role] = *t;
  };
  put("plan", options.temperatures.plan);
  put("code", options.temperatures.code);
  put("debug", options.temperatures.debug);
  return identity.dump();
}

namespace {

/// The saved state of this kernel's search when there is one for this
/// source and run (`resumed` set, the generator restored), else a new one
/// whose root is the original, evaluated.
SearchState begin_search(const KernelBrief& brief, Evaluator& evaluator, const std::string& run,
                         const SearchOptions& options, std::mt19937_64& rng, bool& resumed) {
  const Kernel& kernel = *brief.kernel;
  const std::string source_hash = content_hash(brief.source);
  if (auto state = load_search_state(options.state_file, kernel.id, source_hash, run)) {
    std::istringstream is(state->rng);
    is >> rng;
    resumed = true;
    return std::move(*state);
  }
  SearchNode root;
  root.role = NodeRole::Root;
  root.strategy = "original";
  root.variant = Variant{kernel.id, brief.source, {}};
  apply_evaluation(root, evaluator.evaluate(kernel, *root.variant));
  return SearchState{kernel.id, source_hash, run, SearchTree(root), rng_text(rng), {}, {}, 0, {}};
}

/// The search's loop over a started state: selects nodes while there is
/// room (in flight, in the budget, and, replaying, in turn), expands them on
/// their own threads, and commits each expansion as the recorded order (or,
/// past it, the finishing order) says, saving the state after each step.
class SearchLoop {
 public:
  SearchLoop(const KernelBrief& brief, Team& team, Evaluator& evaluator, VariantValidator& validator,
             const SearchOptions& options, SearchState& state, std::mt19937_64& rng)
      : options_(options),
        state_(state),
        rng_(rng),
        start_(Clock::now()),
        scripted_(state.order.size()),
        expander_{brief, team, evaluator, validator, options.rules, deadline(), options.temperatures, &ledger_},
        flights_(expander_) {
    for (const auto& n : state_.tree.nodes())
      if (n.variant && (n.id == 0 || was_evaluated(n))) ledger_.add_node(candidate_key(*n.variant), n.id);
    for (const auto& p : state_.pending) flights_.launch(p, state_.tree);  // in flight when the search was interrupted
  }

  /// Searches until the budget, a limit or the tree says stop; why it stopped.
  std::string run() {
    std::optional<std::string> stop;
    for (;;) {
      select_while_room(stop);
      if (flights_.empty()) {
        if (spent_attempts(state_.tree, options_.budget) >= options_.budget) return "budget";
        if (stop) return *stop;
        return "nothing left to expand";
      }
      commit_next();
    }
  }

 private:
  Deadline deadline() const {
    if (!options_.time_limit) return {};
    return start_ + std::chrono::duration_cast<Clock::duration>(*options_.time_limit);
  }

  std::optional<std::string> limit_reached() const {
    if (options_.max_cost_usd && state_.usage.cost_usd >= *options_.max_cost_usd) return "cost limit";
    if (options_.time_limit && Clock::now() - start_ >= *options_.time_limit) return "time limit";
    return std::nullopt;
  }

  /// What the recorded order (a replay, or this state's own history) says
  /// comes next; past its end the search decides for itself.
  std::optional<OrderEvent> next_scripted() const {
    const std::vector<OrderEvent>& script = options_.replay;
    return scripted_ < script.size() ? std::optional(script[scripted_]) : std::nullopt;
  }

  void save() {
    if (!options_.state_file.empty()) (void)save_search_state(options_.state_file, state_);
  }

  void select_while_room(std::optional<std::string>& stop) {
    while (!stop) {
      int attempts = spent_attempts(state_.tree, options_.budget);
      if (attempts + static_cast<int>(flights_.size()) >= options_.budget) break;
      if (static_cast<int>(flights_.size()) >= std::max(options_.parallel, 1)) break;
      if (auto next = next_scripted(); next && next->kind != OrderEvent::Select) break;
      if ((stop = limit_reached())) break;
      std::map<int, int> in_flight = flights_.per_node();
      auto sel = select_node(state_.tree, options_.rules, rng_, in_flight);
      if (!sel) break;
      sel->proposal = in_flight[sel->node];
      InFlight p{*sel, state_.next_seq++, state_.tree.size()};
      state_.pending.push_back(p);
      state_.order.push_back({OrderEvent::Select, p.seq});
      ++scripted_;
      state_.rng = rng_text(rng_);
      save();
      flights_.launch(p, state_.tree);
    }
  }

  /// Waits for the expansion the order names (any, past the order) and adds its node.
  void commit_next() {
    std::optional<int> wanted;
    if (auto next = next_scripted(); next && next->kind == OrderEvent::Commit) {
      if (flights_.has(next->seq)) wanted = next->seq;
      else scripted_ = options_.replay.size();  // a script this search cannot follow: decide alone from here
    }
    auto [pending, result] = flights_.take(wanted);
    auto& [node, usage] = result;
    node.temperature_dropped = usage.temperature_dropped;
    add_usage(state_.usage, usage);
    int id = state_.tree.add(std::move(node));
    ledger_.settle(pending.seq, id);
    std::erase_if(state_.pending, [&](const InFlight& p) { return p.seq == pending.seq; });
    state_.order.push_back({OrderEvent::Commit, pending.seq});
    ++scripted_;
    save();
    if (options_.on_node) options_.on_node(state_.tree, state_.tree.node(id));
  }

  const SearchOptions& options_;
  SearchState& state_;
  std::mt19937_64& rng_;
  Clock::time_point start_;
  size_t scripted_;
  CandidateLedger ledger_;
  Expander expander_;
  Flights flights_;
};

}  // namespace

SearchOutcome run_search(const KernelBrief& brief, Team& team, Evaluator& evaluator, VariantValidator& validator,
                         const SearchOptions& options) {
  std::mt19937_64 rng(options.seed ^ std::hash<std::string>{}(brief.kernel->id));
  SearchOutcome out{SearchTree(SearchNode{}), 0, {}, "", false};
  SearchState state = begin_search(brief, evaluator, search_identity(team, options), options, rng, out.resumed);
  if (!options.state_file.empty()) (void)save_search_state(options.state_file, state);
  std::string stopped = "baseline failed";
  if (state.tree.root().healthy()) stopped = SearchLoop(brief, team, evaluator, validator, options, state, rng).run();
  out.tree = state.tree;
  out.attempts = spent_attempts(state.tree, options.budget);
  out.usage = state.usage;
  out.stopped = std::move(stopped);
  return out;
}

}  // namespace stark
