#include "cache/cache_entry.h"

#include <fmt/format.h>

namespace stark {

using nlohmann::json;

void to_json(json& j, const CacheEntry& e) {
  j = {{"schema", kCacheEntrySchema}, {"key", e.key},       {"kernel", e.kernel},
       {"created", e.created},        {"inputs", e.inputs}, {"result", e.result}};
}

void from_json(const json& j, CacheEntry& e) {
  e = {};
  e.key = j.at("key").get<std::string>();
  e.kernel = j.at("kernel").get<std::string>();
  e.created = j.value("created", "");
  e.inputs = j.value("inputs", json::object());
  e.result = j.at("result").get<KernelResult>();
}

bool reusable(const KernelResult& r) {
  if (r.status == KernelStatus::NoGain) return true;
  return r.status == KernelStatus::Improved && r.best && !r.best->source.empty() && r.speedup;
}

Expected<CacheEntry> parse_entry(std::string_view text, const std::string& expected_key) {
  if (text.size() > kMaxEntryBytes) return Error{fmt::format("entry is {} bytes, over the limit", text.size())};
  CacheEntry e;
  try {
    json j = json::parse(text);
    if (!j.is_object() || !j.contains("schema") || j["schema"] != kCacheEntrySchema)
      return Error{"not a stark.cache-entry/1 file"};
    e = j.get<CacheEntry>();
  } catch (const std::exception& ex) {  // json's errors and the contract checks' (unknown status, empty source)
    return Error{fmt::format("not a valid entry: {}", ex.what())};
  }
  if (e.key != expected_key) return Error{fmt::format("filed under {} but made for {}", expected_key, e.key)};
  if (!reusable(e.result))
    return Error{fmt::format("status '{}' without what it needs is not reusable", to_string(e.result.status))};
  if (e.result.best && e.result.best->source.size() > kMaxVariantBytes) return Error{"winner's source over the limit"};
  if (e.result.speedup && !(*e.result.speedup > 0 && *e.result.speedup < 1e6)) return Error{"implausible speedup"};
  return e;
}

Expected<void> validate_entry(const CacheEntry& entry, const Kernel& kernel, VariantValidator& validator) {
  if (!entry.result.best) return {};
  Variant v = *entry.result.best;
  v.kernel = kernel.id;  // a winner is stored without it; it is checked against this kernel
  if (auto ok = validator.validate(kernel, v); !ok)
    return Error{"the cached winner is not a valid variant: " + ok.error().message};
  return {};
}

}  // namespace stark
