#include "harness/worker/roofline.h"

#include <algorithm>
#include <functional>

#include "harness/worker/gpu_context.h"

namespace stark::harness {

namespace {

// Eight independent FMA chains per thread, four times per loop trip: enough
// independent work that every FP32 lane issues an FMA each cycle. `scale` is
// a launch argument, so nothing folds at compile time; the sums are stored,
// so nothing is dead. PTX (not a cubin) so the driver builds it for the GPU
// at hand.
constexpr int kFmasPerTrip = 32;
constexpr const char* kFmaPeakPtx = R"ptx(
.version 7.8
.target sm_75
.address_size 64
.visible .entry stark_fma_peak(.param .u64 out, .param .u32 iterations, .param .f32 scale)
{
  .reg .pred %p;
  .reg .b32 %r<6>;
  .reg .f32 %a<8>;
  .reg .f32 %s;
  .reg .f32 %t;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [iterations];
  ld.param.f32 %s, [scale];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  cvt.rn.f32.u32 %t, %r5;
  add.f32 %a0, %t, 0f3F800000;
  add.f32 %a1, %t, 0f40000000;
  add.f32 %a2, %t, 0f40400000;
  add.f32 %a3, %t, 0f40800000;
  add.f32 %a4, %t, 0f40A00000;
  add.f32 %a5, %t, 0f40C00000;
  add.f32 %a6, %t, 0f40E00000;
  add.f32 %a7, %t, 0f41000000;
LOOP:
  fma.rn.f32 %a0, %a0, %s, %t; fma.rn.f32 %a1, %a1, %s, %t; fma.rn.f32 %a2, %a2, %s, %t; fma.rn.f32 %a3, %a3, %s, %t; fma.rn.f32 %a4, %a4, %s, %t; fma.rn.f32 %a5, %a5, %s, %t; fma.rn.f32 %a6, %a6, %s, %t; fma.rn.f32 %a7, %a7, %s, %t;
  fma.rn.f32 %a0, %a0, %s, %t; fma.rn.f32 %a1, %a1, %s, %t; fma.rn.f32 %a2, %a2, %s, %t; fma.rn.f32 %a3, %a3, %s, %t; fma.rn.f32 %a4, %a4, %s, %t; fma.rn.f32 %a5, %a5, %s, %t; fma.rn.f32 %a6, %a6, %s, %t; fma.rn.f32 %a7, %a7, %s, %t;
  fma.rn.f32 %a0, %a0, %s, %t; fma.rn.f32 %a1, %a1, %s, %t; fma.rn.f32 %a2, %a2, %s, %t; fma.rn.f32 %a3, %a3, %s, %t; fma.rn.f32 %a4, %a4, %s, %t; fma.rn.f32 %a5, %a5, %s, %t; fma.rn.f32 %a6, %a6, %s, %t; fma.rn.f32 %a7, %a7, %s, %t;
  fma.rn.f32 %a0, %a0, %s, %t; fma.rn.f32 %a1, %a1, %s, %t; fma.rn.f32 %a2, %a2, %s, %t; fma.rn.f32 %a3, %a3, %s, %t; fma.rn.f32 %a4, %a4, %s, %t; fma.rn.f32 %a5, %a5, %s, %t; fma.rn.f32 %a6, %a6, %s, %t; fma.rn.f32 %a7, %a7, %s, %t;
  sub.u32 %r1, %r1, 1;
  setp.ne.u32 %p, %r1, 0;
  @%p bra LOOP;
  add.f32 %a0, %a0, %a1; add.f32 %a0, %a0, %a2; add.f32 %a0, %a0, %a3; add.f32 %a0, %a0, %a4; add.f32 %a0, %a0, %a5; add.f32 %a0, %a0, %a6; add.f32 %a0, %a0, %a7;
  mul.wide.u32 %rd2, %r5, 4;
  add.u64 %rd1, %rd1, %rd2;
  st.global.f32 [%rd1], %a0;
  ret;
}
)ptx";

/// The shortest of `runs` timed runs of `enqueue` on the worker's stream (one
/// more runs first to warm up, uncounted), in milliseconds; 0 when the
/// events fail.
double best_ms(GpuContext& gpu, int runs, const std::function<bool()>& enqueue) {
  const CudaDriver& cu = gpu.cu();
  CUevent start = nullptr, stop = nullptr;
  if (cu.cuEventCreate(&start, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return 0;
  if (cu.cuEventCreate(&stop, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
    cu.cuEventDestroy(start);
    return 0;
  }
  double best = 0;
  for (int run = 0; run <= runs; ++run) {
    cu.cuEventRecord(start, gpu.stream());
    bool queued = enqueue();
    cu.cuEventRecord(stop, gpu.stream());
    float ms = 0;
    if (!queued || cu.cuEventSynchronize(stop) != CUDA_SUCCESS ||
        cu.cuEventElapsedTime(&ms, start, stop) != CUDA_SUCCESS) {
      best = 0;
      break;
    }
    if (run > 0 && ms > 0 && (best == 0 || ms < best)) best = ms;
  }
  cu.cuEventDestroy(start);
  cu.cuEventDestroy(stop);
  return best;
}

}  // namespace

double measure_copy_bandwidth(GpuContext& gpu, size_t at_least_bytes) {
  const CudaDriver& cu = gpu.cu();
  size_t free = 0, total = 0;
  if (cu.cuMemGetInfo(&free, &total) != CUDA_SUCCESS) return 0;
  // Capped so a busy GPU keeps most of its free memory.
  size_t bytes = std::min<size_t>(std::max<size_t>(at_least_bytes, size_t{256} << 20), free / 4);
  if (bytes < (size_t{32} << 20)) return 0;
  auto src = gpu.alloc(bytes, "the copy-bandwidth probe");
  auto dst = gpu.alloc(bytes, "the copy-bandwidth probe");
  if (!src || !dst) return 0;
  cu.cuMemsetD8Async(src->ptr(), 1, bytes, gpu.stream());
  cu.cuMemsetD8Async(dst->ptr(), 2, bytes, gpu.stream());
  double ms = best_ms(
      gpu, 5, [&] { return cu.cuMemcpyDtoDAsync(dst->ptr(), src->ptr(), bytes, gpu.stream()) == CUDA_SUCCESS; });
  return ms > 0 ? 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0;
}

double measure_fma_peak(GpuContext& gpu) {
  const CudaDriver& cu = gpu.cu();
  const int block = 256;
  const int per_sm = static_cast<int>(gpu.limits().max_threads_per_sm / block);
  const int blocks = std::max(1, gpu.info().sm_count) * std::max(1, per_sm);
  const size_t threads = static_cast<size_t>(blocks) * block;
  unsigned iterations = 2048;
  float scale = 0.999f;
  auto out = gpu.alloc(threads * sizeof(float), "the FMA-peak probe");
  if (!out) return 0;
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  if (cu.cuModuleLoadData(&module, kFmaPeakPtx) != CUDA_SUCCESS) return 0;
  double ms = 0;
  if (cu.cuModuleGetFunction(&fn, module, "stark_fma_peak") == CUDA_SUCCESS) {
    CUdeviceptr ptr = out->ptr();
    void* args[] = {&ptr, &iterations, &scale};
    ms = best_ms(gpu, 5, [&] {
      return cu.cuLaunchKernel(fn, blocks, 1, 1, block, 1, 1, 0, gpu.stream(), args, nullptr) == CUDA_SUCCESS;
    });
  }
  cu.cuModuleUnload(module);
  double flops = 2.0 * kFmasPerTrip * iterations * static_cast<double>(threads);
  return ms > 0 ? flops / (ms * 1e-3) / 1e9 : 0;
}

}  // namespace stark::harness
