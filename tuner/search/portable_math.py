"""`exp` and `log` of arrays whose bits do not depend on the CPU: what a trial's score is computed with
(`tuner.search.race.soft_minima`).

NumPy's `exp` and `log` have their own AVX-512 versions, which round differently from the C library's that other
CPUs use. Here each is range reduction and a polynomial in NumPy's element-wise arithmetic (additions,
multiplications, divisions: correctly rounded on any CPU), within two units in the last place of the exact value.
"""
from __future__ import annotations

import math

import numpy as np

LN2_HI = 6.93147180369123816490e-01  # ln 2 in two parts (fdlibm's): LN2_HI * k is exact for |k| < 2**20
LN2_LO = 1.90821492927058770002e-10
EXP_TERMS = 14  # Taylor terms of exp(r) for |r| <= ln(2) / 2: the first omitted term is below 1e-19
LOG_TERMS = 12  # terms of 2 atanh(f) for |f| <= 0.1716: the first omitted one is below 1e-19


def exp(x: np.ndarray) -> np.ndarray:
    """e**x of each element, for |x| < 700: x = k ln 2 + r with |r| <= ln(2)/2, e**x = 2**k e**r."""
    x = np.asarray(x, dtype=np.float64)
    k = np.rint(x / math.log(2.0))
    r = (x - k * LN2_HI) - k * LN2_LO
    total = np.ones_like(r)
    for n in range(EXP_TERMS, 0, -1):  # Horner: 1 + r/1 (1 + r/2 (1 + ... (1 + r/14)))
        total = 1.0 + (r / n) * total
    return np.ldexp(total, k.astype(np.int64))


def log(x: np.ndarray) -> np.ndarray:
    """The natural logarithm of each (positive, finite) element: x = m 2**e with m in [sqrt(1/2), sqrt(2)),
    log x = e ln 2 + 2 atanh((m - 1) / (m + 1))."""
    x = np.asarray(x, dtype=np.float64)
    m, e = np.frexp(x)  # x = m 2**e, m in [1/2, 1)
    low = m < math.sqrt(0.5)
    m = np.where(low, 2.0 * m, m)
    e = np.where(low, e - 1, e).astype(np.float64)
    f = (m - 1.0) / (m + 1.0)
    f2 = f * f
    series = np.zeros_like(f)
    for n in range(LOG_TERMS - 1, -1, -1):  # Horner: sum of f2**n / (2n + 1)
        series = 1.0 / (2 * n + 1) + f2 * series
    return (e * LN2_HI + 2.0 * f * series) + e * LN2_LO
