// Attack: the test launched the kernel twice on the same buffers, so the
// captured output already holds the answer; a kernel that does nothing would
// pass if that memory were restored. It is poisoned instead.
// expect: rejected correctness
// store: second_call
__global__ void scale(int n, float a, const float* x, float* y) {}
