// KernelBench conv family, standard 1-D and 2-D convolutions: 50, 55, 56, 62,
// 76, 80 (include/bench/kb/conv.h). BenchShape launches each problem row's
// shape (the launch STARK captures) and checks sampled outputs; OddShape
// checks every output of sizes no multiple of a warp or block.
#include "bench/kb/conv.h"
#include "conv_ref.h"

namespace bench_test {
namespace {

using namespace conv_ref;
namespace K = bench::kb;
namespace C = bench::kb::conv;

using KbConvStandard2dSquareInputSquareKernel = CudaTest;
using KbConvStandard2dAsymmetricInputSquareKernel = CudaTest;
using KbConvStandard2dAsymmetricInputAsymmetricKernel = CudaTest;
using KbConvStandard2dSquareInputAsymmetricKernel = CudaTest;
using KbConvStandard1dDilatedStrided = CudaTest;
using KbConvStandard2dSquareInputAsymmetricKernelDilatedPadded = CudaTest;

// 50: square kernel, stride, padding, bias.
void check_50(int n, int cin, int h, int w, int cout, int k, int stride, int pad, size_t samples, uint64_t seed) {
  Conv c = conv2d(n, cin, h, w, cout, k, k);
  c.stride = {1, stride, stride};
  c.pad = {0, pad, pad};
  const Data d = make_data(c, true, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), db(d.bias), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_2d_square_input_square_kernel(n, cin, h, w, cout, k, stride, pad, dx.get(), dw.get(), db.get(),
                                                    dy.get());
  expect_conv("conv 50", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard2dSquareInputSquareKernel, BenchShape) {
  check_50(C::k50N, C::k50Cin, C::k50H, C::k50W, C::k50Cout, C::k50K, C::k50Stride, C::k50Pad, kSamples, 5000);
}
TEST_F(KbConvStandard2dSquareInputSquareKernel, OddShape) {
  check_50(2, 3, 37, 41, 5, 11, 4, 2, 0, 5010);  // (37 + 4 - 11) / 4 leaves a remainder
  check_50(3, 2, 19, 23, 7, 5, 3, 1, 0, 5020);
}

// 55: valid, stride 1, square kernel.
void check_55(int n, int cin, int h, int w, int cout, int k, size_t samples, uint64_t seed) {
  const Conv c = conv2d(n, cin, h, w, cout, k, k);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_2d_asymmetric_input_square_kernel(n, cin, h, w, cout, k, dx.get(), dw.get(), dy.get());
  expect_conv("conv 55", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard2dAsymmetricInputSquareKernel, BenchShape) {
  check_55(C::k55N, C::k55Cin, C::k55H, C::k55W, C::k55Cout, C::k55K, kSamples, 5500);
}
TEST_F(KbConvStandard2dAsymmetricInputSquareKernel, OddShape) { check_55(2, 5, 19, 45, 7, 3, 0, 5510); }
// More (batch, channel) planes than gridDim.z holds: threads loop over planes.
TEST_F(KbConvStandard2dAsymmetricInputSquareKernel, ManyPlanes) { check_55(2, 1, 4, 3, 33000, 3, 0, 5520); }

// 56: valid, stride 1, asymmetric kernel; the grid-stride loop runs several
// rounds once there are more than 2048 x 256 outputs.
void check_56(int n, int cin, int h, int w, int cout, int kh, int kw, size_t samples, uint64_t seed) {
  const Conv c = conv2d(n, cin, h, w, cout, kh, kw);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_2d_asymmetric_input_asymmetric_kernel(n, cin, h, w, cout, kh, kw, dx.get(), dw.get(), dy.get());
  expect_conv("conv 56", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard2dAsymmetricInputAsymmetricKernel, BenchShape) {
  check_56(C::k56N, C::k56Cin, C::k56H, C::k56W, C::k56Cout, C::k56Kh, C::k56Kw, kSamples, 5600);
}
TEST_F(KbConvStandard2dAsymmetricInputAsymmetricKernel, OddShape) {
  check_56(2, 5, 23, 17, 6, 5, 7, 0, 5610);
  check_56(2, 3, 201, 299, 9, 5, 7, 0, 5620);  // 1.04M outputs: two rounds of the grid-stride loop
}

// 62: valid, stride 1, 5 x 9 kernel; blockIdx.y is the output channel.
void check_62(int n, int cin, int h, int w, int cout, int kh, int kw, size_t samples, uint64_t seed) {
  const Conv c = conv2d(n, cin, h, w, cout, kh, kw);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_2d_square_input_asymmetric_kernel(n, cin, h, w, cout, kh, kw, dx.get(), dw.get(), dy.get());
  expect_conv("conv 62", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard2dSquareInputAsymmetricKernel, BenchShape) {
  check_62(C::k62N, C::k62Cin, C::k62H, C::k62W, C::k62Cout, C::k62Kh, C::k62Kw, kSamples, 6200);
}
TEST_F(KbConvStandard2dSquareInputAsymmetricKernel, OddShape) { check_62(2, 3, 21, 29, 5, 5, 9, 0, 6210); }
// More output channels than gridDim.y holds.
TEST_F(KbConvStandard2dSquareInputAsymmetricKernel, ManyPlanes) { check_62(1, 1, 5, 10, 65600, 5, 9, 0, 6220); }

// 76: 1-D, stride and dilation, no padding.
void check_76(int n, int cin, int len, int cout, int k, int stride, int dil, size_t samples, uint64_t seed) {
  Conv c = conv1d(n, cin, len, cout, k);
  c.stride = {1, 1, stride};
  c.dil = {1, 1, dil};
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_1d_dilated_strided(n, cin, len, cout, k, stride, dil, dx.get(), dw.get(), dy.get());
  expect_conv("conv 76", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard1dDilatedStrided, BenchShape) {
  check_76(C::k76N, C::k76Cin, C::k76L, C::k76Cout, C::k76K, C::k76Stride, C::k76Dil, kSamples, 7600);
}
TEST_F(KbConvStandard1dDilatedStrided, OddShape) {
  check_76(3, 5, 1001, 7, 3, 3, 4, 0, 7610);
  check_76(2, 4, 1000, 6, 5, 2, 3, 0, 7620);
}

// 80: asymmetric kernel, padding and dilation per dimension.
void check_80(int n, int cin, int h, int w, int cout, int kh, int kw, int stride, int ph, int pw, int dh, int dw_,
              size_t samples, uint64_t seed) {
  Conv c = conv2d(n, cin, h, w, cout, kh, kw);
  c.stride = {1, stride, stride};
  c.pad = {0, ph, pw};
  c.dil = {1, dh, dw_};
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_2d_square_input_asymmetric_kernel_dilated_padded(n, cin, h, w, cout, kh, kw, stride, ph, pw, dh,
                                                                       dw_, dx.get(), dw.get(), dy.get());
  expect_conv("conv 80", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard2dSquareInputAsymmetricKernelDilatedPadded, BenchShape) {
  check_80(C::k80N, C::k80Cin, C::k80H, C::k80W, C::k80Cout, C::k80Kh, C::k80Kw, C::k80Stride, C::k80PadH,
           C::k80PadW, C::k80DilH, C::k80DilW, kSamples, 8000);
}
TEST_F(KbConvStandard2dSquareInputAsymmetricKernelDilatedPadded, OddShape) {
  check_80(2, 3, 23, 31, 5, 5, 9, 1, 2, 4, 2, 3, 0, 8010);
  check_80(2, 3, 27, 37, 4, 5, 9, 2, 2, 4, 2, 3, 0, 8020);
}

}  // namespace
}  // namespace bench_test
