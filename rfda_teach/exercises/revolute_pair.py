"""Questions and checkers of the book's ``revolute_pair`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

* ``check_pair_free_force``: f~_kf of D&G eq. (28) for the planar revolute pair at rest under
  gravity (exercise ``ex-pair-left-out``);
* ``check_m_hat_tilt``: the first block M_j + S_k^T M~_kc S_k of D&G eq. (28) built through the
  tilt of D&G eq. (42) (exercise ``ex-pair-impl``).
"""

from __future__ import annotations

import numpy as np

from ..spatial import planar_rotation
from .checking import Case, N_CASES, SEED, options, run_cases
from .questions import question  # noqa: F401  (registers the chapter's questions)
from .slips import slip

__all__: list = ["check_pair_free_force", "check_m_hat_tilt"]

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


_A = planar_rotation                   # A(phi) of D&G eq. (18): body axes to global axes


def _at_rest(m_k, s_k, phi_k):
    """The pair of Fig. 3 with body k's mass and pin offset, at rest at body angle phi_k."""
    from .. import models
    from ..system import terms
    pair = models.planar_revolute_pair(m_k=float(m_k), s_k=tuple(s_k))
    st = models.state_from_joints(pair, [np.zeros(3), np.array([float(phi_k)])],
                                  [np.zeros(3), np.zeros(1)])
    return terms(pair, st)


def _scalar(student_fn):
    """The student's f~_kf as a number: a scalar and a 1-entry array are both accepted."""
    def fn(*args):
        out = student_fn(*args)
        if out is None:
            return None
        try:
            a = np.asarray(out, dtype=float)
        except (TypeError, ValueError):
            return out
        return a.reshape(()) if a.size == 1 else a
    return fn


def check_pair_free_force(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(m_k, s_k, phi_k) -> f~_kf``: the generalised force of the free
    coordinate of the planar revolute pair (D&G eq. 28 with Method 2's E~_k and D~_k = D_k of
    D&G eq. 24) at a state of rest, gravity -m_k g along y the only applied force on body k.

    ``s_k`` = s'^{P_k}_k is the pin offset in body k's axes (shape (2,)), ``phi_k`` body k's
    angle in rad; the function's own default is g = 9.81.  At rest D&G eq. (64) has no velocity
    terms, so f~_kf = D_k^T f_k.  Reference: D_k of :func:`rfda_teach.coordinates.appendix_a`
    and f_k of :func:`rfda_teach.system.terms` on :func:`rfda_teach.models.planar_revolute_pair`.

    Examples
    --------
    >>> import numpy as np
    >>> def my_function(*args):  # the stub of the exercise
    ...     raise NotImplementedError
    >>> check_pair_free_force(my_function).passed
    check_pair_free_force: not implemented yet (fill in the function and run this cell again)
    False
    >>> check_pair_free_force(lambda m_k, s_k, phi_k, g=9.81: None).passed
    check_pair_free_force: not implemented yet (fill in the function and run this cell again)
    False
    """
    from ..coordinates import appendix_a
    name = "check_pair_free_force"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n_cases):
        m_k = float(rng.uniform(0.5, 3.0))
        s_k = rng.normal(scale=0.5, size=2)
        phi_k = float(rng.uniform(-3.0, 3.0))
        tr = _at_rest(m_k, s_k, phi_k)
        jt = tr.joint[1]
        D = appendix_a(jt.G, jt.G_d)[1]
        f = (D.T @ tr.f[1]).reshape(())                # D&G eq. (64), no velocity terms
        g = -tr.f[1][1] / m_k
        rho = _A(phi_k) @ s_k                           # mass centre to pin, world axes
        wrong = ((-f, "sign: the free coordinate turns body k counterclockwise about the pin, "
                      "and the mass centre sits at -rho from the pin (rho runs from the mass "
                      "centre to the pin)"),
                 (m_k * g * s_k[0], "s'_k is given in body k's axes: turn it into world axes "
                                    "with A(phi_k) before taking a component"),
                 (m_k * g * rho[1], "the lever arm of a vertical force: you took the other "
                                    "component of the offset"),
                 (-m_k * g * rho[1], "the lever arm of a vertical force: you took the other "
                                     "component of the offset"),
                 (g * rho[0], "the force of gravity on body k is m_k g: the mass is missing"))
        cases.append(Case((m_k, s_k, phi_k), f"pair {i + 1} at rest: m_k a number, s_k shape "
                                             f"(2,) in body axes, phi_k an angle in rad; "
                                             f"f~_kf is a number", f, wrong))
    return run_cases(name, _scalar(student_fn), cases)


CHECKERS["pair_free_force"] = check_pair_free_force


def check_m_hat_tilt(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(M_j, M_k, G_k, Q_k, E_k, D_k) -> M_hat_j``: the first block
    M_j + S_k^T M~_kc S_k of D&G eq. (28) for the planar revolute pair, through the tilt,

        A~_k = -(D_k^T M_k D_k)^-1 D_k^T M_k E_k      (D&G eq. 42)
        E~_k = E_k + D_k A~_k,  S_k = -(G_k E~_k)^-1 Q_k (D&G eq. 22),
        M~_kc = E~_k^T M_k E~_k,

    with E_k, D_k of Appendix A.  The cases are random pairs (masses, inertias, pin offsets)
    at random states; the reference is M_hat_j of D&G eq. (9),
    :func:`rfda_teach.rfda.forward_dynamics`.

    Examples
    --------
    >>> import numpy as np
    >>> def my_function(*args):  # the stub of the exercise
    ...     raise NotImplementedError
    >>> check_m_hat_tilt(my_function).passed
    check_m_hat_tilt: not implemented yet (fill in the function and run this cell again)
    False
    """
    from .. import models, rfda
    from ..coordinates import appendix_a
    from ..system import terms
    name = "check_m_hat_tilt"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n_cases):
        if i == 0:
            pair = models.planar_revolute_pair()       # the chapter's pair
        else:
            pair = models.planar_revolute_pair(
                m_j=float(rng.uniform(1.0, 3.0)), J_j=float(rng.uniform(0.2, 0.6)),
                m_k=float(rng.uniform(0.5, 3.0)), J_k=float(rng.uniform(0.05, 0.5)),
                s_j=tuple(rng.normal(scale=0.5, size=2)),
                s_k=tuple(rng.normal(scale=0.5, size=2)))
        st = models.random_state(pair, seed=int(rng.integers(0, 2 ** 31)))
        tr = terms(pair, st)
        jt = tr.joint[1]
        M_j, M_k = tr.M
        E, D = appendix_a(jt.G, jt.G_d)[:2]
        ref = rfda.forward_dynamics(pair, st).M_hat[0]

        def block(Et):
            S = -np.linalg.solve(jt.G @ Et, jt.Q)
            return S.T @ (Et.T @ M_k @ Et) @ S

        A_t = -np.linalg.solve(D.T @ M_k @ D, D.T @ M_k @ E)
        wrong = ((M_j + block(E), "no tilt: with E_k of Appendix A property 2 of §4 fails; "
                                  "tilt it by eq. (42) first"),
                 (M_j + block(E - D @ A_t), "sign of the tilt: check eq. (42) and "
                                            "E~_k = E_k + D_k A~_k"),
                 (block(E + D @ A_t), "the first block of eq. (28) starts with body j's own "
                                      "M_j"))
        cases.append(Case((M_j, M_k, jt.G, jt.Q, E, D),
                          f"planar revolute pair {i + 1}: M_j, M_k 3x3, G_k, Q_k 2x3, E_k 3x2, "
                          f"D_k 3x1; the answer is 3x3", ref, wrong))
    return run_cases(name, student_fn, cases)


CHECKERS["m_hat_tilt"] = check_m_hat_tilt


# ----------------------------------------------------------------------------- typical slips

@slip("check_pair_free_force", "the sign", hint="sign")
def _slip_free_force_sign(m_k, s_k, phi_k, g=9.81):
    return -m_k * g * (_A(phi_k) @ np.asarray(s_k))[0]


@slip("check_pair_free_force", "s'_k in body axes used as a world vector", hint="turn it into world axes")
def _slip_free_force_body_axes(m_k, s_k, phi_k, g=9.81):
    return m_k * g * np.asarray(s_k)[0]


@slip("check_pair_free_force", "the other component of the offset", hint="other component")
def _slip_free_force_component(m_k, s_k, phi_k, g=9.81):
    return m_k * g * (_A(phi_k) @ np.asarray(s_k))[1]


def _tilted(M_j, M_k, G_k, Q_k, E_k, D_k, tilt=1.0):
    A_t = -np.linalg.solve(D_k.T @ M_k @ D_k, D_k.T @ M_k @ E_k)
    Et = E_k + tilt * D_k @ A_t
    S = -np.linalg.solve(G_k @ Et, Q_k)
    return M_j + S.T @ (Et.T @ M_k @ Et) @ S


@slip("check_m_hat_tilt", "no tilt", hint="no tilt")
def _slip_m_hat_no_tilt(*args):
    return _tilted(*args, tilt=0.0)


@slip("check_m_hat_tilt", "the tilt's sign", hint="sign of the tilt")
def _slip_m_hat_tilt_sign(*args):
    return _tilted(*args, tilt=-1.0)


@slip("check_m_hat_tilt", "M_j left out", hint="body j's own")
def _slip_m_hat_no_Mj(M_j, *rest):
    return _tilted(np.zeros_like(M_j), *rest)
