// Threads of a block that cooperate through cooperative groups, staging in
// dynamic shared memory that a template helper hands out.
#include <cooperative_groups.h>
#include <stark/stark.h>

namespace cg = cooperative_groups;

namespace wild {

template <typename T>
struct SharedArray {
  __device__ T* get() {
    extern __shared__ unsigned char shared_bytes[];
    return reinterpret_cast<T*>(shared_bytes);
  }
};

STARK_OPTIMIZE()
__global__ void scaled_block_sums(int n, float scale, const float* in, float* out) {
  cg::thread_block block = cg::this_thread_block();
  float* stage = SharedArray<float>().get();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? scale * in[i] : 0.0f;
  block.sync();
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned t = 0; t < blockDim.x; ++t) sum += stage[t];
    out[blockIdx.x] = sum;
  }
}

// Module variables the kernel uses, beside the ones cooperative groups
// brings along: the capture records these two and no other.
__constant__ float c_weights[4];
__device__ unsigned int blocks_seen;

STARK_OPTIMIZE()
__global__ void weighted(int n, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * c_weights[i & 3];
  if (threadIdx.x == 0) atomicAdd(&blocks_seen, 1u);
}

void weigh(int n, const float* in, float* out) { weighted<<<(n + 255) / 256, 256>>>(n, in, out); }

void block_sums(int n, float scale, const float* in, float* out) {
  scaled_block_sums<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(n, scale, in, out);
}

}  // namespace wild
