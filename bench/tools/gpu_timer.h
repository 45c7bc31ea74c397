// Timing the way KernelBench and torch_times.py do it: warm-up launches,
// then `trials` launches each between two CUDA events, mean reported. Shared
// by roofline.cu and vendor_times.cu.
#ifndef BENCH_TOOLS_GPU_TIMER_H
#define BENCH_TOOLS_GPU_TIMER_H

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define BENCH_CUDA(expr)                                                                         \
  do {                                                                                           \
    cudaError_t err_ = (expr);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorString(err_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// Mean microseconds of run() over `trials` timed calls after `warmup` calls.
template <typename F>
double mean_us(F run, int trials = 100, int warmup = 10) {
  for (int i = 0; i < warmup; ++i) run();
  cudaEvent_t start, stop;
  BENCH_CUDA(cudaEventCreate(&start));
  BENCH_CUDA(cudaEventCreate(&stop));
  double total_ms = 0;
  for (int i = 0; i < trials; ++i) {
    BENCH_CUDA(cudaEventRecord(start));
    run();
    BENCH_CUDA(cudaEventRecord(stop));
    BENCH_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
    total_ms += ms;
  }
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaEventDestroy(start));
  BENCH_CUDA(cudaEventDestroy(stop));
  return 1000 * total_ms / trials;
}

// Name of device 0, for the JSON outputs.
inline const char* gpu_name() {
  static cudaDeviceProp prop;
  BENCH_CUDA(cudaGetDeviceProperties(&prop, 0));
  return prop.name;
}

#endif  // BENCH_TOOLS_GPU_TIMER_H
