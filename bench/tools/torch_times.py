#!/usr/bin/env python3
"""Times torch eager on the benchmark's problems, KernelBench's way.

    torch_times.py PROBLEMS_JSON > torch.json

PROBLEMS_JSON is what bench_shapes prints (sizes from include/bench/shapes.h).
Each problem runs as the torch code a KernelBench model would (fp32 inputs
from torch.rand), with 10 warm-up calls, then 100 calls each between two
CUDA events; the mean is reported in microseconds. TF32 is off for matmul
and cuDNN, so torch computes in fp32 like the kernels it is compared with.
A problem that fails is reported under "errors" and the others still run.
"""
import functools
import importlib
import json
import pkgutil
import sys
from pathlib import Path

import torch
import torch.nn.functional as F


@functools.lru_cache(maxsize=None)
def family_builders():
    """The builders of torch_problems/*.py: each module's BUILDERS maps a
    problem name to a function (dims, device) -> zero-argument callable."""
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    builders = {}
    for m in pkgutil.iter_modules([str(here / "torch_problems")]):
        builders.update(importlib.import_module(f"torch_problems.{m.name}").BUILDERS)
    return builders


def build(name, d, dev):
    """Returns a zero-argument callable running problem `name` on sizes `d`."""
    if name in family_builders():
        return family_builders()[name](d, dev)
    rand = lambda *shape: torch.rand(*shape, device=dev)
    if name in ("relu", "gelu", "softmax"):
        x = rand(d[0], d[1])
        return {"relu": lambda: torch.relu(x), "gelu": lambda: F.gelu(x), "softmax": lambda: torch.softmax(x, dim=1)}[name]
    if name == "saxpy":
        x, y = rand(d[0]), rand(d[0])
        return lambda: y.add_(x, alpha=1.75)
    if name == "row_sum":
        x = rand(d[0], d[1])
        return lambda: torch.sum(x, dim=1)
    if name in ("dim_sum", "argmax"):
        x = rand(d[0], d[1], d[2])
        return (lambda: torch.sum(x, dim=1)) if name == "dim_sum" else (lambda: torch.argmax(x, dim=1))
    if name == "layer_norm":
        x, w, b = rand(d[0], d[1]), rand(d[1]), rand(d[1])
        return lambda: F.layer_norm(x, (d[1],), w, b, 1e-5)
    if name == "rms_norm":  # KernelBench 36's forward
        x = rand(d[0], d[1], d[2])
        return lambda: x / torch.sqrt(torch.mean(x**2, dim=1, keepdim=True) + 1e-5)
    if name == "transpose":
        x = rand(d[0], d[1])
        return lambda: x.t().contiguous()
    if name == "matmul":
        a, b = rand(d[0], d[0]), rand(d[0], d[0])
        return lambda: torch.matmul(a, b)
    if name == "matmul_tall_skinny":
        a, b = rand(d[0], d[1]), rand(d[1], d[0])
        return lambda: torch.matmul(a, b)
    if name == "matvec":  # KernelBench 4 multiplies by a K x 1 matrix
        a, x = rand(d[0], d[1]), rand(d[1], 1)
        return lambda: torch.matmul(a, x)
    if name == "conv2d":
        n, cin, cout, k, h, w = d
        x, wt = rand(n, cin, h, w), rand(cout, cin, k, k)
        return lambda: F.conv2d(x, wt)
    if name == "conv1d":
        n, cin, cout, k, length = d
        x, wt = rand(n, cin, length), rand(cout, cin, k)
        return lambda: F.conv1d(x, wt)
    if name == "cumsum":
        x = rand(d[0], d[1])
        return lambda: torch.cumsum(x, dim=1)
    if name == "histogram":
        x = rand(d[0]) ** 8  # the tests' skewed data
        return lambda: torch.histc(x, bins=d[1], min=0, max=1)
    if name == "spmv":
        rows, cols, lo, hi = d
        lengths = torch.randint(lo, hi + 1, (rows,), device=dev)
        row_ptr = torch.zeros(rows + 1, dtype=torch.int64, device=dev)
        row_ptr[1:] = torch.cumsum(lengths, 0)
        nnz = int(row_ptr[-1])
        col = torch.randint(0, cols, (nnz,), device=dev)
        a = torch.sparse_csr_tensor(row_ptr, col, rand(nnz), (rows, cols))
        x = rand(cols, 1)
        return lambda: torch.sparse.mm(a, x)
    if name == "stencil":  # the same five-point average as one 3x3 convolution (interior points)
        x = rand(1, 1, d[0], d[1])
        wt = torch.tensor([[0, 0.2, 0], [0.2, 0.2, 0.2], [0, 0.2, 0]], device=dev).view(1, 1, 3, 3)
        return lambda: F.conv2d(x, wt)
    raise KeyError(f"no torch code for problem {name!r}")


def mean_us(run, trials=100, warmup=10):
    for _ in range(warmup):
        run()
    torch.cuda.synchronize()
    total_ms = 0.0
    for _ in range(trials):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        stop.record()
        stop.synchronize()
        total_ms += start.elapsed_time(stop)
    return 1000.0 * total_ms / trials


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: torch_times.py PROBLEMS_JSON > torch.json")
    problems = json.load(open(argv[1]))["problems"]
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    times, errors = {}, {}
    for p in problems:
        try:
            times[p["name"]] = round(mean_us(build(p["name"], p["dims"], dev)), 3)
            print(f"torch_times: {p['name']}: {times[p['name']]} us", file=sys.stderr)
        except Exception as e:  # one problem's failure must not lose the others
            errors[p["name"]] = f"{type(e).__name__}: {e}"
            print(f"torch_times: {p['name']}: FAILED {errors[p['name']]}", file=sys.stderr)
        torch.cuda.empty_cache()
    json.dump({"schema": "stark.bench-torch/1", "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
               "times": times, "errors": errors}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv)
