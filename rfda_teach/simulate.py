"""Time integration of the absolute-coordinate equations with scipy's solve_ivp, and an energy monitor.

The state is (y, ydot).  Positions advance by ydot except for Euler parameters,
whose rate is edot = 1/2 (0, omega) * e (quaternion product, omega in inertial
axes).  Accelerations come from :func:`rfda_teach.rfda.forward_dynamics` or the
dense eq. (7).  The Euler parameters are renormalised inside the right-hand
side (projection), so the |e| = 1 check of a state never fires mid-step.

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

import numpy as np
from scipy.integrate import solve_ivp

from . import dae, rfda
from .bodies import mass_matrix
from .errors import ModelError
from .system import State, System

__all__ = ["position_rate", "energy", "simulate", "Trajectory"]


def _quat_mul(a, b):
    a0, av = a[0], a[1:]
    b0, bv = b[0], b[1:]
    return np.concatenate([[a0 * b0 - av @ bv], a0 * bv + b0 * av + np.cross(av, bv)])


def position_rate(system: System, y: np.ndarray, yd: np.ndarray) -> np.ndarray:
    """dy/dt from the velocities: ydot itself, except edot = 1/2 (0, omega) * e for spatial bodies.


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.random_tree(1, kind="spatial", seed=0)
    >>> position_rate(sys, np.array([0, 0, 0, 1.0, 0, 0, 0]), np.array([1.0, 0, 0, 0, 0, 2.0]))
    array([1., 0., 0., 0., 0., 0., 1.])
    """
    if system.kind != "spatial":
        return yd.copy()
    out = np.zeros(system.n_pos)
    for ps, vs in zip(system.pos_slices, system.vel_slices):
        v, w = yd[vs][:3], yd[vs][3:]
        e = y[ps][3:]
        out[ps] = np.concatenate([v, 0.5 * _quat_mul(np.concatenate([[0.0], w]), e)])
    return out


def _normalise(system: System, y: np.ndarray) -> np.ndarray:
    if system.kind == "spatial":
        y = y.copy()
        for ps in system.pos_slices:
            e = y[ps][3:]
            y[ps.start + 3:ps.stop] = e / np.linalg.norm(e)
    return y


def energy(system: System, state) -> float:
    """Kinetic plus gravitational potential energy, sum of 1/2 ydot_i^T M_i ydot_i - m_i g . r_i.


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.featherstone_sliders(m1=1.0, m2=1.0)
    >>> energy(sys, (np.array([0.0, 0.0, 0.0, 2.0]), np.array([1.0, 0.0, 1.0, 0.0])))   # 1/2 + 1/2 + 9.81*2
    20.62
    """
    y, yd = state
    T = V = 0.0
    d = system.gravity.shape[0]
    for b, ps, vs in zip(system.bodies, system.pos_slices, system.vel_slices):
        M = mass_matrix(b, y[ps])
        T += 0.5 * yd[vs] @ M @ yd[vs]
        V -= b.mass * system.gravity @ y[ps][:d]
    return float(T + V)


@dataclass(frozen=True, eq=False)
class Trajectory:
    """Times ``t`` and states (``y``, ``yd`` stacked by rows)."""

    t: np.ndarray
    y: np.ndarray
    yd: np.ndarray

    @property
    def states(self):
        """The states as a list of :class:`~rfda_teach.system.State`."""
        return [State(a, b) for a, b in zip(self.y, self.yd)]


def simulate(system: System, state, t_final: float, *, form: str = "featherstone", rtol: float = 1e-10,
             atol: float = 1e-10, t_eval=None, tau=None) -> Trajectory:
    """Integrate the motion from ``state`` over [0, t_final] with solve_ivp (DOP853).

    ``form`` is "lubich", "featherstone" or "dense" (eq. 7).  ``tau`` is a constant
    joint-force vector or a callable tau(t, state).

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.chain(2)
    >>> traj = simulate(sys, models.random_state(sys, seed=0), 0.1, t_eval=[0.0, 0.05, 0.1])
    >>> traj.y.shape
    (3, 6)
    """
    if not np.isfinite(t_final) or t_final <= 0:
        raise ModelError(f"t_final = {t_final}; give a positive, finite duration")
    if form not in ("lubich", "featherstone", "dense"):
        raise ModelError(f"form={form!r}; use 'lubich', 'featherstone' or 'dense'")
    y0, yd0 = State(*map(lambda a: np.asarray(a, float), state))
    npos = system.n_pos

    def rhs(t, x):
        y = _normalise(system, x[:npos])
        yd = x[npos:]
        st = State(y, yd)
        tq = tau(t, st) if callable(tau) else tau
        if form == "dense":
            ydd = dae.forward_dynamics(system, st, t, tau=tq).ydd
        else:
            ydd = rfda.forward_dynamics(system, st, t, form=form, tau=tq).ydd
        return np.concatenate([position_rate(system, y, yd), ydd])

    sol = solve_ivp(rhs, (0.0, t_final), np.concatenate([y0, yd0]), method="DOP853", rtol=rtol, atol=atol,
                    t_eval=t_eval)
    if not sol.success:
        raise ModelError(f"integration failed: {sol.message}")
    Y = np.array([_normalise(system, x) for x in sol.y[:npos].T])
    return Trajectory(sol.t, Y, sol.y[npos:].T)
