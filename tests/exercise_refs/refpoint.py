"""Reference solutions and wrong answers for rfda_teach.exercises.refpoint (see __init__)."""

import numpy as np


def _skew(a):
    x, y, z = a
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def velocity_shift(Y, p_from, p_to):
    """(v + omega x (p_to - p_from), omega), written independently of the package."""
    Y = np.asarray(Y, dtype=float)
    return np.r_[Y[:3] + _skew(Y[3:]) @ (np.asarray(p_to) - np.asarray(p_from)), Y[3:]]


def sliding_transformation(p_i, p_j, r_j, Bv, Bw):
    """K&Y eq. (25) with the sliding columns B^v first."""
    Bv, Bw = np.reshape(Bv, (3, -1)), np.reshape(Bw, (3, -1))
    B1 = np.eye(6)
    B1[:3, 3:] = _skew(np.asarray(p_i) - np.asarray(p_j))
    B2 = np.zeros((6, Bv.shape[1] + Bw.shape[1]))
    B2[:3, :Bv.shape[1]] = Bv
    B2[:3, Bv.shape[1]:] = _skew(np.asarray(r_j) - np.asarray(p_j)) @ Bw
    B2[3:, Bv.shape[1]:] = Bw
    return B1, B2


REFERENCE = {"velocity_shift": velocity_shift, "sliding_transformation": sliding_transformation}


def _no_bv(p_i, p_j, r_j, Bv, Bw):
    B1, B2 = sliding_transformation(p_i, p_j, r_j, Bv, Bw)
    B2[:3, :np.shape(Bv)[1]] = 0.0
    return B1, B2


def _rotational_first(p_i, p_j, r_j, Bv, Bw):
    B1, B2 = sliding_transformation(p_i, p_j, r_j, Bv, Bw)
    return B1, np.roll(B2, -np.shape(Bv)[1], axis=1)


WRONG = [
    ("velocity_shift", lambda Y, a, b: velocity_shift(Y, b, a), "direction of the lever"),
    ("velocity_shift", lambda Y, a, b: np.asarray(Y, dtype=float), "depends on the point"),
    ("sliding_transformation", _no_bv, "sliding columns"),
    ("sliding_transformation", _rotational_first, "order of the columns"),
]
