"""The joint-space baseline: RNEA, CRBA and forward dynamics by Cholesky, O(n^3).

This is the method the O(n) RFDA of Deepak & Ghosal (2008) is meant to beat,
written in the package's own absolute-coordinate terms so that the two can be
compared line by line on the same :class:`~rfda_teach.system.System`.

Joint coordinates.  Joint k has position variables q_k (``joint.n_q`` numbers:
an angle, a slide, a unit quaternion for a spherical joint, position and unit
quaternion for a free joint) and speeds qdot_k (``joint.n_dof`` numbers), the
values of its driving rows, D&G eq. (59).  Appendix A, D&G eq. (60)-(61), gives

    ydot_k  = B_k ydot_j  + H_k qdot_k,                 (D&G eq. 61, c_k = 0)
    yddot_k = B_k yddot_j + H_k qddot_k + d_k,          (second derivative of D&G eq. 59)

with [E_k D_k] = [G_k; G_kd]^-1, B_k = -(E_k Q_k + D_k Q_kd), H_k = D_k and
d_k = E_k gamma_k + D_k gamma_kd (j the parent of k; B_k absent for a root).
Stacking D&G eq. (61) from the roots outwards gives ydot = T qdot, where block
(i, m) of T is B_i B_P(i) ... B_c H_m when joint m lies on the path from body i
to the ground (c the child of m on that path) and zero otherwise.

Because J T = 0 for the constraint Jacobian J of D&G eq. (7), multiplying D&G eq. (7)
by T^T removes the multipliers:

    M_q qddot = tau - C,   M_q = T^T M T,   C = T^T (M yddot|_{qddot=0} - f),

where f holds gravity, gyroscopic and external forces (no joint forces).  The
joint forces tau_k enter the package as G_kd^T tau_k on f_k and Q_kd^T tau_k on
f_j (:func:`rfda_teach.system.terms`); T^T maps exactly that back to tau, since
H_k^T G_kd^T = I and B_k^T G_kd^T + Q_kd^T = 0 (G_kd E_k = 0, G_kd D_k = I).
So the generalized force conjugate to qdot_k is tau_k itself.

* :func:`rnea` - inverse dynamics tau = T^T (M yddot - f) by the recursive
  Newton-Euler algorithm: yddot_k forward (root to leaves), the subtree wrench
  W_k = M_k yddot_k - f_k + sum_c B_c^T W_c backward, tau_k = H_k^T W_k.  O(n).
* :func:`crba` - M_q by the composite-rigid-body algorithm: I_k = M_k + sum_c
  B_c^T I_c B_c, M_q[k, k] = H_k^T I_k H_k, off-diagonal blocks by carrying
  F = I_k H_k up the ancestors (F <- B_i^T F).  O(n d) for depth d, O(n^2) on a chain.
* :func:`forward_dynamics` - CRBA + RNEA(qddot = 0) + Cholesky of M_q, O(n^3).
* :func:`count_multiplications` - scalar multiplications of each of these and
  of both RFDA forms, counted while they run with a
  :class:`~rfda_teach.count.Tally`.

q may be given per joint (a list of arrays, one per joint, as
:func:`rfda_teach.models.state_from_joints` takes) or stacked in joint order
(one vector of sum_k n_q(k) numbers); qd, qdd and tau are stacked vectors of
``system.n_dof`` numbers in joint order.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import jointspace as js, models
>>> arm = models.chain(2)                            # two uniform bars, m = l = 1
>>> np.round(js.crba(arm, [0.0, 0.0]), 6)             # eq. (M_q) of the book at q = 0
array([[2.666667, 0.833333],
       [0.833333, 0.333333]])
>>> tau = js.rnea(arm, [0.3, -0.2], [1.0, 0.5], [0.1, 0.2])
>>> np.round(js.forward_dynamics(arm, [0.3, -0.2], [1.0, 0.5], tau), 12) + 0.0
array([0.1, 0.2])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.linalg import LinAlgError

from . import _check, rfda
from .bodies import EULER_TOL
from .coordinates import appendix_a
from .count import Tally, add, chol, cholesky_count, mm, set_step, solve as cho_solve
from .errors import IllConditionedError, ModelError
from .models import state_from_joints
from .spatial import cross
from .system import State, System, Terms, check_state, check_terms, require_tree, terms

__all__ = ["JointSpaceResult", "rnea", "crba", "forward_dynamics", "solve", "inverse_dynamics",
           "mass_matrix", "velocity_map", "split_q", "neutral_q", "count_multiplications", "PinocchioMaps",
           "pinocchio_maps", "METHODS", "absolute_accelerations"]

#: the methods :func:`count_multiplications` counts
METHODS = ("rnea", "crba", "cholesky", "joint_space_fd", "lubich", "featherstone")


class JointSpaceResult(NamedTuple):
    """Joint-space forward dynamics: ``qdd``, the mass matrix ``M`` (= M_q) and the bias ``C``
    (= T^T (M yddot|_{qddot=0} - f), with f including any joint forces given to the terms)."""

    qdd: np.ndarray
    M: np.ndarray
    C: np.ndarray

    def __repr__(self) -> str:
        """One line: the degrees of freedom, the size of M_q and the sizes of qddot and C.

        Examples
        --------
        >>> from rfda_teach import models
        >>> from rfda_teach.system import terms
        >>> sys = models.figure1_tree()
        >>> solve(sys, terms(sys, models.random_state(sys, seed=0)))
        JointSpaceResult: 13 DOF, qdd (13,), M_q 13 x 13, C (13,)
        """
        n = len(self.qdd)
        return f"JointSpaceResult: {n} DOF, qdd {np.shape(self.qdd)}, M_q {n} x {n}, C {np.shape(self.C)}"


# ----------------------------------------------------------------------------- input conversion

def _system(system, where):
    return _check.instance(system, System, "system", where=where,
                           hint="build one with rfda_teach.models or rfda_teach.system.System")


def _joint_nq(system, where):
    try:
        return [jt.n_q for jt in system.joints]
    except ModelError:
        raise ModelError(f"{where}: system {system.name!r} has a custom joint, which has no position "
                         "variables q; build a State yourself and use jointspace.solve(system, terms(system, "
                         "state))") from None


def split_q(system: System, q, *, where: str = "jointspace.split_q") -> list:
    """Joint positions as a list of one array per joint, from a list or from one stacked vector.

    A list or tuple whose entries are arrays (or lists) is taken per joint; a flat vector of
    sum_k n_q(k) numbers (numpy array or list of numbers) is split in joint order.  Quaternions
    (spherical: q_k = e, free: q_k = (r, e)) must have unit norm within ``bodies.EULER_TOL``.

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.random_tree(3, kind="spatial", seed=1)
    >>> [jt.type for jt in sys.joints], [a.size for a in split_q(sys, neutral_q(sys))]
    (['free', 'prismatic', 'spherical'], [7, 1, 4])
    >>> split_q(sys, [0.0, 1.0])
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: jointspace.split_q: q has 2 numbers; system 'random spatial tree n=3 seed=1' needs 12 joint position variables (joint order, per joint [7, 1, 4]) or a list of one array per joint
    """
    _system(system, where)
    nq = _joint_nq(system, where)
    if q is None or isinstance(q, (str, bytes, dict, set)):
        raise ModelError(f"{where}: q must be joint positions (a stacked vector or a list of one array per "
                         f"joint), got {q!r}")
    per_joint = isinstance(q, (list, tuple)) and len(q) == system.n and len(q) > 0 and \
        any(np.ndim(x) >= 1 for x in q if not isinstance(x, (str, bytes)))
    if per_joint:
        out = []
        for k, (qk, n) in enumerate(zip(q, nq)):
            out.append(_check.vector([qk] if np.ndim(qk) == 0 else qk,
                                     n, f"q[{k}]", where=where,
                                     hint=f"joint {k} ({system.joints[k].type}) has {n} position variables"))
    else:
        flat = _check.vector(q, None, "q", where=where)
        if flat.size != sum(nq):
            raise ModelError(f"{where}: q has {flat.size} numbers; system {system.name!r} needs {sum(nq)} joint "
                             f"position variables (joint order, per joint {nq}) or a list of one array per joint")
        out = np.split(flat, np.cumsum(nq)[:-1])
    for k, jt in enumerate(system.joints):
        quat = {"spherical": slice(0, 4), "free": slice(3, 7)}.get(jt.type)
        if quat is not None:
            nrm = float(np.linalg.norm(out[k][quat]))
            if abs(nrm - 1.0) > EULER_TOL:
                raise ModelError(f"{where}: q[{k}] (joint {k}, {jt.type}) holds the quaternion "
                                 f"{np.round(out[k][quat], 6)} of norm {nrm:.8g}, not 1 (tolerance {EULER_TOL}); "
                                 "normalise it (e / |e|)")
    return [np.array(x, dtype=float) for x in out]


def neutral_q(system: System) -> np.ndarray:
    """The stacked q of the zero configuration: zero angles and slides, identity quaternions.

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.random_tree(2, kind="spatial", seed=1)
    >>> [jt.type for jt in sys.joints], neutral_q(sys)     # free: (r, e), spherical: e
    (['free', 'spherical'], array([0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0.]))
    """
    where = "jointspace.neutral_q"
    _system(system, where)
    parts = []
    for jt, n in zip(system.joints, _joint_nq(system, where)):
        x = np.zeros(n)
        if jt.type in ("spherical", "free"):
            x[n - 4] = 1.0
        parts.append(x)
    return np.concatenate(parts)


def _dof_vector(system, x, what, where):
    return _check.vector(x, system.n_dof, what, where=where,
                         hint=f"{system.n_dof} joint {'speeds' if what == 'qd' else 'values'} stacked in joint order")


def _state(system, q, qd, where) -> State:
    q = split_q(system, q, where=where)
    qd = _dof_vector(system, qd, "qd", where)
    ds = system.dof_slices
    st = state_from_joints(system, q, [qd[s] for s in ds])
    with np.errstate(over="ignore"):
        quadratic = float(np.square(st.yd).sum())          # the size of the velocity terms
    if not np.isfinite(quadratic):
        raise ModelError(f"{where}: qd is too large (|qd| up to {np.abs(qd).max():.1e}): the velocity "
                         "terms, quadratic in qd, overflow; give finite joint speeds well below 1e150")
    return st


# ----------------------------------------------------------------------------- the algorithms (t: a Tally or None)

def _appendix_a(system: System, tr: Terms, t=None):
    """B_k, H_k, d_k of D&G eq. (60)-(61) for every joint: [E_k D_k] = [G_k; G_kd]^-1,
    B_k = -(E_k Q_k + D_k Q_kd), d_k = E_k gamma_k + D_k gamma_kd (counted in t when given)."""
    set_step(t, "appendix A")
    out = []
    for jt in tr.joint:
        E, D, B, H, d = appendix_a(jt.G, jt.G_d, jt.Q, jt.Q_d, jt.gamma, jt.gamma_d, tally=t)
        out.append((B, H, d, E))
    return out


def _rnea(system: System, tr: Terms, BHd, qdd, t=None) -> np.ndarray:
    """T^T (M yddot - f) by two sweeps; f is tr.f (it includes any joint forces in the terms)."""
    par, order = system.parents, system.topology.order
    ds = system.dof_slices
    a = [None] * system.n
    W = [None] * system.n
    set_step(t, "rnea forward")
    for k in order:                                                      # root to leaves
        B, H, d, _ = BHd[k]
        a[k] = mm(t, H, qdd[ds[k]]) + d                                  # yddot_k, D&G eq. (61)''
        if par[k] >= 0:
            a[k] = a[k] + mm(t, B, a[par[k]])
    set_step(t, "rnea backward")
    for k in order:
        W[k] = mm(t, tr.M[k], a[k]) - tr.f[k]                            # Newton-Euler of body k (D&G eq. 6)
    tau = np.zeros(system.n_dof)
    for k in reversed(order):                                            # leaves to root
        B, H = BHd[k][:2]
        tau[ds[k]] = mm(t, H.T, W[k])                                    # tau_k = H_k^T W_k
        if par[k] >= 0:
            W[par[k]] = W[par[k]] + mm(t, B.T, W[k])                     # W_j += B_k^T W_k
    return tau


def _crba(system: System, tr: Terms, BHd, t=None) -> np.ndarray:
    """M_q = T^T M T by composite inertias, then the ancestors' blocks."""
    par, order = system.parents, system.topology.order
    ds = system.dof_slices
    set_step(t, "crba composite")
    Ic = [M.copy() for M in tr.M]
    for k in reversed(order):                                            # leaves to root
        B = BHd[k][0]
        if par[k] >= 0:
            Ic[par[k]] = Ic[par[k]] + mm(t, B.T, mm(t, Ic[k], B))        # I_j += B_k^T I_k B_k
    set_step(t, "crba blocks")
    Mq = np.zeros((system.n_dof, system.n_dof))
    for k in order:
        H = BHd[k][1]
        F = mm(t, Ic[k], H)                                              # F = I_k H_k
        blk = mm(t, H.T, F)                                              # M_q[k, k] = H_k^T I_k H_k
        add(t, blk.size)
        Mq[ds[k], ds[k]] = 0.5 * (blk + blk.T)                           # symmetric to the last bit
        i = k
        while par[i] >= 0:                                               # walk up the ancestors
            F = mm(t, BHd[i][0].T, F)                                    # F <- B_i^T F
            i = par[i]
            blk = mm(t, BHd[i][1].T, F)                                  # M_q[i, k] = H_i^T F
            Mq[ds[i], ds[k]] = blk
            Mq[ds[k], ds[i]] = blk.T
    return Mq


def _cholesky(Mq: np.ndarray, rhs: np.ndarray, t, where: str) -> np.ndarray:
    set_step(t, "cholesky")
    n = Mq.shape[0]
    try:
        fac = chol(t, Mq)                                                # factor M_q = L L^T
    except (LinAlgError, np.linalg.LinAlgError, ValueError):
        fac = None
    if fac is None or not np.all(np.isfinite(fac[0])):
        raise IllConditionedError(
            f"{where}: the joint-space mass matrix M_q ({n}x{n}) is not positive definite in floating point; "
            "it is in exact arithmetic (every body has positive mass and inertia), so the cause is extreme "
            "mass or inertia ratios; use rfda.forward_dynamics(..., form='featherstone')")
    return cho_solve(t, fac, rhs, check_finite=False)                    # L y = b, L^T x = y


# ----------------------------------------------------------------------------- public functions

def inverse_dynamics(system: System, tr: Terms, qdd) -> np.ndarray:
    """RNEA on evaluated terms: tau = T^T (M yddot - f) for joint accelerations qdd.

    ``tr`` comes from :func:`rfda_teach.system.terms` (with its f including any ``tau``/``f_ext``
    given there: the result is then the joint forces still needed on top of them).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, rfda
    >>> from rfda_teach.system import terms
    >>> sys = models.random_tree(5, kind="spatial", seed=2); st = models.random_state(sys, seed=3)
    >>> qdd = rfda.forward_dynamics(sys, st).qdd           # no joint forces
    >>> bool(np.allclose(inverse_dynamics(sys, terms(sys, st), qdd), 0.0))
    True
    """
    where = "jointspace.inverse_dynamics"
    check_terms(system, tr, where)
    qdd = _dof_vector(system, qdd, "qdd", where)
    return _rnea(system, tr, _appendix_a(system, tr), qdd)


def mass_matrix(system: System, tr: Terms) -> np.ndarray:
    """CRBA on evaluated terms: M_q = T^T M T (n_dof x n_dof, symmetric positive definite).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> from rfda_teach.system import terms
    >>> sys = models.figure1_tree(); tr = terms(sys, models.random_state(sys, seed=0))
    >>> T = velocity_map(sys, tr)
    >>> M = np.zeros((sys.n_vel, sys.n_vel))
    >>> for i, s in enumerate(sys.vel_slices): M[s, s] = tr.M[i]
    >>> bool(np.allclose(mass_matrix(sys, tr), T.T @ M @ T))
    True
    """
    check_terms(system, tr, "jointspace.mass_matrix")
    return _crba(system, tr, _appendix_a(system, tr))


def velocity_map(system: System, tr: Terms) -> np.ndarray:
    """The dense n_vel x n_dof matrix T of ydot = T qdot, stacked from D&G eq. (61) (for teaching and tests).

    Examples
    --------
    >>> from rfda_teach import models
    >>> from rfda_teach.system import terms
    >>> sys = models.chain(2)
    >>> st = models.state_from_joints(sys, [[0.0], [0.0]], [[0.0], [0.0]])
    >>> velocity_map(sys, terms(sys, st)) @ [1.0, 0.0]     # turn joint 0 only: both bars swing
    array([0. , 0.5, 1. , 0. , 1.5, 1. ])
    """
    check_terms(system, tr, "jointspace.velocity_map")
    BHd = _appendix_a(system, tr)
    vs, ds, par = system.vel_slices, system.dof_slices, system.parents
    T = np.zeros((system.n_vel, system.n_dof))
    for k in system.topology.order:
        B, H = BHd[k][:2]
        if par[k] >= 0:
            T[vs[k]] = B @ T[vs[par[k]]]                                 # follow the parent with qdot_k = 0
        T[vs[k], ds[k]] = H                                              # plus H_k qdot_k
    return T


def solve(system: System, tr: Terms) -> JointSpaceResult:
    """Joint-space forward dynamics on evaluated terms: M_q qddot = -C, C = RNEA(qddot = 0).

    With joint forces given to :func:`~rfda_teach.system.terms` (``tau=``), C already contains
    -tau, so this is M_q qddot = tau - C_0.  Same qddot as :func:`rfda_teach.rfda.solve`.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, rfda
    >>> from rfda_teach.system import terms
    >>> sys = models.random_tree(6, kind="planar", seed=1); st = models.random_state(sys, seed=2)
    >>> tr = terms(sys, st, tau=np.ones(sys.n_dof))
    >>> bool(np.allclose(solve(sys, tr).qdd, rfda.solve(sys, tr, "featherstone").qdd))
    True
    """
    where = "jointspace.solve"
    check_terms(system, tr, where)
    require_tree(system, where)
    return _solve(system, tr, where)


def _solve(system, tr, where, t=None) -> JointSpaceResult:
    BHd = _appendix_a(system, tr, t)
    C = _rnea(system, tr, BHd, np.zeros(system.n_dof), t)
    Mq = _crba(system, tr, BHd, t)
    return JointSpaceResult(_cholesky(Mq, -C, t, where), Mq, C)


def absolute_accelerations(system: System, tr: Terms, qdd) -> np.ndarray:
    """yddot from joint accelerations: yddot_k = B_k yddot_j + H_k qddot_k + d_k, root to leaves
    (D&G eq. (61) differentiated, the forward sweep of the RNEA); the inverse of
    :func:`rfda_teach.rfda.joint_accelerations`.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, rfda
    >>> from rfda_teach.system import terms
    >>> sys = models.random_tree(5, kind="spatial", seed=3); tr = terms(sys, models.random_state(sys, seed=1))
    >>> res = rfda.solve(sys, tr, "featherstone")
    >>> bool(np.allclose(absolute_accelerations(sys, tr, res.qdd), res.ydd))
    True
    """
    where = "jointspace.absolute_accelerations"
    check_terms(system, tr, where)
    require_tree(system, where)
    qdd = _dof_vector(system, qdd, "qdd", where)
    BHd = _appendix_a(system, tr)
    ydd = np.zeros(system.n_vel)
    vs, ds, par = system.vel_slices, system.dof_slices, system.parents
    for k in system.topology.order:                                      # root to leaves
        B, H, d, _ = BHd[k]
        a = H @ qdd[ds[k]] + d                                           # D&G eq. (61)''
        ydd[vs[k]] = a if par[k] < 0 else a + B @ ydd[vs[par[k]]]
    return ydd


def rnea(system: System, q, qd, qdd, *, f_ext=None) -> np.ndarray:
    """Inverse dynamics by the recursive Newton-Euler algorithm: the joint forces tau that give qdd.

    Forward sweep yddot_k = B_k yddot_j + H_k qddot_k + d_k (D&G eq. 61 differentiated), backward
    sweep W_k = M_k yddot_k - f_k + sum_c B_c^T W_c (D&G eq. 6 per body), tau_k = H_k^T W_k.
    ``q`` per joint or stacked (see :func:`split_q`); ``qd``, ``qdd`` stacked (n_dof);
    ``f_ext`` extra generalized forces in absolute coordinates (n_vel), as in
    :func:`rfda_teach.system.terms`.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> arm = models.chain(2)
    >>> np.round(rnea(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]), 4)   # hold both bars horizontal
    array([19.62 ,  4.905])
    """
    where = "jointspace.rnea"
    _system(system, where)
    st = _state(system, q, qd, where)
    qdd = _dof_vector(system, qdd, "qdd", where)
    tr = terms(system, st, f_ext=f_ext, check=False)
    return _rnea(system, tr, _appendix_a(system, tr), qdd)


def crba(system: System, q) -> np.ndarray:
    """The joint-space mass matrix M_q = T^T M T by the composite-rigid-body algorithm.

    Composite inertias I_k = M_k + sum_c B_c^T I_c B_c (leaves to root); M_q[k, k] = H_k^T I_k H_k;
    M_q[i, k] = H_i^T B_c^T ... B_k^T I_k H_k for every ancestor joint i of k.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> M = crba(models.chain(2), [0.0, np.pi / 2])
    >>> np.round(M, 6)                   # 5/3 + cos q2, 1/3 + cos(q2)/2, 1/3
    array([[1.666667, 0.333333],
           [0.333333, 0.333333]])
    """
    where = "jointspace.crba"
    _system(system, where)
    st = _state(system, q, np.zeros(system.n_dof), where)
    return mass_matrix(system, terms(system, st, check=False))


def forward_dynamics(system: System, q, qd, tau, *, f_ext=None) -> np.ndarray:
    """Joint accelerations by the joint-space method: CRBA, RNEA with qddot = 0, Cholesky of M_q.

    Solves M_q qddot = tau - C with C = rnea(q, qd, 0); scipy.linalg.cho_factor/cho_solve.  The
    result equals ``rfda.forward_dynamics(system, state, tau=tau).qdd`` for the state of (q, qd).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, rfda
    >>> sys = models.random_tree(5, kind="spatial", seed=4)
    >>> q, qd, tau = neutral_q(sys), np.zeros(sys.n_dof), np.ones(sys.n_dof)
    >>> st = models.state_from_joints(sys, split_q(sys, q), np.split(qd, np.cumsum(
    ...     [j.n_dof for j in sys.joints])[:-1]))
    >>> bool(np.allclose(forward_dynamics(sys, q, qd, tau), rfda.forward_dynamics(sys, st, tau=tau).qdd))
    True
    """
    where = "jointspace.forward_dynamics"
    require_tree(_system(system, where), where)
    st = _state(system, q, qd, where)
    tau = _dof_vector(system, tau, "tau", where)
    tr = terms(system, st, tau=tau, f_ext=f_ext, check=False)
    return _solve(system, tr, where).qdd


# ----------------------------------------------------------------------------- Pinocchio's coordinates

class PinocchioMaps(NamedTuple):
    """The package's absolute ``state`` for Pinocchio's (q, v), the matrix ``S`` with
    qdot_ours = S v_pin (block diagonal, orthogonal), and ``qdd`` = the package's joint
    accelerations for Pinocchio's a (None when no a was given)."""

    state: State
    S: np.ndarray
    qdd: object


def pinocchio_maps(robot, q, v, a=None) -> PinocchioMaps:
    """Convert Pinocchio's (q, v, a) of a robot from :mod:`rfda_teach.interop` to the package's terms.

    Pinocchio's free-flyer and spherical speeds are in the child frame, the package's in the parent
    joint frame: qdot_ours = S v_pin with S orthogonal (identity blocks for revolute and prismatic
    joints).  So M_pin = S^T M_q S, tau_pin = S^T tau_ours, and qddot_ours = S (a + c), where c adds
    omega x v to a free-flyer's local linear acceleration (the change of frame of v).

    Examples
    --------
    >>> import numpy as np, pinocchio as pin
    >>> from rfda_teach import interop
    >>> from rfda_teach.system import terms
    >>> robot = interop.example_robot("solo12")
    >>> q, v, a = interop.random_state(robot, seed=1)
    >>> st, S, qdd = pinocchio_maps(robot, q, v, a)
    >>> tau = S.T @ inverse_dynamics(robot, terms(robot, st), qdd)
    >>> bool(np.allclose(tau, pin.rnea(robot.pin_model, robot.pin_model.createData(), q, v, a)))
    True
    """
    from . import interop
    where = "jointspace.pinocchio_maps"
    state, S = interop.state_and_speed_map(robot, q, v, where=where)
    model = robot.pin_model
    v = np.asarray(v, dtype=float)
    qdd = None
    if a is not None:
        acc = _check.vector(a, model.nv, "a", where=where, hint=f"Pinocchio's acceleration of {robot.name!r}")
        acc = acc.copy()
        for i in range(1, model.njoints):
            if robot.pin_kinds[i - 1] == "free":
                s0 = model.idx_vs[i]
                acc[s0:s0 + 3] += cross(v[s0 + 3:s0 + 6], v[s0:s0 + 3], check=False)
        qdd = S @ acc
    return PinocchioMaps(state, S, qdd)


# ----------------------------------------------------------------------------- counting

def _count_cholesky(n: int, t) -> None:
    """What :func:`_cholesky` counts for an n x n M_q, without factoring (the factorisation is
    LAPACK's; its count is the textbook formula either way)."""
    set_step(t, "cholesky")
    add(t, cholesky_count(n))
    add(t, n * n)


def _count(system: System, tr: Terms, method: str) -> Tally:
    t = Tally()
    if method == "rnea":
        _rnea(system, tr, _appendix_a(system, tr, t), np.zeros(system.n_dof), t)
    elif method == "crba":
        _crba(system, tr, _appendix_a(system, tr, t), t)
    elif method == "cholesky":
        _count_cholesky(system.n_dof, t)
    elif method == "joint_space_fd":
        BHd = _appendix_a(system, tr, t)
        _rnea(system, tr, BHd, np.zeros(system.n_dof), t)
        _crba(system, tr, BHd, t)
        _count_cholesky(system.n_dof, t)
    else:                                                                # the RFDA itself, counted as it runs
        rfda.solve(system, tr, method, tally=t)
    return t


def count_multiplications(system: System, method, *, state=None, by_step: bool = False):
    """Scalar multiplications of one evaluation by ``method``, counted while it runs.

    ``method`` is one of :data:`METHODS`: "rnea" (inverse dynamics), "crba" (M_q), "cholesky"
    (factor and solve M_q qddot = b), "joint_space_fd" (all three), "lubich" and "featherstone"
    (the two RFDA forms, D&G eq. 9-10 and 11-12, ending with qddot); or a tuple of them, which
    returns a dict method -> count (the terms are evaluated once).  Counted from the evaluated
    terms on: M_i, f_i, G_k, Q_k, gamma_k (D&G eq. 1-7) are the same O(n) input for every method and
    are not counted.  B_k, H_k, d_k of Appendix A are counted (the inverse of the p x p matrix
    [G_k; G_kd] as p^3) where a method needs them: all but "lubich" and "cholesky".  A product of
    an (a x b) and a (b x c) matrix counts abc, a Cholesky factor of N x N N(N-1)(N+1)/6 +
    N(N-1)/2, a pair of triangular solves N^2 per right-hand side (as
    :class:`~rfda_teach.count.Tally`; the factorisation itself runs in LAPACK, so its count is
    this formula and it is not performed when only counting).  The Featherstone form also
    computes the multipliers (step "multipliers", by_step shows it apart).  Counts do not depend
    on the state's values, only on the tree and its joints; ``state`` defaults to the zero
    configuration (:func:`neutral_q`) at rest.  With ``by_step`` a dict step -> count is returned
    (per method for a tuple).

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.chain(64)
    >>> count_multiplications(sys, "joint_space_fd") > count_multiplications(sys, "featherstone")
    True
    >>> count_multiplications(sys, "cholesky")        # 64 * 63 * 65 / 6 + 64 * 63 / 2 + 64^2
    49792
    >>> count_multiplications(sys, ("lubich", "featherstone"))
    {'lubich': 8896, 'featherstone': 13057}
    """
    where = "jointspace.count_multiplications"
    _system(system, where)
    several = isinstance(method, (tuple, list))
    methods = [_check.choice(m, METHODS, "method", where=where) for m in (method if several else [method])]
    if several and not methods:
        raise ModelError(f"{where}: method is an empty {type(method).__name__}; give one of {METHODS} or a "
                         "tuple of them")
    _check.instance(by_step, (bool, np.bool_), "by_step", where=where, hint="pass True or False")
    given = state is not None
    if given:
        state = check_state(system, state)
    else:
        state = _state(system, neutral_q(system), np.zeros(system.n_dof), where)
    tr = terms(system, state, check=given)
    out = {}
    for m in methods:
        t = _count(system, tr, m)
        out[m] = dict(t.counts) if by_step else t.total
    return out if several else out[methods[0]]
