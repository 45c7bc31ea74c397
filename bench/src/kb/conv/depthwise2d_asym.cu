// KernelBench 85: depthwise nn.Conv2d(c, c, (kh, kw), stride=(sh, sw),
// padding=(ph, pw), dilation=(dh, dw), groups=c, bias=False) on an
// asymmetric input.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// One depthwise convolution's parameters, by value.
struct DepthwiseParams {
  int n, c, h, w;
  int kh, kw;
  int stride_h, stride_w;
  int pad_h, pad_w;
  int dil_h, dil_w;
  int oh, ow;
};

// Naive: a grid-stride loop (the grid sized to the GPU, a few blocks per SM)
// over the flat output index; every output sums its kh x kw taps from global
// memory, each checked against the padding.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void depthwise2d_asym_kernel(DepthwiseParams p, const float* x, const float* wt, float* y) {
  const size_t total = static_cast<size_t>(p.n) * p.c * p.oh * p.ow;
  const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += step) {
    const int ox = static_cast<int>(o % p.ow);
    const int oy = static_cast<int>((o / p.ow) % p.oh);
    const size_t plane = o / (static_cast<size_t>(p.ow) * p.oh);
    const int ch = static_cast<int>(plane % p.c);
    float acc = 0.0f;
    for (int i = 0; i < p.kh; ++i) {
      const int iy = oy * p.stride_h - p.pad_h + i * p.dil_h;
      if (iy < 0 || iy >= p.h) continue;
      for (int j = 0; j < p.kw; ++j) {
        const int ix = ox * p.stride_w - p.pad_w + j * p.dil_w;
        if (ix < 0 || ix >= p.w) continue;
        acc += x[(plane * p.h + iy) * p.w + ix] * wt[(ch * p.kh + i) * p.kw + j];
      }
    }
    y[o] = acc;
  }
}

void kb_conv_depthwise_2d_asymmetric_input_asymmetric_kernel(int n, int c, int h, int w, int kh, int kw,
                                                             int stride_h, int stride_w, int pad_h, int pad_w,
                                                             int dil_h, int dil_w, const float* x, const float* wt,
                                                             float* y, cudaStream_t s) {
  if (stride_h < 1 || stride_w < 1 || pad_h < 0 || pad_w < 0 || dil_h < 1 || dil_w < 1)
    throw std::invalid_argument("depthwise2d_asym: bad stride, padding or dilation");
  if (n <= 0 || c <= 0 || h + 2 * pad_h < dil_h * (kh - 1) + 1 || w + 2 * pad_w < dil_w * (kw - 1) + 1) return;
  const DepthwiseParams p{n,        c,        h,     w,     kh,    kw,
                          stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                          (h + 2 * pad_h - dil_h * (kh - 1) - 1) / stride_h + 1,
                          (w + 2 * pad_w - dil_w * (kw - 1) - 1) / stride_w + 1};
  int device = 0, sms = 0;
  detail::check_launch("kb_conv_depthwise_2d_asymmetric_input_asymmetric_kernel", cudaGetDevice(&device));
  detail::check_launch("kb_conv_depthwise_2d_asymmetric_input_asymmetric_kernel",
                       cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const long long total = static_cast<long long>(n) * c * p.oh * p.ow;
  const unsigned blocks = std::min(detail::blocks_for(total), static_cast<unsigned>(sms) * 8);
  depthwise2d_asym_kernel<<<blocks, detail::kBlock, 0, s>>>(p, x, wt, y);
  detail::check_launch("kb_conv_depthwise_2d_asymmetric_input_asymmetric_kernel");
}

}  // namespace bench::kb
