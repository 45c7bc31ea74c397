// Attack: does nothing.
// expect: rejected correctness
__global__ void scale(int n, float a, const float* x, float* y) {}
