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

/// The metrics asked for, by the short name prompts and reports show: each
/// in percent of its peak over the launch.
inline constexpr std::pair<const char*, const char*> kNcuMetrics[] = {
    {"sm", "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
    {"memory", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
    {"dram", "dram__throughput.avg.pct_of_peak_sustained_elapsed"},
};

/// `configured` when set ("off": none), else ncu on PATH or in the CUDA
/// toolkit; empty when there is none.
std::string find_ncu(const std::string& configured);

/// The metrics of the first kernel in `ncu --csv` output (one row per
/// metric, with "Metric Name" and "Metric Value" columns), by short name.
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
