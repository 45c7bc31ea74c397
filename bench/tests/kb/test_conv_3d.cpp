// KernelBench conv family, standard 3-D convolutions: 54, 59, 60, 66
// (include/bench/kb/conv.h). BenchShape launches each problem row's shape
// (the launch STARK captures) and checks sampled outputs; OddShape checks
// every output of sizes no multiple of a warp or block.
#include "bench/kb/conv.h"
#include "conv_ref.h"

namespace bench_test {
namespace {

using namespace conv_ref;
namespace K = bench::kb;
namespace C = bench::kb::conv;

using KbConvStandard3dSquareInputSquareKernel = CudaTest;
using KbConvStandard3dAsymmetricInputSquareKernel = CudaTest;
using KbConvStandard3dSquareInputAsymmetricKernel = CudaTest;
using KbConvStandard3dAsymmetricInputAsymmetricKernel = CudaTest;

// 54: cubic kernel (3 or 5, a template argument), valid, stride 1.
void check_54(int n, int cin, int d0, int d1, int d2, int cout, int k, size_t samples, uint64_t seed) {
  const Conv c = conv3d(n, cin, d0, d1, d2, cout, k, k, k);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_3d_square_input_square_kernel(n, cin, d0, d1, d2, cout, k, dx.get(), dw.get(), dy.get());
  expect_conv("conv 54", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard3dSquareInputSquareKernel, BenchShape) {
  check_54(C::k54N, C::k54Cin, C::k54D, C::k54H, C::k54W, C::k54Cout, C::k54K, kSamples, 5400);
}
TEST_F(KbConvStandard3dSquareInputSquareKernel, OddShape) {
  check_54(2, 3, 9, 11, 37, 5, 3, 0, 5410);
  check_54(1, 2, 7, 9, 35, 3, 5, 0, 5420);  // the K = 5 instantiation
}
// More (batch, channel, depth) planes than gridDim.z holds.
TEST_F(KbConvStandard3dSquareInputSquareKernel, ManyPlanes) { check_54(1, 1, 102, 3, 4, 700, 3, 0, 5430); }

// 59: a (k, k, 1) kernel over n x cin x d0 x d1 x d2; the grid (at most
// 65535 blocks) loops at the benchmark shape.
void check_59(int n, int cin, int d0, int d1, int d2, int cout, int k, size_t samples, uint64_t seed) {
  const Conv c = conv3d(n, cin, d0, d1, d2, cout, k, k, 1);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_3d_asymmetric_input_square_kernel(n, cin, d0, d1, d2, cout, k, dx.get(), dw.get(), dy.get());
  expect_conv("conv 59", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard3dAsymmetricInputSquareKernel, BenchShape) {
  check_59(C::k59N, C::k59Cin, C::k59D0, C::k59D1, C::k59D2, C::k59Cout, C::k59K, kSamples, 5900);
}
TEST_F(KbConvStandard3dAsymmetricInputSquareKernel, OddShape) {
  check_59(2, 3, 13, 17, 5, 7, 3, 0, 5910);
  check_59(1, 2, 11, 9, 3, 4, 5, 0, 5920);
}

// 60: (k0, k1, k2) kernel on a cubic input; a thread loops over the output channels.
void check_60(int n, int cin, int d0, int d1, int d2, int cout, int k0, int k1, int k2, size_t samples,
              uint64_t seed) {
  const Conv c = conv3d(n, cin, d0, d1, d2, cout, k0, k1, k2);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_3d_square_input_asymmetric_kernel(n, cin, d0, d1, d2, cout, k0, k1, k2, dx.get(), dw.get(),
                                                        dy.get());
  expect_conv("conv 60", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard3dSquareInputAsymmetricKernel, BenchShape) {
  check_60(C::k60N, C::k60Cin, C::k60D0, C::k60D1, C::k60D2, C::k60Cout, C::k60K0, C::k60K1, C::k60K2, kSamples,
           6000);
}
TEST_F(KbConvStandard3dSquareInputAsymmetricKernel, OddShape) { check_60(2, 3, 11, 13, 15, 5, 3, 5, 7, 0, 6010); }

// 66: (kd, kh, kw) kernel on a d x h x w input, sizes in a struct.
void check_66(int n, int cin, int d0, int d1, int d2, int cout, int k0, int k1, int k2, size_t samples,
              uint64_t seed) {
  const Conv c = conv3d(n, cin, d0, d1, d2, cout, k0, k1, k2);
  const Data d = make_data(c, false, seed);
  DeviceBuffer<float> dx(d.x), dw(d.w), dy(c.y_size());
  poison(dy);
  K::kb_conv_standard_3d_asymmetric_input_asymmetric_kernel(n, cin, d0, d1, d2, cout, k0, k1, k2, dx.get(), dw.get(),
                                                            dy.get());
  expect_conv("conv 66", c, d, dy.download(), samples, seed + 3);
}

TEST_F(KbConvStandard3dAsymmetricInputAsymmetricKernel, BenchShape) {
  check_66(C::k66N, C::k66Cin, C::k66D, C::k66H, C::k66W, C::k66Cout, C::k66Kd, C::k66Kh, C::k66Kw, kSamples, 6600);
}
TEST_F(KbConvStandard3dAsymmetricInputAsymmetricKernel, OddShape) { check_66(2, 3, 7, 13, 19, 5, 3, 5, 7, 0, 6610); }

}  // namespace
}  // namespace bench_test
