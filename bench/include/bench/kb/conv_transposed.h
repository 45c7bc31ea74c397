// KernelBench level 1, transposed convolutions (57, 58, 61, 64, 65, 68-75,
// 77-79, 81): the launchers of src/kb/conv_transposed/, their sizes and the
// benchmark rows.
//
// Layouts are torch's: x is n x cin x (d x) (h x) len, the weight
// cin x (cout / groups) x kernel, y n x cout x outputs, all contiguous fp32.
// Every output dimension is (in - 1) * stride - 2 * pad + dil * (k - 1) +
// out_pad + 1. None of these problems has a bias (KernelBench's modules
// default to bias=False and no get_init_inputs passes one). Each launcher
// launches one kernel on stream `s` (the scatter ones clear y first on `s`);
// a failed launch throws std::runtime_error.
#ifndef BENCH_KB_CONV_TRANSPOSED_H
#define BENCH_KB_CONV_TRANSPOSED_H

#include <cuda_runtime.h>

#include "bench/problem.h"

namespace bench::kb::conv_transposed {

/// Three sizes of a 3-D transposed convolution: depth, height, width.
struct Int3 {
  int d, h, w;
};

/// Output length of one dimension (torch's formula).
inline constexpr long long out_len(long long in, long long k, long long stride = 1, long long pad = 0,
                                   long long dil = 1, long long out_pad = 0) {
  return (in - 1) * stride - 2 * pad + dil * (k - 1) + out_pad + 1;
}

/// Pairs (input position, tap) of one dimension whose output position
/// i * stride - pad + tap * dil lands inside the output; the multiply-adds of
/// one (input channel, output channel) pair are the product over dimensions.
inline constexpr long long landing_pairs(long long in, long long k, long long stride = 1, long long pad = 0,
                                         long long dil = 1, long long out_pad = 0) {
  const long long out = out_len(in, k, stride, pad, dil, out_pad);
  long long pairs = 0;
  for (long long t = 0; t < k; ++t) {
    const long long lo = pad - t * dil, hi = out - 1 + pad - t * dil;  // lo <= i * stride <= hi
    if (hi < 0) continue;
    const long long first = lo <= 0 ? 0 : (lo + stride - 1) / stride;
    const long long last = hi / stride < in - 1 ? hi / stride : in - 1;
    if (last >= first) pairs += last - first + 1;
  }
  return pairs;
}

}  // namespace bench::kb::conv_transposed

namespace bench::kb {

/// KernelBench 57: nn.ConvTranspose2d(cin, cout, k, bias=False)(x), stride 1, no padding:
/// x n x cin x size x size, w cin x cout x k x k, y n x cout x (size + k - 1)^2.
void kb_conv_transposed_2d_square_input_square_kernel(int n, int cin, int cout, int size, int k, const float* x,
                                                       const float* wt, float* y, cudaStream_t s = 0);
/// KernelBench 58: nn.ConvTranspose3d(cin, cout, (kd, kh, kw), bias=False)(x), stride 1, no padding:
/// x n x cin x d x h x w, y n x cout x (d + kd - 1) x (h + kh - 1) x (w + kw - 1).
void kb_conv_transposed_3d_asymmetric_input_asymmetric_kernel(int n, int cin, int cout, int d, int h, int w, int kd,
                                                              int kh, int kw, const float* x, const float* wt,
                                                              float* y, cudaStream_t s = 0);
/// KernelBench 61: nn.ConvTranspose3d(cin, cout, (k, k, k), bias=False)(x), stride 1, no padding:
/// x n x cin x size^3, y n x cout x (size + k - 1)^3.
void kb_conv_transposed_3d_square_input_square_kernel(int n, int cin, int cout, int size, int k, const float* x,
                                                      const float* wt, float* y, cudaStream_t s = 0);
/// KernelBench 64: nn.ConvTranspose1d(cin, cout, k, bias=False)(x), stride 1, no padding:
/// x n x cin x len, y n x cout x (len + k - 1).
void kb_conv_transposed_1d(int n, int cin, int cout, int len, int k, const float* x, const float* wt, float* y,
                           cudaStream_t s = 0);
/// KernelBench 65: nn.ConvTranspose2d(cin, cout, (kh, kw), bias=False)(x), stride 1, no padding:
/// x n x cin x size x size, y n x cout x (size + kh - 1) x (size + kw - 1).
void kb_conv_transposed_2d_square_input_asymmetric_kernel(int n, int cin, int cout, int size, int kh, int kw,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s = 0);
/// KernelBench 68: nn.ConvTranspose3d(cin, cout, (kd, kh, kw), bias=False)(x), stride 1, no padding:
/// x n x cin x size^3, y n x cout x (size + kd - 1) x (size + kh - 1) x (size + kw - 1).
void kb_conv_transposed_3d_square_input_asymmetric_kernel(int n, int cin, int cout, int size, int kd, int kh, int kw,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s = 0);
/// KernelBench 69: nn.ConvTranspose2d(cin, cout, (kh, kw), bias=False)(x), stride 1, no padding:
/// x n x cin x h x w, y n x cout x (h + kh - 1) x (w + kw - 1).
void kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel(int n, int cin, int cout, int h, int w, int kh, int kw,
                                                              const float* x, const float* wt, float* y,
                                                              cudaStream_t s = 0);
/// KernelBench 70: nn.ConvTranspose3d(cin, cout, (k, k, k), bias=False)(x), stride 1, no padding:
/// x n x cin x d x h x w, y n x cout x (d + k - 1) x (h + k - 1) x (w + k - 1).
void kb_conv_transposed_3d_asymmetric_input_square_kernel(int n, int cin, int cout, int d, int h, int w, int k,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s = 0);
/// KernelBench 71: nn.ConvTranspose2d(cin, cout, k, bias=False)(x), stride 1, no padding:
/// x n x cin x h x w, y n x cout x (h + k - 1) x (w + k - 1).
void kb_conv_transposed_2d_asymmetric_input_square_kernel(int n, int cin, int cout, int h, int w, int k,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s = 0);
/// KernelBench 72: nn.ConvTranspose3d(cin, cout, k, stride, pad, out_pad, groups, bias=False)(x):
/// x n x cin x in, w cin x (cout / groups) x k, y n x cout x out_len(in, k, stride, pad, 1, out_pad).
/// Scatters: one thread per input element, atomicAdd into y (cleared first).
void kb_conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped(
    int n, int cin, int cout, conv_transposed::Int3 in, conv_transposed::Int3 k, conv_transposed::Int3 stride,
    conv_transposed::Int3 pad, conv_transposed::Int3 out_pad, int groups, const float* x, const float* wt, float* y,
    cudaStream_t s = 0);
/// KernelBench 73: nn.ConvTranspose3d(cin, cout, (k, k, k), stride, pad, bias=False)(x), groups 1:
/// KernelBench declares groups=4, but its get_init_inputs hands 4 to the module's output_padding argument,
/// which the module never passes on, so the convolution it runs has groups 1 and no output padding.
/// x n x cin x d x h x w, y n x cout x out_len(d, k, stride, pad) x (same for h) x (same for w).
void kb_conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped(int n, int cin, int cout, int d,
                                                                                  int h, int w, int k, int stride,
                                                                                  int pad, const float* x,
                                                                                  const float* wt, float* y,
                                                                                  cudaStream_t s = 0);
/// KernelBench 74: nn.ConvTranspose1d(cin, cout, k, stride, pad, dilation=dil, bias=False)(x):
/// x n x cin x len, y n x cout x out_len(len, k, stride, pad, dil).
void kb_conv_transposed_1d_dilated(int n, int cin, int cout, int len, int k, int stride, int pad, int dil,
                                   const float* x, const float* wt, float* y, cudaStream_t s = 0);
/// KernelBench 75: nn.ConvTranspose2d(cin, cout, (kh, kw), (sh, sw), (ph, pw), dilation=(dh, dw), groups,
/// bias=False)(x): x n x cin x h x w, w cin x (cout / groups) x kh x kw,
/// y n x cout x out_len(h, kh, sh, ph, dh) x out_len(w, kw, sw, pw, dw).
void kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated(
    int n, int cin, int cout, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw,
    int groups, const float* x, const float* wt, float* y, cudaStream_t s = 0);
/// KernelBench 77: nn.ConvTranspose3d(cin, cout, (k, k, k), stride, pad, dilation=dil, bias=False)(x):
/// x n x cin x d x h x w, y n x cout x out_len(d, k, stride, pad, dil) x (same for h) x (same for w).
void kb_conv_transposed_3d_square_input_square_kernel_padded_dilated_strided(int n, int cin, int cout, int d, int h,
                                                                              int w, int k, int stride, int pad,
                                                                              int dil, const float* x,
                                                                              const float* wt, float* y,
                                                                              cudaStream_t s = 0);
/// KernelBench 78: nn.ConvTranspose2d(cin, cout, (kh, kw), (sh, sw), (ph, pw), bias=False)(x):
/// x n x cin x h x w, y n x cout x out_len(h, kh, sh, ph) x out_len(w, kw, sw, pw).
void kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded(int n, int cin, int cout, int h, int w, int kh,
                                                                     int kw, int sh, int sw, int ph, int pw,
                                                                     const float* x, const float* wt, float* y,
                                                                     cudaStream_t s = 0);
/// KernelBench 79: nn.ConvTranspose1d(cin, cout, k, stride, pad, dilation=dil, bias=False)(x):
/// x n x cin x len, y n x cout x out_len(len, k, stride, pad, dil).
/// Scatters: one thread per input element, atomicAdd into y (cleared first).
void kb_conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated(int n, int cin, int cout, int len,
                                                                                  int k, int stride, int pad, int dil,
                                                                                  const float* x, const float* wt,
                                                                                  float* y, cudaStream_t s = 0);
/// KernelBench 81: nn.ConvTranspose2d(cin, cout, k, stride, pad, dilation=dil, bias=False)(x):
/// x n x cin x h x w, y n x cout x out_len(h, k, stride, pad, dil) x out_len(w, k, stride, pad, dil).
/// Scatters: one thread per input pixel, atomicAdd into y (cleared first).
void kb_conv_transposed_2d_asymmetric_input_square_kernel_dilated_padded_strided(int n, int cin, int cout, int h,
                                                                                  int w, int k, int stride, int pad,
                                                                                  int dil, const float* x,
                                                                                  const float* wt, float* y,
                                                                                  cudaStream_t s = 0);

}  // namespace bench::kb

namespace bench::kb::conv_transposed {

// Sizes: KernelBench's own where every buffer together stays under 1 GiB and
// the naive kernel under ~100 ms on an H200; otherwise the batch is cut
// (channels, kernel sizes, strides, padding, output padding, dilation and
// groups are always KernelBench's).

// 57: N 8, Cin 64, Cout 64, k 3, 1024 x 1024.
inline constexpr int k57N = 4, k57Cin = 64, k57Cout = 64, k57K = 3, k57Size = 512;
// 58: N 16, Cin 32, Cout 16, k (3, 5, 7), 16 x 32 x 64.
inline constexpr int k58N = 16, k58Cin = 32, k58Cout = 16, k58Kd = 3, k58Kh = 5, k58Kw = 7, k58D = 16, k58H = 32,
                     k58W = 64;
// 61: N 8, Cin 48, Cout 48, k 3, 64 x 64 x 64.
inline constexpr int k61N = 8, k61Cin = 48, k61Cout = 48, k61K = 3, k61Size = 64;
// 64: N 64, Cin 128, Cout 128, k 3, length 65536.
inline constexpr int k64N = 8, k64Cin = 128, k64Cout = 128, k64K = 3, k64Len = 65536;
// 65: N 8, Cin 64, Cout 64, k (3, 7), 512 x 512.
inline constexpr int k65N = 2, k65Cin = 64, k65Cout = 64, k65Kh = 3, k65Kw = 7, k65Size = 512;
// 68: N 16, Cin 32, Cout 64, k (3, 5, 5), 64 x 64 x 64.
inline constexpr int k68N = 2, k68Cin = 32, k68Cout = 64, k68Kd = 3, k68Kh = 5, k68Kw = 5, k68Size = 64;
// 69: N 64, Cin 64, Cout 128, k (3, 5), 128 x 256.
inline constexpr int k69N = 16, k69Cin = 64, k69Cout = 128, k69Kh = 3, k69Kw = 5, k69H = 128, k69W = 256;
// 70: N 8, Cin 48, Cout 24, k 3, 96 x 96 x 96.
inline constexpr int k70N = 2, k70Cin = 48, k70Cout = 24, k70K = 3, k70D = 96, k70H = 96, k70W = 96;
// 71: N 8, Cin 32, Cout 32, k 3, 512 x 1024.
inline constexpr int k71N = 4, k71Cin = 32, k71Cout = 32, k71K = 3, k71H = 512, k71W = 1024;
// 72: N 8, Cin 32, Cout 32, k (3, 5, 7), 12 x 24 x 48, stride 2, padding (1, 2, 3), output padding 1, groups 4.
inline constexpr int k72N = 8, k72Cin = 32, k72Cout = 32, k72Groups = 4;
inline constexpr Int3 k72In{12, 24, 48}, k72K{3, 5, 7}, k72Stride{2, 2, 2}, k72Pad{1, 2, 3}, k72OutPad{1, 1, 1};
// 73: N 4, Cin 32, Cout 32, k 3, 32 x 64 x 128, stride 2, padding 1 (groups 1 as KernelBench runs it).
inline constexpr int k73N = 2, k73Cin = 32, k73Cout = 32, k73K = 3, k73D = 32, k73H = 64, k73W = 128, k73Stride = 2,
                     k73Pad = 1;
// 74: N 32, Cin 32, Cout 64, k 5, length 131072, stride 1, padding 0, dilation 3.
inline constexpr int k74N = 16, k74Cin = 32, k74Cout = 64, k74K = 5, k74Len = 131072, k74Stride = 1, k74Pad = 0,
                     k74Dil = 3;
// 75: N 16, Cin 32, Cout 64, k (3, 5), 128 x 256, stride (2, 3), padding (1, 2), dilation (2, 1), groups 4.
inline constexpr int k75N = 16, k75Cin = 32, k75Cout = 64, k75Kh = 3, k75Kw = 5, k75H = 128, k75W = 256, k75Sh = 2,
                     k75Sw = 3, k75Ph = 1, k75Pw = 2, k75Dh = 2, k75Dw = 1, k75Groups = 4;
// 77: N 16, Cin 32, Cout 64, k 3, 16 x 32 x 32, stride 2, padding 1, dilation 2.
inline constexpr int k77N = 16, k77Cin = 32, k77Cout = 64, k77K = 3, k77D = 16, k77H = 32, k77W = 32, k77Stride = 2,
                     k77Pad = 1, k77Dil = 2;
// 78: N 8, Cin 32, Cout 32, k (3, 7), 512 x 1024, stride (1, 1), padding (1, 3).
inline constexpr int k78N = 4, k78Cin = 32, k78Cout = 32, k78Kh = 3, k78Kw = 7, k78H = 512, k78W = 1024, k78Sh = 1,
                     k78Sw = 1, k78Ph = 1, k78Pw = 3;
// 79: N 16, Cin 32, Cout 64, k 3, length 131072, stride 2, padding 1, dilation 2.
inline constexpr int k79N = 4, k79Cin = 32, k79Cout = 64, k79K = 3, k79Len = 131072, k79Stride = 2, k79Pad = 1,
                     k79Dil = 2;
// 81: N 16, Cin 32, Cout 64, k 3, 64 x 128, stride 5, padding 1, dilation 2.
inline constexpr int k81N = 16, k81Cin = 32, k81Cout = 64, k81K = 3, k81H = 64, k81W = 128, k81Stride = 5,
                     k81Pad = 1, k81Dil = 2;

namespace detail {
using bench::detail::d;
using bench::detail::F;

/// Bytes and flops of one problem: x, w and y each moved once; a multiply-add
/// (2 flops) per input channel, output channel of its group and landing pair.
struct Work {
  double bytes, flops;
};
inline constexpr Work work(long long n, long long cin, long long cout, long long groups, long long in_elems,
                           long long out_elems, long long taps, long long pairs) {
  return {F * (d(n) * cin * in_elems + d(cin) * (cout / groups) * taps + d(n) * cout * out_elems),
          2 * d(n) * cin * (cout / groups) * d(pairs)};
}

inline constexpr long long k57Out = out_len(k57Size, k57K);
inline constexpr Work k57 = work(k57N, k57Cin, k57Cout, 1, 1LL * k57Size * k57Size, k57Out * k57Out, k57K * k57K,
                                 landing_pairs(k57Size, k57K) * landing_pairs(k57Size, k57K));
inline constexpr Work k58 =
    work(k58N, k58Cin, k58Cout, 1, k58D * k58H * k58W,
         out_len(k58D, k58Kd) * out_len(k58H, k58Kh) * out_len(k58W, k58Kw), k58Kd * k58Kh * k58Kw,
         landing_pairs(k58D, k58Kd) * landing_pairs(k58H, k58Kh) * landing_pairs(k58W, k58Kw));
inline constexpr long long k61Out = out_len(k61Size, k61K), k61Pairs = landing_pairs(k61Size, k61K);
inline constexpr Work k61 = work(k61N, k61Cin, k61Cout, 1, 1LL * k61Size * k61Size * k61Size, k61Out * k61Out * k61Out,
                                 k61K * k61K * k61K, k61Pairs * k61Pairs * k61Pairs);
inline constexpr Work k64 =
    work(k64N, k64Cin, k64Cout, 1, k64Len, out_len(k64Len, k64K), k64K, landing_pairs(k64Len, k64K));
inline constexpr Work k65 = work(k65N, k65Cin, k65Cout, 1, 1LL * k65Size * k65Size,
                                 out_len(k65Size, k65Kh) * out_len(k65Size, k65Kw), k65Kh * k65Kw,
                                 landing_pairs(k65Size, k65Kh) * landing_pairs(k65Size, k65Kw));
inline constexpr Work k68 =
    work(k68N, k68Cin, k68Cout, 1, 1LL * k68Size * k68Size * k68Size,
         out_len(k68Size, k68Kd) * out_len(k68Size, k68Kh) * out_len(k68Size, k68Kw), k68Kd * k68Kh * k68Kw,
         landing_pairs(k68Size, k68Kd) * landing_pairs(k68Size, k68Kh) * landing_pairs(k68Size, k68Kw));
inline constexpr Work k69 = work(k69N, k69Cin, k69Cout, 1, 1LL * k69H * k69W,
                                 out_len(k69H, k69Kh) * out_len(k69W, k69Kw), k69Kh * k69Kw,
                                 landing_pairs(k69H, k69Kh) * landing_pairs(k69W, k69Kw));
inline constexpr Work k70 =
    work(k70N, k70Cin, k70Cout, 1, 1LL * k70D * k70H * k70W,
         out_len(k70D, k70K) * out_len(k70H, k70K) * out_len(k70W, k70K), k70K * k70K * k70K,
         landing_pairs(k70D, k70K) * landing_pairs(k70H, k70K) * landing_pairs(k70W, k70K));
inline constexpr Work k71 = work(k71N, k71Cin, k71Cout, 1, 1LL * k71H * k71W, out_len(k71H, k71K) * out_len(k71W, k71K),
                                 k71K * k71K, landing_pairs(k71H, k71K) * landing_pairs(k71W, k71K));
inline constexpr Work k72 = work(
    k72N, k72Cin, k72Cout, k72Groups, 1LL * k72In.d * k72In.h * k72In.w,
    out_len(k72In.d, k72K.d, k72Stride.d, k72Pad.d, 1, k72OutPad.d) *
        out_len(k72In.h, k72K.h, k72Stride.h, k72Pad.h, 1, k72OutPad.h) *
        out_len(k72In.w, k72K.w, k72Stride.w, k72Pad.w, 1, k72OutPad.w),
    k72K.d * k72K.h * k72K.w,
    landing_pairs(k72In.d, k72K.d, k72Stride.d, k72Pad.d, 1, k72OutPad.d) *
        landing_pairs(k72In.h, k72K.h, k72Stride.h, k72Pad.h, 1, k72OutPad.h) *
        landing_pairs(k72In.w, k72K.w, k72Stride.w, k72Pad.w, 1, k72OutPad.w));
inline constexpr Work k73 = work(
    k73N, k73Cin, k73Cout, 1, 1LL * k73D * k73H * k73W,
    out_len(k73D, k73K, k73Stride, k73Pad) * out_len(k73H, k73K, k73Stride, k73Pad) *
        out_len(k73W, k73K, k73Stride, k73Pad),
    k73K * k73K * k73K,
    landing_pairs(k73D, k73K, k73Stride, k73Pad) * landing_pairs(k73H, k73K, k73Stride, k73Pad) *
        landing_pairs(k73W, k73K, k73Stride, k73Pad));
inline constexpr Work k74 = work(k74N, k74Cin, k74Cout, 1, k74Len, out_len(k74Len, k74K, k74Stride, k74Pad, k74Dil),
                                 k74K, landing_pairs(k74Len, k74K, k74Stride, k74Pad, k74Dil));
inline constexpr Work k75 =
    work(k75N, k75Cin, k75Cout, k75Groups, 1LL * k75H * k75W,
         out_len(k75H, k75Kh, k75Sh, k75Ph, k75Dh) * out_len(k75W, k75Kw, k75Sw, k75Pw, k75Dw), k75Kh * k75Kw,
         landing_pairs(k75H, k75Kh, k75Sh, k75Ph, k75Dh) * landing_pairs(k75W, k75Kw, k75Sw, k75Pw, k75Dw));
inline constexpr Work k77 = work(
    k77N, k77Cin, k77Cout, 1, 1LL * k77D * k77H * k77W,
    out_len(k77D, k77K, k77Stride, k77Pad, k77Dil) * out_len(k77H, k77K, k77Stride, k77Pad, k77Dil) *
        out_len(k77W, k77K, k77Stride, k77Pad, k77Dil),
    k77K * k77K * k77K,
    landing_pairs(k77D, k77K, k77Stride, k77Pad, k77Dil) * landing_pairs(k77H, k77K, k77Stride, k77Pad, k77Dil) *
        landing_pairs(k77W, k77K, k77Stride, k77Pad, k77Dil));
inline constexpr Work k78 =
    work(k78N, k78Cin, k78Cout, 1, 1LL * k78H * k78W,
         out_len(k78H, k78Kh, k78Sh, k78Ph) * out_len(k78W, k78Kw, k78Sw, k78Pw), k78Kh * k78Kw,
         landing_pairs(k78H, k78Kh, k78Sh, k78Ph) * landing_pairs(k78W, k78Kw, k78Sw, k78Pw));
inline constexpr Work k79 = work(k79N, k79Cin, k79Cout, 1, k79Len, out_len(k79Len, k79K, k79Stride, k79Pad, k79Dil),
                                 k79K, landing_pairs(k79Len, k79K, k79Stride, k79Pad, k79Dil));
inline constexpr Work k81 =
    work(k81N, k81Cin, k81Cout, 1, 1LL * k81H * k81W,
         out_len(k81H, k81K, k81Stride, k81Pad, k81Dil) * out_len(k81W, k81K, k81Stride, k81Pad, k81Dil),
         k81K * k81K, landing_pairs(k81H, k81K, k81Stride, k81Pad, k81Dil) *
                          landing_pairs(k81W, k81K, k81Stride, k81Pad, k81Dil));
// 57 shrinks the batch and each side: its output here over KernelBench's (8 x 64 x 1026 x 1026).
inline constexpr double k57Scale = d(k57N) * k57Cout * k57Out * k57Out / (8.0 * 64 * 1026 * 1026);
}  // namespace detail

/// The family's rows. dims: n, cin, cout, then the spatial input sizes (the
/// torch builders take kernel sizes, strides, padding, dilation and groups
/// from KernelBench's get_init_inputs, as the tests' launches here do).
/// scale: the batch's share of KernelBench's (57 also halves each side).
inline constexpr Problem kProblems[] = {
    {"conv_transposed_2d_square_input_square_kernel",
     "src/kb/conv_transposed/ct2d_square.cu:bench::kb::conv_transposed_2d_square_kernel",
     "N4 Cin64 Cout64 k3 512x512", "57", detail::k57Scale, detail::k57.bytes, detail::k57.flops,
     {k57N, k57Cin, k57Cout, k57Size}},
    {"conv_transposed_3d_asymmetric_input_asymmetric_kernel",
     "src/kb/conv_transposed/ct3d_asym.cu:bench::kb::conv_transposed_3d_asymmetric_kernel",
     "N16 Cin32 Cout16 k3x5x7 16x32x64", "58", 1, detail::k58.bytes, detail::k58.flops,
     {k58N, k58Cin, k58Cout, k58D, k58H, k58W}},
    {"conv_transposed_3d_square_input_square_kernel",
     "src/kb/conv_transposed/ct3d_square.cu:bench::kb::conv_transposed_3d_square_kernel",
     "N8 Cin48 Cout48 k3 64x64x64", "61", 1, detail::k61.bytes, detail::k61.flops, {k61N, k61Cin, k61Cout, k61Size}},
    {"conv_transposed_1d",
     "src/kb/conv_transposed/ct1d.cu:bench::kb::conv_transposed_1d_kernel",
     "N8 Cin128 Cout128 k3 L65536", "64", k64N / 64.0, detail::k64.bytes, detail::k64.flops,
     {k64N, k64Cin, k64Cout, k64Len}},
    {"conv_transposed_2d_square_input_asymmetric_kernel",
     "src/kb/conv_transposed/ct2d_square_input.cu:bench::kb::conv_transposed_2d_square_input_kernel",
     "N2 Cin64 Cout64 k3x7 512x512", "65", k65N / 8.0, detail::k65.bytes, detail::k65.flops,
     {k65N, k65Cin, k65Cout, k65Size}},
    {"conv_transposed_3d_square_input_asymmetric_kernel",
     "src/kb/conv_transposed/ct3d_square_input.cu:bench::kb::conv_transposed_3d_square_input_kernel",
     "N2 Cin32 Cout64 k3x5x5 64x64x64", "68", k68N / 16.0, detail::k68.bytes, detail::k68.flops,
     {k68N, k68Cin, k68Cout, k68Size}},
    {"conv_transposed_2d_asymmetric_input_asymmetric_kernel",
     "src/kb/conv_transposed/ct2d_asym.cu:bench::kb::conv_transposed_2d_asymmetric_kernel",
     "N16 Cin64 Cout128 k3x5 128x256", "69", k69N / 64.0, detail::k69.bytes, detail::k69.flops,
     {k69N, k69Cin, k69Cout, k69H, k69W}},
    {"conv_transposed_3d_asymmetric_input_square_kernel",
     "src/kb/conv_transposed/ct3d_all_channels.cu:bench::kb::conv_transposed_3d_all_channels_kernel",
     "N2 Cin48 Cout24 k3 96x96x96", "70", k70N / 8.0, detail::k70.bytes, detail::k70.flops,
     {k70N, k70Cin, k70Cout, k70D, k70H, k70W}},
    {"conv_transposed_2d_asymmetric_input_square_kernel",
     "src/kb/conv_transposed/ct2d_rect_input.cu:bench::kb::conv_transposed_2d_rect_input_kernel",
     "N4 Cin32 Cout32 k3 512x1024", "71", k71N / 8.0, detail::k71.bytes, detail::k71.flops,
     {k71N, k71Cin, k71Cout, k71H, k71W}},
    {"conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped",
     "src/kb/conv_transposed/ct3d_grouped.cu:bench::kb::conv_transposed_3d_grouped_scatter_kernel",
     "N8 Cin32 Cout32 k3x5x7 12x24x48 s2 p1,2,3 op1 g4", "72", 1, detail::k72.bytes, detail::k72.flops,
     {k72N, k72Cin, k72Cout, k72In.d, k72In.h, k72In.w}},
    {"conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped",
     "src/kb/conv_transposed/ct3d_strided.cu:bench::kb::conv_transposed_3d_strided_kernel",
     "N2 Cin32 Cout32 k3 32x64x128 s2 p1 g1 (as run)", "73", k73N / 4.0, detail::k73.bytes, detail::k73.flops,
     {k73N, k73Cin, k73Cout, k73D, k73H, k73W}},
    {"conv_transposed_1d_dilated",
     "src/kb/conv_transposed/ct1d_dilated.cu:bench::kb::conv_transposed_1d_dilated_kernel",
     "N16 Cin32 Cout64 k5 L131072 d3", "74", k74N / 32.0, detail::k74.bytes, detail::k74.flops,
     {k74N, k74Cin, k74Cout, k74Len}},
    {"conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated",
     "src/kb/conv_transposed/ct2d_grouped.cu:bench::kb::conv_transposed_2d_grouped_kernel",
     "N16 Cin32 Cout64 k3x5 128x256 s2,3 p1,2 d2,1 g4", "75", 1, detail::k75.bytes, detail::k75.flops,
     {k75N, k75Cin, k75Cout, k75H, k75W}},
    {"conv_transposed_3d_square_input_square_kernel_padded_dilated_strided",
     "src/kb/conv_transposed/ct3d_strided_dilated.cu:bench::kb::conv_transposed_3d_dilated_kernel",
     "N16 Cin32 Cout64 k3 16x32x32 s2 p1 d2", "77", 1, detail::k77.bytes, detail::k77.flops,
     {k77N, k77Cin, k77Cout, k77D, k77H, k77W}},
    {"conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded",
     "src/kb/conv_transposed/ct2d_padded.cu:bench::kb::conv_transposed_2d_padded_kernel",
     "N4 Cin32 Cout32 k3x7 512x1024 p1,3", "78", k78N / 8.0, detail::k78.bytes, detail::k78.flops,
     {k78N, k78Cin, k78Cout, k78H, k78W}},
    {"conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated",
     "src/kb/conv_transposed/ct1d_strided_dilated.cu:bench::kb::conv_transposed_1d_scatter_kernel",
     "N4 Cin32 Cout64 k3 L131072 s2 p1 d2", "79", k79N / 16.0, detail::k79.bytes, detail::k79.flops,
     {k79N, k79Cin, k79Cout, k79Len}},
    {"conv_transposed_2d_asymmetric_input_square_kernel_dilated_padded_strided",
     "src/kb/conv_transposed/ct2d_strided_dilated.cu:bench::kb::conv_transposed_2d_scatter_kernel",
     "N16 Cin32 Cout64 k3 64x128 s5 p1 d2", "81", 1, detail::k81.bytes, detail::k81.flops,
     {k81N, k81Cin, k81Cout, k81H, k81W}},
};

}  // namespace bench::kb::conv_transposed

#endif  // BENCH_KB_CONV_TRANSPOSED_H
