#include "core/kernel_options.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cmath>

#include "core/launch_expr.h"
#include "core/text.h"

namespace stark {

namespace {

Expected<int64_t> parse_int(std::string_view key, std::string_view v) {
  int64_t out = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
    return Error{fmt::format("'{}' expects an integer, got '{}'", key, v)};
  return out;
}

Expected<double> parse_float(std::string_view key, std::string_view v) {
  std::string s(v);
  char* end = nullptr;
  errno = 0;
  double out = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(out))
    return Error{fmt::format("'{}' expects a number, got '{}'", key, v)};
  return out;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

template <typename T>
Expected<void> set_once(std::optional<T>& slot, std::string_view key, T value) {
  if (slot) return Error{fmt::format("option '{}' is given twice", key)};
  slot = std::move(value);
  return {};
}

// The most attempts one kernel may ask for: beyond it a search is a mistake
// (and a value past int's range wrapped to zero or below).
constexpr int64_t kMaxBudget = 100000;

/// CUDA's launch limits, checked where the annotation writes a literal.
struct LaunchLimit {
  const char* what;
  int64_t max;
};
constexpr LaunchLimit kGridLimits[] = {{"grid.x", 2147483647}, {"grid.y", 65535}, {"grid.z", 65535}};
constexpr LaunchLimit kBlockLimits[] = {{"block.x", 1024}, {"block.y", 1024}, {"block.z", 64}};
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxSharedBytes = 232448;  // 227 KiB, the most any GPU gives one block

Expected<void> check_launch_expr(std::string_view key, std::string_view value) {
  // grid and block may be one expression or three separated by commas.
  auto parts = split(value, ',');
  if (key == "shmem" && parts.size() > 1) return Error{"'shmem' is one expression (bytes), not a list"};
  if (parts.size() > 3) return Error{fmt::format("'{}' has at most three parts (x, y, z), got {}", key, parts.size())};
  int64_t threads = 1;
  for (size_t i = 0; i < parts.size(); ++i) {
    auto e = LaunchExpr::parse(trim(parts[i]));
    if (!e) return Error{fmt::format("'{}': {}", key, e.error().message)};
    if (!e->names().empty()) continue;  // checked when a launch computes it
    auto v = e->evaluate([](std::string_view) { return std::nullopt; });
    if (!v) return Error{fmt::format("'{}': {}", key, v.error().message)};
    if (key == "shmem") {
      if (*v < 0 || *v > kMaxSharedBytes)
        return Error{fmt::format("'shmem' must be from 0 to {} bytes, got {}", kMaxSharedBytes, *v)};
      continue;
    }
    const LaunchLimit& limit = key == "grid" ? kGridLimits[i] : kBlockLimits[i];
    if (*v < 1 || *v > limit.max)
      return Error{fmt::format("'{}': {} must be from 1 to {}, got {}", key, limit.what, limit.max, *v)};
    threads *= *v;
  }
  if (key == "block" && threads > kMaxThreadsPerBlock)
    return Error{fmt::format("'block' has {} threads; a block has at most {}", threads, kMaxThreadsPerBlock)};
  return {};
}

}  // namespace

Expected<void> apply_option(KernelOptions& o, std::string_view item) {
  auto eq = item.find('=');
  if (eq == std::string_view::npos) return Error{fmt::format("option '{}' is not of the form key=value", item)};
  std::string_view key = trim(item.substr(0, eq));
  std::string_view value = trim(item.substr(eq + 1));

  if (key == "budget") {
    auto v = parse_int(key, value);
    if (!v) return v.error();
    if (*v < 1 || *v > kMaxBudget) return Error{fmt::format("'budget' must be from 1 to {}, got {}", kMaxBudget, *v)};
    return set_once(o.budget, key, *v);
  }
  if (key == "seed") {
    auto v = parse_int(key, value);
    if (!v) return v.error();
    return set_once(o.seed, key, *v);
  }
  if (key == "rtol" || key == "atol") {
    auto v = parse_float(key, value);
    if (!v) return v.error();
    if (*v < 0) return Error{fmt::format("'{}' must not be negative, got '{}'", key, value)};
    return set_once(key == "rtol" ? o.rtol : o.atol, key, *v);
  }
  if (key == "skip") {
    if (value != "true" && value != "false") return Error{fmt::format("'skip' expects true or false, got '{}'", value)};
    return set_once(o.skip, key, value == "true");
  }
  if (key == "args") {
    auto v = parse_scalar_args(value);
    if (!v) return v.error();
    return set_once(o.args, key, std::string(value));
  }
  if (key == "buffers") {
    auto v = parse_buffer_specs(value);
    if (!v) return v.error();
    return set_once(o.buffers, key, std::string(value));
  }
  if (key == "grid" || key == "block" || key == "shmem") {
    if (value.empty()) return Error{fmt::format("'{}' needs a launch expression", key)};
    if (auto ok = check_launch_expr(key, value); !ok) return ok;
    auto& slot = key == "grid" ? o.grid : key == "block" ? o.block : o.shmem;
    return set_once(slot, key, std::string(value));
  }
  if (key == "epsilon" || key == "plan_temperature" || key == "code_temperature" || key == "debug_temperature") {
    auto v = parse_float(key, value);
    if (!v) return v.error();
    double most = key == "epsilon" ? 1.0 : 2.0;
    if (*v < 0 || *v > most) return Error{fmt::format("'{}' must be from 0 to {}, got '{}'", key, most, value)};
    auto& slot = key == "epsilon"            ? o.search.epsilon
                 : key == "plan_temperature" ? o.search.plan_temperature
                 : key == "code_temperature" ? o.search.code_temperature
                                             : o.search.debug_temperature;
    return set_once(slot, key, *v);
  }
  if (key == "n_root" || key == "n_child" || key == "top_r") {
    auto v = parse_int(key, value);
    if (!v) return v.error();
    int64_t least = key == "n_root" ? 1 : 0, most = key == "top_r" ? 100 : 1000;
    if (*v < least || *v > most) return Error{fmt::format("'{}' must be from {} to {}, got {}", key, least, most, *v)};
    auto& slot = key == "n_root" ? o.search.n_root : key == "n_child" ? o.search.n_child : o.search.top_r;
    return set_once(slot, key, *v);
  }
  return Error{fmt::format(
      "unknown option '{}' (known: budget, rtol, atol, skip, seed, args, buffers, grid, block, shmem, epsilon, n_root, "
      "n_child, top_r, plan_temperature, code_temperature, debug_temperature)",
      key)};
}

Expected<std::vector<ScalarArg>> parse_scalar_args(std::string_view text) {
  std::vector<ScalarArg> out;
  for (std::string_view part : split(text, ',')) {
    part = trim(part);
    auto eq = part.find('=');
    if (eq == std::string_view::npos) return Error{fmt::format("'args': '{}' is not of the form name=value", part)};
    std::string_view name = trim(part.substr(0, eq));
    std::string_view value = trim(part.substr(eq + 1));
    if (!is_identifier(name)) return Error{fmt::format("'args': '{}' is not a parameter name", name)};
    if (value.empty()) return Error{fmt::format("'args': '{}' has no value", name)};
    if (!parse_float("args", value)) return Error{fmt::format("'args': '{}' is not a number", value)};
    for (const auto& a : out)
      if (a.name == name) return Error{fmt::format("'args': '{}' is given twice", name)};
    out.push_back({std::string(name), std::string(value)});
  }
  return out;
}

Expected<std::vector<BufferSpec>> parse_buffer_specs(std::string_view text) {
  std::vector<BufferSpec> out;
  for (std::string_view part : split(text, ',')) {
    part = trim(part);
    auto open = part.find('[');
    if (open == std::string_view::npos || part.back() != ']')
      return Error{fmt::format("'buffers': '{}' is not of the form name[count]", part)};
    std::string_view name = trim(part.substr(0, open));
    std::string_view count = trim(part.substr(open + 1, part.size() - open - 2));
    if (!is_identifier(name)) return Error{fmt::format("'buffers': '{}' is not a parameter name", name)};
    auto e = LaunchExpr::parse(count);
    if (!e) return Error{fmt::format("'buffers': {}", e.error().message)};
    for (const auto& b : out)
      if (b.name == name) return Error{fmt::format("'buffers': '{}' is given twice", name)};
    out.push_back({std::string(name), std::string(count)});
  }
  return out;
}

void to_json(nlohmann::json& j, const KernelOptions& o) {
  j = nlohmann::json::object();
  if (o.budget) j["budget"] = *o.budget;
  if (o.rtol) j["rtol"] = *o.rtol;
  if (o.atol) j["atol"] = *o.atol;
  if (o.skip) j["skip"] = *o.skip;
  if (o.seed) j["seed"] = *o.seed;
  if (o.args) j["args"] = *o.args;
  if (o.buffers) j["buffers"] = *o.buffers;
  if (o.grid) j["grid"] = *o.grid;
  if (o.block) j["block"] = *o.block;
  if (o.shmem) j["shmem"] = *o.shmem;
}

SearchSettings SearchSettings::over(const SearchSettings& fallback) const {
  SearchSettings s = *this;
  auto fill = [](auto& slot, const auto& other) {
    if (!slot) slot = other;
  };
  fill(s.epsilon, fallback.epsilon);
  fill(s.n_root, fallback.n_root);
  fill(s.n_child, fallback.n_child);
  fill(s.top_r, fallback.top_r);
  fill(s.plan_temperature, fallback.plan_temperature);
  fill(s.code_temperature, fallback.code_temperature);
  fill(s.debug_temperature, fallback.debug_temperature);
  return s;
}

namespace {

template <typename T>
void put(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

}  // namespace

void to_json(nlohmann::json& j, const SearchSettings& s) {
  j = nlohmann::json::object();
  put(j, "epsilon", s.epsilon);
  put(j, "n_root", s.n_root);
  put(j, "n_child", s.n_child);
  put(j, "top_r", s.top_r);
  put(j, "plan_temperature", s.plan_temperature);
  put(j, "code_temperature", s.code_temperature);
  put(j, "debug_temperature", s.debug_temperature);
}

void from_json(const nlohmann::json& j, SearchSettings& s) {
  // Through apply_option, so a manifest cannot carry a value an annotation could not.
  KernelOptions o;
  for (const auto& [key, value] : j.items()) {
    if (!value.is_number()) throw std::invalid_argument(fmt::format("search setting '{}' is not a number", key));
    if (auto ok = apply_option(o, fmt::format("{}={}", key, value.dump())); !ok)
      throw std::invalid_argument(ok.error().message);
  }
  s = o.search;
  o.search = {};
  if (!(o == KernelOptions{})) throw std::invalid_argument("'search' holds a key that is not a search setting");
}

void from_json(const nlohmann::json& j, KernelOptions& o) {
  o = {};
  if (j.contains("budget")) o.budget = j["budget"].get<int64_t>();
  if (j.contains("rtol")) o.rtol = j["rtol"].get<double>();
  if (j.contains("atol")) o.atol = j["atol"].get<double>();
  if (j.contains("skip")) o.skip = j["skip"].get<bool>();
  if (j.contains("seed")) o.seed = j["seed"].get<int64_t>();
  if (j.contains("args")) o.args = j["args"].get<std::string>();
  if (j.contains("buffers")) o.buffers = j["buffers"].get<std::string>();
  if (j.contains("grid")) o.grid = j["grid"].get<std::string>();
  if (j.contains("block")) o.block = j["block"].get<std::string>();
  if (j.contains("shmem")) o.shmem = j["shmem"].get<std::string>();
}

}  // namespace stark
