// From a capture to a launch: the grid, block and shared memory (with a
// variant's launch override computed from the captured values), and the
// packed argument list the driver takes.
#ifndef STARK_HARNESS_WORKER_LAUNCH_CONFIG_H
#define STARK_HARNESS_WORKER_LAUNCH_CONFIG_H

#include <optional>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/variant.h"
#include "harness/store/capture.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

struct LaunchDims {
  Dim3 grid{1, 1, 1};
  Dim3 block{1, 1, 1};
  uint32_t shmem = 0;
  bool cooperative = false;      // launched as a cooperative grid (grid-wide sync)
  std::string describe() const;  // "grid (4096,1,1) block (256,1,1) shmem 0"
  bool operator==(const LaunchDims&) const = default;
};

/// What the device allows (cuDeviceGetAttribute); defaults are Hopper's.
struct DeviceLimits {
  int64_t max_threads_per_block = 1024;
  Dim3 max_block{1024, 1024, 64};
  Dim3 max_grid{2147483647u, 65535u, 65535u};
  int64_t max_shmem_optin = 227 * 1024;
  int64_t max_threads_per_sm = 2048;
};

/// Checks the capture's arguments against the instantiation's parameters
/// (count, kinds, sizes): a stale capture or manifest is an error.
Expected<void> check_args(const Capture& capture, const std::vector<ParamSpec>& params);

/// The integer value of a scalar argument (for launch expressions); nullopt
/// for floating-point or non-scalar arguments.
std::optional<int64_t> integer_scalar(const CapturedArg& arg, const ParamSpec& param);

/// The captured launch shape with `override` applied (empty: unchanged).
Expected<LaunchDims> launch_dims(const Capture& capture, const std::vector<ParamSpec>& params,
                                 const LaunchOverride& override);

/// Errors say which limit a launch breaks.
Expected<void> check_limits(const LaunchDims& dims, const DeviceLimits& limits);

/// Argument storage for cuLaunchKernel: one buffer per parameter and the
/// array of pointers to them. Pointers get buffer_addresses[buffer] + offset;
/// `replaced` substitutes the bytes of scalar arguments (fuzzing) by index.
class KernelArgs {
 public:
  KernelArgs(const Capture& capture, const std::vector<uint64_t>& buffer_addresses,
             const std::map<size_t, std::string>& replaced = {});
  void** pointers() { return pointers_.data(); }
  const std::string& bytes(size_t i) const { return storage_[i]; }

 private:
  std::vector<std::string> storage_;
  std::vector<void*> pointers_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_LAUNCH_CONFIG_H
