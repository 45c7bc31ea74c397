#include "agents/search_state.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"

namespace stark {

namespace {

using nlohmann::json;

json order_json(const std::vector<OrderEvent>& order) {
  json out = json::array();
  for (const auto& e : order) out.push_back({{e.kind == OrderEvent::Select ? "select" : "commit", e.seq}});
  return out;
}

std::vector<OrderEvent> order_from(const json& j) {
  std::vector<OrderEvent> out;
  for (const auto& e : j) {
    if (e.contains("select")) out.push_back({OrderEvent::Select, e.at("select").get<int>()});
    else out.push_back({OrderEvent::Commit, e.at("commit").get<int>()});
  }
  return out;
}

}  // namespace

Expected<void> save_search_state(const std::filesystem::path& file, const SearchState& s) {
  json pending = json::array();
  for (const auto& p : s.pending)
    pending.push_back({{"node", p.selection.node},
                       {"debug", p.selection.expansion == Expansion::Debug},
                       {"proposal", p.selection.proposal},
                       {"seq", p.seq},
                       {"tree_size", p.tree_size}});
  return write_json_file(file, {{"schema", "stark.search/1"},
                                {"kernel", s.kernel},
                                {"source_hash", s.source_hash},
                                {"run", s.run},
                                {"tree", s.tree.to_json()},
                                {"rng", s.rng},
                                {"pending", pending},
                                {"order", order_json(s.order)},
                                {"next_seq", s.next_seq},
                                {"usage",
                                 {{"prompt", s.usage.tokens.prompt},
                                  {"completion", s.usage.tokens.completion},
                                  {"cost_usd", s.usage.cost_usd}}}});
}

std::optional<SearchState> load_search_state(const std::filesystem::path& file, const std::string& kernel,
                                             const std::string& source_hash, const std::string& run) {
  std::error_code ec;
  if (file.empty() || !std::filesystem::exists(file, ec)) return std::nullopt;
  auto j = read_json_file(file);
  if (!j || !j->is_object() || j->value("schema", "") != "stark.search/1") return std::nullopt;
  if (j->value("kernel", "") != kernel || j->value("source_hash", "") != source_hash) return std::nullopt;
  if (j->value("run", "") != run) return std::nullopt;  // another kind of search: never resumed as this one
  try {
    auto tree = SearchTree::from_json(j->at("tree"));
    if (!tree) return std::nullopt;
    SearchState s{kernel, source_hash, run, std::move(*tree), j->value("rng", ""), {}, {}, 0, {}};
    for (const auto& p : j->value("pending", json::array())) {
      Selection sel{p.at("node").get<int>(), p.value("debug", false) ? Expansion::Debug : Expansion::PlanCode,
                    p.value("proposal", 0)};
      size_t tree_size = p.value("tree_size", s.tree.size());
      if (sel.node < 0 || static_cast<size_t>(sel.node) >= tree_size || tree_size > s.tree.size()) return std::nullopt;
      s.pending.push_back({sel, p.at("seq").get<int>(), tree_size});
    }
    s.order = order_from(j->value("order", json::array()));
    s.next_seq = j->value("next_seq", 0);
    auto u = j->value("usage", json::object());
    s.usage.tokens.prompt = u.value("prompt", int64_t{0});
    s.usage.tokens.completion = u.value("completion", int64_t{0});
    s.usage.cost_usd = u.value("cost_usd", 0.0);
    return s;
  } catch (const std::exception&) {
    return std::nullopt;  // damaged: start afresh rather than fail the kernel
  }
}

Expected<std::vector<OrderEvent>> recorded_order(const std::filesystem::path& file) {
  auto j = read_json_file(file);
  if (!j) return j.error();
  try {
    return order_from(j->value("order", json::array()));
  } catch (const std::exception& e) {
    return Error{fmt::format("{}: the recorded order is damaged: {}", file.string(), e.what())};
  }
}

}  // namespace stark
