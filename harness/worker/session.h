// The worker's request handler: keeps the GPU context, loaded captures and
// what it learned about the original kernel on each capture, and runs the
// evaluation protocol (docs/threat-model.md, "How a candidate is judged")
// for each request.
#ifndef STARK_HARNESS_WORKER_SESSION_H
#define STARK_HARNESS_WORKER_SESSION_H

#include <vector>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "harness/worker/blob_cache.h"
#include "harness/worker/check_list.h"
#include "harness/worker/gpu_context.h"
#include "harness/worker/judge.h"
#include "harness/worker/memory.h"
#include "harness/worker/other_size.h"
#include "harness/worker/protocol.h"
#include "harness/worker/replay.h"

namespace stark::harness {

/// How a worker was started (stark-worker's options).
struct SessionOptions {
  int device = 0;
  bool no_gpu = false;              // --no-gpu: check what needs no device, run nothing
  std::filesystem::path cache_dir;  // shipped blobs; empty: BlobCache::default_dir()
};

class Session {
 public:
  explicit Session(int device) : Session(SessionOptions{device, false, {}}) {}
  explicit Session(SessionOptions options) : options_(std::move(options)), device_(options_.device) {}

  /// One request line in, one reply out. `payload` is the bytes that
  /// followed a "put" request's line (empty for every other request).
  nlohmann::json handle(const nlohmann::json& request, const std::string& payload = {});

  /// After a fault or a hang the GPU context is unusable: the worker must exit.
  bool must_exit() const { return must_exit_; }

 private:
  /// The original's result at a smaller size derived from a capture.
  struct OtherSizeReference {
    OtherSize size;
    Memory reference;
  };
  /// One round of fuzzed inputs on a capture and the original's result on them.
  struct FuzzRound {
    std::vector<std::string> before;        // every buffer before the launch, the floating-point ones scaled
    std::set<int> fuzzed;                   // the buffers of `before` that are not the capture's
    std::map<size_t, std::string> scalars;  // floating-point scalar arguments, scaled
    Memory reference;                       // the original's result on them
    bool clean = true;                      // false: the original writes outside a buffer there: no reference
    /// What a launch on these inputs is given (`unread` poisoned, as always).
    ReplayInputs inputs(const std::set<int>& unread) const;
    uint64_t bytes() const;
  };
  /// What the original does on one capture (computed once per capture and cubin).
  struct Analysis {
    std::set<int> unread;     // poisoned for every candidate launch
    std::set<int> read_only;  // only const pointers point there
    std::vector<BufferInfo> info;
    std::vector<std::string> before;  // memory before a launch (unread ones poisoned)
    Memory reference;                 // the original's result on that memory
    double launch_ms = 0;
    std::string problem;                      // non-empty: this capture cannot be replayed
    std::optional<OtherSizeReference> other;  // nullopt: `no_other` says why
    std::string no_other;
    std::map<std::pair<uint64_t, int>, FuzzRound> fuzz_rounds;  // by seed and round, while the budget lasts
    uint64_t fuzz_bytes = 0;                                    // what they hold
  };
  struct Target {  // one capture, ready to run
    ReplayCapture* replay = nullptr;
    const std::vector<ParamSpec>* params = nullptr;
    CUfunction baseline = nullptr;
    CUfunction variant = nullptr;
    LaunchDims baseline_dims;
    LaunchDims variant_dims;
    Analysis* analysis = nullptr;
  };
  /// How one launch ended.
  struct Ran {
    GpuContext::WaitResult result = GpuContext::WaitResult::Done;
    std::string detail;  // fault / hang / launch error text
    bool launch_error = false;
  };
  /// One evaluate request in progress: what the phases share.
  struct Job {
    const EvaluateRequest& r;
    EvaluateReply reply;
    CheckList checks;
    std::map<std::string, CaptureEvaluation> per_capture;
    std::vector<Target> targets;
    CUmodule base_mod = nullptr;
    CUmodule var_mod = nullptr;
    EvaluateReply finish();
    EvaluateReply crashed(const Ran& ran, const std::string& capture);
    EvaluateReply error(const std::string& message);
  };

  Expected<GpuContext*> gpu();
  Expected<BlobCache*> cache();
  nlohmann::json have(const nlohmann::json& request);
  nlohmann::json put(const nlohmann::json& request, const std::string& payload);
  nlohmann::json evaluate_request(const nlohmann::json& request, bool once);
  EvaluateReply evaluate(const EvaluateRequest& request);
  EvaluateReply run_once(const EvaluateRequest& request);
  Expected<ReplayCapture*> replay(const CaptureStore& store, const Capture& capture, bool guard_zones = true);
  Expected<Analysis*> analyse(Target& t, CUmodule baseline_module, const std::string& cubin, const EvaluateRequest& r);
  /// Each buffer's type, tolerance (the request's over the type's default),
  /// name (the parameters pointing there) and whether a non-const pointer
  /// reaches it.
  static std::vector<BufferInfo> buffer_info(const Target& t, const EvaluateRequest& r);
  /// Why the original's result on the captured inputs is no reference: it
  /// wrote outside a buffer, or differs from what the capture recorded; ""
  /// when it reproduces it.
  static std::string does_not_reproduce(const Target& t, const Analysis& a, const Memory& normal);
  /// The original once on the captured inputs, timed (`launch_ms`): its
  /// result, or why it could not run (a fault makes the worker exit).
  Expected<Memory> run_original_timed(Target& t, CUmodule bm, const EvaluateRequest& r, double& launch_ms);
  /// The writable buffers the original never reads (poisoned alone, its
  /// result does not change) into `a.unread`, and its reference result.
  Expected<void> find_unread(Target& t, CUmodule bm, const EvaluateRequest& r, Analysis& a, const Memory& normal);
  /// The original at a smaller size (`a.other`), or why not (`a.no_other`).
  /// An error only when the original faulted there (the worker must exit).
  Expected<void> analyse_other_size(Target& t, CUmodule bm, Analysis& a, const EvaluateRequest& r);

  // The phases of an evaluation, in order; each returns false when the
  // evaluation ends there (job.reply / job.checks say why).
  std::optional<EvaluateReply> load_targets(Job& job);
  /// Capture `id` as one of job.targets, or left out (the original does not
  /// reproduce it) with the reason in `skipped`; a reply when the evaluation
  /// ends here.
  std::optional<EvaluateReply> load_target(Job& job, const CaptureStore& store, const CaptureIndex& index,
                                           const std::string& id, std::vector<std::string>& skipped);
  bool judge_launches(Job& job);
  bool judge_other_sizes(Job& job);
  bool judge_fuzzed(Job& job);
  /// Round `round` of fuzzed inputs on t's capture and the original's result
  /// on them: kept in t's analysis while kFuzzCacheBytes allows (every
  /// candidate is judged on the same ones), else made in `scratch`. nullptr
  /// when the capture holds nothing floating point to fuzz.
  Expected<const FuzzRound*> fuzz_round(Job& job, Target& t, int round, FuzzRound& scratch);
  bool time_launches(Job& job);  // session_timing.cpp
  bool recheck(Job& job);
  /// The original, replayed from the worker's copies of the inputs, still
  /// gives its reference on every target; false (Recheck failed, the worker
  /// to exit after this reply) when a candidate changed memory outside its
  /// buffers. Error when the original itself fails.
  bool memory_intact(Job& job);
  class TimingEvents;
  /// One target's interleaved timed launches into job.per_capture, spot
  /// checks of the candidate's timed launches counted in `spot_checked`.
  bool time_target(Job& job, Target& t, const TimingEvents& events, std::mt19937_64& pick, int& spot_checked);
  /// The original and the candidate launched once each, timed, in the
  /// order given, and waited for; a fault or a hang is the candidate's.
  bool launch_pair(Job& job, Target& t, const ReplayInputs& in, const TimingEvents& events, bool variant_first);
  /// The variant on one target's memory, judged against `reference` into `check_name`.
  bool judge_variant(Job& job, Target& t, const ReplayInputs& in, const std::vector<std::string>& before,
                     const Memory& reference, CheckName check_name, const std::string& label,
                     Judgement* judged = nullptr);
  Ran run(Target& t, bool variant, const ReplayInputs& inputs, CUmodule module, double watchdog_s, Memory* out);
  double watchdog(const Target& t, const EvaluateRequest& r) const;

  SessionOptions options_;
  int device_;
  std::optional<BlobCache> cache_;
  std::unique_ptr<GpuContext> gpu_;
  std::optional<Error> gpu_error_;
  /// Frees the least recently used captures beyond the memory budget, except `keep`.
  void evict(const std::set<std::string>& keep);

  struct Loaded {
    std::unique_ptr<ReplayCapture> replay;
    uint64_t last_used = 0;
  };
  std::map<std::string, Loaded> replays_;  // by store folder + capture id
  uint64_t clock_ = 0;
  std::map<std::string, Analysis> analyses_;
  /// Host memory the analyses' fuzz rounds may hold, over all captures.
  static constexpr uint64_t kFuzzCacheBytes = uint64_t{4} << 30;
  uint64_t fuzz_cache_bytes_ = 0;
  MemoryPool memory_;  // where launches' results are read back
  bool must_exit_ = false;
  bool other_size_faulted_ = false;  // the original faulted at a derived size in this request
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_SESSION_H
