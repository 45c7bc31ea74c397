#include "harness/common/cuda_driver.h"

#include <string>
#include <dlfcn.h>
#include <fmt/format.h>

#include <mutex>
#include <optional>

namespace stark::harness {

namespace {

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

Expected<const CudaDriver*> load(CudaDriver& cu, bool init) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return Error{
        "no NVIDIA driver on this machine: libcuda.so.1 could not be loaded (a CUDA GPU and its driver are needed)"};
  auto get_proc = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!get_proc)
    return Error{
        fmt::format("the NVIDIA driver is too old: libcuda.so.1 lacks cuGetProcAddress_v2 (CUDA {}.{} or newer needed)",
                    CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10)};
  std::string missing;
#define STARK_CU_LOAD(name)                                                                        \
  {                                                                                                \
    void* fn = nullptr;                                                                            \
    CUdriverProcAddressQueryResult found{};                                                        \
    if (get_proc(#name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS || \
        found != CU_GET_PROC_ADDRESS_SUCCESS || !fn)                                               \
      missing += missing.empty() ? #name : ", " #name;                                             \
    cu.name = reinterpret_cast<decltype(cu.name)>(fn);                                             \
  }
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
