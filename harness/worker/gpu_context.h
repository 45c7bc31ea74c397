// The worker's hold on one GPU: its primary context, a stream, events, the
// buffer used to flush L2 between timed runs, loaded modules, and a wait that
// never blocks forever (the watchdog).
#ifndef STARK_HARNESS_WORKER_GPU_CONTEXT_H
#define STARK_HARNESS_WORKER_GPU_CONTEXT_H

#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "core/gpu_info.h"
#include "harness/common/cuda_driver.h"
#include "harness/worker/launch_config.h"

namespace stark::harness {

/// Device memory, freed on destruction.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(const CudaDriver* cu, CUdeviceptr ptr, size_t size) : cu_(cu), ptr_(ptr), size_(size) {}
  DeviceMemory(DeviceMemory&& o) noexcept { *this = std::move(o); }
  DeviceMemory& operator=(DeviceMemory&& o) noexcept;
  ~DeviceMemory();
  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return size_; }

 private:
  const CudaDriver* cu_ = nullptr;
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
};

class GpuContext {
 public:
  /// Opens device `ordinal` (its primary context) and makes it current.
  static Expected<std::unique_ptr<GpuContext>> open(int ordinal);
  ~GpuContext();

  const CudaDriver& cu() const { return *cu_; }
  const GpuInfo& info() const { return info_; }
  const DeviceLimits& limits() const { return limits_; }
  CUstream stream() const { return stream_; }

  Expected<DeviceMemory> alloc(size_t bytes, const char* what);

  /// Loads (or returns the already loaded) module of a cubin file. Its
  /// module-scope variables' values at load time are kept aside.
  Expected<CUmodule> module(const std::string& cubin_path);
  /// Queues the restore of every module-scope variable of `module` to its
  /// value at load time. Done before every launch, so a kernel can keep no
  /// state from one launch to the next (a memo of earlier answers, a launch
  /// counter that turns lazy once the checks are over).
  Expected<void> reset_globals(CUmodule module);
  /// A kernel of a loaded module; the error names it and the cubin.
  Expected<CUfunction> function(CUmodule module, const std::string& mangled, const std::string& cubin_path);

  /// Launches on the worker's stream; sets the dynamic shared memory limit
  /// first when more than 48 KiB are asked for.
  /// CUDA's occupancy calculator: active warps per multiprocessor over the
  /// most allowed, for `f` launched with `d`'s block and dynamic shared
  /// memory; nullopt when the driver cannot say.
  std::optional<double> occupancy(CUfunction f, const LaunchDims& d);
  CUresult launch(CUfunction f, const LaunchDims& dims, void** args);

  enum class WaitResult { Done, Fault, Hang };
  struct Waited {
    WaitResult result = WaitResult::Done;
    CUresult error = CUDA_SUCCESS;
  };
  /// Waits for the stream to drain, at most `seconds`.
  Waited wait(double seconds);

  /// Overwrites a buffer twice the L2 size, so the next launch starts cold.
  void flush_l2();

  /// Sticky errors leave the context unusable: the worker must exit.
  static bool is_sticky(CUresult r);

 private:
  GpuContext() = default;
  const CudaDriver* cu_ = nullptr;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  GpuInfo info_;
  DeviceLimits limits_;
  DeviceMemory flush_;
  /// A module-scope variable and its value at load time, kept in host
  /// memory, where no kernel can reach it.
  struct InitialGlobal {
    std::string name;
    CUdeviceptr ptr = 0;
    size_t size = 0;
    std::string initial;
  };
  struct LoadedModule {
    std::string path;
    CUmodule module = nullptr;
    std::vector<InitialGlobal> globals;
  };
  Expected<std::vector<InitialGlobal>> keep_initial_globals(CUmodule m, const std::string& image);
  std::list<LoadedModule> modules_;  // most recently used first
};

/// The NVIDIA driver's version string ("580.159.04") from /proc, or "".
std::string nvidia_driver_version();

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_GPU_CONTEXT_H
