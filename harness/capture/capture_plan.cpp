#include "harness/capture/capture_plan.h"

#include <stdexcept>
#include <vector>
#include <string>
#include <cstdint>
#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/hash.h"

namespace stark::harness {

using nlohmann::json;

const PlanInstantiation* CapturePlan::find(std::string_view mangled) const {
  for (const auto& k : kernels)
    if (k.mangled == mangled) return &k;
  return nullptr;
}

void to_json(json& j, const CapturePlan& p) {
  json kernels = json::array();
  for (const auto& k : p.kernels)
    kernels.push_back({{"kernel", k.kernel},
                       {"mangled", k.mangled},
                       {"params", k.params},
                       {"globals", k.globals},
                       {"refusal", k.refusal}});
  j = {{"schema", kCapturePlanSchema},
       {"store", p.store},
       {"limits",
        {{"max_per_kernel", p.limits.max_per_kernel},
         {"max_per_shape", p.limits.max_per_shape},
         {"max_capture_bytes", p.limits.max_capture_bytes},
         {"max_store_bytes", p.limits.max_store_bytes}}},
       {"kernels", kernels}};
  if (p.device_stage_bytes) j["device_stage_bytes"] = *p.device_stage_bytes;
}

void from_json(const json& j, CapturePlan& p) {
  if (j.value("schema", "") != kCapturePlanSchema) throw std::invalid_argument("not a STARK capture plan");
  p = {};
  p.store = j.at("store").get<std::string>();
  const json& l = j.at("limits");
  p.limits.max_per_kernel = l.value("max_per_kernel", p.limits.max_per_kernel);
  p.limits.max_per_shape = l.value("max_per_shape", p.limits.max_per_shape);
  p.limits.max_capture_bytes = l.value("max_capture_bytes", p.limits.max_capture_bytes);
  p.limits.max_store_bytes = l.value("max_store_bytes", p.limits.max_store_bytes);
  if (j.contains("device_stage_bytes")) p.device_stage_bytes = j.at("device_stage_bytes").get<uint64_t>();
  for (const auto& k : j.at("kernels")) {
    PlanInstantiation i;
    i.kernel = k.at("kernel").get<std::string>();
    i.mangled = k.at("mangled").get<std::string>();
    i.params = k.at("params").get<std::vector<ParamSpec>>();
    i.globals = k.value("globals", std::vector<std::string>{});
    i.refusal = k.value("refusal", "");
    p.kernels.push_back(std::move(i));
  }
}

Expected<CapturePlan> load_plan(const std::string& path) {
  auto j = read_json_file(path);
  if (!j) return j.error();
  try {
    return j->get<CapturePlan>();
  } catch (const std::exception& e) {
    return Error{fmt::format("{}: {}", path, e.what())};
  }
}

std::vector<std::string> recorded_globals(const std::optional<std::vector<std::string>>& reached,
                                          const std::vector<std::string>& in_module, std::string* why_all) {
  auto all = [&](std::string why) {
    if (why_all) *why_all = std::move(why);
    return in_module;
  };
  if (!reached) return all("the scan could not tell which module variables it uses");
  for (const auto& name : *reached)
    if (std::find(in_module.begin(), in_module.end(), name) == in_module.end())
      return all("it uses '" + name + "', which its module does not hold under that name");
  std::vector<std::string> out;
  for (const auto& name : in_module)
    if (std::find(reached->begin(), reached->end(), name) != reached->end()) out.push_back(name);
  return out;
}

std::string static_refusal(const std::vector<ParamSpec>& params) {
  for (const auto& p : params) {
    for (const char* t : {"cudaTextureObject_t", "cudaSurfaceObject_t", "CUtexObject", "CUsurfObject"})
      if (p.type.find(t) != std::string::npos)
        return fmt::format("parameter '{}' is a texture or surface object: what it reads is not captured", p.name);
    if (p.kind == ParamKind::Pointer && p.type.find('*') != std::string::npos)
      return fmt::format("parameter '{}' points to pointers: the memory those point to is not captured", p.name);
    if (p.kind != ParamKind::Pointer && p.size <= 0)
      return fmt::format("parameter '{}' has no known size in the manifest (a dependent type?)", p.name);
  }
  return "";
}

std::vector<size_t> packed_offsets(const std::vector<ParamSpec>& params) {
  std::vector<size_t> out;
  size_t off = 0;
  for (const auto& p : params) {
    size_t size = static_cast<size_t>(p.size);
    size_t align = p.kind == ParamKind::Pointer ? 8
                                                : std::min<size_t>(size >= 8   ? 8
                                                                   : size >= 4 ? 4
                                                                   : size >= 2 ? 2
                                                                               : 1,
                                                                   8);
    off = (off + align - 1) / align * align;
    out.push_back(off);
    off += size;
  }
  return out;
}

std::string shape_key(const std::string& mangled, const LaunchShape& l, const std::vector<CapturedArg>& args,
                      const std::vector<uint64_t>& sizes) {
  std::string s = fmt::format("{}|{},{},{}|{},{},{}|{}|{}|", mangled, l.grid[0], l.grid[1], l.grid[2], l.block[0],
                              l.block[1], l.block[2], l.shmem, l.cooperative);
  for (const auto& a : args) {
    if (a.kind == ParamKind::Pointer)
      s +=
          a.buffer ? fmt::format("p{}+{}:{};", *a.buffer, a.offset, sizes.at(static_cast<size_t>(*a.buffer))) : "null;";
    else s += to_hex(a.bytes) + ";";
  }
  return content_hash(s);
}

std::vector<size_t> pointer_slots(size_t size) {
  std::vector<size_t> out;
  for (size_t off = 0; off + 8 <= size; off += 8) out.push_back(off);
  return out;
}

}  // namespace stark::harness
