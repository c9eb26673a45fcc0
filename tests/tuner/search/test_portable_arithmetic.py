"""The arithmetic a study's decisions are made with, whose bits do not depend on the CPU (tuner.search.portable_*):
it computes what NumPy, LAPACK and cmaes compute, to the last few bits. (That its bits are the same on two machines
is tests/tuner/search/test_reproducible.py's.)"""
from __future__ import annotations

import math
import pickle

import cmaes
import numpy as np
import pytest

from tuner.search import portable_math
from tuner.search.portable_cma import PortableCMA, portable
from tuner.search.portable_linalg import matmul, matvec, sum_of_squares, symmetric_eigen


def random_covariance(n: int, seed: int, condition: float = 1e4) -> np.ndarray:
    """A symmetric positive definite matrix with eigenvalues spread over `condition` and two of them equal."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    values = np.geomspace(1.0, condition, n)
    values[1:2] = values[0]
    return (q * values) @ q.T


@pytest.mark.parametrize("n, seed", [(1, 0), (2, 1), (7, 2), (31, 3), (48, 4)])
def test_the_eigendecomposition_is_lapacks_up_to_the_vectors_signs(n, seed):
    c = random_covariance(n, seed)
    values, vectors = symmetric_eigen(c)
    expected, _ = np.linalg.eigh(c)
    assert np.all(np.diff(values) >= 0)  # ascending, as eigh
    np.testing.assert_allclose(values, expected, rtol=1e-11, atol=1e-11 * expected.max())
    np.testing.assert_allclose(vectors.T @ vectors, np.eye(n), atol=1e-12)
    np.testing.assert_allclose((vectors * values) @ vectors.T, c, atol=1e-11 * expected.max())


def test_a_diagonal_matrix_needs_no_rotation_and_keeps_its_exact_values():
    c = np.diag([3.0, 1.0, 2.0])
    values, vectors = symmetric_eigen(c)
    assert values.tolist() == [1.0, 2.0, 3.0]
    assert np.abs(vectors).tolist() == [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]


def test_products_and_norms_are_numpys_to_rounding():
    rng = np.random.default_rng(5)
    a, b, x = rng.standard_normal((31, 20)), rng.standard_normal((20, 9)), rng.standard_normal(20)
    np.testing.assert_allclose(matmul(a, b), a @ b, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(matmul(a.T[:5], a[:, :5]), a.T[:5] @ a[:, :5], rtol=1e-13, atol=1e-13)  # strided views
    np.testing.assert_allclose(matvec(a, x), a @ x, rtol=1e-13, atol=1e-13)
    assert sum_of_squares(x) == pytest.approx(float(x @ x), rel=1e-14)


def test_exp_and_log_are_within_two_units_in_the_last_place():
    x = np.concatenate([np.linspace(-700.0, 700.0, 20_001), -np.geomspace(1e-300, 1.0, 2_001), [0.0]])
    exact = np.array([math.exp(v) for v in x])
    assert np.max(np.abs(portable_math.exp(x) - exact) / np.spacing(exact)) <= 2
    y = np.concatenate([np.geomspace(1e-300, 1e300, 20_001), np.linspace(0.5, 2.0, 2_001)])
    exact = np.array([math.log(v) for v in y])
    error = np.abs(portable_math.log(y) - exact)
    assert np.all((error <= 2 * np.spacing(np.abs(exact))) | (error <= 1e-300))
    assert portable_math.log(np.array([1.0])).tolist() == [0.0] and portable_math.exp(np.zeros(1)).tolist() == [1.0]


def told(optimizer, generations: int, seed: int = 0):
    """Run `generations` of the optimizer on a fixed quadratic, each generation's samples drawn by cmaes' own CMA
    from the same random state, so that two optimizers told the same solutions can be compared."""
    rng = np.random.default_rng(seed)
    target = rng.random(optimizer.dim)
    for _ in range(generations):
        solutions = [rng.random(optimizer.dim) * 0.2 + optimizer.mean - 0.1 for _ in range(optimizer.population_size)]
        optimizer.tell([(x, float(np.sum((x - target) ** 2))) for x in solutions])
    return optimizer


def test_portable_cma_updates_as_cmaes_does():
    """Told the same solutions, cmaes' CMA and the portable one hold the same mean, step size, evolution paths and
    covariance, to rounding."""
    def make():
        return cmaes.CMA(mean=np.full(12, 0.5), sigma=0.1, bounds=np.array([[0.0, 1.0]] * 12), seed=3,
                         population_size=10)

    theirs, ours = told(make(), 12), told(portable(make()), 12)
    assert isinstance(ours, PortableCMA) and not isinstance(theirs, PortableCMA)
    assert ours.generation == theirs.generation == 12
    np.testing.assert_allclose(ours.mean, theirs.mean, rtol=1e-12)
    assert ours._sigma == pytest.approx(theirs._sigma, rel=1e-12)
    np.testing.assert_allclose(ours._p_sigma, theirs._p_sigma, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours._C, theirs._C, rtol=1e-9, atol=1e-14)
    b, d = ours._eigen_decomposition()
    np.testing.assert_allclose((b * d * d) @ b.T, ours._C, atol=1e-13)


def test_portable_samples_are_drawn_from_the_same_distribution():
    """With the same random state, a portable sample is B D z as cmaes' (each eigenvector up to its sign)."""
    optimizer = told(portable(cmaes.CMA(mean=np.zeros(5), sigma=1.0, seed=1, population_size=6)), 4)
    b, d = optimizer._eigen_decomposition()
    optimizer._rng.seed(11)
    sample = optimizer._sample_solution()
    z = np.random.RandomState(11).randn(5)
    np.testing.assert_allclose(sample, optimizer._mean + optimizer._sigma * (b * d) @ z, rtol=1e-13, atol=1e-14)


def test_a_margin_optimizer_and_an_unpickled_one_become_portable():
    wrapped = cmaes.CMAwM(mean=np.full(3, 0.5), sigma=0.1, bounds=np.array([[0.0, 1.0]] * 3),
                          steps=np.array([0.0, 0.1, 0.0]), seed=1)
    assert portable(wrapped) is wrapped and isinstance(wrapped._cma, PortableCMA)
    stored = pickle.loads(pickle.dumps(cmaes.CMA(mean=np.zeros(2), sigma=1.0)))
    assert type(portable(stored)) is PortableCMA
    with pytest.raises(TypeError, match="no portable version of SepCMA"):
        portable(cmaes.SepCMA(mean=np.zeros(2), sigma=1.0))
