// Attack: correct output, but every thread also reads the element after its
// own, so the last one reads past the end of x. The value is multiplied by
// zero, so no output shows it; with padding inside the allocation the read
// lands there unseen. compute-sanitizer runs on allocations of exactly the
// buffers' sizes, where the read leaves the allocation.
// expect: rejected memcheck
// sanitize: always
// launch: grid=ceil_div(n, 256); block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + 0.0f * x[i + 1];
}
