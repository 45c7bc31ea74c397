// Host code that nvcc (with g++ behind it) compiles and clang rejects, next
// to a kernel that does not depend on it: a host routine from an older code
// base that still declares its locals `register`, which C++17 removed (nvcc
// accepts it, clang's C++17 mode does not).
#include <stark/stark.h>

namespace wild {

STARK_OPTIMIZE()
__global__ void offset_rows(int rows, int cols, const float* in, float* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c] + static_cast<float>(r);
}

// A checksum of the host copy, as the library has computed it since C++98.
static unsigned checksum(const float* host, int count) {
  register unsigned sum = 0;
  for (register int i = 0; i < count; ++i) sum = sum * 31u + static_cast<unsigned>(host[i]);
  return sum;
}

unsigned offset(int rows, int cols, const float* in, float* out, const float* host_in) {
  dim3 block(32, 8);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  offset_rows<<<grid, block>>>(rows, cols, in, out);
  return checksum(host_in, rows * cols);
}

}  // namespace wild
