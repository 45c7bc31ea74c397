"""torch eager code of the pointwise family (include/bench/kb/pointwise.h):
KernelBench level 1's elementwise problems (5, 12, 20-22, 25, 27-32, 88)
and losses (94, 95, 96, 98, 99, 100), each forward as KernelBench writes it
(ScalingIntelligence/KernelBench 423217d), inputs as its get_inputs makes
them, on the sizes of this benchmark (dims)."""
import math

import torch
import torch.nn.functional as F


def _rand(dev, *shape):
    return torch.rand(*shape, device=dev)


def _map(fn):
    """An activation of one rows x cols tensor: dims = [rows, cols]."""
    def build(d, dev):
        x = _rand(dev, d[0], d[1])
        return lambda: fn(x)
    return build


def _matrix_scalar(d, dev):  # 5
    a, s = _rand(dev, d[0], d[1]), 3.14
    return lambda: a * s


def _diagonal(d, dev):  # 12: dims = [N, M]; A: N, B: N x M (torch.diag(A) @ B in older revisions)
    a, b = _rand(dev, d[0]), _rand(dev, d[0], d[1])
    return lambda: a.unsqueeze(1) * b


def _new_gelu(x):  # 88, MinGPT
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def _mse(d, dev):  # 94
    scale = torch.rand((), device=dev)
    p, t = _rand(dev, d[0], d[1]) * scale, _rand(dev, d[0], d[1])
    return lambda: torch.mean((p - t) ** 2)


def _cross_entropy(d, dev):  # 95: dims = [rows, classes], int64 targets
    p = _rand(dev, d[0], d[1])
    t = torch.randint(0, d[1], (d[0],), device=dev)
    return lambda: F.cross_entropy(p, t)


def _huber(d, dev):  # 96
    scale = torch.rand((), device=dev)
    p, t = _rand(dev, d[0], d[1]) * scale, _rand(dev, d[0], d[1])
    return lambda: F.smooth_l1_loss(p, t)


def _kl_div(d, dev):  # 98
    scale = torch.rand((), device=dev)
    p = (_rand(dev, d[0], d[1]) * scale).softmax(dim=-1)
    t = _rand(dev, d[0], d[1]).softmax(dim=-1)
    return lambda: F.kl_div(torch.log(p), t, reduction="batchmean")


def _triplet(d, dev):  # 99
    loss = torch.nn.TripletMarginLoss(margin=1.0)
    scale = torch.rand((), device=dev)
    a = _rand(dev, d[0], d[1]) * scale
    p, n = _rand(dev, d[0], d[1]), _rand(dev, d[0], d[1])
    return lambda: loss(a, p, n)


def _hinge(d, dev):  # 100: targets (one +-1 per column) broadcast along the rows
    p = _rand(dev, d[0], d[1])
    t = torch.randint(0, 2, (d[1],), device=dev).float() * 2 - 1
    return lambda: torch.mean(torch.clamp(1 - p * t, min=0))


BUILDERS = {
    "matrix_scalar_multiplication": _matrix_scalar,
    "matmul_with_diagonal_matrices": _diagonal,
    "leaky_relu": _map(lambda x: F.leaky_relu(x, negative_slope=0.01)),
    "sigmoid": _map(torch.sigmoid),
    "tanh": _map(torch.tanh),
    "swish": _map(lambda x: x * torch.sigmoid(x)),
    "selu": _map(torch.selu),
    "hard_sigmoid": _map(F.hardsigmoid),
    "softplus": _map(F.softplus),
    "softsign": _map(lambda x: x / (1 + torch.abs(x))),
    "elu": _map(lambda x: F.elu(x, alpha=1.0)),
    "hard_tanh": _map(lambda x: F.hardtanh(x, min_val=-1.0, max_val=1.0)),
    "min_gpt_new_gelu": _map(_new_gelu),
    "mse_loss": _mse,
    "cross_entropy_loss": _cross_entropy,
    "huber_loss": _huber,
    "kl_div_loss": _kl_div,
    "triplet_margin_loss": _triplet,
    "hinge_loss": _hinge,
}
