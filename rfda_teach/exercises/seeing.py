"""Checkers and questions for the exercises of the book's ``seeing`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

* ``check_pair_rfda_map``: the velocity map T of D&G eq. (48) (exercise ``ex-seeing-impl``);
* question ``ex-seeing-misprint``: the rotation of body k in Fig. 5(c) per unit delta y_j3,
  at phi_j = 0.3 rad, theta_k = 2 rad (a number).
"""

from __future__ import annotations

import numpy as np

from ..spatial import planar_rotation
from .checking import Case, run_cases, N_CASES, SEED, options
from .questions import question
from .slips import slip

__all__: list = ["check_pair_rfda_map"]

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


_A = planar_rotation                   # A(phi) of D&G eq. (18): body axes to global axes


def _pair_T48(m_k, J_k, s_j, s_k, phi_j, phi_k):
    """T of D&G eq. (48) from the package: the pair of Fig. 3 built by :mod:`rfda_teach.models`,
    E_k, D_k by Appendix A, Method 2 and :func:`rfda_teach.coordinates.two_node`."""
    from .. import models
    from ..coordinates import appendix_a, method_2, two_node
    from ..system import terms
    pair = models.planar_revolute_pair(m_k=m_k, J_k=J_k, s_j=tuple(s_j), s_k=tuple(s_k))
    st = models.state_from_joints(pair, [np.array([0.3, -0.2, phi_j]), np.array([phi_k - phi_j])],
                                  [np.zeros(3), np.zeros(1)])
    tr = terms(pair, st)
    jt = tr.joint[1]
    E, D = appendix_a(jt.G, jt.G_d)[:2]
    Et, Dt, _ = method_2(tr.M[1], E, D)
    return two_node(tr.M[0], tr.M[1], jt.G, jt.Q, Et, Dt).T48, E, D, Et, jt.G, jt.Q


def _closed_T48(m_k, J_k, s_j, s_k, phi_j, phi_k, *, transposed=False, parallel_axis=True):
    """T of D&G eq. (48) written out (the docstring of :func:`check_pair_rfda_map`); the flags make
    two typical slips: the rotations transposed, the parallel-axis term m_k |s'_k|^2 forgotten."""
    def rot(angle):
        return _A(angle).T if transposed else _A(angle)
    s_j, s_k = np.asarray(s_j, dtype=float), np.asarray(s_k, dtype=float)
    g = rot(phi_k + np.pi / 2) @ s_k
    D = np.r_[-g, 1.0]
    At = m_k * g / (J_k + (m_k * s_k @ s_k if parallel_axis else 0.0))
    Et = np.vstack([np.eye(2), np.zeros(2)]) + np.outer(D, At)
    S = np.column_stack([np.eye(2), rot(phi_j + np.pi / 2) @ s_j])
    return np.block([[np.eye(3), np.zeros((3, 1))], [Et @ S, D[:, None]]])


def check_pair_rfda_map(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(m_k, J_k, s_j, s_k, phi_j, phi_k) -> T``: the 6x4 velocity map of the
    coordinates of RFDA of the planar revolute pair, D&G eq. (48),

        [ydot_j; ydot_k] = T [ydot_j; y~dot_kf],   T = [[I_3, 0], [E~_k S_k, D_k]],

    with, in the book's notation (revolute-pair chapter), g_k = A(phi_k + pi/2) s'_k,
    D_k = (-g_k, 1) (D&G eq. 36), A~_k = (alpha~, beta~) = m_k g_k^T / (J_k + m_k |s'_k|^2) (D&G eq. 47),
    E~_k = E_k + D_k A~_k (D&G eq. 43) and S_k = -(G_k E~_k)^-1 Q_k (D&G eq. 22) with
    G_k = [I_2 g_k], Q_k = [-I_2  -A(phi_j + pi/2) s'_j].  Each column is one displacement
    mode of Fig. 5.  ``s_j`` = s'_j^{P_j}, ``s_k`` = s'_k^{P_k} are shape (2,) arrays, angles in
    radians.  Reference: :func:`rfda_teach.coordinates.two_node` on
    :func:`rfda_teach.models.planar_revolute_pair`.

    Examples
    --------
    >>> import numpy as np
    >>> def my_function(*args):  # the stub of the exercise
    ...     raise NotImplementedError
    >>> check_pair_rfda_map(my_function).passed
    check_pair_rfda_map: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_pair_rfda_map"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n_cases):
        m_k = float(rng.uniform(0.5, 3.0))
        J_k = float(rng.uniform(0.05, 0.5))
        s_j = rng.normal(scale=0.5, size=2)
        s_k = rng.normal(scale=0.5, size=2)
        phi_j, phi_k = (float(a) for a in rng.uniform(-np.pi, np.pi, size=2))
        T, E, D, Et, G, Q = _pair_T48(m_k, J_k, s_j, s_k, phi_j, phi_k)
        S = -np.linalg.solve(G @ Et, Q)
        top = np.hstack([np.eye(3), np.zeros((3, 1))])

        def with_rows(Ek):
            return np.vstack([top, np.hstack([Ek, D])])

        # the joint-angle coordinates of D&G eq. (20): B_k = E_k S_k with no tilt, plus the
        # relative rotation (body k turns with body j)
        T20 = with_rows(E @ S + np.outer(D[:, 0], [0, 0, 1.0]))
        # the printed rotation of Fig. 5(c): body k's offset and angle (errata entry 4)
        printed = T.copy()
        al, be = (Et - E)[2] / D[2, 0]
        rot = (al * (-s_k[0] * np.sin(phi_k) - s_k[1] * np.cos(phi_k))
               + be * (s_k[0] * np.cos(phi_k) - s_k[1] * np.sin(phi_k)))
        printed[5, 2] = rot
        printed_all = printed.copy()
        # ... and the pivot moved through body k's offset too: mass centre = pivot - g_k rot
        printed_all[3:5, 2] = _A(phi_k + np.pi / 2) @ s_k + D[:2, 0] * rot
        wrong = ((with_rows(Et @ -S), "sign of S_k: eq. (22) has S_k = -(G_k E~_k)^-1 Q_k, so the "
                                      "pivot moves with body j"),
                 (with_rows(E @ S), "no tilt: body k must also turn, E~_k = E_k + D_k A~_k with A~_k "
                                    "of eq. (47)"),
                 (T20, "this is eq. (20), the joint-angle coordinates: in eq. (48) body k does not "
                       "turn with body j; its rotation comes from the tilt A~_k"),
                 (printed, "column 3 (delta phi_j): the pivot is moved by body j, so the rotation of "
                           "body k uses body j's offset s'_j and angle phi_j (errata entry 4)"),
                 (printed_all, "column 3 (delta phi_j): the pivot is moved by body j, so the rotation "
                               "of body k uses body j's offset s'_j and angle phi_j (errata entry 4)"),
                 (with_rows(Et @ S + np.outer(D[:, 0], [0, 0, 1.0])),
                  "the free column carries the extra rotation: with y~_kf held fixed, body k turns "
                  "only by A~_k times the pivot's displacement"),
                 (with_rows((E - (Et - E)) @ S), "sign of A~_k: eq. (42) has a minus sign, "
                                                 "A~_k = -(D^T M D)^-1 D^T M E"),
                 (_closed_T48(m_k, J_k, s_j, s_k, phi_j, phi_k, transposed=True),
                  "transposed rotation? A(phi) turns body axes into world axes: the offsets are "
                  "A(phi + pi/2) s', not A(phi + pi/2)^T s'"),
                 (_closed_T48(m_k, J_k, s_j, s_k, phi_j, phi_k, parallel_axis=False),
                  "parallel-axis term forgotten? the tilt of eq. (47) divides by body k's moment of "
                  "inertia about the pin, not about its mass centre"))
        cases.append(Case((m_k, J_k, s_j, s_k, phi_j, phi_k),
                          f"planar revolute pair {i + 1}: m_k, J_k scalars, s_j, s_k shape (2,), "
                          f"phi_j, phi_k angles in rad; T is 6x4", T, wrong))
    return run_cases(name, student_fn, cases)


CHECKERS["pair_rfda_map"] = check_pair_rfda_map


# ----------------------------------------------------------------------------- ex-seeing-misprint

def _T48_at(phi_j: float, theta_k: float) -> np.ndarray:
    """T of D&G eq. (48) of the chapter's pair (the defaults of models.planar_revolute_pair) at
    body j's angle phi_j and joint angle theta_k."""
    from .. import models
    from ..coordinates import appendix_a, method_2, two_node
    from ..system import terms
    pair = models.planar_revolute_pair()
    st = models.state_from_joints(pair, [np.array([0.0, 0.0, phi_j]), np.array([theta_k])],
                                  [np.zeros(3), np.zeros(1)])
    tr = terms(pair, st)
    jt = tr.joint[1]
    E, D = appendix_a(jt.G, jt.G_d)[:2]
    Et, Dt, _ = method_2(tr.M[1], E, D)
    return two_node(tr.M[0], tr.M[1], jt.G, jt.Q, Et, Dt).T48


def _printed_rotation(phi_j: float, theta_k: float) -> float:
    """The paper's expression for Fig. 5(c): the tilt times body k's offset and angle."""
    from .. import models
    pair = models.planar_revolute_pair()
    s_k = np.asarray(pair.joints[1].child_point, dtype=float)
    T = _T48_at(phi_j, theta_k)
    return float(T[5, :2] @ (_A(phi_j + theta_k + np.pi / 2) @ s_k))


@question("ex-seeing-misprint", rtol=1e-3, atol=1e-4,
          hint="in panel (c) body j turns; which body's offset and angle give the pivot's step? "
               "Body k then turns by alpha~ and beta~ (at phi_k = 2.3) times the pivot's x and "
               "y step",
          slips=[(lambda ref: _printed_rotation(0.3, 2.0),
                  "this is the printed expression, with body k's offset and angle: which body "
                  "moves the pivot in panel (c)?"),
                 (lambda ref: _T48_at(0.3, 1.0)[5, 2],
                  "alpha~ and beta~ change with phi_k: recompute them by eq. (47) at "
                  "phi_k = 2.3 rad, not at the chapter's 1.3 rad"),
                 (lambda ref: 1.0,
                  "that is Fig. 6(c), the joint-angle coordinates of eq. (20), where body k "
                  "turns with body j")])
def _ex_seeing_misprint():
    """Entry (6, 3) of T of D&G eq. (48) at phi_j = 0.3, theta_k = 2 (phi_k = 2.3)."""
    return float(_T48_at(0.3, 2.0)[5, 2])


# ----------------------------------------------------------------------------- typical slips

@slip("check_pair_rfda_map", "A(phi)^T for A(phi)", hint="transposed rotation")
def _slip_T48_transposed(m_k, J_k, s_j, s_k, phi_j, phi_k):
    return _closed_T48(m_k, J_k, s_j, s_k, phi_j, phi_k, transposed=True)


@slip("check_pair_rfda_map", "J_k for J_k + m_k |s'_k|^2 in the tilt", hint="parallel-axis term")
def _slip_T48_parallel_axis(m_k, J_k, s_j, s_k, phi_j, phi_k):
    return _closed_T48(m_k, J_k, s_j, s_k, phi_j, phi_k, parallel_axis=False)


@slip("check_pair_rfda_map", "no tilt: E_k for E~_k", hint="no tilt")
def _slip_T48_no_tilt(m_k, J_k, s_j, s_k, phi_j, phi_k):
    T = _closed_T48(m_k, J_k, s_j, s_k, phi_j, phi_k)
    g = _A(phi_k + np.pi / 2) @ np.asarray(s_k, dtype=float)
    S = np.column_stack([np.eye(2), _A(phi_j + np.pi / 2) @ np.asarray(s_j, dtype=float)])
    T[3:, :3] = np.vstack([np.eye(2), np.zeros(2)]) @ S
    return T
