"""A compiled fast path (numba) for the Featherstone / Bae-Haug form of the RFDA on spatial trees.

It implements exactly the equations of :mod:`rfda_teach.joints` (relative twist, constrained rows
Phi and free rows Psi, gamma, gamma_d), Appendix A (eq. 60-61: E, D, B, H and d = E gamma + D gamma_d)
and :mod:`rfda_teach.rfda` (eq. 11-12 leaves to root, eq. 5 root to leaves), with the per-model
constants packed once into arrays (:func:`compile_model`) and no allocation of Python objects in the
recursion.  The readable modules stay the reference: the tests check this path against them.
Forests (several bodies on the ground) need nothing special: the sweeps follow ``Topology.order``.
Every input is checked in Python before numba sees it (types, lengths, NaN/inf, unit Euler
parameters within ``bodies.EULER_TOL``), in a few array operations for the common, valid case.
Needs the optional extra ``fast`` (numba); without numba, :func:`available` is False.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import fastpath, models, rfda
>>> sys = models.random_tree(8, kind="spatial", seed=0)
>>> st = models.random_state(sys, seed=1)
>>> if fastpath.available():
...     fm = fastpath.compile_model(sys)
...     ok = np.allclose(fastpath.forward_dynamics(fm, st.y, st.yd), rfda.forward_dynamics(sys, st, form="featherstone").ydd)
... else:
...     ok = True
>>> ok
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

from . import _check
from .bodies import EULER_TOL
from .errors import ModelError
from .system import System

__all__ = ["available", "FastModel", "compile_model", "forward_dynamics", "joint_accelerations"]

try:                                                       # pragma: no cover - depends on the extra
    import numba
    _njit = numba.njit(cache=True, fastmath=False)
    _HAVE_NUMBA = True
except ImportError:                                        # pragma: no cover
    _HAVE_NUMBA = False

    def _njit(f):
        return f


def available() -> bool:
    """True when numba is installed and the fast path is compiled.

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    return _HAVE_NUMBA


@dataclass(frozen=True, eq=False)
class FastModel:
    """Per-model constants as arrays: parents, order, masses, body inertias, joint points and frames,
    the 6x6 row matrix [Phi; Psi] of every joint with its number of constrained rows and world flags,
    the joint-speed offsets, gravity."""

    parents: np.ndarray
    order: np.ndarray
    mass: np.ndarray
    Jb: np.ndarray
    cpt: np.ndarray
    ppt: np.ndarray
    pframe: np.ndarray
    rows: np.ndarray
    mc: np.ndarray
    world: np.ndarray
    ortho: np.ndarray
    dof_start: np.ndarray
    gravity: np.ndarray
    n_dof: int

    def __post_init__(self):
        where = "fastpath.FastModel"
        for f in fields(self)[:-1]:
            _check.instance(getattr(self, f.name), np.ndarray, f.name, where=where,
                            hint="build a FastModel with fastpath.compile_model(system)")
        n = self.parents.shape[0]
        shapes = {"parents": (n,), "order": (n,), "mass": (n,), "Jb": (n, 3, 3), "cpt": (n, 3), "ppt": (n, 3),
                  "pframe": (n, 3, 3), "rows": (n, 6, 6), "mc": (n,), "world": (n, 6), "ortho": (n,),
                  "dof_start": (n,), "gravity": (3,)}
        for name, shape in shapes.items():
            if getattr(self, name).shape != shape:
                raise ModelError(f"{where}: {name} has shape {getattr(self, name).shape}, not {shape} for {n} "
                                 "bodies; build a FastModel with fastpath.compile_model(system)")
        _check.positive_int(self.n_dof, "n_dof", where=where, minimum=0)


def compile_model(system: System) -> FastModel:
    """Pack a spatial :class:`~rfda_teach.system.System` into arrays for the fast path.

    Examples
    --------
    >>> from rfda_teach import fastpath, models
    >>> fm = fastpath.compile_model(models.figure1_tree("spatial"))
    >>> fm.rows.shape, int(fm.mc[0])
    ((13, 6, 6), 5)
    """
    _check.instance(system, System, "system", where="fastpath.compile_model",
                    hint="give a rfda_teach System, e.g. models.random_tree(5, kind='spatial')")
    if system.kind != "spatial":
        raise ModelError(f"the fast path handles spatial trees; system {system.name!r} is {system.kind}")
    n = system.n
    rows = np.zeros((n, 6, 6))
    world = np.zeros((n, 6), dtype=np.bool_)
    mc = np.zeros(n, dtype=np.int64)
    for k, jt in enumerate(system.joints):
        Phi, wflags, Psi = jt._rows
        m = Phi.shape[0]
        mc[k] = m
        rows[k, :m] = Phi
        rows[k, m:] = Psi
        world[k, :m] = wflags
    ortho = np.array([np.allclose(rows[k] @ rows[k].T, np.eye(6), atol=1e-14) for k in range(n)], dtype=np.bool_)
    return FastModel(
        parents=np.array(system.parents, dtype=np.int64),
        order=np.array(system.topology.order, dtype=np.int64),
        mass=np.array([b.mass for b in system.bodies]),
        Jb=np.array([b.J for b in system.bodies]),
        cpt=np.array([jt.child_point for jt in system.joints]),
        ppt=np.array([jt.parent_point for jt in system.joints]),
        pframe=np.array([jt.parent_frame for jt in system.joints]),
        rows=rows, mc=mc, world=world, ortho=ortho,
        dof_start=np.array([s.start for s in system.dof_slices], dtype=np.int64),
        gravity=np.array(system.gravity, float), n_dof=int(system.n_dof))


@_njit
def _quat_R(e):
    e0, e1, e2, e3 = e[0], e[1], e[2], e[3]
    R = np.empty((3, 3))
    R[0, 0] = e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3
    R[0, 1] = 2 * (e1 * e2 - e0 * e3)
    R[0, 2] = 2 * (e1 * e3 + e0 * e2)
    R[1, 0] = 2 * (e1 * e2 + e0 * e3)
    R[1, 1] = e0 * e0 - e1 * e1 + e2 * e2 - e3 * e3
    R[1, 2] = 2 * (e2 * e3 - e0 * e1)
    R[2, 0] = 2 * (e1 * e3 - e0 * e2)
    R[2, 1] = 2 * (e2 * e3 + e0 * e1)
    R[2, 2] = e0 * e0 - e1 * e1 - e2 * e2 + e3 * e3
    return R


@_njit
def _cross(a, b):
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


@_njit
def _skew(a):
    S = np.zeros((3, 3))
    S[0, 1], S[0, 2], S[1, 0], S[1, 2], S[2, 0], S[2, 1] = -a[2], a[1], a[2], -a[0], -a[1], a[0]
    return S


@_njit
def _fd(parents, order, mass, Jb, cpt, ppt, pframe, rows, mc, world, ortho, dof_start, gravity, y, yd, tau):
    n = parents.shape[0]
    qdd_all = np.zeros(tau.shape[0])
    Rs = np.empty((n, 3, 3))
    Mh = np.zeros((n, 6, 6))
    fh = np.zeros((n, 6))
    for i in range(n):                                               # eq. (6): M_i, f_i
        R = _quat_R(y[7 * i + 3:7 * i + 7])
        Rs[i] = R
        J = R @ Jb[i] @ R.T
        w = yd[6 * i + 3:6 * i + 6]
        for a in range(3):
            Mh[i, a, a] = mass[i]
            fh[i, a] = mass[i] * gravity[a]
        Mh[i, 3:, 3:] = J
        fh[i, 3:] = -_cross(w, J @ w)
    Bs = np.zeros((n, 6, 6))
    Hs = np.zeros((n, 6, 6))
    ds = np.zeros((n, 6))
    Es = np.zeros((n, 6, 6))
    nf = np.zeros(n, dtype=np.int64)
    for k in range(n):                                               # joints: eq. (1)-(3), (59)-(61)
        j = parents[k]
        Rk = Rs[k]
        rk = y[7 * k:7 * k + 3]
        vk = yd[6 * k:6 * k + 3]
        wk = yd[6 * k + 3:6 * k + 6]
        ak = Rk @ cpt[k]
        p = rk + ak
        if j < 0:
            Rj = np.eye(3)
            rj = np.zeros(3)
            vj = np.zeros(3)
            wj = np.zeros(3)
        else:
            Rj = Rs[j]
            rj = y[7 * j:7 * j + 3]
            vj = yd[6 * j:6 * j + 3]
            wj = yd[6 * j + 3:6 * j + 6]
        RJ = Rj @ pframe[k]
        Wk = np.zeros((6, 6))
        Wj = np.zeros((6, 6))
        for a in range(3):
            Wk[a, a] = 1.0
            Wj[a, a] = -1.0
            Wk[3 + a, 3 + a] = 1.0
            Wj[3 + a, 3 + a] = -1.0
        Wk[:3, 3:] = -_skew(ak)
        Wj[:3, 3:] = _skew(p - rj)
        pdot = vk + _cross(wk, ak)
        wlin = pdot - vj - _cross(wj, p - rj)
        wang = wk - wj
        kappa = np.zeros(6)
        kappa[:3] = _cross(wk, _cross(wk, ak)) - _cross(wj, pdot - vj)
        rho = np.zeros(6)
        rho[:3] = -_cross(wj, wlin)
        rho[3:] = -_cross(wj, wang)
        TJ = np.zeros((6, 6))
        TJ[:3, :3] = RJ.T
        TJ[3:, 3:] = RJ.T
        A = rows[k] @ TJ                                             # [C; D] rows in world axes
        kr = A @ (kappa + rho)
        gam = np.empty(6)
        m = mc[k]
        for r in range(6):
            if r < m and world[k, r]:
                A[r] = rows[k, r]
                gam[r] = -(rows[k, r] @ kappa)
            else:
                gam[r] = -kr[r]
        G = A @ Wk                                                   # [G; G_d]
        Q = A @ Wj                                                   # [Q; Q_d]
        if ortho[k]:                                                 # eq. (60): [G; G_d]^-1 = Wk^-1 A^T
            Wki = np.eye(6)
            Wki[:3, 3:] = _skew(ak)
            ED = np.ascontiguousarray(Wki @ np.ascontiguousarray(A.T))
        else:
            ED = np.ascontiguousarray(np.linalg.inv(G))
        Es[k] = ED
        nf[k] = 6 - m
        Hs[k, :, :6 - m] = ED[:, m:]                                 # H_k = D_k
        Bs[k] = -(ED @ Q)                                            # eq. (61): B = -(E Q + D Q_d)
        ds[k] = ED @ gam                                             # d = E gamma + D gamma_d
        if 6 - m > 0:
            fh[k] += G[m:].T @ tau[dof_start[k]:dof_start[k] + 6 - m]
            if j >= 0:
                fh[j] += Q[m:].T @ tau[dof_start[k]:dof_start[k] + 6 - m]
    Dinv = np.zeros((n, 6, 6))
    Us = np.zeros((n, 6, 6))
    for idx in range(n - 1, -1, -1):                                 # eq. (11)-(12), leaves to root
        k = order[idx]
        f = nf[k]
        j = parents[k]
        if f == 1:
            h = Hs[k, :, 0].copy()
            u = Mh[k] @ h
            Dinv[k, 0, 0] = 1.0 / (h @ u)
            Us[k, :, 0] = u
        elif f > 0:
            H = np.ascontiguousarray(Hs[k, :, :f])
            U = Mh[k] @ H
            Di = np.linalg.inv(np.ascontiguousarray(H.T) @ U)
            Dinv[k, :f, :f] = Di
            Us[k, :, :f] = U
        if j >= 0:
            r = fh[k] - Mh[k] @ ds[k]
            if f == 1:
                u = Us[k, :, 0].copy()
                di = Dinv[k, 0, 0]
                P = Mh[k] - di * np.outer(u, u)
                pr = r - u * (di * (Hs[k, :, 0].copy() @ r))
            elif f > 0:
                U = np.ascontiguousarray(Us[k, :, :f])
                Di = np.ascontiguousarray(Dinv[k, :f, :f])
                UT = np.ascontiguousarray(U.T)
                P = Mh[k] - U @ (Di @ UT)
                HT = np.ascontiguousarray(Hs[k, :, :f].T)
                pr = r - U @ (Di @ (HT @ r))
            else:
                P = Mh[k].copy()
                pr = r
            B = Bs[k]
            Mh[j] += B.T @ P @ B
            fh[j] += B.T @ pr
    ydd = np.zeros(6 * n)
    for idx in range(n):                                             # eq. (5), root to leaves
        k = order[idx]
        j = parents[k]
        a = ds[k].copy()
        if j >= 0:
            a += Bs[k] @ ydd[6 * j:6 * j + 6]
        f = nf[k]
        if f > 0:
            H = np.ascontiguousarray(Hs[k, :, :f])
            qdd = np.ascontiguousarray(Dinv[k, :f, :f]) @ (np.ascontiguousarray(H.T) @ (fh[k] - Mh[k] @ a))
            a = a + H @ qdd
            qdd_all[dof_start[k]:dof_start[k] + f] = qdd
        ydd[6 * k:6 * k + 6] = a
    return ydd, qdd_all


def forward_dynamics(fm: FastModel, y, yd, tau=None) -> np.ndarray:
    """Absolute accelerations yddot (the same as ``rfda.forward_dynamics(..., form="featherstone").ydd``).

    ``y``, ``yd`` are the stacked absolute state of :mod:`rfda_teach.system` and ``tau`` the joint forces
    (zero when None).  Bad input (a wrong length, NaN/inf, non-unit Euler parameters, not an array)
    raises a ModelError naming the argument before the compiled code runs.

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.chain(3, "spatial"); st = models.random_state(sys, seed=0)
    >>> forward_dynamics(compile_model(sys), st.y, st.yd).shape if available() else (18,)
    (18,)
    """
    return _run(fm, y, yd, tau, "fastpath.forward_dynamics")[0]


def joint_accelerations(fm: FastModel, y, yd, tau=None) -> np.ndarray:
    """Joint accelerations qddot (the same as ``rfda.forward_dynamics(...).qdd``).

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.chain(3, "spatial"); st = models.random_state(sys, seed=0)
    >>> joint_accelerations(compile_model(sys), st.y, st.yd).shape if available() else (3,)
    (3,)
    >>> y = st.y.copy(); y[3:7] = 0.0
    >>> joint_accelerations(compile_model(sys), y, st.yd)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: fastpath.joint_accelerations: body 0: Euler parameters y[3:7] have norm 0, not 1 (tolerance 1e-06); normalise them (e / |e|)
    """
    return _run(fm, y, yd, tau, "fastpath.joint_accelerations")[1]


_F64 = np.dtype(np.float64)
_W7 = np.array([0, 0, 0, 1.0, 1.0, 1.0, 1.0])      # picks |e|^2 of each body's 7 position entries
_TOL_SQ = (2 * EULER_TOL - EULER_TOL ** 2) ** 2     # || |e_i|^2 - 1 ||_2^2 below it: every | |e_i| - 1 | <= tol


def _inputs(fm, y, yd, tau, where):
    """(y, yd, tau) checked before numba sees them: a FastModel, float arrays of the right lengths, finite,
    unit Euler parameters.  The common case (float64 arrays, all good) costs a few array operations:
    NaN/inf anywhere spoils the sum of squares; then one product gives every |e_i|^2.  Anything else
    goes through the _check helpers, which name the argument and the entry."""
    if type(fm) is not FastModel:
        _check.instance(fm, FastModel, "fm", where=where, hint="build it with fastpath.compile_model(system)")
    n = fm.parents.shape[0]
    if tau is None:
        tau = np.zeros(fm.n_dof)
    if (type(y) is np.ndarray and type(yd) is np.ndarray and type(tau) is np.ndarray and y.dtype == _F64
            and yd.dtype == _F64 and tau.dtype == _F64 and y.shape == (7 * n,) and yd.shape == (6 * n,)
            and tau.shape == (fm.n_dof,)):
        if math.isfinite(y @ y + yd @ yd + tau @ tau):               # NaN/inf anywhere spoils the sum
            s = (y * y).reshape(n, 7) @ _W7
            s -= 1.0
            if s @ s <= _TOL_SQ:
                return y, yd, tau
    y = _check.vector(y, 7 * n, "y", where=where, hint=f"7 entries per body for {n} bodies: position, Euler parameters")
    yd = _check.vector(yd, 6 * n, "yd", where=where, hint=f"6 entries per body for {n} bodies: velocity, omega")
    tau = _check.vector(tau, fm.n_dof, "tau", where=where, hint="one joint force per joint speed")
    nrm = np.linalg.norm(y.reshape(n, 7)[:, 3:], axis=1)
    bad = np.abs(nrm - 1.0) > EULER_TOL
    if bad.any():
        i = int(np.argmax(bad))
        raise ModelError(f"{where}: body {i}: Euler parameters y[{7 * i + 3}:{7 * i + 7}] have norm "
                         f"{nrm[i]:.8g}, not 1 (tolerance {EULER_TOL}); normalise them (e / |e|)")
    return y, yd, tau


def _run(fm, y, yd, tau, where):
    y, yd, tau = _inputs(fm, y, yd, tau, where)
    if not _HAVE_NUMBA:                                        # pragma: no cover
        raise ModelError("the fast path needs numba: pip install numba (or the extra 'fast')")
    return _fd(fm.parents, fm.order, fm.mass, fm.Jb, fm.cpt, fm.ppt, fm.pframe, fm.rows, fm.mc, fm.world,
               fm.ortho, fm.dof_start, fm.gravity, y, yd, tau)
