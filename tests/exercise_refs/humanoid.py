"""Reference solution and wrong answers for rfda_teach.exercises.humanoid (see __init__)."""

import numpy as np
from scipy.spatial.transform import Rotation


def _skew(a):
    x, y, z = a
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def free_flyer_vdot(quat, c, v, ydd):
    """vdot = A^{-1} (ydd - Adot v), A = diag(R, R) X_6(c): written with matrices, independently of
    the package's closed form."""
    R = Rotation.from_quat(quat).as_matrix()
    A = np.block([[R, -R @ _skew(c)], [np.zeros((3, 3)), R]])
    v_l, w_l = v[:3], v[3:]
    Adv = np.r_[R @ (_skew(w_l) @ v_l + _skew(w_l) @ _skew(w_l) @ c), np.zeros(3)]
    return np.linalg.solve(A, ydd - Adv)


def _without_wv(quat, c, v, ydd):
    out = free_flyer_vdot(quat, c, v, ydd)
    out[:3] += np.cross(v[3:], v[:3])
    return out


def _no_centripetal(quat, c, v, ydd):
    out = free_flyer_vdot(quat, c, v, ydd)
    out[:3] += np.cross(v[3:], np.cross(v[3:], c))
    return out


def _world_axes(quat, c, v, ydd):
    """R where R^T belongs, in every term that goes back to base axes."""
    R = Rotation.from_quat(quat).as_matrix()
    wd = R @ ydd[3:]
    w = v[3:]
    vd = R @ ydd[:3] - np.cross(wd, c) - np.cross(w, v[:3]) - np.cross(w, np.cross(w, c))
    return np.r_[vd, wd]


REFERENCE = {"free_flyer_vdot": free_flyer_vdot}
WRONG = [
    ("free_flyer_vdot", _without_wv, "subtract omega_l x v_l"),
    ("free_flyer_vdot", _no_centripetal, "centripetal"),
    ("free_flyer_vdot", _world_axes, "R^T, not R"),
]
