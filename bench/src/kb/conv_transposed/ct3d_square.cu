// Transposed 3-D convolution, cubic input, cubic kernel, stride 1, no
// padding, no bias (KernelBench 61).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather on a 3-D grid: x and y of the block cover one output plane's
// columns and rows, z walks (image, output channel, output depth). One thread
// per output element, every tap read from global memory.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_3d_square_kernel(int n, int cin, int cout, int size, int k, const float* x,
                                                 const float* wt, float* y) {
  const int out = size + k - 1;
  const int ox = blockIdx.x * blockDim.x + threadIdx.x;
  const int oy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ox >= out || oy >= out) return;
  const int planes = n * cout * out;
  for (int z = blockIdx.z; z < planes; z += gridDim.z) {
    const int oz = z % out;
    const int co = z / out % cout;
    const int img = z / out / cout;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci)
      for (int kz = 0; kz < k; ++kz) {
        const int iz = oz - kz;
        if (iz < 0 || iz >= size) continue;
        for (int ky = 0; ky < k; ++ky) {
          const int iy = oy - ky;
          if (iy < 0 || iy >= size) continue;
          for (int kx = 0; kx < k; ++kx) {
            const int ix = ox - kx;
            if (ix < 0 || ix >= size) continue;
            acc += x[(((static_cast<size_t>(img) * cin + ci) * size + iz) * size + iy) * size + ix] *
                   wt[(((static_cast<size_t>(ci) * cout + co) * k + kz) * k + ky) * k + kx];
          }
        }
      }
    y[(static_cast<size_t>(z) * out + oy) * out + ox] = acc;
  }
}

void kb_conv_transposed_3d_square_input_square_kernel(int n, int cin, int cout, int size, int k, const float* x,
                                                      const float* wt, float* y, cudaStream_t s) {
  if (n <= 0 || cout <= 0 || size <= 0 || k <= 0) return;
  const int out = size + k - 1;
  const dim3 block(32, 8);
  const dim3 grid((out + block.x - 1) / block.x, (out + block.y - 1) / block.y, std::min(n * cout * out, 65535));
  conv_transposed_3d_square_kernel<<<grid, block, 0, s>>>(n, cin, cout, size, k, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_3d_square_input_square_kernel");
}

}  // namespace bench::kb
