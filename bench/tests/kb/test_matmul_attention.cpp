// KernelBench 97, scaled dot-product attention (include/bench/kb/matmul.h),
// against a double-precision softmax(Q K^T / sqrt(dim)) V on the CPU: sampled
// query rows (every output of each) at the benchmark shape, every row at the
// odd one. Inputs uniform in [0, 1) as KernelBench's torch.rand.
//
// Tolerance 1e-5 |ref| + 1e-6: an fp32 emulation of the kernel stays under a
// fifth of it at the benchmark shape; TF32 inputs to the products break it
// for about one output in eight.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../check.h"
#include "bench/kb/matmul.h"

namespace bench_test {
namespace {

namespace S = bench::kb::matmul;

void check_attention(int batch, int heads, int seq, int dim, size_t sampled_rows, uint64_t seed) {
  const size_t rows = size_t(batch) * heads * seq, n = rows * dim;
  std::vector<float> q = uniform<float>(n, 0, 1, seed), k = uniform<float>(n, 0, 1, seed + 1),
                     v = uniform<float>(n, 0, 1, seed + 2);
  DeviceBuffer<float> dq(q), dk(k), dv(v), dout(n);
  bench::kb::kb_scaled_dot_product_attention(batch, heads, seq, dim, dq.get(), dk.get(), dv.get(), dout.get());
  std::vector<float> out = dout.download();

  // The rows checked: all, or `sampled_rows` spread deterministically (the first and last among them).
  std::vector<size_t> picked;
  if (sampled_rows == 0 || sampled_rows >= rows) {
    for (size_t r = 0; r < rows; ++r) picked.push_back(r);
  } else {
    picked = {0, rows - 1};
    for (uint64_t s = 0; picked.size() < sampled_rows; ++s) picked.push_back(size_t(unit(seed + 3, s) * rows));
  }
  const double scale = 1 / std::sqrt(double(dim));
  std::vector<double> ref(picked.size() * dim);
  parallel_for(picked.size(), [&](size_t begin, size_t end) {
    std::vector<double> score(seq);
    for (size_t t = begin; t < end; ++t) {
      const size_t r = picked[t], head = r / seq;
      const float* qr = &q[r * dim];
      double top = -INFINITY;
      for (int j = 0; j < seq; ++j) {
        const float* kr = &k[(head * seq + j) * dim];
        double s = 0;
        for (int e = 0; e < dim; ++e) s += double(qr[e]) * kr[e];
        score[j] = s * scale;
        top = std::max(top, score[j]);
      }
      double* o = &ref[t * dim];
      double sum = 0;
      for (int j = 0; j < seq; ++j) {
        const double p = std::exp(score[j] - top);
        sum += p;
        const float* vr = &v[(head * seq + j) * dim];
        for (int e = 0; e < dim; ++e) o[e] += p * vr[e];
      }
      for (int e = 0; e < dim; ++e) o[e] /= sum;
    }
  });
  expect_all_close(
      "sdpa " + std::to_string(batch) + "x" + std::to_string(heads) + "x" + std::to_string(seq) + "x" +
          std::to_string(dim),
      ref.size(), [&](size_t i) { return out[picked[i / dim] * dim + i % dim]; }, [&](size_t i) { return ref[i]; },
      [&](size_t i) { return 1e-5 * std::abs(ref[i]) + 1e-6; });
}

using KbScaledDotProductAttention = CudaTest;
TEST_F(KbScaledDotProductAttention, BenchShape) {
  check_attention(S::kSdpaBatch, S::kSdpaHeads, S::kSdpaSeq, S::kSdpaDim, 128, 9701);
}
TEST_F(KbScaledDotProductAttention, OddShape) { check_attention(2, 3, 37, 45, 0, 9702); }

}  // namespace
}  // namespace bench_test
