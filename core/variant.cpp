#include "core/variant.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

#include "core/file_io.h"

namespace stark {

using nlohmann::json;

namespace {

json dims_to_json(const std::vector<std::string>& d) {
  if (d.size() == 1) return d[0];
  return d;
}

std::vector<std::string> dims_from_json(const json& j, const char* what) {
  if (j.is_string()) return {j.get<std::string>()};
  auto d = j.get<std::vector<std::string>>();
  if (d.size() != 3) throw std::invalid_argument(fmt::format("launch '{}' must be one expression or three", what));
  return d;
}

}  // namespace

void to_json(json& j, const LaunchOverride& l) {
  j = json::object();
  if (!l.grid.empty()) j["grid"] = dims_to_json(l.grid);
  if (!l.block.empty()) j["block"] = dims_to_json(l.block);
  if (l.shmem) j["shmem"] = *l.shmem;
}

void from_json(const json& j, LaunchOverride& l) {
  l = {};
  for (const auto& [key, value] : j.items())
    if (key != "grid" && key != "block" && key != "shmem")
      throw std::invalid_argument(fmt::format("unknown launch field '{}' (allowed: grid, block, shmem)", key));
  if (j.contains("grid")) l.grid = dims_from_json(j["grid"], "grid");
  if (j.contains("block")) l.block = dims_from_json(j["block"], "block");
  if (j.contains("shmem")) l.shmem = j["shmem"].get<std::string>();
}

void to_json(json& j, const Variant& v) {
  j = json::object();
  j["schema"] = kVariantSchema;
  if (!v.kernel.empty()) j["kernel"] = v.kernel;
  j["source"] = v.source;
  if (!v.launch.empty()) j["launch"] = v.launch;
}

void from_json(const json& j, Variant& v) {
  v = {};
  v.kernel = j.value("kernel", "");
  v.source = j.at("source").get<std::string>();
  if (v.source.empty()) throw std::invalid_argument("variant source is empty");
  if (j.contains("launch") && !j["launch"].is_null()) v.launch = j["launch"].get<LaunchOverride>();
}

Expected<Variant> load_variant(const std::string& path) {
  auto j = read_json_file(path);
  if (!j) return j.error();
  try {
    return j->get<Variant>();
  } catch (const std::exception& e) {
    return Error{fmt::format("'{}' is not a valid variant: {}", path, e.what())};
  }
}

}  // namespace stark
