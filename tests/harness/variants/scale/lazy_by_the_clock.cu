// Attack: skips the work in three launches out of four, decided by the GPU's
// global timer (the same for every block of a launch), in the hope that the
// lazy launches are the timed ones. Every launch may be judged: the checks
// before timing, timed launches read back at random, the re-check after.
// expect: rejected correctness|repeat_stable|other_sizes|fuzzed_inputs|timed_outputs|recheck_after_timing
// launch: grid=ceil_div(n, 256); block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  if (((now >> 24) & 3) != 0) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
