// The GPU workers of one evaluator, started through an Executor. Each
// request goes to a free worker; when requests are shipped, the blobs it
// needs that this worker has not got are sent first ("have", then "put" for
// the missing ones) and remembered, so a capture crosses the wire once per
// worker, not once per candidate. A worker lost on the way (it exited or its
// connection broke without answering: a node failure, srun killed, the OOM
// killer) is started again and the request re-queued, first in line for the
// next free worker. Only a request that keeps losing workers is answered
// with the loss. Which worker serves a request never changes its answer,
// so the search's tree does not depend on how many workers there are.
#ifndef STARK_HARNESS_EVALUATOR_WORKER_POOL_H
#define STARK_HARNESS_EVALUATOR_WORKER_POOL_H

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/evaluator/shipment.h"
#include "harness/evaluator/worker_process.h"
#include "harness/executor/executor.h"

namespace stark::harness {

struct WorkerPoolOptions {
  std::chrono::milliseconds request_timeout{std::chrono::seconds(900)};
  int max_losses = 2;  // re-queues of one request before its loss is its answer
};

/// What one worker slot did (restarts included).
struct WorkerStats {
  int starts = 0;
  int served = 0;  // requests answered
  int lost = 0;    // requests it lost (re-queued)
  int blobs_sent = 0;
  uint64_t bytes_sent = 0;
};

class WorkerPool {
 public:
  WorkerPool(std::unique_ptr<Executor> executor, WorkerPoolOptions options);
  ~WorkerPool();

  /// Starts and greets every worker at once. The first GPU any reports;
  /// `no_gpu_workers` when they run without one; else why there is none.
  struct Probe {
    std::optional<GpuInfo> gpu;
    bool no_gpu_workers = false;
    std::string problem;  // one line, when no worker could be greeted
  };
  Probe probe();

  /// Serves one request: by path, or (shipment given) shipped. The outcome
  /// is the reply, or how the last attempt failed.
  WorkerProcess::Outcome submit(const nlohmann::json& request, const Shipment* shipment = nullptr);

  const Executor& executor() const { return *executor_; }
  int size() const { return static_cast<int>(slots_.size()); }
  std::vector<WorkerStats> stats() const;

  /// Called right before a request is written to worker `index` (its hello
  /// names host and pid): progress lines, and tests that take a worker away.
  std::function<void(int index, const WorkerHello& hello)> on_dispatch;

 private:
  struct Slot {
    std::unique_ptr<WorkerProcess> worker;
    bool busy = false;
    int starts_seen = 0;        // the worker's start count when `has` was last valid
    std::set<std::string> has;  // blobs this worker process is known to have
    WorkerStats stats;
  };
  size_t lease(bool first_in_line);
  void release(size_t slot);
  /// Sends what `shipment` needs that the worker lacks; an outcome when that failed.
  std::optional<WorkerProcess::Outcome> ship(Slot& slot, const Shipment& shipment);

  std::unique_ptr<Executor> executor_;
  WorkerPoolOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable free_;
  int requeued_waiting_ = 0;  // re-queued requests waiting for a worker: they go first
  std::vector<Slot> slots_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_WORKER_POOL_H
