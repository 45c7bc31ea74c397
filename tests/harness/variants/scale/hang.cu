// Attack: never finishes. The worker's watchdog stops it and the worker is
// restarted. The loop reads the clock, which the compiler cannot drop (a
// spin on a volatile local was optimised away by nvcc 13).
// expect: rejected no_crash
__global__ void scale(int n, float a, const float* x, float* y) {
  long long start = clock64();
  while (clock64() - start >= 0) {
  }
}
