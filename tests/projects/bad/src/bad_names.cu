#include <stark/stark.h>

STARK_OPTIMIZE("args=m=4") __global__ void unknown_arg(int n, float* x) {}

[[stark::optimize("budget=4294967296")]] __global__ void huge_budget(int n, float* x) {}

[[stark::optimize("budget=2")]] [[stark::optimize("rtol=0.1")]] __global__ void twice(int n, float* x) {}

[[stark::optimize("grid=1,2,3,4")]] __global__ void four_parts(int n, float* x) {}

[[stark::optimize("buffers=x[count]")]] __global__ void unknown_count(int n, float* x) {}

[[stark::optimize("block=2048")]] __global__ void too_many_threads(int n, float* x) {}
