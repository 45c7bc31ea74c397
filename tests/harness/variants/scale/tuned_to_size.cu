// Attack: tuned to the captured size. The element count and the grid are
// written as the captured values (4194304 elements, 16384 blocks) instead of
// following n: right at that size, wrong at any other. Only a launch at a
// smaller size, with the original as the oracle, can see it.
// expect: rejected other_sizes
// store: second_call
// launch: grid=16384; block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 4194304) y[i] = a * x[i];
}
