#include "pipeline/cached_results.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "pipeline/kernel_brief.h"
#include "pipeline/kernel_outcome.h"

namespace stark {

namespace {

std::vector<std::string> input_shapes(const Kernel& kernel, const CacheSettings& settings) {
  std::vector<std::string> shapes;
  if (settings.input_shapes) shapes = settings.input_shapes(kernel);
  std::sort(shapes.begin(), shapes.end());
  shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
  return shapes;
}

}  // namespace

std::optional<CacheKeyInputs> kernel_key_inputs(const Manifest& manifest, const Kernel& kernel,
                                                const KernelKeyParams& p, const CacheSettings& settings) {
  if (!p.gpu || !kernel.fingerprint || !kernel.compile) return std::nullopt;
  CacheKeyInputs in;
  in.fingerprint = *kernel.fingerprint;
  in.compile = portable_command(*kernel.compile, manifest.source_root, manifest.build_dir);
  in.toolkit = toolkit_identity(*kernel.compile);
  in.gpu = *p.gpu;
  in.backend = p.backend;
  in.backend_detail = settings.backend_detail;
  in.search = p.search;
  in.budget = p.budget;
  in.seed = p.seed;
  in.parallel = p.parallel;
  in.rtol = kernel.options.rtol;
  in.atol = kernel.options.atol;
  in.input_shapes = input_shapes(kernel, settings);
  for (const auto& l : kernel.launches) in.launch_sites.push_back(launch_site_key(l));
  std::sort(in.launch_sites.begin(), in.launch_sites.end());
  in.stark_version = settings.stark_version;
  return in;
}

namespace {

/// The one evaluation a hit costs: the cached winner, or for an entry that
/// found nothing, the original against itself (it must still run correctly
/// on today's captures).
Expected<Evaluation> reverify(const Manifest& manifest, const Kernel& kernel, const KernelResult& cached,
                              Evaluator& evaluator) {
  Variant v;
  if (cached.best) {
    v = *cached.best;
  } else {
    auto source = kernel_source(manifest, kernel);
    if (!source) return source.error();
    v.source = *source;
  }
  v.kernel = kernel.id;
  Evaluation e = evaluator.evaluate(kernel, v);
  if (e.verdict != Verdict::Accepted)
    return Error{fmt::format("it did not pass on today's captures ({}: {})", to_string(e.verdict), e.reason)};
  if (cached.best && !(e.speedup && *e.speedup >= kMinSpeedup))
    return Error{fmt::format("it is no longer faster on today's captures ({:.2f}x)", e.speedup.value_or(0))};
  return e;
}

}  // namespace

CacheLookup look_up(const ResultCache& cache, const Manifest& manifest, const Kernel& kernel, CacheKeyInputs inputs,
                    Evaluator& evaluator, VariantValidator& validator) {
  CacheLookup out;
  out.key = cache_key(inputs);
  out.inputs = std::move(inputs);
  auto found = cache.lookup(out.key);
  if (!found) {
    out.note = "cache entry ignored: " + found.error().message;
    cache.note(CacheEvent::Rejected, kernel.id);
    return out;
  }
  if (!*found) {
    cache.note(CacheEvent::Miss, kernel.id);
    return out;
  }
  const CacheEntry& entry = **found;
  auto reject = [&](const std::string& why) {
    out.note = fmt::format("cache entry {} not used: {}", out.key, why);
    cache.note(CacheEvent::Rejected, kernel.id);
    return out;
  };
  if (auto valid = validate_entry(entry, kernel, validator); !valid) return reject(valid.error().message);
  auto e = reverify(manifest, kernel, entry.result, evaluator);
  if (!e) return reject(e.error().message);

  KernelResult k = entry.result;
  k.id = kernel.id;
  k.cache = CacheState::Hit;
  k.tokens = {};
  k.cost_usd.reset();  // nothing was spent in this run
  k.baseline_us = e->baseline_us;
  if (k.best) {
    k.best->kernel = kernel.id;
    k.best_us = e->variant_us;
    k.speedup = e->speedup;
    k.checks = e->checks;
    k.captures = capture_times(*e);
  }
  k.checks.push_back({CheckName::Cache, true,
                      fmt::format("reused the search of {} (entry {}); re-verified on today's captures",
                                  entry.created.empty() ? "an earlier run" : entry.created, out.key)});
  out.hit = std::move(k);
  cache.touch(out.key);
  cache.note(CacheEvent::Hit, kernel.id);
  return out;
}

std::map<std::string, CacheLookup> look_up_all(const Manifest& manifest, const std::vector<const Kernel*>& kernels,
                                               const CacheSettings& settings, int parallel, Evaluator& evaluator,
                                               VariantValidator& validator,
                                               const std::function<KernelKeyParams(const Kernel&)>& params) {
  std::map<std::string, CacheLookup> out;
  if (!settings.cache) return out;
  std::vector<std::pair<const Kernel*, CacheKeyInputs>> todo;
  for (const Kernel* k : kernels)
    if (auto inputs = kernel_key_inputs(manifest, *k, params(*k), settings); inputs && kernel_source(manifest, *k))
      todo.emplace_back(k, std::move(*inputs));
  if (!settings.read) {
    for (auto& [k, inputs] : todo) out[k->id] = CacheLookup{cache_key(inputs), std::move(inputs), std::nullopt, ""};
    return out;
  }
  std::mutex mutex;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < todo.size();) {
      CacheLookup l = look_up(*settings.cache, manifest, *todo[i].first, todo[i].second, evaluator, validator);
      std::lock_guard lock(mutex);
      out[todo[i].first->id] = std::move(l);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int>(parallel, static_cast<int>(todo.size())); ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return out;
}

Expected<void> store_result(const CacheSettings& settings, const Kernel& kernel, const CacheLookup& lookup,
                            const KernelResult& result, const std::string& stopped) {
  // A search cut short by a cost or time limit may find more next time.
  bool finished = stopped == "budget" || stopped == "nothing left to expand";
  if (!settings.cache || lookup.key.empty() || !finished || !reusable(result)) return {};
  // Filed under the inputs the search really ran on: the evaluator may have
  // added captures meanwhile (from the annotation's args=/buffers=), and the
  // next run's lookup will see them.
  CacheKeyInputs inputs = lookup.inputs;
  inputs.input_shapes = input_shapes(kernel, settings);
  CacheEntry entry;
  entry.key = cache_key(inputs);
  entry.kernel = result.id;
  entry.created = utc_timestamp();
  entry.inputs = key_json(inputs);
  entry.result = result;
  entry.result.cache = CacheState::Off;
  if (auto ok = settings.cache->store(entry); !ok) return ok;
  settings.cache->note(CacheEvent::Store, result.id);
  return {};
}

}  // namespace stark
