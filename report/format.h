// How the reports write numbers and summarise checks, so Markdown, HTML and
// JSON say the same thing the same way.
#ifndef STARK_REPORT_FORMAT_H
#define STARK_REPORT_FORMAT_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/evaluation.h"
#include "core/gpu_info.h"
#include "core/result.h"
#include "core/units.h"

namespace stark::report {

/// Speedups above this are shown with a request for a second look (docs/design.md, "What a speedup must survive").
inline constexpr double kSecondLookSpeedup = 10.0;

/// "412 µs", "1.24 ms", "3.10 s": three significant digits. "—" for nullopt.
std::string format_time_us(std::optional<double> us);
/// "1.84×" (two decimals below 10, one above). "—" for nullopt.
std::string format_speedup(std::optional<double> s);
/// "980", "41.2k", "1.25M".
std::string format_count(int64_t n);
/// "$1.23", "$0.0042"; "—" for nullopt.
std::string format_cost(std::optional<double> usd);
/// "NVIDIA H200 (sm_90, driver 580.95, CUDA 13.0)"; "no GPU" for nullopt.
std::string format_gpu(const std::optional<GpuInfo>& gpu);
/// "anthropic claude-sonnet-4", "builtin".
std::string format_backend(const BackendInfo& b);
/// True when the backend's roles are played by a model that spends tokens
/// (every backend but the built-in expert).
bool uses_llm(const BackendInfo& b);

/// How a candidate was tied to its plan, in words ("plan re-anchored: it
/// changed code outside its markers"); empty for Grounding::None.
std::string grounding_text(Grounding g);

/// The checks of a kernel, split the way a reviewer reads them.
struct CheckSummary {
  std::vector<const Check*> passed;
  std::vector<const Check*> failed;
  std::vector<const Check*> not_run;  // ok = null: could not run; never counted as passed
};
CheckSummary summarize_checks(const std::vector<Check>& checks);

/// Why a kernel ended `failed`, in one line a user can act on: its first
/// failed check ("captures: no launch of it was recorded..."), else the first
/// line of what the original's evaluation said; empty when nothing does.
std::string failure_reason(const KernelResult& k);

/// Checks that could not run, grouped by their reason (detail), in order of
/// first appearance: {"compute-sanitizer is not installed", {"memcheck", "racecheck"}}.
std::vector<std::pair<std::string, std::vector<std::string>>> not_run_by_reason(const CheckSummary& s);

/// Totals over all kernels of a result.
struct RunTotals {
  int kernels = 0;
  int improved = 0;
  int attempts = 0;
  int64_t tokens = 0;
  std::optional<double> cost_usd;         // nullopt when no kernel reported a cost
  std::optional<double> geomean_speedup;  // over improved kernels
};
RunTotals run_totals(const Result& r);

/// How close a kernel runs to the memory roof: the bytes its captures must
/// move (harness/worker/traffic.h) over its time, against the copy
/// bandwidth the worker measured on the same GPU in the same run.
struct MemoryRoof {
  double baseline = 0;  // share of the roof, 0.42 = 42%
  double best = 0;
  double best_gbs = 0;  // achieved by the kept variant
  double roof_gbs = 0;  // measured copy bandwidth
};
/// nullopt unless every timed capture has its bytes and the GPU its copy bandwidth.
std::optional<MemoryRoof> memory_roof(const KernelResult& k, const std::optional<GpuInfo>& gpu);
/// "42%", "0.3%", "—" for nullopt.
std::string format_share(std::optional<double> share);
using stark::format_bandwidth;  // core/units.h

/// A kernel status as people read it: "improved", "no gain", "failed"...
std::string status_label(KernelStatus s);

}  // namespace stark::report

#endif  // STARK_REPORT_FORMAT_H
