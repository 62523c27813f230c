"""The model record (a tree of bodies and joints) and its state.

A :class:`System` is plain data, as in spatial_v2: a parent array, one
:class:`~rfda_teach.bodies.Body` and one :class:`~rfda_teach.joints.Joint` per
node (joint k connects body k to its parent), and the gravity vector.  A
:class:`State` is two plain arrays, the stacked absolute coordinates y and
velocities ydot of §2.

:func:`terms` evaluates, once per state, everything D&G eq. (7) needs: M_i and f_i
for every body (D&G eq. 6) and Q_k, G_k, nu_k, gamma_k and the driving rows for
every joint (D&G eq. 1-3, 59).  A closed loop enters as a :class:`Cut`: a joint of the
same types between two bodies that the tree does not join (or a body and the ground),
kept out of the tree so that the recursions still see a tree; its rows C_x yddot =
gamma_x are the rows that joint would write between a child and its parent, and
:func:`rfda_teach.dae.forward_dynamics` appends them to D&G eq. (7).  Joint forces tau_k
enter as generalized forces through the driving rows: the power tau_k^T qdot_k =
tau_k^T (Q_kd ydot_j + G_kd ydot_k) adds G_kd^T tau_k to f_k and Q_kd^T tau_k to f_j.

Examples
--------
>>> from rfda_teach import models
>>> sys = models.featherstone_sliders()
>>> sys.n, sys.n_vel, sys.n_constraints, sys.n_dof
(2, 4, 2, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import bodies as _b
from . import forces as _fo
from . import joints as _j
from . import _check
from .errors import ConstraintViolationError, ModelError, TopologyError
from .summary import count_by_kind, html_table
from .tree import Topology

__all__ = ["System", "Cut", "State", "Terms", "terms", "check_state", "body_slices", "check_consistency",
           "check_terms", "constraint_residuals", "cut_residuals", "require_tree", "force_potential", "POSITION_TOL",
           "VELOCITY_TOL"]

#: a state is consistent when every joint's position residual is below POSITION_TOL (metres or
#: radians) and its velocity residual |G_k ydot_k + Q_k ydot_j| below VELOCITY_TOL (1 + |ydot|_max)
POSITION_TOL = 1e-6
VELOCITY_TOL = 1e-6


class State(NamedTuple):
    """Absolute coordinates y and velocities ydot of every body, stacked in body order."""

    y: np.ndarray
    yd: np.ndarray


@dataclass(frozen=True, eq=False)
class Cut:
    """A cut (loop-closing) joint: a :class:`~rfda_teach.joints.Joint` between two bodies of a
    :class:`System` that the tree does not join.

    The joint's rows are those it would write if ``child`` hung from ``parent`` in the tree
    (D&G eq. 1-3): Q on ``parent``, G on ``child``, nu and gamma; ``joint.parent_point`` and
    ``joint.parent_frame`` ride on ``parent``, ``joint.child_point`` and ``joint.child_frame`` on
    ``child``.  Either side, not both, may be the ground (-1).  A cut adds constraint rows only:
    it has no joint speeds of its own in the tree and takes no joint force tau.

    Parameters
    ----------
    parent, child : int
        Body indices of the two sides (-1 for the ground).
    joint : Joint
        The joint type and its points and frames on the two sides.
    name : str
        Shown in messages and tables (default ``"cut <parent>-<child>"``).

    Examples
    --------
    A slider-crank: crank (body 0) and rod (body 1) hang from the origin, the slider (body 2) runs
    on a ground rail; the cut revolute joint pins the rod's far end (1 m from its centre) to the slider.

    >>> from rfda_teach.bodies import Body
    >>> from rfda_teach.joints import Joint
    >>> bar = Body("planar", 1.0, 1 / 12)
    >>> pin = Cut(1, 2, Joint("revolute2d", parent_point=[1.0, 0.0]))
    >>> sc = System((-1, 0, -1), (bar, bar, bar),
    ...             (Joint("revolute2d", child_point=[-0.5, 0.0]),
    ...              Joint("revolute2d", parent_point=[0.5, 0.0], child_point=[-1.0, 0.0]), Joint("prismatic2d")),
    ...             (0.0, -9.81), name="slider-crank", cuts=(pin,))
    >>> repr(sc).split("; ")[3:]
    ['cut joints 1 revolute2d', '8 constraint rows (6 tree + 2 cut), 1 DOF']
    """

    parent: int
    child: int
    joint: object
    name: str = ""

    def __post_init__(self):
        where = f"cut {self.name!r}" if self.name else "Cut"
        for side in ("parent", "child"):
            v = getattr(self, side)
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < -1:
                raise ModelError(f"{where}: {side} must be a body index (an int >= 0) or -1 for the ground, "
                                 f"got {v!r}")
            object.__setattr__(self, side, int(v))
        if self.parent == self.child:
            side = "the ground" if self.parent < 0 else f"body {self.parent}"
            raise ModelError(f"{where}: parent and child are both {side}; a cut joint closes a loop between "
                             "two different bodies (or a body and the ground)")
        _check.instance(self.joint, _j.Joint, "joint", where=where,
                        hint="give a rfda_teach.joints.Joint, e.g. Joint('revolute2d', parent_point=..., "
                             "child_point=...)")
        if not self.name:
            side = lambda b: "ground" if b < 0 else str(b)          # noqa: E731
            object.__setattr__(self, "name", f"cut {side(self.parent)}-{side(self.child)}")


@dataclass(frozen=True, eq=False)
class System:
    """A tree-structured multibody system in absolute coordinates (§2).

    Parameters
    ----------
    parents : sequence of int
        ``parents[i]`` is the parent of body i, -1 for the root.
    bodies : sequence of Body
    joints : sequence of Joint
        ``joints[i]`` connects body i to its parent (to the ground for the root).
    gravity : array_like
        Gravity vector (2 entries for planar kinds, 3 for spatial).
    cuts : sequence of Cut, keyword
        Cut (loop-closing) joints; their rows follow the tree joints' rows in D&G eq. (7)
        (``cut_slices``).  Empty for a tree.  The recursive algorithms need a tree and refuse a
        system with cuts (:func:`require_tree`); :mod:`rfda_teach.dae` solves it.
    forces : sequence of SpringDamper or Tyre, keyword
        Force elements (:class:`rfda_teach.forces.SpringDamper` between bodies or a body and the
        ground, :class:`rfda_teach.forces.Tyre` between a body and the road); :func:`terms` adds their generalized forces to f (D&G eq. (6)) and
        :func:`rfda_teach.simulate.energy` their potential energy.  Empty by default.

    Examples
    --------
    >>> from rfda_teach import models
    >>> from rfda_teach.forces import SpringDamper
    >>> tree = models.chain(2)
    >>> s = System(tree.parents, tree.bodies, tree.joints, tree.gravity, name="sprung",
    ...            forces=(SpringDamper(1, -1, point_a=[0.5, 0.0], k=50.0, L0=1.0),))
    >>> repr(s).split("; ")[3:]
    ['force elements 1 SpringDamper', '4 constraint rows, 2 DOF']
    """

    parents: tuple
    bodies: tuple
    joints: tuple
    gravity: object = None
    name: str = ""
    cuts: tuple = field(default=(), kw_only=True)
    forces: tuple = field(default=(), kw_only=True)
    topology: Topology = field(init=False, repr=False)
    pos_slices: tuple = field(init=False, repr=False)
    vel_slices: tuple = field(init=False, repr=False)
    con_slices: tuple = field(init=False, repr=False)
    dof_slices: tuple = field(init=False, repr=False)
    cut_slices: tuple = field(init=False, repr=False)

    def __post_init__(self):
        topo = Topology.from_parents(self.parents)
        object.__setattr__(self, "parents", topo.parents)
        bodies, joints = tuple(self.bodies), tuple(self.joints)
        n = topo.n
        if len(bodies) != n or len(joints) != n:
            raise ModelError(f"system {self.name!r}: {n} parents but {len(bodies)} bodies and {len(joints)} "
                             "joints; give one body and one joint (to its parent) per node")
        for i, (b, jt) in enumerate(zip(bodies, joints)):
            if not isinstance(b, _b.Body):
                raise ModelError(f"system {self.name!r}: bodies[{i}] is {type(b).__name__}, not a Body")
            if not isinstance(jt, _j.Joint):
                raise ModelError(f"system {self.name!r}: joints[{i}] is {type(jt).__name__}, not a Joint")
            if jt.kind != b.kind:
                raise ModelError(f"system {self.name!r}: joint {i} ({jt.type}) is for {jt.kind} bodies but "
                                 f"body {i} is {b.kind}; pick a joint type of the body's kind")
            p = topo.parents[i]
            if p >= 0 and bodies[p].kind != b.kind:
                raise ModelError(f"system {self.name!r}: body {i} is {b.kind} but its parent {p} is "
                                 f"{bodies[p].kind}; all bodies of a tree must be of one kind")
        d = _b.ndim(bodies[0].kind)
        g = np.zeros(d) if self.gravity is None else np.asarray(self.gravity, float)
        if g.shape != (d,) or not np.all(np.isfinite(g)):
            raise ModelError(f"system {self.name!r}: gravity must be {d} finite numbers, got {self.gravity!r}")
        object.__setattr__(self, "bodies", bodies)
        object.__setattr__(self, "joints", joints)
        object.__setattr__(self, "gravity", g)
        object.__setattr__(self, "topology", topo)
        object.__setattr__(self, "pos_slices", _slices([_b.npos(b.kind) for b in bodies]))
        object.__setattr__(self, "vel_slices", _slices([_b.nvel(b.kind) for b in bodies]))
        object.__setattr__(self, "con_slices", _slices([jt.n_constraints for jt in joints]))
        object.__setattr__(self, "dof_slices", _slices([jt.n_dof for jt in joints]))
        cuts = _check_cuts(self.name, self.cuts, bodies)
        object.__setattr__(self, "cuts", cuts)
        nc = self.con_slices[-1].stop
        object.__setattr__(self, "cut_slices", tuple(slice(nc + s.start, nc + s.stop)
                                                    for s in _slices([c.joint.n_constraints for c in cuts])))
        object.__setattr__(self, "forces", _check_forces(self.name, self.forces, bodies))

    @property
    def n(self) -> int:
        """Number of bodies (nodes)."""
        return self.topology.n

    @property
    def kind(self) -> str:
        """Body kind shared by every body."""
        return self.bodies[0].kind

    @property
    def n_pos(self) -> int:
        """Length of y."""
        return self.pos_slices[-1].stop

    @property
    def n_vel(self) -> int:
        """Length of ydot (sum of p_i)."""
        return self.vel_slices[-1].stop

    @property
    def n_constraints(self) -> int:
        """Number of rows of the constraint Jacobian of D&G eq. (7)."""
        return self.con_slices[-1].stop

    @property
    def n_dof(self) -> int:
        """Joint speeds of the tree (sum over the tree joints; the cuts remove
        ``n_cut_constraints`` of them when their rows are independent)."""
        return self.dof_slices[-1].stop

    @property
    def n_cut_constraints(self) -> int:
        """Rows C_x of the cut joints, appended to D&G eq. (7) after the tree joints' rows."""
        return sum(c.joint.n_constraints for c in self.cuts)

    def __repr__(self) -> str:
        """One line: name, bodies, joints by kind, roots, cut joints (if any), rows of D&G eq. (7), degrees
        of freedom (the tree's joint speeds less the cuts' rows).

        Examples
        --------
        >>> from rfda_teach import models
        >>> models.figure1_tree()
        System 'Fig. 1 tree (planar)': 13 planar bodies; joints 13 revolute2d; 1 root; 26 constraint rows, 13 DOF
        """
        joints = count_by_kind(jt.type for jt in self.joints)
        roots = sum(p < 0 for p in self.parents)
        head = (f"{type(self).__name__} {self.name!r}: {self.n} {self.kind} bodies; joints {joints}; "
                f"{roots} root{'s' if roots > 1 else ''}; ")
        if self.forces:
            head += f"force elements {count_by_kind(type(e).__name__ for e in self.forces)}; "
        if not self.cuts:
            return head + f"{self.n_constraints} constraint rows, {self.n_dof} DOF"
        nx = self.n_cut_constraints
        return (head + f"cut joints {count_by_kind(c.joint.type for c in self.cuts)}; "
                f"{self.n_constraints + nx} constraint rows ({self.n_constraints} tree + {nx} cut), "
                f"{self.n_dof - nx} DOF")

    def _repr_html_(self) -> str:
        """A table in a notebook (:func:`rfda_teach.summary.html_table`): the line of :meth:`__repr__`, then
        one row per body with its name, parent, joint type, joint DOF and mass; a column ``cuts`` when
        there are cut joints and a column ``forces`` when there are force elements, each listed at
        its bodies."""
        rows = [(i, b.name, p, jt.type, jt.n_dof, f"{b.mass:.4g}")
                for i, (b, jt, p) in enumerate(zip(self.bodies, self.joints, self.parents))]
        headers = ("body", "name", "parent", "joint", "DOF", "mass (kg)")
        what = []
        extra = (("cuts", "cut joints", [((c.parent, c.child), f"{c.name} ({c.joint.type})") for c in self.cuts]),
                 ("forces", "force elements", [((e.a, e.b), f"{e.name} ({e.summary})")
                                                   for e in self.forces]))
        for head, label, items in extra:
            if not items:
                continue
            at = {}
            for ends, text in items:              # an element is listed at each of its bodies
                for b in ends:
                    if b >= 0:
                        at.setdefault(b, []).append(text)
            rows = [r + ("; ".join(at.get(r[0], ())),) for r in rows]
            headers += (head,)
            what.append(label)
        parts = ["bodies", "joints"] + what
        return html_table(repr(self), headers, rows, ", ".join(parts[:-1]) + " and " + parts[-1])


def _check_cuts(name: str, cuts, bodies) -> tuple:
    """Validate the cut joints of a system: Cut records, bodies in range, the joint's kind the bodies'."""
    if isinstance(cuts, (Cut, str)) or not hasattr(cuts, "__iter__"):
        raise ModelError(f"system {name!r}: cuts must be a sequence of rfda_teach.system.Cut, got "
                         f"{type(cuts).__name__}; wrap a single cut as cuts=(cut,)")
    cuts = tuple(cuts)
    n = len(bodies)
    for c, cut in enumerate(cuts):
        if not isinstance(cut, Cut):
            raise ModelError(f"system {name!r}: cuts[{c}] is {type(cut).__name__}, not a Cut; build one with "
                             "rfda_teach.system.Cut(parent, child, joint)")
        for side in ("parent", "child"):
            b = getattr(cut, side)
            if b >= n:
                raise TopologyError(f"system {name!r}: cuts[{c}] ({cut.name!r}) has {side} body {b}, but the "
                                    f"bodies are 0..{n - 1} (-1 for the ground); give an existing body")
            if b >= 0 and bodies[b].kind != cut.joint.kind:
                raise ModelError(f"system {name!r}: cuts[{c}] ({cut.name!r}) is a {cut.joint.type} joint for "
                                 f"{cut.joint.kind} bodies but its {side} body {b} is {bodies[b].kind}; pick a "
                                 "joint type of the bodies' kind")
    return cuts


def _check_forces(name: str, forces, bodies) -> tuple:
    """Validate the force elements of a system: records of forces.ELEMENTS (SpringDamper, Tyre), bodies in
    range, points of the bodies' dimension."""
    if isinstance(forces, _fo.ELEMENTS + (str,)) or not hasattr(forces, "__iter__"):
        raise ModelError(f"system {name!r}: forces must be a sequence of force elements "
                         f"(rfda_teach.forces.SpringDamper, Tyre), got {type(forces).__name__}; wrap a single "
                         "element as forces=(element,)")
    forces = tuple(forces)
    n, d = len(bodies), _b.ndim(bodies[0].kind)
    for e, el in enumerate(forces):
        if not isinstance(el, _fo.ELEMENTS):
            raise ModelError(f"system {name!r}: forces[{e}] is {type(el).__name__}, not a force element; build "
                             "one with rfda_teach.forces.SpringDamper(a, b, point_a=..., point_b=..., k=..., "
                             "c=..., L0=...) or rfda_teach.forces.Tyre(body, k=..., radius=...)")
        for side in ("a", "b"):
            b = getattr(el, side)
            if b >= n:
                raise TopologyError(f"system {name!r}: forces[{e}] ({el.name!r}) has body {side} = {b}, but the "
                                    f"bodies are 0..{n - 1} (-1 for the ground); give an existing body")
        if el.dim is not None and el.dim != d:
            raise ModelError(f"system {name!r}: forces[{e}] ({el.name!r}) has {el.dim}-entry points but the "
                             f"bodies are {bodies[0].kind} ({d} entries); give points of {d} entries")
    return forces


def _ends(system: System, el, y, yd) -> tuple:
    """(y_a, yd_a, y_b, yd_b) of a force element's two bodies, None for the ground."""
    ps, vs = system.pos_slices, system.vel_slices
    a, b = el.a, el.b
    return ((None, None) if a < 0 else (y[ps[a]], yd[vs[a]])) + ((None, None) if b < 0 else (y[ps[b]], yd[vs[b]]))


def force_potential(system: System, state, *, t: float = 0.0, check: bool = True) -> float:
    """Potential energy stored in the system's force elements, the sum of 1/2 k (L - L0)^2
    (:func:`rfda_teach.forces.potential`); 0 without force elements.  ``check=False``: a state the
    package computed (not validated).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> from rfda_teach.forces import SpringDamper
    >>> t = models.chain(1, gravity=[0.0, 0.0])
    >>> s = System(t.parents, t.bodies, t.joints, t.gravity, forces=(SpringDamper(0, -1, k=2.0, L0=0.0),))
    >>> force_potential(s, (np.array([0.0, -0.5, np.pi / 2]), np.zeros(3)))     # mass centre 0.5 m below the pin
    0.25
    """
    y, yd = check_state(system, state) if check else state
    if check:
        t = _check.time(t, "t", where="system.force_potential")
    return float(sum(_fo.potential(el, system.kind, *_ends(system, el, y, yd)[::2], t=t, check=False)
                     for el in system.forces))


def _add_forces(system: System, y, yd, f: list, t: float = 0.0) -> None:
    """Add every force element's generalized forces (:func:`rfda_teach.forces.generalized_forces`) to f."""
    for el in system.forces:
        fa, fb = _fo.generalized_forces(el, system.kind, *_ends(system, el, y, yd), t=t, check=False)
        if fa is not None:
            f[el.a] = f[el.a] + fa
        if fb is not None:
            f[el.b] = f[el.b] + fb


def _slices(sizes):
    out, s = [], 0
    for k in sizes:
        out.append(slice(s, s + k))
        s += k
    return tuple(out)


def body_slices(system: System, i: int) -> tuple[slice, slice]:
    """(position slice, velocity slice) of body i in y and ydot.


    Examples
    --------
    >>> from rfda_teach import models
    >>> body_slices(models.planar_revolute_pair(), 1)
    (slice(3, 6, None), slice(3, 6, None))
    """
    _check.instance(system, System, "system", where="body_slices")
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not 0 <= i < system.n:
        raise ModelError(f"body_slices: body {i!r} does not exist; bodies are 0..{system.n - 1}")
    return system.pos_slices[i], system.vel_slices[i]


def check_state(system: System, state) -> State:
    """Validate a state: shapes, NaN/inf, unit Euler parameters; return it as float arrays.


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.planar_revolute_pair()
    >>> check_state(sys, (np.zeros(6), np.full(6, np.nan)))
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: state.yd[0] is nan (body 0); the state must be finite, check the integrator step or the initial values
    """
    try:
        y, yd = state
    except (TypeError, ValueError) as exc:
        raise ModelError("state must be a pair (y, ydot) of arrays, e.g. rfda_teach.system.State(y, yd)") from exc
    if not isinstance(system, System):
        raise ModelError(f"system must be a rfda_teach.system.System, got {type(system).__name__}")
    y = _check._array(y, "state.y", "")
    yd = _check._array(yd, "state.yd", "")
    if y.shape != (system.n_pos,):
        raise ModelError(f"state.y has shape {y.shape}; system {system.name!r} needs ({system.n_pos},)")
    if yd.shape != (system.n_vel,):
        raise ModelError(f"state.yd has shape {yd.shape}; system {system.name!r} needs ({system.n_vel},)")
    for arr, nm, sl in ((y, "y", system.pos_slices), (yd, "yd", system.vel_slices)):
        bad = ~np.isfinite(arr)
        if bad.any():
            idx = int(np.argmax(bad))
            body = next(i for i, s in enumerate(sl) if s.start <= idx < s.stop)
            raise ModelError(f"state.{nm}[{idx}] is {arr[idx]} (body {body}); the state must be finite, "
                             "check the integrator step or the initial values")
    if system.kind == "spatial":
        for i, s in enumerate(system.pos_slices):
            e = y[s][3:7]
            if not np.any(e):
                raise ModelError(f"body {i}: Euler parameters are all zero (state.y[{s.start + 3}:{s.stop}]); "
                                 "they must have unit norm, e.g. (1, 0, 0, 0) for no rotation")
            if abs(np.linalg.norm(e) - 1.0) > _b.EULER_TOL:
                raise ModelError(f"body {i}: Euler parameters {np.round(e, 6)} have norm {np.linalg.norm(e):.8f}, "
                                 f"not 1 (tolerance {_b.EULER_TOL}); normalise them (e / |e|)")
    return State(y, yd)


class Terms(NamedTuple):
    """Everything D&G eq. (7) needs at one state: per body M, f; per joint the JointTerms; per cut
    joint its JointTerms (``Q`` on the cut's parent, ``G`` on its child; empty for a tree)."""

    M: list
    f: list
    joint: list
    cut: tuple = ()


def check_terms(system: System, tr, where: str) -> Terms:
    """The system is a System and ``tr`` the Terms of :func:`terms` for it (for the solve-only entry points).

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.chain(2)
    >>> len(check_terms(sys, terms(sys, models.random_state(sys, seed=0)), "dae.solve").M)
    2
    """
    _check.instance(system, System, "system", where=where)
    if (not isinstance(tr, Terms) or len(tr.M) != system.n or len(tr.joint) != system.n
            or len(tr.cut) != len(system.cuts)):
        raise ModelError(f"{where}: tr must be the Terms of this system, from rfda_teach.system.terms(system, "
                         f"state), got {type(tr).__name__}")
    return tr


def _vector(system: System, x, n: int, what: str) -> np.ndarray:
    if x is None:
        return np.zeros(n)
    return _check.vector(x, n, what, where=f"system {system.name!r}")


def _joint_name(system: System, k: int) -> str:
    nm = system.joints[k].name
    return f"joint {k}" + (f" ({nm!r})" if nm and nm != f"joint {k}" else "")


def _position_ok(system: System, k: int, y_j, y_k) -> None:
    r = _j.position_residual(system.joints[k], system.kind, y_j, y_k, check=False)
    if r.size and np.linalg.norm(r) > POSITION_TOL:
        raise ConstraintViolationError(
            f"system {system.name!r}: the state violates {_joint_name(system, k)}: position residual "
            f"{np.linalg.norm(r):.3g} > {POSITION_TOL:g} (body {k} is off its joint with body "
            f"{system.parents[k]}); build consistent states with models.state_from_joints or "
            "models.random_state, or pass check=False to skip this check")


def _velocity_ok(system: System, k: int, tk, yd) -> None:
    j = system.parents[k]
    r = tk.G @ yd[system.vel_slices[k]] - tk.nu
    if j >= 0:
        r = r + tk.Q @ yd[system.vel_slices[j]]
    tol = VELOCITY_TOL * (1.0 + float(np.abs(yd).max()))
    if r.size and np.abs(r).max() > tol:
        raise ConstraintViolationError(
            f"system {system.name!r}: the velocities violate {_joint_name(system, k)}: "
            f"|G_k ydot_k + Q_k ydot_j| = {np.abs(r).max():.3g} > {tol:.3g}; build consistent states with "
            "models.state_from_joints or models.random_state, or pass check=False to skip this check")


def _ground(kind: str) -> np.ndarray:
    """The ground's absolute coordinates: at the origin, axes the global axes."""
    return np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]) if kind == "spatial" else np.zeros(_b.npos(kind))


def _cut_sides(system: System, cut: Cut, y, yd) -> tuple:
    """(y_j, yd_j, y_k, yd_k) of a cut's parent and child; the ground as parent is None (D&G eq. 2),
    as child a body at rest at the origin (its G columns are dropped)."""
    ps, vs = system.pos_slices, system.vel_slices
    j, k = cut.parent, cut.child
    yj, ydj = (None, None) if j < 0 else (y[ps[j]], yd[vs[j]])
    if k < 0:
        return yj, ydj, _ground(system.kind), np.zeros(_b.nvel(system.kind))
    return yj, ydj, y[ps[k]], yd[vs[k]]


def _cut_terms(system: System, y, yd, check: bool) -> tuple:
    """The JointTerms of every cut joint: the rows its joint writes between child and parent
    (:func:`rfda_teach.joints.evaluate`), checked against the state when ``check``."""
    out = []
    for c, cut in enumerate(system.cuts):
        yj, ydj, yk, ydk = _cut_sides(system, cut, y, yd)
        tc = _j.evaluate(cut.joint, system.kind, yj, ydj, yk, ydk, check=False)
        out.append(tc)
        if check:
            _cut_ok(system, c, yj, yk, tc, yd)
    return tuple(out)


def _cut_name(system: System, c: int) -> str:
    cut = system.cuts[c]
    side = lambda b: "the ground" if b < 0 else f"body {b}"          # noqa: E731
    return f"cut joint {c} ({cut.name!r}, {cut.joint.type} between {side(cut.parent)} and {side(cut.child)})"


def _cut_velocity(system: System, cut: Cut, tc, yd) -> np.ndarray:
    """C_x ydot - nu_x of one cut: G_k ydot_k + Q_k ydot_j - nu_k (D&G eq. 1) with the ground's terms left out."""
    vs = system.vel_slices
    r = -tc.nu
    if cut.child >= 0:
        r = r + tc.G @ yd[vs[cut.child]]
    if cut.parent >= 0:
        r = r + tc.Q @ yd[vs[cut.parent]]
    return r


def _cut_ok(system: System, c: int, yj, yk, tc, yd) -> None:
    cut = system.cuts[c]
    r = _j.position_residual(cut.joint, system.kind, yj, yk, check=False)
    fix = ("a state built from tree joint coordinates (models.state_from_joints) closes the loop only if the "
           "coordinates do: solve the closure for the dependent coordinates first (rcr.solve_dependents and "
           "rcr.dependent_velocities for the book's loops), or pass check=False to skip this check")
    if r.size and np.linalg.norm(r) > POSITION_TOL:
        raise ConstraintViolationError(
            f"system {system.name!r}: the state violates {_cut_name(system, c)}: position residual "
            f"{np.linalg.norm(r):.3g} > {POSITION_TOL:g}; {fix}")
    v = _cut_velocity(system, cut, tc, yd)
    tol = VELOCITY_TOL * (1.0 + float(np.abs(yd).max()))
    if v.size and np.abs(v).max() > tol:
        raise ConstraintViolationError(
            f"system {system.name!r}: the velocities violate {_cut_name(system, c)}: |G_k ydot_k + Q_k ydot_j| "
            f"= {np.abs(v).max():.3g} > {tol:.3g}; {fix}")


def require_tree(system: System, where: str) -> System:
    """The system, if it has no cut joints; else ModelError: the recursive algorithms (RFDA, joint
    space, Kane's view) solve a tree, and a cut's rows would be left out silently.

    Examples
    --------
    >>> from rfda_teach import models
    >>> require_tree(models.chain(2), "rfda.forward_dynamics").n
    2
    """
    _check.instance(system, System, "system", where=where)
    if system.cuts:
        raise ModelError(f"{where}: system {system.name!r} has {len(system.cuts)} cut joint(s) "
                         f"({', '.join(c.name for c in system.cuts)}); this algorithm needs a tree. Solve the "
                         "closed system with rfda_teach.dae.forward_dynamics (D&G eq. (7) with the cuts' rows), "
                         "or pass the tree without cuts")
    return system


def cut_residuals(system: System, state, *, tr=None, check: bool = True) -> tuple:
    """(Phi_x, Phi_x_dot): the position constraints of every cut joint (:func:`rfda_teach.joints.Phi`,
    the same rows as a tree joint of that type) and their rates C_x ydot - nu_x (D&G eq. 1), stacked in
    cut order (``system.cut_slices`` minus ``system.n_constraints``).  Both vanish when the state
    closes every loop; empty for a tree.  ``check=False`` (inside an integrator) skips validation and
    reuses already evaluated terms ``tr`` when given.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> from rfda_teach.joints import Joint
    >>> tree = models.chain(3)
    >>> st = models.random_state(tree, seed=0)
    >>> pin = Joint("revolute2d", parent_point=[0.5, 0.0])
    >>> loop = System(tree.parents, tree.bodies, tree.joints, tree.gravity, cuts=(Cut(2, -1, pin),))
    >>> phi, phi_dot = cut_residuals(loop, st)         # a random tree state does not close the loop
    >>> phi.shape, bool(np.abs(phi).max() > 1e-3)
    ((2,), True)
    """
    if check:
        y, yd = check_state(system, state)
        tc = _cut_terms(system, y, yd, False)
    else:
        y, yd = state
        tc = _cut_terms(system, y, yd, False) if tr is None else tr.cut
    phi, phi_dot = [np.zeros(0)], [np.zeros(0)]
    for cut, t in zip(system.cuts, tc):
        yj, _, yk, _ = _cut_sides(system, cut, y, yd)
        phi.append(_j.Phi(cut.joint, system.kind, yj, yk, check=False))
        phi_dot.append(_cut_velocity(system, cut, t, yd))
    return np.concatenate(phi), np.concatenate(phi_dot)


def constraint_residuals(system: System, state, *, tr=None, check: bool = True) -> tuple:
    """(Phi, Phi_dot): the position constraints of every joint (:func:`rfda_teach.joints.Phi`)
    and their rates C ydot = Q_k ydot_j + G_k ydot_k - nu_k (D&G eq. 1), stacked in the row order
    of D&G eq. (7) (``system.con_slices``).  Both vanish on a consistent state.  The tree joints
    only: :func:`cut_residuals` gives the cut joints'.  ``check=False`` (inside
    an integrator) skips the validation and reuses already evaluated terms ``tr`` when given.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.planar_revolute_pair(); st = models.random_state(sys, seed=0)
    >>> phi, phi_dot = constraint_residuals(sys, st)
    >>> phi.shape, bool(np.abs(phi).max() < 1e-12 and np.abs(phi_dot).max() < 1e-12)
    ((2,), True)
    """
    if not check:                      # (y, yd) and their terms ``tr`` computed by the package (an integrator)
        y, yd = state
        return _residuals(system, y, yd, terms(system, (y, yd), check=False) if tr is None else tr)
    y, yd = check_state(system, state)
    return _residuals(system, y, yd, terms(system, (y, yd), check=False))


def _residuals(system: System, y, yd, tr) -> tuple:
    ps, vs = system.pos_slices, system.vel_slices
    phi = np.zeros(system.n_constraints)
    phi_dot = np.zeros(system.n_constraints)
    for k, (joint, jt) in enumerate(zip(system.joints, tr.joint)):
        j = system.parents[k]
        cs = system.con_slices[k]
        if cs.stop == cs.start:
            continue
        phi[cs] = _j.Phi(joint, system.kind, None if j < 0 else y[ps[j]], y[ps[k]], check=False)
        r = jt.G @ yd[vs[k]] - jt.nu
        phi_dot[cs] = r if j < 0 else r + jt.Q @ yd[vs[j]]
    return phi, phi_dot


def check_consistency(system: System, state) -> State:
    """Raise :class:`~rfda_teach.errors.ConstraintViolationError` unless the state satisfies every joint,
    the cut joints included.

    Positions: the residual of each joint's position constraint (D&G eq. 1 before
    differentiation, :func:`rfda_teach.joints.position_residual`) must be at
    most :data:`POSITION_TOL`; velocities: |G_k ydot_k + Q_k ydot_j - nu_k|
    (D&G eq. 1) at most :data:`VELOCITY_TOL` (1 + max |ydot|).  O(n).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> sys = models.planar_revolute_pair(); st = models.random_state(sys, seed=0)
    >>> check_consistency(sys, st).y.shape
    (6,)
    >>> y = st.y.copy(); y[4] += 0.3                # body 1, 0.3 m off its pin
    >>> check_consistency(sys, (y, st.yd))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ConstraintViolationError: system 'planar revolute pair (Fig. 3)': the state violates joint 1 ('revolute k'): position residual 0.3 > 1e-06 (body 1 is off its joint with body 0); ...
    """
    y, yd = check_state(system, state)
    ps, vs = system.pos_slices, system.vel_slices
    for k, joint in enumerate(system.joints):
        j = system.parents[k]
        yj, ydj = (None, None) if j < 0 else (y[ps[j]], yd[vs[j]])
        _position_ok(system, k, yj, y[ps[k]])
        _velocity_ok(system, k, _j.evaluate(joint, system.kind, yj, ydj, y[ps[k]], yd[vs[k]], check=False), yd)
    _cut_terms(system, y, yd, True)
    return State(y, yd)


def terms(system: System, state, t: float = 0.0, *, tau=None, f_ext=None, check: bool = True) -> Terms:
    """M_i, f_i (D&G eq. 6) and the joint rows (D&G eq. 1-3, 59) for every body, joint and cut joint.

    f_i holds gravity and the gyroscopic term (:func:`rfda_teach.bodies.force`), the joint forces,
    ``f_ext`` and the generalized forces of the force elements ``system.forces``
    (:func:`rfda_teach.forces.generalized_forces`).  ``tau`` are joint forces/torques (length
    ``system.n_dof``, joint order),
    ``f_ext`` extra generalized forces in absolute coordinates (length
    ``system.n_vel``).  Time ``t`` is accepted for time-dependent extensions;
    the built-in joints are scleronomic (nu_k = 0).  With ``check`` the state must satisfy every
    joint and every cut joint (:func:`check_consistency`).

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.featherstone_sliders(); tr = terms(sys, models.random_state(sys, seed=0), tau=[1.0, 0.0])
    >>> tr.joint[1].G, tr.f[0]           # tau_1 = 1 pushes slider 1 along its rail
    (array([[1., 0.]]), array([ 1.  , -9.81]))
    """
    y, yd = check_state(system, state)
    _check.time(t, "t")
    tau = _vector(system, tau, system.n_dof, "tau")
    f_ext = _vector(system, f_ext, system.n_vel, "f_ext")
    ps, vs, ds = system.pos_slices, system.vel_slices, system.dof_slices
    M, f, jt = [], [], []
    for i, b in enumerate(system.bodies):
        M.append(_b.mass_matrix(b, y[ps[i]], check=False))
        f.append(_b.force(b, y[ps[i]], yd[vs[i]], system.gravity, check=False) + f_ext[vs[i]])
    for k, joint in enumerate(system.joints):
        j = system.parents[k]
        yj, ydj = (None, None) if j < 0 else (y[ps[j]], yd[vs[j]])
        tk = _j.evaluate(joint, system.kind, yj, ydj, y[ps[k]], yd[vs[k]], check=False)
        jt.append(tk)
        if check:
            _position_ok(system, k, yj, y[ps[k]])
            _velocity_ok(system, k, tk, yd)
        tau_k = tau[ds[k]]
        if tau_k.size:
            f[k] = f[k] + tk.G_d.T @ tau_k
            if j >= 0:
                f[j] = f[j] + tk.Q_d.T @ tau_k
    _add_forces(system, y, yd, f, t)
    return Terms(M, f, jt, _cut_terms(system, y, yd, check) if system.cuts else ())
