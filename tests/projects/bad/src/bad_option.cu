#include <stark/stark.h>

[[stark::optimize("budgett=3")]] __global__ void typo_key(int n, float* x) {}

STARK_OPTIMIZE("budget=banana") __global__ void bad_value(int n, float* x) {}

[[stark::optimize("rtol=1e-3", "grid=ceil_div(n,")]] __global__ void bad_grid(int n, float* x) {}
