// Attack: faults (writes to an invalid address). Only the worker dies; it is
// restarted and the next candidate is judged normally.
// expect: rejected no_crash
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* bad = reinterpret_cast<float*>(0x10);
  if (i < n) bad[i] = a * x[i];
}
