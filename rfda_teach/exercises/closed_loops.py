"""Questions and checkers of the book's ``closed_loops`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-rcr-never`` (b): the five-bar of :func:`rfda_teach.rcr.five_bar` is moved, with the
default ACS dependents (q2, q3, q5) solved at each step, until the set (q1, q2, q5) becomes
singular (det[a_1 a_2 a_5] changes sign; the root is found by bisection on q1); the answer is
the number of the bar that stands vertical there.

* ``check_acceleration_remainder(student_fn)`` (exercise ``ex-rcr-At``): A_t^k of C&A eq. (2)
  for a planar revolute or prismatic joint; reference: the child's mass centre differentiated
  twice in time.
* ``check_dependent_speeds(student_fn)`` (exercise ``ex-rcr-speeds``): the last three speeds
  of a loop by C&A eq. (33)-(36); reference: :func:`rfda_teach.rcr.dependent_velocities`.

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-rcr-never", None).passed
check_question ex-rcr-never: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from ..spatial import planar_cross, planar_rotation
from .checking import N_CASES, SEED, Case, CheckResult, options, run_cases
from .questions import question
from .slips import slip

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def _vertical_bar_when_singular(model=None, singular_set=("q1", "q2", "q5"), steps: int = 40) -> int:
    """The bar (1-based) standing vertical where ``singular_set`` loses rank along q1."""
    from .. import rcr

    fb = rcr.five_bar() if model is None else model
    cols = [fb.names.index(n) for n in singular_set]
    deps = fb.dependents

    def at(q1, guess):
        q = guess.copy()
        q[0] = q1
        return rcr.solve_dependents(fb, q, dependents=deps)

    def det(q):
        return np.linalg.det(rcr.closure_jacobian(fb, q)[:, cols])

    q_prev = fb.q0.copy()
    for q1 in np.linspace(fb.q0[0], fb.q0[0] - np.pi, steps + 1)[1:]:   # bar 1 swings down
        q = at(q1, q_prev)
        if np.sign(det(q)) != np.sign(det(q_prev)):
            guess = q_prev
            root = brentq(lambda a: det(at(a, guess)), q_prev[0], q1, xtol=1e-14)
            q_s = at(root, guess)
            angles = rcr.body_poses(fb, q_s)[:len(fb.bodies), 2]
            tilt = np.abs(np.cos(angles))              # 0 for a vertical bar
            if rcr.selection_sigma(fb, q_s, singular_set) > 1e-9 or np.sort(tilt)[1] < 1e-3:
                raise RuntimeError("exercises.closed_loops: no single vertical bar at the root")
            return int(np.argmin(tilt)) + 1
        q_prev = q
    raise RuntimeError("exercises.closed_loops: the set never became singular along the sweep")


@question("ex-rcr-never",
          hint="expand det[a_1 a_2 a_5] along the slider's column (0, 1, 0); "
               "which two joint points must then share x, and which bar joins them?",
          slips=[(lambda ref: ref + 1,
                  "off by one bar: you took the bar that starts at the second pivot; which "
                  "bar has both joint points of (a) at its ends?")])
def _ex_rcr_never():
    return _vertical_bar_when_singular()


# ----------------------------------------------------------------------------- ex-rcr-At: A_t of one joint

def _second_derivative(path, h: float = 0.02) -> np.ndarray:
    """d^2/dt^2 of ``path(t)`` at t = 0 by the central nine-point stencil (error of order h^8)."""
    c = np.array([-1 / 560, 8 / 315, -1 / 5, 8 / 5, -205 / 72, 8 / 5, -1 / 5, 8 / 315, -1 / 560])
    return sum(ci * np.asarray(path((i - 4) * h)) for i, ci in enumerate(c)) / h ** 2


def _remainder_reference(kind, At_p, w_p, c_p, c_k, u_k, axis) -> np.ndarray:
    """A_t^k from the motion itself: the parent turns at the constant rate w_p about its fixed
    mass centre, the joint rate u_k is constant (u-dot = 0), and the child's mass centre is
    differentiated twice in time; the parent's own remainder is moved to c_k by
    :func:`rfda_teach.rcr.shift_T`.  Independent of the closed form of the chapter."""
    from .. import rcr

    if kind == "revolute":
        o = np.asarray(axis, float)

        def path(t):                   # joint point on the parent, child turning at w_p + u_k
            return c_p + planar_rotation(w_p * t) @ (o - c_p) + planar_rotation((w_p + u_k) * t) @ (c_k - o)
    else:
        e = np.asarray(axis, float)

        def path(t):                   # slider along e, e fixed in the turning parent
            return c_p + planar_rotation(w_p * t) @ ((c_k - c_p) + u_k * t * e)
    own = np.r_[0.0, _second_derivative(path)]   # the angular part: omega_k is constant
    return rcr.shift_T(c_k - c_p) @ At_p + own


def _remainder_cases(n_cases: int, seed: int) -> list:
    from .. import rcr

    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n_cases):
        kind = ("revolute", "prismatic")[i % 2]
        At_p = rng.uniform(-2, 2, 3)
        w_p, u_k = rng.uniform(0.5, 2.5) * rng.choice([-1, 1]), rng.uniform(0.5, 2.5) * rng.choice([-1, 1])
        c_p, c_k = rng.uniform(-1, 1, 2), rng.uniform(-1, 1, 2)
        if kind == "revolute":
            axis = rng.uniform(-1, 1, 2)                          # the joint point o_k
        else:
            a = rng.uniform(-np.pi, np.pi)
            axis = np.array([np.cos(a), np.sin(a)])               # the unit vector e
        ref = _remainder_reference(kind, At_p, w_p, c_p, c_k, u_k, axis)
        shifted = rcr.shift_T(c_k - c_p) @ At_p
        unshifted = ((At_p + ref - shifted),
                     "shift the parent's remainder to the child's mass centre first: the "
                     "recursion starts from (S^k)^T A_t^p")
        if kind == "revolute":
            o = axis
            wrong = ((ref + np.r_[0.0, w_p ** 2 * (o - c_p)],
                      "the parent's centripetal term -omega_p^2 (o_k - c_p) is missing: the joint "
                      "point o_k rides on the turning parent"),
                     (ref + np.r_[0.0, ((w_p + u_k) ** 2 - u_k ** 2) * (c_k - o)],
                      "omega_k is the child's absolute angular velocity omega_p + u_k, not the "
                      "joint rate u_k"),
                     (ref + np.r_[0.0, (w_p ** 2 - (w_p + u_k) ** 2) * (c_k - o)
                                  + w_p ** 2 * (o - c_p)],
                      "a revolute child turns about its joint point o_k at omega_k: its term is "
                      "-omega_k^2 (c_k - o_k), the parent's is -omega_p^2 (o_k - c_p)"),
                     unshifted)
        else:
            e = axis
            cor = 2.0 * w_p * u_k * planar_cross(1.0, e)       # z x e: e turned by +90 degrees
            wrong = ((ref + np.r_[0.0, w_p ** 2 * (c_k - c_p)],
                      "the parent's centripetal term -omega_p^2 (c_k - c_p) is missing: the "
                      "slider rides on the turning parent"),
                     (ref - np.r_[0.0, cor / 2],
                      "the Coriolis term of a slider is 2 omega_p u_k e_perp: the factor 2 is "
                      "missing (one half from the turning rail, one from the moving point on it)"),
                     (ref - np.r_[0.0, 2 * cor],
                      "e_perp = (-e_y, e_x) is e turned by +90 degrees (counter-clockwise), "
                      "not (e_y, -e_x)"),
                     (ref - np.r_[0.0, cor],
                      "a slider on a turning parent has a Coriolis term 2 omega_p u_k e_perp"),
                     unshifted)
        what = ("revolute: kind str, At_p shape (3,), w_p float, c_p (2,), c_k (2,), u_k float, "
                "axis = joint point o_k (2,)" if kind == "revolute" else
                "prismatic: kind str, At_p shape (3,), w_p float, c_p (2,), c_k (2,), u_k float, "
                "axis = unit vector e (2,)")
        cases.append(Case((kind, At_p, float(w_p), c_p, c_k, float(u_k), axis), what, ref, wrong))
    return cases


def check_acceleration_remainder(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(kind, At_p, w_p, c_p, c_k, u_k, axis) -> A_t^k`` (shape (3,), the
    order (angular, x, y)): the velocity-product remainder of C&A eq. (2) of a body ``k`` on a
    planar ``kind = "revolute"`` joint (``axis`` is the joint point o_k) or ``"prismatic"`` joint
    (``axis`` is the unit vector e of the slide, fixed in the parent), from the parent's
    remainder ``At_p``, its angular velocity ``w_p``, both mass centres and the joint rate.

    Reference: the child's mass centre differentiated twice in time (nine-point stencil) in
    the motion with u-dot = 0 and the parent turning at ``w_p``, plus the parent's remainder
    shifted by :func:`rfda_teach.rcr.shift_T`.

    Examples
    --------
    >>> def stub(kind, At_p, w_p, c_p, c_k, u_k, axis):
    ...     raise NotImplementedError
    >>> check_acceleration_remainder(stub).passed
    check_acceleration_remainder: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_acceleration_remainder"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    return run_cases(name, student_fn, _remainder_cases(n_cases, seed))


__all__ += ["check_acceleration_remainder"]
CHECKERS["acceleration_remainder"] = check_acceleration_remainder


def _remainder_with(kind, At_p, w_p, c_p, c_k, u_k, axis, *, parent=1.0, coriolis=2.0, perp=1.0,
                    shift=True):
    """The closed form of the chapter with one of its terms altered (for the slips)."""
    from .. import rcr

    base = rcr.shift_T(c_k - c_p) @ At_p if shift else np.asarray(At_p, float)
    if kind == "revolute":
        o = np.asarray(axis)
        own = -parent * w_p ** 2 * (o - c_p) - (w_p + u_k) ** 2 * (c_k - o)
    else:
        e = np.asarray(axis)
        own = -parent * w_p ** 2 * (c_k - c_p) + coriolis * w_p * u_k * perp * planar_cross(1.0, e)
    return base + np.r_[0.0, own]


@slip("check_acceleration_remainder", "the parent's centripetal term forgotten", hint="parent's centripetal")
def _slip_no_parent_centripetal(*args):
    return _remainder_with(*args, parent=0.0)


@slip("check_acceleration_remainder", "the Coriolis factor 2 missing", hint="factor 2")
def _slip_coriolis_half(*args):
    return _remainder_with(*args, coriolis=1.0)


@slip("check_acceleration_remainder", "e_perp with the wrong sign", hint="e_perp = (-e_y, e_x)")
def _slip_perp_sign(*args):
    return _remainder_with(*args, perp=-1.0)


@slip("check_acceleration_remainder", "the parent's remainder not shifted", hint="shift the parent")
def _slip_unshifted(*args):
    return _remainder_with(*args, shift=False)


# ----------------------------------------------------------------------------- ex-rcr-speeds: C&A eq. (33)

def _speeds_with(A, u_ind, *, project=True, symmetric=True, outward=True):
    """C&A eq. (33)-(36) for the last three speeds, V_t = 0, with one step altered (for the slips)."""
    A = np.asarray(A, float)
    n = A.shape[1]
    p = n - 3
    Q, Rn, R = {}, {}, np.eye(3)
    for k in range(n - 1, p - 1, -1):                 # inward: Q^k, R^k from R^{k+1}
        a = A[:, k]
        Rk1 = R if project else np.eye(3)
        Rn[k] = Rk1
        Q[k] = 1.0 / (a @ Rk1 @ a)
        Ra = Rk1 @ a
        R = Rk1 - Q[k] * (np.outer(Ra, Ra) if symmetric else np.outer(Ra, a))
    u = np.r_[np.asarray(u_ind, float), np.zeros(3)]
    order = range(p, n) if outward else range(n - 1, p - 1, -1)
    for k in order:
        u[k] = -Q[k] * (A[:, k] @ Rn[k] @ (A[:, :k] @ u[:k]))
    return u[p:]


def _speeds_cases(n_cases: int, seed: int) -> list:
    from .. import rcr

    rng = np.random.default_rng(seed)
    makers = [(rcr.four_bar, "four-bar"), (lambda: rcr.loop_chain(5, seed=seed), "five-joint loop"),
              (lambda: rcr.loop_chain(6, seed=seed + 1), "six-joint loop")]
    cases = []
    for i in range(n_cases):
        make, label = makers[i % len(makers)]
        model = make()
        deps = tuple(model.names[d] for d in rcr.topology(model, "rcr").deps)
        q = rcr.solve_dependents(model, model.q0 + rng.uniform(-0.05, 0.05, model.n), dependents=deps)
        qd = rcr.dependent_velocities(model, q, rng.uniform(-1, 1, model.n), method="rcr")
        A = rcr.closure_jacobian(model, q)
        n = model.n
        u_ind = qd[:n - 3]
        args = (A, u_ind)
        wrong = ((_speeds_with(*args, project=False),
                  "eq. (33) projects with R^{k+1}: u_k = -Q^k a_k^T R^{k+1} [...], and Q^k of "
                  "eq. (34) is 1 / (a_k^T R^{k+1} a_k)"),
                 (_speeds_with(*args, symmetric=False),
                  "R^k must stay a symmetric projector: R^{k+1} - Q^k (R^{k+1} a_k)(R^{k+1} a_k)^T, "
                  "with R^{k+1} a_k on both sides (not a transposed factor)"),
                 (_speeds_with(*args, outward=False),
                  "Q^k and R^k go inward, from the last dependent; the speeds then go outward, "
                  "from the first dependent, since eq. (33) needs every u_j with j < k"))
        cases.append(Case(args, f"{label}: A 3x{n}, u_ind shape ({n - 3},)", qd[n - 3:], wrong))
    return cases


def check_dependent_speeds(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(A, u_ind) -> u_dep``: the last three speeds of a single planar loop
    based on the ground (so V_t = 0) by C&A eq. (33)-(36), from the closure Jacobian ``A`` (3 x n,
    column k is a_k) and the independent speeds ``u_ind`` (the first n - 3).

    Reference: :func:`rfda_teach.rcr.dependent_velocities` (method "rcr") on the four-bar and
    on five- and six-joint loops at assembled random configurations.

    Examples
    --------
    >>> def stub(A, u_ind):
    ...     raise NotImplementedError
    >>> check_dependent_speeds(stub).passed
    check_dependent_speeds: not implemented yet (fill in the function and run this cell again)
    False
    >>> check_dependent_speeds(_slip_no_projector).passed  # doctest: +ELLIPSIS
    check_dependent_speeds: not yet, case 1 of 40 (four-bar: A 3x4, u_ind shape (1,)): eq. (33) projects with R^{k+1}...
    False
    """
    name = "check_dependent_speeds"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    return run_cases(name, student_fn, _speeds_cases(n_cases, seed))


__all__ += ["check_dependent_speeds"]
CHECKERS["dependent_speeds"] = check_dependent_speeds


@slip("check_dependent_speeds", "R^{k+1} left out", hint="projects with R^{k+1}")
def _slip_no_projector(A, u_ind):
    return _speeds_with(A, u_ind, project=False)


@slip("check_dependent_speeds", "a transposed projector factor", hint="symmetric projector")
def _slip_transposed_projector(A, u_ind):
    return _speeds_with(A, u_ind, symmetric=False)


@slip("check_dependent_speeds", "the speeds solved inward", hint="outward")
def _slip_inward_speeds(A, u_ind):
    return _speeds_with(A, u_ind, outward=False)
