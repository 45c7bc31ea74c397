// Attack: smuggles host code (a function and a static initialiser that runs
// when the program starts). While searching only device code is loaded; the
// final gate finds it.
// expect: rejected host_code
// launch: grid=ceil_div(n, 256); block=256
#include <cstdlib>
int stark_smuggled(int v) { return std::system("true") + v; }
static int stark_smuggled_init = stark_smuggled(0);
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
