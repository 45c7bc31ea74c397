#include "harness/common/cuda_driver.h"

#include <string>
#include <dlfcn.h>
#include <fmt/format.h>

#include <mutex>
#include <optional>

namespace stark::harness {

namespace {

// The exported symbol a cuda.h name stands for, its macros applied:
// cuMemAlloc is "cuMemAlloc_v2", cuCtxGetDevice is "cuCtxGetDevice".
#define STARK_CU_SYMBOL(name) STARK_CU_STRING(name)
#define STARK_CU_STRING(name) #name

Expected<const CudaDriver*> load(CudaDriver& cu, bool init) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return Error{
        "no NVIDIA driver on this machine: libcuda.so.1 could not be loaded (a CUDA GPU and its driver are needed)"};
  // Each entry point by the symbol cuda.h declares, so its signature is the
  // one this code calls. cuGetProcAddress(name, CUDA_VERSION) would give the
  // newest one instead, and CUDA 13 gave some new signatures under old
  // names: cuCtxGetDevice(CUdevice*) became cuCtxGetDevice_v2(CUdevice*,
  // CUcontext), which, called with one argument, read a context from
  // whatever the register held (the capture library crashed in some runs).
  std::string missing;
#define STARK_CU_LOAD(name)                                                         \
  cu.name = reinterpret_cast<decltype(cu.name)>(dlsym(lib, STARK_CU_SYMBOL(name))); \
  if (!cu.name) missing += missing.empty() ? STARK_CU_SYMBOL(name) : ", " STARK_CU_SYMBOL(name);
  STARK_CU_FUNCTIONS(STARK_CU_LOAD)
#undef STARK_CU_LOAD
  if (!missing.empty())
    return Error{fmt::format("the NVIDIA driver is too old for CUDA {}.{}: it lacks {}", CUDA_VERSION / 1000,
                             CUDA_VERSION % 1000 / 10, missing)};
  if (!init) {
    cu.cuDriverGetVersion(&cu.driver_version);
    return &cu;
  }
  if (CUresult r = cu.cuInit(0); r != CUDA_SUCCESS) {
    if (r == CUDA_ERROR_NO_DEVICE) return Error{"no CUDA device: the NVIDIA driver is installed but sees no GPU"};
    return cuda_error(cu, r, "the CUDA driver did not initialise (cuInit)");
  }
  cu.cuDriverGetVersion(&cu.driver_version);
  return &cu;
}

}  // namespace

std::vector<std::string> cuda_driver_symbols() {
  std::vector<std::string> out;
#define STARK_CU_NAME(name) out.emplace_back(STARK_CU_SYMBOL(name));
  STARK_CU_FUNCTIONS(STARK_CU_NAME)
#undef STARK_CU_NAME
  return out;
}

std::string CudaDriver::describe(CUresult r) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName) cuGetErrorName(r, &name);
  if (cuGetErrorString) cuGetErrorString(r, &text);
  if (!name) return fmt::format("CUDA error {}", static_cast<int>(r));
  return text ? fmt::format("{} ({})", name, text) : std::string(name);
}

Error cuda_error(const CudaDriver& cu, CUresult r, const std::string& what) {
  return Error{fmt::format("{}: {}", what, cu.describe(r))};
}

Expected<const CudaDriver*> cuda_driver() {
  static std::once_flag once;
  static std::optional<Expected<const CudaDriver*>> result;
  static CudaDriver cu;
  std::call_once(once, [] { result.emplace(load(cu, true)); });
  return *result;
}

Expected<const CudaDriver*> cuda_driver_no_init() {
  static std::once_flag once;
  static std::optional<Expected<const CudaDriver*>> result;
  static CudaDriver cu;
  std::call_once(once, [] { result.emplace(load(cu, false)); });
  return *result;
}

}  // namespace stark::harness
