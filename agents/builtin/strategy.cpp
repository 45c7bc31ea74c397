#include "agents/builtin/strategy.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "core/text.h"

namespace stark::builtin {

namespace {

int64_t parse_int(const std::string& text) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && ptr == text.data() + text.size() ? v : 0;
}

}  // namespace

std::string Params::describe() const {
  std::string out;
  for (const auto& [k, v] : values) out += fmt::format("{}{}={}", out.empty() ? "" : ",", k, v);
  return out;
}

Expected<Params> Params::parse(std::string_view text) {
  Params p;
  if (trim(text).empty()) return p;
  for (auto part : split(text, ',')) {
    part = trim(part);
    auto eq = part.find('=');
    if (eq == std::string_view::npos) return Error{fmt::format("bad strategy parameter '{}'", part)};
    int64_t v = 0;
    auto value = part.substr(eq + 1);
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || ptr != value.data() + value.size())
      return Error{fmt::format("bad strategy parameter '{}'", part)};
    p.values[std::string(part.substr(0, eq))] = v;
  }
  return p;
}

bool Subject::has(const std::string& strategy) const {
  return std::find(applied.begin(), applied.end(), strategy) != applied.end();
}

std::optional<int64_t> Subject::largest(const std::string& param) const {
  std::optional<int64_t> out;
  for (const auto& capture : scalars) {
    auto it = capture.find(param);
    if (it == capture.end()) return std::nullopt;
    out = std::max(out.value_or(it->second), it->second);
  }
  return out;
}

std::string Subject::extent(char axis) const {
  std::string original = fmt::format("grid.{0} * block.{0}", axis);
  const ThreadIndex* index = analysis ? analysis->index(axis) : nullptr;
  if (!index || scalars.empty()) return original;
  for (const auto& g : analysis->guards) {
    std::string bound(trim(g.bound.text));
    if (g.var == index->var && largest(bound)) return bound;
  }
  return original;
}

Variant Subject::with_source(std::string text) const {
  Variant v;
  v.kernel = kernel->id;
  v.source = std::move(text);
  v.launch = launch;
  return v;
}

Variant Subject::on_capped_grid(std::string text, const Params& p) const {
  Variant v;
  v.kernel = kernel->id;
  v.source = std::move(text);
  v.launch.block = {std::to_string(p.get("block"))};
  v.launch.grid = {
      fmt::format("min(ceil_div({}, {}), {})", extent('x'), p.get("block"), sm_count() * p.get("blocks_per_sm"))};
  return v;
}

int64_t constant_block(const LaunchOverride& launch) {
  if (launch.block.empty()) return 0;
  int64_t total = 1;
  for (const auto& b : launch.block) {
    int64_t v = parse_int(b);
    if (v <= 0) return 0;
    total *= v;
  }
  return total;
}

std::string label(const Strategy& s, const Params& p) { return fmt::format("{}({})", s.name(), p.describe()); }

std::optional<std::pair<std::string, Params>> parse_label(std::string_view text) {
  auto open = text.find('(');
  if (open == std::string_view::npos || text.back() != ')') return std::nullopt;
  auto params = Params::parse(text.substr(open + 1, text.size() - open - 2));
  if (!params) return std::nullopt;
  return std::pair{std::string(text.substr(0, open)), *params};
}

bool Strategy::eases(Limiter l) const {
  if (l == Limiter::Unknown) return false;
  auto all = eases();
  return std::find(all.begin(), all.end(), l) != all.end();
}

}  // namespace stark::builtin
