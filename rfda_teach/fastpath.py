"""A compiled fast path (numba) for the Featherstone / Bae-Haug form of the RFDA on spatial trees.

It implements exactly the equations of :mod:`rfda_teach.joints` (relative twist, constrained rows
Phi and free rows Psi, gamma, gamma_d), Appendix A (D&G eq. 60-61: E, D, B, H and d = E gamma + D gamma_d)
and :mod:`rfda_teach.rfda` (D&G eq. 11-12 leaves to root, D&G eq. 5 root to leaves), with the per-model
constants packed once into arrays (:func:`compile_model`), written as plain loops over 3- and 6-vectors
(no BLAS call and no allocation per body: numba's ``@`` on tiny matrices costs more than the arithmetic).
``_pin_fd`` compiles the whole path of ``interop.forward_dynamics(..., form="fast")``: Pinocchio's
(q, v, tau) -> forward kinematics -> the absolute state -> tau in the package's joint speeds -> the
recursion -> q-ddot in Pinocchio's conventions, the same steps as the readable ``interop`` code.  The
readable modules stay the reference: the tests check this path against them (1e-10).  The kernels are
compiled once per machine and cached on disk (numba ``cache=True``, in ``__pycache__``); inputs are
converted to contiguous, writeable float64 arrays first, so each kernel has exactly one compiled signature.
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
from .system import System, require_tree
from .tree import Topology

__all__ = ["available", "FastModel", "compile_model", "forward_dynamics", "joint_accelerations",
           "pack_pinocchio", "pinocchio_forward_dynamics"]

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
    the joint-speed offsets, gravity.  Validated (shapes, finite, a tree visited parents first,
    positive masses and inertias) and read-only: ``fm.mass[0] = 1e6`` raises ``ValueError``, so no
    later result can depend on an edit made in between.

    Examples
    --------
    >>> from rfda_teach import fastpath, models
    >>> fm = fastpath.compile_model(models.random_tree(3, kind="spatial", seed=0))
    >>> fm.mass.flags.writeable
    False
    """

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
        for f in fields(self)[:-1]:
            a = getattr(self, f.name)
            if a.dtype.kind == "f" and not np.isfinite(a).all():
                raise ModelError(f"{where}: {f.name} has NaN or inf; build a FastModel with "
                                 "fastpath.compile_model(system)")
        Topology.from_parents(self.parents.tolist())        # no cycle, no unknown parent
        seen = np.zeros(n, dtype=bool)
        if sorted(self.order.tolist()) != list(range(n)):
            raise ModelError(f"{where}: order must be a permutation of the {n} bodies, got {self.order}")
        for k in self.order:                                 # a parent before each of its children
            if self.parents[k] >= 0 and not seen[self.parents[k]]:
                raise ModelError(f"{where}: order visits body {k} before its parent {self.parents[k]}; "
                                 "order must list parents first (compile_model does)")
            seen[k] = True
        if not (self.mass > 0).all():
            raise ModelError(f"{where}: mass {self.mass[self.mass <= 0]} is not positive at bodies "
                             f"{np.nonzero(self.mass <= 0)[0].tolist()}; give every body a mass > 0")
        if not all(np.linalg.eigvalsh(0.5 * (J + J.T)).min() > 0 for J in self.Jb):
            raise ModelError(f"{where}: Jb holds an inertia that is not positive definite")
        if not ((self.mc >= 0) & (self.mc <= 6)).all() or self.n_dof != int((6 - self.mc).sum()):
            raise ModelError(f"{where}: mc must count 0..6 constrained rows per joint with n_dof = "
                             f"sum(6 - mc) = {int((6 - self.mc).sum())}, got n_dof {self.n_dof}")
        for f in fields(self)[:-1]:                          # read-only: one model, one meaning
            a = np.array(getattr(self, f.name))
            a.flags.writeable = False
            object.__setattr__(self, f.name, a)


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
    require_tree(system, "fastpath.compile_model")  # a cut joint's rows are not in its kernel
    if system.forces:                                # its kernel computes f from gravity and gyroscopic terms only
        raise ModelError(f"fastpath.compile_model: system {system.name!r} has {len(system.forces)} force element(s) "
                         f"({', '.join(e.name for e in system.forces)}), which the fast path does not compute; use "
                         "rfda.forward_dynamics(system, state, form='featherstone')")
    n = system.n
    rows = np.zeros((n, 6, 6))
    world = np.zeros((n, 6), dtype=np.int64)    # 0/1 flags as int64, as packed for Pinocchio (_pack_pin):
    mc = np.zeros(n, dtype=np.int64)              # both paths then call one compiled _core
    for k, jt in enumerate(system.joints):
        if jt.type == "universal":                  # its rows turn with the cross: not one constant table
            raise ModelError(f"fastpath.compile_model: joint {k} ({jt.name!r}) of system {system.name!r} is a "
                             "universal joint, whose rows act in the frame of its cross, which the fast path "
                             "does not have; use the readable Featherstone form: rfda.forward_dynamics(system, state, "
                             "form='featherstone'), or for a robot interop.forward_dynamics(robot, q, v, tau, "
                             "form='featherstone')")
        Phi, wflags, Psi = jt._rows
        m = Phi.shape[0]
        mc[k] = m
        rows[k, :m] = Phi
        rows[k, m:] = Psi
        world[k, :m] = wflags
    ortho = np.array([np.allclose(rows[k] @ rows[k].T, np.eye(6), atol=1e-14) for k in range(n)], dtype=np.int64)
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
def _quat_R(e, R):
    """Rotation matrix of unit Euler parameters e = (e0, e1, e2, e3), written into R."""
    e0, e1, e2, e3 = e[0], e[1], e[2], e[3]
    R[0, 0] = e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3
    R[0, 1] = 2 * (e1 * e2 - e0 * e3)
    R[0, 2] = 2 * (e1 * e3 + e0 * e2)
    R[1, 0] = 2 * (e1 * e2 + e0 * e3)
    R[1, 1] = e0 * e0 - e1 * e1 + e2 * e2 - e3 * e3
    R[1, 2] = 2 * (e2 * e3 - e0 * e1)
    R[2, 0] = 2 * (e1 * e3 - e0 * e2)
    R[2, 1] = 2 * (e2 * e3 + e0 * e1)
    R[2, 2] = e0 * e0 - e1 * e1 - e2 * e2 + e3 * e3


@_njit
def _cross(a, b, out):
    x = a[1] * b[2] - a[2] * b[1]
    y = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    out[0] = x
    out[1] = y


@_njit
def _mm(A, B, out):
    """out = A @ B for small matrices, plain loops (no BLAS call, no allocation)."""
    n, m, p = A.shape[0], A.shape[1], B.shape[1]
    for i in range(n):
        for j in range(p):
            s = 0.0
            for k in range(m):
                s += A[i, k] * B[k, j]
            out[i, j] = s


@_njit
def _mv(A, x, out):
    """out = A @ x."""
    for i in range(A.shape[0]):
        s = 0.0
        for k in range(A.shape[1]):
            s += A[i, k] * x[k]
        out[i] = s


@_njit
def _mtv(A, x, out):
    """out = A.T @ x."""
    for j in range(A.shape[1]):
        s = 0.0
        for i in range(A.shape[0]):
            s += A[i, j] * x[i]
        out[j] = s


@_njit
def _spd_inv(D, f, out):
    """Inverse of the leading f x f block of a symmetric positive definite D (Gauss-Jordan; SPD needs no
    pivoting), written into out[:f, :f]."""
    W = np.zeros((6, 12))
    for i in range(f):
        for j in range(f):
            W[i, j] = D[i, j]
        W[i, f + i] = 1.0
    for c in range(f):
        piv = 1.0 / W[c, c]
        for j in range(2 * f):
            W[c, j] *= piv
        for r in range(f):
            if r != c:
                fac = W[r, c]
                if fac != 0.0:
                    for j in range(2 * f):
                        W[r, j] -= fac * W[c, j]
    for i in range(f):
        for j in range(f):
            out[i, j] = W[i, f + j]


@_njit
def _core(parents, order, mass, Jb, cpt, pframe, rows, mc, world, ortho, dof_start, gravity, Rs, r, yd, tau):
    """D&G eq. (6), joints (1)-(3) with (59)-(61), D&G eq. (11)-(12) leaves to root and D&G eq. (5) root to leaves,
    for body rotations Rs (n, 3, 3), mass centres r (n, 3), speeds yd (6n) and joint forces tau.
    Returns (ydd, qdd)."""
    n = parents.shape[0]
    Mh = np.zeros((n, 6, 6))
    fh = np.zeros((n, 6))
    Bs = np.zeros((n, 6, 6))
    Hs = np.zeros((n, 6, 6))
    ds = np.zeros((n, 6))
    Dinv = np.zeros((n, 6, 6))
    Us = np.zeros((n, 6, 6))
    nf = np.zeros(n, dtype=np.int64)
    t3 = np.empty(3)
    t3b = np.empty(3)
    JR = np.empty((3, 3))
    A = np.empty((6, 6))
    G = np.empty((6, 6))
    Q = np.empty((6, 6))
    ED = np.empty((6, 6))
    M6 = np.empty((6, 6))
    P = np.empty((6, 6))
    kap = np.empty(6)
    kr = np.empty(6)
    gam = np.empty(6)
    ak = np.empty(3)
    b = np.empty(3)
    pdot = np.empty(3)
    wl = np.empty(3)
    RJ = np.empty((3, 3))
    zero3 = np.zeros(3)
    eye3 = np.eye(3)
    rho = np.empty(6)
    for i in range(n):                                               # D&G eq. (6): M_i, f_i
        R = Rs[i]
        _mm(R, Jb[i], JR)
        for a in range(3):
            for c in range(3):
                s = 0.0
                for l in range(3):
                    s += JR[a, l] * R[c, l]
                Mh[i, 3 + a, 3 + c] = s                              # J = R Jb R^T
            Mh[i, a, a] = mass[i]
            fh[i, a] = mass[i] * gravity[a]
        w = yd[6 * i + 3:6 * i + 6]
        _mv(Mh[i, 3:, 3:], w, t3)
        _cross(w, t3, t3b)
        fh[i, 3:] = -t3b                                             # -omega x J omega
    for k in range(n):                                               # joints: D&G eq. (1)-(3), (59)-(61)
        j = parents[k]
        Rk = Rs[k]
        vk = yd[6 * k:6 * k + 3]
        wk = yd[6 * k + 3:6 * k + 6]
        _mv(Rk, cpt[k], ak)
        if j < 0:
            Rj = eye3
            rj, vj, wj = zero3, zero3, zero3
        else:
            Rj = Rs[j]
            rj, vj, wj = r[j], yd[6 * j:6 * j + 3], yd[6 * j + 3:6 * j + 6]
        _mm(Rj, pframe[k], RJ)
        for a in range(3):
            b[a] = r[k, a] + ak[a] - rj[a]                           # p - r_j
        _cross(wk, ak, t3)
        for a in range(3):
            pdot[a] = vk[a] + t3[a]
        _cross(wj, b, t3)
        for a in range(3):
            wl[a] = pdot[a] - vj[a] - t3[a]                          # relative linear velocity
        _cross(wk, ak, t3)
        _cross(wk, t3, t3b)                                          # omega_k x (omega_k x a_k)
        for a in range(3):
            t3[a] = pdot[a] - vj[a]
        _cross(wj, t3, kap[:3])
        for a in range(3):
            kap[a] = t3b[a] - kap[a]                                 # kappa (linear; angular zero)
            kap[3 + a] = 0.0
        _cross(wj, wl, rho[:3])
        for a in range(3):
            t3[a] = wk[a] - wj[a]
        _cross(wj, t3, rho[3:])
        for a in range(6):
            rho[a] = -rho[a]
        for rr in range(6):                                          # [C; D] = rows T_J, world axes
            for c in range(3):
                s1 = 0.0
                s2 = 0.0
                for l in range(3):
                    s1 += rows[k, rr, l] * RJ[c, l]
                    s2 += rows[k, rr, 3 + l] * RJ[c, l]
                A[rr, c] = s1
                A[rr, 3 + c] = s2
        m = mc[k]
        for a in range(6):
            kr[a] = kap[a] + rho[a]
        for rr in range(6):
            if rr < m and world[k, rr]:
                s = 0.0
                for c in range(6):
                    A[rr, c] = rows[k, rr, c]
                    s += rows[k, rr, c] * kap[c]
                gam[rr] = -s
            else:
                s = 0.0
                for c in range(6):
                    s += A[rr, c] * kr[c]
                gam[rr] = -s
        for rr in range(6):                                          # G = A W_k, Q = A W_j
            a0, a1, a2 = A[rr, 0], A[rr, 1], A[rr, 2]
            for c in range(3):
                G[rr, c] = a0 if c == 0 else (a1 if c == 1 else a2)
                Q[rr, c] = -G[rr, c]
            # A[:, :3] (-[a_k]x) + A[:, 3:]  and  A[:, :3] [b]x - A[:, 3:]
            G[rr, 3] = -(a1 * ak[2] - a2 * ak[1]) + A[rr, 3]
            G[rr, 4] = -(a2 * ak[0] - a0 * ak[2]) + A[rr, 4]
            G[rr, 5] = -(a0 * ak[1] - a1 * ak[0]) + A[rr, 5]
            Q[rr, 3] = (a1 * b[2] - a2 * b[1]) - A[rr, 3]
            Q[rr, 4] = (a2 * b[0] - a0 * b[2]) - A[rr, 4]
            Q[rr, 5] = (a0 * b[1] - a1 * b[0]) - A[rr, 5]
        if ortho[k]:                                                 # D&G eq. (60): [G; G_d]^-1 = W_k^-1 A^T
            for c in range(6):
                x0, x1, x2 = A[c, 3], A[c, 4], A[c, 5]
                ED[0, c] = A[c, 0] + ak[1] * x2 - ak[2] * x1
                ED[1, c] = A[c, 1] + ak[2] * x0 - ak[0] * x2
                ED[2, c] = A[c, 2] + ak[0] * x1 - ak[1] * x0
                ED[3, c] = x0
                ED[4, c] = x1
                ED[5, c] = x2
        else:
            ED[:, :] = np.linalg.inv(G)
        f = 6 - m
        nf[k] = f
        for a in range(6):
            for c in range(f):
                Hs[k, a, c] = ED[a, m + c]                           # H_k = D_k
        _mm(ED, Q, M6)
        for a in range(6):
            for c in range(6):
                Bs[k, a, c] = -M6[a, c]                              # D&G eq. (61): B = -(E Q + D Q_d)
        _mv(ED, gam, ds[k])                                          # d = E gamma + D gamma_d
        s0 = dof_start[k]
        for c in range(6):
            s1 = 0.0
            s2 = 0.0
            for a in range(f):
                s1 += G[m + a, c] * tau[s0 + a]
                s2 += Q[m + a, c] * tau[s0 + a]
            fh[k, c] += s1
            if j >= 0:
                fh[j, c] += s2
    rr6 = np.empty(6)
    pr = np.empty(6)
    hr = np.empty(6)
    x6 = np.empty(6)
    Dk = np.empty((6, 6))
    for idx in range(n - 1, -1, -1):                                 # D&G eq. (11)-(12), leaves to root
        k = order[idx]
        f = nf[k]
        j = parents[k]
        Mk = Mh[k]
        H = Hs[k]
        U = Us[k]
        for a in range(6):
            for c in range(f):
                s = 0.0
                for l in range(6):
                    s += Mk[a, l] * H[l, c]
                U[a, c] = s                                          # U = M_hat H
        for a in range(f):
            for c in range(f):
                s = 0.0
                for l in range(6):
                    s += H[l, a] * U[l, c]
                Dk[a, c] = s                                         # H^T M_hat H
        if f == 1:
            Dinv[k, 0, 0] = 1.0 / Dk[0, 0]
        elif f > 0:
            _spd_inv(Dk, f, Dinv[k])
        if j >= 0:
            Di = Dinv[k]
            _mv(Mk, ds[k], x6)
            for a in range(6):
                rr6[a] = fh[k, a] - x6[a]                            # r = f_hat - M_hat d
            for a in range(6):                                       # P = M_hat - U D^-1 U^T
                for c in range(6):
                    s = 0.0
                    for l in range(f):
                        t = 0.0
                        for l2 in range(f):
                            t += Di[l, l2] * U[c, l2]
                        s += U[a, l] * t
                    P[a, c] = Mk[a, c] - s
            for a in range(f):
                s = 0.0
                for l in range(6):
                    s += H[l, a] * rr6[l]
                hr[a] = s
            for a in range(f):
                s = 0.0
                for l in range(f):
                    s += Di[a, l] * hr[l]
                x6[a] = s
            for a in range(6):
                s = 0.0
                for l in range(f):
                    s += U[a, l] * x6[l]
                pr[a] = rr6[a] - s                                   # r - U D^-1 H^T r
            B = Bs[k]
            _mm(P, B, M6)
            for a in range(6):
                for c in range(6):
                    s = 0.0
                    for l in range(6):
                        s += B[l, a] * M6[l, c]
                    Mh[j, a, c] += s                                 # D&G eq. (11): B^T P B
                s = 0.0
                for l in range(6):
                    s += B[l, a] * pr[l]
                fh[j, a] += s                                        # D&G eq. (12): B^T (r - ...)
    ydd = np.zeros(6 * n)
    qdd_all = np.zeros(tau.shape[0])
    acc = np.empty(6)
    for idx in range(n):                                             # D&G eq. (5), root to leaves
        k = order[idx]
        j = parents[k]
        for a in range(6):
            acc[a] = ds[k, a]
        if j >= 0:
            for a in range(6):
                s = 0.0
                for l in range(6):
                    s += Bs[k, a, l] * ydd[6 * j + l]
                acc[a] += s
        f = nf[k]
        if f > 0:
            _mv(Mh[k], acc, x6)
            for a in range(6):
                rr6[a] = fh[k, a] - x6[a]
            for a in range(f):
                s = 0.0
                for l in range(6):
                    s += Hs[k, l, a] * rr6[l]
                hr[a] = s
            s0 = dof_start[k]
            for a in range(f):
                s = 0.0
                for l in range(f):
                    s += Dinv[k, a, l] * hr[l]
                qdd_all[s0 + a] = s
            for a in range(6):
                s = 0.0
                for l in range(f):
                    s += Hs[k, a, l] * qdd_all[s0 + l]
                acc[a] += s
        for a in range(6):
            ydd[6 * k + a] = acc[a]
    return ydd, qdd_all


@_njit
def _fd(parents, order, mass, Jb, cpt, pframe, rows, mc, world, ortho, dof_start, gravity, y, yd, tau):
    """The core on the package's absolute state y = [r; e] per body: rotations from the Euler parameters."""
    n = parents.shape[0]
    Rs = np.empty((n, 3, 3))
    r = np.empty((n, 3))
    for i in range(n):
        _quat_R(y[7 * i + 3:7 * i + 7], Rs[i])
        for a in range(3):
            r[i, a] = y[7 * i + a]
    return _core(parents, order, mass, Jb, cpt, pframe, rows, mc, world, ortho, dof_start, gravity, Rs, r, yd, tau)


#: Pinocchio joint kinds of the fused path (:func:`_pin_fd`): code of each ``RobotSystem.pin_kinds`` entry
PIN_CODES = {"revolute": 0, "continuous": 1, "prismatic": 2, "free": 3, "spherical": 4, "planar": 5}


@_njit
def _pin_quat_R(q, i, R):
    """Rotation of Pinocchio's quaternion q[i:i+4] = (x, y, z, w), as Eigen's toRotationMatrix."""
    x, y, z, w = q[i], q[i + 1], q[i + 2], q[i + 3]
    tx, ty, tz = 2 * x, 2 * y, 2 * z
    twx, twy, twz = tx * w, ty * w, tz * w
    txx, txy, txz = tx * x, ty * x, tz * x
    tyy, tyz, tzz = ty * y, tz * y, tz * z
    R[0, 0] = 1 - (tyy + tzz)
    R[0, 1] = txy - twz
    R[0, 2] = txz + twy
    R[1, 0] = txy + twz
    R[1, 1] = 1 - (txx + tzz)
    R[1, 2] = tyz - twx
    R[2, 0] = txz - twy
    R[2, 1] = tyz + twx
    R[2, 2] = 1 - (txx + tyy)


@_njit
def _pin_fd(parents, order, mass, Jb, cpt, pframe, rows, mc, world, ortho, dof_start, gravity,
            code, iq, iv, axis, Pp, tp, lever, q, v, tau):
    """Pinocchio's (q, v, tau) -> qddot in Pinocchio's conventions, compiled end to end.  The same steps as
    ``interop.forward_dynamics``: forward kinematics (Pinocchio's joint models: Rodrigues for revolute
    joints, Eigen's quaternion matrix), the absolute state (``interop._state``: mass centres, rotations,
    world velocities), tau_ours = T tau (``interop._speed_maps``), :func:`_core`, and back,
    a = T^T qdd_ours with the -omega x v term of free-flyers and planar joints."""
    n = parents.shape[0]
    Rs = np.empty((n, 3, 3))
    o = np.empty((n, 3))
    r = np.empty((n, 3))
    yd = np.empty(6 * n)
    vo = np.empty((n, 3))
    T = np.empty((n, 3, 3))                       # the rotation block of each joint's speed map
    Rq = np.empty((3, 3))
    Rl = np.empty((3, 3))
    RJ = np.empty((3, 3))
    pq = np.empty(3)
    pl = np.empty(3)
    vl = np.empty(3)
    wl = np.empty(3)
    t3 = np.empty(3)
    c3 = np.empty(3)
    tau_o = np.empty(tau.shape[0])
    for k in range(n):                                                # forward kinematics, parents first
        c = code[k]
        a = iq[k]
        u = axis[k]
        for x in range(3):
            pq[x] = 0.0
            vl[x] = 0.0
            wl[x] = 0.0
        if c == 0 or c == 1:                                          # revolute: Rodrigues about u
            if c == 0:
                cs, sn = math.cos(q[a]), math.sin(q[a])
            else:
                cs, sn = q[a], q[a + 1]
            for x in range(3):
                for y in range(3):
                    Rq[x, y] = (1.0 - cs) * u[x] * u[y]
                Rq[x, x] += cs
            Rq[0, 1] -= sn * u[2]
            Rq[0, 2] += sn * u[1]
            Rq[1, 0] += sn * u[2]
            Rq[1, 2] -= sn * u[0]
            Rq[2, 0] -= sn * u[1]
            Rq[2, 1] += sn * u[0]
            for x in range(3):
                wl[x] = u[x] * v[iv[k]]
        elif c == 2:                                                  # prismatic along u
            for x in range(3):
                for y in range(3):
                    Rq[x, y] = 0.0
                Rq[x, x] = 1.0
                pq[x] = u[x] * q[a]
                vl[x] = u[x] * v[iv[k]]
        elif c == 3:                                                  # free-flyer: (p, quaternion), local v
            _pin_quat_R(q, a + 3, Rq)
            for x in range(3):
                pq[x] = q[a + x]
                vl[x] = v[iv[k] + x]
                wl[x] = v[iv[k] + 3 + x]
        elif c == 4:                                                  # spherical: quaternion, local omega
            _pin_quat_R(q, a, Rq)
            for x in range(3):
                wl[x] = v[iv[k] + x]
        else:                                                         # planar: (x, y, cos, sin), (vx, vy, wz)
            cs, sn = q[a + 2], q[a + 3]
            for x in range(3):
                for y in range(3):
                    Rq[x, y] = 0.0
            Rq[0, 0], Rq[0, 1], Rq[1, 0], Rq[1, 1], Rq[2, 2] = cs, -sn, sn, cs, 1.0
            pq[0], pq[1] = q[a], q[a + 1]
            vl[0], vl[1], wl[2] = v[iv[k]], v[iv[k] + 1], v[iv[k] + 2]
        _mm(Pp[k], Rq, Rl)                                            # liMi = placement * joint motion
        _mv(Pp[k], pq, pl)
        for x in range(3):
            pl[x] += tp[k, x]
        j = parents[k]
        R = Rs[k]
        if j < 0:
            R[:, :] = Rl
            for x in range(3):
                o[k, x] = pl[x]
                RJ[x, :] = Pp[k, x, :]
        else:
            _mm(Rs[j], Rl, R)
            _mv(Rs[j], pl, t3)
            for x in range(3):
                o[k, x] = o[j, x] + t3[x]
            _mm(Rs[j], Pp[k], RJ)
        _mv(R, wl, t3)                                                # omega = omega_p + R omega_J
        _mv(R, vl, c3)
        for x in range(3):
            yd[6 * k + 3 + x] = t3[x] + (yd[6 * j + 3 + x] if j >= 0 else 0.0)
        if j >= 0:                                                    # origin velocity: v_p + w_p x (o - o_p)
            for x in range(3):
                pl[x] = o[k, x] - o[j, x]
            _cross(yd[6 * j + 3:6 * j + 6], pl, t3)
            for x in range(3):
                vo[k, x] = vo[j, x] + t3[x] + c3[x]
        else:
            for x in range(3):
                vo[k, x] = c3[x]
        _mv(R, lever[k], c3)                                          # origin -> mass centre, world
        _cross(yd[6 * k + 3:6 * k + 6], c3, t3)
        for x in range(3):
            r[k, x] = o[k, x] + c3[x]
            yd[6 * k + x] = vo[k, x] + t3[x]                          # + omega x c
        s0, p0 = dof_start[k], iv[k]                                  # tau_ours = T tau_pin
        if c == 3 or c == 5:
            for x in range(3):                                        # T = RJ^T R
                for y in range(3):
                    s = 0.0
                    for l in range(3):
                        s += RJ[l, x] * R[l, y]
                    T[k, x, y] = s
            if c == 3:
                for h in range(2):
                    for x in range(3):
                        s = 0.0
                        for y in range(3):
                            s += T[k, x, y] * tau[p0 + 3 * h + y]
                        tau_o[s0 + 3 * h + x] = s
            else:
                tau_o[s0] = T[k, 0, 0] * tau[p0] + T[k, 0, 1] * tau[p0 + 1]
                tau_o[s0 + 1] = T[k, 1, 0] * tau[p0] + T[k, 1, 1] * tau[p0 + 1]
                tau_o[s0 + 2] = tau[p0 + 2]
        elif c == 4:                                                  # T = the joint's own rotation
            T[k, :, :] = Rq
            for x in range(3):
                s = 0.0
                for y in range(3):
                    s += Rq[x, y] * tau[p0 + y]
                tau_o[s0 + x] = s
        else:
            tau_o[s0] = tau[p0]
    qdd_o = _core(parents, order, mass, Jb, cpt, pframe, rows, mc, world, ortho, dof_start, gravity, Rs, r, yd,
                  tau_o)[1]
    acc = np.empty(tau.shape[0])
    for k in range(n):                                                # back: a = T^T qdd_ours (+ corrections)
        c = code[k]
        s0, p0 = dof_start[k], iv[k]
        if c == 3:
            for h in range(2):
                for x in range(3):
                    s = 0.0
                    for y in range(3):
                        s += T[k, y, x] * qdd_o[s0 + 3 * h + y]
                    acc[p0 + 3 * h + x] = s
            _cross(v[p0 + 3:p0 + 6], v[p0:p0 + 3], t3)                # - omega_l x v_l
            for x in range(3):
                acc[p0 + x] -= t3[x]
        elif c == 5:
            vx, vy, wz = v[p0], v[p0 + 1], v[p0 + 2]
            acc[p0] = T[k, 0, 0] * qdd_o[s0] + T[k, 1, 0] * qdd_o[s0 + 1] + wz * vy
            acc[p0 + 1] = T[k, 0, 1] * qdd_o[s0] + T[k, 1, 1] * qdd_o[s0 + 1] - wz * vx
            acc[p0 + 2] = qdd_o[s0 + 2]
        elif c == 4:
            for x in range(3):
                s = 0.0
                for y in range(3):
                    s += T[k, y, x] * qdd_o[s0 + y]
                acc[p0 + x] = s
        else:
            acc[p0] = qdd_o[s0]
    return acc


@_njit
def _pin_fd_packed(I, F, q, v, tau):
    """:func:`_pin_fd` with the model's constants packed into one int64 array I and one float64 array F
    (:func:`_pack_pin`): numba's call costs about 0.15 us per array argument, 22 of them cost more than a
    6-dof arm's whole recursion."""
    n = I[0]
    parents, order, mc, dof_start = I[1:1 + n], I[1 + n:1 + 2 * n], I[1 + 2 * n:1 + 3 * n], I[1 + 3 * n:1 + 4 * n]
    code, iq, iv = I[1 + 4 * n:1 + 5 * n], I[1 + 5 * n:1 + 6 * n], I[1 + 6 * n:1 + 7 * n]
    world = I[1 + 7 * n:1 + 13 * n].reshape((n, 6))
    ortho = I[1 + 13 * n:1 + 14 * n]
    mass = F[0:n]
    Jb = F[n:10 * n].reshape((n, 3, 3))
    cpt = F[10 * n:13 * n].reshape((n, 3))
    pframe = F[13 * n:22 * n].reshape((n, 3, 3))
    rows = F[22 * n:58 * n].reshape((n, 6, 6))
    gravity = F[58 * n:58 * n + 3]
    axis = F[58 * n + 3:61 * n + 3].reshape((n, 3))
    Pp = F[61 * n + 3:70 * n + 3].reshape((n, 3, 3))
    tp = F[70 * n + 3:73 * n + 3].reshape((n, 3))
    lever = F[73 * n + 3:76 * n + 3].reshape((n, 3))
    return _pin_fd(parents, order, mass, Jb, cpt, pframe, rows, mc, world, ortho, dof_start, gravity,
                   code, iq, iv, axis, Pp, tp, lever, q, v, tau)


def pack_pinocchio(fm: FastModel, code, iq, iv, axis, Pp, tp, lever) -> tuple:
    """The arrays of :func:`pinocchio_forward_dynamics`: the FastModel's, then per body Pinocchio's joint
    code, q and v offsets, axis, placement and mass-centre lever, packed into one int and one float
    array (``interop`` calls it once per robot and keeps the result).

    Examples
    --------
    >>> from rfda_teach import interop
    >>> I, F = interop.fast_kernel(interop.example_robot("ur5"))
    >>> I.dtype.kind, F.dtype.kind
    ('i', 'f')
    """
    return _pack_pin(fm, code, iq, iv, axis, Pp, tp, lever)


def pinocchio_forward_dynamics(I, F, q, v, tau):
    """Pinocchio's (q, v, tau) to q-ddot in one compiled call over the packed arrays of
    :func:`pack_pinocchio` (``interop.forward_dynamics(..., form="fast")`` validates the input first;
    this function does not).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import interop
    >>> ur5 = interop.example_robot("ur5")
    >>> q, v, tau = interop.random_state(ur5, seed=0)
    >>> a = pinocchio_forward_dynamics(*interop.fast_kernel(ur5), q, v, tau)
    >>> bool(np.allclose(a, interop.forward_dynamics(ur5, q, v, tau)))
    True
    """
    return _pin_fd_packed(I, F, q, v, tau)


def _pack_pin(fm: FastModel, code, iq, iv, axis, Pp, tp, lever):
    """(I, F): the FastModel's arrays and a robot's Pinocchio joint data packed for :func:`_pin_fd_packed`.

    Examples
    --------
    >>> from rfda_teach import models
    >>> z3, z33 = np.zeros((2, 3)), np.zeros((2, 3, 3))
    >>> I, F = _pack_pin(compile_model(models.chain(2, "spatial")), *([0, 0],) * 3, z3, z33, z3, z3)
    >>> I.shape, F.shape
    ((29,), (155,))
    """
    where = "fastpath._pack_pin"
    _check.instance(fm, FastModel, "fm", where=where, hint="build it with fastpath.compile_model(system)")
    n = fm.parents.shape[0]
    ints = [np.asarray(x) for x in (code, iq, iv)]
    for name, x in zip(("code", "iq", "iv"), ints):
        if x.shape != (n,) or not np.issubdtype(x.dtype, np.integer):
            raise ModelError(f"{where}: {name} must be {n} integers (one per body), got shape {x.shape}, "
                             f"dtype {x.dtype}")
    I = np.concatenate([[n], fm.parents, fm.order, fm.mc, fm.dof_start, *ints, fm.world.ravel(), fm.ortho]
                       ).astype(np.int64)
    floats = []
    for name, x, shape in (("axis", axis, (n, 3)), ("Pp", Pp, (n, 3, 3)), ("tp", tp, (n, 3)),
                           ("lever", lever, (n, 3))):
        x = np.asarray(x, float)
        if x.size != np.prod(shape):
            raise ModelError(f"{where}: {name} has {x.size} entries; it needs shape {shape} for {n} bodies")
        floats.append(x.ravel())
    F = np.concatenate([fm.mass, fm.Jb.ravel(), fm.cpt.ravel(), fm.pframe.ravel(), fm.rows.ravel(),
                        fm.gravity, *floats]).astype(np.float64)
    # read-only, like the FastModel's arrays: numba then sees the same array types in both paths and
    # compiles _core once (writable arrays made a second specialisation: 5 s more of compiling)
    I.flags.writeable = False
    F.flags.writeable = False
    return I, F


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
            and tau.shape == (fm.n_dof,) and y.flags.c_contiguous and yd.flags.c_contiguous
            and tau.flags.c_contiguous and y.flags.writeable and yd.flags.writeable and tau.flags.writeable):
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
    return tuple(np.array(x, dtype=float, order="C") for x in (y, yd, tau))   # one compiled signature only


def _run(fm, y, yd, tau, where):
    y, yd, tau = _inputs(fm, y, yd, tau, where)
    if not _HAVE_NUMBA:                                        # pragma: no cover
        raise ModelError("the fast path needs numba: pip install numba (or the extra 'fast')")
    return _fd(fm.parents, fm.order, fm.mass, fm.Jb, fm.cpt, fm.pframe, fm.rows, fm.mc, fm.world,
               fm.ortho, fm.dof_start, fm.gravity, y, yd, tau)
