"""CMA-ES as the cmaes library computes it, with every step that went through BLAS or NumPy's CPU-specific code
done in a fixed order (`tuner.search.portable_linalg`; the step size's exponential by the C library, as Python's
`math.exp`): the same study on every machine.

`PortableCMA` is cmaes' `CMA` (the optimizer Optuna's CmaEsSampler drives; `CMAwM`, CMA-ES with margin, wraps
one) with three methods written again: the eigendecomposition of the covariance (Jacobi rotations instead of
LAPACK's), the sampling (B D z), and the update (`tell`), whose matrix products, norms and step-size exponential
were BLAS calls and NumPy's `exp`. The equations, their order and every other line are cmaes': the same mean,
step size and covariance to the last few bits, the same samples up to the signs of the eigenvectors (a sample
is B D z for a standard normal z, whichever sign each column of B has).

`portable(optimizer)` turns the optimizer Optuna builds or unpickles into this one; the pickles stay cmaes'
(a study written here resumes with Optuna's own sampler where this module can be imported).
"""
from __future__ import annotations

import math

import cmaes
import numpy as np
from cmaes._cma import _EPS, _MEAN_MAX, _SIGMA_MAX  # cmaes' own bounds, so that the update is theirs

from tuner.search.portable_linalg import matmul, matvec, sum_of_squares, symmetric_eigen


class PortableCMA(cmaes.CMA):
    """cmaes' CMA with a linear algebra whose bits do not depend on the CPU (see the module's docstring)."""

    def _eigen_decomposition(self) -> tuple[np.ndarray, np.ndarray]:
        if self._B is not None and self._D is not None:
            return self._B, self._D
        self._C = (self._C + self._C.T) / 2
        D2, B = symmetric_eigen(self._C)
        D = np.sqrt(np.where(D2 < 0, _EPS, D2))
        self._C = matmul(B * (D * D), B.T)  # B diag(D^2) B^T
        self._B, self._D = B, D
        return B, D

    def _sample_solution(self) -> np.ndarray:
        B, D = self._eigen_decomposition()
        z = self._rng.randn(self._n_dim)  # ~ N(0, I)
        y = matvec(B * D, z)  # B diag(D) z ~ N(0, C)
        return self._mean + self._sigma * y  # ~ N(m, sigma^2 C)

    def tell(self, solutions: list[tuple[np.ndarray, float]]) -> None:
        """cmaes' update, equation by equation (the numbers are those of Hansen's tutorial, arXiv:1604.00772)."""
        if self._lr_adapt:
            raise ValueError("PortableCMA does not implement the learning rate adaptation (lr_adapt)")
        assert len(solutions) == self._popsize, "Must tell popsize-length solutions."
        for s in solutions:
            assert np.all(np.abs(s[0]) < _MEAN_MAX), \
                f"Abs of all param values must be less than {_MEAN_MAX} to avoid overflow errors"
        self._g += 1
        solutions.sort(key=lambda s: s[1])
        funhist_idx = 2 * (self.generation % self._funhist_term)
        self._funhist_values[funhist_idx] = solutions[0][1]
        self._funhist_values[funhist_idx + 1] = solutions[-1][1]

        B, D = self._eigen_decomposition()
        self._B, self._D = None, None

        x_k = np.array([s[0] for s in solutions])  # ~ N(m, sigma^2 C)
        y_k = (x_k - self._mean) / self._sigma  # ~ N(0, C)

        # Selection and recombination (eq. 41)
        y_w = np.sum(y_k[: self._mu].T * self._weights[: self._mu], axis=1)
        self._mean += self._cm * self._sigma * y_w

        # Step-size control; C^(-1/2) = B D^(-1) B^T
        C_2 = matmul(B * (1 / D), B.T)
        self._p_sigma = (1 - self._c_sigma) * self._p_sigma + math.sqrt(
            self._c_sigma * (2 - self._c_sigma) * self._mu_eff) * matvec(C_2, y_w)
        norm_p_sigma = math.sqrt(sum_of_squares(self._p_sigma))
        self._sigma *= math.exp((self._c_sigma / self._d_sigma) * (norm_p_sigma / self._chi_n - 1))
        self._sigma = min(self._sigma, _SIGMA_MAX)

        # Covariance matrix adaptation (p. 28)
        h_sigma_cond_left = norm_p_sigma / math.sqrt(1 - (1 - self._c_sigma) ** (2 * (self._g + 1)))
        h_sigma_cond_right = (1.4 + 2 / (self._n_dim + 1)) * self._chi_n
        h_sigma = 1.0 if h_sigma_cond_left < h_sigma_cond_right else 0.0

        # (eq. 45)
        self._pc = (1 - self._cc) * self._pc + h_sigma * math.sqrt(self._cc * (2 - self._cc) * self._mu_eff) * y_w

        # (eq. 46): the squared Mahalanobis norm of each y_k
        whitened = matmul(C_2, y_k.T)
        squared_norms = np.sum(whitened * whitened, axis=0)
        w_io = self._weights * np.where(self._weights >= 0, 1, self._n_dim / (squared_norms + _EPS))

        delta_h_sigma = (1 - h_sigma) * self._cc * (2 - self._cc)  # (p. 28)
        assert delta_h_sigma <= 1

        # (eq. 47)
        rank_one = np.outer(self._pc, self._pc)
        rank_mu = np.sum(w_io.reshape(-1, 1, 1) * (y_k[:, :, None] * y_k[:, None, :]), axis=0)
        self._C = (
            (1 + self._c1 * delta_h_sigma - self._c1 - self._cmu * np.sum(self._weights)) * self._C
            + self._c1 * rank_one
            + self._cmu * rank_mu
        )


def portable(optimizer):
    """The optimizer with its CMA a PortableCMA (in place): a `cmaes.CMA`, or the `CMA` inside a `cmaes.CMAwM`. A
    PortableCMA adds no state to a CMA, so the object keeps its own attributes and only its methods change."""
    inner = optimizer._cma if isinstance(optimizer, cmaes.CMAwM) else optimizer
    if type(inner) is cmaes.CMA:
        inner.__class__ = PortableCMA
    elif not isinstance(inner, PortableCMA):
        raise TypeError(f"no portable version of {type(inner).__name__} (the study's sampler is CMA-ES)")
    return optimizer
