// KernelBench's transposed convolutions (include/bench/kb/conv_transposed.h).
//
// Data as KernelBench makes it: x uniform in [0, 1) (torch.rand), the weight
// uniform in [-b, b) with b = 1 / sqrt(fan_in), fan_in = cout / groups * taps
// (torch's default init of ConvTranspose weights). y is filled with NaN
// first, so an output a kernel never writes (or a scatter kernel's launcher
// never clears) fails. Outputs must be within 2e-6 of sum |x w| (+1e-6) of
// a double reference: fp32 sums in any order pass, TF32 products do not.
// BenchShape checks spread samples against a gather reference (as most
// kernels compute); OddShape checks every output against a scatter reference
// (as the atomic kernels compute), so each formulation checks the other.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/kb/conv_transposed.h"
#include "check.h"

namespace bench_test {
namespace {

namespace K = bench::kb;
namespace C = bench::kb::conv_transposed;
using C::Int3;

// A transposed convolution over three spatial dimensions (depth, height,
// width); 1-D and 2-D problems have leading sizes of 1.
struct Geometry {
  int n = 1, cin = 1, cout = 1, groups = 1;
  std::array<int, 3> in{1, 1, 1}, k{1, 1, 1}, stride{1, 1, 1}, pad{0, 0, 0}, dil{1, 1, 1}, out_pad{0, 0, 0};

  int out(int a) const { return static_cast<int>(C::out_len(in[a], k[a], stride[a], pad[a], dil[a], out_pad[a])); }
  size_t in_volume() const { return size_t(in[0]) * in[1] * in[2]; }
  size_t out_volume() const { return size_t(out(0)) * out(1) * out(2); }
  size_t taps() const { return size_t(k[0]) * k[1] * k[2]; }
  size_t x_size() const { return size_t(n) * cin * in_volume(); }
  size_t w_size() const { return size_t(cin) * (cout / groups) * taps(); }
  size_t y_size() const { return size_t(n) * cout * out_volume(); }
  size_t x_index(int img, int ci, int i0, int i1, int i2) const {
    return ((size_t(img) * cin + ci) * in[0] + i0) * in[1] * in[2] + size_t(i1) * in[2] + i2;
  }
  size_t w_index(int ci, int j, int t0, int t1, int t2) const {
    return ((size_t(ci) * (cout / groups) + j) * k[0] + t0) * k[1] * k[2] + size_t(t1) * k[2] + t2;
  }
};

Geometry g1d(int n, int cin, int cout, int len, int k, int stride = 1, int pad = 0, int dil = 1) {
  Geometry g;
  g.n = n, g.cin = cin, g.cout = cout;
  g.in = {1, 1, len}, g.k = {1, 1, k}, g.stride = {1, 1, stride}, g.pad = {0, 0, pad}, g.dil = {1, 1, dil};
  return g;
}

Geometry g2d(int n, int cin, int cout, int h, int w, int kh, int kw, int sh = 1, int sw = 1, int ph = 0, int pw = 0,
             int dh = 1, int dw = 1, int groups = 1) {
  Geometry g;
  g.n = n, g.cin = cin, g.cout = cout, g.groups = groups;
  g.in = {1, h, w}, g.k = {1, kh, kw}, g.stride = {1, sh, sw}, g.pad = {0, ph, pw}, g.dil = {1, dh, dw};
  return g;
}

Geometry g3d(int n, int cin, int cout, Int3 in, Int3 k, Int3 stride = {1, 1, 1}, Int3 pad = {0, 0, 0},
             Int3 dil = {1, 1, 1}, Int3 out_pad = {0, 0, 0}, int groups = 1) {
  Geometry g;
  g.n = n, g.cin = cin, g.cout = cout, g.groups = groups;
  g.in = {in.d, in.h, in.w}, g.k = {k.d, k.h, k.w}, g.stride = {stride.d, stride.h, stride.w};
  g.pad = {pad.d, pad.h, pad.w}, g.dil = {dil.d, dil.h, dil.w}, g.out_pad = {out_pad.d, out_pad.h, out_pad.w};
  return g;
}

// The input position under tap t of output position o in dimension a, if any.
bool source(const Geometry& g, int a, int o, int t, int* i) {
  const int p = o + g.pad[a] - t * g.dil[a];
  if (p < 0 || p % g.stride[a] != 0) return false;
  *i = p / g.stride[a];
  return *i < g.in[a];
}

// Output o (flat index into y) by gathering: its sum and sum of |terms|.
void gather(const Geometry& g, const std::vector<float>& x, const std::vector<float>& w, size_t o, double* sum,
            double* magnitude) {
  int pos[3];
  size_t r = o;
  for (int a = 2; a >= 0; --a) {
    pos[a] = static_cast<int>(r % g.out(a));
    r /= g.out(a);
  }
  const int co = static_cast<int>(r % g.cout), img = static_cast<int>(r / g.cout);
  const int cin_g = g.cin / g.groups, cout_g = g.cout / g.groups, group = co / cout_g, j = co % cout_g;
  double s = 0, m = 0;
  for (int c = 0; c < cin_g; ++c) {
    const int ci = group * cin_g + c;
    int i0, i1, i2;
    for (int t0 = 0; t0 < g.k[0]; ++t0) {
      if (!source(g, 0, pos[0], t0, &i0)) continue;
      for (int t1 = 0; t1 < g.k[1]; ++t1) {
        if (!source(g, 1, pos[1], t1, &i1)) continue;
        for (int t2 = 0; t2 < g.k[2]; ++t2) {
          if (!source(g, 2, pos[2], t2, &i2)) continue;
          const double v = double(x[g.x_index(img, ci, i0, i1, i2)]) * w[g.w_index(ci, j, t0, t1, t2)];
          s += v;
          m += std::abs(v);
        }
      }
    }
  }
  *sum = s;
  *magnitude = m;
}

// Every output by scattering each input element through every tap.
void scatter(const Geometry& g, const std::vector<float>& x, const std::vector<float>& w, std::vector<double>& sum,
             std::vector<double>& magnitude) {
  sum.assign(g.y_size(), 0);
  magnitude.assign(g.y_size(), 0);
  const int cin_g = g.cin / g.groups, cout_g = g.cout / g.groups;
  const int out[3] = {g.out(0), g.out(1), g.out(2)};
  for (int img = 0; img < g.n; ++img)
    for (int ci = 0; ci < g.cin; ++ci)
      for (int i0 = 0; i0 < g.in[0]; ++i0)
        for (int i1 = 0; i1 < g.in[1]; ++i1)
          for (int i2 = 0; i2 < g.in[2]; ++i2) {
            const double v = x[g.x_index(img, ci, i0, i1, i2)];
            for (int j = 0; j < cout_g; ++j) {
              const size_t plane = (size_t(img) * g.cout + ci / cin_g * cout_g + j) * g.out_volume();
              for (int t0 = 0; t0 < g.k[0]; ++t0) {
                const int o0 = i0 * g.stride[0] - g.pad[0] + t0 * g.dil[0];
                if (o0 < 0 || o0 >= out[0]) continue;
                for (int t1 = 0; t1 < g.k[1]; ++t1) {
                  const int o1 = i1 * g.stride[1] - g.pad[1] + t1 * g.dil[1];
                  if (o1 < 0 || o1 >= out[1]) continue;
                  for (int t2 = 0; t2 < g.k[2]; ++t2) {
                    const int o2 = i2 * g.stride[2] - g.pad[2] + t2 * g.dil[2];
                    if (o2 < 0 || o2 >= out[2]) continue;
                    const size_t o = plane + (size_t(o0) * out[1] + o1) * out[2] + o2;
                    const double term = v * w[g.w_index(ci, j, t0, t1, t2)];
                    sum[o] += term;
                    magnitude[o] += std::abs(term);
                  }
                }
              }
            }
          }
}

using Launch = std::function<void(const float* x, const float* w, float* y)>;

// Runs `launch` on KernelBench-like data of geometry g. samples == 0: every
// output against the scatter reference; otherwise about that many outputs,
// one in each of `samples` equal stretches of y at a pseudo-random offset
// (so every channel and position class is hit), plus the last one, against
// the gather reference.
void run_and_check(const std::string& what, const Geometry& g, size_t samples, uint64_t seed, const Launch& launch) {
  const double bound = 1.0 / std::sqrt(double(g.cout / g.groups) * double(g.taps()));
  const std::vector<float> x = uniform<float>(g.x_size(), 0, 1, seed);
  const std::vector<float> w = uniform<float>(g.w_size(), -bound, bound, seed + 1);
  DeviceBuffer<float> dx(x), dw(w), dy(g.y_size());
  check(cudaMemset(dy.get(), 0xff, dy.bytes()), "cudaMemset");  // all-ones bytes: NaN
  launch(dx.get(), dw.get(), dy.get());
  const std::vector<float> y = dy.download();
  const size_t total = y.size();
  std::vector<double> ref, magnitude;
  std::function<size_t(size_t)> index = [](size_t s) { return s; };
  size_t count = total;
  if (samples == 0 || samples >= total) {
    scatter(g, x, w, ref, magnitude);
  } else {
    count = samples + 1;
    const size_t step = total / samples;
    index = [=](size_t s) { return s == samples ? total - 1 : s * step + mix64(s + seed) % step; };
    ref.resize(count);
    magnitude.resize(count);
    parallel_for(count, [&](size_t begin, size_t end) {
      for (size_t s = begin; s < end; ++s) gather(g, x, w, index(s), &ref[s], &magnitude[s]);
    });
  }
  expect_all_close(
      what, count, [&](size_t s) { return y[index(s)]; }, [&](size_t s) { return ref[s]; },
      [&](size_t s) { return 2e-6 * magnitude[s] + 1e-6; });
}

constexpr size_t kSamples = 20000;  // BenchShape samples
constexpr size_t kAll = 0;          // OddShape: every output

// 57: square input, square kernel.
void run57(int n, int cin, int cout, int size, int k, size_t samples, uint64_t seed) {
  run_and_check("57", g2d(n, cin, cout, size, size, k, k), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_2d_square_input_square_kernel(n, cin, cout, size, k, x, w, y);
                });
}
using KbConvTransposed2dSquareInputSquareKernel = CudaTest;
TEST_F(KbConvTransposed2dSquareInputSquareKernel, BenchShape) {
  run57(C::k57N, C::k57Cin, C::k57Cout, C::k57Size, C::k57K, kSamples, 5701);
}
TEST_F(KbConvTransposed2dSquareInputSquareKernel, OddShape) {
  run57(2, 5, 3, 37, 3, kAll, 5702);
  run57(1, 3, 7, 9, 4, kAll, 5703);
}

// 58: asymmetric input, asymmetric kernel (3-D).
void run58(int n, int cin, int cout, Int3 in, Int3 k, size_t samples, uint64_t seed) {
  run_and_check("58", g3d(n, cin, cout, in, k), samples, seed, [&](const float* x, const float* w, float* y) {
    K::kb_conv_transposed_3d_asymmetric_input_asymmetric_kernel(n, cin, cout, in.d, in.h, in.w, k.d, k.h, k.w, x, w,
                                                                y);
  });
}
using KbConvTransposed3dAsymmetricInputAsymmetricKernel = CudaTest;
TEST_F(KbConvTransposed3dAsymmetricInputAsymmetricKernel, BenchShape) {
  run58(C::k58N, C::k58Cin, C::k58Cout, {C::k58D, C::k58H, C::k58W}, {C::k58Kd, C::k58Kh, C::k58Kw}, kSamples, 5801);
}
TEST_F(KbConvTransposed3dAsymmetricInputAsymmetricKernel, OddShape) {
  run58(2, 3, 5, {5, 7, 9}, {3, 5, 7}, kAll, 5802);
}

// 61: cubic input, cubic kernel.
void run61(int n, int cin, int cout, int size, int k, size_t samples, uint64_t seed) {
  run_and_check("61", g3d(n, cin, cout, {size, size, size}, {k, k, k}), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_3d_square_input_square_kernel(n, cin, cout, size, k, x, w, y);
                });
}
using KbConvTransposed3dSquareInputSquareKernel = CudaTest;
TEST_F(KbConvTransposed3dSquareInputSquareKernel, BenchShape) {
  run61(C::k61N, C::k61Cin, C::k61Cout, C::k61Size, C::k61K, kSamples, 6101);
}
TEST_F(KbConvTransposed3dSquareInputSquareKernel, OddShape) { run61(2, 5, 3, 11, 3, kAll, 6102); }

// 64: 1-D.
void run64(int n, int cin, int cout, int len, int k, size_t samples, uint64_t seed) {
  run_and_check("64", g1d(n, cin, cout, len, k), samples, seed, [&](const float* x, const float* w, float* y) {
    K::kb_conv_transposed_1d(n, cin, cout, len, k, x, w, y);
  });
}
using KbConvTransposed1d = CudaTest;
TEST_F(KbConvTransposed1d, BenchShape) { run64(C::k64N, C::k64Cin, C::k64Cout, C::k64Len, C::k64K, kSamples, 6401); }
TEST_F(KbConvTransposed1d, OddShape) { run64(3, 5, 7, 1001, 3, kAll, 6402); }

// 65: square input, asymmetric kernel (2-D).
void run65(int n, int cin, int cout, int size, int kh, int kw, size_t samples, uint64_t seed) {
  run_and_check("65", g2d(n, cin, cout, size, size, kh, kw), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_2d_square_input_asymmetric_kernel(n, cin, cout, size, kh, kw, x, w, y);
                });
}
using KbConvTransposed2dSquareInputAsymmetricKernel = CudaTest;
TEST_F(KbConvTransposed2dSquareInputAsymmetricKernel, BenchShape) {
  run65(C::k65N, C::k65Cin, C::k65Cout, C::k65Size, C::k65Kh, C::k65Kw, kSamples, 6501);
}
TEST_F(KbConvTransposed2dSquareInputAsymmetricKernel, OddShape) { run65(2, 3, 5, 37, 3, 7, kAll, 6502); }

// 68: cubic input, asymmetric kernel.
void run68(int n, int cin, int cout, int size, Int3 k, size_t samples, uint64_t seed) {
  run_and_check("68", g3d(n, cin, cout, {size, size, size}, k), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_3d_square_input_asymmetric_kernel(n, cin, cout, size, k.d, k.h, k.w, x, w, y);
                });
}
using KbConvTransposed3dSquareInputAsymmetricKernel = CudaTest;
TEST_F(KbConvTransposed3dSquareInputAsymmetricKernel, BenchShape) {
  run68(C::k68N, C::k68Cin, C::k68Cout, C::k68Size, {C::k68Kd, C::k68Kh, C::k68Kw}, kSamples, 6801);
}
TEST_F(KbConvTransposed3dSquareInputAsymmetricKernel, OddShape) {
  run68(2, 3, 5, 9, {3, 5, 5}, kAll, 6802);
  run68(1, 2, 3, 7, {3, 4, 5}, kAll, 6803);  // three different kernel sizes
}

// 69: asymmetric input, asymmetric kernel (2-D).
void run69(int n, int cin, int cout, int h, int w, int kh, int kw, size_t samples, uint64_t seed) {
  run_and_check("69", g2d(n, cin, cout, h, w, kh, kw), samples, seed,
                [&](const float* x, const float* wt, float* y) {
                  K::kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel(n, cin, cout, h, w, kh, kw, x, wt, y);
                });
}
using KbConvTransposed2dAsymmetricInputAsymmetricKernel = CudaTest;
TEST_F(KbConvTransposed2dAsymmetricInputAsymmetricKernel, BenchShape) {
  run69(C::k69N, C::k69Cin, C::k69Cout, C::k69H, C::k69W, C::k69Kh, C::k69Kw, kSamples, 6901);
}
TEST_F(KbConvTransposed2dAsymmetricInputAsymmetricKernel, OddShape) { run69(3, 5, 7, 13, 37, 3, 5, kAll, 6902); }

// 70: asymmetric input, cubic kernel.
void run70(int n, int cin, int cout, Int3 in, int k, size_t samples, uint64_t seed) {
  run_and_check("70", g3d(n, cin, cout, in, {k, k, k}), samples, seed, [&](const float* x, const float* w, float* y) {
    K::kb_conv_transposed_3d_asymmetric_input_square_kernel(n, cin, cout, in.d, in.h, in.w, k, x, w, y);
  });
}
using KbConvTransposed3dAsymmetricInputSquareKernel = CudaTest;
TEST_F(KbConvTransposed3dAsymmetricInputSquareKernel, BenchShape) {
  run70(C::k70N, C::k70Cin, C::k70Cout, {C::k70D, C::k70H, C::k70W}, C::k70K, kSamples, 7001);
}
TEST_F(KbConvTransposed3dAsymmetricInputSquareKernel, OddShape) { run70(2, 5, 3, {7, 9, 11}, 3, kAll, 7002); }

// 71: asymmetric input, square kernel (2-D).
void run71(int n, int cin, int cout, int h, int w, int k, size_t samples, uint64_t seed) {
  run_and_check("71", g2d(n, cin, cout, h, w, k, k), samples, seed, [&](const float* x, const float* wt, float* y) {
    K::kb_conv_transposed_2d_asymmetric_input_square_kernel(n, cin, cout, h, w, k, x, wt, y);
  });
}
using KbConvTransposed2dAsymmetricInputSquareKernel = CudaTest;
TEST_F(KbConvTransposed2dAsymmetricInputSquareKernel, BenchShape) {
  run71(C::k71N, C::k71Cin, C::k71Cout, C::k71H, C::k71W, C::k71K, kSamples, 7101);
}
TEST_F(KbConvTransposed2dAsymmetricInputSquareKernel, OddShape) { run71(2, 3, 5, 19, 41, 3, kAll, 7102); }

// 72: 3-D, strided, padded, output-padded, grouped (scatter kernel).
void run72(int n, int cin, int cout, Int3 in, Int3 k, Int3 stride, Int3 pad, Int3 out_pad, int groups, size_t samples,
           uint64_t seed) {
  run_and_check("72", g3d(n, cin, cout, in, k, stride, pad, {1, 1, 1}, out_pad, groups), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped(
                      n, cin, cout, in, k, stride, pad, out_pad, groups, x, w, y);
                });
}
using KbConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGrouped = CudaTest;
TEST_F(KbConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGrouped, BenchShape) {
  run72(C::k72N, C::k72Cin, C::k72Cout, C::k72In, C::k72K, C::k72Stride, C::k72Pad, C::k72OutPad, C::k72Groups,
        kSamples, 7201);
}
TEST_F(KbConvTransposed3dAsymmetricInputAsymmetricKernelStridedPaddedGrouped, OddShape) {
  run72(2, 12, 8, {5, 7, 9}, C::k72K, C::k72Stride, C::k72Pad, C::k72OutPad, 4, kAll, 7202);
  run72(1, 6, 9, {4, 5, 6}, {2, 3, 3}, {3, 1, 2}, {0, 1, 2}, {2, 0, 1}, 3, kAll, 7203);
}

// 73: 3-D, strided, padded (groups 1, as KernelBench's module runs it).
void run73(int n, int cin, int cout, Int3 in, int k, int stride, int pad, size_t samples, uint64_t seed) {
  run_and_check("73", g3d(n, cin, cout, in, {k, k, k}, {stride, stride, stride}, {pad, pad, pad}), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped(
                      n, cin, cout, in.d, in.h, in.w, k, stride, pad, x, w, y);
                });
}
using KbConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGrouped = CudaTest;
TEST_F(KbConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGrouped, BenchShape) {
  run73(C::k73N, C::k73Cin, C::k73Cout, {C::k73D, C::k73H, C::k73W}, C::k73K, C::k73Stride, C::k73Pad, kSamples,
        7301);
}
TEST_F(KbConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGrouped, OddShape) {
  run73(2, 5, 3, {5, 7, 13}, 3, 2, 1, kAll, 7302);
}

// 74: 1-D, dilated.
void run74(int n, int cin, int cout, int len, int k, int stride, int pad, int dil, size_t samples, uint64_t seed) {
  run_and_check("74", g1d(n, cin, cout, len, k, stride, pad, dil), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_1d_dilated(n, cin, cout, len, k, stride, pad, dil, x, w, y);
                });
}
using KbConvTransposed1dDilated = CudaTest;
TEST_F(KbConvTransposed1dDilated, BenchShape) {
  run74(C::k74N, C::k74Cin, C::k74Cout, C::k74Len, C::k74K, C::k74Stride, C::k74Pad, C::k74Dil, kSamples, 7401);
}
TEST_F(KbConvTransposed1dDilated, OddShape) {
  run74(3, 5, 7, 1001, 5, 1, 0, 3, kAll, 7402);
  run74(2, 3, 4, 77, 5, 2, 3, 3, kAll, 7403);
}

// 75: 2-D, strided, grouped, padded, dilated.
void run75(int n, int cin, int cout, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw,
           int groups, size_t samples, uint64_t seed) {
  run_and_check("75", g2d(n, cin, cout, h, w, kh, kw, sh, sw, ph, pw, dh, dw, groups), samples, seed,
                [&](const float* x, const float* wt, float* y) {
                  K::kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated(
                      n, cin, cout, h, w, kh, kw, sh, sw, ph, pw, dh, dw, groups, x, wt, y);
                });
}
using KbConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilated = CudaTest;
TEST_F(KbConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilated, BenchShape) {
  run75(C::k75N, C::k75Cin, C::k75Cout, C::k75H, C::k75W, C::k75Kh, C::k75Kw, C::k75Sh, C::k75Sw, C::k75Ph, C::k75Pw,
        C::k75Dh, C::k75Dw, C::k75Groups, kSamples, 7501);
}
TEST_F(KbConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilated, OddShape) {
  run75(2, 12, 8, 13, 37, 3, 5, 2, 3, 1, 2, 2, 1, 4, kAll, 7502);
}

// 77: 3-D, padded, dilated, strided.
void run77(int n, int cin, int cout, Int3 in, int k, int stride, int pad, int dil, size_t samples, uint64_t seed) {
  run_and_check("77", g3d(n, cin, cout, in, {k, k, k}, {stride, stride, stride}, {pad, pad, pad}, {dil, dil, dil}),
                samples, seed, [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_3d_square_input_square_kernel_padded_dilated_strided(
                      n, cin, cout, in.d, in.h, in.w, k, stride, pad, dil, x, w, y);
                });
}
using KbConvTransposed3dSquareInputSquareKernelPaddedDilatedStrided = CudaTest;
TEST_F(KbConvTransposed3dSquareInputSquareKernelPaddedDilatedStrided, BenchShape) {
  run77(C::k77N, C::k77Cin, C::k77Cout, {C::k77D, C::k77H, C::k77W}, C::k77K, C::k77Stride, C::k77Pad, C::k77Dil,
        kSamples, 7701);
}
TEST_F(KbConvTransposed3dSquareInputSquareKernelPaddedDilatedStrided, OddShape) {
  run77(2, 5, 3, {5, 7, 9}, 3, 2, 1, 2, kAll, 7702);
}

// 78: 2-D, padded (stride as given).
void run78(int n, int cin, int cout, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, size_t samples,
           uint64_t seed) {
  run_and_check("78", g2d(n, cin, cout, h, w, kh, kw, sh, sw, ph, pw), samples, seed,
                [&](const float* x, const float* wt, float* y) {
                  K::kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded(n, cin, cout, h, w, kh, kw, sh,
                                                                                     sw, ph, pw, x, wt, y);
                });
}
using KbConvTransposed2dAsymmetricInputAsymmetricKernelPadded = CudaTest;
TEST_F(KbConvTransposed2dAsymmetricInputAsymmetricKernelPadded, BenchShape) {
  run78(C::k78N, C::k78Cin, C::k78Cout, C::k78H, C::k78W, C::k78Kh, C::k78Kw, C::k78Sh, C::k78Sw, C::k78Ph, C::k78Pw,
        kSamples, 7801);
}
TEST_F(KbConvTransposed2dAsymmetricInputAsymmetricKernelPadded, OddShape) {
  run78(2, 3, 5, 19, 41, 3, 7, 1, 1, 1, 3, kAll, 7802);
  run78(1, 4, 3, 11, 13, 3, 7, 2, 3, 1, 3, kAll, 7803);
}

// 79: 1-D, padded, strided, dilated (scatter kernel).
void run79(int n, int cin, int cout, int len, int k, int stride, int pad, int dil, size_t samples, uint64_t seed) {
  run_and_check("79", g1d(n, cin, cout, len, k, stride, pad, dil), samples, seed,
                [&](const float* x, const float* w, float* y) {
                  K::kb_conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated(
                      n, cin, cout, len, k, stride, pad, dil, x, w, y);
                });
}
using KbConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilated = CudaTest;
TEST_F(KbConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilated, BenchShape) {
  run79(C::k79N, C::k79Cin, C::k79Cout, C::k79Len, C::k79K, C::k79Stride, C::k79Pad, C::k79Dil, kSamples, 7901);
}
TEST_F(KbConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilated, OddShape) {
  run79(3, 5, 7, 1001, 3, 2, 1, 2, kAll, 7902);
}

// 81: 2-D, dilated, padded, strided (scatter kernel).
void run81(int n, int cin, int cout, int h, int w, int k, int stride, int pad, int dil, size_t samples,
           uint64_t seed) {
  run_and_check("81", g2d(n, cin, cout, h, w, k, k, stride, stride, pad, pad, dil, dil), samples, seed,
                [&](const float* x, const float* wt, float* y) {
                  K::kb_conv_transposed_2d_asymmetric_input_square_kernel_dilated_padded_strided(
                      n, cin, cout, h, w, k, stride, pad, dil, x, wt, y);
                });
}
using KbConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStrided = CudaTest;
TEST_F(KbConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStrided, BenchShape) {
  run81(C::k81N, C::k81Cin, C::k81Cout, C::k81H, C::k81W, C::k81K, C::k81Stride, C::k81Pad, C::k81Dil, kSamples, 8101);
}
TEST_F(KbConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStrided, OddShape) {
  run81(2, 3, 5, 13, 29, 3, 5, 1, 2, kAll, 8102);
}

}  // namespace
}  // namespace bench_test
