"""Ready-made tree systems used by the book and the tests.

* :func:`featherstone_sliders` - Fig. 2: two sliding blocks (D&G eq. 13-17).
* :func:`planar_revolute_pair` - Fig. 3: a free planar body j and a body k
  pinned to it (D&G eq. 18-25, 47-48).
* :func:`figure1_tree` - Fig. 1: a 13-node tree whose node 2 has descendants
  4, 5, 7, 10, 11, 12 (footnote 6).
* :func:`random_tree` and :func:`chain` - random and serial trees;
  :func:`universal_chain` - a random chain on universal joints.
* :func:`random_state` and :func:`state_from_joints` - states consistent with
  every joint (positions by joint kinematics, velocities by D&G eq. 61).

Examples
--------
>>> from rfda_teach import models
>>> sys = models.figure1_tree()
>>> sys.parents
(-1, 0, 0, 0, 2, 2, 1, 4, 3, 3, 5, 5, 7)
>>> sys.topology.descendants(2)
(4, 5, 7, 10, 11, 12)
"""

from __future__ import annotations

import numpy as np

from . import _check
from .bodies import EULER_TOL, Body, nvel
from .coordinates import appendix_a
from .errors import ModelError
from .joints import Joint, evaluate, joint_pose, random_joint_position
from .system import State, System

__all__ = ["featherstone_sliders", "planar_revolute_pair", "figure1_tree", "FIGURE1_PARENTS", "random_tree",
           "chain", "universal_chain", "random_state", "state_from_joints"]

from .spatial import G0  # noqa: E402  (re-exported: models.G0)
from .spatial import planar_rotation, rotate_inertia  # noqa: E402

#: Parent array chosen for Fig. 1 (the figure itself is not in the text):
#: 0 is the root; 1, 2, 3 hang from 0; 6 from 1; 4, 5 from 2; 8, 9 from 3;
#: 7 from 4; 10, 11 from 5; 12 from 7.  Descendants of 2: 4, 5, 7, 10, 11, 12.
FIGURE1_PARENTS = (-1, 0, 0, 0, 2, 2, 1, 4, 3, 3, 5, 5, 7)


def featherstone_sliders(m1: float = 1.0, m2: float = 1.0, gravity=(0.0, -G0)) -> System:
    """Featherstone's example, Fig. 2: body 1 slides on a horizontal rail fixed to the base,
    body 2 on a vertical rail fixed to body 1.  y_i = (r_xi, r_yi).

    The constraints are r_y1 = 0 (G_1 = [0 1]) and r_x2 - r_x1 = 0 (Q_2 = [-1 0],
    G_2 = [1 0]), exactly as in D&G eq. (13)-(14); the joint variables are r_x1 and r_y2 - r_y1.

    Examples
    --------
    >>> featherstone_sliders().joints[1].name
    'vertical rail'
    """
    bodies = (Body("point2", m1, name="slider 1"), Body("point2", m2, name="slider 2"))
    joints = (Joint("rail", parent_frame=np.eye(2), name="horizontal rail"),            # axis x, normal y
              Joint("rail", parent_frame=np.array([[0.0, 1.0], [1.0, 0.0]]), name="vertical rail"))
    return System((-1, 0), bodies, joints, gravity, name="Featherstone's sliders (Fig. 2)")


def planar_revolute_pair(m_j: float = 2.0, J_j: float = 0.4, m_k: float = 1.0, J_k: float = 0.1,
                         s_j=(0.5, 0.1), s_k=(-0.4, 0.05), gravity=(0.0, -G0)) -> System:
    """Fig. 3: body j free in the plane (node 0), body k pinned to it at P_j = P_k (node 1).

    ``s_j`` = s'_j^{P_j} and ``s_k`` = s'_k^{P_k} locate the pin in each body's frame.
    Body j's joint to the ground is a planar free joint, so D&G eq. (19) has no multiplier.

    Examples
    --------
    >>> [j.type for j in planar_revolute_pair().joints]
    ['free2d', 'revolute2d']
    """
    bodies = (Body("planar", m_j, J_j, name="j"), Body("planar", m_k, J_k, name="k"))
    joints = (Joint("free2d", name="j to ground"),
              Joint("revolute2d", parent_point=s_j, child_point=s_k, name="revolute k"))
    return System((-1, 0), bodies, joints, gravity, name="planar revolute pair (Fig. 3)")


def figure1_tree(kind: str = "planar", gravity=None) -> System:
    """The tree of Fig. 1 (parents :data:`FIGURE1_PARENTS`), made of uniform bars.

    Every body is a bar of length 1 and mass 1 (J = 1/12) joined end to end by
    revolute joints; the root is pinned to the ground at the origin.  With
    ``kind="spatial"`` the bars are 3-D (J' = diag(1/12, 1/12, 1e-3)) and the
    revolute axes alternate between the local z and y axes.

    Examples
    --------
    >>> figure1_tree("spatial").n_dof
    13
    """
    kind = _check.choice(kind, ("planar", "spatial"), "kind", where="models.figure1_tree")
    n = len(FIGURE1_PARENTS)
    bodies, joints = [], []
    for i in range(n):
        first = FIGURE1_PARENTS[i] < 0
        if kind == "planar":
            bodies.append(Body("planar", 1.0, 1.0 / 12.0, name=f"bar {i}"))
            joints.append(Joint("revolute2d", parent_point=(0.0, 0.0) if first else (0.5, 0.0),
                                child_point=(-0.5, 0.0), child_frame=-0.3 * (i % 3 - 1), name=f"joint {i}"))
        elif kind == "spatial":
            bodies.append(Body("spatial", 1.0, np.diag([1e-3, 1 / 12, 1 / 12]), name=f"bar {i}"))
            frame = np.eye(3) if i % 2 == 0 else np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])
            joints.append(Joint("revolute", parent_point=(0, 0, 0) if first else (0.5, 0, 0),
                                child_point=(-0.5, 0, 0), parent_frame=frame, child_frame=frame,
                                name=f"joint {i}"))
        else:
            raise ModelError(f"figure1_tree: kind={kind!r}; use 'planar' or 'spatial'")
    g = gravity if gravity is not None else ((0.0, -G0) if kind == "planar" else (0.0, 0.0, -G0))
    return System(FIGURE1_PARENTS, bodies, joints, g, name=f"Fig. 1 tree ({kind})")


def _random_rotation(rng, d: int) -> np.ndarray:
    if d == 2:
        return planar_rotation(rng.uniform(-np.pi, np.pi), check=False)
    from scipy.spatial.transform import Rotation
    return Rotation.random(random_state=rng).as_matrix()


def _random_body(rng, kind: str, i: int) -> Body:
    m = rng.uniform(0.5, 2.0)
    if kind == "planar":
        return Body("planar", m, m * rng.uniform(0.02, 0.2), name=f"body {i}")
    sides = rng.uniform(0.1, 1.0, 3)
    principal = m / 12.0 * np.array([sides[1] ** 2 + sides[2] ** 2, sides[0] ** 2 + sides[2] ** 2,
                                     sides[0] ** 2 + sides[1] ** 2])
    R = _random_rotation(rng, 3)
    return Body("spatial", m, rotate_inertia(np.diag(principal), R, check=False), name=f"body {i}")


_JOINT_MIX = {
    "planar": (("revolute2d", "prismatic2d"), (0.7, 0.3), ("revolute2d", "free2d", "prismatic2d")),
    "spatial": (("revolute", "prismatic", "spherical", "free"), (0.45, 0.2, 0.25, 0.1),
                ("free", "revolute", "spherical")),
}


#: the largest n that random_tree and chain build (a larger tree would take minutes to build and
#: gigabytes for the dense D&G eq. (7))
MAX_BODIES = 20_000


def random_tree(n: int, kind: str = "planar", seed=None, *, gravity=None, chain_bias: float = 0.5) -> System:
    """A random tree of n bodies with random masses, inertias, joint offsets, joint frames and joint types.

    Planar trees mix revolute and prismatic joints, spatial trees revolute,
    prismatic, spherical and free joints; the root's joint is drawn among
    free, revolute and spherical (planar: revolute, free, prismatic).  Parents
    are drawn so that every body is numbered higher than its parent; with
    probability ``chain_bias`` a body hangs from the previous one.


    Examples
    --------
    >>> sys = random_tree(5, kind="spatial", seed=1)
    >>> sys.n, sys.kind
    (5, 'spatial')
    """
    where = "models.random_tree"
    n = _check.positive_int(n, "n (the number of bodies)", where=where, maximum=MAX_BODIES)
    kind = _check.choice(kind, tuple(_JOINT_MIX), "kind", where=where)
    seed = _check.seed(seed, where=where)
    chain_bias = _check.scalar(chain_bias, "chain_bias", where=where, nonneg=True)
    if chain_bias > 1:
        raise ModelError(f"{where}: chain_bias is {chain_bias}; it is a probability, give a number in [0, 1]")
    rng = np.random.default_rng(seed)
    d = 2 if kind == "planar" else 3
    types, probs, root_types = _JOINT_MIX[kind]
    parents, bodies, joints = [-1], [], []
    for i in range(1, n):
        parents.append(i - 1 if rng.random() < chain_bias else int(rng.integers(0, i)))
    for i in range(n):
        bodies.append(_random_body(rng, kind, i))
        jtype = rng.choice(root_types) if i == 0 else rng.choice(types, p=probs)
        R = _random_rotation(rng, d)
        joints.append(Joint(str(jtype), parent_point=rng.uniform(-0.5, 0.5, d),
                            child_point=rng.uniform(-0.5, 0.5, d), parent_frame=R,
                            child_frame=_random_rotation(rng, d), name=f"joint {i}"))
    g = gravity if gravity is not None else ((0.0, -G0) if kind == "planar" else (0.0, 0.0, -G0))
    return System(tuple(parents), tuple(bodies), tuple(joints), g, name=f"random {kind} tree n={n} seed={seed}")


def chain(n: int, kind: str = "planar", *, gravity=None) -> System:
    """A serial chain of n uniform bars joined by revolute joints (used by the benchmarks).


    Examples
    --------
    >>> chain(4).parents
    (-1, 0, 1, 2)
    """
    where = "models.chain"
    n = _check.positive_int(n, "n (the number of bodies)", where=where, maximum=MAX_BODIES)
    kind = _check.choice(kind, ("planar", "spatial"), "kind", where=where)
    bodies, joints = [], []
    for i in range(n):
        if kind == "planar":
            bodies.append(Body("planar", 1.0, 1 / 12, name=f"bar {i}"))
            joints.append(Joint("revolute2d", parent_point=(0, 0) if i == 0 else (0.5, 0), child_point=(-0.5, 0)))
        elif kind == "spatial":
            bodies.append(Body("spatial", 1.0, np.diag([1e-2, 1 / 12, 1 / 12])))
            frame = np.eye(3) if i % 2 == 0 else np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])
            joints.append(Joint("revolute", parent_point=(0, 0, 0) if i == 0 else (0.5, 0, 0),
                                child_point=(-0.5, 0, 0), parent_frame=frame, child_frame=frame))
        else:
            raise ModelError(f"chain: kind={kind!r}; use 'planar' or 'spatial'")
    g = gravity if gravity is not None else ((0.0, -G0) if kind == "planar" else (0.0, 0.0, -G0))
    return System(tuple(range(-1, n - 1)), tuple(bodies), tuple(joints), g, name=f"{kind} chain n={n}")


def universal_chain(n: int = 3, seed=None, *, gravity=None) -> System:
    """A random serial chain of n spatial bodies on universal joints (the first to the ground).

    Each joint has random joint points, joint frames and two random orthogonal axes (a1 in the
    parent joint frame, a2 in the child joint frame, :class:`~rfda_teach.joints.Joint`); masses
    and inertias as in :func:`random_tree`.  Its own random stream: :func:`random_tree` is unchanged.

    Examples
    --------
    >>> sys = universal_chain(3, seed=0)
    >>> [jt.type for jt in sys.joints], sys.n_dof
    (['universal', 'universal', 'universal'], 6)
    """
    where = "models.universal_chain"
    n = _check.positive_int(n, "n (the number of bodies)", where=where, maximum=MAX_BODIES)
    rng = np.random.default_rng(_check.seed(seed, where=where))
    bodies, joints = [], []
    for i in range(n):
        bodies.append(_random_body(rng, "spatial", i))
        A = _random_rotation(rng, 3)
        joints.append(Joint("universal", parent_point=rng.uniform(-0.5, 0.5, 3),
                            child_point=rng.uniform(-0.5, 0.5, 3), parent_frame=_random_rotation(rng, 3),
                            child_frame=_random_rotation(rng, 3), axes=(A[:, 0], A[:, 1]), name=f"joint {i}"))
    g = gravity if gravity is not None else (0.0, 0.0, -G0)
    return System(tuple(range(-1, n - 1)), tuple(bodies), tuple(joints), g,
                  name=f"universal chain n={n} seed={seed}")


def _per_joint(system: System, x, what: str, where: str, size, noun: str) -> list:
    """One finite vector per joint, of the joint's size (a list or tuple of arrays)."""
    if x is None or isinstance(x, (str, bytes, dict)) or not hasattr(x, "__len__"):
        raise ModelError(f"{where}: {what} must be a list with one array per joint ({system.n}), got {x!r}")
    if len(x) != system.n:
        raise ModelError(f"{where}: {what} has {len(x)} entries; system {system.name!r} needs one per joint "
                         f"({system.n})")
    out = []
    for k, (joint, xk) in enumerate(zip(system.joints, x)):
        out.append(_check.vector(xk, size(joint), f"{what}[{k}]", where=where,
                                 hint=f"joint {k} ({joint.type}) has {size(joint)} {noun}"))
    return out


def state_from_joints(system: System, q, qd, *, check: bool = True) -> State:
    """Absolute state from joint positions q_k and joint speeds qdot_k (lists, one entry per joint).

    Positions follow the joint kinematics root to leaves; velocities follow D&G eq. (61),
    ydot_k = B_k ydot_j + H_k qdot_k + c_k (c_k = 0 for the built-in joints).  ``check=False``
    skips the argument checks (for an integrator's right-hand side, whose q and qd are already
    arrays of the right shapes).  The tree joints hold by construction; the cut joints of a closed
    system (``system.cuts``) hold only if q and qd close the loops: check with
    :func:`rfda_teach.system.cut_residuals` or :func:`rfda_teach.system.check_consistency`.

    Examples
    --------
    >>> import numpy as np
    >>> sys = chain(2)
    >>> st = state_from_joints(sys, [np.array([0.0]), np.array([0.0])], [np.array([1.0]), np.array([0.0])])
    >>> st.y, st.yd                      # both bars along x, turning about the origin at 1 rad/s
    (array([0.5, 0. , 0. , 1.5, 0. , 0. ]), array([0. , 0.5, 1. , 0. , 1.5, 1. ]))
    """
    where = "models.state_from_joints"
    if not _check.flag(check, "check", where=where):
        return _state_from_joints(system, q, qd)
    system = _check.instance(system, System, "system", where=where,
                             hint="build one with rfda_teach.models or rfda_teach.system.System")
    q = _per_joint(system, q, "q", where, lambda jt: jt.n_q, "position variables")
    qd = _per_joint(system, qd, "qd", where, lambda jt: jt.n_dof, "joint speeds")
    for k, joint in enumerate(system.joints):
        quat = {"spherical": slice(0, 4), "free": slice(3, 7)}.get(joint.type)
        if quat is not None and abs(np.linalg.norm(q[k][quat]) - 1.0) > EULER_TOL:
            raise ModelError(f"{where}: q[{k}] (joint {k}, {joint.type}) has Euler parameters {q[k][quat]} of norm "
                             f"{np.linalg.norm(q[k][quat]):.8f}, not 1 (tolerance {EULER_TOL}); normalise them (e / |e|)")
    return _state_from_joints(system, q, qd)


def _state_from_joints(system: System, q, qd) -> State:
    """:func:`state_from_joints` without argument checks (for integrators' right-hand sides)."""
    y = np.zeros(system.n_pos)
    yd = np.zeros(system.n_vel)
    ps, vs = system.pos_slices, system.vel_slices
    kind = system.kind
    for k in system.topology.order:
        j = system.parents[k]
        joint = system.joints[k]
        y[ps[k]] = joint_pose(joint, kind, None if j < 0 else y[ps[j]], q[k], check=False)
    zero = np.zeros(nvel(kind))
    for k in system.topology.order:
        j = system.parents[k]
        joint = system.joints[k]
        tk = evaluate(joint, kind, None if j < 0 else y[ps[j]], None if j < 0 else zero, y[ps[k]], zero,
                      check=False)
        E, D, B, H, _ = appendix_a(tk.G, tk.G_d, tk.Q, tk.Q_d, check=False)
        yd[vs[k]] = H @ qd[k] + (0.0 if j < 0 else B @ yd[vs[j]])          # D&G eq. (61)
    return State(y, yd)


def random_state(system: System, seed=None, *, speed: float = 1.0) -> State:
    """A random state consistent with every joint: random joint positions and speeds
    (standard deviation ``speed``) mapped to absolute coordinates by :func:`state_from_joints`.
    A system with cut joints is refused (random tree coordinates do not close its loops).


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, system as s
    >>> sys = models.random_tree(4, kind="spatial", seed=2)
    >>> st = models.random_state(sys, seed=3)
    >>> st.y.shape, st.yd.shape
    ((28,), (24,))
    """
    where = "models.random_state"
    system = _check.instance(system, System, "system", where=where,
                             hint="build one with rfda_teach.models or rfda_teach.system.System")
    if system.cuts:
        raise ModelError(f"{where}: system {system.name!r} has cut joints ({', '.join(c.name for c in system.cuts)}); "
                         "random joint coordinates of its tree do not close them. Draw the state for the tree "
                         "(the same System without cuts=) and close the loops, or build it with "
                         "models.state_from_joints from coordinates that close them")
    speed = _check.scalar(speed, "speed", where=where, nonneg=True)
    rng = np.random.default_rng(_check.seed(seed, where=where))
    q = [random_joint_position(jt, rng) for jt in system.joints]
    qd = [speed * rng.normal(size=jt.n_dof) for jt in system.joints]
    return state_from_joints(system, q, qd)
