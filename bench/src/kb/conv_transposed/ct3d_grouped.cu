// Transposed 3-D convolution, asymmetric input and kernel, strided, padded,
// output-padded, grouped, no bias (KernelBench 72).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// The whole geometry by value; index 0, 1, 2 = depth, height, width.
struct ConvT3dGeometry {
  int n, cin, cout, groups;
  int in[3], k[3], stride[3], pad[3], out[3];
};

// Naive scatter (the textbook definition of a transposed convolution): one
// input element per grid-stride iteration, spread over every output channel
// of its group and every tap, each product added into y with an atomicAdd.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_3d_grouped_scatter_kernel(ConvT3dGeometry g, const float* x, const float* wt,
                                                          float* y) {
  const size_t in_volume = static_cast<size_t>(g.in[0]) * g.in[1] * g.in[2];
  const size_t out_volume = static_cast<size_t>(g.out[0]) * g.out[1] * g.out[2];
  const size_t total = static_cast<size_t>(g.n) * g.cin * in_volume;
  const int cin_per_group = g.cin / g.groups, cout_per_group = g.cout / g.groups;
  const int taps = g.k[0] * g.k[1] * g.k[2];
  for (size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const float v = x[e];
    size_t r = e;
    const int iw = static_cast<int>(r % g.in[2]);
    r /= g.in[2];
    const int ih = static_cast<int>(r % g.in[1]);
    r /= g.in[1];
    const int id = static_cast<int>(r % g.in[0]);
    r /= g.in[0];
    const int ci = static_cast<int>(r % g.cin);
    const int img = static_cast<int>(r / g.cin);
    const int group = ci / cin_per_group;
    for (int j = 0; j < cout_per_group; ++j) {
      const int co = group * cout_per_group + j;
      float* volume = y + (static_cast<size_t>(img) * g.cout + co) * out_volume;
      const float* w = wt + (static_cast<size_t>(ci) * cout_per_group + j) * taps;
      for (int a = 0; a < g.k[0]; ++a) {
        const int od = id * g.stride[0] - g.pad[0] + a;
        if (od < 0 || od >= g.out[0]) continue;
        for (int b = 0; b < g.k[1]; ++b) {
          const int oh = ih * g.stride[1] - g.pad[1] + b;
          if (oh < 0 || oh >= g.out[1]) continue;
          for (int c = 0; c < g.k[2]; ++c) {
            const int ow = iw * g.stride[2] - g.pad[2] + c;
            if (ow < 0 || ow >= g.out[2]) continue;
            atomicAdd(&volume[(static_cast<size_t>(od) * g.out[1] + oh) * g.out[2] + ow],
                      v * w[(a * g.k[1] + b) * g.k[2] + c]);
          }
        }
      }
    }
  }
}

void kb_conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped(
    int n, int cin, int cout, conv_transposed::Int3 in, conv_transposed::Int3 k, conv_transposed::Int3 stride,
    conv_transposed::Int3 pad, conv_transposed::Int3 out_pad, int groups, const float* x, const float* wt, float* y,
    cudaStream_t s) {
  if (groups <= 0 || cin % groups != 0 || cout % groups != 0)
    throw std::invalid_argument("kb_conv_transposed_3d_..._grouped: groups must divide cin and cout");
  ConvT3dGeometry g{n, cin, cout, groups, {in.d, in.h, in.w}, {k.d, k.h, k.w}, {stride.d, stride.h, stride.w},
                    {pad.d, pad.h, pad.w}, {0, 0, 0}};
  const int out_pad3[3] = {out_pad.d, out_pad.h, out_pad.w};
  for (int a = 0; a < 3; ++a) g.out[a] = (g.in[a] - 1) * g.stride[a] - 2 * g.pad[a] + g.k[a] + out_pad3[a];
  if (n <= 0 || cout <= 0 || g.out[0] <= 0 || g.out[1] <= 0 || g.out[2] <= 0) return;
  const size_t outputs = static_cast<size_t>(n) * cout * g.out[0] * g.out[1] * g.out[2];
  bench::detail::check_launch("kb_conv_transposed_3d_..._grouped (clear)",
                              cudaMemsetAsync(y, 0, outputs * sizeof(float), s));
  const long long inputs = static_cast<long long>(n) * cin * in.d * in.h * in.w;
  if (inputs <= 0) return;
  const unsigned blocks = std::min(bench::detail::blocks_for(inputs), 8192u);
  conv_transposed_3d_grouped_scatter_kernel<<<blocks, bench::detail::kBlock, 0, s>>>(g, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped");
}

}  // namespace bench::kb
