// A GPU worker as seen from the evaluator: a child process started from a
// command (stark-worker --device N, possibly behind srun or ssh), greeted
// once, then given one request at a time. A worker that crashes, hangs or
// exits after a faulting kernel is killed and started again on the next
// request; the outcome of the request it was serving says what happened.
#ifndef STARK_HARNESS_EVALUATOR_WORKER_PROCESS_H
#define STARK_HARNESS_EVALUATOR_WORKER_PROCESS_H

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/child_process.h"
#include "core/expected.h"
#include "core/gpu_info.h"

namespace stark::harness {

/// What a worker said when greeted.
struct WorkerHello {
  std::optional<GpuInfo> gpu;  // nullopt: a worker without a GPU (stark-worker --no-gpu)
  std::string mode;            // "gpu" or "no-gpu"
  std::string host;
  int64_t pid = 0;  // on `host`
};

class WorkerProcess {
 public:
  explicit WorkerProcess(std::vector<std::string> argv,
                         std::chrono::milliseconds start_timeout = std::chrono::seconds(120),
                         std::map<std::string, std::string> env = {});
  ~WorkerProcess();

  /// Starts the worker when none runs and says hello. The GPU it reports,
  /// or (one line) why there is none.
  Expected<GpuInfo> start();

  /// Starts the worker when none runs; what it said (a worker without a GPU
  /// is no error here).
  Expected<WorkerHello> greet();

  struct Outcome {
    enum class Kind { Reply, Crashed, TimedOut, NotStarted };
    Kind kind = Kind::Reply;
    nlohmann::json reply;       // Kind::Reply
    std::string detail;         // otherwise: what happened, for the verdict
    double queued_seconds = 0;  // WorkerPool::submit: the wait for a free worker
  };
  /// Sends a request (followed by `payload`'s raw bytes, for "put") and
  /// waits up to `timeout` for its reply. Every request carries a sequence
  /// number the reply must echo: a reply out of step (or without it) is not
  /// taken, the worker is stopped and the outcome is Crashed.
  Outcome request(const nlohmann::json& request, std::chrono::milliseconds timeout, std::string_view payload = {});

  /// Workers started so far (1 + restarts).
  int starts() const { return starts_; }
  const std::vector<std::string>& argv() const { return argv_; }

 private:
  void stop();
  /// Writes `request` with the next sequence number and reads its reply line.
  ChildProcess::ReadStatus exchange(nlohmann::json request, std::chrono::milliseconds timeout, std::string_view payload,
                                    bool* written, std::string& line);
  /// The reply's JSON, or why it cannot be taken (not JSON, wrong sequence number).
  Expected<nlohmann::json> take_reply(const std::string& line) const;
  std::vector<std::string> argv_;
  std::chrono::milliseconds start_timeout_;
  std::unique_ptr<ChildProcess> child_;
  std::map<std::string, std::string> env_;
  std::optional<WorkerHello> hello_;  // what the running worker said
  int starts_ = 0;
  int64_t seq_ = 0;  // of the last request sent
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_WORKER_PROCESS_H
