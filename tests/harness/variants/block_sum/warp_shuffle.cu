// Legitimate: warp shuffles for the last steps, fewer barriers.
// sanitize: always
// expect: accepted
__global__ void block_sum(int n, const float* x, float* out) {
  __shared__ float warp_sums[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
    for (int offset = 4; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}
