// Attack: work escaping the timed region into a fire-and-forget device
// stream (device graphs / dynamic parallelism): refused at compile time.
// expect: rejected compile
static __global__ void stark_tail(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
__global__ void scale(int n, float a, const float* x, float* y) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    stark_tail<<<(n + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(n, a, x, y);
}
