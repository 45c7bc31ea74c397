// Lab: which changes move a block-per-row, row-cached softmax towards the
// copy bandwidth? Hand-written variants of what the built-in expert emits
// for examples/nnops softmax_rows_kernel, timed on the example's two test
// shapes. Prints one line per variant; not a test. Build and run:
//
//   nvcc -O3 -std=c++17 -arch=sm_90 bench/lab/softmax_variants.cu -o /tmp/sv && /tmp/sv
//
// The variants, each adding one change to the one before unless noted:
//   emitted     what row-cache(16) + unroll + restrict produced (expf twice, divide)
//   keep-exp    the sum pass stores expf(x - max) in the cache; the output pass reuses it
//   reciprocal  the output multiplies by 1/sum instead of dividing
//   vec4        the cache is filled and drained with float4 where the row is 16-byte aligned
//   fast-exp    __expf instead of expf (needs the tolerance to allow it)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e = (call);                                                              \
    if (e != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));    \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

namespace {

enum Flags : unsigned { kKeepExp = 1, kReciprocal = 2, kVec4 = 4, kFastExp = 8 };

template <bool kSum>
__device__ __forceinline__ float warp_reduce(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    float other = __shfl_xor_sync(0xffffffffu, v, offset);
    v = kSum ? v + other : fmaxf(v, other);
  }
  return v;
}

template <bool kSum>
__device__ float block_reduce(float v, float* partial) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  v = warp_reduce<kSum>(v);
  __syncthreads();
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = lane < warps ? partial[lane] : (kSum ? 0.0f : partial[0]);
  return warp_reduce<kSum>(v);
}

template <unsigned F>
__device__ __forceinline__ float exp_of(float v) {
  return (F & kFastExp) ? __expf(v) : expf(v);
}

// K values per thread, strided by the block (scalar) or by 4 x block (vec4).
template <int K, unsigned F>
__global__ void softmax_cached(int rows, int cols, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<size_t>(row) * cols;
  float* out = y + static_cast<size_t>(row) * cols;
  float cache[K];
  const bool vec = (F & kVec4) && (cols % 4 == 0) && (reinterpret_cast<size_t>(in) % 16 == 0) &&
                   (reinterpret_cast<size_t>(out) % 16 == 0);
  // Column of cache slot k: scalar slots stride by the block; vec4 slots
  // come in fours, 4 x block apart.
  auto column = [&](int k) {
    return vec ? (threadIdx.x + (k / 4) * blockDim.x) * 4 + (k % 4) : threadIdx.x + k * blockDim.x;
  };
  if (vec) {
#pragma unroll
    for (int k = 0; k < K; k += 4) {
      const int c = column(k);
      if (c < cols) {
        float4 v = *reinterpret_cast<const float4*>(in + c);
        cache[k] = v.x, cache[k + 1] = v.y, cache[k + 2] = v.z, cache[k + 3] = v.w;
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int c = column(k);
      if (c < cols) cache[k] = in[c];
    }
  }
  float max_value = -INFINITY;
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (column(k) < cols) max_value = fmaxf(max_value, cache[k]);
  for (int c = threadIdx.x + K * blockDim.x; c < cols; c += blockDim.x) max_value = fmaxf(max_value, in[c]);
  max_value = block_reduce<false>(max_value, partial);
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    if (column(k) < cols) {
      const float e = exp_of<F>(cache[k] - max_value);
      if (F & kKeepExp) cache[k] = e;
      sum += e;
    }
  }
  for (int c = threadIdx.x + K * blockDim.x; c < cols; c += blockDim.x) sum += exp_of<F>(in[c] - max_value);
  sum = block_reduce<true>(sum, partial);
  const float inverse = 1.0f / sum;
  auto finish = [&](float e) { return (F & kReciprocal) ? e * inverse : e / sum; };
  if (vec) {
#pragma unroll
    for (int k = 0; k < K; k += 4) {
      const int c = column(k);
      if (c < cols) {
        float4 v;
        float* lanes = &v.x;
#pragma unroll
        for (int j = 0; j < 4; ++j)
          lanes[j] = finish((F & kKeepExp) ? cache[k + j] : exp_of<F>(cache[k + j] - max_value));
        *reinterpret_cast<float4*>(out + c) = v;
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int c = column(k);
      if (c < cols) out[c] = finish((F & kKeepExp) ? cache[k] : exp_of<F>(cache[k] - max_value));
    }
  }
  for (int c = threadIdx.x + K * blockDim.x; c < cols; c += blockDim.x)
    out[c] = finish(exp_of<F>(in[c] - max_value));
}

struct Shape {
  int rows, cols;
};

using Kernel = void (*)(int, int, const float*, float*);

// Median of 30 timed launches after 3 warm-ups, in microseconds.
float time_kernel(Kernel kernel, int block, Shape s, const float* x, float* y) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int i = 0; i < 33; ++i) {
    CHECK(cudaEventRecord(start));
    kernel<<<s.rows, block>>>(s.rows, s.cols, x, y);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (i >= 3) times.push_back(ms * 1000.0f);
  }
  CHECK(cudaGetLastError());
  std::sort(times.begin(), times.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return times[times.size() / 2];
}

// Largest relative error of y against a double softmax, over a sample of rows.
double check(Shape s, const std::vector<float>& x, const float* dy) {
  std::vector<float> y(static_cast<size_t>(s.rows) * s.cols);
  CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int r = 0; r < s.rows; r += 97) {
    const float* in = &x[static_cast<size_t>(r) * s.cols];
    double m = -INFINITY, sum = 0;
    for (int c = 0; c < s.cols; ++c) m = std::max(m, double(in[c]));
    for (int c = 0; c < s.cols; ++c) sum += std::exp(in[c] - m);
    for (int c = 0; c < s.cols; ++c) {
      const double ref = std::exp(in[c] - m) / sum;
      worst = std::max(worst, std::abs(y[static_cast<size_t>(r) * s.cols + c] - ref) / ref);
    }
  }
  return worst;
}

struct Variant {
  const char* name;
  Kernel kernel;
  int block;
};

}  // namespace

int main() {
  const Shape shapes[] = {{8192, 4096}, {4099, 1000}};
  // Copy bandwidth to compare against: a device-to-device copy of 1 GiB.
  const size_t copy_bytes = size_t(1) << 30;
  void *a, *b;
  CHECK(cudaMalloc(&a, copy_bytes));
  CHECK(cudaMalloc(&b, copy_bytes));
  std::vector<float> copy_times;
  for (int i = 0; i < 13; ++i) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start), cudaEventCreate(&stop);
    cudaEventRecord(start);
    CHECK(cudaMemcpy(b, a, copy_bytes, cudaMemcpyDeviceToDevice));
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms;
    cudaEventElapsedTime(&ms, start, stop);
    if (i >= 3) copy_times.push_back(ms);
  }
  std::sort(copy_times.begin(), copy_times.end());
  const double copy_bw = 2.0 * copy_bytes / (copy_times[copy_times.size() / 2] * 1e-3);
  cudaFree(a), cudaFree(b);
  std::printf("copy bandwidth %.2f TB/s\n", copy_bw / 1e12);

  const Variant variants[] = {
      {"emitted          b256 K16", softmax_cached<16, 0>, 256},
      {"keep-exp         b256 K16", softmax_cached<16, kKeepExp>, 256},
      {"+reciprocal      b256 K16", softmax_cached<16, kKeepExp | kReciprocal>, 256},
      {"+vec4            b256 K16", softmax_cached<16, kKeepExp | kReciprocal | kVec4>, 256},
      {"+fast-exp        b256 K16", softmax_cached<16, kKeepExp | kReciprocal | kVec4 | kFastExp>, 256},
      {"reciprocal only  b256 K16", softmax_cached<16, kReciprocal>, 256},
      {"vec4 only        b256 K16", softmax_cached<16, kVec4>, 256},
      {"keep+recip       b512 K8 ", softmax_cached<8, kKeepExp | kReciprocal>, 512},
      {"keep+recip       b1024 K4", softmax_cached<4, kKeepExp | kReciprocal>, 1024},
      {"keep+recip+vec4  b512 K8 ", softmax_cached<8, kKeepExp | kReciprocal | kVec4>, 512},
      {"keep+recip+vec4  b1024 K4", softmax_cached<4, kKeepExp | kReciprocal | kVec4>, 1024},
      {"keep+recip       b128 K32", softmax_cached<32, kKeepExp | kReciprocal>, 128},
      {"keep+recip+vec4  b128 K32", softmax_cached<32, kKeepExp | kReciprocal | kVec4>, 128},
      {"emitted          b128 K8 ", softmax_cached<8, 0>, 128},
      {"keep+recip       b128 K8 ", softmax_cached<8, kKeepExp | kReciprocal>, 128},
      {"keep+recip+vec4  b64  K16", softmax_cached<16, kKeepExp | kReciprocal | kVec4>, 64},
  };
  for (Shape s : shapes) {
    const size_t n = static_cast<size_t>(s.rows) * s.cols;
    std::vector<float> x(n);
    unsigned state = 12345;
    for (float& v : x) {
      state = state * 1664525u + 1013904223u;
      v = ((state >> 8) * (1.0f / 16777216.0f)) * 16.0f - 8.0f;
    }
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    std::printf("\n%d x %d (%.1f MB moved)\n", s.rows, s.cols, 2.0 * n * 4 / 1e6);
    for (const Variant& v : variants) {
      CHECK(cudaMemset(dy, 0, n * sizeof(float)));
      const float us = time_kernel(v.kernel, v.block, s, dx, dy);
      const double err = check(s, x, dy);
      std::printf("  %s  %8.1f us  %5.1f%% of copy  max rel err %.1e\n", v.name, us,
                  100.0 * (2.0 * n * 4) / (us * 1e-6) / copy_bw, err);
    }
    cudaFree(dx), cudaFree(dy);
  }
  return 0;
}
