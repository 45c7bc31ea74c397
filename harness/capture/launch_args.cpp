#include "harness/capture/launch_args.h"

namespace stark::harness {

Expected<std::pair<CUdeviceptr, size_t>> module_variable(const CudaDriver& cu, CUfunction f, const std::string& name) {
  CUdeviceptr address = 0;
  size_t size = 0;
  CUmodule module = nullptr;
  CUresult r = cu.cuFuncGetModule(&module, f);
  if (r != CUDA_SUCCESS) {
    CUfunction resolved = nullptr;
    if (cu.cuKernelGetFunction(&resolved, reinterpret_cast<CUkernel>(f)) == CUDA_SUCCESS)
      r = cu.cuFuncGetModule(&module, resolved);
  }
  if (r == CUDA_SUCCESS) {
    r = cu.cuModuleGetGlobal(&address, &size, module, name.c_str());
    if (r == CUDA_SUCCESS) return std::make_pair(address, size);
  }
  CUlibrary library = nullptr;
  if (cu.cuKernelGetLibrary(&library, reinterpret_cast<CUkernel>(f)) == CUDA_SUCCESS) {
    r = cu.cuLibraryGetGlobal(&address, &size, library, name.c_str());
    if (r == CUDA_SUCCESS) return std::make_pair(address, size);
  }
  return Error{cu.describe(r)};
}

bool decode(CUpti_CallbackId cbid, const void* p, Launch& l) {
  auto basic = [&](auto* a, bool ptsz) {
    l.f = a->f;
    l.shape.grid = {a->gridDimX, a->gridDimY, a->gridDimZ};
    l.shape.block = {a->blockDimX, a->blockDimY, a->blockDimZ};
    l.shape.shmem = a->sharedMemBytes;
    l.stream = a->hStream;
    if (ptsz && !l.stream) l.stream = CU_STREAM_PER_THREAD;
    l.params = a->kernelParams;
  };
  auto ex = [&](auto* a, bool ptsz) {
    const CUlaunchConfig* c = a->config;
    l.f = a->f;
    l.shape.grid = {c->gridDimX, c->gridDimY, c->gridDimZ};
    l.shape.block = {c->blockDimX, c->blockDimY, c->blockDimZ};
    l.shape.shmem = c->sharedMemBytes;
    l.stream = c->hStream;
    if (ptsz && !l.stream) l.stream = CU_STREAM_PER_THREAD;
    for (unsigned i = 0; i < c->numAttrs; ++i) {
      if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) l.shape.cooperative = c->attrs[i].value.cooperative != 0;
      if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
        l.shape.cluster =
            Dim3{c->attrs[i].value.clusterDim.x, c->attrs[i].value.clusterDim.y, c->attrs[i].value.clusterDim.z};
    }
    l.params = a->kernelParams;
    l.extra = a->extra;
  };
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: {
      auto* a = static_cast<const cuLaunchKernel_params*>(p);
      basic(a, false);
      l.extra = a->extra;
      return true;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      auto* a = static_cast<const cuLaunchKernel_ptsz_params*>(p);
      basic(a, true);
      l.extra = a->extra;
      return true;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      basic(static_cast<const cuLaunchCooperativeKernel_params*>(p), false);
      l.shape.cooperative = true;
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      basic(static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(p), true);
      l.shape.cooperative = true;
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      ex(static_cast<const cuLaunchKernelEx_params*>(p), false);
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      ex(static_cast<const cuLaunchKernelEx_ptsz_params*>(p), true);
      return true;
    default: return false;
  }
}

std::optional<std::vector<std::string>> argument_bytes(const PlanInstantiation& plan, const Launch& l,
                                                       std::string& why) {
  std::vector<std::string> out;
  if (l.params) {
    for (size_t i = 0; i < plan.params.size(); ++i)
      out.emplace_back(static_cast<const char*>(l.params[i]), static_cast<size_t>(plan.params[i].size));
    return out;
  }
  if (l.extra) {
    const char* buffer = nullptr;
    size_t size = 0;
    for (void** e = l.extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
      if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = static_cast<const char*>(e[1]);
      else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = *static_cast<size_t*>(e[1]);
    }
    auto offsets = packed_offsets(plan.params);
    for (size_t i = 0; i < plan.params.size(); ++i) {
      if (!buffer || offsets[i] + static_cast<size_t>(plan.params[i].size) > size) {
        why = "the launch packs its arguments in a buffer that does not match the manifest's parameters";
        return std::nullopt;
      }
      out.emplace_back(buffer + offsets[i], static_cast<size_t>(plan.params[i].size));
    }
    return out;
  }
  if (plan.params.empty()) return out;
  why = "the launch passes neither kernelParams nor an argument buffer";
  return std::nullopt;
}

}  // namespace stark::harness
