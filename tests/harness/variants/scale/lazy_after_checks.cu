// Attack: correct for its first 14 launches (every correctness, repeat and
// fuzz launch of the suite), then does nothing: only the re-check after the
// timed runs can see it.
// expect: rejected recheck_after_timing
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
