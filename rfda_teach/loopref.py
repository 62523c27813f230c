"""Two references for closed loops that share no code with :mod:`rfda_teach.rcr`.

* :func:`dae_accelerations` / :func:`dae_simulate`: the absolute-coordinate Lagrange-multiplier
  DAE of D&G eq. (7) (module :mod:`rfda_teach.dae`) for the loop as one :class:`~rfda_teach.system.System`
  (:func:`to_system`: the open chain, with the cut joint in ``cuts``), the cut joint's rows stabilised
  after Baumgarte (alpha, beta): C yddot = gamma - 2 alpha C ydot - beta^2 Phi.
* :func:`sympy_model` / :func:`sympy_simulate`: sympy.physics.mechanics' ``KanesMethod`` with
  configuration and velocity constraints and dependent speeds (the part AUTOLEV plays in §6).

Both read only the mechanism's data (bodies, joint geometry, q0, dependents) from :mod:`rfda_teach.loops`, the
mechanism record that :mod:`rfda_teach.rcr` reads too.  Input checks (types, shapes, NaN, states that do not
close the loop, within ``loops.CLOSURE_TOL`` = 1e-6) are the checks of :mod:`rfda_teach.loops`, the same
as in :mod:`rfda_teach.rcr`; every function that takes a state has ``check=True`` and
accepts ``check=False`` for inner loops.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import rcr, loopref
>>> fb = rcr.five_bar()
>>> qdd = loopref.dae_accelerations(fb, fb.q0, np.zeros(5))
>>> bool(np.allclose(qdd, rcr.accelerations(fb, fb.q0, np.zeros(5)), atol=1e-10))
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import scipy.linalg

from . import _check, dae, joints as _j, rfda, system as _s
from .models import state_from_joints
from .loops import LoopMechanism, LoopSeries, check_model, check_series_states, check_state
from .count import cholesky_count
from .errors import ConstraintRankError
from .simulate import Motion, integrate, span
from .spatial import planar_rotation
from .system import Cut, System

__all__ = ["open_chain", "to_system", "chain_state", "dae_accelerations", "dae_simulate", "sympy_model",
           "sympy_simulate",
           "RefResult", "series_tree", "series_dae_accelerations", "series_multiplier_accelerations",
           "multiplier_accelerations"]

_TYPE = {"revolute": "revolute2d", "prismatic": "prismatic2d"}


def _fjoint(jt):
    return _j.Joint(_TYPE[jt.kind], parent_point=jt.parent_point, child_point=jt.child_point,
                    parent_frame=jt.parent_angle, child_frame=jt.child_angle, name=jt.name)


def open_chain(model) -> tuple[System, _j.Joint]:
    """The foundation's tree (ground, bodies 1..n-1, joints 1..n-1) and the cut joint n.

    Examples
    --------
    >>> from rfda_teach import loops
    >>> sys, cut = open_chain(loops.five_bar())
    >>> sys.n, cut.type
    (4, 'prismatic2d')
    """
    return _open_chain(check_model(model, where="loopref.open_chain"))


@lru_cache(maxsize=32)
def _open_chain(model) -> tuple[System, _j.Joint]:
    nb = model.n - 1
    sys = System(tuple(range(-1, nb - 1)), tuple(model.bodies), tuple(_fjoint(jt) for jt in model.joints[:-1]),
                 tuple(model.gravity), name=f"{model.name} (open chain)")
    return sys, _fjoint(model.joints[-1])


def to_system(model) -> System:
    """The loop mechanism (or chain of loops) as one :class:`~rfda_teach.system.System`: the tree of
    :func:`open_chain` (or :func:`series_tree`) with every cut joint in ``cuts``
    (:class:`~rfda_teach.system.Cut`: parent the loop's last body, child its base body or the ground).
    :func:`rfda_teach.dae.forward_dynamics` of it is D&G eq. (7) of the closed mechanism.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import dae, loops, rcr
    >>> fb = loops.five_bar(); closed = to_system(fb)
    >>> closed.cuts[0].parent, closed.cuts[0].child, closed.cuts[0].joint.type
    (3, -1, 'prismatic2d')
    >>> res = dae.forward_dynamics(closed, chain_state(fb, fb.q0, np.zeros(5)))
    >>> res.lam.shape                                # 4 tree joints and the cut joint, 2 rows each
    (10,)
    """
    where = "loopref.to_system"
    _check.instance(model, (LoopMechanism, LoopSeries), "model", where=where,
                    hint="give a loop such as loops.five_bar() or a series such as loops.loop_series(3)")
    return _closed_chain(model) if isinstance(model, LoopMechanism) else _series_system(model)


@lru_cache(maxsize=32)
def _closed_chain(model) -> System:
    sys, cut = _open_chain(model)
    return System(sys.parents, sys.bodies, sys.joints, sys.gravity, name=model.name,
                  cuts=(Cut(sys.n - 1, -1, cut, name=cut.name),))


def _cut_coordinate(sys, st, tc):
    """The cut joint's q_n and qdot_n (the ground is its child): its relative angle or slide."""
    cut = sys.cuts[0].joint
    y_k = st.y[sys.pos_slices[sys.n - 1]]
    # relative pose of the ground's joint frame in the body's joint frame
    Rb = planar_rotation(y_k[2], check=False)
    RJ = Rb @ cut.parent_frame
    Rrel = RJ.T @ cut.child_frame
    if cut.type == "revolute2d":
        qn = np.arctan2(Rrel[1, 0], Rrel[0, 0])
    else:
        qn = (RJ.T @ (cut.child_point - y_k[:2] - Rb @ cut.parent_point))[0]
    return qn, (tc.Q_d @ st.yd[sys.vel_slices[sys.n - 1]])[0]


def chain_state(model, q, qd, *, check: bool = True):
    """The absolute-coordinate state of :func:`open_chain`'s bodies at joint coordinates (q, qd).

    (q, qd) must close the loop (``check``, as :func:`dae_accelerations`).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import loops
    >>> fb = loops.five_bar()
    >>> chain_state(fb, fb.q0, np.zeros(5)).y.shape    # bars 1-4, (x, y, phi) each
    (12,)
    """
    where = "loopref.chain_state"
    q, qd = check_state(model, q, qd, where=where, check=check)
    return _state(model, _open_chain(model)[0], q, qd)


def _state(model, sys, q, qd):
    nb = model.n - 1
    return state_from_joints(sys, [np.array([v]) for v in q[:nb]], [np.array([v]) for v in qd[:nb]],
                             check=False)


def dae_accelerations(model, q, qd, *, alpha: float = 0.0, beta: float = 0.0, check: bool = True) -> np.ndarray:
    """qddot of all n coordinates from D&G eq. (7) with the cut joint's rows (Baumgarte-stabilised).

    ``alpha``, ``beta`` >= 0 are the Baumgarte parameters (0: the exact index-1 form).  (q, qd) must
    close the loop within ``loops.CLOSURE_TOL`` = 1e-6 (positions; velocities relative to max(1, |qd|)),
    else :class:`~rfda_teach.errors.ConstraintViolationError`; ``check=False`` skips this O(n) check,
    e.g. inside an integrator whose Baumgarte terms pull a drifting state back.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import loops
    >>> fb = loops.five_bar(); qdd = dae_accelerations(fb, fb.q0, np.zeros(5))
    >>> bool(abs(qdd[4]) < 1e-12)                    # the sleeve on the horizontal guide does not move
    True
    """
    where = "loopref.dae_accelerations"
    q, qd = check_state(model, q, qd, where=where, check=check)
    alpha = _check.scalar(alpha, "alpha", where=where, nonneg=True)
    beta = _check.scalar(beta, "beta", where=where, nonneg=True)
    return _dae_accelerations(model, q, qd, alpha, beta)[0]


def _dae_accelerations(model, q, qd, alpha, beta):
    """(qddot, q_n, qdot_n): D&G eq. (7) with the cut rows, and the cut joint's coordinate and rate."""
    sys = _closed_chain(model)
    st = _state(model, sys, q, qd)
    tr = _s.terms(sys, st, check=False)          # the loop's closure was checked by the caller (or Baumgarte)
    Phi, Phi_dot = _s.cut_residuals(sys, st, tr=tr, check=False)
    tc = tr.cut[0]
    res = dae.solve(sys, tr._replace(cut=(tc._replace(gamma=tc.gamma - 2 * alpha * Phi_dot - beta ** 2 * Phi),)))
    qdd_tree = rfda.joint_accelerations(sys, tr, res.ydd)
    # qddot_n from the cut joint's driving row, differentiated: Q_d yddot + (velocity terms)
    qdd_n = (tc.Q_d @ res.ydd[sys.vel_slices[sys.n - 1]])[0] - tc.gamma_d[0]
    return np.concatenate([qdd_tree, [qdd_n]]), *_cut_coordinate(sys, st, tc)


class RefResult(Motion):
    """A reference trajectory: times, coordinates and rates of q1..qn (columns);
    :class:`rfda_teach.simulate.Motion`, printed as

    >>> from rfda_teach import loops
    >>> dae_simulate(loops.four_bar(), 0.05, n_out=3)
    RefResult: 3 samples, t = 0 … 0.05 s, q (3, 4), qd (3, 4)
    >>> RefResult._fields
    ('t', 'q', 'qd')
    """

    __slots__ = ()


def dae_simulate(model, t_final: float, *, q0=None, qd0=None, n_out: int = 301, alpha: float = 20.0,
                 beta: float = 20.0, rtol: float = 1e-11, atol: float = 1e-11, check: bool = True) -> RefResult:
    """Integrate the stabilised DAE: joint coordinates of the open chain, the cut joint from its rows.

    Starts from (q0, qd0) (default model.q0 and rest).  The cut joint's coordinate q_n is read from the
    geometry at every row; for a revolute cut joint its multiple of 2 pi follows q_n integrated from
    its rate, so the column is continuous in time and starts at q0[-1].  The start must close the loop
    within ``loops.CLOSURE_TOL`` = 1e-6 (else :class:`~rfda_teach.errors.ConstraintViolationError`);
    ``check=False`` accepts an open start, which the Baumgarte terms (``alpha``, ``beta`` >= 0) pull
    closed.

    Examples
    --------
    >>> from rfda_teach import loops
    >>> r = dae_simulate(loops.four_bar(), 0.05, n_out=3)
    >>> r.q.shape
    (3, 4)
    """
    where = "loopref.dae_simulate"
    check_model(model, where=where)
    n_out = _check.positive_int(n_out, "n_out", where=where, minimum=2)    # rows q1..qn: never the steps
    options = span(t_final, n_out=n_out, rtol=rtol, atol=atol, where=where)
    alpha = _check.scalar(alpha, "alpha", where=where, nonneg=True)
    beta = _check.scalar(beta, "beta", where=where, nonneg=True)
    q0, qd0 = check_state(model, model.q0 if q0 is None else q0,
                          np.zeros(model.n) if qd0 is None else qd0, check=check,
                          where=f"{where} (initial state q0, qd0)")
    sys = _closed_chain(model)
    nb = model.n - 1
    revolute = sys.cuts[0].joint.type == "revolute2d"

    def cut_coordinate(x):
        q = np.concatenate([x[:nb], [0.0]])
        qd = np.concatenate([x[nb:2 * nb], [0.0]])
        st = _state(model, sys, q, qd)
        qn, qdn = _cut_coordinate(sys, st, _s.terms(sys, st, check=False).cut[0])
        if revolute:                                  # the 2 pi branch nearest the integrated q_n
            qn += 2 * np.pi * np.round((x[-1] - qn) / (2 * np.pi))
        return qn, qdn

    def rhs(t, x):
        q = np.concatenate([x[:nb], [0.0]])
        qd = np.concatenate([x[nb:2 * nb], [0.0]])
        qdd, _, qdn = _dae_accelerations(model, q, qd, alpha, beta)
        return np.concatenate([x[nb:2 * nb], qdd[:nb], [qdn]])

    run = integrate(rhs, np.concatenate([q0[:nb], qd0[:nb], [q0[-1]]]), options, where=f"{where}({model.name!r})")
    Q = np.zeros((len(run.t), model.n))
    QD = np.zeros((len(run.t), model.n))
    for i, x in enumerate(run.x):
        Q[i, :nb], QD[i, :nb] = x[:nb], x[nb:2 * nb]
        Q[i, -1], QD[i, -1] = cut_coordinate(x)
    return RefResult(run.t, Q, QD)


# ----------------------------------------------------------------------------- sympy.physics.mechanics

def sympy_model(model):
    """KanesMethod for the loop: all n coordinates, dependents ``model.dependents``, three
    configuration constraints (the phantom frame at the ground frame) and their time derivatives
    as velocity constraints.  Returns (mass_matrix_full, forcing_full) lambdified in (q, u).

    Examples
    --------
    >>> from rfda_teach import loops
    >>> Mf, Ff = sympy_model(loops.four_bar())
    >>> import numpy as np
    >>> Mf(np.r_[loops.four_bar().q0, np.zeros(4)]).shape
    (8, 8)
    """
    return _sympy_model(check_model(model, where="loopref.sympy_model"))


_SYMPY_MODELS: dict = {}


def _sympy_model(model):
    """:func:`_build_sympy_model`, built once per loop geometry: the key holds every number the build
    reads, so two records of the same mechanism (each ``five_bar()`` call makes a new one) share it."""
    key = (model.n, tuple(model.names), tuple(model.dependents), tuple(float(g) for g in model.gravity),
           tuple((jt.kind, tuple(float(v) for v in jt.parent_point), tuple(float(v) for v in jt.child_point),
                  float(jt.parent_angle), float(jt.child_angle)) for jt in model.joints),
           tuple((float(b.mass), float(b.J[0, 0])) for b in model.bodies[:model.n - 1]))
    if key not in _SYMPY_MODELS:
        if len(_SYMPY_MODELS) >= 8:                       # a small cache, as lru_cache(maxsize=8) was
            _SYMPY_MODELS.pop(next(iter(_SYMPY_MODELS)))
        _SYMPY_MODELS[key] = _build_sympy_model(model)
    return _SYMPY_MODELS[key]


def _build_sympy_model(model):
    import sympy as sp
    from sympy.physics import mechanics as me

    n = model.n
    q = me.dynamicsymbols(f"q1:{n + 1}")
    u = me.dynamicsymbols(f"u1:{n + 1}")
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    g = [sp.Float(v) for v in model.gravity]

    def frame(p, a):
        c, s = sp.cos(a), sp.sin(a)
        return sp.Matrix([[c, -s, p[0]], [s, c, p[1]], [0, 0, 1]])

    def inv(T):
        R = T[:2, :2].T
        t = -R * T[:2, 2]
        return sp.Matrix([[R[0, 0], R[0, 1], t[0]], [R[1, 0], R[1, 1], t[1]], [0, 0, 1]])

    T = sp.eye(3)
    theta = sp.Integer(0)
    bodies, loads = [], []
    for k, jt in enumerate(model.joints):
        pp = [sp.Float(v) for v in jt.parent_point]
        cp = [sp.Float(v) for v in jt.child_point]
        if jt.kind == "revolute":
            Mq = frame([0, 0], q[k])
            theta = theta + q[k]
        else:
            Mq = frame([q[k], 0], 0)
        theta = theta + sp.Float(jt.parent_angle) - sp.Float(jt.child_angle)
        T = T * frame(pp, sp.Float(jt.parent_angle)) * Mq * inv(frame(cp, sp.Float(jt.child_angle)))
        if k < n - 1:
            b = model.bodies[k]
            A = N.orientnew(f"B{k + 1}", "Axis", [theta, N.z])
            P = O.locatenew(f"G{k + 1}", T[0, 2] * N.x + T[1, 2] * N.y)
            P.set_vel(N, P.pos_from(O).dt(N).subs({sp.diff(qi, me.dynamicsymbols._t): ui for qi, ui in zip(q, u)}))
            A.set_ang_vel(N, A.ang_vel_in(N).subs({sp.diff(qi, me.dynamicsymbols._t): ui for qi, ui in zip(q, u)}))
            I = me.inertia(A, 0, 0, float(b.J[0, 0]))
            bodies.append(me.RigidBody(f"bar{k + 1}", P, A, b.mass, (I, P)))
            loads.append((P, b.mass * (g[0] * N.x + g[1] * N.y)))
    ang0 = float(sum(jt.parent_angle - jt.child_angle for jt in model.joints))
    cfg = [T[0, 2], T[1, 2], theta - ang0]
    # the angle residual is linear in the revolute coordinates: theta - ang0 = sum(q_revolute)
    qd_sub = {sp.diff(qi, me.dynamicsymbols._t): ui for qi, ui in zip(q, u)}
    vel = [sp.diff(c, me.dynamicsymbols._t).subs(qd_sub) for c in cfg]
    deps = [model.names.index(d) for d in model.dependents]
    ind = [k for k in range(n) if k not in deps]
    kd = [sp.diff(q[k], me.dynamicsymbols._t) - u[k] for k in range(n)]
    KM = me.KanesMethod(N, q_ind=[q[k] for k in ind], u_ind=[u[k] for k in ind], kd_eqs=kd,
                        q_dependent=[q[k] for k in deps], configuration_constraints=cfg,
                        u_dependent=[u[k] for k in deps], velocity_constraints=vel)
    KM.kanes_equations(bodies, loads)
    # order the state as (q1..qn, u1..un) for the lambdified functions
    qs = [q[k] for k in ind] + [q[k] for k in deps]
    us = [u[k] for k in ind] + [u[k] for k in deps]
    x = list(q) + list(u)
    Mf = sp.lambdify(x, KM.mass_matrix_full, cse=True, modules="numpy")
    Ff = sp.lambdify(x, KM.forcing_full, cse=True, modules="numpy")
    order = np.array([list(q).index(s) for s in qs] + [n + list(u).index(s) for s in us])

    def M_fun(xv):
        return np.asarray(Mf(*np.asarray(xv, float)), float)

    def F_fun(xv):
        return np.asarray(Ff(*np.asarray(xv, float)), float).ravel()

    M_fun.order = order
    return M_fun, F_fun


def sympy_simulate(model, t_final: float, *, qd0=None, n_out: int = 301, rtol: float = 1e-11,
                   atol: float = 1e-11, check: bool = True) -> RefResult:
    """Integrate KanesMethod's full equations (all q, all u) from (model.q0, qd0).

    The start must close the loop within ``loops.CLOSURE_TOL`` = 1e-6 (else
    :class:`~rfda_teach.errors.ConstraintViolationError`); ``check=False`` skips the check.

    Examples
    --------
    >>> from rfda_teach import loops
    >>> r = sympy_simulate(loops.four_bar(), 0.05, n_out=3)
    >>> r.qd.shape
    (3, 4)
    """
    where = "loopref.sympy_simulate"
    check_model(model, where=where)
    n_out = _check.positive_int(n_out, "n_out", where=where, minimum=2)    # rows q1..qn: never the steps
    options = span(t_final, n_out=n_out, rtol=rtol, atol=atol, where=where)
    _, qd0 = check_state(model, model.q0, np.zeros(model.n) if qd0 is None else qd0, check=check,
                         where=f"{where} (initial state model.q0, qd0)")
    M_fun, F_fun = _sympy_model(model)
    order = M_fun.order
    n = model.n
    x0 = np.concatenate([model.q0, qd0])

    def rhs(t, xs):                       # xs in KanesMethod's order (independent first)
        x = np.empty(2 * n)
        x[order] = xs
        return np.linalg.solve(M_fun(x), F_fun(x))

    run = integrate(rhs, x0[order], options, where=f"{where}({model.name!r})")
    X = np.empty((len(run.t), 2 * n))
    X[:, order] = run.x
    return RefResult(run.t, X[:, :n], X[:, n:])


# ----------------------------------------------------------------------------- chains of coupled loops

def series_tree(series):
    """The foundation's tree of a :class:`rfda_teach.loops.LoopSeries` (every loop's open chain, each
    hung from its base body) and its cut joints as (joint, last body, base body or -1).

    Examples
    --------
    >>> from rfda_teach import loops
    >>> sys, cuts = series_tree(loops.loop_series(2))
    >>> sys.n, [(c[1], c[2]) for c in cuts]
    (6, [(2, -1), (5, 1)])
    """
    series = _check.instance(series, LoopSeries, "series", where="loopref.series_tree",
                             hint="build one with loops.loop_series(k)")
    return _series_tree(series), tuple((c.joint, c.parent, c.child) for c in _series_system(series).cuts)


@lru_cache(maxsize=32)
def _series_tree(series) -> System:
    """The tree of :func:`_series_system` without its cut joints (for the recursive algorithms)."""
    sx = _series_system(series)
    return System(sx.parents, sx.bodies, sx.joints, sx.gravity, name=sx.name)


@lru_cache(maxsize=32)
def _series_system(series) -> System:
    parents, bodies, joints, cuts, first = [], [], [], [], []
    for j, L in enumerate(series.loops):
        base = -1 if j == 0 else first[series.attach[j - 1][0]] + series.attach[j - 1][1] - 1
        first.append(len(bodies))
        for k, (b, jt) in enumerate(zip(L.bodies, L.joints[:-1])):
            parents.append(base if k == 0 else len(bodies) - 1)
            bodies.append(b)
            joints.append(_fjoint(jt))
        cut = _fjoint(L.joints[-1])
        cuts.append(Cut(len(bodies) - 1, base, cut, name=f"loop {j}: {cut.name}" if cut.name else ""))
    g = tuple(series.loops[0].gravity)
    return System(tuple(parents), tuple(bodies), tuple(joints), g, name=series.name, cuts=tuple(cuts))


def _series_state(series, sys, qs, qds):
    qt = [np.array([v]) for L, q in zip(series.loops, qs) for v in np.asarray(q, float)[:L.n - 1]]
    qdt = [np.array([v]) for L, qd in zip(series.loops, qds) for v in np.asarray(qd, float)[:L.n - 1]]
    return state_from_joints(sys, qt, qdt, check=False)


def _series_qdd(series, sx, tr, ydd):
    """Every loop's qddot: its tree joints', then its cut joint's from the differentiated driving row."""
    qdd_tree = rfda.joint_accelerations(sx, tr, ydd)
    out, pos = [], 0
    for L, cut, t in zip(series.loops, sx.cuts, tr.cut):
        acc = t.Q_d @ ydd[sx.vel_slices[cut.parent]] - t.gamma_d
        if cut.child >= 0:
            acc = acc + t.G_d @ ydd[sx.vel_slices[cut.child]]
        out.append(np.concatenate([qdd_tree[pos:pos + L.n - 1], acc]))
        pos += L.n - 1
    return out


def series_dae_accelerations(series, qs, qds, *, check: bool = True) -> list:
    """D&G eq. (7) for the whole chain of loops with every cut joint's rows appended, solved densely.

    Each loop's (q, qd) must close it within ``loops.CLOSURE_TOL`` = 1e-6 (else
    :class:`~rfda_teach.errors.ConstraintViolationError` naming the loop); ``check=False`` skips it.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import loops
    >>> s = loops.loop_series(2)
    >>> [a.shape for a in series_dae_accelerations(s, [l.q0 for l in s.loops], [np.zeros(4)] * 2)]
    [(4,), (4,)]
    """
    where = "loopref.series_dae_accelerations"
    qs, qds = check_series_states(series, qs, qds, where=where, check=check)
    sx = _series_system(series)
    st = _series_state(series, sx, qs, qds)
    tr = _s.terms(sx, st, check=False)           # each loop's closure was checked above (or check=False)
    return _series_qdd(series, sx, tr, dae.solve(sx, tr).ydd)


def series_multiplier_accelerations(series, qs, qds, *, check: bool = True) -> list:
    """The traditional "O(n)" constraint technique in absolute coordinates: the recursive RFDA of the
    cut tree (module :mod:`rfda_teach.rfda`) for the free motion and once per constraint row with a
    unit generalized force C_i^T, then the m x m system C Y lam = gamma - C yddot_free:
    O(n + n m + n m^2 + m^3).

    The RFDA runs in the Featherstone / Bae-Haug form, D&G eq. (11)-(12), which stays accurate at any mass
    ratio; the Lubich form's G_k M_hat_k^-1 G_k^T becomes ill-conditioned when light and heavy bodies
    alternate (1e6 : 1e-6 gives errors of order 1e3 relative).  The responses Y to the unit forces
    are computed from homogeneous terms (no gravity, no velocity terms), not as differences of two
    solutions.  Each loop's (q, qd) must close it within ``loops.CLOSURE_TOL`` = 1e-6 (else
    :class:`~rfda_teach.errors.ConstraintViolationError`); ``check=False`` skips the check.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import loops
    >>> s = loops.loop_series(2); qs = [l.q0 for l in s.loops]; qds = [np.zeros(4)] * 2
    >>> bool(all(np.allclose(a, b) for a, b in zip(series_multiplier_accelerations(s, qs, qds),
    ...                                             series_dae_accelerations(s, qs, qds))))
    True
    """
    where = "loopref.series_multiplier_accelerations"
    qs, qds = check_series_states(series, qs, qds, where=where, check=check)
    sx, sys = _series_system(series), _series_tree(series)
    st = _series_state(series, sx, qs, qds)
    trx = _s.terms(sx, st, check=False)          # each loop's closure was checked above (or check=False)
    C, g = dae.cut_rows(sx, trx)
    tr = trx._replace(cut=())                    # the tree's terms, for the RFDA
    free = rfda.solve(sys, tr, "featherstone").ydd
    homogeneous = [jt._replace(gamma=np.zeros_like(jt.gamma), gamma_d=np.zeros_like(jt.gamma_d))
                   for jt in tr.joint]
    Y = np.empty((sys.n_vel, C.shape[0]))
    for i, c in enumerate(C):                       # the response to the unit generalized force C_i^T
        tri = _s.Terms(tr.M, [c[vs] for vs in sys.vel_slices], homogeneous)
        Y[:, i] = rfda.solve(sys, tri, "featherstone").ydd
    try:
        lam = scipy.linalg.solve(C @ Y, g - C @ free)
    except np.linalg.LinAlgError as exc:
        raise ConstraintRankError(f"{where}: the cut joints' rows of {series.name!r} are dependent at this "
                                  "configuration (C Y singular): the loops are at a singular position; move "
                                  "away from it or use rcr.series_accelerations") from exc
    ydd = free + Y @ lam
    return _series_qdd(series, sx, trx, ydd)


@lru_cache(maxsize=32)
def _one_loop(model):
    return LoopSeries((model,), (), name=model.name)


def multiplier_accelerations(model, q, qd, *, check: bool = True) -> np.ndarray:
    """The cut-joint multiplier technique (:func:`series_multiplier_accelerations`) for one loop.

    Built on the Featherstone form of the RFDA, so it agrees with :func:`dae_accelerations` and
    :func:`rfda_teach.rcr.accelerations` also at extreme mass ratios.  (q, qd) must close the loop
    within ``loops.CLOSURE_TOL`` = 1e-6 (else :class:`~rfda_teach.errors.ConstraintViolationError`);
    ``check=False`` skips this O(n) check.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import loops
    >>> fb = loops.five_bar()
    >>> bool(np.allclose(multiplier_accelerations(fb, fb.q0, np.zeros(5)), dae_accelerations(fb, fb.q0, np.zeros(5))))
    True
    """
    where = "loopref.multiplier_accelerations"
    q, qd = check_state(model, q, qd, where=where, check=check)
    return series_multiplier_accelerations(_one_loop(model), [q], [qd], check=False)[0]


# ----------------------------------------------------------------------------- counted multiplications

def count_multiplications(model, *, bound: str = "implemented") -> int:
    """Scalar multiplications of one evaluation of the multiplier technique
    (:func:`series_multiplier_accelerations`), counted the way :func:`rfda_teach.rcr.count_multiplications`
    counts RCR, so the two can be plotted together.

    The Featherstone RFDA of the cut tree is counted by :func:`rfda_teach.jointspace.count_multiplications`
    (Appendix A, both sweeps; its multiplier step is not needed here).  The m constraint rows then
    cost, with ``N`` velocities and ``nnz(C)`` the non-zeros of the cut-joint rows C:

    * ``bound="implemented"``: what the code does, m + 1 complete tree solves (the unit responses
      recompute M-hat), then C Y and C yddot_free (nnz(C) (m + 1)), a Cholesky factor and solve of
      the m x m matrix C Y (m(m-1)(m+1)/6 + m(m-1)/2 + m^2) and yddot = yddot_free + Y lam (N m);
    * ``bound="lower"``: a lower bound for any implementation that reuses the factored M-hat:
      one complete tree solve, plus only the root-to-leaves sweep for each of the m unit responses
      (their leaves-to-root force sweep is left out, so the true cost is higher), plus the same
      C Y, Cholesky and N m terms.

    Works for a :class:`rfda_teach.loops.LoopMechanism` and a :class:`rfda_teach.loops.LoopSeries`.
    The count does not depend on the state.

    Examples
    --------
    >>> from rfda_teach import loops
    >>> c1, c2, c3 = (count_multiplications(loops.loop_series(k)) for k in (1, 2, 3))
    >>> (c3 - c2) > (c2 - c1)                    # grows faster than linearly in the loops
    True
    >>> count_multiplications(loops.loop_series(3), bound="lower") < c3
    True
    """
    from . import jointspace
    where = "loopref.count_multiplications"
    _check.instance(model, (LoopMechanism, LoopSeries), "model", where=where,
                    hint="give a loop such as loops.five_bar() or a series such as loops.loop_series(3)")
    bound = _check.choice(bound, ("implemented", "lower"), "bound", where=where)
    series = model if isinstance(model, LoopSeries) else _one_loop(model)
    sx, sys = _series_system(series), _series_tree(series)
    st = _series_state(series, sys, [L.q0 for L in series.loops], [np.zeros(L.n) for L in series.loops])
    steps = jointspace.count_multiplications(sys, "featherstone", state=st, by_step=True)
    full = sum(v for k, v in steps.items() if k != "multipliers")
    C = dae.cut_rows(sx, _s.terms(sx, st, check=False))[0]
    m, N, nnz = C.shape[0], sys.n_vel, int(np.count_nonzero(C))
    rows = m * full if bound == "implemented" else m * steps["featherstone root-to-leaves"]
    small = nnz * (m + 1) + cholesky_count(m) + m * m + N * m
    return int(full + rows + small)


__all__ += ["count_multiplications"]
