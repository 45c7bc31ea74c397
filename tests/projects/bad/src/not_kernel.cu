#include <stark/stark.h>

[[stark::optimize]] void host_function(int n) {}

STARK_OPTIMIZE() __device__ float device_helper(float x) { return 2 * x; }

auto host_lambda = [] [[stark::optimize]] (int n) { return 2 * n; };
