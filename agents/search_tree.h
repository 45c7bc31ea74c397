// The search tree of one kernel (docs/design.md, "The method"): the original kernel at
// the root, every evaluated candidate a node under the node it was derived
// from. Pure data and queries; selection lives in selection.h.
#ifndef STARK_AGENTS_SEARCH_TREE_H
#define STARK_AGENTS_SEARCH_TREE_H

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/evaluation.h"
#include "core/expected.h"
#include "core/result.h"
#include "core/variant.h"

namespace stark {

/// Where a node stands after its evaluation.
enum class NodeState {
  Correct,  // compiled, verified, timed: has time_us
  Untimed,  // compiled and valid, but there is no GPU to check and time it
  Failed,   // invalid, did not compile, wrong, crashed, hung...
};

/// How far a wrong candidate's outputs were from the original's on one
/// capture, as the evaluation measured them.
struct CaptureError {
  std::string id;  // the capture's id in the store
  double max_abs = 0;
  double max_rel = 0;
};

/// One candidate in the tree: the node result.json keeps (core/result.h)
/// and what the search needs besides, for selection and the roles' prompts.
struct SearchNode : TreeNode {
  std::string plan;  // the grounded instruction that produced it (empty for root/debug)
  NodeState state = NodeState::Failed;
  std::optional<double> baseline_us;  // the original's, measured in the same evaluation
  std::optional<double> speedup;      // baseline_us / time_us of that evaluation
  std::vector<CaptureTime> captures;  // per capture: the original's and this candidate's medians
  std::vector<Check> checks;
  // The evaluation's phases (Evaluation::seconds), for progress lines. Not
  // saved: wall times would make the trees of two identical searches differ.
  std::map<std::string, double> seconds;
  std::vector<int> children;
  std::string grounding_note{};        // what the code role changed outside the plan's spans, when it did
  std::vector<CaptureError> errors{};  // a wrong candidate's error sizes, for the debug role

  /// Runtime for ranking: failed = +infinity; untimed ranks behind every timed node.
  double score() const;
  bool healthy() const { return state != NodeState::Failed; }
  /// The candidate's code; an empty variant when it failed before any was written.
  const Variant& candidate() const;
};

/// A kernel's search tree. Node ids are dense: node i is nodes()[i].
class SearchTree {
 public:
  /// Creates the tree with the original kernel as root.
  explicit SearchTree(SearchNode root);

  /// Adds a node under parent (set on the node); returns its id.
  int add(SearchNode node);

  const SearchNode& node(int id) const { return nodes_.at(static_cast<size_t>(id)); }
  const SearchNode& root() const { return nodes_.front(); }
  const std::vector<SearchNode>& nodes() const { return nodes_; }
  size_t size() const { return nodes_.size(); }

  std::vector<int> siblings(int id) const;
  /// Children of the node's siblings: candidates sharing its parent's skeleton.
  std::vector<int> cousins(int id) const;
  /// The r best correct nodes, fastest first (ties: lower id).
  std::vector<int> leaderboard(size_t r) const;
  /// The fastest correct node other than the root, if any.
  std::optional<int> best() const;

  /// The tree as it was when it had n nodes (1 <= n <= size()): nodes
  /// [0, n), their children below n.
  SearchTree prefix(size_t n) const;

  /// For result.json (stark.result/1 "tree").
  std::vector<TreeNode> to_result_nodes() const;

  nlohmann::json to_json() const;
  static Expected<SearchTree> from_json(const nlohmann::json& j);

 private:
  std::vector<SearchNode> nodes_;
};

const char* to_string(NodeState s);

/// Whether a node stands for no attempt: a duplicate or an exhausted plan.
bool costs_no_attempt(const SearchNode& node);

/// Whether a node's candidate reached the evaluator (it failed no role, no
/// grounding and no variant check, was not a duplicate, and its plan was
/// not exhausted).
bool was_evaluated(const SearchNode& node);

}  // namespace stark

#endif  // STARK_AGENTS_SEARCH_TREE_H
