"""rfda_teach.spatial: the one implementation of the small mathematics, against numpy/scipy, its
numba and sympy twins, and the Kane notes' eq. (4) as printed."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, strategies as st_
from scipy.spatial.transform import Rotation

from rfda_teach import fastpath, kane, spatial, symbolic

vec3 = st_.lists(st_.floats(-10, 10), min_size=3, max_size=3).map(np.array)
quat = st_.lists(st_.floats(-1, 1), min_size=4, max_size=4).filter(lambda v: np.linalg.norm(v) > 0.1).map(
    lambda v: np.array(v) / np.linalg.norm(v))


@given(vec3, vec3)
def test_skew_and_cross_are_numpy_cross(a, b):
    assert np.array_equal(spatial.cross(a, b), np.cross(a, b))      # the same bits
    assert np.allclose(spatial.skew(a) @ b, np.cross(a, b), atol=1e-12)
    assert np.array_equal(spatial.skew(a), -spatial.skew(a).T)


@given(quat)
def test_euler_parameters_round_trip_and_scipy(e):
    R = spatial.euler_params_to_matrix(e)
    assert np.allclose(R @ R.T, np.eye(3), atol=1e-12) and np.isclose(np.linalg.det(R), 1.0)
    assert np.allclose(R, Rotation.from_quat(np.r_[e[1:], e[0]]).as_matrix(), atol=1e-12)  # scipy: scalar last
    back = spatial.matrix_to_euler_params(R)
    assert back[0] >= 0 and (np.allclose(back, e, atol=1e-9) or np.allclose(back, -e, atol=1e-9))  # e ~ -e


@given(st_.floats(-7, 7))
def test_planar_and_elementary_rotations(phi):
    A = spatial.planar_rotation(phi)
    assert np.allclose(spatial.elementary_rotation("z", phi)[:2, :2], A)
    assert np.allclose(A @ [1.0, 0.0], [np.cos(phi), np.sin(phi)])
    assert np.allclose(spatial.planar_cross(2.0, A[:, 0]), 2.0 * A[:, 1])        # z x e_1' = e_2'
    for axis, i in (("x", 0), ("y", 1), ("z", 2)):
        R = spatial.elementary_rotation(axis, phi)
        assert np.allclose(R, Rotation.from_rotvec(phi * np.eye(3)[i]).as_matrix(), atol=1e-12)


def test_kane_eq4_as_printed_is_the_transposed_scalar_first_matrix():
    rng = np.random.default_rng(0)
    for _ in range(20):
        e1, e2, e3, e4 = eps = rng.normal(size=4) / 2
        eps /= np.linalg.norm(eps)
        e1, e2, e3, e4 = eps
        printed = np.array([                                     # the notes' eq. (4), scalar last
            [e1 * e1 - e2 * e2 - e3 * e3 + e4 * e4, 2 * (e1 * e2 + e3 * e4), 2 * (e1 * e3 - e2 * e4)],
            [2 * (e1 * e2 - e3 * e4), -e1 * e1 + e2 * e2 - e3 * e3 + e4 * e4, 2 * (e2 * e3 + e1 * e4)],
            [2 * (e1 * e3 + e2 * e4), 2 * (e2 * e3 - e1 * e4), -e1 * e1 - e2 * e2 + e3 * e3 + e4 * e4]])
        assert np.allclose(kane.relative_rotation(eps), printed, rtol=0, atol=1e-15)


def test_numba_and_sympy_twins_equal_spatial():
    rng = np.random.default_rng(1)
    for _ in range(10):
        e = rng.normal(size=4)
        e /= np.linalg.norm(e)
        R = np.empty((3, 3))
        fastpath._quat_R(e, R)                                   # the compiled twin (or its Python fallback)
        assert np.allclose(R, spatial.euler_params_to_matrix(e), atol=1e-15)
        a, b, out = rng.normal(size=3), rng.normal(size=3), np.empty(3)
        fastpath._cross(a, b, out)
        assert np.allclose(out, spatial.cross(a, b), atol=1e-15)
    phi = sp.Symbol("phi")
    A = sp.lambdify(phi, symbolic.planar_rotation(phi))
    for x in (-2.0, 0.3, 1.7):
        assert np.allclose(np.array(A(x), float), spatial.planar_rotation(x))


@pytest.mark.parametrize("mod", ["bodies", "models", "kane", "loops", "rcr", "refpoint"])
def test_one_gravity_and_one_tolerance(mod):
    import importlib
    m = importlib.import_module(f"rfda_teach.{mod}")
    for name in ("G0", "EULER_TOL"):
        if hasattr(m, name):
            assert getattr(m, name) is getattr(spatial, name)
