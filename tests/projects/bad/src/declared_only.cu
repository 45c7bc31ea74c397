#include <stark/stark.h>

STARK_OPTIMIZE("budget=2") __global__ void defined_elsewhere(int n, float* x);

// good.cu defines this one: no warning.
STARK_OPTIMIZE("budget=3") __global__ void still_found(int n, float* x);

void launch_both(float* x) {
  defined_elsewhere<<<1, 32>>>(32, x);
  still_found<<<1, 32>>>(32, x);
}
