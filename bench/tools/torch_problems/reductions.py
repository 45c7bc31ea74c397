"""torch eager code of the reductions family (include/bench/kb/reductions.h):
KernelBench level-1 problems 24, 33-35, 37-39, 41-46, 48, 49, 52, 53 and
90-93, each built as KernelBench's Model would be (modules from its
get_init_inputs, inputs from torch.rand as its get_inputs) on the
benchmark's sizes `d` (the row's dims). Forwards run under torch.no_grad(),
as KernelBench times them."""
import torch
import torch.nn as nn


def _rand(dev, *shape):
    return torch.rand(*shape, device=dev)


def _no_grad(fn):
    def run():
        with torch.no_grad():
            return fn()
    return run


def log_softmax(d, dev):  # 24
    x = _rand(dev, d[0], d[1])
    return _no_grad(lambda: torch.log_softmax(x, dim=1))


def batch_norm(d, dev):  # 33: a fresh module is in training mode (batch statistics)
    n, c, h, w = d
    bn = nn.BatchNorm2d(num_features=c).to(dev)
    x = _rand(dev, n, c, h, w)
    return _no_grad(lambda: bn(x))


def instance_norm(d, dev):  # 34
    n, c, h, w = d
    inorm = nn.InstanceNorm2d(num_features=c).to(dev)
    x = _rand(dev, n, c, h, w)
    return _no_grad(lambda: inorm(x))


def group_norm(d, dev):  # 35
    n, c, groups, h, w = d
    gn = nn.GroupNorm(num_groups=groups, num_channels=c).to(dev)
    x = _rand(dev, n, c, h, w)
    return _no_grad(lambda: gn(x))


def frobenius_norm(d, dev):  # 37
    x = _rand(dev, *d)

    def forward():
        norm = torch.norm(x, p='fro')
        return x / norm
    return _no_grad(forward)


def l1_norm(d, dev):  # 38
    x = _rand(dev, d[0], d[1])
    return _no_grad(lambda: x / torch.mean(torch.abs(x), dim=1, keepdim=True))


def l2_norm(d, dev):  # 39
    x = _rand(dev, d[0], d[1])
    return _no_grad(lambda: x / torch.norm(x, p=2, dim=1, keepdim=True))


def max_pooling_1d(d, dev):  # 41
    n, c, length, k, s, p, dil = d
    pool = nn.MaxPool1d(kernel_size=k, stride=s, padding=p, dilation=dil, return_indices=False)
    x = _rand(dev, n, c, length)
    return _no_grad(lambda: pool(x))


def max_pooling_2d(d, dev):  # 42
    n, c, h, w, k, s, p, dil = d
    pool = nn.MaxPool2d(kernel_size=k, stride=s, padding=p, dilation=dil)
    x = _rand(dev, n, c, h, w)
    return _no_grad(lambda: pool(x))


def max_pooling_3d(d, dev):  # 43: a cubic input
    n, c, size, k, s, p, dil = d
    pool = nn.MaxPool3d(kernel_size=k, stride=s, padding=p, dilation=dil)
    x = _rand(dev, n, c, size, size, size)
    return _no_grad(lambda: pool(x))


def average_pooling_1d(d, dev):  # 44
    n, c, length, k, s, p = d
    pool = nn.AvgPool1d(kernel_size=k, stride=s, padding=p)
    x = _rand(dev, n, c, length)
    return _no_grad(lambda: pool(x))


def average_pooling_2d(d, dev):  # 45: stride None (= kernel_size), padding 0
    n, c, h, w, k = d
    pool = nn.AvgPool2d(kernel_size=k)
    x = _rand(dev, n, c, h, w)
    return _no_grad(lambda: pool(x))


def average_pooling_3d(d, dev):  # 46
    n, c, depth, h, w, k, s, p = d
    pool = nn.AvgPool3d(kernel_size=k, stride=s, padding=p)
    x = _rand(dev, n, c, depth, h, w)
    return _no_grad(lambda: pool(x))


def _over_dim(op):  # 48, 49, 52, 53: reduce dim 1 of b x d1 x d2
    def build(d, dev):
        x = _rand(dev, d[0], d[1], d[2])
        return _no_grad(lambda: op(x))
    return build


def cumprod(d, dev):  # 90
    x = _rand(dev, d[0], d[1])
    return _no_grad(lambda: torch.cumprod(x, dim=1))


def cumsum_reverse(d, dev):  # 91
    x = _rand(dev, d[0], d[1])
    return _no_grad(lambda: torch.cumsum(x.flip(1), dim=1).flip(1))


def cumsum_exclusive(d, dev):  # 92, KernelBench's current forward (the scan dim narrowed, not the batch)
    x = _rand(dev, d[0], d[1])

    def forward():
        cumsum = torch.cumsum(x.narrow(dim=1, start=0, length=x.size(1) - 1), dim=1)
        return torch.cat((torch.zeros_like(x.select(1, 0).unsqueeze(1)), cumsum), dim=1)
    return _no_grad(forward)


def masked_cumsum(d, dev):  # 93
    x = _rand(dev, d[0], d[1])
    mask = torch.randint(0, 2, x.shape, device=dev).bool()
    return _no_grad(lambda: torch.cumsum(x * mask, dim=1))


BUILDERS = {
    "log_softmax": log_softmax,
    "batch_norm": batch_norm,
    "instance_norm": instance_norm,
    "group_norm": group_norm,
    "frobenius_norm": frobenius_norm,
    "l1_norm": l1_norm,
    "l2_norm": l2_norm,
    "max_pooling_1d": max_pooling_1d,
    "max_pooling_2d": max_pooling_2d,
    "max_pooling_3d": max_pooling_3d,
    "average_pooling_1d": average_pooling_1d,
    "average_pooling_2d": average_pooling_2d,
    "average_pooling_3d": average_pooling_3d,
    "mean_reduction_over_a_dimension": _over_dim(lambda x: torch.mean(x, dim=1)),
    "max_reduction_over_a_dimension": _over_dim(lambda x: torch.max(x, dim=1)[0]),
    "argmin_over_a_dimension": _over_dim(lambda x: torch.argmin(x, dim=1)),
    "min_reduction_over_a_dimension": _over_dim(lambda x: torch.min(x, dim=1)[0]),
    "cumprod": cumprod,
    "cumsum_reverse": cumsum_reverse,
    "cumsum_exclusive": cumsum_exclusive,
    "masked_cumsum": masked_cumsum,
}
