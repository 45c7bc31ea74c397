// Attack: writes into its input (here, zeroing x after reading it).
// expect: rejected inputs_unchanged|correctness
// launch: grid=ceil_div(n, 256); block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = a * v;
    const_cast<float*>(x)[i] = 0.0f;
  }
}
