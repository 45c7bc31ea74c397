// KernelBench level 1, convolutions (standard 1-D/2-D/3-D, depthwise,
// depthwise-separable, pointwise): the launchers of src/kb/conv/ and the
// family's problem rows.
//
// Layouts are torch's: x is n x cin x (spatial...), a weight is
// cout x (cin / groups) x (kernel...), y is n x cout x (output spatial...),
// all contiguous. An output extent is (in + 2 pad - dilation (k - 1) - 1) /
// stride + 1. Every launcher runs one kernel asynchronously on `s`, writes
// every element of y (nothing accumulates into it) and throws
// std::runtime_error when the launch fails (std::invalid_argument for sizes
// it cannot launch). All pointers are device pointers.
#ifndef BENCH_KB_CONV_H
#define BENCH_KB_CONV_H

#include <cuda_runtime.h>

#include "bench/problem.h"

namespace bench::kb {

/// y = nn.Conv2d(cin, cout, k, stride=stride, padding=padding)(x), with bias (KernelBench 50, AlexNet's conv1):
/// x: n x cin x h x w, wt: cout x cin x k x k, bias: cout.
void kb_conv_standard_2d_square_input_square_kernel(int n, int cin, int h, int w, int cout, int k, int stride,
                                                    int padding, const float* x, const float* wt, const float* bias,
                                                    float* y, cudaStream_t s = 0);
/// y = nn.Conv3d(cin, cout, (k, k, k), bias=False)(x) (KernelBench 54): x: n x cin x d x h x w,
/// wt: cout x cin x k x k x k; k is 3 or 5.
void kb_conv_standard_3d_square_input_square_kernel(int n, int cin, int d, int h, int w, int cout, int k,
                                                    const float* x, const float* wt, float* y, cudaStream_t s = 0);
/// y = nn.Conv2d(cin, cout, (k, k), bias=False)(x) (KernelBench 55): x: n x cin x h x w, wt: cout x cin x k x k.
void kb_conv_standard_2d_asymmetric_input_square_kernel(int n, int cin, int h, int w, int cout, int k,
                                                        const float* x, const float* wt, float* y,
                                                        cudaStream_t s = 0);
/// y = nn.Conv2d(cin, cout, (kh, kw), bias=False)(x) (KernelBench 56): x: n x cin x h x w, wt: cout x cin x kh x kw.
void kb_conv_standard_2d_asymmetric_input_asymmetric_kernel(int n, int cin, int h, int w, int cout, int kh, int kw,
                                                            const float* x, const float* wt, float* y,
                                                            cudaStream_t s = 0);
/// y = nn.Conv3d(cin, cout, (k, k, 1), bias=False)(x) (KernelBench 59): x: n x cin x d0 x d1 x d2,
/// wt: cout x cin x k x k x 1.
void kb_conv_standard_3d_asymmetric_input_square_kernel(int n, int cin, int d0, int d1, int d2, int cout, int k,
                                                        const float* x, const float* wt, float* y,
                                                        cudaStream_t s = 0);
/// y = nn.Conv3d(cin, cout, (k0, k1, k2), bias=False)(x) (KernelBench 60): x: n x cin x d0 x d1 x d2,
/// wt: cout x cin x k0 x k1 x k2.
void kb_conv_standard_3d_square_input_asymmetric_kernel(int n, int cin, int d0, int d1, int d2, int cout, int k0,
                                                        int k1, int k2, const float* x, const float* wt, float* y,
                                                        cudaStream_t s = 0);
/// y = nn.Conv2d(cin, cout, (kh, kw), bias=False)(x) (KernelBench 62): x: n x cin x h x w, wt: cout x cin x kh x kw.
void kb_conv_standard_2d_square_input_asymmetric_kernel(int n, int cin, int h, int w, int cout, int kh, int kw,
                                                        const float* x, const float* wt, float* y,
                                                        cudaStream_t s = 0);
/// y = nn.Conv3d(cin, cout, (kd, kh, kw), bias=False)(x) (KernelBench 66): x: n x cin x d x h x w,
/// wt: cout x cin x kd x kh x kw.
void kb_conv_standard_3d_asymmetric_input_asymmetric_kernel(int n, int cin, int d, int h, int w, int cout, int kd,
                                                            int kh, int kw, const float* x, const float* wt, float* y,
                                                            cudaStream_t s = 0);
/// y = nn.Conv1d(cin, cout, k, stride=stride, dilation=dilation, bias=False)(x) (KernelBench 76):
/// x: n x cin x len, wt: cout x cin x k.
void kb_conv_standard_1d_dilated_strided(int n, int cin, int len, int cout, int k, int stride, int dilation,
                                         const float* x, const float* wt, float* y, cudaStream_t s = 0);
/// y = nn.Conv2d(cin, cout, (kh, kw), stride=stride, padding=(pad_h, pad_w), dilation=(dil_h, dil_w),
/// bias=False)(x) (KernelBench 80): x: n x cin x h x w, wt: cout x cin x kh x kw.
void kb_conv_standard_2d_square_input_asymmetric_kernel_dilated_padded(int n, int cin, int h, int w, int cout,
                                                                       int kh, int kw, int stride, int pad_h,
                                                                       int pad_w, int dil_h, int dil_w,
                                                                       const float* x, const float* wt, float* y,
                                                                       cudaStream_t s = 0);
/// y = nn.Conv2d(c, c, k, stride=stride, padding=padding, groups=c, bias=False)(x) (KernelBench 82):
/// x: n x c x h x w, wt: c x 1 x k x k.
void kb_conv_depthwise_2d_square_input_square_kernel(int n, int c, int h, int w, int k, int stride, int padding,
                                                     const float* x, const float* wt, float* y,
                                                     cudaStream_t s = 0);
/// y = nn.Conv2d(c, c, (k, 1), stride=stride, padding=padding, dilation=dilation, groups=c, bias=False)(x)
/// (KernelBench 83): x: n x c x h x w, wt: c x 1 x k x 1.
void kb_conv_depthwise_2d_square_input_asymmetric_kernel(int n, int c, int h, int w, int k, int stride, int padding,
                                                         int dilation, const float* x, const float* wt, float* y,
                                                         cudaStream_t s = 0);
/// y = nn.Conv2d(cin, cout, k, stride=stride, padding=padding, groups=cin, bias=False)(x) (KernelBench 84),
/// cout a multiple of cin (output channel o reads input channel o / (cout / cin)):
/// x: n x cin x h x w, wt: cout x 1 x k x k.
void kb_conv_depthwise_2d_asymmetric_input_square_kernel(int n, int cin, int h, int w, int cout, int k, int stride,
                                                         int padding, const float* x, const float* wt, float* y,
                                                         cudaStream_t s = 0);
/// y = nn.Conv2d(c, c, (kh, kw), stride=(stride_h, stride_w), padding=(pad_h, pad_w),
/// dilation=(dil_h, dil_w), groups=c, bias=False)(x) (KernelBench 85): x: n x c x h x w, wt: c x 1 x kh x kw.
void kb_conv_depthwise_2d_asymmetric_input_asymmetric_kernel(int n, int c, int h, int w, int kh, int kw,
                                                             int stride_h, int stride_w, int pad_h, int pad_w,
                                                             int dil_h, int dil_w, const float* x, const float* wt,
                                                             float* y, cudaStream_t s = 0);
/// y = pointwise(depthwise(x)) (KernelBench 86): depthwise = nn.Conv2d(cin, cin, k, stride, padding, dilation,
/// groups=cin, bias=False) with weights dw: cin x 1 x k x k, pointwise = nn.Conv2d(cin, cout, 1, bias=False) with
/// weights pw: cout x cin x 1 x 1; x: n x cin x h x w.
void kb_conv_depthwise_separable_2d(int n, int cin, int h, int w, int cout, int k, int stride, int padding,
                                    int dilation, const float* x, const float* dw, const float* pw, float* y,
                                    cudaStream_t s = 0);
/// y = nn.Conv2d(cin, cout, 1, bias=False)(x) (KernelBench 87): x: n x cin x h x w, wt: cout x cin x 1 x 1.
void kb_conv_pointwise_2d(int n, int cin, int h, int w, int cout, const float* x, const float* wt, float* y,
                          cudaStream_t s = 0);

}  // namespace bench::kb

namespace bench::kb::conv {

/// An output extent of a convolution.
inline constexpr int out_extent(int in, int k, int stride = 1, int pad = 0, int dilation = 1) {
  return (in + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
}

// KernelBench's own strides, paddings, dilations, kernels and channels; batch
// and spatial sizes shrunk where KernelBench's buffers pass 1 GiB or the naive
// kernel would run well over 100 ms on an H200.

// 50 (AlexNet conv1): KernelBench's shape, N 256, 3 x 224 x 224, Cout 96, k 11, stride 4, padding 2, bias.
inline constexpr int k50N = 256, k50Cin = 3, k50H = 224, k50W = 224, k50Cout = 96, k50K = 11, k50Stride = 4,
                     k50Pad = 2;
// 54: KernelBench's shape, N 16, Cin 3, 64 x 64 x 64, Cout 64, k 3.
inline constexpr int k54N = 16, k54Cin = 3, k54D = 64, k54H = 64, k54W = 64, k54Cout = 64, k54K = 3;
// 55: KernelBench N 8, Cin 64, 512 x 1024, Cout 128, k 3; here N 1.
inline constexpr int k55N = 1, k55Cin = 64, k55H = 512, k55W = 1024, k55Cout = 128, k55K = 3, k55KbN = 8;
// 56: KernelBench N 8, Cin 64, 512 x 256, Cout 128, k (5, 7); here N 1.
inline constexpr int k56N = 1, k56Cin = 64, k56H = 512, k56W = 256, k56Cout = 128, k56Kh = 5, k56Kw = 7, k56KbN = 8;
// 59: KernelBench N 16, Cin 3, 256 x 256 x 10, Cout 64, k (3, 3, 1); here N 4.
inline constexpr int k59N = 4, k59Cin = 3, k59D0 = 256, k59D1 = 256, k59D2 = 10, k59Cout = 64, k59K = 3, k59KbN = 16;
// 60: KernelBench N 16, Cin 3, 64 x 64 x 64, Cout 64, k (3, 5, 7); here N 8.
inline constexpr int k60N = 8, k60Cin = 3, k60D0 = 64, k60D1 = 64, k60D2 = 64, k60Cout = 64, k60K0 = 3, k60K1 = 5,
                     k60K2 = 7, k60KbN = 16;
// 62: KernelBench N 8, Cin 32, 512 x 512, Cout 64, k (5, 9); here N 1.
inline constexpr int k62N = 1, k62Cin = 32, k62H = 512, k62W = 512, k62Cout = 64, k62Kh = 5, k62Kw = 9, k62KbN = 8;
// 66: KernelBench's shape, N 8, Cin 3, 16 x 128 x 128, Cout 64, k (3, 5, 7).
inline constexpr int k66N = 8, k66Cin = 3, k66D = 16, k66H = 128, k66W = 128, k66Cout = 64, k66Kd = 3, k66Kh = 5,
                     k66Kw = 7;
// 76: KernelBench N 64, Cin 64, length 524280, Cout 128, k 3, stride 3, dilation 4; here N 2.
inline constexpr int k76N = 2, k76Cin = 64, k76L = 524280, k76Cout = 128, k76K = 3, k76Stride = 3, k76Dil = 4,
                     k76KbN = 64;
// 80: KernelBench N 8, Cin 32, 512 x 512, Cout 64, k (5, 9), stride 1, padding (2, 4), dilation (2, 3); here N 1.
inline constexpr int k80N = 1, k80Cin = 32, k80H = 512, k80W = 512, k80Cout = 64, k80Kh = 5, k80Kw = 9,
                     k80Stride = 1, k80PadH = 2, k80PadW = 4, k80DilH = 2, k80DilW = 3, k80KbN = 8;
// 82: KernelBench N 16, C 64, 512 x 512, k 3, stride 1, padding 0 (depthwise); here N 4.
inline constexpr int k82N = 4, k82C = 64, k82H = 512, k82W = 512, k82K = 3, k82Stride = 1, k82Pad = 0, k82KbN = 16;
// 83: KernelBench's shape, N 64, C 8, 512 x 512, k (3, 1), stride 1, padding 0, dilation 1 (depthwise).
inline constexpr int k83N = 64, k83C = 8, k83H = 512, k83W = 512, k83K = 3, k83Stride = 1, k83Pad = 0, k83Dil = 1;
// 84: KernelBench N 64, Cin 128, Cout 128, 256 x 512, k 3, stride 1, padding 0 (depthwise); here N 4.
inline constexpr int k84N = 4, k84Cin = 128, k84Cout = 128, k84H = 256, k84W = 512, k84K = 3, k84Stride = 1,
                     k84Pad = 0, k84KbN = 64;
// 85: KernelBench's shape, N 32, C 128, 128 x 256, k (3, 7), stride 1, padding 0, dilation 1 (depthwise).
inline constexpr int k85N = 32, k85C = 128, k85H = 128, k85W = 256, k85Kh = 3, k85Kw = 7, k85StrideH = 1,
                     k85StrideW = 1, k85PadH = 0, k85PadW = 0, k85DilH = 1, k85DilW = 1;
// 86: KernelBench N 16, Cin 64, Cout 128, 512 x 512, k 3, stride 1, padding 1, dilation 1; here N 1.
inline constexpr int k86N = 1, k86Cin = 64, k86Cout = 128, k86H = 512, k86W = 512, k86K = 3, k86Stride = 1,
                     k86Pad = 1, k86Dil = 1, k86KbN = 16;
// 87: KernelBench N 16, Cin 64, Cout 128, 1024 x 1024; here N 1.
inline constexpr int k87N = 1, k87Cin = 64, k87Cout = 128, k87H = 1024, k87W = 1024, k87KbN = 16;

namespace detail {
using bench::detail::d;
using bench::detail::F;

// Output elements of each problem at the shape used here.
inline constexpr double k50Out =
    d(k50N) * k50Cout * out_extent(k50H, k50K, k50Stride, k50Pad) * out_extent(k50W, k50K, k50Stride, k50Pad);
inline constexpr double k54Out = d(k54N) * k54Cout * (k54D - k54K + 1) * (k54H - k54K + 1) * (k54W - k54K + 1);
inline constexpr double k55Out = d(k55N) * k55Cout * (k55H - k55K + 1) * (k55W - k55K + 1);
inline constexpr double k56Out = d(k56N) * k56Cout * (k56H - k56Kh + 1) * (k56W - k56Kw + 1);
inline constexpr double k59Out = d(k59N) * k59Cout * (k59D0 - k59K + 1) * (k59D1 - k59K + 1) * k59D2;
inline constexpr double k60Out =
    d(k60N) * k60Cout * (k60D0 - k60K0 + 1) * (k60D1 - k60K1 + 1) * (k60D2 - k60K2 + 1);
inline constexpr double k62Out = d(k62N) * k62Cout * (k62H - k62Kh + 1) * (k62W - k62Kw + 1);
inline constexpr double k66Out = d(k66N) * k66Cout * (k66D - k66Kd + 1) * (k66H - k66Kh + 1) * (k66W - k66Kw + 1);
inline constexpr double k76Out = d(k76N) * k76Cout * out_extent(k76L, k76K, k76Stride, 0, k76Dil);
inline constexpr double k80Out = d(k80N) * k80Cout * out_extent(k80H, k80Kh, k80Stride, k80PadH, k80DilH) *
                                 out_extent(k80W, k80Kw, k80Stride, k80PadW, k80DilW);
inline constexpr double k82Out =
    d(k82N) * k82C * out_extent(k82H, k82K, k82Stride, k82Pad) * out_extent(k82W, k82K, k82Stride, k82Pad);
inline constexpr double k83Out = d(k83N) * k83C * out_extent(k83H, k83K, k83Stride, k83Pad, k83Dil) *
                                 out_extent(k83W, 1, k83Stride, k83Pad, k83Dil);
inline constexpr double k84Out =
    d(k84N) * k84Cout * out_extent(k84H, k84K, k84Stride, k84Pad) * out_extent(k84W, k84K, k84Stride, k84Pad);
inline constexpr double k85Out = d(k85N) * k85C * out_extent(k85H, k85Kh, k85StrideH, k85PadH, k85DilH) *
                                 out_extent(k85W, k85Kw, k85StrideW, k85PadW, k85DilW);
inline constexpr double k86Pixels =
    d(k86N) * out_extent(k86H, k86K, k86Stride, k86Pad, k86Dil) * out_extent(k86W, k86K, k86Stride, k86Pad, k86Dil);
inline constexpr double k87Out = d(k87N) * k87Cout * k87H * k87W;

// Least DRAM traffic: input, weights (and bias) and output once each, in bytes.
inline constexpr double conv_bytes(double in, double weights, double out) { return F * (in + weights + out); }
}  // namespace detail

/// The conv family's rows. flops: 2 per multiply-add of the convolution as
/// torch defines it (taps over the zero padding included), 1 per bias add;
/// 86 counts its depthwise and pointwise stages once each.
inline constexpr Problem kProblems[] = {
    {"conv_standard_2d_square_input_square_kernel",
     "src/kb/conv/conv2d_alexnet.cu:bench::kb::conv2d_alexnet_kernel",
     "N256 Cin3 224x224 Cout96 k11 s4 p2 bias", "50", 1,
     detail::conv_bytes(detail::d(k50N) * k50Cin * k50H * k50W, detail::d(k50Cout) * k50Cin * k50K * k50K + k50Cout,
                        detail::k50Out),
     detail::k50Out * (2.0 * k50Cin * k50K * k50K + 1), {k50N, k50Cin, k50Cout, k50H, k50W}},
    {"conv_standard_3d_square_input_square_kernel", "src/kb/conv/conv3d_cubic.cu:bench::kb::conv3d_cubic_kernel",
     "N16 Cin3 64x64x64 Cout64 k3", "54", 1,
     detail::conv_bytes(detail::d(k54N) * k54Cin * k54D * k54H * k54W, detail::d(k54Cout) * k54Cin * k54K * k54K * k54K,
                        detail::k54Out),
     detail::k54Out * 2.0 * k54Cin * k54K * k54K * k54K, {k54N, k54Cin, k54Cout, k54D, k54H, k54W}},
    {"conv_standard_2d_asymmetric_input_square_kernel", "src/kb/conv/conv2d_wide.cu:bench::kb::conv2d_wide_kernel",
     "N1 Cin64 512x1024 Cout128 k3", "55", 1.0 / k55KbN * k55N,
     detail::conv_bytes(detail::d(k55N) * k55Cin * k55H * k55W, detail::d(k55Cout) * k55Cin * k55K * k55K,
                        detail::k55Out),
     detail::k55Out * 2.0 * k55Cin * k55K * k55K, {k55N, k55Cin, k55Cout, k55H, k55W}},
    {"conv_standard_2d_asymmetric_input_asymmetric_kernel",
     "src/kb/conv/conv2d_asym.cu:bench::kb::conv2d_asym_kernel", "N1 Cin64 512x256 Cout128 k5x7", "56",
     1.0 / k56KbN * k56N,
     detail::conv_bytes(detail::d(k56N) * k56Cin * k56H * k56W, detail::d(k56Cout) * k56Cin * k56Kh * k56Kw,
                        detail::k56Out),
     detail::k56Out * 2.0 * k56Cin * k56Kh * k56Kw, {k56N, k56Cin, k56Cout, k56H, k56W}},
    {"conv_standard_3d_asymmetric_input_square_kernel",
     "src/kb/conv/conv3d_planar.cu:bench::kb::conv3d_planar_kernel", "N4 Cin3 256x256x10 Cout64 k3x3x1", "59",
     1.0 / k59KbN * k59N,
     detail::conv_bytes(detail::d(k59N) * k59Cin * k59D0 * k59D1 * k59D2, detail::d(k59Cout) * k59Cin * k59K * k59K,
                        detail::k59Out),
     detail::k59Out * 2.0 * k59Cin * k59K * k59K, {k59N, k59Cin, k59Cout, k59D0, k59D1, k59D2}},
    {"conv_standard_3d_square_input_asymmetric_kernel", "src/kb/conv/conv3d_asym.cu:bench::kb::conv3d_asym_kernel",
     "N8 Cin3 64x64x64 Cout64 k3x5x7", "60", 1.0 / k60KbN * k60N,
     detail::conv_bytes(detail::d(k60N) * k60Cin * k60D0 * k60D1 * k60D2,
                        detail::d(k60Cout) * k60Cin * k60K0 * k60K1 * k60K2, detail::k60Out),
     detail::k60Out * 2.0 * k60Cin * k60K0 * k60K1 * k60K2, {k60N, k60Cin, k60Cout, k60D0, k60D1, k60D2}},
    {"conv_standard_2d_square_input_asymmetric_kernel", "src/kb/conv/conv2d_5x9.cu:bench::kb::conv2d_5x9_kernel",
     "N1 Cin32 512x512 Cout64 k5x9", "62", 1.0 / k62KbN * k62N,
     detail::conv_bytes(detail::d(k62N) * k62Cin * k62H * k62W, detail::d(k62Cout) * k62Cin * k62Kh * k62Kw,
                        detail::k62Out),
     detail::k62Out * 2.0 * k62Cin * k62Kh * k62Kw, {k62N, k62Cin, k62Cout, k62H, k62W}},
    {"conv_standard_3d_asymmetric_input_asymmetric_kernel",
     "src/kb/conv/conv3d_box.cu:bench::kb::conv3d_box_kernel", "N8 Cin3 16x128x128 Cout64 k3x5x7", "66", 1,
     detail::conv_bytes(detail::d(k66N) * k66Cin * k66D * k66H * k66W,
                        detail::d(k66Cout) * k66Cin * k66Kd * k66Kh * k66Kw, detail::k66Out),
     detail::k66Out * 2.0 * k66Cin * k66Kd * k66Kh * k66Kw, {k66N, k66Cin, k66Cout, k66D, k66H, k66W}},
    {"conv_standard_1d_dilated_strided", "src/kb/conv/conv1d_dilated.cu:bench::kb::conv1d_dilated_kernel",
     "N2 Cin64 L524280 Cout128 k3 s3 d4", "76", 1.0 / k76KbN * k76N,
     detail::conv_bytes(detail::d(k76N) * k76Cin * k76L, detail::d(k76Cout) * k76Cin * k76K, detail::k76Out),
     detail::k76Out * 2.0 * k76Cin * k76K, {k76N, k76Cin, k76Cout, k76L}},
    {"conv_standard_2d_square_input_asymmetric_kernel_dilated_padded",
     "src/kb/conv/conv2d_dilated.cu:bench::kb::conv2d_dilated_kernel",
     "N1 Cin32 512x512 Cout64 k5x9 p(2,4) d(2,3)", "80", 1.0 / k80KbN * k80N,
     detail::conv_bytes(detail::d(k80N) * k80Cin * k80H * k80W, detail::d(k80Cout) * k80Cin * k80Kh * k80Kw,
                        detail::k80Out),
     detail::k80Out * 2.0 * k80Cin * k80Kh * k80Kw, {k80N, k80Cin, k80Cout, k80H, k80W}},
    {"conv_depthwise_2d_square_input_square_kernel",
     "src/kb/conv/depthwise2d.cu:bench::kb::depthwise2d_kernel", "N4 C64 512x512 k3", "82", 1.0 / k82KbN * k82N,
     detail::conv_bytes(detail::d(k82N) * k82C * k82H * k82W, detail::d(k82C) * k82K * k82K, detail::k82Out),
     detail::k82Out * 2.0 * k82K * k82K, {k82N, k82C, k82H, k82W}},
    {"conv_depthwise_2d_square_input_asymmetric_kernel",
     "src/kb/conv/depthwise2d_column.cu:bench::kb::depthwise2d_column_kernel", "N64 C8 512x512 k3x1", "83", 1,
     detail::conv_bytes(detail::d(k83N) * k83C * k83H * k83W, detail::d(k83C) * k83K, detail::k83Out),
     detail::k83Out * 2.0 * k83K, {k83N, k83C, k83H, k83W}},
    {"conv_depthwise_2d_asymmetric_input_square_kernel",
     "src/kb/conv/depthwise2d_wide.cu:bench::kb::depthwise2d_wide_kernel", "N4 C128 256x512 k3", "84",
     1.0 / k84KbN * k84N,
     detail::conv_bytes(detail::d(k84N) * k84Cin * k84H * k84W, detail::d(k84Cout) * k84K * k84K, detail::k84Out),
     detail::k84Out * 2.0 * k84K * k84K, {k84N, k84Cin, k84Cout, k84H, k84W}},
    {"conv_depthwise_2d_asymmetric_input_asymmetric_kernel",
     "src/kb/conv/depthwise2d_asym.cu:bench::kb::depthwise2d_asym_kernel", "N32 C128 128x256 k3x7", "85", 1,
     detail::conv_bytes(detail::d(k85N) * k85C * k85H * k85W, detail::d(k85C) * k85Kh * k85Kw, detail::k85Out),
     detail::k85Out * 2.0 * k85Kh * k85Kw, {k85N, k85C, k85H, k85W}},
    {"conv_depthwise_separable_2d", "src/kb/conv/separable2d.cu:bench::kb::separable2d_kernel",
     "N1 Cin64 Cout128 512x512 k3 p1", "86", 1.0 / k86KbN * k86N,
     detail::conv_bytes(detail::d(k86N) * k86Cin * k86H * k86W,
                        detail::d(k86Cin) * k86K * k86K + detail::d(k86Cout) * k86Cin, detail::k86Pixels * k86Cout),
     detail::k86Pixels * 2.0 * k86Cin * (k86K * k86K + k86Cout), {k86N, k86Cin, k86Cout, k86H, k86W}},
    {"conv_pointwise_2d", "src/kb/conv/pointwise2d.cu:bench::kb::pointwise2d_kernel", "N1 Cin64 Cout128 1024x1024",
     "87", 1.0 / k87KbN * k87N,
     detail::conv_bytes(detail::d(k87N) * k87Cin * k87H * k87W, detail::d(k87Cout) * k87Cin, detail::k87Out),
     detail::k87Out * 2.0 * k87Cin, {k87N, k87Cin, k87Cout, k87H, k87W}},
};

}  // namespace bench::kb::conv

#endif  // BENCH_KB_CONV_H
