// Attack: drops the barriers of the tree, a shared-memory race that may pass
// a single run by luck; racecheck or the repeated runs catch it.
// sanitize: always
// expect: rejected racecheck|correctness|repeat_stable|fuzzed_inputs|recheck_after_timing
__global__ void block_sum(int n, const float* x, float* out) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
