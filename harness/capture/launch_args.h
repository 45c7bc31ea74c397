// What a kernel launch passes, read in the driver's launch callbacks: the
// launch's shape, stream and argument bytes (by the manifest's parameter
// layout), and the module variables a kernel's translation unit defines.
#ifndef STARK_HARNESS_CAPTURE_LAUNCH_ARGS_H
#define STARK_HARNESS_CAPTURE_LAUNCH_ARGS_H

#include <cuda.h>
#include <cupti.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "harness/capture/capture_plan.h"
#include "harness/common/cuda_driver.h"

namespace stark::harness {

/// One launch as the driver API received it.
struct Launch {
  CUfunction f = nullptr;
  LaunchShape shape;
  CUstream stream = nullptr;
  void** params = nullptr;
  void** extra = nullptr;
};

/// Reads a launch from the parameters of a launch callback; false for a
/// callback that is not a kernel launch.
bool decode(CUpti_CallbackId cbid, const void* params, Launch& l);

/// The raw bytes of each argument, by the manifest's layout (kernelParams or
/// the packed `extra` buffer); nothing, with `why`, when they cannot be read.
std::optional<std::vector<std::string>> argument_bytes(const PlanInstantiation& plan, const Launch& l,
                                                       std::string& why);

/// Address and size of a kernel's module variable. Since CUDA 12 the runtime
/// launches context-independent kernels: the launched handle may be a
/// CUkernel, which has no module until it is resolved in the context.
Expected<std::pair<CUdeviceptr, size_t>> module_variable(const CudaDriver& cu, CUfunction f, const std::string& name);

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_LAUNCH_ARGS_H
