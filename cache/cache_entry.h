// One entry of the result cache (stark.cache-entry/1): the finished search of
// a kernel under a key, as a file of its own. Entries may come from another
// machine through a shared cache directory, so reading one checks its shape
// here, and the pipeline validates its variant like a model's reply and
// re-verifies it on the GPU before anything uses it.
#ifndef STARK_CACHE_CACHE_ENTRY_H
#define STARK_CACHE_CACHE_ENTRY_H

#include <string>

#include <nlohmann/json.hpp>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/result.h"
#include "core/variant_validator.h"

namespace stark {

inline constexpr const char* kCacheEntrySchema = "stark.cache-entry/1";

/// Limits on what an entry may hold: a shared cache is untrusted input.
inline constexpr size_t kMaxEntryBytes = size_t{16} << 20;
inline constexpr size_t kMaxVariantBytes = size_t{256} << 10;

/// A cached search result.
struct CacheEntry {
  std::string key;        // "xxh64:...": must equal the key it is filed under
  std::string kernel;     // id of the kernel it was found for (shown by stats; the key decides)
  std::string created;    // UTC, ISO 8601
  nlohmann::json inputs;  // key_json() of the key, so a person can compare two entries
  KernelResult result;    // as the search ended; cache state and costs belong to each run
};

void to_json(nlohmann::json& j, const CacheEntry& e);
void from_json(const nlohmann::json& j, CacheEntry& e);

/// Parses an entry file's text and checks its shape: schema tag, the key it
/// is filed under, a reusable status (improved with a winner, or no_gain),
/// sizes within the limits. Errors say what is wrong, in one line.
Expected<CacheEntry> parse_entry(std::string_view text, const std::string& expected_key);

/// The checks a model's reply gets, on the entry's winner: the variant
/// validator (same device symbols, device code only, allowed launch
/// override) against the kernel as it is now. Ok for an entry without a winner.
Expected<void> validate_entry(const CacheEntry& entry, const Kernel& kernel, VariantValidator& validator);

/// Whether a search outcome is worth an entry: a finished search that found
/// a winner or showed there is none. Failed, untimed, skipped: never.
bool reusable(const KernelResult& result);

}  // namespace stark

#endif  // STARK_CACHE_CACHE_ENTRY_H
