"""The analysis reference point of the fully recursive formulation (Kang & Yoon, 2003).

The joint-coordinate formulation of Bae & Haug is written with the velocity state
Y_j = (v_P, omega_j) of a point P fixed to body j, where P is one of

``"centroid"``
    the mass centre (the traditional choice, Method 1, K&Y eq. 22-30);
``"joint"``
    the origin O_j of the body reference frame, at joint j (the third candidate);
``"origin"``
    the point of body j that coincides with the global origin at the instant
    (the instant global origin, IGO, Method 2, K&Y eq. 31-36).

Everything else is common: kinematics K&Y eq. (9)-(21); velocity transformations
Y_j = B_j1 Y_i + B_j2 qdot_j (K&Y eq. 24, 33) with

    B_j1 = [[I, -[p_j - p_i]x], [0, I]],   B_j2 = [[-[p_j - r_j]x B_j^w], [B_j^w]],

(p the reference point, r_j the joint point), so that B_j1 = I at the instant
global origin and the top block of B_j2 vanishes at the joint point; the
velocity-square term D_j = B_j1dot Y_i + B_j2dot qdot_j (K&Y eq. 26-27, 34-35); the
equipollent mass matrix and force of K&Y eq. (4)-(8), M^P = T^T M^c T,
Q^P = T^T (Q^c - M^c Tdot Y^P); the recursion K&Y eq. (28)-(30); and loop closure with
cut joints and multipliers K&Y eq. (37)-(43) built from the basic constraints of
Tables 1-4 (d1, d2, s, ss), written here for any reference point (Tables 1-2 are
the centroid case, Tables 3-4 the instant-global-origin case).

Every arithmetic step goes through a :class:`~rfda_teach.count.Tally`, which counts scalar
multiplications as the step is computed and skips the products that the chosen
reference point makes structurally trivial (an identity B_j1, a zero block of
B_j2).  :func:`count_multiplications` reports the counts of one evaluation.

The record is a view of the one model: :func:`from_system` writes a spatial
:class:`~rfda_teach.system.System` (revolute, universal and spherical joints, cut joints, spring-dampers,
one tyre, gravity) as a :class:`Model` with ``.mechanism`` the System; :func:`state_from_system` and
:func:`system_state` map states both ways, and :func:`system_accelerations` returns the System's
absolute accelerations computed by this recursion, the same as ``dae.forward_dynamics(system, state).ydd``.
:func:`quarter_car` is :func:`from_system` of :func:`quarter_car_system`.

Every public function and record checks its input through :mod:`rfda_teach._check` (a
:class:`~rfda_teach.errors.ModelError` names the argument): body data (mass > 0, C a rotation,
J symmetric positive definite with J1 + J2 >= J3), spring and tyre constants, road heights, times.
:func:`solve`, :func:`forward_dynamics` and :func:`simulate` also refuse a state that does not close
the loops (closure residual above :data:`POSITION_TOL`, residual rate above :data:`VELOCITY_TOL`) with
a :class:`~rfda_teach.errors.ConstraintViolationError` naming the cut joint; ``check=False`` skips it.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import refpoint
>>> car = refpoint.quarter_car()
>>> qdd = [refpoint.forward_dynamics(car, car.q0, np.zeros(10), p) for p in refpoint.POINTS]
>>> bool(np.allclose(qdd[0], qdd[1]) and np.allclose(qdd[0], qdd[2]))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import _check
from .bodies import frame_with_z
from .count import Tally  # re-exported: the chapters met it here first
from .errors import ConstraintRankError, ConstraintViolationError, ModelError, TopologyError
from .spatial import G0, cross, elementary_rotation, shift, skew, spatial_inertia  # check=False: computed vectors
from .simulate import Motion, integrate, span
from .summary import count_by_kind, html_table
from .tree import Topology

__all__ = ["attachment_points", "POINTS", "Tally", "RBody", "CutJoint", "SpringDamper", "Model", "quarter_car", "joint_rotation",
           "Bw_local", "kinematics", "forward_dynamics", "solve", "count_multiplications", "constraint_rows",
           "closure_residual", "closure_jacobian", "assemble", "consistent_velocity", "simulate", "to_absolute",
           "tree_joint_constraints", "absolute_constraints", "applied_forces",
           "HARDPOINTS", "road_bump", "POSITION_TOL", "VELOCITY_TOL", "equipollent",
           "velocity_transformation", "from_system", "state_from_system", "system_accelerations",
           "system_state", "quarter_car_system", "SYSTEM_JOINTS"]

POINTS = ("centroid", "joint", "origin")
_E = np.eye(3)

#: largest accepted closure residual of a cut joint at entry of :func:`solve`, :func:`forward_dynamics`
#: and :func:`simulate`, in the units of each basic constraint: metres for "s" and "d2", m^2 for "ss",
#: the cosine of the angle for "d1" (absolute)
POSITION_TOL = 1e-6

#: largest accepted rate of a cut-joint residual at entry, relative: |Phi_q qdot| <= VELOCITY_TOL (1 + max |qdot|)
VELOCITY_TOL = 1e-6

#: tolerance on the norm of the unit vectors ua, ub of "d1" and "d2" cut joints
UNIT_TOL = 1e-6


# ----------------------------------------------------------------------------- model

_AXIS = {"x": 0, "y": 1, "z": 2}


def joint_rotation(axes: str, q) -> np.ndarray:
    """R_j(q^w) of K&Y eq. (9): successive rotations about the joint frame's axes (Bryant angles).

    Examples
    --------
    >>> import numpy as np
    >>> np.round(joint_rotation("z", [np.pi / 2]) @ [1.0, 0, 0], 12) + 0.0
    array([0., 1., 0.])
    """
    axes = _axes(axes, "axes", where="refpoint.joint_rotation")
    q = _check.vector(q, len(axes), "q", where="refpoint.joint_rotation", hint=f"one angle per axis of {axes!r}")
    return _joint_rotation(axes, q)


def _axes(axes, what: str, *, where: str) -> str:
    """1 to 3 letters of 'xyz', no letter twice in a row (two equal successive axes are one axis)."""
    _check.instance(axes, str, what, where=where, hint="e.g. 'z' (revolute), 'xy' (universal), 'xyz' (spherical)")
    if not set(axes) <= set("xyz") or not 1 <= len(axes) <= 3 or any(a == b for a, b in zip(axes, axes[1:])):
        raise ModelError(f"{where}: {what}={axes!r}; use 1 to 3 letters of 'xyz', no letter twice in a row, "
                         "e.g. 'z' (revolute), 'xy' (universal), 'xyz' (spherical)")
    return axes


def _joint_rotation(axes: str, q) -> np.ndarray:
    R = np.eye(3)
    for a, qi in zip(axes, q):
        R = R @ elementary_rotation(a, qi, check=False)
    return R


def Bw_local(axes: str, q, qd=None):
    """B_j^w' of K&Y eq. (16) (3 x n, in the joint base frame) and, with ``qd``, Bdot_j^w' qdot.

    Column i is the i-th rotation axis carried by the rotations before it.

    Examples
    --------
    >>> import numpy as np
    >>> B, Bd = Bw_local("xy", [0.0, 0.0], [1.0, 1.0])
    >>> B
    array([[1., 0.],
           [0., 1.],
           [0., 0.]])
    >>> Bd                                  # the second axis swings with the first rotation
    array([0., 0., 1.])
    """
    where = "refpoint.Bw_local"
    axes = _axes(axes, "axes", where=where)
    q = _check.vector(q, len(axes), "q", where=where, hint=f"one angle per axis of {axes!r}")
    if qd is not None:
        qd = _check.vector(qd, len(axes), "qd", where=where, hint=f"one rate per axis of {axes!r}")
    return _Bw_local(axes, q, qd)


def _Bw_local(axes: str, q, qd=None):
    n = len(axes)
    B = np.zeros((3, n))
    R = np.eye(3)
    Rs = []
    for i, a in enumerate(axes):
        B[:, i] = R @ _E[_AXIS[a]]
        Rs.append(R.copy())
        R = R @ elementary_rotation(a, q[i], check=False)
    if qd is None:
        return B
    Bd = np.zeros(3)
    w = np.zeros(3)
    for i in range(n):
        Bd += qd[i] * cross(w, B[:, i], check=False)      # d/dt(R_<i e_i) = w_<i x (R_<i e_i)
        w = w + qd[i] * B[:, i]
    return B, Bd


@dataclass(frozen=True, eq=False)
class RBody:
    """A body of the spanning tree and its joint to the parent (``parent`` -1: the fixed chassis).

    ``s`` = s'_j, the joint point in the parent's frame {O_i} (world for the chassis); ``C`` = C_j,
    the joint base frame in {O_i}; ``axes`` the rotation axes of joint j in that frame ("z" revolute,
    "xy" universal, "xyz" spherical); ``rho`` = rho'_j, the centroid in {O_j}; ``J`` the central
    inertia in {O_j} axes (the precomputed C^c J^c C^cT of Tsai & Haug).  C must be a rotation, J
    symmetric positive definite with principal moments obeying J1 + J2 >= J3.

    Examples
    --------
    >>> import numpy as np
    >>> b = RBody("link", -1, np.zeros(3), np.eye(3), "xy", 1.0, np.array([0, 0, 0.2]), np.diag([0.02, 0.02, 0.01]))
    >>> b.J.dtype, b.parent
    (dtype('float64'), -1)
    """

    name: str
    parent: int
    s: np.ndarray
    C: np.ndarray
    axes: str
    mass: float
    rho: np.ndarray
    J: np.ndarray

    def __post_init__(self):
        where = "refpoint.RBody"
        _check.instance(self.name, str, "name", where=where, hint="give the body a name, e.g. 'lower arm'")
        where = f"refpoint.RBody {self.name!r}"
        _set(self, "parent", _check.positive_int(self.parent, "parent", where=where, minimum=-1))
        _set(self, "s", _check.vector(self.s, 3, "s", where=where, hint="the joint point in the parent's frame"))
        _set(self, "C", _check.matrix(self.C, (3, 3), "C", where=where, orthogonal=True))
        _axes(self.axes, "axes", where=where)
        _set(self, "mass", _check.scalar(self.mass, "mass", where=where, positive=True))
        _set(self, "rho", _check.vector(self.rho, 3, "rho", where=where, hint="the centroid in {O_j}"))
        _set(self, "J", _check.inertia(self.J, "J", where=where))


def _set(obj, name, value):
    object.__setattr__(obj, name, value)


def _body_index(v, what: str, where: str) -> int:
    return _check.positive_int(v, what, where=where, minimum=-1)


@dataclass(frozen=True, eq=False)
class CutJoint:
    """A cut joint closing a loop, made of basic constraints (Tables 1-4).

    ``kind`` is "s" (spherical: points coincide, 3 rows), "ss" (distance), "d1" or "d2";
    ``a``, ``b`` are bodies (-1: chassis), ``pa``, ``pb`` points in their frames, ``ua``, ``ub``
    unit vectors (for d1, d2), ``length`` the distance for "ss".
    """

    kind: str
    a: int
    b: int
    pa: np.ndarray = field(default_factory=lambda: np.zeros(3))
    pb: np.ndarray = field(default_factory=lambda: np.zeros(3))
    ua: np.ndarray = field(default_factory=lambda: np.array([1.0, 0, 0]))
    ub: np.ndarray = field(default_factory=lambda: np.array([0.0, 1, 0]))
    length: float = 0.0
    name: str = ""

    def __post_init__(self):
        where = "refpoint.CutJoint"
        _check.instance(self.name, str, "name", where=where)
        if self.name:
            where = f"refpoint.CutJoint {self.name!r}"
        _check.choice(self.kind, ("s", "ss", "d1", "d2"), "kind", where=where)
        a = _body_index(self.a, "a", where)
        b = _body_index(self.b, "b", where)
        if a == b:
            raise ModelError(f"{where}: a = b = {a}; a cut joint connects two different bodies (-1: chassis)")
        _set(self, "a", a)
        _set(self, "b", b)
        for k in ("pa", "pb", "ua", "ub"):
            _set(self, k, _check.vector(getattr(self, k), 3, k, where=where))
        for k in (("ua", "ub") if self.kind == "d1" else ("ua",) if self.kind == "d2" else ()):
            n = float(np.linalg.norm(getattr(self, k)))
            if abs(n - 1) > UNIT_TOL:
                raise ModelError(f"{where}: {k} has norm {n:.6g}; a {self.kind!r} constraint needs a unit vector "
                                 "(divide it by its norm)")
        _set(self, "length", _check.scalar(self.length, "length", where=where, nonneg=True))

    @property
    def m(self) -> int:
        """Number of constraint rows."""
        return 3 if self.kind == "s" else 1


@dataclass(frozen=True, eq=False)
class SpringDamper:
    """A linear spring-damper between points ``pa`` of body ``a`` and ``pb`` of body ``b`` (-1: chassis):
    tension k (L - L0) + c Ldot.

    The law of :class:`rfda_teach.forces.SpringDamper` (the same tension, pulling the points together
    when positive), with the points in the bodies' frames {O_j} (origin at the joint point) instead of
    from the mass centre; :func:`from_system` writes one from the other.

    Examples
    --------
    >>> sd = quarter_car().springs[0]
    >>> sd.a, sd.b, round(sd.k), round(sd.c)
    (0, -1, 30000, 2500)
    """

    a: int
    b: int
    pa: np.ndarray
    pb: np.ndarray
    k: float
    c: float
    L0: float

    def __post_init__(self):
        where = "refpoint.SpringDamper"
        a = _body_index(self.a, "a", where)
        b = _body_index(self.b, "b", where)
        if a == b:
            raise ModelError(f"{where}: a = b = {a}; a spring-damper connects two different bodies (-1: chassis)")
        _set(self, "a", a)
        _set(self, "b", b)
        _set(self, "pa", _check.vector(self.pa, 3, "pa", where=where))
        _set(self, "pb", _check.vector(self.pb, 3, "pb", where=where))
        _set(self, "k", _check.scalar(self.k, "k (stiffness, N/m)", where=where, nonneg=True))
        _set(self, "c", _check.scalar(self.c, "c (damping, N s/m)", where=where, nonneg=True))
        _set(self, "L0", _check.scalar(self.L0, "L0 (free length, m)", where=where, nonneg=True))


@dataclass(frozen=True, eq=False)
class Model:
    """A chassis-fixed tree of :class:`RBody` with cut joints, spring-dampers, gravity, an optional
    vertical tyre (stiffness ``tire_k``, radius ``tire_r``, acting on body ``tire_body`` at its centroid,
    or at ``tire_point`` in {O_j} when given, against the road height ``road(t)``) and an assembled
    configuration ``q0``.  ``mechanism`` is the :class:`~rfda_teach.system.System` the record was built
    from (:func:`from_system`), None for a record written by hand.

    Examples
    --------
    >>> car = quarter_car()
    >>> car.mechanism.name, car.tire_point is None
    ('chassis-fixed quarter car', True)
    """

    bodies: tuple
    cuts: tuple
    springs: tuple
    gravity: np.ndarray
    q0: np.ndarray
    tire_body: int = -1
    tire_k: float = 0.0
    tire_r: float = 0.0
    road: object = None
    name: str = ""
    tire_point: object = None
    mechanism: object = field(default=None, repr=False)
    topology: Topology = field(init=False, repr=False)
    qslices: tuple = field(init=False, repr=False)

    def __post_init__(self):
        where = "refpoint.Model"
        for k, cls in (("bodies", RBody), ("cuts", CutJoint), ("springs", SpringDamper)):
            v = getattr(self, k)
            if v is None or isinstance(v, (str, bytes, dict)) or not hasattr(v, "__iter__"):
                raise ModelError(f"{where}: {k} must be a tuple of {cls.__name__}, got {v!r}")
            v = tuple(v)
            for i, e in enumerate(v):
                _check.instance(e, cls, f"{k}[{i}]", where=where, hint=f"build it with refpoint.{cls.__name__}(...)")
            _set(self, k, v)
        if not self.bodies:
            raise ModelError(f"{where}: bodies is empty; a model needs at least one moving body")
        n = len(self.bodies)
        parents = [b.parent for b in self.bodies]
        for j, p in enumerate(parents):
            if p >= n:
                raise TopologyError(f"body {j} ({self.bodies[j].name}) has parent {p}, but the model has bodies "
                                    f"0..{n - 1}; use -1 for the chassis")
        topo = Topology.from_parents(_virtual_root(parents))
        for j, p in enumerate(parents):
            if p >= j:
                raise TopologyError(f"body {j} ({self.bodies[j].name}) is numbered lower than its parent {p}; "
                                    "number the spanning tree outward from the chassis")
        for kind, items in (("cuts", self.cuts), ("springs", self.springs)):
            for i, c in enumerate(items):
                for end in ("a", "b"):
                    if getattr(c, end) >= n:
                        raise ModelError(f"{where}: {kind}[{i}].{end} = {getattr(c, end)}, but the model has "
                                         f"bodies 0..{n - 1}; use -1 for the chassis")
        _set(self, "gravity", _check.vector(self.gravity, 3, "gravity", where=where,
                                            hint="world components, e.g. (0, 0, -9.81)"))
        _set(self, "tire_body", _body_index(self.tire_body, "tire_body", where))
        if self.tire_body >= n:
            raise ModelError(f"{where}: tire_body = {self.tire_body}, but the model has bodies 0..{n - 1}; "
                             "use -1 for no tyre")
        _set(self, "tire_k", _check.scalar(self.tire_k, "tire_k (tyre stiffness, N/m)", where=where, nonneg=True))
        _set(self, "tire_r", _check.scalar(self.tire_r, "tire_r (tyre radius, m)", where=where, nonneg=True))
        _road(self.road, where)
        if self.tire_point is not None:
            _set(self, "tire_point", _check.vector(self.tire_point, 3, "tire_point", where=where,
                                                   hint="the tyre's point in {O_j} of tire_body, or None (centroid)"))
        if self.mechanism is not None:
            from .system import System
            _check.instance(self.mechanism, System, "mechanism", where=where,
                            hint="the System the record was built from (refpoint.from_system), or None")
        _check.instance(self.name, str, "name", where=where)
        sl, s = [], 0
        for b in self.bodies:
            sl.append(slice(s, s + len(b.axes)))
            s += len(b.axes)
        object.__setattr__(self, "topology", topo)
        object.__setattr__(self, "qslices", tuple(sl))
        object.__setattr__(self, "q0", _check.vector(self.q0, s, "q0", where=where,
                                                     hint=f"the tree has {s} joint coordinates"))

    @property
    def n(self) -> int:
        """Number of moving bodies."""
        return len(self.bodies)

    def __repr__(self) -> str:
        """One line: name, bodies, tree joints by kind, cut joints, force elements, coordinates.

        Examples
        --------
        >>> quarter_car()  # doctest: +ELLIPSIS
        Model 'chassis-fixed quarter car': 5 bodies; tree joints ...; 3 cut joints (s, s, s); 1 spring-damper; tyre on body 1; 10 joint coordinates
        """
        tree = count_by_kind(f"'{b.axes}'" for b in self.bodies)
        cuts = ", ".join(c.kind for c in self.cuts)
        tyre = f"; tyre on body {self.tire_body}" if self.tire_body >= 0 else ""
        return (f"Model {self.name!r}: {self.n} bodies; tree joints {tree}; {len(self.cuts)} cut joints "
                f"({cuts}); {len(self.springs)} spring-damper{'s' if len(self.springs) != 1 else ''}{tyre}; "
                f"{self.nq} joint coordinates")

    def _repr_html_(self) -> str:
        """A table in a notebook (:func:`rfda_teach.summary.html_table`): the line of :meth:`__repr__`, then
        one row per tree body (its joint's rotation axes, K&Y eq. 9, and its mass), per cut joint (its basic
        constraint of Tables 1-4 and rows), per spring-damper (k, c, L0) and for the tyre; a "kind" column
        tells them apart, "connects" names the two bodies (the parent first for a tree joint).

        Examples
        --------
        >>> car = quarter_car()
        >>> car._repr_html_().count("<tr>") == 1 + car.n + len(car.cuts) + len(car.springs) + 1
        True
        """
        def body(j):
            return "chassis" if j < 0 else self.bodies[j].name

        rows = [("tree joint", j, b.name, f"{body(b.parent)} – {b.name}",
                 f"axes '{b.axes}' ({len(b.axes)} coordinate{'s' if len(b.axes) > 1 else ''}), mass {b.mass:.4g} kg")
                for j, b in enumerate(self.bodies)]
        rows += [("cut joint", i, c.name, f"{body(c.a)} – {body(c.b)}", f"'{c.kind}' ({c.m} rows)")
                 for i, c in enumerate(self.cuts)]
        rows += [("spring-damper", i, "", f"{body(sd.a)} – {body(sd.b)}",
                  f"k = {sd.k:.4g} N/m, c = {sd.c:.4g} N s/m, L0 = {sd.L0:.4g} m")
                 for i, sd in enumerate(self.springs)]
        if self.tire_body >= 0:
            rows.append(("tyre", "", "", f"{body(self.tire_body)} – road",
                         f"k = {self.tire_k:.4g} N/m, r = {self.tire_r:.4g} m"))
        return html_table(repr(self), ("kind", "#", "name", "connects", "data"), rows,
                          "tree joints, cut joints and force elements")

    @property
    def nq(self) -> int:
        """Joint coordinates of the spanning tree."""
        return self.qslices[-1].stop

    @property
    def m(self) -> int:
        """Cut-joint constraints."""
        return sum(c.m for c in self.cuts)


def _road(road, where: str):
    if road is not None and not callable(road):
        raise ModelError(f"{where}: road must be None (flat) or a function of time t returning the road height "
                         f"in metres, e.g. refpoint.road_bump(); got {road!r}")
    return road


def _model(model, where: str) -> Model:
    return _check.instance(model, Model, "model", where=where,
                           hint="build one with refpoint.Model(...) or refpoint.quarter_car()")


def _q(model: Model, q, what: str, where: str) -> np.ndarray:
    return _check.vector(q, model.nq, what, where=where, hint=f"the model has {model.nq} joint coordinates")


def _virtual_root(parents):
    """Parent array with the chassis as an explicit root node (index 0), bodies shifted by one."""
    return [-1] + [p + 1 for p in parents]


# ----------------------------------------------------------------------------- kinematics, K&Y eq. (9)-(21)

class Kin(NamedTuple):
    """Per body, world components: A_j, joint point r_j, centroid rc_j, omega_j, rdot_j, rcdot_j,
    B_j^w, the term Bdot_j^w qdot_j, reference point p_j and its rate pdot_j, and Y_j."""

    A: list
    r: list
    rc: list
    w: list
    rd: list
    rcd: list
    Bw: list
    Bwd: list
    p: list
    pd: list
    Y: list


def attachment_points(model: Model) -> dict:
    """Every point of each body where something attaches, in the body's frame {O_j}: its own joint
    (the origin), its children's joints (s'_j of K&Y eq. (11)), the cut joints' and the spring-dampers'
    points.  The drawings (viz, scene3d) connect them.

    Examples
    --------
    >>> pts = attachment_points(quarter_car())
    >>> sorted(pts) == list(range(5)), len(pts[0]) >= 2
    (True, True)
    """
    _check.instance(model, Model, "model", where="refpoint.attachment_points",
                    hint="give a refpoint.Model, e.g. refpoint.quarter_car()")
    pts = {j: [np.zeros(3)] for j in range(model.n)}
    for b in model.bodies:
        if b.parent >= 0:
            pts[b.parent].append(np.asarray(b.s, float))
    for c in list(model.cuts) + list(model.springs):
        for body, p in ((c.a, c.pa), (c.b, c.pb)):
            if body >= 0:
                pts[body].append(np.asarray(p, float))
    return pts


def kinematics(model: Model, q, qd, point: str = "centroid", tally: Tally | None = None) -> Kin:
    """Positions, orientations and velocities of every body, K&Y eq. (9)-(21), and the reference
    point p_j with its rate (centroid, joint point or the fixed global origin).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint
    >>> car = refpoint.quarter_car()
    >>> k = refpoint.kinematics(car, car.q0, np.zeros(10))
    >>> np.round(k.rc[1], 3)              # the wheel centre at its design position
    array([0.  , 0.75, 0.3 ])
    """
    where = "refpoint.kinematics"
    q, qd, point = _inputs(model, q, qd, point, where)
    return _kinematics(model, q, qd, point, _tally(tally, where))


def _tally(tally, where: str):
    if tally is None:
        return Tally()
    return _check.instance(tally, Tally, "tally", where=where, hint="pass count.Tally() or leave it out")


def _inputs(model, q, qd, point, where: str):
    """The model, q and qd (finite, nq each) and the reference point, checked."""
    _model(model, where)
    point = _check.choice(point, POINTS, "point", where=where)
    return _q(model, q, "q", where), _q(model, qd, "qd", where), point


def _kinematics(model: Model, q, qd, point: str = "centroid", tally: Tally | None = None) -> Kin:
    t = tally or Tally()
    t.step = "kinematics"
    n = model.n
    out = Kin(*[[None] * n for _ in range(11)])
    for j, b in enumerate(model.bodies):
        i = b.parent
        qj, qdj = q[model.qslices[j]], qd[model.qslices[j]]
        Ai = _E if i < 0 else out.A[i]
        AiC = t.mm(Ai, b.C) if i >= 0 else b.C
        out.A[j] = t.mm(AiC, _joint_rotation(b.axes, qj))                 # K&Y eq. (9)
        t.add(27 * (len(b.axes) - 1))                                     # the products inside R_j(q)
        s_j = t.mm(Ai, b.s) if i >= 0 else b.s                            # K&Y eq. (11)
        out.r[j] = s_j if i < 0 else out.r[i] + s_j                       # K&Y eq. (13)-(14)
        rho = t.mm(out.A[j], b.rho)
        out.rc[j] = out.r[j] + rho                                        # K&Y eq. (14)
        Bl, Bdl = _Bw_local(b.axes, qj, qdj)
        t.add(36 * (len(b.axes) - 1) + 9 * len(b.axes))                   # the products inside Bw_local
        out.Bw[j] = t.mm(AiC, Bl)                                         # K&Y eq. (15)
        wij = t.mm(out.Bw[j], qdj)                                        # K&Y eq. (17)
        wi = np.zeros(3) if i < 0 else out.w[i]
        out.w[j] = wi + wij                                               # K&Y eq. (19)
        out.Bwd[j] = (t.cross(wi, wij) if i >= 0 else np.zeros(3)) + t.mm(AiC, Bdl)
        out.rd[j] = np.zeros(3) if i < 0 else out.rd[i] + t.cross(wi, s_j)    # K&Y eq. (20)-(21)
        out.rcd[j] = out.rd[j] + t.cross(out.w[j], rho)                   # K&Y eq. (21)
        if point == "centroid":
            out.p[j], out.pd[j] = out.rc[j], out.rcd[j]
            out.Y[j] = np.concatenate([out.rcd[j], out.w[j]])
        elif point == "joint":
            out.p[j], out.pd[j] = out.r[j], out.rd[j]
            out.Y[j] = np.concatenate([out.rd[j], out.w[j]])
        else:
            out.p[j], out.pd[j] = np.zeros(3), np.zeros(3)
            out.Y[j] = np.concatenate([out.rcd[j] - t.cross(out.w[j], out.rc[j]), out.w[j]])    # K&Y eq. (31)
    return out


# ----------------------------------------------------------------------------- mass matrix and force, K&Y eq. (3)-(8), (36)

def _external_forces(model: Model, q, qd, kin: Kin, t_time: float, tally: Tally):
    """Force F and moment tau about the centroid of every body (gravity, springs, tyre)."""
    F = [model.bodies[j].mass * model.gravity for j in range(model.n)]
    tau = [np.zeros(3) for _ in range(model.n)]

    def point(b, p_local):
        if b < 0:
            return p_local, np.zeros(3)
        x = kin.r[b] + kin.A[b] @ p_local
        v = kin.rd[b] + cross(kin.w[b], x - kin.r[b], check=False)
        return x, v

    for sd in model.springs:
        xa, va = point(sd.a, sd.pa)
        xb, vb = point(sd.b, sd.pb)
        d = xb - xa
        L = np.linalg.norm(d)
        if not L > 1e-12:
            raise ModelError(f"refpoint: the spring-damper between bodies {sd.a} and {sd.b} has length {L:.3g} "
                             "(its two points coincide): the direction of its force is undefined; move pa or pb")
        u = d / L
        tension = sd.k * (L - sd.L0) + sd.c * (u @ (vb - va))
        for body, x, sign in ((sd.a, xa, 1.0), (sd.b, xb, -1.0)):
            if body >= 0:
                f = sign * tension * u
                F[body] = F[body] + f
                tau[body] = tau[body] + cross(x - kin.rc[body], f, check=False)
    if model.tire_body >= 0 and model.tire_k > 0:
        zr = 0.0 if model.road is None else _check.user_call(model.road, (t_time,), "road(t)",
                                                            where="refpoint: the model's road height")
        if type(zr) is not float or not math.isfinite(zr):              # slow path: a clear error or a float
            zr = _check.scalar(zr, f"road({t_time:g})", where="refpoint: the model's road height")
        tb = model.tire_body
        if model.tire_point is None:                                  # at the centroid: no moment
            pen = model.tire_r - (kin.rc[tb][2] - zr)
            if pen > 0:
                F[tb] = F[tb] + np.array([0, 0, model.tire_k * pen])
        else:
            x = kin.r[tb] + kin.A[tb] @ model.tire_point
            pen = model.tire_r - (x[2] - zr)
            if pen > 0:
                f = np.array([0, 0, model.tire_k * pen])
                F[tb] = F[tb] + f
                tau[tb] = tau[tb] + cross(x - kin.rc[tb], f, check=False)
    return F, tau                   # applied forces are the same for every reference point: not counted


def _mass_and_force(model: Model, kin: Kin, F, tau, point: str, tally: Tally):
    """M^P_j and Q^P_j of every body: K&Y eq. (3) at the centroid, K&Y eq. (8) / (36) elsewhere."""
    tally.step = "mass matrix and force"
    Ms, Qs = [], []
    for j, b in enumerate(model.bodies):
        A = kin.A[j]
        J = tally.mm(tally.mm(A, b.J), A.T)                                # Tsai & Haug: A (C J C^T) A^T
        w = kin.w[j]
        Jw = tally.mm(J, w)
        Qc = np.concatenate([F[j], tau[j] - tally.cross(w, Jw)])           # K&Y eq. (3)
        m = b.mass
        if point == "centroid":
            M = np.zeros((6, 6))
            M[:3, :3] = m * _E
            M[3:, 3:] = J
            Ms.append(M)
            Qs.append(Qc)
            continue
        s = kin.p[j] - kin.rc[j]                                           # s^P, centroid -> P
        sd = kin.pd[j] - kin.rcd[j]
        ms = tally.scale(m, s)
        mS = skew(ms, check=False)
        M = np.zeros((6, 6))                                               # K&Y eq. (8), (36): T^T M^c T
        M[:3, :3] = m * _E
        M[:3, 3:] = mS
        M[3:, :3] = -mS
        # J - m [s]x[s]x = J - (m s s^T - m |s|^2 I): 6 products (symmetric) + 3 for m s . s
        outer = np.outer(ms, s)
        tally.add(6 + 3)
        M[3:, 3:] = J - outer + (ms @ s) * _E
        # Q^P = T^T (Q^c - M^c Tdot Y^P), Tdot Y^P = (sdot x omega, 0)
        top = Qc[:3] - tally.cross(tally.scale(m, sd), w)
        Q = np.concatenate([top, Qc[3:] - tally.cross(s, top)])            # T^T = [[I, 0], [S^T, I]]: S^T top = -s x top
        Ms.append(M)
        Qs.append(Q)
    return Ms, Qs


def equipollent(m, J, s, s_dot, omega, F, tau):
    """The equipollent mass matrix and force of one body at a point P, K&Y eq. (4)-(8).

    ``m`` the mass, ``J`` the central inertia (world components), ``s`` = s^P the vector from the
    centroid to P, ``s_dot`` its rate (omega x s for a body-fixed point; -rdot^c for the instant
    global origin), ``omega`` the angular velocity, ``F`` the resultant force and ``tau`` the moment
    about the centroid.  With T^P = [[I, [s]x], [0, I]] (K&Y eq. 4) returns

        M^P = T^T M^c T,   Q^P = T^T (Q^c - M^c Tdot Y^P),   Tdot Y^P = (s_dot x omega, 0)   (K&Y eq. 8),

    where M^c = diag(m I, J) and Q^c = (F, tau - omega x J omega) (K&Y eq. 3).  Ordering (v, omega).

    Examples
    --------
    >>> import numpy as np
    >>> M, Q = equipollent(2.0, np.diag([0.5, 0.5, 1.0]), [0, 0.5, 0], [-1.0, 0, 0], [0, 0, 2.0],
    ...                    [0, 0, -20.0], np.zeros(3))
    >>> np.diag(M)
    array([2. , 2. , 2. , 1. , 0.5, 1.5])
    >>> Q
    array([  0.,  -4., -20.,  10.,   0.,   0.])
    """
    where = "refpoint.equipollent"
    m = _check.scalar(m, "m", where=where, positive=True)
    J = _check.inertia(J, "J", where=where)
    s = _check.vector(s, 3, "s", where=where, hint="the vector from the centroid to the point P")
    s_dot = _check.vector(s_dot, 3, "s_dot", where=where, hint="the rate of s")
    omega = _check.vector(omega, 3, "omega", where=where, hint="the angular velocity, world components")
    F = _check.vector(F, 3, "F", where=where, hint="the resultant force")
    tau = _check.vector(tau, 3, "tau", where=where, hint="the moment about the centroid")
    T = shift(-s, check=False)                                             # K&Y eq. (4): T^P = [[I, [s]x], [0, I]]
    Mc = spatial_inertia(m, J, check=False)                                # K&Y eq. (3): diag(m I, J)
    Qc = np.concatenate([F, tau - cross(omega, J @ omega, check=False)])              # K&Y eq. (3)
    TdY = np.concatenate([cross(s_dot, omega, check=False), np.zeros(3)])             # Tdot Y^P
    return T.T @ Mc @ T, T.T @ (Qc - Mc @ TdY)                             # K&Y eq. (8)


def velocity_transformation(p_i, p_j, r_j, Bw):
    """B_j1 and B_j2 of K&Y eq. (24) at any reference point: Y_j = B_j1 Y_i + B_j2 qdot_j.

    ``p_i``, ``p_j`` the reference points of the lower body i and of body j, ``r_j`` the joint
    point, ``Bw`` the 3 x n matrix B_j^w (K&Y eq. 15) of a rotational joint, all world components.

        B_j1 = [[I, -[p_j - p_i]x], [0, I]],   B_j2 = [[-[p_j - r_j]x Bw], [Bw]]

    (K&Y eq. 25 at the centroid, K&Y eq. 33 at the instant global origin p = 0, where B_j1 = I).

    Examples
    --------
    >>> import numpy as np
    >>> B1, B2 = velocity_transformation(np.zeros(3), np.zeros(3), [1.0, 0, 0], np.eye(3)[:, 2:])
    >>> bool(np.allclose(B1, np.eye(6))), B2[:3, 0]
    (True, array([ 0., -1.,  0.]))
    """
    where = "refpoint.velocity_transformation"
    p_i = _check.vector(p_i, 3, "p_i", where=where, hint="the reference point of the lower body")
    p_j = _check.vector(p_j, 3, "p_j", where=where, hint="the reference point of body j")
    r_j = _check.vector(r_j, 3, "r_j", where=where, hint="the joint point")
    Bw = _check.matrix(Bw, (3, None), "Bw", where=where)
    if not 1 <= Bw.shape[1] <= 3:
        raise ModelError(f"{where}: Bw has {Bw.shape[1]} columns; a rotational joint has 1 to 3")
    B1 = shift(p_j - p_i, check=False)  # K&Y eq. (25), (33): [[I, -[p_j - p_i]x], [0, I]]
    B2 = np.vstack([-skew(p_j - r_j, check=False) @ Bw, Bw])
    return B1, B2


# ----------------------------------------------------------------------------- velocity transformations, K&Y eq. (24)-(27), (33)-(35)

class Transform(NamedTuple):
    """B_j1 as the vector d = p_j - p_i (None when B_j1 = I), B_j2 as (top or None, B^w), and D_j."""

    d: np.ndarray | None
    top: np.ndarray | None
    Bw: np.ndarray
    D: np.ndarray


def _transforms(model: Model, kin: Kin, qd, point: str, tally: Tally) -> list:
    tally.step = "velocity transformations"
    out = []
    for j, b in enumerate(model.bodies):
        i = b.parent
        qdj = qd[model.qslices[j]]
        Bw = kin.Bw[j]
        d = None if (point == "origin" or i < 0) else kin.p[j] - kin.p[i]
        lever = kin.p[j] - kin.r[j]
        top = None if point == "joint" else -tally.cross_cols(lever, Bw)   # -[p_j - r_j]x B^w
        # D_j = B_j1dot Y_i + B_j2dot qdot_j
        wij = Bw @ qdj                                                      # already formed in K&Y eq. (17)
        D_ang = kin.Bwd[j]
        D_lin = np.zeros(3)
        if point != "joint":
            ld = kin.pd[j] - kin.rd[j]
            D_lin = -tally.cross(ld, wij) - tally.cross(lever, D_ang)
        if i >= 0 and d is not None:
            dd = kin.pd[j] - kin.pd[i]
            D_lin = D_lin - tally.cross(dd, kin.w[i])
        out.append(Transform(d, top, Bw, np.concatenate([D_lin, D_ang])))
    return out


def _B1T(tally, d, X):
    """B_j1^T X for X of 6 rows: [X_top; [d]x X_top + X_bot] (B_j1 = [[I, -[d]x], [0, I]])."""
    if d is None:
        return X
    X = np.asarray(X)
    top = X[:3]
    return np.concatenate([top, X[3:] + tally.cross_cols(d, top.reshape(3, -1)).reshape(top.shape)])


def _XB1(tally, X, d):
    """X B_j1 for X with 6 columns: [X_left, X_right - X_left [d]x]."""
    if d is None:
        return X
    X = np.atleast_2d(X)
    left = X[:, :3]
    return np.hstack([left, X[:, 3:] + tally.cross_cols(d, left.T).T])      # -X_l [d]x = ([d]x X_l^T)^T


def _B1Y(tally, d, Y):
    """B_j1 Y = (v - d x omega, omega)."""
    if d is None:
        return Y
    return np.concatenate([Y[:3] - tally.cross(d, Y[3:]), Y[3:]])


def _B2T(tally, tr: Transform, X):
    """B_j2^T X = top^T X_top + Bw^T X_bot."""
    X = np.asarray(X)
    out = tally.mm(tr.Bw.T, X[3:])
    if tr.top is not None:
        out = out + tally.mm(tr.top.T, X[:3])
    return out


def _XB2(tally, X, tr: Transform):
    """X B_j2 = X_left top + X_right Bw."""
    X = np.atleast_2d(X)
    out = tally.mm(X[:, 3:], tr.Bw)
    if tr.top is not None:
        out = out + tally.mm(X[:, :3], tr.top)
    return out


def _B2q(tally, tr: Transform, qdd):
    """B_j2 qddot."""
    ang = tally.mm(tr.Bw, qdd)
    lin = np.zeros(3) if tr.top is None else tally.mm(tr.top, qdd)
    return np.concatenate([lin, ang])


# ----------------------------------------------------------------------------- constraints, K&Y eq. (37)-(38), Tables 1-4

def _point_state(model, kin, body, p_local):
    """World position x of a body point, its velocity, and the body's reference point and rate."""
    if body < 0:
        z = np.zeros(3)
        return p_local, z, z, z, z
    x = kin.r[body] + kin.A[body] @ p_local
    xd = kin.rd[body] + cross(kin.w[body], x - kin.r[body], check=False)
    return x, xd, kin.p[body], kin.pd[body], kin.w[body]


def constraint_rows(model: Model, kin: Kin, tally: Tally | None = None):
    """Phi_Z blocks (dict body -> m x 6, all cut constraints stacked) and gamma of K&Y eq. (37)-(38).

    For a body point x with reference point P the velocity is v_x = v_P - [x - P]x omega, so every
    basic constraint of Table 1 gets the lever x - P: with P the centroid these are Tables 1-2,
    with P the global origin Tables 3-4.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint
    >>> car = refpoint.quarter_car()
    >>> Phi, gamma = refpoint.constraint_rows(car, refpoint.kinematics(car, car.q0, np.zeros(10)))
    >>> sorted(Phi), gamma.shape
    ([2, 3, 4], (9,))
    """
    where = "refpoint.constraint_rows"
    _kin(model, kin, where)
    return _constraint_rows(model, kin, _tally(tally, where))


def _kin(model, kin, where: str) -> Kin:
    _model(model, where)
    _check.instance(kin, Kin, "kin", where=where, hint="compute it with refpoint.kinematics(model, q, qd, point)")
    if len(kin.A) != model.n:
        raise ModelError(f"{where}: kin has {len(kin.A)} bodies, the model {model.n}; compute kin with "
                         "refpoint.kinematics for this model")
    return kin


def _constraint_rows(model: Model, kin: Kin, tally: Tally | None = None):
    t = tally or Tally()
    t.step = "constraints"
    m = model.m
    Phi = {}
    gamma = np.zeros(m)
    row = 0

    def put(body, block, rows):
        if body < 0:
            return
        if body not in Phi:
            Phi[body] = np.zeros((m, 6))
        Phi[body][rows] += block

    for c in model.cuts:
        xa, xad, Pa, Pad, wa = _point_state(model, kin, c.a, c.pa)
        xb, xbd, Pb, Pbd, wb = _point_state(model, kin, c.b, c.pb)
        la, lb = xa - Pa, xb - Pb                          # levers x - P
        rows = slice(row, row + c.m)
        # terms omega x (xdot - Pdot) of the point accelerations that are not in Ydot
        ka = t.cross(wa, xad - Pad) if c.a >= 0 else np.zeros(3)
        kb = t.cross(wb, xbd - Pbd) if c.b >= 0 else np.zeros(3)
        if c.kind == "s":                                  # Phi^s: x_b - x_a = 0
            put(c.b, np.hstack([_E, -skew(lb, check=False)]), rows)
            put(c.a, -np.hstack([_E, -skew(la, check=False)]), rows)
            t.add(0)
            gamma[rows] = -(kb - ka)
        elif c.kind == "ss":                               # Phi^ss: |x_b - x_a|^2 - L^2 = 0
            d, dd = xb - xa, xbd - xad
            put(c.b, np.concatenate([2 * d, 2 * t.cross(lb, d)])[None, :], rows)
            put(c.a, np.concatenate([-2 * d, -2 * t.cross(la, d)])[None, :], rows)
            gamma[rows] = -(2 * dd @ dd + 2 * d @ (kb - ka))
            t.add(6)
        elif c.kind in ("d1", "d2"):
            Aa = _E if c.a < 0 else kin.A[c.a]
            ua = t.mm(Aa, c.ua) if c.a >= 0 else c.ua
            uad = t.cross(wa, ua) if c.a >= 0 else np.zeros(3)
            if c.kind == "d1":                             # Phi^d1: a_a . a_b = 0
                Ab = _E if c.b < 0 else kin.A[c.b]
                ub = t.mm(Ab, c.ub) if c.b >= 0 else c.ub
                ubd = t.cross(wb, ub) if c.b >= 0 else np.zeros(3)
                put(c.a, np.concatenate([np.zeros(3), t.cross(ua, ub)])[None, :], rows)
                put(c.b, np.concatenate([np.zeros(3), t.cross(ub, ua)])[None, :], rows)
                gamma[rows] = -(t.cross(wa, uad) @ ub + 2 * uad @ ubd + ua @ t.cross(wb, ubd))
                t.add(9)
            else:                                          # Phi^d2: a_a . (x_b - x_a) = 0
                d, dd = xb - xa, xbd - xad
                put(c.a, np.concatenate([-ua, t.cross(ua, d) - t.cross(la, ua)])[None, :], rows)
                put(c.b, np.concatenate([ua, t.cross(lb, ua)])[None, :], rows)
                gamma[rows] = -(t.cross(wa, uad) @ d + 2 * uad @ dd + ua @ (kb - ka))
                t.add(9)
        else:
            raise ModelError(f"cut joint {c.name!r}: kind {c.kind!r}; use 's', 'ss', 'd1' or 'd2'")
        row += c.m
    return Phi, gamma


def _closure(model: Model, kin: Kin) -> np.ndarray:
    """Closure residual from already computed kinematics."""
    out = []
    for c in model.cuts:
        xa = _point_state(model, kin, c.a, c.pa)[0]
        xb = _point_state(model, kin, c.b, c.pb)[0]
        Aa = _E if c.a < 0 else kin.A[c.a]
        Ab = _E if c.b < 0 else kin.A[c.b]
        if c.kind == "s":
            out += list(xb - xa)
        elif c.kind == "ss":
            out.append((xb - xa) @ (xb - xa) - c.length ** 2)
        elif c.kind == "d1":
            out.append((Aa @ c.ua) @ (Ab @ c.ub))
        else:
            out.append((Aa @ c.ua) @ (xb - xa))
    return np.array(out)


def closure_residual(model: Model, q) -> np.ndarray:
    """Position-level violation of every cut constraint (zero when the loops close).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint
    >>> car = refpoint.quarter_car()
    >>> float(np.abs(refpoint.closure_residual(car, car.q0)).max()) < 1e-12
    True
    """
    where = "refpoint.closure_residual"
    q = _q(_model(model, where), q, "q", where)
    return _closure(model, _kinematics(model, q, np.zeros(model.nq)))


def _cut_of_row(model: Model, row: int):
    """The cut joint that owns constraint row ``row`` and its index."""
    k = 0
    for i, c in enumerate(model.cuts):
        if row < k + c.m:
            return i, c
        k += c.m
    raise IndexError(row)                                        # not reached


def _cut_name(i: int, c: CutJoint) -> str:
    return f"cut joint {i} {c.name!r} ({c.kind})" if c.name else f"cut joint {i} ({c.kind})"


def _consistency(model: Model, kin: Kin, qd, where: str) -> None:
    """Refuse a state whose loops are open (residual > :data:`POSITION_TOL`) or whose velocities violate
    the cut joints (rate > :data:`VELOCITY_TOL` (1 + max |qd|)); O(m) from kinematics already computed."""
    if not model.m:
        return
    res = _closure(model, kin)
    r = int(np.argmax(np.abs(res)))
    if abs(res[r]) > POSITION_TOL:
        i, c = _cut_of_row(model, r)
        raise ConstraintViolationError(
            f"{where}: q does not close the loop of {_cut_name(i, c)}: closure residual {abs(res[r]):.3g} "
            f"(tolerance {POSITION_TOL:g}, all cuts: max {np.abs(res).max():.3g}); start from an assembled "
            "configuration (model.q0 of refpoint.quarter_car(), or refpoint.assemble(model, q, fixed=[...])), "
            "or pass check=False to skip this check")
    vel = _constraint_velocity(model, kin)
    tol = VELOCITY_TOL * (1 + float(np.abs(qd).max()))
    r = int(np.argmax(np.abs(vel)))
    if abs(vel[r]) > tol:
        i, c = _cut_of_row(model, r)
        raise ConstraintViolationError(
            f"{where}: qd violates the velocity constraint of {_cut_name(i, c)}: rate of the closure residual "
            f"{abs(vel[r]):.3g} (tolerance {tol:.3g}); project qd with refpoint.consistent_velocity(model, q, qd), "
            "or pass check=False to skip this check")


# ----------------------------------------------------------------------------- the recursion, K&Y eq. (28)-(30), (39)-(43)

class Solution(NamedTuple):
    """q-ddot, multipliers lam, accelerations Ydot_j at the reference point, the tally, and M_art.

    ``M_art[j]`` is body j's M_j once K&Y eq. (29) has folded in its whole subtree: the articulated-body
    inertia of the subtree (tree joints only; cut joints act through lam), 6x6 at body j's
    reference point, for Y_j = (velocity of the point, omega_j) in world components.
    """

    qdd: np.ndarray
    lam: np.ndarray
    Yd: list
    tally: Tally
    M_art: list

    def __repr__(self) -> str:
        """One line: the sizes of qddot (K&Y eq. 43) and lam (K&Y eq. 42), the bodies of Ydot and M_art, and the
        multiplications the tally counted.

        Examples
        --------
        >>> import numpy as np
        >>> car = quarter_car()
        >>> solve(car, car.q0, np.zeros(10), "origin")
        Solution: qdd (10,), lam (9,), Ydot and M_art of 5 bodies; 5874 multiplications
        """
        return (f"Solution: qdd {np.shape(self.qdd)}, lam {np.shape(self.lam)}, Ydot and M_art of "
                f"{len(self.Yd)} bodies; {self.tally.total} multiplications")


def solve(model: Model, q, qd, point: str = "centroid", t: float = 0.0, *, baumgarte=None,
          check: bool = True) -> Solution:
    """One evaluation of the fully recursive formulation at the chosen reference point.

    Step 1 (leaves to chassis) forms M_j1,1, M_j21, M_j22, Q_j1, Q_j2 (K&Y eq. 28), updates the lower body
    (K&Y eq. 29) and the constraint Jacobians (K&Y eq. 39-40) and sums Phi_lambda, gamma-bar (K&Y eq. 41); then
    Phi_lambda lam = gamma-bar (K&Y eq. 42); step 2 (chassis to leaves) gives qddot (K&Y eq. 43) and Ydot (K&Y eq. 30).

    With ``check`` (the default) the state must close every loop: a closure residual above
    :data:`POSITION_TOL` or a residual rate above :data:`VELOCITY_TOL` (1 + max |qd|) raises
    :class:`~rfda_teach.errors.ConstraintViolationError` naming the cut joint.  The check reuses the
    kinematics of the evaluation (O(m)); ``check=False`` skips it (integrators' right-hand sides).
    ``baumgarte`` = (alpha, beta) >= 0 adds -2 alpha Phidot - beta^2 Phi to gamma (see :func:`simulate`).

    Examples
    --------
    >>> import numpy as np
    >>> car = quarter_car()
    >>> s = solve(car, car.q0, np.zeros(10), "joint")
    >>> s.qdd.shape, s.lam.shape, len(s.Yd), s.M_art[0].shape
    ((10,), (9,), 5, (6, 6))
    """
    where = "refpoint.solve"
    q, qd, point = _inputs(model, q, qd, point, where)
    t = _check.time(t, "t", where=where)
    if baumgarte is not None:
        if np.ndim(baumgarte) != 1 or len(baumgarte) != 2 or isinstance(baumgarte, str):
            raise ModelError(f"{where}: baumgarte must be a pair (alpha, beta) in 1/s, got {baumgarte!r}")
        baumgarte = tuple(_check.scalar(v, k, where=where, nonneg=True) for v, k in zip(baumgarte, ("alpha", "beta")))
    check = _check.flag(check, "check", where=where)
    return _solve(model, q, qd, point, t, baumgarte=baumgarte, check_where=where if check else None)


def _solve(model: Model, q, qd, point: str, t: float, *, baumgarte=None, check_where=None) -> Solution:
    """:func:`solve` on checked inputs; ``check_where`` (the caller's name) turns on the consistency check."""
    tally = Tally()
    kin = _kinematics(model, q, qd, point, tally)
    if check_where is not None:
        _consistency(model, kin, qd, check_where)
    F, tau = _external_forces(model, q, qd, kin, t, tally)
    M, Q = _mass_and_force(model, kin, F, tau, point, tally)
    tr = _transforms(model, kin, qd, point, tally)
    Phi, gamma = _constraint_rows(model, kin, tally)
    if baumgarte is not None:                                # gamma - 2 alpha Phidot - beta^2 Phi (see simulate)
        alpha, beta = baumgarte
        gamma = gamma - 2 * alpha * _constraint_velocity(model, kin) - beta ** 2 * _closure(model, kin)
    n, m = model.n, model.m
    Phi = {j: Phi.get(j, np.zeros((m, 6))) for j in range(n)} if m else {}
    order = list(reversed(range(n)))                        # bodies are numbered outward
    tally.step = "recursion (step 1)"
    fac, M21s, Q2s, P2s = [None] * n, [None] * n, [None] * n, [None] * n
    Phi_lam = np.zeros((m, m))
    gbar = gamma.copy()
    for j in order:
        b, T = model.bodies[j], tr[j]
        MD = tally.mm(M[j], T.D)
        QmMD = Q[j] - MD                                                   # Q_j - M_j D_j
        MB2 = _XB2(tally, M[j], T)                                         # M_j B_j2
        M22 = _B2T(tally, T, MB2)                                          # K&Y eq. (28)
        Q2 = _B2T(tally, T, QmMD)
        fac[j] = tally.chol(M22)
        Q2s[j] = Q2
        i = b.parent
        if i >= 0:
            M21 = _XB1(tally, MB2.T, T.d)                                  # B_j2^T M_j B_j1
            M21s[j] = M21
            M11 = _B1T(tally, T.d, _XB1(tally, M[j], T.d))                 # B_j1^T M_j B_j1
            Q1 = _B1T(tally, T.d, QmMD)
            X = tally.solve(fac[j], M21)                                   # M22^-1 M21
            M[i] = M[i] + M11 - tally.mm(M21.T, X)                         # K&Y eq. (29)
            Q[i] = Q[i] + Q1 - tally.mm(X.T, Q2)
        if m:
            P2 = _XB2(tally, Phi[j], T)                                    # K&Y eq. (39)
            P2s[j] = P2
            Y = tally.solve(fac[j], P2.T)
            Phi_lam += tally.mm(P2, Y)                                     # K&Y eq. (41)
            gbar -= tally.mm(P2, tally.solve(fac[j], Q2)) + tally.mm(Phi[j], T.D)
            if i >= 0:
                P1 = _XB1(tally, Phi[j], T.d)
                Phi[i] = Phi[i] + P1 - tally.mm(P2, tally.solve(fac[j], M21s[j]))   # K&Y eq. (40)
    M_art = [Mj.copy() for Mj in M]                        # every subtree folded in (K&Y eq. 29)
    tally.step = "multipliers"
    if m:
        lam = tally.solve(tally.chol(Phi_lam), gbar)                       # K&Y eq. (42)
    else:
        lam = np.zeros(0)
    tally.step = "recursion (step 2)"
    qdd = np.zeros(model.nq)
    Yd = [None] * n
    for j in range(n):
        b, T = model.bodies[j], tr[j]
        i = b.parent
        rhs = Q2s[j].copy()
        Yi = np.zeros(6) if i < 0 else Yd[i]
        if i >= 0:
            rhs = rhs - tally.mm(M21s[j], Yi)
        if m:
            rhs = rhs + tally.mm(P2s[j].T, lam)
        qddj = tally.solve(fac[j], rhs)                                    # K&Y eq. (43)
        qdd[model.qslices[j]] = qddj
        Yd[j] = _B1Y(tally, T.d, Yi) + _B2q(tally, T, qddj) + T.D          # K&Y eq. (30)
    return Solution(qdd, lam, Yd, tally, M_art)


def forward_dynamics(model: Model, q, qd, point: str = "centroid", t: float = 0.0, *,
                     alpha: float = 0.0, beta: float = 0.0, check: bool = True) -> np.ndarray:
    """q-ddot of the quarter car (or any :class:`Model`) with the analysis reference point ``point``.

    The state must close every loop (``check``, see :func:`solve`): an unassembled ``q`` or a ``qd``
    that violates a cut joint raises :class:`~rfda_teach.errors.ConstraintViolationError`.  With
    ``alpha`` or ``beta`` (1/s) the loop rows' gamma gets the Baumgarte terms
    -2 alpha Phidot - beta^2 Phi, the right-hand side :func:`simulate` integrates; then set
    ``check=False`` for a state off the constraints.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint
    >>> car = refpoint.quarter_car()
    >>> refpoint.forward_dynamics(car, car.q0, np.zeros(10), "origin").shape
    (10,)
    >>> a = refpoint.forward_dynamics(car, car.q0, np.zeros(10), "origin", alpha=20.0, beta=20.0)
    >>> bool(np.allclose(a, refpoint.forward_dynamics(car, car.q0, np.zeros(10), "origin")))
    True
    """
    where = "refpoint.forward_dynamics"
    q, qd, point = _inputs(model, q, qd, point, where)
    t = _check.time(t, "t", where=where)
    alpha = _check.scalar(alpha, "alpha", where=where, nonneg=True)
    beta = _check.scalar(beta, "beta", where=where, nonneg=True)
    check = _check.flag(check, "check", where=where)
    baumgarte = (alpha, beta) if alpha or beta else None
    return _solve(model, q, qd, point, t, baumgarte=baumgarte, check_where=where if check else None).qdd


def count_multiplications(model: Model, point: str, *, q=None, qd=None, by_step: bool = False):
    """Scalar multiplications of one evaluation at ``point``, counted while it runs (not typed in).

    With ``by_step`` a dict step -> count is returned.  ``q`` (default ``model.q0``) and ``qd`` (default
    zero) need not close the loops: the count does not depend on the values, only on the model.

    Examples
    --------
    >>> from rfda_teach import refpoint
    >>> car = refpoint.quarter_car()
    >>> c = {p: refpoint.count_multiplications(car, p) for p in refpoint.POINTS}
    >>> c["origin"] < c["centroid"] and c["joint"] < c["centroid"]
    True
    """
    where = "refpoint.count_multiplications"
    _model(model, where)
    q, qd, point = _inputs(model, model.q0 if q is None else q, np.zeros(model.nq) if qd is None else qd,
                           point, where)
    by_step = _check.flag(by_step, "by_step", where=where)
    tal = _solve(model, q, qd, point, 0.0).tally
    return dict(tal.counts) if by_step else tal.total


# ----------------------------------------------------------------------------- assembly, simulation

def closure_jacobian(model: Model, q):
    """d(closure residual)/dq, column by column from the constraint velocity of a unit joint rate.

    Examples
    --------
    >>> import numpy as np
    >>> car = quarter_car()
    >>> int(np.linalg.matrix_rank(closure_jacobian(car, car.q0)))          # 10 coordinates, 1 DOF
    9
    """
    where = "refpoint.closure_jacobian"
    return _closure_jacobian(model, _q(_model(model, where), q, "q", where))


def _closure_jacobian(model: Model, q) -> np.ndarray:
    cols = []
    for k in range(model.nq):
        e = np.zeros(model.nq)
        e[k] = 1.0
        kin = _kinematics(model, q, e)
        cols.append(_constraint_velocity(model, kin))
    return np.array(cols).reshape(model.nq, model.m).T


def _constraint_velocity(model: Model, kin: Kin) -> np.ndarray:
    """Time derivative of the closure residual for the velocities in kin."""
    out = []
    for c in model.cuts:
        xa, xad, _, _, wa = _point_state(model, kin, c.a, c.pa)
        xb, xbd, _, _, wb = _point_state(model, kin, c.b, c.pb)
        Aa = _E if c.a < 0 else kin.A[c.a]
        Ab = _E if c.b < 0 else kin.A[c.b]
        if c.kind == "s":
            out += list(xbd - xad)
        elif c.kind == "ss":
            out.append(2 * (xb - xa) @ (xbd - xad))
        elif c.kind == "d1":
            ua, ub = Aa @ c.ua, Ab @ c.ub
            out.append(cross(wa, ua, check=False) @ ub + ua @ cross(wb, ub, check=False))
        else:
            ua = Aa @ c.ua
            out.append(cross(wa, ua, check=False) @ (xb - xa) + ua @ (xbd - xad))
    return np.array(out)


def assemble(model: Model, q_guess, *, fixed=(), tol: float = 1e-13, max_iter: int = 50) -> np.ndarray:
    """Newton iterations on the closure residual with the coordinates in ``fixed`` held.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint
    >>> car = refpoint.quarter_car()
    >>> q = car.q0.copy(); q[0] = 0.1                      # raise the lower arm
    >>> q = refpoint.assemble(car, q, fixed=[0])
    >>> float(np.abs(refpoint.closure_residual(car, q)).max()) < 1e-12
    True
    """
    where = "refpoint.assemble"
    q = _q(_model(model, where), q_guess, "q_guess", where).copy()
    if fixed is None or isinstance(fixed, (str, bytes, dict)) or not hasattr(fixed, "__iter__"):
        raise ModelError(f"{where}: fixed must be a list of coordinate indices 0..{model.nq - 1}, got {fixed!r}")
    held = set()
    for k in fixed:
        k = _check.positive_int(k, "fixed entry", where=where, minimum=0)
        if k >= model.nq:
            raise ModelError(f"{where}: fixed contains {k}; give coordinate indices 0..{model.nq - 1}")
        held.add(k)
    tol = _check.scalar(tol, "tol", where=where, positive=True)
    max_iter = _check.positive_int(max_iter, "max_iter", where=where)
    free = np.array([k for k in range(model.nq) if k not in held], dtype=int)
    if model.m and free.size == 0:
        raise ModelError(f"{where}: fixed holds every coordinate; leave some free for the loops to close")
    for _ in range(max_iter):
        r = _closure(model, _kinematics(model, q, np.zeros(model.nq)))
        if r.size == 0 or np.abs(r).max() < tol:
            return q
        Jc = _closure_jacobian(model, q)[:, free]
        q[free] -= np.linalg.lstsq(Jc, r, rcond=None)[0]
        if not np.all(np.isfinite(q)):
            break
    r = _closure(model, _kinematics(model, q, np.zeros(model.nq))) if np.all(np.isfinite(q)) else np.array([np.inf])
    raise ConstraintViolationError(f"{where}: assembly did not converge in {max_iter} iterations (closure "
                                   f"residual {np.abs(r).max():.1e} > tol {tol:g}); start closer to an assembled "
                                   "configuration (e.g. model.q0) or hold fewer coordinates")


def consistent_velocity(model: Model, q, qd_guess) -> np.ndarray:
    """The velocity closest to ``qd_guess`` that satisfies every cut constraint (projection on null(Phi_q)).

    Examples
    --------
    >>> import numpy as np
    >>> car = quarter_car()
    >>> qd = consistent_velocity(car, car.q0, np.ones(10))
    >>> bool(np.allclose(closure_jacobian(car, car.q0) @ qd, 0))
    True
    """
    where = "refpoint.consistent_velocity"
    q = _q(_model(model, where), q, "q", where)
    qd = _q(model, qd_guess, "qd_guess", where)
    if not model.m:
        return qd.copy()
    Jc = _closure_jacobian(model, q)
    return qd - np.linalg.pinv(Jc) @ (Jc @ qd)


def road_bump(height: float = 0.05, start: float = 0.2, duration: float = 0.15):
    """A cosine road bump z(t) = h (1 - cos(2 pi (t - start)/duration)) / 2 during [start, start + duration].

    Examples
    --------
    >>> z = road_bump(height=0.05, start=0.2, duration=0.1)
    >>> z(0.0), round(float(z(0.25)), 3), z(1.0)
    (0.0, 0.05, 0.0)
    """
    where = "refpoint.road_bump"
    height = _check.scalar(height, "height", where=where)
    start = _check.scalar(start, "start", where=where)
    duration = _check.scalar(duration, "duration", where=where, positive=True)

    def z(t):
        if type(t) is not float or not math.isfinite(t):
            t = _check.time(t, "t", where="road_bump(t)")
        if start <= t <= start + duration:
            return float(height * 0.5 * (1 - np.cos(2 * np.pi * (t - start) / duration)))
        return 0.0
    return z


class Trajectory(Motion):
    """Times, joint coordinates and rates (rows): :class:`rfda_teach.simulate.Motion`, printed as

    >>> import numpy as np
    >>> car = quarter_car()
    >>> simulate(car, car.q0, np.zeros(10), 0.01, t_eval=[0.0, 0.005, 0.01])
    Trajectory: 3 samples, t = 0 … 0.01 s, q (3, 10), qd (3, 10)
    """

    __slots__ = ()


def simulate(model: Model, q0, qd0, t_final: float, point: str = "origin", *, alpha: float = 20.0,
             beta: float = 20.0, t_eval=None, rtol: float = 1e-9, atol: float = 1e-10,
             check: bool = True) -> Trajectory:
    """Integrate over [0, t_final] with solve_ivp; the loop closure is held by Baumgarte stabilisation,
    gamma <- gamma - 2 alpha Phidot - beta^2 Phi (alpha, beta in 1/s).

    ``t_final`` must be finite and > 0, ``t_eval`` (optional) increasing times in [0, t_final].
    With ``check`` (the default) the initial state must close every loop (see :func:`solve`): start
    from ``model.q0`` or :func:`assemble`, and :func:`consistent_velocity`.  The right-hand side skips
    the check (Baumgarte holds the loops closed during the integration).

    Examples
    --------
    >>> import numpy as np
    >>> car = quarter_car()
    >>> tr = simulate(car, car.q0, np.zeros(10), 0.01, t_eval=[0.0, 0.01])
    >>> tr.q.shape
    (2, 10)
    """
    where = "refpoint.simulate"
    q0, qd0, point = _inputs(model, q0, qd0, point, where)
    q0, qd0 = np.array(q0), np.array(qd0)
    options = span(t_final, t_eval=t_eval, rtol=rtol, atol=atol, where=where)
    alpha = _check.scalar(alpha, "alpha", where=where, nonneg=True)
    beta = _check.scalar(beta, "beta", where=where, nonneg=True)
    check = _check.flag(check, "check", where=where)
    if check:
        _consistency(model, _kinematics(model, q0, qd0), qd0, where)
    nq = model.nq

    def rhs(t, z):
        q, qd = z[:nq], z[nq:]
        return np.concatenate([qd, _solve(model, q, qd, point, t, baumgarte=(alpha, beta)).qdd])

    run = integrate(rhs, np.concatenate([q0, qd0]), options, where=where)
    return Trajectory(run.t, run.x[:, :nq], run.x[:, nq:])


# ----------------------------------------------------------------------------- the quarter car

#: Hardpoints of the chassis-fixed quarter car chosen here (metres; x forward, y outward, z up;
#: the left front corner of a mid-size car, wheel radius 0.30 m).
HARDPOINTS = {
    "lower arm front pivot": (0.15, 0.30, 0.20),
    "lower arm rear pivot": (-0.20, 0.30, 0.20),
    "lower ball joint": (0.00, 0.72, 0.16),
    "upper front link, chassis": (0.12, 0.42, 0.52),
    "upper front link, knuckle": (0.03, 0.66, 0.50),
    "upper rear link, chassis": (-0.18, 0.42, 0.52),
    "upper rear link, knuckle": (-0.03, 0.66, 0.50),
    "tie rod, chassis": (-0.14, 0.35, 0.26),
    "tie rod, knuckle": (-0.13, 0.70, 0.24),
    "wheel centre": (0.00, 0.75, 0.30),
    "spring, lower arm": (0.00, 0.55, 0.18),
    "spring, chassis": (0.00, 0.50, 0.65),
}


def quarter_car_system(*, road=None):
    """The chassis-fixed quarter car of Fig. 3 as the one model: a spatial
    :class:`~rfda_teach.system.System` with the hardpoints of :data:`HARDPOINTS`, cut joints, a
    spring-damper, a tyre and gravity.

    Six bodies including the fixed chassis.  Spanning tree (10 joint coordinates): the lower A-arm
    turns on a revolute joint about its pivot axis (1); the knuckle with the wheel sits on the lower
    ball joint, spherical (3); the upper front link, the upper rear link and the tie rod hang from the
    knuckle on universal joints (2 each).  The three link ends at the chassis are cut spherical joints
    (:class:`~rfda_teach.system.Cut`, m = 9), leaving 10 - 9 = 1 degree of freedom, the wheel travel.
    A :class:`~rfda_teach.forces.SpringDamper` (30 kN/m, 2.5 kN s/m, preloaded by 30 mm) acts between
    the lower arm and the chassis, a :class:`~rfda_teach.forces.Tyre` (200 kN/m, radius 0.30 m) between
    the wheel centre and the road ``road(t)`` (default flat), and gravity.  Every joint at q = 0 is the
    design position, where every loop closes exactly.  Each body's axes are those of Kang & Yoon's
    frame {O_j} (its child joint frame is the identity), so :func:`from_system` gives back the record
    of :func:`quarter_car`.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import dae, models
    >>> car = quarter_car_system()
    >>> car.n, car.n_dof, car.n_cut_constraints
    (5, 10, 9)
    >>> st = models.state_from_joints(car, [np.zeros(1), np.array([1.0, 0, 0, 0])] + [np.zeros(2)] * 3,
    ...                               [np.zeros(1), np.zeros(3)] + [np.zeros(2)] * 3)
    >>> dae.forward_dynamics(car, st).ydd.shape
    (30,)
    """
    from .bodies import Body
    from .forces import SpringDamper as Element, Tyre
    from .joints import Joint
    from .system import Cut, System
    _road(road, "refpoint.quarter_car_system")
    H = {k: np.array(v, float) for k, v in HARDPOINTS.items()}
    axis = H["lower arm front pivot"] - H["lower arm rear pivot"]
    C_lca = frame_with_z(axis)                             # revolute about the pivot axis (local z)
    o_lca = H["lower arm front pivot"]
    ball = H["lower ball joint"]
    lca_c = (H["lower arm front pivot"] + H["lower arm rear pivot"] + ball) / 3
    rho_lca = C_lca.T @ (lca_c - o_lca)                    # the centroids from the joint points, {O_j} axes
    rho_kn = H["wheel centre"] - ball
    bodies = [Body("spatial", 3.0, np.diag([0.05, 0.08, 0.12]), name="lower arm"),
              Body("spatial", 20.0, np.diag([0.9, 1.4, 0.9]), name="knuckle and wheel")]
    joints = [Joint("revolute", parent_point=o_lca, child_point=-rho_lca, parent_frame=C_lca, name="lower arm pivot"),
              Joint("spherical", parent_point=C_lca.T @ (ball - o_lca) - rho_lca, child_point=-rho_kn,
                    parent_frame=C_lca.T, name="lower ball joint")]
    cuts = []
    for name, k_end, c_end, mass in (("upper front link", "upper front link, knuckle", "upper front link, chassis", 0.6),
                                     ("upper rear link", "upper rear link, knuckle", "upper rear link, chassis", 0.6),
                                     ("tie rod", "tie rod, knuckle", "tie rod, chassis", 0.5)):
        u = H[c_end] - H[k_end]                            # from the knuckle end to the chassis end
        C = frame_with_z(u)                                # knuckle axes = world axes at q = 0
        L = np.linalg.norm(u)
        Jl = mass * L * L / 12
        half = np.array([0, 0, L / 2])
        j = len(bodies)
        bodies.append(Body("spatial", mass, np.diag([Jl, Jl, 1e-4]), name=name))
        joints.append(Joint("universal", parent_point=(H[k_end] - ball) - rho_kn, child_point=-half, parent_frame=C,
                            name=f"{name} at the knuckle"))
        cuts.append(Cut(-1, j, Joint("spherical", parent_point=H[c_end], child_point=np.array([0, 0, L]) - half),
                        name=f"{name} at the chassis"))
    spring = Element(0, -1, point_a=C_lca.T @ (H["spring, lower arm"] - o_lca) - rho_lca,
                     point_b=H["spring, chassis"], k=30e3, c=2.5e3,
                     L0=np.linalg.norm(H["spring, chassis"] - H["spring, lower arm"]) + 0.03, name="suspension spring")
    tyre = Tyre(1, k=200e3, radius=0.30, road=road, name="tyre")
    return System(tuple([-1, 0] + [1] * 3), tuple(bodies), tuple(joints), np.array([0, 0, -G0]),
                  name="chassis-fixed quarter car", cuts=tuple(cuts), forces=(spring, tyre))


def quarter_car(*, road=None) -> Model:
    """The chassis-fixed quarter car of Fig. 3 in Kang & Yoon's record: :func:`from_system` of
    :func:`quarter_car_system` (the one model, reachable as ``.mechanism``).

    Five moving bodies on the chassis, 10 joint coordinates (revolute "z", spherical "xyz", three
    universal "xy"), three cut spherical joints "s" (m = 9), the suspension spring-damper, the tyre on
    the knuckle against ``road(t)`` (default flat) and gravity; ``q0`` = 0 is the design position,
    where every loop closes exactly.

    Examples
    --------
    >>> car = quarter_car()
    >>> car.n, car.nq, car.m
    (5, 10, 9)
    """
    _road(road, "refpoint.quarter_car")
    return from_system(quarter_car_system(road=road))


def tree_joint_constraints(model: Model) -> tuple:
    """The spanning-tree joints written as basic constraints (Haug 1989): a spherical joint is
    Phi^s; a universal joint "xy" adds Phi^d1 between the first axis (on the parent) and the second
    (on the child); a revolute joint "z" adds two Phi^d1 (x and y of the joint frame against z).

    Examples
    --------
    >>> [c.kind for c in tree_joint_constraints(quarter_car())][:5]
    ['s', 'd1', 'd1', 's', 's']
    """
    _model(model, "refpoint.tree_joint_constraints")
    out = []
    for j, b in enumerate(model.bodies):
        i = b.parent
        out.append(CutJoint("s", i, j, pa=b.s, pb=np.zeros(3), name=f"{b.name}: point"))
        if b.axes == "z":
            out += [CutJoint("d1", i, j, ua=b.C[:, 0], ub=_E[2], name=f"{b.name}: axis x"),
                    CutJoint("d1", i, j, ua=b.C[:, 1], ub=_E[2], name=f"{b.name}: axis y")]
        elif b.axes == "xy":
            out.append(CutJoint("d1", i, j, ua=b.C[:, 0], ub=_E[1], name=f"{b.name}: cross"))
        elif b.axes != "xyz":
            raise ModelError(f"body {b.name!r}: joint axes {b.axes!r} have no basic-constraint form here")
    return tuple(out)


def absolute_constraints(model: Model, q, qd):
    """(C, gamma) of every joint, tree and cut, in the foundation's absolute coordinates
    (ydot_j = (centroid velocity, omega_j), body order), for ``dae.forward_dynamics(..., extra=...)``.

    Examples
    --------
    >>> import numpy as np
    >>> car = quarter_car()
    >>> C, gamma = absolute_constraints(car, car.q0, np.zeros(10))
    >>> C.shape, gamma.shape
    ((29, 30), (29,))
    """
    q, qd, _ = _inputs(model, q, qd, "centroid", "refpoint.absolute_constraints")
    full = Model(model.bodies, tree_joint_constraints(model) + model.cuts, model.springs, model.gravity, model.q0,
                 model.tire_body, model.tire_k, model.tire_r, model.road, model.name, model.tire_point)
    kin = _kinematics(full, q, qd, "centroid")
    Phi, gamma = _constraint_rows(full, kin)
    C = np.zeros((full.m, 6 * model.n))
    for j, B in Phi.items():
        C[:, 6 * j:6 * j + 6] = B
    return C, gamma


def applied_forces(model: Model, q, qd, t: float = 0.0) -> np.ndarray:
    """Springs and tyre as generalized forces in absolute coordinates (gravity excluded).

    Examples
    --------
    >>> import numpy as np
    >>> car = quarter_car()
    >>> applied_forces(car, car.q0, np.zeros(10)).shape
    (30,)
    """
    where = "refpoint.applied_forces"
    q, qd, _ = _inputs(model, q, qd, "centroid", where)
    t = _check.time(t, "t", where=where)
    kin = _kinematics(model, q, qd)
    F, tau = _external_forces(model, q, qd, kin, t, Tally())
    return np.concatenate([np.concatenate([F[j] - model.bodies[j].mass * model.gravity, tau[j]])
                           for j in range(model.n)])


def to_absolute(model: Model, q, qd):
    """The same model in the foundation's absolute coordinates: every body free, every joint (tree
    and cut) as extra constraint rows of D&G eq. (7) built from the basic constraints at the centroid.

    Returns (system, state); :func:`absolute_constraints` and :func:`applied_forces` give the
    rows and forces to pass to :func:`rfda_teach.dae.forward_dynamics`.  A record built by
    :func:`from_system` has the one model itself: ``dae.forward_dynamics(model.mechanism,
    system_state(model, q, qd), t)`` solves the same mechanism with its cut joints and force elements.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint, dae
    >>> car = refpoint.quarter_car()
    >>> system, state = refpoint.to_absolute(car, car.q0, np.zeros(10))
    >>> res = dae.forward_dynamics(system, state, extra=refpoint.absolute_constraints(car, car.q0, np.zeros(10)),
    ...                            f_ext=refpoint.applied_forces(car, car.q0, np.zeros(10)))
    >>> res.lam.shape                      # 20 rows for the tree joints, 9 for the cut joints
    (29,)
    """
    from .bodies import Body, matrix_to_euler_params
    from .joints import Joint
    from .system import State, System
    q, qd, _ = _inputs(model, q, qd, "centroid", "refpoint.to_absolute")
    kin = _kinematics(model, q, qd)
    bodies = tuple(Body("spatial", b.mass, b.J, name=b.name) for b in model.bodies)   # J in {O_j} axes
    system = System(tuple([-1] + [0] * (model.n - 1)), bodies, tuple(Joint("free") for _ in model.bodies),
                    model.gravity, name=model.name + " (absolute coordinates)")
    y = np.concatenate([np.concatenate([kin.rc[j], matrix_to_euler_params(kin.A[j])]) for j in range(model.n)])
    yd = np.concatenate([np.concatenate([kin.rcd[j], kin.w[j]]) for j in range(model.n)])
    return system, State(y, yd)


# ----------------------------------------------------------------------------- a view of the one model

#: System joint type -> the rotation axes of K&Y eq. (9) (Bryant angles about the joint frame's axes)
SYSTEM_JOINTS = {"revolute": "z", "universal": "xy", "spherical": "xyz"}


def _require_spatial(system, where: str):
    from .system import System
    system = _check.instance(system, System, "system", where=where,
                             hint="build one with rfda_teach.system.System or rfda_teach.models")
    if system.kind != "spatial":
        raise ModelError(f"{where}: system {system.name!r} has {system.kind} bodies; Kang & Yoon's joints are "
                         "spatial rotations about a joint point (RBody axes 'z', 'xy', 'xyz'), so build the "
                         "mechanism as a spatial System (a planar revolute pair becomes a spatial 'revolute' "
                         "joint about z with every body's z motion locked by the other revolute axes parallel "
                         "to z), or use dae.forward_dynamics / rfda.forward_dynamics for the planar system")
    return system


def _joint_axes_frame(joint) -> np.ndarray:
    """F: Kang & Yoon's joint axes in the System's joint-frame components (columns a1, a2, a1 x a2 of a
    universal joint, so that Rot(a1, q1) Rot(a2, q2) = F R_x(q1) R_y(q2) F^T; the identity otherwise)."""
    if joint.type == "universal":
        a1, a2 = joint.axes
        return np.column_stack([a1, a2, np.cross(a1, a2)])
    return _E


def _refuse_joint(joint, what: str, where: str):
    if joint.type not in SYSTEM_JOINTS:
        raise ModelError(f"{where}: {what} ({joint.name or 'unnamed'}, type {joint.type!r}) has no form in Kang "
                         "& Yoon's joint vocabulary, rotations about a joint point of a chassis-fixed tree "
                         f"({', '.join(f'{k} -> {v!r}' for k, v in SYSTEM_JOINTS.items())}); a free base, a "
                         "prismatic or custom joint is not one of them: use dae.forward_dynamics (or "
                         "rfda.forward_dynamics for a tree) on the System")


def from_system(system, *, q0=None) -> Model:
    """Kang & Yoon's record of a spatial :class:`~rfda_teach.system.System`: one :class:`RBody` per body
    (K&Y eq. 9-11), the cuts as basic constraints (Tables 1-4), the force elements as spring-dampers and
    the tyre; ``.mechanism`` is the System.

    Body j's frame {O_j} sits at its joint point with the axes of its child joint frame (times the
    universal joint's (a1, a2, a1 x a2)), so that A_j = A_i C_j R_j(q) reproduces the System's joint:
    a revolute joint turns about z ("z"), a universal joint about x then y ("xy", with q the System's
    (q1, q2)), a spherical joint by Bryant angles ("xyz").  A cut joint becomes the basic constraints of
    Haug (1989) as in :func:`tree_joint_constraints`: spherical "s"; revolute "s" and two "d1" (the
    parent frame's x and y normal to the child's z); universal "s" and "d1" (a1 normal to a2).  A
    :class:`~rfda_teach.forces.SpringDamper` keeps its law (tension k (L - L0) + c Ldot, pulling the
    points together) with its points moved into {O_j}; one :class:`~rfda_teach.forces.Tyre` becomes the
    tyre of the record (``tire_point`` None when it acts at the mass centre).

    ``q0`` (default zeros: every System joint at q = 0) is stored as the record's configuration.
    Refused with a :class:`~rfda_teach.errors.ModelError` naming the joint: planar bodies, free,
    prismatic and custom joints (tree or cut), more than one tyre; with a TopologyError: a body numbered
    lower than its parent.

    Examples
    --------
    >>> from rfda_teach import models
    >>> m = from_system(models.figure1_tree("spatial"))
    >>> m.n, m.nq, m.bodies[1].axes, m.mechanism.name == models.figure1_tree("spatial").name
    (13, 13, 'z', True)
    >>> from_system(models.random_tree(3, "spatial", seed=0))      # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: refpoint.from_system: joint 0 (...) has no form in Kang & Yoon's joint vocabulary...
    """
    from .forces import SpringDamper as Element, Tyre
    where = "refpoint.from_system"
    system = _require_spatial(system, where)
    for k, joint in enumerate(system.joints):
        _refuse_joint(joint, f"joint {k}", where)
    for c, cut in enumerate(system.cuts):
        _refuse_joint(cut.joint, f"cut {c} {cut.name!r}", where)
    for j, p in enumerate(system.parents):
        if p >= j:
            raise TopologyError(f"{where}: body {j} is numbered lower than its parent {p}; Kang & Yoon's recursion "
                                "runs over a spanning tree numbered outward from the chassis: renumber the System")
    D = [_ for _ in range(system.n)]                     # {O_j} axes in body j's axes
    cp = [jt.child_point for jt in system.joints]        # joint point from the mass centre, body axes
    bodies = []
    for j, (body, jt) in enumerate(zip(system.bodies, system.joints)):
        i = system.parents[j]
        F = _joint_axes_frame(jt)
        D[j] = jt.child_frame @ F
        s = jt.parent_point if i < 0 else D[i].T @ (jt.parent_point - cp[i])     # K&Y eq. (11)
        C = jt.parent_frame @ F if i < 0 else D[i].T @ jt.parent_frame @ F
        bodies.append(RBody(body.name or f"body {j}", i, s, C, SYSTEM_JOINTS[jt.type], body.mass,
                            D[j].T @ (-cp[j]), D[j].T @ body.J @ D[j]))

    def point(k, p):                                     # a body point into {O_k}; the ground: global
        return p if k < 0 else D[k].T @ (p - cp[k])

    def axis(k, u):
        return u if k < 0 else D[k].T @ u

    cuts = []
    for c, cut in enumerate(system.cuts):
        a, b, jt = cut.parent, cut.child, cut.joint
        cuts.append(CutJoint("s", a, b, pa=point(a, jt.parent_point), pb=point(b, jt.child_point),
                             name=cut.name if jt.type == "spherical" else f"{cut.name}: point"))
        pf, cf = jt.parent_frame, jt.child_frame
        if jt.type == "revolute":
            cuts += [CutJoint("d1", a, b, ua=axis(a, pf[:, 0]), ub=axis(b, cf[:, 2]), name=f"{cut.name}: axis x"),
                     CutJoint("d1", a, b, ua=axis(a, pf[:, 1]), ub=axis(b, cf[:, 2]), name=f"{cut.name}: axis y")]
        elif jt.type == "universal":
            cuts.append(CutJoint("d1", a, b, ua=axis(a, pf @ jt.axes[0]), ub=axis(b, cf @ jt.axes[1]),
                                 name=f"{cut.name}: cross"))
    springs, tyres = [], []
    for el in system.forces:
        if isinstance(el, Tyre):
            tyres.append(el)
            continue
        if not isinstance(el, Element):                   # pragma: no cover - System accepts no other kind
            raise ModelError(f"{where}: force element {el.name!r} ({type(el).__name__}) has no form in the record")
        zero = np.zeros(3)
        springs.append(SpringDamper(el.a, el.b, point(el.a, zero if el.point_a is None else el.point_a),
                                    point(el.b, zero if el.point_b is None else el.point_b), el.k, el.c, el.L0))
    if len(tyres) > 1:
        raise ModelError(f"{where}: system {system.name!r} has {len(tyres)} tyres ({', '.join(t.name for t in tyres)}); "
                         "Kang & Yoon's record carries one (the quarter car's); use dae.forward_dynamics for more")
    tyre = dict(tire_body=-1)
    if tyres:
        ty = tyres[0]
        tyre = dict(tire_body=ty.body, tire_k=ty.k, tire_r=ty.radius, road=ty.road,
                    tire_point=None if ty.point is None else point(ty.body, ty.point))
    nq = sum(len(b.axes) for b in bodies)
    q0 = np.zeros(nq) if q0 is None else q0
    return Model(tuple(bodies), tuple(cuts), tuple(springs), system.gravity, q0, name=system.name,
                 mechanism=system, **tyre)


def _mechanism(model, where: str):
    _model(model, where)
    if model.mechanism is None:
        raise ModelError(f"{where}: model {model.name!r} was written by hand (model.mechanism is None); build it "
                         "with refpoint.from_system(system) to map System states")
    system = model.mechanism
    if (system.n != model.n or system.parents != tuple(b.parent for b in model.bodies)
            or any(SYSTEM_JOINTS.get(jt.type) != b.axes for jt, b in zip(system.joints, model.bodies))):
        raise ModelError(f"{where}: model {model.name!r} no longer matches its mechanism (bodies, parents or joint "
                         "axes differ, e.g. after dataclasses.replace); rebuild it with refpoint.from_system(system)")
    return system


def _bryant(axes: str, R: np.ndarray) -> np.ndarray:
    """The angles q with R = R_j(q) of K&Y eq. (9) for the axes 'z', 'xy' or 'xyz'."""
    if axes == "z":
        return np.array([math.atan2(R[1, 0], R[0, 0])])
    if axes == "xy":                                     # R_x(a) R_y(b)
        return np.array([math.atan2(R[2, 1], R[1, 1]), math.atan2(R[0, 2], R[0, 0])])
    return np.array([math.atan2(-R[1, 2], R[2, 2]), math.atan2(R[0, 2], math.hypot(R[0, 0], R[0, 1])),
                     math.atan2(-R[0, 1], R[0, 0])])     # R_x(a) R_y(b) R_z(c)


def _frames(model: Model):
    """D_j: {O_j} axes in body j's axes (as :func:`from_system` chose them)."""
    sys_ = model.mechanism
    return [jt.child_frame @ _joint_axes_frame(jt) for jt in sys_.joints]


def state_from_system(model: Model, state):
    """Kang & Yoon's joint coordinates (q, qdot) of a System state (y, ydot), for a record built by
    :func:`from_system`: R_j(q) = C_j^T A_i^T A_j (K&Y eq. 9) with A_j = R_j D_j, and
    qdot_j from omega_j - omega_i = B_j^w qdot_j (K&Y eq. 17-19).

    The state must satisfy the tree joints (they are read, not checked); a spherical joint's middle
    Bryant angle must stay away from +-90 degrees, where B_j^w loses rank.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.figure1_tree("spatial")
    >>> q = [np.array([0.1 * k]) for k in range(sys.n)]
    >>> st = models.state_from_joints(sys, q, [np.ones(1)] * sys.n)
    >>> q_ky, qd_ky = state_from_system(from_system(sys), st)
    >>> bool(np.allclose(q_ky, 0.1 * np.arange(sys.n)) and np.allclose(qd_ky, 1.0))
    True
    """
    from .bodies import rotation
    from .system import check_state
    where = "refpoint.state_from_system"
    system = _mechanism(model, where)
    y, yd = check_state(system, state)
    ps, vs = system.pos_slices, system.vel_slices
    D = _frames(model)
    A = [rotation("spatial", y[ps[j]], check=False) @ D[j] for j in range(model.n)]
    q, qd = np.zeros(model.nq), np.zeros(model.nq)
    for j, b in enumerate(model.bodies):
        i = b.parent
        Ai = _E if i < 0 else A[i]
        q[model.qslices[j]] = qj = _bryant(b.axes, b.C.T @ Ai.T @ A[j])
        Bw = Ai @ b.C @ _Bw_local(b.axes, qj)
        w_rel = yd[vs[j]][3:] - (0.0 if i < 0 else yd[vs[i]][3:])
        sv = np.linalg.svd(Bw, compute_uv=False)
        if sv[-1] < 1e-8 * max(1.0, sv[0]):
            raise ModelError(f"{where}: body {j} ({b.name!r}): the Bryant angles {np.round(qj, 6)} of its "
                             f"{b.axes!r} joint are singular (middle angle at +-90 deg), so qdot is undefined; "
                             "use a state away from the singularity or dae.forward_dynamics")
        qd[model.qslices[j]] = np.linalg.lstsq(Bw, w_rel, rcond=None)[0]
    return q, qd


def system_state(model: Model, q, qd):
    """The System state (y, ydot) of Kang & Yoon's joint coordinates (q, qdot), the inverse of
    :func:`state_from_system` for a record built by :func:`from_system`: K&Y eq. (9)-(21) give A_j, the
    centroid r_c, its velocity and omega_j; the body's rotation is R_j = A_j D_j^T and its Euler
    parameters those of R_j.

    Examples
    --------
    >>> import numpy as np
    >>> car = quarter_car()
    >>> st = system_state(car, car.q0, np.zeros(10))
    >>> np.round(st.y[7:10], 3)                    # the wheel centre at its design position
    array([0.  , 0.75, 0.3 ])
    >>> q, qd = state_from_system(car, st)
    >>> bool(np.allclose(q, car.q0) and np.allclose(qd, 0.0))
    True
    """
    from .spatial import matrix_to_euler_params
    from .system import State
    where = "refpoint.system_state"
    system = _mechanism(model, where)
    q, qd, _ = _inputs(model, q, qd, "centroid", where)
    kin = _kinematics(model, q, qd)
    D = _frames(model)
    y, yd = np.zeros(system.n_pos), np.zeros(system.n_vel)
    for j in range(model.n):
        y[system.pos_slices[j]] = np.concatenate([kin.rc[j], matrix_to_euler_params(kin.A[j] @ D[j].T, check=False)])
        yd[system.vel_slices[j]] = np.concatenate([kin.rcd[j], kin.w[j]])
    return State(y, yd)


def system_accelerations(system, state, point: str = "centroid", *, t: float = 0.0) -> np.ndarray:
    """The System's absolute accelerations ydd (layout of ``dae.forward_dynamics(system, state).ydd``)
    computed by Kang & Yoon's recursion, K&Y eq. (28)-(30) and (37)-(43), at the analysis reference
    point ``point``.

    The System becomes the record (:func:`from_system`), the state its joint coordinates
    (:func:`state_from_system`); :func:`solve` gives Ydot_j = (a_P, omegadot_j) at the reference point
    P, mapped back to the mass centre: a_c = a_P at the centroid; a_c = a_r + omegadot x (r_c - r)
    + omega x (omega x (r_c - r)) at the joint point; a_c = a_O + omegadot x r_c + omega x rdot_c at the
    instant global origin (the derivative of K&Y eq. 31).  A state that does not close the loops is
    refused (:func:`solve`'s check).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import dae, models
    >>> sys = models.figure1_tree("spatial")
    >>> st = models.random_state(sys, seed=1)
    >>> ydd = dae.forward_dynamics(sys, st).ydd
    >>> all(np.allclose(system_accelerations(sys, st, p), ydd) for p in POINTS)
    True
    """
    where = "refpoint.system_accelerations"
    point = _check.choice(point, POINTS, "point", where=where)
    t = _check.time(t, "t", where=where)
    model = from_system(system, q0=None)
    q, qd = state_from_system(model, state)
    sol = _solve(model, q, qd, point, t, check_where=where)
    kin = _kinematics(model, q, qd, point)
    ydd = np.zeros(model.mechanism.n_vel)
    for j, Yd in enumerate(sol.Yd):
        a, wd, w = Yd[:3], Yd[3:], kin.w[j]
        if point == "joint":
            lever = kin.rc[j] - kin.r[j]
            a = a + cross(wd, lever, check=False) + cross(w, cross(w, lever, check=False), check=False)
        elif point == "origin":
            a = a + cross(wd, kin.rc[j], check=False) + cross(w, kin.rcd[j], check=False)
        ydd[model.mechanism.vel_slices[j]] = np.concatenate([a, wd])
    return ydd
