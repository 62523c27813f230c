"""Reference solutions and wrong answers for rfda_teach.exercises.seeing (see __init__)."""

import numpy as np


def _A(a):
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def pair_rfda_map(m_k, J_k, s_j, s_k, phi_j, phi_k, *, tilt=1.0, s_c=None,
                  phi_c=None):
    """T of eq. (48) by hand: g_k, D_k (eq. 36), A~_k (eq. 47), E~_k, S_k = -Q_k."""
    s_j, s_k = np.asarray(s_j, float), np.asarray(s_k, float)
    g = _A(phi_k + np.pi / 2) @ s_k                   # pin velocity per unit phi_k'
    D = np.r_[-g, 1.0]                                # eq. (36)
    At = tilt * m_k * g / (J_k + m_k * s_k @ s_k)     # eq. (47)
    Et = np.vstack([np.eye(2), np.zeros(2)]) + np.outer(D, At)   # eq. (43)
    # G_k E~_k = I, so S_k = -Q_k = [I_2, A(phi_j + pi/2) s'_j] (eq. 22)
    s_c = s_j if s_c is None else s_c
    phi_c = phi_j if phi_c is None else phi_c
    S = np.hstack([np.eye(2), (_A(phi_c + np.pi / 2) @ s_c)[:, None]])
    return np.block([[np.eye(3), np.zeros((3, 1))], [Et @ S, D[:, None]]])


REFERENCE = {"pair_rfda_map": pair_rfda_map}


def _untilted(m_k, J_k, s_j, s_k, phi_j, phi_k):
    return pair_rfda_map(m_k, J_k, s_j, s_k, phi_j, phi_k, tilt=0.0)


def _joint_angle(m_k, J_k, s_j, s_k, phi_j, phi_k):
    T = _untilted(m_k, J_k, s_j, s_k, phi_j, phi_k)
    T[3:, 2] += T[3:, 3]                  # body k turns with body j (eq. 20)
    return T


def _misprint(m_k, J_k, s_j, s_k, phi_j, phi_k):
    # the pivot moved through body k's offset and angle, as printed in §5.4.2
    return pair_rfda_map(m_k, J_k, s_j, s_k, phi_j, phi_k, s_c=np.asarray(s_k),
                         phi_c=phi_k)


WRONG = [
    ("pair_rfda_map", _untilted, "tilt"),
    ("pair_rfda_map", _joint_angle, "eq. (20)"),
    ("pair_rfda_map",
     lambda *a: pair_rfda_map(*a, tilt=-1.0), "sign of A~_k"),
    ("pair_rfda_map", _misprint, "errata entry 4"),
]
