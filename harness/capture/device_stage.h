// Device memory that a launch's buffers are copied into before and after the
// launch. A device-to-device copy runs at the GPU's bandwidth, so the program
// under capture waits only for that; the writers bring the copies to the host
// later, off the program's path (a device-to-host copy of a 256 MiB buffer
// into pageable memory held the program up about 0.1 s on the H200 machine).
//
// Buffers are pooled per context and size, at most a quarter of the memory
// free when the context first stages something (and 8 GiB), or what the user
// set (`stark capture --device-stage`); past that the library copies
// straight to the host. A context's buffers are freed when it is about to be
// destroyed, after the writers have drained.
#ifndef STARK_HARNESS_CAPTURE_DEVICE_STAGE_H
#define STARK_HARNESS_CAPTURE_DEVICE_STAGE_H

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "core/expected.h"
#include "harness/common/cuda_driver.h"

namespace stark::harness {

/// A snapshot waiting in device memory.
struct StagedCopy {
  CUcontext context = nullptr;
  CUdeviceptr data = 0;
  size_t size = 0;
};

class DeviceStage {
 public:
  /// `limit`: the user's cap on the stage (0: no stage), else budget()'s default.
  DeviceStage(const CudaDriver& cu, std::optional<uint64_t> limit) : cu_(cu), limit_(limit) {}
  DeviceStage(const DeviceStage&) = delete;
  DeviceStage& operator=(const DeviceStage&) = delete;

  /// n bytes of device memory in `context` (current on the calling thread),
  /// or nothing: over the budget, or the driver refused.
  std::optional<StagedCopy> take(CUcontext context, size_t n);
  /// Back to its context's pool; a buffer of a context released since is dropped.
  void give(const StagedCopy& c);
  /// Copies a staged snapshot to `host` (n = c.size bytes) on a stream of its
  /// own, from any thread: the context is made current on the caller.
  Expected<void> to_host(const StagedCopy& c, char* host) const;
  /// Frees every buffer of `context`, which is about to be destroyed: no copy
  /// may be in flight.
  void release(CUcontext context);

  /// The stage's budget in a context with `free_bytes` of device memory free:
  /// the user's limit up to half of that, else a quarter of it, at most 8 GiB.
  static uint64_t budget(uint64_t free_bytes, std::optional<uint64_t> limit = std::nullopt);

 private:
  struct PerContext {
    uint64_t budget = 0;
    uint64_t held = 0;  // lent and pooled
    std::multimap<size_t, CUdeviceptr> pooled;
    std::set<CUdeviceptr> lent;
  };
  const CudaDriver& cu_;
  std::optional<uint64_t> limit_;
  std::mutex mutex_;
  std::map<CUcontext, PerContext> contexts_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_DEVICE_STAGE_H
