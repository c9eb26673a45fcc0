"""Linear algebra whose bits do not depend on the CPU: CMA-ES's (`tuner.search.portable_cma`).

NumPy hands matrix products and eigendecompositions to OpenBLAS, which picks its kernels for the CPU it runs on:
an AVX-512 Xeon and an AVX2 EPYC round a 31 x 31 product differently, and a last bit that differs in CMA-ES's
covariance grows, generation after generation, into another study. Here each result is a fixed sequence of IEEE
additions, multiplications, divisions and square roots, each correctly rounded on any CPU: compiled loops in a
fixed order (Numba without fast-math, so LLVM neither reorders nor fuses them, whatever CPU it targets).
"""
from __future__ import annotations

import math

import numpy as np

from engine.jit import kernel

JACOBI_SWEEPS = 60  # a cyclic Jacobi converges in 6 to 12 sweeps; this only bounds a pathological input


@kernel
def matmul(a, b):
    """a @ b, each entry summed over k in increasing order."""
    n, m = a.shape
    p = b.shape[1]
    out = np.zeros((n, p))
    for i in range(n):
        for j in range(p):
            total = 0.0
            for k in range(m):
                total += a[i, k] * b[k, j]
            out[i, j] = total
    return out


@kernel
def matvec(a, x):
    """a @ x, each entry summed in increasing order."""
    n, m = a.shape
    out = np.zeros(n)
    for i in range(n):
        total = 0.0
        for k in range(m):
            total += a[i, k] * x[k]
        out[i] = total
    return out


@kernel
def sum_of_squares(x):
    """The squared Euclidean norm of a vector, summed in order."""
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * x[i]
    return total


@kernel
def _rotate(a, v, p, q):
    """One Jacobi rotation: zero a[p, q] (and a[q, p]) by rotating rows and columns p and q of the symmetric a,
    and columns p and q of the eigenvectors v (Golub and Van Loan, Matrix Computations, 8.5.2)."""
    n = a.shape[0]
    apq = a[p, q]
    theta = (a[q, q] - a[p, p]) / (2.0 * apq)
    if abs(theta) > 1e150:  # theta * theta would overflow: tan of the angle is 1 / (2 theta)
        t = 0.5 / theta
    else:
        t = 1.0 / (abs(theta) + math.sqrt(theta * theta + 1.0))
        if theta < 0.0:
            t = -t
    c = 1.0 / math.sqrt(t * t + 1.0)
    s = t * c
    for k in range(n):
        akp = a[k, p]
        akq = a[k, q]
        a[k, p] = c * akp - s * akq
        a[k, q] = s * akp + c * akq
    for k in range(n):
        apk = a[p, k]
        aqk = a[q, k]
        a[p, k] = c * apk - s * aqk
        a[q, k] = s * apk + c * aqk
    a[p, q] = 0.0
    a[q, p] = 0.0
    for k in range(n):
        vkp = v[k, p]
        vkq = v[k, q]
        v[k, p] = c * vkp - s * vkq
        v[k, q] = s * vkp + c * vkq


@kernel
def symmetric_eigen(c):
    """The eigenvalues of the symmetric matrix c, ascending, and its eigenvectors as the columns of an orthogonal
    matrix (what `numpy.linalg.eigh` returns, up to each vector's sign), by cyclic Jacobi rotations: sweeps over
    the pairs (p, q) in order until the off-diagonal part is zero. After a few sweeps an element too small to
    change either diagonal element it stands between is set to zero rather than rotated away."""
    n = c.shape[0]
    a = c.copy()
    v = np.eye(n)
    for sweep in range(JACOBI_SWEEPS):
        off = 0.0
        for p in range(n):
            for q in range(p + 1, n):
                off += a[p, q] * a[p, q]
        if off == 0.0:
            break
        for p in range(n - 1):
            for q in range(p + 1, n):
                if a[p, q] == 0.0:
                    continue
                small = 100.0 * abs(a[p, q])
                if sweep > 3 and abs(a[p, p]) + small == abs(a[p, p]) and abs(a[q, q]) + small == abs(a[q, q]):
                    a[p, q] = 0.0
                    a[q, p] = 0.0
                    continue
                _rotate(a, v, p, q)
    values = np.zeros(n)
    for i in range(n):
        values[i] = a[i, i]
    order = np.arange(n)
    for i in range(1, n):  # insertion sort: ascending, equal values in index order
        j = i
        while j > 0 and values[order[j - 1]] > values[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    sorted_values = np.zeros(n)
    vectors = np.zeros((n, n))
    for j in range(n):
        sorted_values[j] = values[order[j]]
        for i in range(n):
            vectors[i, j] = v[i, order[j]]
    return sorted_values, vectors
