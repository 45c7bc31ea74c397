// The CUDA driver API, loaded at run time from libcuda.so.1.
//
// Programs of the harness never link libcuda: on a machine without the NVIDIA
// driver they still start and say so in one line, instead of failing in the
// dynamic loader. Every entry point is resolved through cuGetProcAddress for
// the CUDA version the harness was built against, so versioned symbols
// (cuMemAlloc_v2...) are the right ones.
#ifndef STARK_HARNESS_COMMON_CUDA_DRIVER_H
#define STARK_HARNESS_COMMON_CUDA_DRIVER_H

#include <cuda.h>

#include <string>
#include <vector>

#include "core/expected.h"

namespace stark::harness {

// The driver functions the harness calls. Names are the cuda.h spellings; the
// macros of cuda.h map them to the versioned symbols consistently.
// clang-format off
#define STARK_CU_FUNCTIONS(X)                                                                                 \
  X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount) X(cuDeviceGet)    \
  X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuDevicePrimaryCtxRetain)                  \
  X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxGetCurrent) X(cuCtxGetDevice) X(cuCtxSynchronize)    \
  X(cuCtxPushCurrent) X(cuCtxPopCurrent) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)         \
  X(cuModuleGetGlobal) X(cuFuncSetAttribute) X(cuFuncGetAttribute) X(cuFuncGetModule) X(cuMemAlloc)          \
  X(cuMemFree) X(cuMemGetInfo) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD) X(cuMemcpyDtoHAsync)           \
  X(cuMemcpyHtoDAsync) X(cuMemcpyDtoDAsync) X(cuMemsetD8) X(cuMemsetD8Async) X(cuMemHostRegister)             \
  X(cuMemHostUnregister) X(cuMemGetAddressRange) X(cuPointerGetAttribute) X(cuStreamCreate) X(cuStreamDestroy)     \
  X(cuStreamSynchronize) X(cuStreamQuery) X(cuStreamIsCapturing) X(cuStreamGetCtx) X(cuEventCreate)          \
  X(cuEventDestroy) X(cuEventRecord) X(cuEventQuery) X(cuEventSynchronize) X(cuEventElapsedTime)             \
  X(cuLaunchKernel) X(cuLaunchKernelEx) X(cuKernelGetFunction) X(cuKernelGetLibrary) X(cuLibraryGetGlobal)     \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)
// clang-format on

/// Function pointers to the driver; obtain one with cuda_driver().
struct CudaDriver {
#define STARK_CU_MEMBER(name) decltype(&::name) name = nullptr;
  STARK_CU_FUNCTIONS(STARK_CU_MEMBER)
#undef STARK_CU_MEMBER
  int driver_version = 0;  // cuDriverGetVersion, e.g. 13000

  /// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)".
  std::string describe(CUresult r) const;
};

/// Loads libcuda.so.1 once (thread-safe) and calls cuInit(0). The error says
/// in one line why not: no driver installed, driver too old, no device...
Expected<const CudaDriver*> cuda_driver();

/// The same entry points without calling cuInit: for code that runs inside a
/// process whose CUDA is already initialised (the capture library).
Expected<const CudaDriver*> cuda_driver_no_init();

/// The symbols of libcuda.so.1 the entry points are loaded from, in the
/// order of STARK_CU_FUNCTIONS: the names cuda.h declares, its macros
/// applied ("cuMemAlloc_v2", "cuCtxGetDevice"), so each has the signature
/// the code calls it with.
std::vector<std::string> cuda_driver_symbols();

/// Formats a failed call: "<what>: CUDA_ERROR_... (text)".
Error cuda_error(const CudaDriver& cu, CUresult r, const std::string& what);

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMMON_CUDA_DRIVER_H
