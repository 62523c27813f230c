"""Reference solutions and wrong answers for rfda_teach.exercises.closed_loops (see __init__)."""

import numpy as np


def _perp(v):
    return np.array([-v[1], v[0]])


def acceleration_remainder(kind, At_p, w_p, c_p, c_k, u_k, axis):
    """A_t^k of the closed_loops chapter's display: the parent's remainder shifted to c_k plus
    the centripetal terms (and, for a slider, the Coriolis term 2 w_p u_k e_perp)."""
    c_p, c_k, axis = (np.asarray(v, float) for v in (c_p, c_k, axis))
    alpha = At_p[0]
    base = np.r_[alpha, At_p[1:] + alpha * _perp(c_k - c_p)]      # (S^k)^T A_t^p
    if kind == "revolute":
        own = -w_p ** 2 * (axis - c_p) - (w_p + u_k) ** 2 * (c_k - axis)
    else:
        own = -w_p ** 2 * (c_k - c_p) + 2.0 * w_p * u_k * _perp(axis)
    return base + np.r_[0.0, own]


def dependent_speeds(A, u_ind):
    """Eq. (33)-(36): Q^k, R^k inward from the last column, then the speeds outward."""
    A = np.asarray(A, float)
    n = A.shape[1]
    p = n - 3
    Q, Rn, R = {}, {}, np.eye(3)
    for k in range(n - 1, p - 1, -1):
        Ra = R @ A[:, k]
        Rn[k], Q[k] = R, 1.0 / (A[:, k] @ Ra)
        R = R - Q[k] * np.outer(Ra, Ra)
    u = np.r_[np.asarray(u_ind, float), np.zeros(3)]
    for k in range(p, n):
        u[k] = -Q[k] * (A[:, k] @ Rn[k] @ (A[:, :k] @ u[:k]))
    return u[p:]


REFERENCE = {"acceleration_remainder": acceleration_remainder, "dependent_speeds": dependent_speeds}


def _no_coriolis(kind, At_p, w_p, c_p, c_k, u_k, axis):
    out = acceleration_remainder(kind, At_p, w_p, c_p, c_k, u_k, axis)
    if kind != "revolute":
        out[1:] -= 2.0 * w_p * u_k * _perp(np.asarray(axis, float))
    return out


def _unprojected(A, u_ind):
    """Eq. (33) with R^{k+1} left out: each dependent from a^T of the bare constraint."""
    A = np.asarray(A, float)
    n = A.shape[1]
    u = np.r_[np.asarray(u_ind, float), np.zeros(3)]
    for k in range(n - 3, n):
        u[k] = -(A[:, k] @ (A[:, :k] @ u[:k])) / (A[:, k] @ A[:, k])
    return u[n - 3:]


WRONG = [
    ("acceleration_remainder",
     lambda kind, At_p, *rest: acceleration_remainder(kind, np.zeros(3), *rest) + At_p, "shift"),
    ("acceleration_remainder", _no_coriolis, "Coriolis"),
    ("dependent_speeds", _unprojected, "R^{k+1}"),
]
