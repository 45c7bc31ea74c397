// Measures the two roofline ceilings of this GPU in this run: device copy
// bandwidth (a device-to-device cudaMemcpy of 2 GiB: read + write bytes per
// second) and the fp32 FMA rate (independent FMA chains on every SM).
// Prints JSON: {"gpu", "copy_bytes_per_s", "fp32_flops_per_s", ...}.
#include <cstdio>

#include "gpu_timer.h"

namespace {

constexpr int kChains = 8;       // independent FMA chains per thread: hides the FMA latency
constexpr int kIters = 16384;    // FMAs per chain (about 0.5 ms per launch on an H200)
constexpr int kThreads = 256;

// Each thread runs kChains dependent FMA chains; the result is stored only
// if impossible, so the compiler cannot drop the work but nothing is written.
__global__ void fma_peak_kernel(float seed, float* sink) {
  float a[kChains];
  for (int c = 0; c < kChains; ++c) a[c] = seed + threadIdx.x + c;
  const float m = 0.999999f, k = 1e-7f;
#pragma unroll 16
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) a[c] = fmaf(a[c], m, k);
  }
  float s = 0;
  for (int c = 0; c < kChains; ++c) s += a[c];
  if (s == -1.0f) *sink = s;
}

}  // namespace

int main() {
  const size_t bytes = size_t(2) << 30;
  void *src = nullptr, *dst = nullptr;
  BENCH_CUDA(cudaMalloc(&src, bytes));
  BENCH_CUDA(cudaMalloc(&dst, bytes));
  BENCH_CUDA(cudaMemset(src, 1, bytes));
  double copy_us = mean_us([&] { BENCH_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)); }, 20, 3);

  int sms = 0;
  BENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = sms * 8;  // 2048 threads per SM: full occupancy on sm_80/sm_90
  float* sink = nullptr;
  BENCH_CUDA(cudaMalloc(&sink, sizeof(float)));
  double fma_us = mean_us([&] { fma_peak_kernel<<<blocks, kThreads>>>(1.0f, sink); }, 20, 3);
  double flops = 2.0 * blocks * kThreads * kChains * double(kIters);

  std::printf("{\"schema\": \"stark.bench-roofline/1\", \"gpu\": \"%s\", \"sms\": %d,\n"
              " \"copy_bytes\": %zu, \"copy_us\": %.3f, \"copy_bytes_per_s\": %.6g,\n"
              " \"fma_flops\": %.6g, \"fma_us\": %.3f, \"fp32_flops_per_s\": %.6g}\n",
              gpu_name(), sms, 2 * bytes, copy_us, 2 * bytes / (copy_us * 1e-6), flops, fma_us,
              flops / (fma_us * 1e-6));
  BENCH_CUDA(cudaFree(src));
  BENCH_CUDA(cudaFree(dst));
  BENCH_CUDA(cudaFree(sink));
  return 0;
}
