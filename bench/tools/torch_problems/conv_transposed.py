"""KernelBench level 1, transposed convolutions (include/bench/kb/conv_transposed.h).

dims: n, cin, cout, then the spatial input sizes. Kernel sizes, strides,
padding, output padding, dilation and groups are KernelBench's
get_init_inputs, passed to the module the way each problem's Model passes
them (no bias anywhere). 73 declares groups=4, but its get_init_inputs hands
the 4 to Model's output_padding argument, which Model never passes on: the
ConvTranspose3d it runs has groups 1 and no output padding, and so does this.
"""
import torch
import torch.nn as nn


def _run(module, x):
    module = module.to(x.device).requires_grad_(False)
    return lambda: module(x)


def _rand(dev, *shape):
    return torch.rand(*shape, device=dev)


BUILDERS = {
    # 57: Model(in, out, 3)
    "conv_transposed_2d_square_input_square_kernel": lambda d, dev: _run(
        nn.ConvTranspose2d(d[1], d[2], 3, bias=False), _rand(dev, d[0], d[1], d[3], d[3])),
    # 58: Model(in, out, (3, 5, 7))
    "conv_transposed_3d_asymmetric_input_asymmetric_kernel": lambda d, dev: _run(
        nn.ConvTranspose3d(d[1], d[2], (3, 5, 7), bias=False), _rand(dev, d[0], d[1], d[3], d[4], d[5])),
    # 61: Model(in, out, 3) builds kernel_size=(3, 3, 3)
    "conv_transposed_3d_square_input_square_kernel": lambda d, dev: _run(
        nn.ConvTranspose3d(d[1], d[2], (3, 3, 3), bias=False), _rand(dev, d[0], d[1], d[3], d[3], d[3])),
    # 64: Model(in, out, 3)
    "conv_transposed_1d": lambda d, dev: _run(
        nn.ConvTranspose1d(d[1], d[2], 3, bias=False), _rand(dev, d[0], d[1], d[3])),
    # 65: Model(in, out, (3, 7))
    "conv_transposed_2d_square_input_asymmetric_kernel": lambda d, dev: _run(
        nn.ConvTranspose2d(d[1], d[2], (3, 7), bias=False), _rand(dev, d[0], d[1], d[3], d[3])),
    # 68: Model(in, out, (kernel_depth, kernel_width, kernel_height)) = (3, 5, 5)
    "conv_transposed_3d_square_input_asymmetric_kernel": lambda d, dev: _run(
        nn.ConvTranspose3d(d[1], d[2], (3, 5, 5), bias=False), _rand(dev, d[0], d[1], d[3], d[3], d[3])),
    # 69: Model(in, out, (3, 5))
    "conv_transposed_2d_asymmetric_input_asymmetric_kernel": lambda d, dev: _run(
        nn.ConvTranspose2d(d[1], d[2], (3, 5), bias=False), _rand(dev, d[0], d[1], d[3], d[4])),
    # 70: Model(in, out, 3) builds (3, 3, 3)
    "conv_transposed_3d_asymmetric_input_square_kernel": lambda d, dev: _run(
        nn.ConvTranspose3d(d[1], d[2], (3, 3, 3), bias=False), _rand(dev, d[0], d[1], d[3], d[4], d[5])),
    # 71: Model(in, out, 3)
    "conv_transposed_2d_asymmetric_input_square_kernel": lambda d, dev: _run(
        nn.ConvTranspose2d(d[1], d[2], 3, bias=False), _rand(dev, d[0], d[1], d[3], d[4])),
    # 72: Model(in, out, (3, 5, 7), (2, 2, 2), (1, 2, 3), (1, 1, 1), 4)
    "conv_transposed_3d_asymmetric_input_asymmetric_kernel_strided_padded_grouped": lambda d, dev: _run(
        nn.ConvTranspose3d(d[1], d[2], (3, 5, 7), stride=(2, 2, 2), padding=(1, 2, 3), output_padding=(1, 1, 1),
                           groups=4, bias=False), _rand(dev, d[0], d[1], d[3], d[4], d[5])),
    # 73: Model(in, out, 3, 2, 1, 4): output_padding=4 is dropped, groups stays 1
    "conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped": lambda d, dev: _run(
        nn.ConvTranspose3d(d[1], d[2], kernel_size=(3, 3, 3), stride=2, padding=1, groups=1, bias=False),
        _rand(dev, d[0], d[1], d[3], d[4], d[5])),
    # 74: Model(in, out, 5, 1, 0, 3)
    "conv_transposed_1d_dilated": lambda d, dev: _run(
        nn.ConvTranspose1d(d[1], d[2], 5, stride=1, padding=0, dilation=3, bias=False), _rand(dev, d[0], d[1], d[3])),
    # 75: Model(in, out, (3, 5), (2, 3), (1, 2), (2, 1), 4)
    "conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated": lambda d, dev: _run(
        nn.ConvTranspose2d(d[1], d[2], (3, 5), stride=(2, 3), padding=(1, 2), dilation=(2, 1), groups=4, bias=False),
        _rand(dev, d[0], d[1], d[3], d[4])),
    # 77: Model(in, out, 3, 2, 1, 2) builds kernel_size=(3, 3, 3)
    "conv_transposed_3d_square_input_square_kernel_padded_dilated_strided": lambda d, dev: _run(
        nn.ConvTranspose3d(d[1], d[2], kernel_size=(3, 3, 3), stride=2, padding=1, dilation=2, bias=False),
        _rand(dev, d[0], d[1], d[3], d[4], d[5])),
    # 78: Model(in, out, (3, 7), (1, 1), (1, 3))
    "conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded": lambda d, dev: _run(
        nn.ConvTranspose2d(d[1], d[2], (3, 7), stride=(1, 1), padding=(1, 3), bias=False),
        _rand(dev, d[0], d[1], d[3], d[4])),
    # 79: Model(in, out, 3, 2, 1, 2)
    "conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated": lambda d, dev: _run(
        nn.ConvTranspose1d(d[1], d[2], 3, stride=2, padding=1, dilation=2, bias=False), _rand(dev, d[0], d[1], d[3])),
    # 81: Model(in, out, 3, 5, 1, 2)
    "conv_transposed_2d_asymmetric_input_square_kernel_dilated_padded_strided": lambda d, dev: _run(
        nn.ConvTranspose2d(d[1], d[2], 3, stride=5, padding=1, dilation=2, bias=False),
        _rand(dev, d[0], d[1], d[3], d[4])),
}
