// Neutralised attack: meant to be correct for its first 14 launches (every
// launch before timing), then to do nothing. Its launch counter is a module
// variable, restored to its load-time value before every launch, so it never
// turns lazy: an honest coalesced kernel, faster than the naive original.
// expect: accepted faster
// launch: grid=ceil_div(n, 256); block=256
static __device__ unsigned long long stark_block_runs;
__global__ void scale(int n, float a, const float* x, float* y) {
  __shared__ bool lazy;
  if (threadIdx.x == 0) lazy = atomicAdd(&stark_block_runs, 1ull) >= 14ull * 16384ull;
  __syncthreads();
  if (lazy) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
