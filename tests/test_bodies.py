import numpy as np
import pytest

from rfda_teach.bodies import (Body, euler_params_to_matrix, force, mass_matrix, matrix_to_euler_params,
                               skew)
from rfda_teach.errors import ModelError


def test_spatial_mass_matrix_and_gyroscopic_force():
    J = np.diag([1.0, 2.0, 3.0])
    b = Body("spatial", 2.0, J)
    e = np.array([np.cos(0.3), np.sin(0.3) / np.sqrt(2), 0.0, np.sin(0.3) / np.sqrt(2)])
    R = euler_params_to_matrix(e)
    y = np.concatenate([[1, 2, 3], e])
    M = mass_matrix(b, y)
    assert np.allclose(M[:3, :3], 2 * np.eye(3)) and np.allclose(M[3:, 3:], R @ J @ R.T)
    w = np.array([0.3, -1.0, 2.0])
    f = force(b, y, np.concatenate([np.zeros(3), w]), np.array([0, 0, -9.81]))
    # Euler's equation in body axes: J w' x ... the gyroscopic term is -w x (J w) in any frame
    wb = R.T @ w
    assert np.allclose(R.T @ f[3:], -np.cross(wb, J @ wb))
    assert np.allclose(f[:3], [0, 0, -19.62])


def test_rotation_helpers_roundtrip():
    rng = np.random.default_rng(0)
    for _ in range(10):
        e = rng.normal(size=4)
        e /= np.linalg.norm(e)
        R = euler_params_to_matrix(e)
        assert np.allclose(R @ R.T, np.eye(3)) and np.isclose(np.linalg.det(R), 1)
        e2 = matrix_to_euler_params(R)
        assert np.allclose(euler_params_to_matrix(e2), R)
    a, b = rng.normal(size=3), rng.normal(size=3)
    assert np.allclose(skew(a) @ b, np.cross(a, b))


@pytest.mark.parametrize("kwargs, msg", [
    (dict(kind="planar", mass=0.0, inertia=1.0), "mass 0.0 is not positive"),
    (dict(kind="planar", mass=-1.0, inertia=1.0), "mass -1.0 is not positive"),
    (dict(kind="planar", mass=1.0, inertia=-0.1), "moment of inertia"),
    (dict(kind="spatial", mass=1.0, inertia=np.diag([1.0, -1.0, 1.0])), "not positive definite"),
    (dict(kind="spatial", mass=1.0, inertia=[[1, 2, 0], [0, 1, 0], [0, 0, 1]]), "not symmetric"),
    (dict(kind="spatial", mass=1.0, inertia=np.eye(2)), "3x3"),
    (dict(kind="planar", mass=float("nan"), inertia=1.0), "mass is nan"),
    (dict(kind="cube", mass=1.0), "unknown kind"),
])
def test_bad_bodies(kwargs, msg):
    with pytest.raises(ModelError, match=msg):
        Body(name="b3", **kwargs)
