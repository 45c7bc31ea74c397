"""torch eager code of the conv family (include/bench/kb/conv.h): KernelBench
level 1 problems 50, 54, 55, 56, 59, 60, 62, 66, 76, 80, 82-87.

`dims` carries the sizes the header may scale (batch, channels, spatial
extents, in the order of each row's dims); kernel sizes, strides, paddings,
dilations, groups and bias flags are KernelBench's own, written here as its
get_init_inputs and Model.__init__ give them (the C++ header keeps the same
values). Each module is built on the device with requires_grad off, so the
timed call is the forward alone (no autograd graph is recorded)."""
import torch
import torch.nn as nn


def _conv(module, dev, *x_shape):
    m = module.to(dev).requires_grad_(False)
    x = torch.rand(*x_shape, device=dev)
    return lambda: m(x)


def _50(d, dev):  # AlexNet conv1: Conv2d(3, 96, 11, stride=4, padding=2), bias on (nn.Conv2d's default)
    n, cin, cout, h, w = d
    return _conv(nn.Conv2d(cin, cout, kernel_size=11, stride=4, padding=2), dev, n, cin, h, w)


def _54(d, dev):
    n, cin, cout, depth, h, w = d
    return _conv(nn.Conv3d(cin, cout, (3, 3, 3), bias=False), dev, n, cin, depth, h, w)


def _55(d, dev):
    n, cin, cout, h, w = d
    return _conv(nn.Conv2d(cin, cout, (3, 3), bias=False), dev, n, cin, h, w)


def _56(d, dev):
    n, cin, cout, h, w = d
    return _conv(nn.Conv2d(cin, cout, (5, 7), bias=False), dev, n, cin, h, w)


def _59(d, dev):  # KernelBench builds the kernel as (k, k, 1)
    n, cin, cout, d0, d1, d2 = d
    return _conv(nn.Conv3d(cin, cout, (3, 3, 1), bias=False), dev, n, cin, d0, d1, d2)


def _60(d, dev):
    n, cin, cout, d0, d1, d2 = d
    return _conv(nn.Conv3d(cin, cout, (3, 5, 7), bias=False), dev, n, cin, d0, d1, d2)


def _62(d, dev):
    n, cin, cout, h, w = d
    return _conv(nn.Conv2d(cin, cout, (5, 9), bias=False), dev, n, cin, h, w)


def _66(d, dev):
    n, cin, cout, depth, h, w = d
    return _conv(nn.Conv3d(cin, cout, (3, 5, 7), bias=False), dev, n, cin, depth, h, w)


def _76(d, dev):
    n, cin, cout, length = d
    return _conv(nn.Conv1d(cin, cout, 3, stride=3, dilation=4, bias=False), dev, n, cin, length)


def _80(d, dev):
    n, cin, cout, h, w = d
    conv = nn.Conv2d(cin, cout, (5, 9), stride=1, padding=(2, 4), dilation=(2, 3), bias=False)
    return _conv(conv, dev, n, cin, h, w)


def _82(d, dev):
    n, c, h, w = d
    return _conv(nn.Conv2d(c, c, 3, stride=1, padding=0, groups=c, bias=False), dev, n, c, h, w)


def _83(d, dev):
    n, c, h, w = d
    conv = nn.Conv2d(c, c, kernel_size=(3, 1), stride=1, padding=0, dilation=1, groups=c, bias=False)
    return _conv(conv, dev, n, c, h, w)


def _84(d, dev):
    n, cin, cout, h, w = d
    conv = nn.Conv2d(cin, cout, kernel_size=(3, 3), stride=1, padding=0, groups=cin, bias=False)
    return _conv(conv, dev, n, cin, h, w)


def _85(d, dev):  # KernelBench's module uses in_channels for both channel counts and groups
    n, c, h, w = d
    conv = nn.Conv2d(c, c, (3, 7), stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=c, bias=False)
    return _conv(conv, dev, n, c, h, w)


def _86(d, dev):
    n, cin, cout, h, w = d
    depthwise = nn.Conv2d(cin, cin, 3, stride=1, padding=1, dilation=1, groups=cin, bias=False)
    pointwise = nn.Conv2d(cin, cout, kernel_size=1, bias=False)
    return _conv(nn.Sequential(depthwise, pointwise), dev, n, cin, h, w)


def _87(d, dev):
    n, cin, cout, h, w = d
    return _conv(nn.Conv2d(cin, cout, kernel_size=1, stride=1, padding=0, bias=False), dev, n, cin, h, w)


BUILDERS = {
    "conv_standard_2d_square_input_square_kernel": _50,
    "conv_standard_3d_square_input_square_kernel": _54,
    "conv_standard_2d_asymmetric_input_square_kernel": _55,
    "conv_standard_2d_asymmetric_input_asymmetric_kernel": _56,
    "conv_standard_3d_asymmetric_input_square_kernel": _59,
    "conv_standard_3d_square_input_asymmetric_kernel": _60,
    "conv_standard_2d_square_input_asymmetric_kernel": _62,
    "conv_standard_3d_asymmetric_input_asymmetric_kernel": _66,
    "conv_standard_1d_dilated_strided": _76,
    "conv_standard_2d_square_input_asymmetric_kernel_dilated_padded": _80,
    "conv_depthwise_2d_square_input_square_kernel": _82,
    "conv_depthwise_2d_square_input_asymmetric_kernel": _83,
    "conv_depthwise_2d_asymmetric_input_square_kernel": _84,
    "conv_depthwise_2d_asymmetric_input_asymmetric_kernel": _85,
    "conv_depthwise_separable_2d": _86,
    "conv_pointwise_2d": _87,
}
