#include "agents/search_tree.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

#include "core/json_optional.h"

namespace stark {

using nlohmann::json;

bool was_evaluated(const SearchNode& n) {
  if (!n.variant) return false;
  switch (n.status) {
    case NodeStatus::PlanFailed:
    case NodeStatus::PlanUngrounded:
    case NodeStatus::CodeFailed:
    case NodeStatus::UnfilledSpans:
    case NodeStatus::DebugFailed:
    case NodeStatus::Invalid:
    case NodeStatus::Duplicate:
    case NodeStatus::Exhausted: return false;
    case NodeStatus::NotEvaluated:
    case NodeStatus::Accepted:
    case NodeStatus::Rejected:
    case NodeStatus::Error:
    case NodeStatus::CompileError:
    case NodeStatus::Untimed: return true;
  }
  return true;
}

bool costs_no_attempt(const SearchNode& n) {
  return n.status == NodeStatus::Duplicate || n.status == NodeStatus::Exhausted;
}

const Variant& SearchNode::candidate() const {
  static const Variant none;
  return variant ? *variant : none;
}

const char* to_string(NodeState s) {
  switch (s) {
    case NodeState::Correct: return "correct";
    case NodeState::Untimed: return "untimed";
    case NodeState::Failed: return "failed";
  }
  return "failed";
}

double SearchNode::score() const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (state == NodeState::Correct && time_us) return *time_us;
  // Untimed nodes are alive but unranked: behind every timed node, ahead of failures.
  if (state == NodeState::Untimed) return std::numeric_limits<double>::max();
  return inf;
}

SearchTree::SearchTree(SearchNode root) {
  root.id = 0;
  root.parent.reset();
  root.children.clear();
  nodes_.push_back(std::move(root));
}

int SearchTree::add(SearchNode node) {
  if (!node.parent || *node.parent < 0 || static_cast<size_t>(*node.parent) >= nodes_.size())
    throw std::invalid_argument("SearchTree::add: node needs an existing parent");
  node.id = static_cast<int>(nodes_.size());
  node.children.clear();
  nodes_[static_cast<size_t>(*node.parent)].children.push_back(node.id);
  nodes_.push_back(std::move(node));
  return nodes_.back().id;
}

std::vector<int> SearchTree::siblings(int id) const {
  const SearchNode& n = node(id);
  if (!n.parent) return {};
  std::vector<int> out;
  for (int c : node(*n.parent).children)
    if (c != id) out.push_back(c);
  return out;
}

std::vector<int> SearchTree::cousins(int id) const {
  std::vector<int> out;
  for (int s : siblings(id))
    for (int c : node(s).children) out.push_back(c);
  return out;
}

std::vector<int> SearchTree::leaderboard(size_t r) const {
  std::vector<int> ids;
  for (const auto& n : nodes_)
    if (n.state == NodeState::Correct && n.time_us) ids.push_back(n.id);
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return node(a).score() < node(b).score(); });
  if (ids.size() > r) ids.resize(r);
  return ids;
}

std::optional<int> SearchTree::best() const {
  std::optional<int> best;
  for (const auto& n : nodes_) {
    if (n.id == 0 || n.state != NodeState::Correct || !n.time_us) continue;
    if (!best || n.score() < node(*best).score()) best = n.id;
  }
  return best;
}

SearchTree SearchTree::prefix(size_t n) const {
  SearchTree out = *this;
  n = std::max<size_t>(1, std::min(n, nodes_.size()));
  out.nodes_.resize(n);
  for (auto& node : out.nodes_) std::erase_if(node.children, [n](int c) { return static_cast<size_t>(c) >= n; });
  return out;
}

std::vector<TreeNode> SearchTree::to_result_nodes() const {
  std::vector<TreeNode> out;
  for (const auto& n : nodes_) {
    TreeNode t = n;  // the part result.json keeps
    if (t.variant) t.variant->kernel.clear();
    out.push_back(std::move(t));
  }
  return out;
}

json SearchTree::to_json() const {
  json nodes = json::array();
  for (const auto& n : nodes_) {
    json checks = n.checks;
    nodes.push_back({{"id", n.id},
                     {"parent", or_null(n.parent)},
                     {"role", to_string(n.role)},
                     {"strategy", n.strategy},
                     {"plan", n.plan},
                     {"variant", or_null(n.variant)},
                     {"state", to_string(n.state)},
                     {"status", n.status},
                     {"time_us", or_null(n.time_us)},
                     {"baseline_us", or_null(n.baseline_us)},
                     {"speedup", or_null(n.speedup)},
                     {"diagnostics", n.diagnostics},
                     {"checks", checks}});
    if (!n.captures.empty()) nodes.back()["captures"] = n.captures;
    for (const auto& e : n.errors)
      nodes.back()["errors"].push_back({{"id", e.id}, {"max_abs", e.max_abs}, {"max_rel", e.max_rel}});
    if (n.grounding != Grounding::None) nodes.back()["grounding"] = to_string(n.grounding);
    if (!n.grounding_note.empty()) nodes.back()["grounding_note"] = n.grounding_note;
    if (!n.temperature_dropped.empty()) nodes.back()["temperature_dropped"] = n.temperature_dropped;
    if (!n.profile.empty()) nodes.back()["profile"] = n.profile;
  }
  return {{"nodes", nodes}};
}

Expected<SearchTree> SearchTree::from_json(const json& j) {
  try {
    const json& nodes = j.at("nodes");
    if (!nodes.is_array() || nodes.empty()) return Error{"search state has no nodes"};
    auto read = [](const json& nj) {
      SearchNode n;
      n.id = nj.at("id").get<int>();
      n.parent = optional_field<int>(nj, "parent");
      std::string role = nj.at("role").get<std::string>();
      if (auto known = node_role_from_string(role)) n.role = *known;
      else throw std::invalid_argument("unknown node role '" + role + "'");
      n.strategy = nj.value("strategy", "");
      n.plan = nj.value("plan", "");
      n.variant = optional_field<Variant>(nj, "variant");
      std::string state = nj.at("state").get<std::string>();
      n.state = state == "correct" ? NodeState::Correct : state == "untimed" ? NodeState::Untimed : NodeState::Failed;
      n.status = nj.at("status").get<NodeStatus>();
      n.time_us = optional_field<double>(nj, "time_us");
      n.baseline_us = optional_field<double>(nj, "baseline_us");
      n.speedup = optional_field<double>(nj, "speedup");
      n.diagnostics = nj.value("diagnostics", "");
      n.checks = nj.value("checks", std::vector<Check>{});
      n.captures = nj.value("captures", std::vector<CaptureTime>{});
      n.grounding = grounding_from_string(nj.value("grounding", "none")).value_or(Grounding::None);
      n.grounding_note = nj.value("grounding_note", "");
      n.temperature_dropped = nj.value("temperature_dropped", std::vector<std::string>{});
      n.profile = nj.value("profile", ProfileFacts{});
      for (const auto& e : nj.value("errors", json::array()))
        n.errors.push_back(
            {e.at("id").get<std::string>(), e.at("max_abs").get<double>(), e.at("max_rel").get<double>()});
      return n;
    };
    SearchTree tree(read(nodes[0]));
    for (size_t i = 1; i < nodes.size(); ++i) {
      SearchNode n = read(nodes[i]);
      if (n.id != static_cast<int>(i)) return Error{fmt::format("search state: node {} is out of order", n.id)};
      tree.add(std::move(n));
    }
    return tree;
  } catch (const std::exception& e) {
    return Error{fmt::format("search state is damaged: {}", e.what())};
  }
}

}  // namespace stark
