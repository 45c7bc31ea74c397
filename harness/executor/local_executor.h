// The local executor: one worker per GPU of this machine, each pinned to its
// GPU with CUDA_VISIBLE_DEVICES so that it sees exactly one device (device 0)
// and a fault in one never touches another's context.
#ifndef STARK_HARNESS_EXECUTOR_LOCAL_EXECUTOR_H
#define STARK_HARNESS_EXECUTOR_LOCAL_EXECUTOR_H

#include <optional>
#include <string>
#include <vector>

#include "harness/executor/executor.h"

namespace stark::harness {

/// Workers on this machine; they read the evaluator's files by path. One per
/// GPU, or ExecutorOptions::workers of them spread round-robin over the GPUs.
class LocalExecutor final : public Executor {
 public:
  /// `visible`: the GPUs the evaluator's process sees; nullopt: ask the
  /// driver (none found: one worker, which then says why it has no GPU).
  explicit LocalExecutor(ExecutorOptions options, std::optional<int> visible = std::nullopt);
  std::string name() const override { return "local"; }
  int size() const override { return static_cast<int>(devices_.size()); }
  WorkerLaunch launch(int index, const std::vector<std::string>& wrap = {}) const override;
  bool ships() const override { return options_.ship.value_or(false); }
  std::chrono::seconds start_timeout() const override { return std::chrono::seconds(120); }

 private:
  ExecutorOptions options_;
  std::vector<int> devices_;  // ordinals as the evaluator's process numbers them
};

/// The entries of a CUDA_VISIBLE_DEVICES value ("0,2", "GPU-<uuid>,..."),
/// so that a worker pinned to ordinal i gets the entry the parent calls i.
std::vector<std::string> visible_device_list(const std::string& value);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EXECUTOR_LOCAL_EXECUTOR_H
