// CPU reference of the conv family's tests (include/bench/kb/conv.h): one
// grouped, strided, padded, dilated convolution over up to three spatial
// dimensions, in double, checked at every output or at sampled ones.
#ifndef BENCH_TESTS_KB_CONV_REF_H
#define BENCH_TESTS_KB_CONV_REF_H

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../check.h"

namespace bench_test::conv_ref {

// The geometry of one convolution. Fewer than three spatial dimensions are
// the trailing ones, the leading ones of extent 1 (a 2-D input h x w is
// {1, h, w}), which keeps torch's contiguous layout unchanged.
struct Conv {
  int n = 1, cin = 1, cout = 1, groups = 1;
  std::array<int, 3> in{1, 1, 1}, k{1, 1, 1}, stride{1, 1, 1}, pad{0, 0, 0}, dil{1, 1, 1};

  int out(int a) const { return (in[a] + 2 * pad[a] - dil[a] * (k[a] - 1) - 1) / stride[a] + 1; }
  size_t in_plane() const { return size_t(in[0]) * in[1] * in[2]; }
  size_t out_plane() const { return size_t(out(0)) * out(1) * out(2); }
  int taps() const { return k[0] * k[1] * k[2]; }
  int cin_per_group() const { return cin / groups; }
  size_t x_size() const { return size_t(n) * cin * in_plane(); }
  size_t w_size() const { return size_t(cout) * cin_per_group() * taps(); }
  size_t y_size() const { return size_t(n) * cout * out_plane(); }
};

inline Conv conv1d(int n, int cin, int len, int cout, int k) {
  Conv c;
  c.n = n, c.cin = cin, c.cout = cout, c.in = {1, 1, len}, c.k = {1, 1, k};
  return c;
}
inline Conv conv2d(int n, int cin, int h, int w, int cout, int kh, int kw) {
  Conv c;
  c.n = n, c.cin = cin, c.cout = cout, c.in = {1, h, w}, c.k = {1, kh, kw};
  return c;
}
inline Conv conv3d(int n, int cin, int d0, int d1, int d2, int cout, int k0, int k1, int k2) {
  Conv c;
  c.n = n, c.cin = cin, c.cout = cout, c.in = {d0, d1, d2}, c.k = {k0, k1, k2};
  return c;
}

// Inputs as KernelBench makes them (torch.rand: [0, 1)); weights and bias
// uniform in [-b, b) with b = 1 / sqrt(fan in), torch's default init, so
// outputs have both signs and sums cancel.
struct Data {
  std::vector<float> x, w, bias;
};
inline Data make_data(const Conv& c, bool with_bias, uint64_t seed) {
  const double b = 1.0 / std::sqrt(double(c.cin_per_group()) * c.taps());
  Data d;
  d.x = uniform<float>(c.x_size(), 0, 1, seed);
  d.w = uniform<float>(c.w_size(), -b, b, seed + 1);
  if (with_bias) d.bias = uniform<float>(c.cout, -b, b, seed + 2);
  return d;
}

// y[o] in double; `magnitude` gets the sum of the absolute values of its terms.
inline double reference(const Conv& c, const Data& d, size_t o, double* magnitude) {
  const int o2 = c.out(2), o1 = c.out(1), o0 = c.out(0);
  const int x2 = int(o % o2), x1 = int(o / o2 % o1), x0 = int(o / (size_t(o2) * o1) % o0);
  const size_t bc = o / c.out_plane();
  const int co = int(bc % c.cout);
  const size_t b = bc / c.cout;
  const int group = co / (c.cout / c.groups), cpg = c.cin_per_group();
  double sum = 0, mag = 0;
  if (!d.bias.empty()) sum = d.bias[co], mag = std::abs(sum);
  for (int cg = 0; cg < cpg; ++cg) {
    const size_t ci = size_t(group) * cpg + cg;
    for (int a = 0; a < c.k[0]; ++a) {
      const int i0 = x0 * c.stride[0] - c.pad[0] + a * c.dil[0];
      if (i0 < 0 || i0 >= c.in[0]) continue;
      for (int e = 0; e < c.k[1]; ++e) {
        const int i1 = x1 * c.stride[1] - c.pad[1] + e * c.dil[1];
        if (i1 < 0 || i1 >= c.in[1]) continue;
        for (int f = 0; f < c.k[2]; ++f) {
          const int i2 = x2 * c.stride[2] - c.pad[2] + f * c.dil[2];
          if (i2 < 0 || i2 >= c.in[2]) continue;
          const double t = double(d.x[((b * c.cin + ci) * c.in[0] + i0) * c.in[1] * c.in[2] + size_t(i1) * c.in[2] + i2]) *
                           d.w[((size_t(co) * cpg + cg) * c.k[0] + a) * c.k[1] * c.k[2] + size_t(e) * c.k[2] + f];
          sum += t;
          mag += std::abs(t);
        }
      }
    }
  }
  *magnitude = mag;
  return sum;
}

// The output indices a test checks: all of them when `samples` is 0 or at
// least the output's size, else `samples` indices spread pseudo-randomly
// (deterministic in `seed`) plus the first and the last output.
inline std::vector<size_t> outputs_to_check(size_t total, size_t samples, uint64_t seed) {
  std::vector<size_t> idx;
  if (samples == 0 || samples >= total) {
    idx.resize(total);
    for (size_t i = 0; i < total; ++i) idx[i] = i;
    return idx;
  }
  idx.push_back(0);
  for (size_t s = 0; s < samples; ++s) idx.push_back(std::min(total - 1, size_t(unit(seed, s) * double(total))));
  idx.push_back(total - 1);
  return idx;
}

// Expects y (downloaded) within 2e-6 of sum |terms| (+1e-6) of the double
// reference at the checked outputs: the fp32 summation error of the longest
// window here (2240 terms) stays well below that, a wrong tap or index does
// not. `ref(o, &magnitude)` gives the reference of output o.
template <typename Ref>
void expect_outputs(const std::string& what, const std::vector<float>& y, size_t samples, uint64_t seed, Ref ref) {
  const std::vector<size_t> idx = outputs_to_check(y.size(), samples, seed);
  std::vector<double> want(idx.size()), mag(idx.size());
  parallel_for(idx.size(), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) want[i] = ref(idx[i], &mag[i]);
  });
  auto tol = [&](size_t i) { return 2e-6 * mag[i] + 1e-6; };
  size_t first = 0;
  const size_t bad = count_failures(
      idx.size(), [&](size_t i) { return std::abs(double(y[idx[i]]) - want[i]) <= tol(i); }, &first);
  if (bad == 0) return;
  ADD_FAILURE() << what << ": " << bad << " of " << idx.size() << " checked outputs wrong; first at output "
                << idx[first] << ": got " << y[idx[first]] << ", expected " << want[first] << " within " << tol(first);
}

inline void expect_conv(const std::string& what, const Conv& c, const Data& d, const std::vector<float>& y,
                        size_t samples, uint64_t seed) {
  ASSERT_EQ(y.size(), c.y_size()) << what;
  expect_outputs(what, y, samples, seed, [&](size_t o, double* mag) { return reference(c, d, o, mag); });
}

// An output buffer filled with NaN (all bits set), so an output the kernel
// never writes fails the comparison.
inline void poison(DeviceBuffer<float>& y) { check(cudaMemset(y.get(), 0xff, y.bytes()), "cudaMemset"); }

// Sampled outputs of the benchmark shapes.
inline constexpr size_t kSamples = 4096;

}  // namespace bench_test::conv_ref

#endif  // BENCH_TESTS_KB_CONV_REF_H
