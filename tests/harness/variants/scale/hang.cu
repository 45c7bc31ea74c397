// Attack: never finishes. The worker's watchdog stops it and the worker is
// restarted.
// expect: rejected no_crash
__global__ void scale(int n, float a, const float* x, float* y) {
  volatile int spin = 1;
  while (spin) {
  }
}
