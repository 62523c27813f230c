"""Reference solutions and wrong answers for rfda_teach.exercises.revolute_pair (see __init__)."""

import numpy as np


def _A(a):
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def pair_free_force(m_k, s_k, phi_k, g=9.81):
    """f~_kf = D_k^T f_k at rest: the torque of gravity about the pin, m_k g rho_x."""
    rho = _A(phi_k) @ np.asarray(s_k, float)        # mass centre to pin, world axes
    return m_k * g * rho[0]


def m_hat_tilt(M_j, M_k, G_k, Q_k, E_k, D_k, *, tilt=1.0, own=True):
    """M_j + S_k^T M~_kc S_k through the tilt of eq. (42)."""
    A = -tilt * np.linalg.solve(D_k.T @ M_k @ D_k, D_k.T @ M_k @ E_k)   # eq. (42)
    Et = E_k + D_k @ A                                                  # eq. (43)
    S = -np.linalg.solve(G_k @ Et, Q_k)                                 # eq. (22)
    return (M_j if own else 0.0) + S.T @ (Et.T @ M_k @ Et) @ S


REFERENCE = {"pair_free_force": pair_free_force, "m_hat_tilt": m_hat_tilt}

WRONG = [
    ("pair_free_force", lambda m, s, p, g=9.81: -pair_free_force(m, s, p, g), "sign"),
    ("pair_free_force", lambda m, s, p, g=9.81: np.array([m * g * s[0]]), "body k's axes"),
    ("pair_free_force", lambda m, s, p, g=9.81: m * g * (_A(p) @ s)[1], "other component"),
    ("pair_free_force", lambda m, s, p, g=9.81: g * (_A(p) @ s)[0], "mass is missing"),
    ("m_hat_tilt", lambda *a: m_hat_tilt(*a, tilt=0.0), "no tilt"),
    ("m_hat_tilt", lambda *a: m_hat_tilt(*a, tilt=-1.0), "sign of the tilt"),
    ("m_hat_tilt", lambda *a: m_hat_tilt(*a, own=False), "own M_j"),
]
