"""Time integration of the absolute-coordinate equations with scipy's solve_ivp, and an energy monitor.

The state is (y, ydot).  Positions advance by ydot except for Euler parameters,
whose rate is edot = 1/2 (0, omega) * e (quaternion product, omega in inertial
axes).  Accelerations come from :func:`rfda_teach.rfda.forward_dynamics` or the
dense D&G eq. (7).  A system with cut (loop-closing) joints (``system.cuts``) is a
closed mechanism, which the tree recursions do not solve: it runs on the dense
D&G eq. (7) with the cuts' rows appended (:func:`rfda_teach.dae.cut_rows`), and the
Baumgarte terms and :func:`project` cover the cuts' rows as well as the tree
joints'.  The Euler parameters are renormalised inside the right-hand side
(projection), so the |e| = 1 check of a state never fires mid-step.

:func:`span` and :func:`integrate` are the one integration driver of the package: every ``simulate``
(this module's, ``kane``, ``rcr``, ``refpoint``, ``loopref``, ``interop``) checks its end time, output
times and tolerances with :func:`span` and hands its own right-hand side to :func:`integrate`, which
guards the run and turns an integrator's failure into a ModelError; :class:`Motion` is the (t, q, qd)
record that ``refpoint`` and ``loopref`` share.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import models, simulate
>>> sys = models.planar_revolute_pair()
>>> st = models.random_state(sys, seed=0)
>>> sol = simulate.simulate(sys, st, 0.2)
>>> e = [simulate.energy(sys, s) for s in sol.states]
>>> bool(abs(e[-1] - e[0]) < 1e-7 * abs(e[0]))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy.integrate import solve_ivp

from . import _check, dae, rfda
from .bodies import mass_matrix
from .spatial import euler_params_rate
from .errors import ConstraintRankError, ModelError
from .summary import samples
from .system import (State, System, check_consistency, check_state, constraint_residuals, cut_residuals,
                     force_potential, terms)

__all__ = ["position_rate", "energy", "simulate", "Trajectory", "project", "residuals", "METHODS", "Span", "span",
           "Integration", "integrate", "Motion"]


def _system_arg(system, where: str) -> System:
    return _check.instance(system, System, "system", where=where,
                           hint="build one with rfda_teach.models or rfda_teach.system.System")


def position_rate(system: System, y: np.ndarray, yd: np.ndarray) -> np.ndarray:
    """dy/dt from the velocities: ydot itself, except edot = 1/2 (0, omega) * e = 1/2 E(e)^T omega
    for spatial bodies (omega global; :func:`rfda_teach.spatial.euler_params_rate`).


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.random_tree(1, kind="spatial", seed=0)
    >>> position_rate(sys, np.array([0, 0, 0, 1.0, 0, 0, 0]), np.array([1.0, 0, 0, 0, 0, 2.0]))
    array([1., 0., 0., 0., 0., 0., 1.])
    """
    where = "simulate.position_rate"
    system = _system_arg(system, where)
    y = _check.vector(y, system.n_pos, "y", where=where, hint="the stacked positions of every body")
    yd = _check.vector(yd, system.n_vel, "yd", where=where, hint="the stacked velocities of every body")
    return _position_rate(system, y, yd)


def _position_rate(system: System, y: np.ndarray, yd: np.ndarray) -> np.ndarray:
    if system.kind != "spatial":
        return yd.copy()
    out = np.zeros(system.n_pos)
    for ps, vs in zip(system.pos_slices, system.vel_slices):
        v, w = yd[vs][:3], yd[vs][3:]
        e = y[ps][3:]
        out[ps] = np.concatenate([v, euler_params_rate(e, w, check=False)])
    return out


def _normalise(system: System, y: np.ndarray) -> np.ndarray:
    """Project the Euler parameters on |e| = 1 (inside the integrator only: the initial state is
    checked against EULER_TOL by :func:`rfda_teach.system.check_state` first)."""
    if system.kind == "spatial":
        y = y.copy()
        for ps in system.pos_slices:
            e = y[ps][3:]
            y[ps.start + 3:ps.stop] = e / np.linalg.norm(e)
    return y


def energy(system: System, state) -> float:
    """Kinetic plus potential energy: sum of 1/2 ydot_i^T M_i ydot_i - m_i g . r_i over the bodies, plus
    1/2 k (L - L0)^2 over the springs of ``system.forces`` (:func:`rfda_teach.system.force_potential`).

    Without damping (c = 0), joint forces or ``f_ext`` the system is conservative and this total is
    constant along a motion; dampers (c > 0) only lower it.

    A sum over the bodies, so it holds for a closed system (``system.cuts``) as for a tree: ideal
    joints and cut joints do no work, and the total is conserved without applied forces.

    The state is checked first (shapes, NaN/inf, unit Euler parameters): a ModelError names
    the entry at fault.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.featherstone_sliders(m1=1.0, m2=1.0)
    >>> energy(sys, (np.array([0.0, 0.0, 0.0, 2.0]), np.array([1.0, 0.0, 1.0, 0.0])))   # 1/2 + 1/2 + 9.81*2
    20.62

    A bar hanging from a pin (mass centre 0.5 m below it), at rest, held by a zero-free-length spring of
    2 N/m from its mass centre to the pin, without gravity: V = 1/2 2 0.5^2.

    >>> from rfda_teach.forces import SpringDamper
    >>> from rfda_teach.system import System
    >>> bar = models.chain(1, gravity=[0.0, 0.0])
    >>> sprung = System(bar.parents, bar.bodies, bar.joints, bar.gravity, forces=(SpringDamper(0, -1, k=2.0),))
    >>> energy(sprung, (np.array([0.0, -0.5, np.pi / 2]), np.zeros(3)))
    0.25
    """
    system = _system_arg(system, "simulate.energy")
    y, yd = check_state(system, state)
    T = V = 0.0
    d = system.gravity.shape[0]
    for b, ps, vs in zip(system.bodies, system.pos_slices, system.vel_slices):
        M = mass_matrix(b, y[ps])
        T += 0.5 * yd[vs] @ M @ yd[vs]
        V -= b.mass * system.gravity @ y[ps][:d]
    return float(T + V + force_potential(system, (y, yd), check=False))


@dataclass(frozen=True, eq=False)
class Trajectory:
    """Times ``t`` and states (``y``, ``yd`` stacked by rows)."""

    t: np.ndarray
    y: np.ndarray
    yd: np.ndarray

    def __repr__(self) -> str:
        """One line: the samples, the time span and the shapes of y and ydot (rows are times).

        Examples
        --------
        >>> from rfda_teach import models
        >>> sys = models.chain(2)
        >>> simulate(sys, models.random_state(sys, seed=0), 0.1, n_out=11)
        Trajectory: 11 samples, t = 0 … 0.1 s, y (11, 6), yd (11, 6)
        """
        return f"Trajectory: {samples(self.t)}, y {np.shape(self.y)}, yd {np.shape(self.yd)}"

    @property
    def states(self):
        """The states as a list of :class:`~rfda_teach.system.State`."""
        return [State(a, b) for a, b in zip(self.y, self.yd)]


class Motion(NamedTuple):
    """A motion in a paper's own coordinates: times ``t`` (m,), coordinates ``q`` (m, n) and their rates
    ``qd`` (m, n), rows by time; the record that ``refpoint.Trajectory`` and ``loopref.RefResult`` share.

    Examples
    --------
    >>> Motion(np.linspace(0.0, 0.1, 3), np.zeros((3, 2)), np.zeros((3, 2)))
    Motion: 3 samples, t = 0 … 0.1 s, q (3, 2), qd (3, 2)
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray

    def __repr__(self) -> str:
        """One line, named after the record's class: the samples, the time span and the shapes of q and qdot.

        Examples
        --------
        >>> class RefResult(Motion):
        ...     __slots__ = ()
        >>> RefResult(np.array([0.0, 0.5]), np.zeros((2, 4)), np.zeros((2, 4)))
        RefResult: 2 samples, t = 0 … 0.5 s, q (2, 4), qd (2, 4)
        """
        return f"{type(self).__name__}: {samples(self.t)}, q {np.shape(self.q)}, qd {np.shape(self.qd)}"


def _tau(tau, system: System, where: str):
    if tau is None or callable(tau):
        return tau
    return _check.vector(tau, system.n_dof, "tau", where=where,
                         hint="one joint force per joint speed, or a callable tau(t, state)")


#: the methods of ``scipy.integrate.solve_ivp`` that :func:`integrate` accepts
METHODS = ("DOP853", "RK45", "Radau", "BDF", "LSODA")


@dataclass(frozen=True, eq=False)
class Span:
    """The checked options of one integration (:func:`span`): end time ``t_final`` (s), output times
    ``t_eval`` (None: the integrator's own steps), tolerances ``rtol``, ``atol`` and the solve_ivp ``method``."""

    t_final: float
    t_eval: np.ndarray | None
    rtol: float
    atol: float
    method: str


def span(t_final, *, t_eval=None, n_out: int | None = None, rtol: float = 1e-10, atol: float = 1e-10,
         method: str = "DOP853", where: str = "simulate.span") -> Span:
    """Check the options of an integration over [0, t_final] once, for :func:`integrate`.

    ``t_final`` must be finite and > 0; the output times are the integrator's steps (both
    ``t_eval`` and ``n_out`` None), the strictly increasing times ``t_eval`` inside [0, t_final], or
    ``n_out`` (>= 2) evenly spaced times ``np.linspace(0, t_final, n_out)``, never both;
    ``rtol``, ``atol`` > 0; ``method`` one of :data:`METHODS`.  A bad value raises a
    :class:`~rfda_teach.errors.ModelError` that starts with ``where`` (the caller's name).

    Examples
    --------
    >>> span(0.1, n_out=3).t_eval
    array([0.  , 0.05, 0.1 ])
    >>> span(1.0, t_eval=[0.0, 0.5], n_out=3, where="kane.simulate")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: kane.simulate: give t_eval or n_out, not both
    """
    t_final = _check.time_span(t_final, "t_final", where=where)
    if t_eval is not None and n_out is not None:
        raise ModelError(f"{where}: give t_eval or n_out, not both")
    if n_out is not None:
        t_eval = np.linspace(0.0, t_final, _check.positive_int(n_out, "n_out", where=where, minimum=2))
    else:
        t_eval = _check.t_eval(t_eval, t_final, where=where)
    rtol = _check.scalar(rtol, "rtol", where=where, positive=True)
    atol = _check.scalar(atol, "atol", where=where, positive=True)
    method = _check.choice(method, METHODS, "method", where=where)
    return Span(t_final, t_eval, rtol, atol, method)


class Integration(NamedTuple):
    """What :func:`integrate` returns: times ``t`` (m,), states ``x`` (m, n) by rows, and ``nfev``, the
    evaluations of the right-hand side."""

    t: np.ndarray
    x: np.ndarray
    nfev: int


def integrate(rhs, x0, span: Span, *, where: str = "simulate.integrate") -> Integration:
    """Integrate x' = rhs(t, x) from x(0) = ``x0`` over [0, span.t_final] with
    ``scipy.integrate.solve_ivp``: the one driver of every ``simulate`` of the package.

    ``span`` (from :func:`span`) holds the checked end time, output times, tolerances and method.
    :func:`rfda_teach._check.integration_guard` watches the run: a motion that blows up (an entry
    non-finite or beyond 1e8) or would need over a million evaluations raises a
    :class:`~rfda_teach.errors.ModelError` at once instead of running for minutes; the guard never
    changes a step.  An integrator that gives up (step size below round-off) raises a ModelError
    that names ``where``, the time reached and what to try.  Each module keeps its own right-hand
    side, coordinates and record; this function holds what they share.

    Examples
    --------
    >>> import numpy as np
    >>> run = integrate(lambda t, x: -x, [1.0, 2.0], span(1.0, n_out=3, rtol=1e-12, atol=1e-12))
    >>> run.t, run.x.shape
    (array([0. , 0.5, 1. ]), (3, 2))
    >>> bool(np.allclose(run.x[-1], np.exp(-1.0) * np.array([1.0, 2.0]), rtol=1e-10))
    True
    >>> integrate(lambda t, x: 1.0 / (1.0 - t), [0.0], span(2.0), where="demo")   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: demo: solve_ivp (DOP853) stopped at t = 1 s of 2 s: Required step size ...
    """
    if not callable(rhs):
        raise ModelError(f"{where}: rhs must be a function rhs(t, x) returning dx/dt, got {type(rhs).__name__}")
    span = _check.instance(span, Span, "span", where=where, hint="build it with rfda_teach.simulate.span(t_final, ...)")
    x0 = _check.vector(x0, None, "x0", where=where, hint="the initial state as one vector")
    guard = _check.integration_guard(span.t_final, where=where)   # no hang, no overflow
    reached = [0.0]

    def f(t, x):
        guard(x, t)
        return rhs(t, x)

    def watch(t, x):                                  # sees every accepted step, never fires
        reached[0] = t
        return guard.event(t, x)

    sol = solve_ivp(f, (0.0, span.t_final), x0, method=span.method, rtol=span.rtol, atol=span.atol,
                    t_eval=span.t_eval, events=watch)
    if not sol.success:
        raise ModelError(f"{where}: solve_ivp ({span.method}) stopped at t = {reached[0]:.6g} s of "
                         f"{span.t_final:g} s: {sol.message}; the motion is stiff or singular there: check the "
                         "model and the state near that time, loosen rtol/atol, shorten t_final, or use a stiff "
                         "method (Radau) where the function offers one")
    return Integration(sol.t, sol.y.T, int(sol.nfev))


def residuals(system: System, state, *, tr=None, check: bool = True) -> tuple:
    """(Phi, Phi_dot) of every constraint row of D&G eq. (7), the cut joints' included: the tree joints'
    (:func:`rfda_teach.system.constraint_residuals`) with the cut joints' below them
    (:func:`rfda_teach.system.cut_residuals`), in the row order of ``dae.forward_dynamics(...).C``.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.chain(2); phi, phi_dot = residuals(sys, models.random_state(sys, seed=0))
    >>> phi.shape, bool(np.abs(phi).max() < 1e-12)
    ((4,), True)
    """
    if check:
        system = _system_arg(system, "simulate.residuals")
        state = check_state(system, state)
    phi, phi_dot = constraint_residuals(system, state, tr=tr, check=False)
    if not system.cuts:
        return phi, phi_dot
    phi_x, phi_dot_x = cut_residuals(system, state, tr=tr, check=False)
    return np.concatenate([phi, phi_x]), np.concatenate([phi_dot, phi_dot_x])


def _solve_rows(A: np.ndarray, b: np.ndarray, system: System, where: str) -> np.ndarray:
    """Solve with C C^T or C M^-1 C^T; dependent constraint rows raise ConstraintRankError, not LinAlgError."""
    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        x = None
    if x is None or not np.all(np.isfinite(x)):
        raise ConstraintRankError(f"{where}: the constraint rows of system {system.name!r} (joints and cut joints) "
                                  "are dependent at this state, so the projection is not defined; "
                                  "dae.forward_dynamics at this state names the dependent rows")
    return x


def project(system: System, state, *, iterations: int = 3) -> State:
    """Project a state onto the constraint manifold: positions by Gauss-Newton steps
    y <- y + rate(-C^T (C C^T)^-1 Phi), velocities by the M-orthogonal projection
    ydot <- ydot - M^-1 C^T (C M^-1 C^T)^-1 C ydot (the smallest change in kinetic-energy norm).

    C is the constraint Jacobian of D&G eq. (7) and Phi the joints' position constraints
    (:func:`residuals`); ``rate`` maps a velocity-space correction to
    the positions (Euler parameters through their rate, then renormalised).  A closed system's cut
    joints are projected on with the tree joints: their rows C_x (the cut joint's G and Q in the
    columns of its child and parent, :func:`rfda_teach.dae.cut_rows`) and residuals Phi_x
    (:func:`rfda_teach.system.cut_residuals`) follow the joints' in C and Phi.  Dense, O(n^3): a
    teaching tool and a reference, used between integration intervals.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, simulate
    >>> from rfda_teach.system import constraint_residuals
    >>> sys = models.chain(3); st = models.random_state(sys, seed=0)
    >>> off = (st.y + 1e-3, st.yd + 1e-2)                       # off the manifold
    >>> phi, phi_dot = constraint_residuals(sys, simulate.project(sys, off))
    >>> bool(np.abs(phi).max() < 1e-12 and np.abs(phi_dot).max() < 1e-12)
    True

    A closed chain, the tip of the three bars pinned to the ground by a cut joint near it: a state of
    the open tree leaves the cut open; the projection closes it, the cut's rows with the joints'.

    >>> from rfda_teach.joints import Joint
    >>> from rfda_teach.system import Cut, System
    >>> st = models.state_from_joints(sys, [[-1.0], [1.0], [1.0]], [[0.5], [0.0], [-0.5]])
    >>> pin = Joint("revolute2d", parent_point=[0.5, 0.0], child_point=[2.1, 0.05])
    >>> loop = System(sys.parents, sys.bodies, sys.joints, sys.gravity, cuts=(Cut(2, -1, pin),))
    >>> phi, phi_dot = simulate.residuals(loop, simulate.project(loop, st, iterations=6))
    >>> phi.shape, bool(np.abs(phi).max() < 1e-12 and np.abs(phi_dot).max() < 1e-12)
    ((8,), True)
    """
    where = "simulate.project"
    system = _system_arg(system, where)
    iterations = _check.positive_int(iterations, "iterations", where=where, maximum=100)
    y, yd = check_state(system, state)
    nv = system.n_vel
    for _ in range(iterations):
        tr = terms(system, State(y, yd), check=False)
        phi, _ = residuals(system, (y, yd), tr=tr, check=False)
        C = dae.assemble_terms(system, tr)[0][nv:, :nv]            # the joints' rows, then the cuts' (C_x)
        dv = -C.T @ _solve_rows(C @ C.T, phi, system, where)
        y = _normalise(system, y + _position_rate(system, y, dv))
    tr = terms(system, State(y, yd), check=False)
    K = dae.assemble_terms(system, tr)[0]
    M, C = K[:nv, :nv], K[nv:, :nv]
    MiCt = np.linalg.solve(M, C.T)
    yd = yd - MiCt @ _solve_rows(C @ MiCt, C @ yd, system, where)
    return State(y, yd)


def _baumgarte(baumgarte, where: str):
    if baumgarte is None:
        return None
    try:
        alpha, beta = baumgarte
    except (TypeError, ValueError):
        raise ModelError(f"{where}: baumgarte must be None or a pair (alpha, beta) in 1/s, "
                         f"got {baumgarte!r}") from None
    return (_check.scalar(alpha, "baumgarte alpha", where=where, nonneg=True),
            _check.scalar(beta, "baumgarte beta", where=where, nonneg=True))


def _form(form, system: System, where: str) -> str:
    """The forward-dynamics form: given, or "featherstone" for a tree and "dense" for a system with cuts."""
    if form is None:
        return "dense" if system.cuts else "featherstone"
    form = _check.choice(form, ("lubich", "featherstone", "dense"), "form", where=where)
    if form != "dense" and system.cuts:
        raise ModelError(f"{where}: form={form!r} is a recursion for trees, but system {system.name!r} has "
                         f"{len(system.cuts)} cut joint(s) ({', '.join(c.name for c in system.cuts)}); that "
                         "algorithm needs a tree. Leave form out or give form='dense': D&G eq. (7) with the cuts' "
                         "rows, as rfda_teach.dae.forward_dynamics solves it")
    return form


def simulate(system: System, state, t_final: float, *, form: str | None = None, rtol: float = 1e-10,
             atol: float = 1e-10, t_eval=None, n_out: int | None = None, tau=None,
             check: bool = True, baumgarte=None) -> Trajectory:
    """Integrate the motion from ``state`` over [0, t_final] with solve_ivp (DOP853).

    ``form`` is "lubich", "featherstone" or "dense" (D&G eq. 7); left out (None) it is
    "featherstone" for a tree and "dense" for a system with cut joints (``system.cuts``): the
    recursions solve a tree only, and an explicit "lubich" or "featherstone" for a system with cuts
    raises ModelError.  ``tau`` is a constant
    joint-force vector of the tree joints or a callable tau(t, state).  Output at the integrator's steps,
    at the times ``t_eval``, or at ``n_out`` (>= 2) evenly spaced times.  With
    ``baumgarte=(alpha, beta)`` every joint's gamma_k becomes
    gamma_k - 2 alpha Phi_k' - beta^2 Phi_k (Baumgarte stabilisation of the drift of D&G eq. 7's
    index-1 form; Phi_k from :func:`rfda_teach.joints.Phi`), and so does every cut joint's
    gamma_x with its Phi_x (:func:`rfda_teach.system.cut_residuals`).

    The initial state is checked first: shapes of y and ydot, NaN/inf, Euler parameters
    of unit norm within :data:`~rfda_teach.bodies.EULER_TOL` (ModelError), and, unless
    ``check=False``, consistency with every joint (ConstraintViolationError naming the
    joint and the residual; for a system with cuts, the cut joint too).  Inside the integrator
    the Euler parameters are projected on |e| = 1.

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.chain(2)
    >>> traj = simulate(sys, models.random_state(sys, seed=0), 0.1, t_eval=[0.0, 0.05, 0.1])
    >>> traj.y.shape
    (3, 6)
    >>> simulate(sys, models.random_state(sys, seed=0), float("inf"))
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: simulate.simulate: t_final is inf; give a finite end time > 0 in seconds, e.g. t_final=2.0

    A closed chain, a four-bar: a cut joint pins the tip of the last of three bars to the ground.
    It runs on the dense D&G eq. (7) with the cut's rows; the loop stays closed and the energy constant:

    >>> import numpy as np
    >>> from rfda_teach.joints import Joint
    >>> from rfda_teach.system import Cut, System, cut_residuals
    >>> bars = models.chain(3)
    >>> start = models.state_from_joints(bars, [[-1.0], [1.0], [1.0]], [[0.0]] * 3)
    >>> x, y, phi = start.y[6:9]                              # bar 2: centre and angle
    >>> tip = [x + 0.5 * np.cos(phi), y + 0.5 * np.sin(phi)]   # its far end, where the ground pin goes
    >>> pin = Cut(2, -1, Joint("revolute2d", parent_point=[0.5, 0.0], child_point=tip), name="ground pin")
    >>> four = System(bars.parents, bars.bodies, bars.joints, bars.gravity, name="four-bar", cuts=(pin,))
    >>> traj = simulate(four, start, 0.5, n_out=6)            # form "dense", chosen for the cut
    >>> E = [energy(four, s) for s in traj.states]
    >>> bool(max(np.abs(cut_residuals(four, s)[0]).max() for s in traj.states) < 1e-8)
    True
    >>> bool(np.ptp(E) < 1e-8 * abs(E[0]))
    True
    """
    where = "simulate.simulate"
    system = _system_arg(system, where)
    options = span(t_final, t_eval=t_eval, n_out=n_out, rtol=rtol, atol=atol, where=where)
    form = _form(form, system, where)
    _check.instance(check, (bool, np.bool_), "check", where=where)
    stab = _baumgarte(baumgarte, where)
    tau = _tau(tau, system, where)
    y0, yd0 = check_state(system, state)              # shapes, NaN, |e| - 1 <= EULER_TOL (ModelError)
    if check:
        check_consistency(system, (y0, yd0))          # ConstraintViolationError naming joint and residual
    y0 = _normalise(system, y0)
    npos = system.n_pos

    def rhs(t, x):
        y = _normalise(system, x[:npos])
        yd = x[npos:]
        st = State(y, yd)
        if callable(tau):
            tq = _check.vector(_check.user_call(tau, (t, st), "tau(t, state)", where=where), system.n_dof,
                               "tau(t, state)", where=where, hint="the callable tau must return one joint force "
                               "per joint speed")
        else:
            tq = tau
        tr = terms(system, st, t, tau=tq, check=False)     # drift is the integrator's business
        if stab is not None:
            phi, phi_dot = residuals(system, (y, yd), tr=tr, check=False)     # joints', then cut joints'
            g = stab[1] ** 2 * phi + 2 * stab[0] * phi_dot
            tr = tr._replace(joint=[jt._replace(gamma=jt.gamma - g[cs])
                                    for jt, cs in zip(tr.joint, system.con_slices)],
                             cut=tuple(tc._replace(gamma=tc.gamma - g[cs])
                                       for tc, cs in zip(tr.cut, system.cut_slices)))
        ydd = dae.solve(system, tr).ydd if form == "dense" else rfda.solve(system, tr, form).ydd
        return np.concatenate([_position_rate(system, y, yd), ydd])

    run = integrate(rhs, np.concatenate([y0, yd0]), options, where=where)
    Y = np.array([_normalise(system, x) for x in run.x[:, :npos]])
    return Trajectory(run.t, Y, run.x[:, npos:])
