// KernelBench conv family, depthwise, depthwise-separable and pointwise 2-D
// convolutions: 82 to 87 (include/bench/kb/conv.h). BenchShape launches each
// problem row's shape (the launch STARK captures) and checks sampled
// outputs; OddShape checks every output of sizes no multiple of a warp or
// block.
#include "bench/kb/conv.h"
#include "conv_ref.h"

namespace bench_test {
namespace {

using namespace conv_ref;
namespace K = bench::kb;
namespace C = bench::kb::conv;

using KbConvDepthwise2dSquareInputSquareKernel = CudaTest;
using KbConvDepthwise2dSquareInputAsymmetricKernel = CudaTest;
using KbConvDepthwise2dAsymmetricInputSquareKernel = CudaTest;
using KbConvDepthwise2dAsymmetricInputAsymmetricKernel = CudaTest;
using KbConvDepthwiseSeparable2d = CudaTest;
using KbConvPointwise2d = CudaTest;

// A depthwise convolution (groups = cin) with `mult` output channels per input channel.
Conv depthwise(int n, int cin, int h, int w, int mult, int kh, int kw) {
  Conv c = conv2d(n, cin, h, w, cin * mult, kh, kw);
  c.groups = cin;
  return c;
}

// 82: square kernel, stride, padding.
void check_82(int n, int ch, int h, int w, int k, int stride, int pad, size_t samples, uint64_t seed) {
  Conv c = depthwise(n, ch, h, w, 1, k, k);
  c.stride = {1, stride, stride};
  c.pad = {0, pad, pad};
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_depthwise_2d_square_input_square_kernel(n, ch, h, w, k, stride, pad, dx.get(), dw.get(), dy.get());
  expect_conv("conv 82", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvDepthwise2dSquareInputSquareKernel, BenchShape) {
  check_82(C::k82N, C::k82C, C::k82H, C::k82W, C::k82K, C::k82Stride, C::k82Pad, kSamples, 8200);
}
TEST_F(KbConvDepthwise2dSquareInputSquareKernel, OddShape) {
  check_82(3, 5, 21, 37, 3, 1, 0, 0, 8210);
  check_82(2, 3, 22, 35, 5, 2, 1, 0, 8220);
}

// 83: a (k, 1) kernel with stride, padding and dilation (both dimensions).
void check_83(int n, int ch, int h, int w, int k, int stride, int pad, int dil, size_t samples, uint64_t seed) {
  Conv c = depthwise(n, ch, h, w, 1, k, 1);
  c.stride = {1, stride, stride};
  c.pad = {0, pad, pad};
  c.dil = {1, dil, dil};
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_depthwise_2d_square_input_asymmetric_kernel(n, ch, h, w, k, stride, pad, dil, dx.get(), dw.get(),
                                                         dy.get());
  expect_conv("conv 83", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvDepthwise2dSquareInputAsymmetricKernel, BenchShape) {
  check_83(C::k83N, C::k83C, C::k83H, C::k83W, C::k83K, C::k83Stride, C::k83Pad, C::k83Dil, kSamples, 8300);
}
TEST_F(KbConvDepthwise2dSquareInputAsymmetricKernel, OddShape) {
  check_83(3, 5, 29, 19, 3, 1, 0, 1, 0, 8310);
  check_83(2, 3, 31, 17, 3, 2, 1, 2, 0, 8320);  // padded columns: whole outputs of zeros
}

// 84: square kernel, cout a multiple of cin.
void check_84(int n, int cin, int h, int w, int mult, int k, int stride, int pad, size_t samples, uint64_t seed) {
  Conv c = depthwise(n, cin, h, w, mult, k, k);
  c.stride = {1, stride, stride};
  c.pad = {0, pad, pad};
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_depthwise_2d_asymmetric_input_square_kernel(n, cin, h, w, cin * mult, k, stride, pad, dx.get(), dw.get(),
                                                         dy.get());
  expect_conv("conv 84", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvDepthwise2dAsymmetricInputSquareKernel, BenchShape) {
  static_assert(C::k84Cout == C::k84Cin, "KernelBench 84 has cout = cin");
  check_84(C::k84N, C::k84Cin, C::k84H, C::k84W, 1, C::k84K, C::k84Stride, C::k84Pad, kSamples, 8400);
}
TEST_F(KbConvDepthwise2dAsymmetricInputSquareKernel, OddShape) {
  check_84(3, 5, 19, 41, 1, 3, 1, 0, 0, 8410);
  check_84(2, 3, 20, 33, 2, 3, 2, 1, 0, 8420);  // two output channels per input channel
}
// More (batch, channel) planes than gridDim.y holds.
TEST_F(KbConvDepthwise2dAsymmetricInputSquareKernel, ManyPlanes) { check_84(2, 33000, 3, 4, 1, 3, 1, 0, 0, 8430); }

// 85: (kh, kw) kernel, stride, padding and dilation per dimension.
void check_85(int n, int ch, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw_,
              size_t samples, uint64_t seed) {
  Conv c = depthwise(n, ch, h, w, 1, kh, kw);
  c.stride = {1, sh, sw};
  c.pad = {0, ph, pw};
  c.dil = {1, dh, dw_};
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_depthwise_2d_asymmetric_input_asymmetric_kernel(n, ch, h, w, kh, kw, sh, sw, ph, pw, dh, dw_, dx.get(),
                                                             dw.get(), dy.get());
  expect_conv("conv 85", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvDepthwise2dAsymmetricInputAsymmetricKernel, BenchShape) {
  check_85(C::k85N, C::k85C, C::k85H, C::k85W, C::k85Kh, C::k85Kw, C::k85StrideH, C::k85StrideW, C::k85PadH,
           C::k85PadW, C::k85DilH, C::k85DilW, kSamples, 8500);
}
TEST_F(KbConvDepthwise2dAsymmetricInputAsymmetricKernel, OddShape) {
  check_85(3, 5, 17, 33, 3, 7, 1, 1, 0, 0, 1, 1, 0, 8510);
  check_85(2, 3, 23, 41, 3, 7, 2, 1, 1, 3, 2, 1, 0, 8520);
  // 346500 outputs, more than 8 blocks of 256 per SM cover on a 132-SM GPU: the grid-stride loop runs rounds.
  check_85(4, 7, 101, 131, 3, 7, 1, 1, 0, 0, 1, 1, 0, 8530);
}

// 86: depthwise (k x k, stride, padding, dilation) then pointwise; the
// reference keeps each depthwise value in double.
void check_86(int n, int cin, int h, int w, int cout, int k, int stride, int pad, int dil, size_t samples,
              uint64_t seed) {
  Conv dwc = depthwise(n, cin, h, w, 1, k, k);
  dwc.stride = {1, stride, stride};
  dwc.pad = {0, pad, pad};
  dwc.dil = {1, dil, dil};
  const int oh = dwc.out(1), ow = dwc.out(2);
  const Data d = make_data(dwc, false, seed);
  const double bound = 1.0 / std::sqrt(double(cin));
  const std::vector<float> pw = uniform<float>(size_t(cout) * cin, -bound, bound, seed + 5);
  DeviceBuffer<float> dx(d.x), ddw(d.w), dpw(pw), dy(size_t(n) * cout * oh * ow);
  poison(dy);
  K::kb_conv_depthwise_separable_2d(n, cin, h, w, cout, k, stride, pad, dil, dx.get(), ddw.get(), dpw.get(), dy.get());
  const size_t plane = size_t(oh) * ow;
  expect_outputs("conv 86", dy.download(), samples, seed + 3, [&](size_t o, double* mag) {
    const size_t pos = o % plane, co = o / plane % cout, b = o / (plane * cout);
    double sum = 0, m = 0;
    for (int ci = 0; ci < cin; ++ci) {
      double depth_mag = 0;
      // The depthwise output (b, ci, pos) is output index (b * cin + ci) * plane + pos of dwc.
      const double depth = reference(dwc, d, (b * cin + ci) * plane + pos, &depth_mag);
      sum += pw[co * cin + ci] * depth;
      m += std::abs(pw[co * cin + ci]) * depth_mag;
    }
    *mag = m;
    return sum;
  });
}

TEST_F(KbConvDepthwiseSeparable2d, BenchShape) {
  check_86(C::k86N, C::k86Cin, C::k86H, C::k86W, C::k86Cout, C::k86K, C::k86Stride, C::k86Pad, C::k86Dil, kSamples,
           8600);
}
TEST_F(KbConvDepthwiseSeparable2d, OddShape) {
  check_86(2, 5, 19, 23, 7, 3, 1, 1, 1, 0, 8610);
  check_86(2, 3, 25, 18, 5, 3, 2, 2, 2, 0, 8620);
}

// 87: 1 x 1 kernel.
void check_87(int n, int cin, int h, int w, int cout, size_t samples, uint64_t seed) {
  const Conv c = conv2d(n, cin, h, w, cout, 1, 1);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_pointwise_2d(n, cin, h, w, cout, dx.get(), dw.get(), dy.get());
  expect_conv("conv 87", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvPointwise2d, BenchShape) {
  check_87(C::k87N, C::k87Cin, C::k87H, C::k87W, C::k87Cout, kSamples, 8700);
}
TEST_F(KbConvPointwise2d, OddShape) { check_87(3, 5, 13, 29, 7, 0, 8710); }
// More output channels than gridDim.y and more images than gridDim.z hold.
TEST_F(KbConvPointwise2d, ManyPlanes) {
  check_87(1, 2, 1, 3, 65600, 0, 8720);
  check_87(65600, 2, 1, 3, 3, 0, 8730);
}

}  // namespace
}  // namespace bench_test
