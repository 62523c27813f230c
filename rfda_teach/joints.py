"""Joints: Q_k, G_k, nu_k, gamma_k of D&G eq. (1)-(3) and the driving rows of D&G eq. (58)-(59).

This module plays the part of ``jcalc`` in Featherstone's spatial_v2: the
joint type is decided here, in one table (:data:`JOINT_TYPES`), and no
algorithm anywhere else branches on it.

Every joint k connects its parent j (or the ground) to body k at a *joint
point*: ``parent_point`` s'_j^P in parent axes and ``child_point`` s'_k^P in
child axes.  A *joint frame* with axes ``parent_frame`` (in parent axes)
rides on the parent.  The relative twist of k with respect to j, taken at the
child's joint point p = r_k + R_k s'_k^P and written in world axes, is

    w = [v_rel; omega_rel] = W_k ydot_k + W_j ydot_j,
    v_rel = v_k + omega_k x a_k - v_j - omega_j x (p - r_j),   a_k = R_k s'_k^P,
    omega_rel = omega_k - omega_j.

A joint type is two sets of rows acting on the twist in joint-frame axes:
the constrained rows Phi (D&G eq. 1: Phi w = 0) and the free rows Psi, whose
values are the joint speeds qdot_k (the driving constraint of D&G eq. 59,
Q_kd ydot_j + G_kd ydot_k = qdot_k with nu_kd = 0).  The rows act in the parent
joint frame, which rides on the parent; the universal joint's angular rows act
in the frame of its cross (see below).  A block that is constrained
completely (all of v_rel, as in a revolute or spherical joint, or all of
omega_rel, as in a prismatic joint) is written in world axes, as in Haug (1989)
and in D&G eq. (18); this reproduces the paper's Q_k and G_k of §3.1.1 and §3.2.1
entry by entry.

The universal (Hooke, Cardan) joint, type ``"universal"``, has two orthogonal
unit axes ``axes = (a1, a2)``: a1 fixed in the parent joint frame, a2 fixed in
the child joint frame, both in the components of the joint frame at q = 0, where
the two joint frames coincide (default a1 = x, a2 = y).  The child joint frame
in the parent joint frame is R_q = Rot(a1, q1) Rot(a2, q2), Pinocchio's
``JointModelUniversal``.  With u = a1 and v = a2 in world axes, the rows act in
the frame of the cross, axes (u, v, n = u x v): the joint point is pinned (three
rows in world axes), n . omega_rel = 0 (the time derivative of -u . v = 0), and
the joint speeds are qdot_1 = u . omega_rel and qdot_2 = v . omega_rel.  The cross
turns with the parent plus qdot_1 about u, which gamma_k accounts for.

Examples
--------
>>> import numpy as np
>>> jt = Joint("revolute2d", parent_point=[0.5, 0.0], child_point=[-0.5, 0.0])
>>> t = evaluate(jt, "planar", np.zeros(3), np.zeros(3), np.array([1.0, 0, 0]), np.zeros(3))
>>> t.G
array([[ 1. ,  0. ,  0. ],
       [ 0. ,  1. , -0.5]])
>>> t.Q
array([[-1. ,  0. ,  0. ],
       [ 0. , -1. , -0.5]])
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import _check
from .bodies import KINDS, ndim, npos, nvel, rotation
from .spatial import (cross, elementary_rotation, euler_params_to_matrix, matrix_to_euler_params, planar_rotation, skew,
                      unit_euler)
from .errors import ConstraintRankError, ConstraintViolationError, ModelError

__all__ = ["Joint", "JointTerms", "JOINT_TYPES", "evaluate", "joint_pose", "nq", "ndof",
           "random_joint_position", "position_residual", "Phi"]

_ALL = "all"

#: type -> (body kind, constrained linear axes, constrained angular axes,
#:          free linear axes, free angular axes, number of position variables q)
JOINT_TYPES = {
    "rail":        ("point2",  [1], [], [0], [], 1),
    "revolute2d":  ("planar",  _ALL, [], [], [0], 1),
    "prismatic2d": ("planar",  [1], _ALL, [0], [], 1),
    "free2d":      ("planar",  [], [], [0, 1], [0], 3),
    "revolute":    ("spatial", _ALL, [0, 1], [], [2], 1),
    "prismatic":   ("spatial", [0, 1], _ALL, [2], [], 1),
    "spherical":   ("spatial", _ALL, [], [], [0, 1, 2], 4),
    "universal":   ("spatial", _ALL, [2], [], [0, 1], 2),   # angular rows in the cross frame (u, v, n)
    "free":        ("spatial", [], [], [0, 1, 2], [0, 1, 2], 7),
}


def _twist_sizes(kind: str) -> tuple[int, int]:
    """(linear, angular) sizes of the relative twist of a body kind."""
    return {"point2": (2, 0), "planar": (2, 1), "spatial": (3, 3)}[kind]


@dataclass(frozen=True, eq=False)
class Joint:
    """A joint between a body and its parent (or the ground).

    ``type`` is a key of :data:`JOINT_TYPES` or ``"custom"``; a custom joint
    gives its constrained rows ``Phi`` and free rows ``Psi`` (joint-frame
    twist components, linear first) itself, for the kind ``kind``.
    ``axes`` (only for ``"universal"``): the two orthogonal axes (a1, a2), a1 fixed in the
    parent joint frame, a2 in the child joint frame, in joint-frame components at q = 0
    (default ((1, 0, 0), (0, 1, 0))); stored as unit vectors.

    Examples
    --------
    >>> Joint("universal", axes=[(0, 0, 2.0), (1.0, 0, 0)]).axes
    array([[0., 0., 1.],
           [1., 0., 0.]])
    >>> Joint("universal", axes=[(1.0, 0, 0), (1.0, 1.0, 0)], name="cardan")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: joint 'cardan': axes a1 and a2 of a universal joint must be orthogonal; the angle between them is 45 deg; give a2 perpendicular to a1
    """

    type: str
    parent_point: object = None
    child_point: object = None
    parent_frame: object = None
    child_frame: object = None
    name: str = ""
    Phi: object = None
    Psi: object = None
    kind: str = ""
    axes: object = None
    _rows: tuple = field(init=False, repr=False)

    def __post_init__(self):
        where = f"joint {self.name!r}" if self.name else f"joint of type {self.type!r}"
        if not isinstance(self.type, str):
            raise ModelError(f"{where}: unknown joint type {self.type!r}; use one of "
                             f"{sorted(JOINT_TYPES) + ['custom']}")
        if self.type == "custom":
            kind = self.kind
            if kind not in KINDS:
                raise ModelError(f"{where}: a custom joint needs kind= one of {sorted(KINDS)}")
        elif self.type in JOINT_TYPES:
            kind = JOINT_TYPES[self.type][0]
        else:
            raise ModelError(f"{where}: unknown joint type {self.type!r}; use one of "
                             f"{sorted(JOINT_TYPES) + ['custom']}")
        object.__setattr__(self, "kind", kind)
        d = ndim(kind)
        for name, default in (("parent_point", np.zeros(d)), ("child_point", np.zeros(d))):
            v = getattr(self, name)
            v = default if v is None else _check._array(v, name, where)
            if v.shape != (d,) or not np.all(np.isfinite(v)):
                raise ModelError(f"{where}: {name} must be {d} finite numbers, got {getattr(self, name)!r}")
            object.__setattr__(self, name, v)
        for name in ("parent_frame", "child_frame"):
            v = getattr(self, name)
            v = np.eye(d) if v is None else _check._array(v, name, where)
            if d == 2 and v.shape == ():
                v = planar_rotation(_check.scalar(v, name, where=where), check=False)
            if v.shape != (d, d) or not np.isfinite(v).all() or np.abs(v.T @ v - np.eye(d)).max() > 1e-9:
                raise ModelError(f"{where}: {name} must be an orthogonal {d}x{d} matrix (or an angle in 2-D)")
            if kind != "point2" and np.linalg.det(v) < 0:
                raise ModelError(f"{where}: {name} is a reflection; a rotating body needs a proper rotation")
            object.__setattr__(self, name, v)
        object.__setattr__(self, "axes", _axes(self.type, self.axes, where))
        object.__setattr__(self, "_rows", _rows(self, kind, where))

    @property
    def n_constraints(self) -> int:
        """p_kc: rows of G_k."""
        return self._rows[0].shape[0]

    @property
    def n_dof(self) -> int:
        """p_kf = p_k - p_kc: joint speeds qdot_k."""
        return self._rows[2].shape[0]

    @property
    def n_q(self) -> int:
        """Number of joint position variables q_k (Euler parameters count 4)."""
        if self.type == "custom":
            raise ModelError(f"joint {self.name!r}: a custom joint has no position kinematics")
        return JOINT_TYPES[self.type][5]


def _axes(jtype: str, axes, where: str):
    """The unit axes (a1, a2) of a universal joint as a 2x3 array; None for every other type."""
    if jtype != "universal":
        if axes is not None:
            raise ModelError(f"{where}: axes= is only for a universal joint; a {jtype} joint is oriented by "
                             "parent_frame and child_frame")
        return None
    a = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]) if axes is None else _check._array(axes, "axes", where)
    if a.shape != (2, 3) or not np.all(np.isfinite(a)):
        raise ModelError(f"{where}: axes must be two finite 3-vectors (a1 in the parent joint frame, a2 in the "
                         f"child joint frame), got {axes!r}")
    n = np.linalg.norm(a, axis=1)
    if not np.all(n > 1e-12):
        raise ModelError(f"{where}: axis a{int(np.argmin(n)) + 1} of a universal joint is the zero vector; "
                         "give two non-zero orthogonal axes")
    a = a / n[:, None]
    if abs(a[0] @ a[1]) > 1e-9:
        deg = np.degrees(np.arccos(np.clip(abs(a[0] @ a[1]), 0.0, 1.0)))
        raise ModelError(f"{where}: axes a1 and a2 of a universal joint must be orthogonal; the angle between "
                         f"them is {deg:.4g} deg; give a2 perpendicular to a1")
    a.setflags(write=False)
    return a


def _axis_rotation(a, angle) -> np.ndarray:
    """Rot(a, angle) for a unit axis a."""
    return euler_params_to_matrix(np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * a]), check=False)


def _row_frame(joint: Joint, R_J, R_k, w_j, w_rel):
    """(R_F, omega_F): the frame the joint's rows act in, in world axes, and its angular velocity.

    The parent joint frame R_J, turning with the parent (omega_j), for every type but the
    universal joint, whose rows act in the frame of its cross: axes u = R_J a1, v, n = u x v
    (a2 on the child, made exactly orthogonal to u), turning with the parent plus
    qdot_1 = u . omega_rel about u.
    """
    if joint.type != "universal":
        return R_J, w_j
    u = R_J @ joint.axes[0]
    n = cross(u, R_k @ joint.child_frame @ joint.axes[1], check=False)
    size = np.linalg.norm(n)
    if not size > 1e-6:                   # the axes are parallel: the state breaks the joint by 90 degrees
        raise ConstraintViolationError(
            f"joint {joint.name!r} (universal): its axes a1 (parent) and a2 (child) are parallel in this "
            "state, so the cross is undefined; give a state that satisfies the joint (a1 normal to a2), "
            "e.g. from models.state_from_joints")
    n /= size
    return np.column_stack([u, cross(n, u, check=False), n]), w_j + u * (u @ w_rel)


def _rows(joint: Joint, kind: str, where: str):
    """Phi, world-flags of Phi rows, Psi for a joint (the jcalc table lookup)."""
    if joint.type != "custom":
        return _table_rows(joint.type)
    return _check_rows(joint, kind, where)


@functools.lru_cache(maxsize=None)
def _table_rows(jtype: str):
    """The rows of a table joint type, computed once per type (read-only arrays)."""
    out = _check_rows(Joint.__new__(Joint), JOINT_TYPES[jtype][0], f"joint type {jtype!r}", jtype)
    for a in out:
        a.setflags(write=False)
    return out


def _check_rows(joint: Joint, kind: str, where: str, jtype: str = "custom"):
    nl, na = _twist_sizes(kind)
    dtw = nl + na
    if jtype == "custom":
        rows = []
        for nm in ("Phi", "Psi"):
            v = getattr(joint, nm)
            a = np.zeros((0, dtw)) if v is None else np.atleast_2d(_check._array(v, nm, where))
            if a.size == 0:
                a = np.zeros((0, dtw))
            if a.ndim != 2 or a.shape[1] != dtw:
                raise ModelError(f"{where}: {nm} has shape {a.shape}; a {kind} joint needs rows of {dtw} "
                                 "joint-frame twist components (linear first)")
            rows.append(_check._finite(a, nm, where))
        Phi, Psi = rows
        world = np.zeros(Phi.shape[0], bool)
    else:
        _, lc, ac, lf, af, _ = JOINT_TYPES[jtype]
        rows, world = [], []
        for axes, off, n in ((lc, 0, nl), (ac, nl, na)):
            full = axes == _ALL
            for a in (range(n) if full else axes):
                r = np.zeros(dtw)
                r[off + a] = 1.0
                rows.append(r)
                world.append(full)
        Phi = np.array(rows).reshape(-1, dtw)
        world = np.array(world, bool)
        Psi = np.array([np.eye(dtw)[a] for a in lf] + [np.eye(dtw)[nl + a] for a in af]).reshape(-1, dtw)
    if Phi.shape[0]:
        rank = np.linalg.matrix_rank(Phi)
        if rank < Phi.shape[0]:
            raise ConstraintRankError(
                f"{where}: G_k is not of full row rank: {Phi.shape[0]} constraint rows but rank {rank}; "
                "remove the dependent rows (the paper assumes G_k of full row rank, §2)")
    both = np.vstack([Phi, Psi])
    if both.shape != (dtw, dtw) or np.linalg.matrix_rank(both) < dtw:
        raise ConstraintRankError(
            f"{where}: constraint rows and free rows together must form an invertible {dtw}x{dtw} matrix "
            f"[G_k; G_kd] (eq. 60), got shape {both.shape} with rank {np.linalg.matrix_rank(both)}; "
            "give one free row for every unconstrained direction")
    return Phi, world, Psi


def nq(joint: Joint) -> int:
    """Number of position variables of a joint.


    Examples
    --------
    >>> nq(Joint("spherical")), ndof(Joint("spherical"))
    (4, 3)
    """
    return _check.instance(joint, Joint, "joint", where="nq").n_q


def ndof(joint: Joint) -> int:
    """Number of joint speeds of a joint.


    Examples
    --------
    >>> ndof(Joint("free"))
    6
    """
    return _check.instance(joint, Joint, "joint", where="ndof").n_dof


class JointTerms(NamedTuple):
    """The joint's rows of D&G eq. (1)-(3) and of the driving constraint D&G eq. (59).

    ``Q`` is None when the parent is the ground (D&G eq. 2).  ``qd`` is the current
    value of the joint speeds, Q_d ydot_j + G_d ydot_k.
    """

    Q: np.ndarray | None
    G: np.ndarray
    nu: np.ndarray
    gamma: np.ndarray
    Q_d: np.ndarray | None
    G_d: np.ndarray
    nu_d: np.ndarray
    gamma_d: np.ndarray
    qd: np.ndarray


def evaluate(joint: Joint, kind: str, y_j, yd_j, y_k, yd_k, *, check: bool = True) -> JointTerms:
    """Q_k, G_k, nu_k, gamma_k (D&G eq. 1, 3) and Q_kd, G_kd, nu_kd, gamma_kd (D&G eq. 59) at a state.

    ``y_j``/``yd_j`` are None when the parent is the ground.  gamma collects the
    velocity-product terms: Q_k yddot_j + G_k yddot_k = gamma_k (D&G eq. 3).

    Examples
    --------
    >>> import numpy as np
    >>> t = evaluate(Joint("rail"), "point2", None, None, np.zeros(2), np.array([2.0, 0.0]))
    >>> t.G, t.Q, t.qd                   # r_y = 0 to the ground; qdot = xdot
    (array([[0., 1.]]), None, array([2.]))
    """
    if not check:                      # arguments computed by the package: no validation
        return _evaluate(joint, kind, y_j, yd_j, y_k, yd_k)
    joint, kind, y_j, yd_j, y_k, yd_k = _args(joint, kind, "evaluate", y_j, y_k, yd_j=yd_j, yd_k=yd_k)
    return _evaluate(joint, kind, y_j, yd_j, y_k, yd_k)


def _args(joint, kind, where, y_j, y_k, *, yd_j=None, yd_k=None, need_vel=True):
    """Validate the arguments shared by the joint functions."""
    _check.instance(joint, Joint, "joint", where=where)
    if kind != joint.kind:
        raise ModelError(f"{where}: kind {kind!r} does not match joint {joint.name!r} of kind {joint.kind!r}")
    n, p = npos(kind), nvel(kind)
    y_k = _check.vector(y_k, n, "y_k", where=where)
    if kind == "spatial":
        unit_euler(y_k[3:7], "y_k[3:7]", where=where)
    if need_vel:
        yd_k = _check.vector(yd_k, p, "yd_k", where=where)
    if y_j is not None:
        y_j = _check.vector(y_j, n, "y_j", where=where)
        if kind == "spatial":
            unit_euler(y_j[3:7], "y_j[3:7]", where=where)
        if need_vel:
            yd_j = _check.vector(yd_j, p, "yd_j", where=where)
    return joint, kind, y_j, yd_j, y_k, yd_k


def _evaluate(joint: Joint, kind: str, y_j, yd_j, y_k, yd_k) -> JointTerms:
    nl, na = _twist_sizes(kind)
    pk = nvel(kind)
    ground = y_j is None
    R_k = rotation(kind, y_k, check=False)
    r_k = y_k[:nl]
    v_k = yd_k[:nl]
    a_k = R_k @ joint.child_point
    p = r_k + a_k
    if ground:
        R_j, r_j, v_j = np.eye(nl), np.zeros(nl), np.zeros(nl)
        w_j = 0.0 if kind == "planar" else np.zeros(3)
    else:
        R_j, r_j, v_j = rotation(kind, y_j, check=False), y_j[:nl], yd_j[:nl]
        w_j = yd_j[2] if kind == "planar" else (yd_j[3:6] if kind == "spatial" else None)
    R_J = R_j @ joint.parent_frame
    dtw = nl + na
    Wk = np.zeros((dtw, pk))
    Wj = np.zeros((dtw, pk))
    for i in range(nl):
        Wk[i, i] = 1.0
        Wj[i, i] = -1.0
    if kind == "point2":
        w = v_k - v_j
        kappa = np.zeros(2)
        rho = np.zeros(2)
    elif kind == "planar":
        w_k = yd_k[2]
        ax, ay = a_k
        bx, by = p[0] - r_j[0], p[1] - r_j[1]
        Wk[0, 2], Wk[1, 2], Wk[2, 2] = -ay, ax, 1.0                  # omega x a in the plane
        Wj[0, 2], Wj[1, 2], Wj[2, 2] = by, -bx, -1.0
        pdx, pdy = v_k[0] - w_k * ay, v_k[1] + w_k * ax
        ux, uy = pdx - v_j[0], pdy - v_j[1]
        w = np.array([ux + w_j * by, uy - w_j * bx, w_k - w_j])
        kappa = np.array([-w_k * w_k * ax + w_j * uy, -w_k * w_k * ay - w_j * ux, 0.0])
        rho = np.array([w_j * w[1], -w_j * w[0], 0.0])
    else:
        w_k = yd_k[3:6]
        Wk[:3, 3:] = -skew(a_k, check=False)
        Wk[3:, 3:] = np.eye(3)
        Wj[:3, 3:] = skew(p - r_j, check=False)
        Wj[3:, 3:] = -np.eye(3)
        pdot = v_k + cross(w_k, a_k, check=False)
        w = np.concatenate([pdot - v_j - cross(w_j, p - r_j, check=False), w_k - w_j])
        kappa = np.concatenate([cross(w_k, cross(w_k, a_k, check=False), check=False)
                                - cross(w_j, pdot - v_j, check=False), np.zeros(3)])
    if kind == "spatial":
        R_J, w_F = _row_frame(joint, R_J, R_k, w_j, w[3:])
        rho = np.concatenate([-cross(w_F, w[:3], check=False), -cross(w_F, w[3:], check=False)])
    T_J = np.eye(dtw)
    T_J[:nl, :nl] = R_J.T
    if kind == "spatial":
        T_J[3:, 3:] = R_J.T
    Phi, world, Psi = joint._rows
    C = Phi @ T_J
    C[world] = Phi[world]
    gamma = -(C @ kappa) - np.where(world, 0.0, Phi @ (T_J @ rho))
    D = Psi @ T_J
    gamma_d = -(D @ (kappa + rho))
    G, G_d = C @ Wk, D @ Wk
    Q = None if ground else C @ Wj
    Q_d = None if ground else D @ Wj
    m = C.shape[0]
    return JointTerms(Q, G, np.zeros(m), gamma, Q_d, G_d, np.zeros(D.shape[0]), gamma_d, D @ w)


# ----------------------------------------------------------------------------- position kinematics

def _relative_motion(joint: Joint, q: np.ndarray):
    """(R_q, t_q): rotation and translation of the child joint frame in the parent joint frame."""
    t = joint.type
    if t == "rail":
        return np.eye(2), np.array([q[0], 0.0])
    if t == "revolute2d":
        return planar_rotation(q[0], check=False), np.zeros(2)
    if t == "prismatic2d":
        return np.eye(2), np.array([q[0], 0.0])
    if t == "free2d":
        return planar_rotation(q[2], check=False), np.array(q[:2], float)
    if t == "revolute":
        return elementary_rotation("z", q[0], check=False), np.zeros(3)
    if t == "prismatic":
        return np.eye(3), np.array([0, 0, q[0]], float)
    if t == "spherical":
        return euler_params_to_matrix(q[:4] / np.linalg.norm(q[:4]), check=False), np.zeros(3)
    if t == "universal":                                      # Rot(a1, q1) Rot(a2, q2)
        return _axis_rotation(joint.axes[0], q[0]) @ _axis_rotation(joint.axes[1], q[1]), np.zeros(3)
    if t == "free":
        return euler_params_to_matrix(q[3:7] / np.linalg.norm(q[3:7]), check=False), np.array(q[:3], float)
    raise ModelError(f"joint {joint.name!r}: type {t!r} has no position kinematics")


def joint_pose(joint: Joint, kind: str, y_j, q, *, check: bool = True) -> np.ndarray:
    """Position coordinates y_k of the child for joint variables q (y_j None for the ground).


    Examples
    --------
    >>> import numpy as np
    >>> jt = Joint("revolute2d", parent_point=[1.0, 0.0], child_point=[-0.5, 0.0])
    >>> np.round(joint_pose(jt, "planar", np.zeros(3), [np.pi / 2]), 12) + 0.0
    array([1.        , 0.5       , 1.57079633])
    """
    if not check:                      # arguments computed by the package: no validation
        return _joint_pose(joint, kind, y_j, q)
    _check.instance(joint, Joint, "joint", where="joint_pose")
    if kind != joint.kind:
        raise ModelError(f"joint_pose: kind {kind!r} does not match joint {joint.name!r} of kind {joint.kind!r}")
    q = _check._array(q, "q", "joint_pose")
    if q.shape != (joint.n_q,):
        raise ModelError(f"joint {joint.name!r} ({joint.type}) needs {joint.n_q} position variables, got {q.shape}")
    _check._finite(q, "q", "joint_pose")
    if joint.type in ("spherical", "free"):
        e = q[-4:]
        if not np.any(e):
            raise ModelError(f"joint_pose: joint {joint.name!r} ({joint.type}): Euler parameters q[-4:] are all "
                             "zero; give unit Euler parameters, e.g. (1, 0, 0, 0)")
    if y_j is not None:
        y_j = _check.vector(y_j, npos(kind), "y_j", where="joint_pose")
    return _joint_pose(joint, kind, y_j, q)


def _joint_pose(joint: Joint, kind: str, y_j, q) -> np.ndarray:
    nl = _twist_sizes(kind)[0]
    R_j = np.eye(nl) if y_j is None else rotation(kind, y_j, check=False)
    r_j = np.zeros(nl) if y_j is None else y_j[:nl]
    Rq, tq = _relative_motion(joint, q)
    R_J = R_j @ joint.parent_frame
    p = r_j + R_j @ joint.parent_point + R_J @ tq
    if kind == "point2":
        return p - joint.child_point
    R_k = R_J @ Rq @ joint.child_frame.T
    r_k = p - R_k @ joint.child_point
    if kind == "planar":
        return np.array([r_k[0], r_k[1], np.arctan2(R_k[1, 0], R_k[0, 0])])
    return np.concatenate([r_k, matrix_to_euler_params(R_k, check=False)])


def position_residual(joint: Joint, kind: str, y_j, y_k, *, check: bool = True) -> np.ndarray:
    """The violation of the joint's position constraint Phi_k(y_j, y_k) = 0 (D&G eq. 1 before differentiation).

    Returned in the parent joint frame: the constrained components of the
    relative position of the joint points (metres), then, for constrained
    rotations, the misalignment of the child joint frame (the constrained
    entries of R_rel - I for a fully locked rotation, of z_child - z_parent for
    a spatial revolute or prismatic axis, a1 . a2 for a universal joint; the
    wrapped relative angle in the plane).  A custom joint has no position
    kinematics: an empty array.

    Examples
    --------
    >>> import numpy as np
    >>> jt = Joint("revolute2d", parent_point=[1.0, 0.0], child_point=[-0.5, 0.0])
    >>> y_k = joint_pose(jt, "planar", np.zeros(3), [0.3])
    >>> float(np.abs(position_residual(jt, "planar", np.zeros(3), y_k)).max()) < 1e-12
    True
    >>> np.round(position_residual(jt, "planar", np.zeros(3), y_k + [0.0, 0.3, 0.0]), 12) + 0.0
    array([0. , 0.3])
    """
    if not check:                      # arguments computed by the package: no validation
        return _position_residual(joint, kind, y_j, y_k)
    joint, kind, y_j, _, y_k, _ = _args(joint, kind, "position_residual", y_j, y_k, need_vel=False)
    return _position_residual(joint, kind, y_j, y_k)


def _relative_pose(joint: Joint, kind: str, y_j, y_k):
    """(R_J, sep, R_rel): the parent joint frame in global axes, the separation of the two joint
    points in global components, and the child joint frame in the parent joint frame."""
    nl = _twist_sizes(kind)[0]
    R_j = np.eye(nl) if y_j is None else rotation(kind, y_j, check=False)
    r_j = np.zeros(nl) if y_j is None else np.asarray(y_j[:nl], float)
    R_k = rotation(kind, y_k, check=False)
    R_J = R_j @ joint.parent_frame
    sep = np.asarray(y_k[:nl], float) + R_k @ joint.child_point - r_j - R_j @ joint.parent_point
    return R_J, sep, R_J.T @ R_k @ joint.child_frame


def _position_residual(joint: Joint, kind: str, y_j, y_k) -> np.ndarray:
    if joint.type == "custom":
        return np.zeros(0)
    R_J, sep, R_rel = _relative_pose(joint, kind, y_j, y_k)
    d = R_J.T @ sep
    _, lc, ac, _, _, _ = JOINT_TYPES[joint.type]
    out = [d if lc == _ALL else d[list(lc)]]
    if joint.type == "universal":                            # a1 . a2 after the motion: 0
        out.append([joint.axes[0] @ R_rel @ joint.axes[1]])
    elif kind != "point2" and ac:
        if kind == "planar":
            out.append([np.arctan2(R_rel[1, 0], R_rel[0, 0])])
        elif ac == _ALL:
            out.append((R_rel - np.eye(3)).ravel())
        else:
            out.append(R_rel[:, 2] - np.array([0.0, 0.0, 1.0]))
    return np.concatenate([np.asarray(o, float).ravel() for o in out])


def Phi(joint: Joint, kind: str, y_j, y_k, *, check: bool = True) -> np.ndarray:
    """The position constraint Phi_k(y_j, y_k) = 0 of a joint, row for row with G_k (D&G eq. 1).

    Its time derivative is Q_k ydot_j + G_k ydot_k to first order near Phi_k = 0, which is
    what Baumgarte stabilisation (gamma_k - 2 alpha Phi_k' - beta^2 Phi_k) and projection need.
    Rows of G_k in global axes (a pin's two or three position rows, a locked rotation) get
    global components: the joint points' separation, the small-angle vector of the relative
    rotation; rows in the parent joint frame (a slider's off-axis directions, a hinge's tilt)
    get joint-frame components; a universal joint's cross row gets -u . v (its two axes in global
    components).  A custom joint has no position kinematics: an empty array.
    :func:`position_residual` gives the same violation in joint-frame components only.

    Examples
    --------
    >>> import numpy as np
    >>> jt = Joint("revolute2d", parent_point=[1.0, 0.0], child_point=[-0.5, 0.0])
    >>> y_k = joint_pose(jt, "planar", np.array([0.0, 0.0, np.pi / 2]), [0.3])
    >>> y_k[1] += 0.01                                  # lift the child 1 cm in global y
    >>> np.round(Phi(jt, "planar", np.array([0.0, 0.0, np.pi / 2]), y_k), 12) + 0.0
    array([0.  , 0.01])
    """
    if not check:                      # arguments computed by the package: no validation
        return _Phi(joint, kind, y_j, y_k)
    joint, kind, y_j, _, y_k, _ = _args(joint, kind, "Phi", y_j, y_k, need_vel=False)
    return _Phi(joint, kind, y_j, y_k)


def _Phi(joint: Joint, kind: str, y_j, y_k) -> np.ndarray:
    if joint.type == "custom":
        return np.zeros(0)
    R_J, sep, R_rel = _relative_pose(joint, kind, y_j, y_k)
    _, lc, ac, _, _, _ = JOINT_TYPES[joint.type]
    out = [sep if lc == _ALL else (R_J.T @ sep)[list(lc)]]
    if joint.type == "universal":                            # -u . v, whose rate is n . omega_rel
        out.append([-(joint.axes[0] @ R_rel @ joint.axes[1])])
    elif kind != "point2" and ac:
        if kind == "planar":
            out.append([np.arctan2(R_rel[1, 0], R_rel[0, 0])])
        elif ac == _ALL:
            A = 0.5 * (R_rel - R_rel.T)                  # small-angle vector, joint frame ...
            out.append(R_J @ np.array([A[2, 1], A[0, 2], A[1, 0]]))   # ... in global axes
        else:
            z = R_rel[:, 2]                              # the hinge/slide axis tilts by (-z_y, z_x)
            out.append(np.array([-z[1], z[0]])[list(range(len(ac)))])
    return np.concatenate([np.asarray(o, float).ravel() for o in out])


def random_joint_position(joint: Joint, rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """A random admissible q_k (unit quaternions where the joint has them).


    Examples
    --------
    >>> import numpy as np
    >>> q = random_joint_position(Joint("free"), np.random.default_rng(0))
    >>> q.shape, bool(np.isclose(np.linalg.norm(q[3:]), 1.0))
    ((7,), True)
    """
    _check.instance(joint, Joint, "joint", where="random_joint_position")
    _check.instance(rng, np.random.Generator, "rng", where="random_joint_position",
                    hint="pass numpy.random.default_rng(seed)")
    scale = _check.scalar(scale, "scale", where="random_joint_position", nonneg=True)
    t = joint.type
    if t in ("spherical", "free"):
        e = rng.normal(size=4)
        e /= np.linalg.norm(e)
        return e if t == "spherical" else np.concatenate([scale * rng.uniform(-0.5, 0.5, 3), e])
    if t == "free2d":
        return np.array([*(scale * rng.uniform(-0.5, 0.5, 2)), rng.uniform(-np.pi, np.pi)])
    if t in ("revolute", "revolute2d"):
        return np.array([rng.uniform(-np.pi, np.pi)])
    if t == "universal":
        return rng.uniform(-np.pi, np.pi, 2)
    return np.array([scale * rng.uniform(-0.5, 0.5)])
