"""KernelBench level 1, matmul family (include/bench/kb/matmul.h): problems 2,
3, 6, 7, 8, 10, 11, 13-18 and 97, each built as KernelBench's get_inputs and
forward do, on the benchmark's sizes (`dims`, in the order the rows give
them)."""
import torch
import torch.nn.functional as F


def _rand(dev, *shape):
    return torch.rand(*shape, device=dev)


def _plain(d, dev):  # dims: M, K, N
    m, k, n = d
    a, b = _rand(dev, m, k), _rand(dev, k, n)
    return lambda: torch.matmul(a, b)


def _batched(d, dev):  # dims: batch, m, k, n
    batch, m, k, n = d
    a, b = _rand(dev, batch, m, k), _rand(dev, batch, k, n)
    return lambda: torch.bmm(a, b)


def _tensor3d(d, dev):  # dims: N, M, K, L
    nb, m, k, l = d
    a, b = _rand(dev, nb, m, k), _rand(dev, k, l)
    return lambda: torch.matmul(a, b)


def _tensor4d(d, dev):  # dims: b, i, j, l, k
    b, i, j, l, k = d
    a, w = _rand(dev, b, i, j, l), _rand(dev, l, k)
    return lambda: torch.einsum("bijl,lk->bijk", a, w)


def _symmetric(d, dev):  # dims: N
    n = d[0]
    a, b = _rand(dev, n, n), _rand(dev, n, n)
    a, b = (a + a.T) / 2, (b + b.T) / 2
    return lambda: torch.matmul(a, b)


def _upper(d, dev):  # dims: N
    n = d[0]
    a, b = torch.triu(_rand(dev, n, n)), torch.triu(_rand(dev, n, n))
    return lambda: torch.triu(torch.matmul(a, b))


def _lower(d, dev):  # dims: M
    n = d[0]
    a, b = torch.tril(_rand(dev, n, n)), torch.tril(_rand(dev, n, n))
    return lambda: torch.tril(torch.matmul(a, b))


def _transposed_a(d, dev):  # dims: M, K, N; A is K x M
    m, k, n = d
    a, b = _rand(dev, k, m), _rand(dev, k, n)
    return lambda: torch.matmul(a.T, b)


def _transposed_b(d, dev):  # dims: M, K, N; B is N x K
    m, k, n = d
    a, b = _rand(dev, m, k), _rand(dev, n, k)
    return lambda: torch.matmul(a, b.T)


def _transposed_both(d, dev):  # dims: M, K, N; A is K x M, B is N x K
    m, k, n = d
    a, b = _rand(dev, k, m), _rand(dev, n, k)
    return lambda: torch.matmul(a.T, b.T)


def _sdpa(d, dev):  # dims: batch, heads, seq, dim
    batch, heads, seq, dim = d
    q, k, v = (_rand(dev, batch, heads, seq, dim) for _ in range(3))
    return lambda: F.scaled_dot_product_attention(q, k, v)


BUILDERS = {
    "standard_matrix_multiplication": _plain,
    "batched_matrix_multiplication": _batched,
    "matmul_with_large_k_dimension": _plain,
    "matmul_with_small_k_dimension": _plain,
    "matmul_with_irregular_shapes": _plain,
    "3d_tensor_matrix_multiplication": _tensor3d,
    "4d_tensor_matrix_multiplication": _tensor4d,
    "matmul_for_symmetric_matrices": _symmetric,
    "matmul_for_upper_triangular_matrices": _upper,
    "matmul_for_lower_triangular_matrices": _lower,
    "matmul_with_transposed_a": _transposed_a,
    "matmul_with_transposed_b": _transposed_b,
    "matmul_with_transposed_both": _transposed_both,
    "scaled_dot_product_attention": _sdpa,
}
