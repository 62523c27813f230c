"""Recursive coordinate reduction (RCR), arbitrary coordinate selection (ACS) and general
coupled loops (GCL) of Critchley & Anderson, for planar closed loops of one-dof joints.

Spatial notation, planar form
-----------------------------
A spatial vector is (omega_z, v_x, v_y) at a body's mass centre in world axes; a spatial
inertia is I^k = diag(J_k, m_k, m_k).  The shift tensor S^k of C&A eq. (3)-(6) moves a spatial
velocity from the parent's point to the child's point,

    (S^k)^T = [[1, 0, 0], [-r_y, 1, 0], [r_x, 0, 1]],   r = x_k - x_{p[k]},

and ^jS^k = S(x_k - x_j) for any two points (world axes make the shifts pure translations).
Every formula below is written for these 3-vectors; the paper's 6-vectors change nothing but
the size.  Generalized speeds are the joint rates, u_k = qdot_k.

The mechanism and its two tree topologies
-----------------------------------------
The mechanism is a :class:`~rfda_teach.loops.LoopMechanism` (module :mod:`rfda_teach.loops`, with its
builders, the loop closure of C&A eq. 23 and the state checks, all re-exported here: ``rcr.five_bar()``, ...):
a single closed loop, joint 1 connects the ground to body 1, joint k connects body k-1 to body k, and
joint n connects body n-1 back to the ground.

* ``"chain"`` (RCR and ACS, Fig. 2-3): the tree N -> 1 -> ... -> n-1 -> n, where body n is a
  massless *phantom* copy of the loop base body N; the loop constraint is ^0V^n = 0 (C&A eq. 23).
* ``"gcl"`` (GCL, Fig. 8a as chosen here): the last ``split`` joints are worked backwards from
  the ground, so body n-split becomes the loop base body 0 on its own branch and the phantom
  copies it at the end of the other branch; the two open chains extend from the branching body
  b = N (§5).  The dependents are then adjacent and last on the phantom branch.

Algorithm (:func:`accelerations`)
---------------------------------
1. tree kinematics: poses, V^k, P_k^k, the velocity-product remainders A_t^k (C&A eq. 1-4);
2. loop kinematics inward over the loop (C&A eq. 33-36, 66): Q^k, R^k, X^k, W^k; a vanishing
   a_k^T R^{k+1} a_k raises :class:`SingularCoordinateSelectionError`;
3. outward from the virtual terminal body p: Y^k, Z^k, H^k K (C&A eq. 41-44, 78-81);
4. reduced dynamics of the outboard independents (C&A eq. 86-99) and the terminal-body terms
   (C&A eq. 53-55, 100-102); with a moving base body the base equation collects the terms of
   C&A eq. (108)-(111);
5. triangularization inward (C&A eq. 20-22, 60-64), forward substitution (C&A eq. 12, 59, 99) and the
   dependent accelerations (C&A eq. 67).

Chains of coupled loops (:func:`series_accelerations`)
-------------------------------------------------------
A loop may be based on a moving body (C&A eq. 47-64).  Steps 1-5 then run with that body as the
tree's root; carried inward to it, the whole loop acts on its base body as I_art A^0 - F_art,
which is added to the body's own inertia and force before the next loop inward is reduced.
Outermost loop first, then a forward pass from the ground: O(n + m) for a chain of loops.
:func:`count_multiplications` counts the scalar multiplications of one evaluation.

Inputs and states
-----------------
Every public function checks its arguments through :mod:`rfda_teach._check` and the checks of
:mod:`rfda_teach.loops` and raises a :class:`~rfda_teach.errors.ModelError` naming the argument.  A state
(q, qd) must close its loop (:func:`rfda_teach.loops.check_state`): every entry of the closure residual
(C&A eq. 23) within ``CLOSURE_TOL`` = 1e-6 (rad, m) and every entry of J_c qd within 1e-6 max(1, |qd|);
otherwise :class:`~rfda_teach.errors.ConstraintViolationError` names the loop and the residual and points
to :func:`solve_dependents` / :func:`dependent_velocities`.  The check costs O(n); ``check=False`` skips
it in inner loops.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import rcr
>>> fb = rcr.five_bar()
>>> qdd = rcr.accelerations(fb, fb.q0, np.zeros(5), method="acs")
>>> bool(np.allclose(qdd, rcr.accelerations(fb, fb.q0, np.zeros(5), method="gcl")))
True
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.linalg

from . import _check, loopref
from .bodies import Body
from .count import Tally, check as check_tally, mm, outer, scale
from .errors import ModelError, RFDAError, SingularCoordinateSelectionError
# the mechanism record, re-exported under the names rcr has always had (rcr.five_bar(), rcr.LoopMechanism, ...)
from .loops import (CLOSURE_TOL, LoopJoint, LoopMechanism, LoopSeries, check_body, check_closed,  # noqa: F401
                    check_model, check_q, check_series_states, check_state, closure, closure_jacobian,
                    dependent_indices, five_bar, four_bar, from_system, loop_chain, loop_series,
                    state_from_system)
from .loops import absolute_accelerations
from .spatial import order_permutation, planar_cross, shift
from .spatial import spatial_inertia as _inertia_v_omega
from .simulate import integrate, span
from .summary import samples

__all__ = ["LoopJoint", "LoopMechanism", "five_bar", "four_bar", "loop_chain", "Topology", "topology",
           "accelerations", "dependent_velocities", "solve_dependents", "closure", "closure_jacobian",
           "selection_sigma", "energy", "simulate", "RCRResult", "body_poses", "shift_T", "spatial_inertia",
           "tree_accelerations", "recursive_inertias"]

#: P (omega, v_x, v_y) = (v_x, v_y, omega): C&A put the angular part first, rfda_teach.spatial the linear part;
#: P^T X P is X[_AF] (the same entries picked, no products)
_P = order_permutation(3)
_AF = np.ix_(_P.argmax(axis=0), _P.argmax(axis=0))


# ----------------------------------------------------------------------------- spatial algebra

def shift_T(r) -> np.ndarray:
    """(S)^T for a shift by r: moves (omega, v) from a point to the point + r (C&A eq. 3, 6); the book's
    :func:`rfda_teach.spatial.shift` in C&A's angular-first order, P^T X(r) P
    (P = :func:`rfda_teach.spatial.order_permutation` (3)).

    Examples
    --------
    >>> shift_T([1.0, 0.0]) @ [1.0, 0.0, 0.0]      # turning at 1 rad/s: the point 1 m along x moves up
    array([1., 0., 1.])
    """
    return _shift_T(_check.vector(r, 2, "r", where="rcr.shift_T", hint="a planar offset (x, y) in metres"))


def _shift_T(r) -> np.ndarray:
    """:func:`shift_T` without input checks, for the recursions: :func:`rfda_teach.spatial.shift` reordered
    angular first, P^T X(r) P."""
    return shift(r, check=False)[_AF]


def spatial_inertia(body: Body | None) -> np.ndarray:
    """I^k = diag(J, m, m) about the mass centre (§2.1); zero for a phantom body.

    Examples
    --------
    >>> spatial_inertia(Body("planar", 2.0, 0.5)).diagonal()
    array([0.5, 2. , 2. ])
    """
    if body is None:
        return np.zeros((3, 3))
    check_body(body, where="rcr.spatial_inertia")
    return _inertia_v_omega(body.mass, float(body.J[0, 0]), check=False)[_AF]          # angular first, P^T I P


# ----------------------------------------------------------------------------- topology

class Topology(NamedTuple):
    """The tree used by a method: node data and the loop description.

    ``parent[i]`` (-1 = ground N), ``coord[i]`` (index of q), ``sign[i]`` (-1 for a joint worked
    backwards), ``body[i]`` (Body or None for the phantom); ``branch`` lists the phantom branch from
    the ground out to the phantom (last entry), ``base_branch`` the nodes from the ground to the loop
    base body 0 (empty when 0 = N); ``deps`` the dependent coordinate indices.

    Examples
    --------
    >>> topology(five_bar(), "acs").branch
    (0, 1, 2, 3, 4)
    """

    parent: tuple
    coord: tuple
    sign: tuple
    body: tuple
    branch: tuple
    base_branch: tuple
    base: int
    deps: tuple


def topology(model: LoopMechanism, method: str = "acs", dependents=None) -> Topology:
    """The tree of a method: ``"rcr"``/``"acs"`` the forward chain (Fig. 2-3), ``"gcl"`` Fig. 8a.

    ``"rcr"`` takes the last m coordinates of the loop as dependents (§3); ``"acs"`` takes
    ``dependents`` (default ``model.dependents``); ``"gcl"`` the last m of the phantom branch.

    Examples
    --------
    >>> topology(five_bar(), "gcl").deps          # q2, q3, q4 on the phantom branch
    (1, 2, 3)
    """
    return _topology(model, method, dependents, "rcr.topology")


def _topology(model, method, dependents, where: str) -> Topology:
    """:func:`topology` with the calling function's name for the error messages."""
    check_model(model, where=where)
    _check.choice(method, ("rcr", "acs", "gcl"), "method", where=where)
    n, m = model.n, model.m
    if method in ("rcr", "acs"):
        parent = tuple(range(-1, n - 1))
        coord = tuple(range(n))
        sign = (1.0,) * n
        body = tuple(model.bodies) + (None,)
        if method == "rcr":
            deps = tuple(range(n - m, n))
            if dependents is not None and dependent_indices(model, dependents, where=where) != deps:
                raise ModelError(f"{where}: method 'rcr' takes the last {m} coordinates "
                                 f"{tuple(model.names[d] for d in deps)} as dependents, not {dependents!r}; "
                                 "choose them with method='acs'")
        else:
            deps = dependent_indices(model, model.dependents if dependents is None else dependents, where=where)
        if (n - 1) not in deps:
            raise ModelError(f"loop {model.name!r}: the last coordinate {model.names[-1]} must be dependent "
                             "(the phantom body carries no mass, §4)")
        return Topology(parent, coord, sign, body, tuple(range(n)), (), -1, deps)
    if method == "gcl":
        r = model.split
        nb = n - r                                     # bodies 1..nb-1 stay on the phantom branch
        base_branch, parent, coord, sign, body = [], [], [], [], []
        # base branch: ground -> body n-1 (joint n reversed) -> ... -> body nb (joint nb+1 reversed)
        for i, k in enumerate(range(n - 1, nb - 1, -1)):
            parent.append(-1 if i == 0 else len(parent) - 1)
            coord.append(k)
            sign.append(-1.0)
            body.append(model.bodies[k - 1])
            base_branch.append(len(parent) - 1)
        base = base_branch[-1]
        branch = []
        for k in range(nb):                             # joints 1..nb, the last one onto the phantom
            parent.append(-1 if k == 0 else len(parent) - 1)
            coord.append(k)
            sign.append(1.0)
            body.append(model.bodies[k] if k < nb - 1 else None)
            branch.append(len(parent) - 1)
        deps = tuple(range(nb - m, nb))
        if dependents is not None and dependent_indices(model, dependents, where=where) != deps:
            raise ModelError(f"loop {model.name!r}: GCL takes the last {m} coordinates of the phantom branch "
                             f"{tuple(model.names[d] for d in deps)} as dependents")
        return Topology(tuple(parent), tuple(coord), tuple(sign), tuple(body), tuple(branch),
                        tuple(base_branch), base, deps)


def body_poses(model: LoopMechanism, q, method: str = "acs") -> np.ndarray:
    """Frames (x, y, theta) of the tree nodes of a method, in node order (the phantom included).

    Examples
    --------
    >>> fb = five_bar(); P = body_poses(fb, fb.q0)
    >>> np.round(P[0], 6)                         # bar 1 centre at 45 deg
    array([0.353553, 0.353553, 0.785398])
    """
    check_model(model, where="rcr.body_poses")
    topo = _topology(model, method, None, "rcr.body_poses")
    T = _node_frames(model, topo, check_q(model, q, where="rcr.body_poses"))
    return np.array([[Ti[0, 2], Ti[1, 2], np.arctan2(Ti[1, 0], Ti[0, 0])] for Ti in T])


def _node_frames(model, topo, q, T0=None, c=None):
    T = []
    T0 = np.eye(3) if T0 is None else T0
    for i, (p, k, s) in enumerate(zip(topo.parent, topo.coord, topo.sign)):
        Tp = T0 if p < 0 else T[p]
        T.append(Tp @ model.joints[k].transform(q[k], s, check=False))
        if c is not None:        # three planar rigid transforms composed, 12 multiplications each
            c.add(3 * 12)
    return T


# ----------------------------------------------------------------------------- velocity kinematics

class _Kin(NamedTuple):
    x: list           # reference point (mass centre / frame origin) of each node, world
    P: list           # P_k^k, C&A eq. (3)
    V: list           # absolute spatial velocity
    At: list          # velocity-product remainder A_t^k, C&A eq. (2)
    xr: np.ndarray = np.zeros(2)    # the root's reference point (the ground's origin, or a base body's)
    Atr: np.ndarray = np.zeros(3)   # the root's A_t
    T: list = ()                    # frames of the nodes (homogeneous 3 x 3)


def _kinematics(model, topo, q, u, root=None, c=None) -> _Kin:
    """Tree kinematics, C&A eq. (1)-(4): P_k^k, V^k and A_t^k at every node.

    ``root`` = (T0, V0, At0) puts the tree's root on a moving base body (frame, spatial velocity and
    velocity-product remainder); None is the ground.
    """
    T0, V0, At0 = (np.eye(3), np.zeros(3), np.zeros(3)) if root is None else root
    T = _node_frames(model, topo, q, T0, c)
    x, P, V, At = [], [], [], []
    for i, (p, k, s) in enumerate(zip(topo.parent, topo.coord, topo.sign)):
        jt = model.joints[k]
        Tp = T0 if p < 0 else T[p]
        xp = Tp[:2, 2]
        Vp = V0 if p < 0 else V[p]
        Atp = At0 if p < 0 else At[p]
        # the joint frame on the parent; reversed (s < 0), it rides on the (new) parent at the old child's joint point
        J = Tp @ jt.joint_frame(s, check=False)
        if c is not None:
            c.add(12)                                                   # joint frame on the parent
        o, e = J[:2, 2], J[:2, 0]
        xk = T[i][:2, 2]
        w = s * u[k]
        if jt.kind == "revolute":
            Pk = s * np.array([1.0, *planar_cross(1.0, xk - o, check=False)])   # z x r: no multiplication
            wk = Vp[0] + w
            zeta = np.array([0.0, *(-Vp[0] ** 2 * (o - xp) - wk ** 2 * (xk - o))])
            if c is not None:
                c.add(2 + 4)                                            # two squares, two 2-vectors scaled
        else:
            Pk = s * np.array([0.0, *e])
            zeta = np.array([0.0, *(-Vp[0] ** 2 * (xk - xp) + 2.0 * Vp[0] * w * planar_cross(1.0, e, check=False))])
            if c is not None:
                c.add(1 + 2 + 2 + 2)                                    # omega^2, 2 omega w, two 2-vectors
        ST = _shift_T(xk - xp)
        x.append(xk)
        P.append(Pk)
        V.append(mm(c, ST, Vp) + scale(c, u[k], Pk))
        At.append(mm(c, ST, Atp) + zeta)
    return _Kin(x, P, V, At, T0[:2, 2].copy(), np.asarray(At0, float), T)


# ----------------------------------------------------------------------------- loop kinematics

class _Loop(NamedTuple):
    p: int            # position on the branch of the virtual terminal body p_i (-1: the branching body)
    a: dict           # a_k = (^kS^n)^T P_k^k, the partial velocity of the phantom w.r.t. u_k
    Q: dict           # Q^k, C&A eq. (34)
    Rn: dict          # R^{k+1}, C&A eq. (36)/(66), as used for the k-th dependent
    X: dict           # X^k, C&A eq. (40)/(77)
    W: dict           # W^k, C&A eq. (39)/(76)
    slots: tuple      # branch positions of the outboard independents f_i .. l_i


def _loop_kinematics(model, topo, kin, *, tol: float = 1e-9, c=None) -> _Loop:
    """C&A eq. (33)-(40) and (65)-(77): inward over the loop from the phantom to the terminal body p.

    Raises :class:`SingularCoordinateSelectionError` when a dependent's partial velocity at the
    closure lies in the span of those eliminated before it (Q^k of C&A eq. 34 does not exist).
    """
    br = topo.branch
    dep = [topo.coord[i] in topo.deps for i in br]
    if len(topo.deps) != model.m:
        raise ModelError(f"loop {model.name!r}: {len(topo.deps)} dependents given; a planar loop has "
                         f"m = {model.m} independent constraints, so choose exactly {model.m}")
    first = dep.index(True)
    p = first - 1
    xn = kin.x[br[-1]]
    R = np.eye(3)
    a, Q, Rn, X, W = {}, {}, {}, {}, {}
    for j in range(len(br) - 1, p, -1):
        i = br[j]
        par = topo.parent[i]
        xpar = kin.xr if par < 0 else kin.x[par]
        a[j] = mm(c, _shift_T(xn - kin.x[i]), kin.P[i])
        if dep[j]:
            Ra = mm(c, R, a[j])
            den = mm(c, a[j], Ra)
            if den <= tol * mm(c, a[j], a[j]):                          # the regularity check
                names = tuple(model.names[d] for d in topo.deps)
                hint = "" if names == model.dependents else f" (e.g. dependents={model.dependents})"
                raise SingularCoordinateSelectionError(
                    f"loop {model.name!r}: the dependent set {names} is singular here: the partial velocity of "
                    f"{model.names[topo.coord[i]]} at the loop closure lies in the span of those of the "
                    f"dependents outboard of it (a^T R a / |a|^2 = {den / (a[j] @ a[j]):.1e}, eq. 34). "
                    f"Choose other dependents with method='acs'{hint} or re-root the loop with method='gcl'.")
            Q[j] = scale(c, 1.0, 1.0 / den)                             # C&A eq. (34)
            Rn[j] = R
            QRa = scale(c, Q[j], Ra)
            X[j] = -outer(c, kin.P[i], QRa)                             # C&A eq. (40), R symmetric
            R = R - outer(c, Ra, QRa)                                   # C&A eq. (36)
            W[j] = _shift_T(kin.x[i] - xpar) + mm(c, X[j], _shift_T(xn - xpar))   # C&A eq. (39)
        else:
            X[j] = np.zeros((3, 3))                                     # C&A eq. (77)
            W[j] = _shift_T(kin.x[i] - xpar)                             # C&A eq. (76)
    slots = tuple(j for j in range(p + 1, len(br)) if not dep[j])
    return _Loop(p, a, Q, Rn, X, W, slots)


def _YZH(topo, kin, lp: _Loop, c=None):
    """C&A eq. (41)-(44), (78)-(81): ^0V^k = Y^k ^0V^p + Z^k ^0V_t^n + H^k K_i u_i for k outboard of p."""
    br = topo.branch
    nI = len(lp.slots)
    Y, Z, HK = {}, {}, {}
    Yp, Zp, Hp = np.eye(3), np.zeros((3, 3)), np.zeros((3, nI))
    for j in range(lp.p + 1, len(br)):
        GK = np.zeros((3, nI))                                          # C&A eq. (73) times K_i
        if j in lp.slots:
            GK[:, lp.slots.index(j)] = kin.P[br[j]]
        else:
            for s, jj in enumerate(lp.slots):
                if jj > j:
                    GK[:, s] = mm(c, lp.X[j], lp.a[jj])
        Yp, Zp, Hp = mm(c, lp.W[j], Yp), lp.X[j] + mm(c, lp.W[j], Zp), GK + mm(c, lp.W[j], Hp)
        Y[j], Z[j], HK[j] = Yp, Zp, Hp
    return Y, Z, HK


# ----------------------------------------------------------------------------- dynamics

def _forces(model, topo, kin, extra=None, c=None):
    """I^k and F^k = applied - I^k A_t^k (the inertia terms known from the state, C&A eq. 7).

    ``extra`` = ({node: I_art}, {node: F_art}) adds the articulated inertia and force of loops based
    on a node (C&A eq. 47-64): their reaction on the node is I_art A - F_art.
    """
    I, F = [], []
    for i, b in enumerate(topo.body):
        Ik = spatial_inertia(b)
        Fa = np.zeros(3) if b is None else np.array([0.0, *scale(c, b.mass, model.gravity)])
        Fk = Fa - mm(c, Ik, kin.At[i])
        if extra is not None and i in extra[0]:
            Ik = Ik + extra[0][i]
            Fk = Fk + extra[1][i]
        I.append(Ik)
        F.append(Fk)
    return I, F


def _chain_inward(kin, topo, nodes, I, F, I_tip, F_tip, tau=None, c=None):
    """C&A eq. (10), (13), (20)-(22) along a chain of tree nodes (root side first): the recursive
    inertias and forces, with I_tip, F_tip at the last node and optional joint forces tau.
    Returns (Ih, Fh, Mh, ST) per chain position."""
    m = len(nodes)
    tau = np.zeros(m) if tau is None else tau
    Ih, Fh, Mh, ST = [None] * m, [None] * m, [0.0] * m, [None] * m
    Ih[-1], Fh[-1] = I_tip, F_tip
    for j in range(m - 1, -1, -1):
        i = nodes[j]
        P = kin.P[i]
        par = topo.parent[i]
        ST[j] = _shift_T(kin.x[i] - (kin.xr if par < 0 else kin.x[par]))
        IP = mm(c, Ih[j], P)
        Mh[j] = mm(c, P, IP)                                             # C&A eq. (13)
        if j > 0:
            IPm = scale(c, 1.0 / Mh[j], IP)
            T = mm(c, ST[j].T, np.eye(3) - outer(c, IPm, P))             # C&A eq. (22)
            Ih[j - 1] = I[nodes[j - 1]] + mm(c, mm(c, T, Ih[j]), ST[j])    # C&A eq. (20)
            Fh[j - 1] = F[nodes[j - 1]] + mm(c, T, Fh[j])                # C&A eq. (21)
            if tau[j]:                                                   # a joint force on the chain
                Fh[j - 1] = Fh[j - 1] - mm(c, ST[j].T, scale(c, tau[j], IPm))
    return Ih, Fh, Mh, ST


def recursive_inertias(model: LoopMechanism, q, nodes, *, method: str = "acs", dependents=None) -> list:
    """The recursive inertias I^k of C&A eq. (20) along a chain of tree nodes (root side first), with the
    last node's own spatial inertia at the tip; order (omega, v_x, v_y) as :func:`spatial_inertia`.

    ``nodes`` are node indices of ``topology(model, method, dependents)``, each the parent of the next.
    The inertias depend on the positions only; ``q`` need not close the loop.

    Examples
    --------
    >>> fb = five_bar()
    >>> I = recursive_inertias(fb, fb.q0, [0, 1, 2, 3])
    >>> len(I), I[0].shape                       # bars 1-4, each 3 x 3
    (4, (3, 3))
    >>> bool(np.allclose(I[3], spatial_inertia(fb.bodies[3])))   # the tip: bar 4 alone
    True
    """
    where = "rcr.recursive_inertias"
    check_model(model, where=where)
    q = check_q(model, q, "q", where=where)
    topo = _topology(model, method, dependents, where)
    if isinstance(nodes, (str, bytes)) or not hasattr(nodes, "__len__") or len(nodes) == 0:
        raise ModelError(f"{where}: nodes must be a non-empty sequence of node indices, got {nodes!r}")
    n_nodes = len(topo.parent)
    if any(not isinstance(i, (int, np.integer)) or isinstance(i, bool) or not 0 <= i < n_nodes for i in nodes):
        raise ModelError(f"{where}: nodes must be node indices 0..{n_nodes - 1} of the {method!r} tree, "
                         f"got {list(nodes)!r}")
    nodes = [int(i) for i in nodes]
    for a, b in zip(nodes, nodes[1:]):
        if topo.parent[b] != a:
            raise ModelError(f"{where}: node {b} is not a child of node {a} (its parent is {topo.parent[b]}); "
                             f"nodes must run outward along one branch, e.g. topology(model).branch")
    kin = _kinematics(model, topo, q, np.zeros(model.n))
    I, F = _forces(model, topo, kin)
    return _chain_inward(kin, topo, nodes, I, F, I[nodes[-1]], F[nodes[-1]])[0]


def _chain_forward(kin, topo, nodes, Ih, Fh, Mh, ST, A_root, qdd, Aabs, tau=None, c=None):
    """C&A eq. (12) and (4) along the chain from the root's acceleration A_root; writes qdd and Aabs and
    returns the last node's acceleration."""
    tau = np.zeros(len(nodes)) if tau is None else tau
    A = A_root
    for j, i in enumerate(nodes):
        P = kin.P[i]
        As = mm(c, ST[j], A)
        ud = scale(c, 1.0 / Mh[j], tau[j] - mm(c, P, mm(c, Ih[j], As) - Fh[j]))   # C&A eq. (12)
        A = As + scale(c, ud, P)                                         # C&A eq. (4)
        qdd[topo.coord[i]] = ud
        Aabs[i] = A
    return A


def _inward(model, topo, kin, *, moving_root: bool = False, extra=None, c=None) -> dict:
    """Kinematic recursions and the inward (triangularizing) sweep of the generalized RCR.

    Returns the recursive quantities needed by :func:`_forward`.  With ``moving_root`` the loop's
    base body is the (moving) root of ``kin`` and the result also holds its articulated inertia and
    force on that body, ``I_art`` and ``F_art``: the loop's whole reaction on its base body is
    I_art A^0 - F_art (C&A eq. 47-64 with ^N A^{0_i} != 0).
    """
    lp = _loop_kinematics(model, topo, kin, c=c)
    Y, Z, HK = _YZH(topo, kin, lp, c)
    I, F = _forces(model, topo, kin, extra, c)
    br = topo.branch
    nI = len(lp.slots)
    base = topo.base
    x0 = kin.xr if base < 0 else kin.x[base]
    xp = kin.xr if lp.p < 0 else kin.x[br[lp.p]]
    Delta = kin.At[br[-1]] - (kin.Atr if base < 0 else kin.At[base])  # ^0A_t^n
    # -- C&A eq. (86)-(95): constrained inertias of the outboard bodies
    MM = np.zeros((nI, nI)); IMp = np.zeros((nI, 3)); IM0 = np.zeros((nI, 3)); FM = np.zeros(nI)
    Ip = np.zeros((3, 3)); Ip0 = np.zeros((3, 3)); Fp = np.zeros(3)
    I0x = np.zeros((3, 3)); D = np.zeros((3, 3)); F0x = np.zeros(3)
    for j in range(lp.p + 1, len(br)):
        i = br[j]
        if topo.body[i] is None:
            continue
        Ik, Ft = I[i], F[i] - mm(c, I[i], mm(c, Z[j], Delta))           # C&A eq. (89)
        E = _shift_T(kin.x[i] - x0) - mm(c, Y[j], _shift_T(xp - x0))      # C&A eq. (103)-(107)
        IY, IE, IH = mm(c, Ik, Y[j]), mm(c, Ik, E), mm(c, Ik, HK[j])
        MM += mm(c, HK[j].T, IH); IMp += mm(c, HK[j].T, IY); IM0 += mm(c, HK[j].T, IE)
        FM += mm(c, HK[j].T, Ft)
        Ip += mm(c, Y[j].T, IY); Ip0 += mm(c, Y[j].T, IE); Fp += mm(c, Y[j].T, Ft)     # C&A eq. (53)-(55)
        I0x += mm(c, E.T, IE); D += mm(c, E.T, IY); F0x += mm(c, E.T, Ft)           # C&A eq. (108)-(111)
    cho = None
    if nI:
        cho = scipy.linalg.cho_factor(MM)                                # M_M of C&A eq. (98)
        Cp, C0, Cf = (scipy.linalg.cho_solve(cho, B) for B in (IMp, IM0, FM))
        if c is not None:                                                # Cholesky + 7 right-hand sides
            c.add(nI * (nI - 1) * (nI + 1) // 6 + nI * (nI - 1) // 2 + 7 * nI * nI)
        Ip -= mm(c, IMp.T, Cp); Ip0 -= mm(c, IMp.T, C0); Fp -= mm(c, IMp.T, Cf)      # C&A eq. (100)-(102)
        I0x -= mm(c, IM0.T, C0); D -= mm(c, IM0.T, Cp); F0x -= mm(c, IM0.T, Cf)
    # -- C&A eq. (60)-(64): inward over the independents 1..p of the phantom branch
    Ih, Ih0, Fh, Mh, ST = {}, {}, {}, {}, {}
    if lp.p >= 0:
        i = br[lp.p]
        Ih[lp.p], Ih0[lp.p], Fh[lp.p] = I[i] + Ip, Ip0, F[i] + Fp
    Tt = None
    for j in range(lp.p, -1, -1):
        i = br[j]
        P = kin.P[i]
        par = topo.parent[i]
        ST[j] = _shift_T(kin.x[i] - (kin.xr if par < 0 else kin.x[par]))
        IP = mm(c, Ih[j], P)
        Mh[j] = mm(c, P, IP)                                             # C&A eq. (64)
        IPm = scale(c, 1.0 / Mh[j], IP)
        Tt = mm(c, ST[j].T, np.eye(3) - outer(c, IPm, P))                # C&A eq. (63)
        if base >= 0 or moving_root:                                     # triangularize the base equation
            DP = scale(c, 1.0 / Mh[j], mm(c, D, P))
            I0x -= outer(c, DP, mm(c, P, Ih0[j])); F0x -= scale(c, mm(c, P, Fh[j]), DP)
            D = mm(c, D - outer(c, DP, IP), ST[j])
        if j > 0:
            ip = br[j - 1]
            Ih[j - 1] = I[ip] + mm(c, mm(c, Tt, Ih[j]), ST[j])           # C&A eq. (61)
            Ih0[j - 1] = mm(c, Tt, Ih0[j])                               # C&A eq. (60)
            Fh[j - 1] = F[ip] + mm(c, Tt, Fh[j])                         # C&A eq. (62)
    st = dict(topo=topo, kin=kin, lp=lp, I=I, F=F, cho=cho, IMp=IMp, IM0=IM0, FM=FM, Ih=Ih, Ih0=Ih0, Fh=Fh,
              Mh=Mh, ST=ST, I0x=I0x, F0x=F0x, x0=x0, xp=xp, Delta=Delta)
    if base >= 0:                                 # GCL base branch: C&A eq. (20)-(22) from the base body to N
        st["base_chain"] = _chain_inward(kin, topo, topo.base_branch, I, F, I[base] + I0x, F[base] + F0x, c=c)
    if moving_root:                                                      # the loop's reaction on its base
        if lp.p >= 0:
            st["I_art"] = mm(c, mm(c, Tt, Ih[0]), ST[0]) + mm(c, Tt, Ih0[0]) + I0x + D
            st["F_art"] = mm(c, Tt, Fh[0]) + F0x
        else:                                                            # p_i is the base body itself
            st["I_art"] = I0x + D + Ip0 + Ip
            st["F_art"] = F0x + Fp
    return st


def _forward(st: dict, A_root, c=None) -> tuple:
    """Forward substitution of the generalized RCR given the root's spatial acceleration A_root.

    Returns (qdd, A) with A[i] the absolute u-explicit acceleration of every tree node.
    """
    topo, kin, lp = st["topo"], st["kin"], st["lp"]
    Ih, Ih0, Fh, Mh, ST = st["Ih"], st["Ih0"], st["Fh"], st["Mh"], st["ST"]
    br, base = topo.branch, topo.base
    n = len(topo.coord)
    qdd = np.zeros(max(topo.coord) + 1)
    Aabs = [None] * n
    A0 = np.asarray(A_root, float)
    # -- base branch (GCL): forward from the ground to the base body 0 (C&A eq. 12)
    if base >= 0:
        A0 = _chain_forward(kin, topo, topo.base_branch, *st["base_chain"], A0, qdd, Aabs, c=c)
    # -- forward over the phantom branch independents, C&A eq. (59)
    A = np.asarray(A_root, float)
    for j in range(0, lp.p + 1):
        i = br[j]
        P = kin.P[i]
        As = mm(c, ST[j], A)
        ud = -scale(c, 1.0 / Mh[j], mm(c, P, mm(c, Ih[j], As) + mm(c, Ih0[j], A0) - Fh[j]))   # C&A eq. (59)
        A = As + scale(c, ud, P)
        qdd[topo.coord[i]] = ud
        Aabs[i] = A
    Ap = A
    # -- C&A eq. (99): the outboard independents
    nI = len(lp.slots)
    uI = np.zeros(nI)
    if nI:
        uI = -scipy.linalg.cho_solve(st["cho"], mm(c, st["IMp"], Ap) + mm(c, st["IM0"], A0) - st["FM"])
        if c is not None:
            c.add(nI * nI)
    # -- C&A eq. (67): the dependents, outward, in loop-relative accelerations ^0A^k
    x0, xp, Delta = st["x0"], st["xp"], st["Delta"]
    rel = Ap - mm(c, _shift_T(xp - x0), A0)
    xn = kin.x[br[-1]]
    for j in range(lp.p + 1, len(br)):
        i = br[j]
        par = topo.parent[i]
        xpar = kin.xr if par < 0 else kin.x[par]
        if j in lp.slots:
            ud = uI[lp.slots.index(j)]
        else:
            rhs = mm(c, _shift_T(xn - xpar), rel) + Delta
            for s, jj in enumerate(lp.slots):
                if jj > j:
                    rhs = rhs + scale(c, uI[s], lp.a[jj])
            ud = -scale(c, lp.Q[j], mm(c, mm(c, lp.Rn[j], lp.a[j]), rhs))            # C&A eq. (67)
        rel = mm(c, _shift_T(kin.x[i] - xpar), rel) + scale(c, ud, kin.P[i])
        qdd[topo.coord[i]] = ud
        Aabs[i] = rel + mm(c, _shift_T(kin.x[i] - x0), A0)               # C&A eq. (103)
    return qdd, Aabs


def _solve(model, topo, q, u, c=None):
    """One evaluation of the generalized RCR: returns (qdd, (kin, loop data)); see the module docstring.
    ``c``: a :class:`rfda_teach.count.Tally` that counts the scalar multiplications."""
    kin = _kinematics(model, topo, q, u, c=c)
    st = _inward(model, topo, kin, c=c)
    qdd, _ = _forward(st, np.zeros(3), c)
    return qdd, (kin, st["lp"])


# ----------------------------------------------------------------------------- public functions

def accelerations(model: LoopMechanism, q, qd, *, method: str = "acs", dependents=None,
                  check: bool = True) -> np.ndarray:
    """qddot of all n coordinates by the generalized RCR (§3-5) for a consistent state (q, qd).

    ``method`` is ``"rcr"`` (last m coordinates dependent, §3), ``"acs"`` (``dependents``, §4) or
    ``"gcl"`` (the re-rooted tree of Fig. 8a, §5).  With ``check=True`` (default) a state that does not
    close the loop raises :class:`~rfda_teach.errors.ConstraintViolationError`: every entry of the
    closure residual (C&A eq. 23) and of J_c qd must be within ``CLOSURE_TOL`` = 1e-6 (the velocities
    relative to max(1, |qd|)); the check is O(n).  ``check=False`` skips it (for inner loops).

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar()
    >>> np.round(accelerations(fb, fb.q0, np.zeros(5)), 4) + 0.0
    array([-1.1375,  2.7462, -1.6087, -2.1975,  0.    ])
    """
    where = "rcr.accelerations"
    check_model(model, where=where)
    check_q(model, q, "q", where=where), check_q(model, qd, "qd", where=where)
    topo = _topology(model, method, dependents, where)
    q, qd = check_state(model, q, qd, where=where, check=check)
    return _solve(model, topo, q, qd)[0]


def tree_accelerations(model: LoopMechanism, q, qd, *, tau=None) -> np.ndarray:
    """The open-chain solution of §2, C&A eq. (10)-(22): the loop cut at the last joint (no closure).

    Returns qddot of the n-1 joints of the open chain ground -> body 1 -> ... -> body n-1 under
    gravity and joint forces ``tau`` (n-1 entries, default zero); checked against the dense DAE of
    D&G eq. (7) in the tests.  The chain is open, so q and qd need not close the loop (q_n, qd_n unused).

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar()
    >>> tree_accelerations(fb, fb.q0, np.zeros(5)).shape
    (4,)
    """
    where = "rcr.tree_accelerations"
    check_model(model, where=where)
    q = check_q(model, q, "q", where=where)
    qd = check_q(model, qd, "qd", where=where)
    nb = model.n - 1
    tau = np.zeros(nb) if tau is None else _check.vector(tau, nb, "tau", where=where,
                                                         hint=f"{nb} joint forces, one per joint of the open chain")
    topo = topology(model, "acs")
    kin = _kinematics(model, topo, q, qd)
    I, F = _forces(model, topo, kin)
    nodes = list(range(nb))
    chain = _chain_inward(kin, topo, nodes, I, F, I[nb - 1], F[nb - 1], tau)     # C&A eq. (10), (20)-(22)
    qdd = np.zeros(model.n)
    _chain_forward(kin, topo, nodes, *chain, np.zeros(3), qdd, [None] * model.n, tau)
    return qdd[:nb]


def selection_sigma(model: LoopMechanism, q, dependents) -> float:
    """Smallest singular value of the closure Jacobian's columns of a dependent set, at any q.

    Zero means the set cannot be solved for (the RCR recursion would divide by zero in C&A eq. 34).

    Examples
    --------
    >>> fb = five_bar()
    >>> selection_sigma(fb, fb.q0, ("q3", "q4", "q5")) < 1e-12, round(selection_sigma(fb, fb.q0, ("q2", "q3", "q5")), 4)
    (True, 0.2104)
    """
    where = "rcr.selection_sigma"
    check_model(model, where=where)
    q = check_q(model, q, "q", where=where)
    idx = dependent_indices(model, dependents, where=where)
    if not idx:
        raise ModelError(f"{where}: dependents is empty; give the dependent coordinates, e.g. {model.dependents}")
    return float(np.linalg.svd(closure_jacobian(model, q, check=False)[:, idx], compute_uv=False)[-1])


def _solve_dependents(model, q, idx, tol: float = 1e-12, max_iter: int = 50) -> np.ndarray:
    """Newton's method with backtracking on the closure for the coordinates ``idx`` (no input checks)."""
    q = q.copy()

    def residual(qq):
        r = closure(model, qq, check=False)
        r[0] = (r[0] + np.pi) % (2 * np.pi) - np.pi
        return r

    def singular():
        return SingularCoordinateSelectionError(
            f"rcr.solve_dependents: loop {model.name!r}: the dependents {tuple(model.names[i] for i in idx)} cannot "
            "be solved for here (singular closure Jacobian); choose another set (see rcr.selection_sigma)")

    r = residual(q)
    for _ in range(max_iter):
        if np.abs(r).max() < tol:
            return q
        Jd = closure_jacobian(model, q, check=False)[:, idx]
        try:
            step = np.linalg.solve(Jd, r)
        except np.linalg.LinAlgError as exc:
            raise singular() from exc
        if not np.all(np.isfinite(step)):
            raise singular()
        lam, r0 = 1.0, np.linalg.norm(r)
        while True:                                         # backtracking keeps Newton from jumping away
            trial = q.copy()
            trial[idx] -= lam * step
            rt = residual(trial)
            if np.linalg.norm(rt) < r0 or r0 < 1e3 * tol or lam < 1e-4:
                break
            lam *= 0.5
        q, r = trial, rt
        if np.abs(step).max() < 1e-15 * (1.0 + np.abs(q[idx]).max()) and np.abs(r).max() < 1e3 * tol:
            return q
    raise RFDAError(f"rcr.solve_dependents: loop {model.name!r}: Newton's method did not close the loop in "
                    f"{max_iter} steps (residual {np.abs(r).max():.1e}); these independent coordinates may "
                    "admit no assembly: start nearer an assembled configuration such as model.q0")


def solve_dependents(model: LoopMechanism, q, *, dependents=None, tol: float = 1e-12,
                     max_iter: int = 50) -> np.ndarray:
    """Newton's method on the closure (C&A eq. 23 at position level) for the dependent coordinates.

    The dependent entries of ``q`` are the starting guess: Newton converges to the assembly nearest
    to it, so give the previous configuration's dependents to stay on one assembly branch.

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar(); q = fb.q0.copy(); q[0] += 0.05
    >>> qc = solve_dependents(fb, q)
    >>> float(np.abs(closure(fb, qc)).max()) < 1e-12, bool(qc[0] == q[0])
    (True, True)
    """
    where = "rcr.solve_dependents"
    check_model(model, where=where)
    q = check_q(model, q, "q", where=where)
    idx = list(dependent_indices(model, model.dependents if dependents is None else dependents, where=where))
    if len(idx) != model.m:
        raise ModelError(f"{where}: {len(idx)} dependents given; the loop has m = {model.m} closure "
                         f"constraints, so give exactly {model.m}, e.g. {model.dependents}")
    tol = _check.scalar(tol, "tol", where=where, positive=True)
    max_iter = _check.positive_int(max_iter, "max_iter", where=where)
    return _solve_dependents(model, q, idx, tol, max_iter)


def _dependent_velocities(model, topo, q, qd) -> np.ndarray:
    """C&A eq. (33)/(69): qd's dependent entries from its independent ones (no input checks)."""
    qd = qd.copy()
    for d in topo.deps:
        qd[d] = 0.0
    kin = _kinematics(model, topo, q, qd)
    lp = _loop_kinematics(model, topo, kin)
    br = topo.branch
    base = topo.base
    x0 = np.zeros(2) if base < 0 else kin.x[base]
    V0 = np.zeros(3) if base < 0 else kin.V[base]
    rel = -_shift_T(-x0) @ V0                       # ^0V of the branching body N
    xn = kin.x[br[-1]]
    xpar = np.zeros(2)
    for j, i in enumerate(br):
        if j > lp.p and j not in lp.slots:
            c = _shift_T(xn - xpar) @ rel
            for jj in lp.slots:
                if jj > j:
                    c = c + lp.a[jj] * qd[topo.coord[br[jj]]]
            qd[topo.coord[i]] = -lp.Q[j] * ((lp.Rn[j] @ lp.a[j]) @ c)  # C&A eq. (33)/(69), V_t = 0
        rel = _shift_T(kin.x[i] - xpar) @ rel + kin.P[i] * qd[topo.coord[i]]
        xpar = kin.x[i]
    return qd


def dependent_velocities(model: LoopMechanism, q, qd, *, method: str = "acs", dependents=None,
                         check: bool = True) -> np.ndarray:
    """qd with its dependent entries replaced by the velocity-level RCR, C&A eq. (33) and (67)-(69).

    ``q`` must close the loop (closure residual within ``CLOSURE_TOL`` = 1e-6, else
    :class:`~rfda_teach.errors.ConstraintViolationError`; ``check=False`` skips this O(n) check);
    the dependent entries of ``qd`` are ignored.

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar(); qd = dependent_velocities(fb, fb.q0, [1.0, 0, 0, 0.5, 0])
    >>> float(np.abs(closure_jacobian(fb, fb.q0) @ qd).max()) < 1e-12
    True
    """
    where = "rcr.dependent_velocities"
    check_model(model, where=where)
    q = check_q(model, q, "q", where=where)
    qd = check_q(model, qd, "qd", where=where)
    topo = _topology(model, method, dependents, where)
    check_closed(model, q, where=where, check=check)             # q alone: the dependent speeds are computed here
    return _dependent_velocities(model, topo, q, qd)


def energy(model: LoopMechanism, q, qd, *, check: bool = True) -> float:
    """Total energy T + V: sum of 1/2 V^T I V and m g h over the bodies.

    (q, qd) must close the loop (tolerance ``CLOSURE_TOL`` = 1e-6 as in :func:`accelerations`, else
    :class:`~rfda_teach.errors.ConstraintViolationError`); ``check=False`` skips the check.

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar(); round(energy(fb, fb.q0, np.zeros(5)), 6)
    3.039238
    """
    where = "rcr.energy"
    q, qd = check_state(model, q, qd, where=where, check=check)
    topo = topology(model, "acs")
    kin = _kinematics(model, topo, q, qd)
    E = 0.0
    for i, b in enumerate(topo.body):
        if b is None:
            continue
        V = kin.V[i]
        E += 0.5 * V @ spatial_inertia(b) @ V - b.mass * (model.gravity @ kin.x[i])
    return float(E)


class RCRResult(NamedTuple):
    """A simulated trajectory: ``t`` (len N), ``q`` and ``qd`` (N x n, columns q1..qn), the method,
    the dependent coordinates it used, and the largest loop-closure residual along the way.

    Examples
    --------
    >>> RCRResult._fields
    ('t', 'q', 'qd', 'method', 'dependents', 'closure_max')
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    method: str
    dependents: tuple
    closure_max: float

    def __repr__(self) -> str:
        """One line: the method, the samples and time span, the shapes of q and qdot, the dependents and the
        largest loop-closure residual (C&A eq. 23) along the way.

        Examples
        --------
        >>> simulate(five_bar(), "acs", 0.1, n_out=3)  # doctest: +ELLIPSIS
        RCRResult(method='acs'): 3 samples, t = 0 … 0.1 s, q (3, 5), qd (3, 5); dependents q2, q3, q5; closure_max ...
        """
        deps = f"dependents {', '.join(self.dependents)}" if self.dependents else "no dependents"
        return (f"RCRResult(method={self.method!r}): {samples(self.t)}, q {np.shape(self.q)}, "
                f"qd {np.shape(self.qd)}; {deps}; closure_max {self.closure_max:.1e}")


def simulate(model: LoopMechanism, method: str = "acs", t_final: float = 3.0, *, dependents=None, qd0=None,
             n_out: int = 301, rtol: float = 1e-11, atol: float = 1e-11) -> RCRResult:
    """Integrate the mechanism from (model.q0, qd0) (rest by default) with one of the methods.

    ``"acs"``, ``"gcl"`` and ``"rcr"`` integrate the independent coordinates and speeds and, as a
    running guess, the dependent coordinates (solve_ivp, DOP853); at every evaluation and every output
    row the dependents are closed by Newton's method from that guess and the dependent speeds follow
    from C&A eq. (33), so the loop stays closed to the Newton tolerance and every row is the integrated
    motion: q[0] is model.q0, each column is continuous in time (no jumps of 2 pi, no change of
    assembly branch).  ``"dae"`` integrates the stabilised Lagrange-multiplier DAE of
    :mod:`rfda_teach.loopref`.  ``"rcr"`` with a singular last-m selection raises
    :class:`SingularCoordinateSelectionError`.

    (model.q0, qd0) must close the loop (tolerance ``CLOSURE_TOL`` = 1e-6 as in :func:`accelerations`),
    else :class:`~rfda_teach.errors.ConstraintViolationError`: make qd0 consistent with
    :func:`dependent_velocities`.

    Examples
    --------
    >>> r = simulate(five_bar(), "acs", 0.1, n_out=3)
    >>> r.q.shape, r.dependents
    ((3, 5), ('q2', 'q3', 'q5'))
    >>> bool((r.q[0] == five_bar().q0).all())
    True
    """
    where = "rcr.simulate"
    check_model(model, where=where)
    method = _check.choice(method, ("acs", "gcl", "rcr", "dae"), "method", where=where)
    n_out = _check.positive_int(n_out, "n_out", where=where, minimum=2)    # rows q1..qn: never the steps
    options = span(t_final, n_out=n_out, rtol=rtol, atol=atol, where=where)
    n = model.n
    qd0 = np.zeros(n) if qd0 is None else check_q(model, qd0, "qd0", where=where)
    check_state(model, model.q0, qd0, where=f"{where} (initial state model.q0, qd0)")
    if method == "dae":
        if dependents is not None:
            dependent_indices(model, dependents, where=where)
        r = loopref.dae_simulate(model, options.t_final, qd0=qd0, n_out=n_out, rtol=options.rtol,
                                 atol=options.atol, check=False)
        cl = max(float(np.abs(closure(model, qi, check=False)).max()) for qi in r.q)
        return RCRResult(r.t, r.q, r.qd, "dae", (), cl)
    topo = _topology(model, method, dependents, where)
    deps = list(topo.deps)
    ind = [k for k in range(n) if k not in deps]
    ni = len(ind)
    q_start = _solve_dependents(model, model.q0, deps)
    qd_start = _dependent_velocities(model, topo, q_start, qd0)
    _solve(model, topo, q_start, qd_start)          # raises early for a singular selection

    def full_state(x):
        q = np.empty(n)
        q[ind] = x[:ni]
        q[deps] = x[2 * ni:]                        # the integrated dependents: Newton's starting guess
        q = _solve_dependents(model, q, deps)
        qd = np.zeros(n)
        qd[ind] = x[ni:2 * ni]
        return q, _dependent_velocities(model, topo, q, qd)

    def rhs(t, x):
        q, qd = full_state(x)
        qdd = _solve(model, topo, q, qd)[0]
        return np.concatenate([qd[ind], qdd[ind], qd[deps]])

    x0 = np.concatenate([q_start[ind], qd_start[ind], q_start[deps]])
    run = integrate(rhs, x0, options, where=f"{where}({model.name!r}, {method!r})")
    Q, QD = np.zeros((len(run.t), n)), np.zeros((len(run.t), n))
    for i in range(len(run.t)):
        Q[i], QD[i] = full_state(run.x[i])
    cl = max(float(np.abs(closure(model, qi, check=False)).max()) for qi in Q)
    return RCRResult(run.t, Q, QD, method, tuple(model.names[d] for d in deps), cl)


# ----------------------------------------------------------------------------- chains of coupled loops

def series_accelerations(series: LoopSeries, qs, qds, *, tally=None, check: bool = True) -> list:
    """qddot of every loop of a chain of coupled loops, O(n + m).

    Each loop is reduced by the generalized RCR with its base body as the moving root (C&A eq. 47-64):
    outermost loop first, its reaction I_art A^0 - F_art is added to its base body, which then takes
    part in the next loop's reduction like any other body; a forward pass from the ground hands each
    loop its base body's acceleration.  ``qs``, ``qds``: one consistent (q, qd) per loop, each loop
    closed relative to its base body within ``CLOSURE_TOL`` = 1e-6 as in :func:`accelerations` (else
    :class:`~rfda_teach.errors.ConstraintViolationError` naming the loop; ``check=False`` skips this
    O(n) check); ``tally`` (a :class:`rfda_teach.count.Tally`) counts the scalar multiplications.

    Examples
    --------
    >>> import numpy as np
    >>> s = loop_series(2)
    >>> [a.shape for a in series_accelerations(s, [l.q0 for l in s.loops], [np.zeros(4)] * 2)]
    [(4,), (4,)]
    """
    where = "rcr.series_accelerations"
    qs, qds = check_series_states(series, qs, qds, where=where, check=check)
    check_tally(tally, where=where)
    k = len(series.loops)
    topos = [topology(L, "acs") for L in series.loops]
    kins = []
    for j, L in enumerate(series.loops):
        q, qd = qs[j], qds[j]
        root = None
        if j > 0:
            i, b = series.attach[j - 1]
            kb = kins[i]
            root = (kb.T[b - 1], kb.V[b - 1], kb.At[b - 1])
        kins.append(_kinematics(L, topos[j], q, qd, root, c=tally))
    extra = [({}, {}) for _ in range(k)]
    states = [None] * k
    for j in range(k - 1, -1, -1):
        states[j] = _inward(series.loops[j], topos[j], kins[j], moving_root=j > 0, extra=extra[j], c=tally)
        if j > 0:
            i, b = series.attach[j - 1]
            Id, Fd = extra[i]
            Id[b - 1] = Id.get(b - 1, 0.0) + states[j]["I_art"]
            Fd[b - 1] = Fd.get(b - 1, 0.0) + states[j]["F_art"]
    out, Aabs = [None] * k, [None] * k
    for j in range(k):
        A_root = np.zeros(3)
        if j > 0:
            i, b = series.attach[j - 1]
            A_root = Aabs[i][b - 1]
        out[j], Aabs[j] = _forward(states[j], A_root, tally)
    return out


def series_poses(series: LoopSeries, qs) -> list:
    """World frames (x, y, theta) of the bodies of every loop of a chain of coupled loops.

    Examples
    --------
    >>> s = loop_series(2); P = series_poses(s, [l.q0 for l in s.loops])
    >>> [p.shape for p in P]
    [(3, 3), (3, 3)]
    """
    where = "rcr.series_poses"
    qs, _ = check_series_states(series, qs, None, where=where, check=None)
    frames, out = [], []
    for j, L in enumerate(series.loops):
        topo = topology(L, "acs")
        T0 = None if j == 0 else frames[series.attach[j - 1][0]][series.attach[j - 1][1] - 1]
        T = _node_frames(L, topo, qs[j], T0)
        frames.append(T)
        out.append(np.array([[Ti[0, 2], Ti[1, 2], np.arctan2(Ti[1, 0], Ti[0, 0])] for Ti in T[:-1]]))
    return out


def count_multiplications(model, *, method: str = "acs", dependents=None, by_step: bool = False):
    """Scalar multiplications of one forward-dynamics evaluation, counted as the code performs them.

    Works for a :class:`LoopMechanism` (with ``method``/``dependents``) and for a
    :class:`LoopSeries`.  Every dense 3 x 3 product counts in full (no use of zeros), divisions count
    as multiplications, sines and cosines are not counted.  The count does not depend on the state.
    ``by_step=True`` returns a dict step -> count, as ``jointspace`` and ``refpoint`` do.

    Examples
    --------
    >>> n8, n9 = (count_multiplications(loop_chain(n), method="rcr") for n in (8, 9))
    >>> n10 = count_multiplications(loop_chain(10), method="rcr")
    >>> n10 - n9 == n9 - n8                      # linear in n
    True
    """
    where = "rcr.count_multiplications"
    _check.instance(model, (LoopMechanism, LoopSeries), "model", where=where,
                    hint="give a loop such as rcr.loop_chain(8) or a series such as rcr.loop_series(3)")
    by_step = _check.flag(by_step, "by_step", where=where)
    t = Tally()
    if isinstance(model, LoopSeries):
        series_accelerations(model, [L.q0 for L in model.loops], [np.zeros(L.n) for L in model.loops], tally=t,
                             check=False)
    else:
        _solve(model, _topology(model, method, dependents, where), model.q0, np.zeros(model.n), t)
    return dict(t.counts) if by_step else t.total


__all__ += ["LoopSeries", "loop_series", "series_accelerations", "series_poses", "count_multiplications"]


# ----------------------------------------------------------------------------- one reduction step

class ReductionStep(NamedTuple):
    """One inward step of the loop kinematics: ``Q`` (C&A eq. 34) and ``R`` = R^k (C&A eq. 36)."""

    Q: float
    R: np.ndarray


def reduction_step(R_next, a, *, tol: float = 1e-9) -> ReductionStep:
    """One RCR inward step, C&A eq. (34) and (36): eliminate the dependent with closure column ``a``.

    ``R_next`` is R^{k+1} (the identity U before the first elimination, C&A eq. 30 being this step
    with R^{n+1} = U) and ``a`` = (^kS^n)^T P_k^k, the phantom's partial velocity for u_k.  Returns
    Q^k = 1 / (a^T R^{k+1} a) and R^k = R^{k+1} (U - a Q^k a^T R^{k+1}).  When a^T R^{k+1} a <=
    tol |a|^2 the dependent cannot be eliminated (``a`` lies in the span of the columns eliminated
    before it) and :class:`SingularCoordinateSelectionError` is raised.

    Examples
    --------
    >>> import numpy as np
    >>> st = reduction_step(np.eye(3), [0.0, 1.0, 0.0])      # a slider along x, eliminated first
    >>> st.Q, st.R.diagonal()
    (1.0, array([1., 0., 1.]))
    """
    where = "rcr.reduction_step"
    R_next = _check.matrix(R_next, (3, 3), "R_next", where=where, symmetric=True)
    a = _check.vector(a, 3, "a", where=where, hint="the 3-vector (^kS^n)^T P_k^k of eq. (31)")
    tol = _check.scalar(tol, "tol", where=where, positive=True)
    aa = float(a @ a)
    if aa == 0.0:
        raise ModelError(f"{where}: a is zero; the joint does not move the phantom, so it cannot be "
                         "a dependent coordinate")
    Ra = R_next @ a
    den = float(a @ Ra)
    if den <= tol * aa:
        raise SingularCoordinateSelectionError(
            f"{where}: a^T R a / |a|^2 = {den / aa:.1e} <= tol: this dependent's column lies in the span "
            "of those eliminated before it (eq. 34 has no inverse); choose other dependents (ACS) or "
            "re-root the loop (GCL)")
    Q = 1.0 / den                                                       # C&A eq. (34)
    return ReductionStep(Q, R_next - Q * np.outer(Ra, Ra))              # C&A eq. (36), R symmetric


__all__ += ["ReductionStep", "reduction_step", "check_state", "check_series_states"]


# ----------------------------------------------------------------------------- a view of the one model

def system_accelerations(system, state, *, method: str = "acs", dependents=None, check: bool = True) -> np.ndarray:
    """The absolute accelerations ydd of a :class:`~rfda_teach.system.System` (the layout of
    :func:`rfda_teach.dae.forward_dynamics`), computed by Critchley & Anderson's generalized RCR.

    The system is read as a loop (:func:`rfda_teach.loops.from_system`, whose rule says what it takes; anything
    else raises a :class:`~rfda_teach.errors.ModelError` that points to :func:`rfda_teach.dae.forward_dynamics`),
    the state as its coordinates and rates (:func:`rfda_teach.loops.state_from_system`); :func:`accelerations`
    with ``method`` ``"acs"`` (``dependents``, default the best-conditioned set at the state), ``"gcl"`` or
    ``"rcr"`` (the last three coordinates, C&A eq. (34) singular where they cannot close the loop) gives qdd,
    and :func:`rfda_teach.loops.absolute_accelerations` maps it back.  A system with several cut joints that
    form a chain of coupled loops is reduced by :func:`series_accelerations` (ACS, each loop's
    ``dependents`` a list entry).  ``check`` (default) refuses a state that
    violates a joint of the System (:class:`~rfda_teach.errors.ConstraintViolationError`).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import dae, loopref
    >>> fb = five_bar(); st = loopref.chain_state(fb, fb.q0, np.zeros(5))
    >>> ydd = system_accelerations(fb.mechanism, st, method="gcl")
    >>> bool(np.allclose(ydd, dae.forward_dynamics(fb.mechanism, st).ydd, atol=1e-12))
    True
    """
    where = "rcr.system_accelerations"
    method = _check.choice(method, ("acs", "gcl", "rcr"), "method", where=where)
    if dependents is not None and method != "acs":
        raise ModelError(f"{where}: dependents= is for method 'acs'; method {method!r} chooses its own")
    model = from_system(system, state=state, dependents=dependents)
    q, qd = state_from_system(model, state, check=check)
    if isinstance(model, LoopSeries):                   # C&A eq. (47)-(64): each loop on its moving base body
        if method != "acs":
            raise ModelError(f"{where}: system {system.name!r} is a chain of {len(model.loops)} loops, which "
                             f"series_accelerations reduces by ACS; method {method!r} is for a single loop")
        return absolute_accelerations(model, state, series_accelerations(model, q, qd, check=False))
    return absolute_accelerations(model, state, accelerations(model, q, qd, method=method, check=False))


__all__ += ["from_system", "state_from_system", "system_accelerations"]
