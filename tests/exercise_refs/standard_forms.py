"""Reference solutions and wrong answers for rfda_teach.exercises.standard_forms (see __init__)."""

import numpy as np


def _appendix_a(G, G_d, Q, Q_d, gamma, gamma_d):
    ED = np.linalg.inv(np.vstack([G, G_d]))                 # eq. (60)
    E, D = ED[:, :G.shape[0]], ED[:, G.shape[0]:]
    return E, D, -(E @ Q + D @ Q_d), E @ gamma + D @ gamma_d  # eq. (61), (5)


def featherstone_step(M, f, G, G_d, Q, Q_d, gamma, gamma_d):
    """eq. (11)-(12) via B~_k = E~_k Q_k of Method 2 (Appendix C.3): B^T P M B = B~^T M B~."""
    E, D, B, d = _appendix_a(G, G_d, Q, Q_d, gamma, gamma_d)
    Et = E - D @ np.linalg.solve(D.T @ M @ D, D.T @ M @ E)  # eq. (43)
    Bt = Et @ Q                                             # eq. (67)
    return Bt.T @ M @ Bt, -Bt.T @ (f - M @ d)                # eq. (72), (74), C.3.3


def _no_velocity(M, f, G, G_d, Q, Q_d, gamma, gamma_d):
    dM, _ = featherstone_step(M, f, G, G_d, Q, Q_d, gamma, gamma_d)
    return dM, featherstone_step(M, f, G, G_d, Q, Q_d, 0 * gamma, 0 * gamma_d)[1]


def _b_plus(M, f, G, G_d, Q, Q_d, gamma, gamma_d):
    dM, df = featherstone_step(M, f, G, G_d, Q, Q_d, gamma, gamma_d)
    return dM, -df


def _no_projection(M, f, G, G_d, Q, Q_d, gamma, gamma_d):
    E, D, B, d = _appendix_a(G, G_d, Q, Q_d, gamma, gamma_d)
    return B.T @ M @ B, B.T @ (f - M @ d)


REFERENCE: dict = {"featherstone_step": featherstone_step}
WRONG: list = [
    ("featherstone_step", _no_velocity, "velocity term"),
    ("featherstone_step", _b_plus, "sign of B_k"),
    ("featherstone_step", _no_projection, "projection"),
]
