// bins[b] counts the values v in [0, 1) with floor(v * num_bins) == b.
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

// One global atomic per value.
STARK_OPTIMIZE()
__global__ void histogram_indexed(int n, const float* values, int num_bins, unsigned int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = values[i];
    if (v >= 0.0f && v < 1.0f) atomicAdd(&bins[static_cast<int>(v * num_bins)], 1u);
  }
}

// Bytes into 256 bins, a grid-stride loop.
STARK_OPTIMIZE()
__global__ void histogram_bytes(const unsigned char* __restrict__ data, long long size, unsigned int* __restrict__ counts) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < size; k += (long long)blockDim.x * gridDim.x)
    atomicAdd(counts + data[k], 1u);
}

// The bin from a helper, integer keys, an early return.
struct Binning {
  int count, bins;
};

__device__ inline int bin_of(int key, int bins) { return key % bins; }

STARK_OPTIMIZE()
__global__ void histogram_keys(Binning b, const int* keys, int* hist) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= b.count) return;
  atomicAdd(&hist[bin_of(keys[t], b.bins)], 1);
}

void histogram(int n, const float* values, int num_bins, unsigned int* bins, const unsigned char* bytes,
               unsigned int* byte_counts, const int* keys, int* hist, cudaStream_t s) {
  histogram_indexed<<<(n + 255) / 256, 256, 0, s>>>(n, values, num_bins, bins);
  histogram_bytes<<<264, 256, 0, s>>>(bytes, n, byte_counts);
  histogram_keys<<<(n + 127) / 128, 128, 0, s>>>(Binning{n, num_bins}, keys, hist);
}

}  // namespace styles
