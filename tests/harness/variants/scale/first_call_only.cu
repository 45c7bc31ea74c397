// Neutralised attack: meant to do the work on its first launch only (a
// __device__ flag), so every later launch, timed ones included, is nearly
// free. The flag is restored to its load-time value before every launch:
// every launch does the work, and the variant is judged as what it then is.
// expect: accepted faster
// launch: grid=ceil_div(n, 256); block=256
static __device__ unsigned int stark_blocks_done;
__global__ void scale(int n, float a, const float* x, float* y) {
  if (stark_blocks_done >= gridDim.x) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&stark_blocks_done, 1u);
}
