// One transformation of the built-in expert's catalogue: it recognises the
// code it applies to (from the clang analysis of the kernel) and rewrites
// the kernel's source, keeping the user's names, types and expressions.
#ifndef STARK_AGENTS_BUILTIN_STRATEGY_H
#define STARK_AGENTS_BUILTIN_STRATEGY_H

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agents/builtin/limiter.h"
#include "clang_tool/kernel_analysis.h"
#include "core/expected.h"
#include "core/gpu_info.h"
#include "core/manifest.h"
#include "core/variant.h"

namespace stark::builtin {

/// Integer knobs of a strategy (block size, tile size...), in a stable order.
struct Params {
  std::map<std::string, int64_t> values;
  int64_t get(const std::string& key) const { return values.at(key); }
  /// For knobs added later: a plan written before them still applies.
  int64_t get_or(const std::string& key, int64_t fallback) const {
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  /// "block=256,k=8"
  std::string describe() const;
  static Expected<Params> parse(std::string_view text);
  bool operator==(const Params&) const = default;
};

/// What a strategy sees: the kernel, its current source and launch override,
/// the analysis of that source, and the GPU.
struct Subject {
  const Kernel* kernel = nullptr;
  std::string source;
  LaunchOverride launch;
  const KernelAnalysis* analysis = nullptr;
  std::optional<GpuInfo> gpu;
  std::vector<std::string> applied;  // strategy names already on this node's path from the root
  std::vector<std::map<std::string, int64_t>>
      scalars;  // each capture's integer scalar arguments (KernelBrief::scalars)

  int sm_count() const { return gpu && gpu->sm_count > 0 ? gpu->sm_count : 132; }
  bool has(const std::string& strategy) const;
  /// The largest captured value of an integer parameter; nullopt when a
  /// capture lacks it (or there are none): then nothing is known about it.
  std::optional<int64_t> largest(const std::string& param) const;
  /// How many threads the kernel needs along `axis` ('x' or 'y'), in the
  /// launch expression language: the bound its thread index is checked
  /// against when that is an integer parameter every capture has (`n`,
  /// `p.rows`), as a person sizes a grid; else what the original launched
  /// (`grid.x * block.x`).
  std::string extent(char axis) const;
  /// The kernel with a rewritten source and this subject's launch.
  Variant with_source(std::string source) const;
  /// The kernel with a rewritten source on a grid-stride launch of its own:
  /// p's `block` threads per block, as many blocks as the work needs but no
  /// more than p's `blocks_per_sm` on each multiprocessor.
  Variant on_capped_grid(std::string source, const Params& p) const;
};

/// What a strategy changes: the kernel's structure (how its work maps to
/// threads and memory: tiles, block-wide reductions, vector accesses), or
/// only how it is compiled and launched (polish: block size, qualifiers,
/// unrolling, register caps). The planner offers the structural ones first.
enum class StrategyKind { Structural, Polish };

class Strategy {
 public:
  virtual ~Strategy() = default;
  /// A short stable name: "block-reduce", "tile-transpose"...
  virtual std::string name() const = 0;
  virtual StrategyKind kind() const = 0;
  /// One line for reports: what it does.
  virtual std::string summary() const = 0;
  /// The limiters (limiter.h) this transformation relieves when it applies:
  /// the planner tries first what eases the one the profile names.
  virtual std::vector<Limiter> eases() const = 0;
  /// Whether it eases `l` (never Limiter::Unknown: nothing was named).
  bool eases(Limiter l) const;
  /// Parameter sets worth trying, most promising first; empty: does not apply.
  virtual std::vector<Params> candidates(const Subject& s) const = 0;
  /// The rewritten kernel. Errors say why it cannot apply after all.
  virtual Expected<Variant> apply(const Subject& s, const Params& p) const = 0;
};

/// The block size a variant launches with when it is a constant, else 0.
int64_t constant_block(const LaunchOverride& launch);

/// "name(block=256,k=8)", the form plans and tree nodes carry.
std::string label(const Strategy& s, const Params& p);

/// Splits a label back; nullopt when it is not one.
std::optional<std::pair<std::string, Params>> parse_label(std::string_view label);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_STRATEGY_H
