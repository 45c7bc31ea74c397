#include "agents/llm/prices.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <iostream>

#include "agents/llm/prices_data.h"  // generated from prices.json: kBuiltinPricesJson
#include "core/file_io.h"

namespace stark::llm {

using nlohmann::json;

namespace {

bool all_digits(std::string_view s) {
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

// "claude-haiku-4-5-20251001" -> "claude-haiku-4-5"; "gpt-5.4-2026-03-05" -> "gpt-5.4".
std::string_view without_date(std::string_view model) {
  if (model.size() > 9 && model[model.size() - 9] == '-' && all_digits(model.substr(model.size() - 8)))
    return model.substr(0, model.size() - 9);
  if (model.size() > 11) {
    std::string_view tail = model.substr(model.size() - 11);  // "-2026-03-05"
    if (tail[0] == '-' && tail[5] == '-' && tail[8] == '-' && all_digits(tail.substr(1, 4)) &&
        all_digits(tail.substr(6, 2)) && all_digits(tail.substr(9, 2)))
      return model.substr(0, model.size() - 11);
  }
  return model;
}

}  // namespace

const PriceTable& PriceTable::builtin() {
  static const PriceTable table = [] {
    auto parsed = parse(kBuiltinPricesJson, "the built-in agents/llm/prices.json");
    if (!parsed) {  // a build-time data file; the prices test keeps it valid
      std::cerr << "stark: internal error: " << parsed.error().message << "\n";
      std::abort();
    }
    return std::move(*parsed);
  }();
  return table;
}

std::shared_ptr<const PriceTable> PriceTable::shared_builtin() {
  return std::shared_ptr<const PriceTable>(std::shared_ptr<const PriceTable>(), &builtin());  // static: nothing to free
}

Expected<PriceTable> PriceTable::from_file(const std::filesystem::path& path) {
  auto text = read_file(path);
  if (!text) return text.error();
  return parse(*text, path.string());
}

Expected<PriceTable> PriceTable::parse(std::string_view text, std::string_view origin) {
  json j = json::parse(text, nullptr, false);
  if (!j.is_object() || j.value("schema", "") != "stark.prices/1" || !j.contains("models") || !j["models"].is_array())
    return Error{fmt::format("{} is not a stark.prices/1 price table", origin)};
  PriceTable table;
  for (const json& m : j["models"]) {
    try {
      ModelPrice p;
      p.provider = m.at("provider").get<std::string>();
      p.model = m.at("model").get<std::string>();
      p.input = m.at("input").get<double>();
      p.output = m.at("output").get<double>();
      if (m.contains("cached_input")) p.cached_input = m["cached_input"].get<double>();
      if (m.contains("max_prompt_tokens")) p.max_prompt_tokens = m["max_prompt_tokens"].get<int64_t>();
      p.as_of = m.at("as_of").get<std::string>();
      p.source = m.at("source").get<std::string>();
      if (p.input < 0 || p.output < 0 || (p.cached_input && *p.cached_input < 0))
        return Error{fmt::format("{}: negative price for {}", origin, p.model)};
      if (table.find(p.provider, p.model))
        return Error{fmt::format("{}: {} model '{}' is listed twice", origin, p.provider, p.model)};
      table.models_.push_back(std::move(p));
    } catch (const json::exception& e) {
      return Error{fmt::format("{}: bad entry {}: {}", origin, m.dump(), e.what())};
    }
  }
  return table;
}

const ModelPrice* PriceTable::find(std::string_view provider, std::string_view model) const {
  for (std::string_view id : {model, without_date(model)})
    for (const auto& p : models_)
      if (p.provider == provider && p.model == id) return &p;
  return nullptr;
}

std::optional<double> PriceTable::cost(std::string_view provider, std::string_view model, int64_t prompt_tokens,
                                       int64_t cached_prompt_tokens, int64_t completion_tokens) const {
  const ModelPrice* p = find(provider, model);
  if (!p) return std::nullopt;
  if (p->max_prompt_tokens && prompt_tokens > *p->max_prompt_tokens) return std::nullopt;
  if (cached_prompt_tokens > 0 && !p->cached_input) return std::nullopt;
  double cached_rate = p->cached_input.value_or(0.0);
  double fresh = static_cast<double>(prompt_tokens - cached_prompt_tokens);
  return (fresh * p->input + static_cast<double>(cached_prompt_tokens) * cached_rate +
          static_cast<double>(completion_tokens) * p->output) /
         1e6;
}

}  // namespace stark::llm
