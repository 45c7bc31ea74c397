#include "agents/search_tree.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

#include "core/json_optional.h"

namespace stark {

using nlohmann::json;

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

std::vector<TreeNode> SearchTree::to_result_nodes() const {
  std::vector<TreeNode> out;
  for (const auto& n : nodes_) {
    TreeNode t;
    t.id = n.id;
    t.parent = n.parent;
    t.role = n.role;
    t.status = n.status;
    t.time_us = n.time_us;
    t.diagnostics = n.diagnostics;
    if (!n.variant.source.empty()) {  // failed before any code was written: no variant
      Variant v = n.variant;
      v.kernel.clear();
      t.variant = v;
    }
    t.strategy = n.strategy;
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
                     {"role", n.role},
                     {"strategy", n.strategy},
                     {"plan", n.plan},
                     {"variant", n.variant.source.empty() ? json(nullptr) : json(n.variant)},
                     {"state", to_string(n.state)},
                     {"status", n.status},
                     {"time_us", or_null(n.time_us)},
                     {"baseline_us", or_null(n.baseline_us)},
                     {"speedup", or_null(n.speedup)},
                     {"diagnostics", n.diagnostics},
                     {"checks", checks}});
    if (!n.captures.empty()) nodes.back()["captures"] = n.captures;
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
      n.role = nj.at("role").get<std::string>();
      n.strategy = nj.value("strategy", "");
      n.plan = nj.value("plan", "");
      if (!nj.at("variant").is_null()) n.variant = nj.at("variant").get<Variant>();
      std::string state = nj.at("state").get<std::string>();
      n.state = state == "correct" ? NodeState::Correct : state == "untimed" ? NodeState::Untimed : NodeState::Failed;
      n.status = nj.value("status", "");
      n.time_us = optional_field<double>(nj, "time_us");
      n.baseline_us = optional_field<double>(nj, "baseline_us");
      n.speedup = optional_field<double>(nj, "speedup");
      n.diagnostics = nj.value("diagnostics", "");
      n.checks = nj.value("checks", std::vector<Check>{});
      n.captures = nj.value("captures", std::vector<CaptureTime>{});
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
