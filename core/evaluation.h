// The verdict on one variant (stark.evaluation/1): was it correct, and how fast.
#ifndef STARK_CORE_EVALUATION_H
#define STARK_CORE_EVALUATION_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/check_names.h"
#include "core/gpu_info.h"
#include "core/profile.h"

namespace stark {

inline constexpr const char* kEvaluationSchema = "stark.evaluation/1";

enum class Verdict { Accepted, Rejected, Error };

/// One guard of docs/design.md ("What a speedup must survive"). ok = nullopt: the guard could not run
/// (say why in detail): a report must show it, never count it as passed.
struct Check {
  CheckName name = CheckName::Correctness;
  std::optional<bool> ok;
  std::string detail;
  bool operator==(const Check&) const = default;
};

/// Robust summary of repeated timings, in microseconds.
struct Timing {
  double median = 0;
  double p10 = 0;
  double p90 = 0;
  int n = 0;
  bool operator==(const Timing&) const = default;
};

struct CaptureEvaluation {
  std::string id;
  std::optional<Timing> baseline_us;
  std::optional<Timing> variant_us;
  std::optional<double> max_abs_err;
  std::optional<double> max_rel_err;
  /// Extension: the bytes this launch must move through DRAM at least once
  /// (harness/worker/traffic.h), for its share of the memory roof.
  std::optional<uint64_t> bytes;
  /// Extension: CUDA's occupancy calculator at this capture's launch shape
  /// (active warps per multiprocessor over the most allowed), per kernel.
  std::optional<double> baseline_occupancy;
  std::optional<double> variant_occupancy;
  bool operator==(const CaptureEvaluation&) const = default;
};

struct Evaluation {
  std::string kernel;
  Verdict verdict = Verdict::Error;
  std::string reason;
  bool compile_ok = false;
  std::string compile_log;
  std::vector<Check> checks;
  std::vector<CaptureEvaluation> captures;
  std::optional<double> baseline_us;  // sum over captures of per-capture medians
  std::optional<double> variant_us;
  std::optional<double> speedup;
  std::optional<GpuInfo> gpu;
  // Extension: true when the variant compiled (and validated) but nothing
  // could be run or timed, e.g. on a machine without a GPU. Verdict is Error.
  bool untimed = false;
  // Extension: wall seconds of the evaluation's phases that ran ("compile",
  // "judge", "gates", "sanitize"), so a slow search shows where its time went.
  std::map<std::string, double> seconds;
  // Extension: what the original and the variant cost the GPU beyond their
  // time (core/profile.h), as far as this evaluation got.
  ProfileFacts baseline_profile;
  ProfileFacts variant_profile;
  bool operator==(const Evaluation&) const = default;
};

const char* to_string(Verdict v);

void to_json(nlohmann::json& j, const Check& c);
void from_json(const nlohmann::json& j, Check& c);
void to_json(nlohmann::json& j, const Timing& t);
void from_json(const nlohmann::json& j, Timing& t);
void to_json(nlohmann::json& j, const CaptureEvaluation& c);
void from_json(const nlohmann::json& j, CaptureEvaluation& c);
void to_json(nlohmann::json& j, const Evaluation& e);
void from_json(const nlohmann::json& j, Evaluation& e);

}  // namespace stark

#endif  // STARK_CORE_EVALUATION_H
