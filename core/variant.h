// A candidate kernel (stark.variant/1): replacement source for a kernel's
// manifest range, plus an optional launch-shape override.
#ifndef STARK_CORE_VARIANT_H
#define STARK_CORE_VARIANT_H

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"

namespace stark {

inline constexpr const char* kVariantSchema = "stark.variant/1";

/// grid/block: one expression (x; y = z = 1) or three; empty = keep original.
struct LaunchOverride {
  std::vector<std::string> grid;
  std::vector<std::string> block;
  std::optional<std::string> shmem;

  bool empty() const { return grid.empty() && block.empty() && !shmem; }
  bool operator==(const LaunchOverride&) const = default;
};

struct Variant {
  std::string kernel;  // manifest kernel id; empty inside a result's "best"
  std::string source;  // replaces exactly the kernel's manifest range
  LaunchOverride launch;
  bool operator==(const Variant&) const = default;
};

void to_json(nlohmann::json& j, const LaunchOverride& l);
void from_json(const nlohmann::json& j, LaunchOverride& l);
void to_json(nlohmann::json& j, const Variant& v);
void from_json(const nlohmann::json& j, Variant& v);

Expected<Variant> load_variant(const std::string& path);

}  // namespace stark

#endif  // STARK_CORE_VARIANT_H
