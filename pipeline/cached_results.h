// The result cache as `stark optimize` uses it: each kernel's key
// in this run, reuse of an entry only after it passed the checks a model's
// reply gets and one evaluation on today's captures, and storing what a
// finished search found.
#ifndef STARK_PIPELINE_CACHED_RESULTS_H
#define STARK_PIPELINE_CACHED_RESULTS_H

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_key.h"
#include "cache/result_cache.h"
#include "core/evaluator.h"
#include "core/manifest.h"
#include "core/result.h"
#include "core/variant_validator.h"

namespace stark {

/// How run_optimize uses the cache. cache == nullptr: off (every kernel `off`).
struct CacheSettings {
  const ResultCache* cache = nullptr;
  bool read = true;            // false (--force): search anyway, store the new result
  std::string backend_detail;  // an LLM backend's endpoint or command: part of the key
  std::string stark_version;   // part of the key
  /// The kernel's captured inputs as shape keys ("<mangled> <shape>"), for the key.
  std::function<std::vector<std::string>(const Kernel&)> input_shapes;
};

/// What the search of one kernel in this run would be keyed by.
struct KernelKeyParams {
  int budget = 0;
  uint64_t seed = 0;
  int parallel = 0;
  BackendInfo backend;
  std::optional<GpuInfo> gpu;
  std::string search;  // search_identity(): the team's roles and the search's rules
};

/// The key's inputs for a kernel; nullopt when its result cannot be cached:
/// no GPU (nothing is measured, nothing could be re-verified), or no
/// fingerprint in the manifest (its dependencies are unknown), or no compile
/// command.
std::optional<CacheKeyInputs> kernel_key_inputs(const Manifest& manifest, const Kernel& kernel,
                                                const KernelKeyParams& params, const CacheSettings& settings);

/// A kernel's lookup in this run.
struct CacheLookup {
  std::string key;  // empty: not cacheable (state `off`)
  CacheKeyInputs inputs;
  std::optional<KernelResult> hit;  // the re-verified result, cache state `hit`
  std::string note;                 // why an entry was there but not used, for the user
};

/// Looks the kernel up; a found entry is shape-checked, its winner validated
/// with `validator` like a model's reply, and then evaluated once on the
/// current captures (the winner, or the original for a no_gain entry). Only
/// an entry that passes all three is a hit, with today's figures.
CacheLookup look_up(const ResultCache& cache, const Manifest& manifest, const Kernel& kernel, CacheKeyInputs inputs,
                    Evaluator& evaluator, VariantValidator& validator);

/// The lookups of several kernels (those whose key can be made), run
/// `parallel` at a time: each hit costs a validation and an evaluation, and
/// a run of hits should take seconds, not their sum. With settings.read
/// false only the keys are made. Keyed by kernel id; empty when the cache is off.
std::map<std::string, CacheLookup> look_up_all(const Manifest& manifest, const std::vector<const Kernel*>& kernels,
                                               const CacheSettings& settings, int parallel, Evaluator& evaluator,
                                               VariantValidator& validator,
                                               const std::function<KernelKeyParams(const Kernel&)>& params);

/// Files a finished search's result under the lookup's key (with the input
/// shapes as they are now), when it is worth reusing (cache_entry.h:
/// reusable) and the search ran to its end.
Expected<void> store_result(const CacheSettings& settings, const Kernel& kernel, const CacheLookup& lookup,
                            const KernelResult& result, const std::string& stopped);

}  // namespace stark

#endif  // STARK_PIPELINE_CACHED_RESULTS_H
