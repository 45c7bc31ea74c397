// Nsight Compute as a source of profile facts (core/profile.h): the worker
// runs one launch of a kernel under `ncu --clock-control none` (the clocks
// stay where the timing saw them) and three throughput metrics come back.
// Where ncu is missing or cannot read the counters, there are no ncu facts;
// nothing else changes.
#ifndef STARK_HARNESS_EVALUATOR_NCU_H
#define STARK_HARNESS_EVALUATOR_NCU_H

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/expected.h"

namespace stark::harness {

/// One metric asked of ncu, by the short name the facts use.
struct NcuMetric {
  const char* name;
  const char* metric;
  /// Throughput in percent of its peak over the launch, kept as it is in
  /// ProfileFacts::ncu; the others are counts the FLOP rate is made from.
  bool percent;
};

inline constexpr NcuMetric kNcuMetrics[] = {
    {"sm", "sm__throughput.avg.pct_of_peak_sustained_elapsed", true},
    {"memory", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", true},
    {"dram", "dram__throughput.avg.pct_of_peak_sustained_elapsed", true},
    // FP32 instructions executed by threads whose predicate was on: the
    // kernel's floating-point work, however its source spells it.
    {"ffma", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", false},
    {"fadd", "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", false},
    {"fmul", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", false},
    {"duration_ns", "gpu__time_duration.sum", false},
};

/// `configured` when set ("off": none), else ncu on PATH or in the CUDA
/// toolkit; empty when there is none.
std::string find_ncu(const std::string& configured);

/// The metrics of the first kernel in `ncu --csv` output (one row per
/// metric, with "Metric Name", "Metric Unit" and "Metric Value" columns), by
/// short name, in base units: ncu scales a value to its size ("12.5 Minst",
/// "3.2 usecond"), so counts come back as counts and times as nanoseconds.
/// ncu's own "==PROF==" lines may surround the table.
Expected<std::map<std::string, double>> parse_ncu_csv(std::string_view text);

/// Runs `worker_argv` under ncu on a run_once request, profiling the one
/// launch of `mangled`. The error says why there are no facts.
Expected<std::map<std::string, double>> run_ncu(const std::string& ncu, const std::vector<std::string>& worker_argv,
                                                const nlohmann::json& run_once_request, const std::string& mangled,
                                                std::chrono::seconds timeout, const std::filesystem::path& tmp_dir,
                                                const std::map<std::string, std::string>& env = {});

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_NCU_H
