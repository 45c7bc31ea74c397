// The worker protocol: one JSON object per line on the worker's stdin
// (requests) and stdout (replies), so a worker can run wherever a command can
// start it (locally, under srun, over ssh). A request names its files either
// as paths readable where the worker runs (a shared filesystem), or, when
// "shipped" is set, as content hashes of files sent to the worker before
// (docs/CONTRACTS.md, "Worker protocol"): the worker keeps them in a cache
// folder of its node, so each is sent once per node, not once per candidate.
//
//   {"op":"hello"}                      -> {"ok":true,"gpu":{...}|null,"mode":"gpu"|"no-gpu","host":"...","pid":N}
//                                          | {"ok":false,"error":"..."}
//   {"op":"have","blobs":["xxh64:..."]} -> {"ok":true,"missing":["xxh64:..."]}
//   {"op":"put","hash":H,"kind":"file"|"store","bytes":N} + N raw bytes after the newline
//                                       -> {"ok":true} | {"ok":false,"error":"..."} (the hash is checked)
//   {"op":"evaluate", ...EvaluateRequest} -> EvaluateReply
//   {"op":"run_once", ...EvaluateRequest} -> the variant once on the first capture (for compute-sanitizer)
//   {"op":"shutdown"}                   -> the worker exits
#ifndef STARK_HARNESS_WORKER_PROTOCOL_H
#define STARK_HARNESS_WORKER_PROTOCOL_H

#include <cstdio>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/check_names.h"
#include "core/evaluation.h"
#include "core/manifest.h"
#include "core/variant.h"
#include "harness/common/dtype.h"
#include "harness/store/capture.h"

namespace stark::harness {

/// What the worker knows of one kernel parameter.
struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Scalar;
  int64_t size = 0;
  std::string type;  // scalars: the type; pointers: the pointee
  bool is_const = false;
  std::vector<Field> fields;  // records: scalar fields, for launch expressions like p.rows
  DType dtype() const { return parse_dtype(type); }
  bool operator==(const ParamSpec&) const = default;
};

/// The parameters of one instantiation, from the manifest.
std::vector<ParamSpec> param_specs(const std::vector<Param>& params);

struct TimingSettings {
  bool enabled = true;
  int warmup = 3;
  int min_runs = 15;
  int max_runs = 300;
  double stable = 0.005;     // stop when medians move less than this (relative)
  double max_seconds = 3.0;  // per capture
  bool flush_l2 = true;
  bool operator==(const TimingSettings&) const = default;
};

struct EvaluateRequest {
  int64_t id = 0;
  std::string kernel;                                            // manifest id, for messages
  std::string store;                                             // capture store folder
  std::vector<std::string> captures;                             // capture ids
  std::map<std::string, std::vector<ParamSpec>> instantiations;  // mangled -> params
  std::string baseline_cubin;
  std::string variant_cubin;
  LaunchOverride launch;             // the variant's launch override
  std::optional<double> rtol, atol;  // the kernel's annotation; else per-type defaults
  int fuzz_rounds = 2;
  uint64_t seed = 1;
  TimingSettings timing;
  double watchdog_seconds = 10;  // a launch running longer than max(this, 50x the original) is a hang
  /// Judge the candidate at a smaller size derived from each capture too
  /// (worker/other_size.h). Off only after the original itself faulted there.
  bool other_sizes = true;
  /// Shipped request: the cubins are content hashes of "file" blobs, `store`
  /// is unused and `records` are the captures (their snapshots "store" blobs).
  bool shipped = false;
  std::vector<Capture> records;
  bool operator==(const EvaluateRequest&) const = default;
};

/// Worker outcome: ok, or the variant faulted / hung (the worker then exits),
/// or the request could not be served (error: a problem of the setup).
enum class ReplyStatus { Ok, Fault, Hang, Error };

struct EvaluateReply {
  int64_t id = 0;
  ReplyStatus status = ReplyStatus::Ok;
  std::string detail;
  std::vector<Check> checks;
  std::vector<CaptureEvaluation> captures;
  /// Answered by a worker without a GPU (stark-worker --no-gpu): the checks
  /// it could make without running anything; nothing ran or was timed.
  bool no_gpu = false;
  /// The original kernel itself faulted at a size derived from a capture:
  /// ask again with other_sizes off (the worker exited; the fault is not
  /// the candidate's).
  bool other_sizes_faulted = false;
  /// Wall seconds of each phase the worker ran ("load", "correctness",
  /// "other_sizes", "fuzz", "timing", "recheck"): where a slow evaluation's
  /// time went. Read for the progress line only, never for a verdict.
  std::map<std::string, double> seconds;
  bool operator==(const EvaluateReply&) const = default;
};

const char* to_string(ReplyStatus s);

/// How a shipped blob is kept: "file" (raw bytes, a cubin) or "store" (a
/// capture snapshot, sent as the zstd frame the capture store keeps).
enum class BlobKind { File, Store };
const char* to_string(BlobKind k);

void to_json(nlohmann::json& j, const ParamSpec& p);
void from_json(const nlohmann::json& j, ParamSpec& p);
void to_json(nlohmann::json& j, const TimingSettings& t);
void from_json(const nlohmann::json& j, TimingSettings& t);
void to_json(nlohmann::json& j, const EvaluateRequest& r);
void from_json(const nlohmann::json& j, EvaluateRequest& r);
void to_json(nlohmann::json& j, const EvaluateReply& r);
void from_json(const nlohmann::json& j, EvaluateReply& r);

/// Why a GPU worker's reply to `request` cannot stand as a verdict, or ""
/// when it can: it answers another request, lacks a check every verdict
/// needs (absent is never taken as passed), or names captures that were
/// not asked for.
std::string incomplete_reply(const EvaluateRequest& request, const EvaluateReply& reply);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_PROTOCOL_H
