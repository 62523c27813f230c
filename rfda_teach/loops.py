"""The closed-loop mechanism record: planar loops of one-dof joints, chains of coupled loops, their
builders and the checks of a state.

Both the recursive coordinate reduction (:mod:`rfda_teach.rcr`) and the references that share no code
with it (:mod:`rfda_teach.loopref`) read the mechanism from here; this module imports neither.

The mechanism
-------------
A :class:`LoopMechanism` is a single closed loop of n one-dof joints (:class:`LoopJoint`, revolute or
prismatic): joint 1 connects the ground to body 1, joint k connects body k-1 to body k, and joint n
connects body n-1 back to the ground.  Followed from the ground, the chain ground -> 1 -> ... -> n-1
ends, through joint n, at a massless *phantom* copy of the ground (body n of Critchley & Anderson); the
loop is closed when the phantom lies on the ground, i.e. when the closure residual (theta, x, y) of
C&A eq. (23), :func:`closure`, is zero.  Its Jacobian :func:`closure_jacobian` has the columns
a_k = (^kS^n)^T P_k^k of C&A eq. (26), (31): the phantom's spatial velocity (omega_z, v_x, v_y) for a unit
rate of joint k.  A :class:`LoopSeries` couples loops in a chain, each based on a body of an earlier one.

Builders: the five-bar of §6 (:func:`five_bar`), a crank-rocker :func:`four_bar`, the n-bar loops of the
benchmark (:func:`loop_chain`) and k coupled four-bars (:func:`loop_series`).

A view of the one model
-----------------------
Each builder makes the mechanism once, as a :class:`~rfda_teach.system.System` whose loop-closing joint is a
:class:`~rfda_teach.system.Cut` (the one model every formulation reads), and returns :func:`from_system` of it:
the record keeps C&A's numbering and notation and holds the System as ``.mechanism``.  :func:`from_system`
reads any planar System of that shape (its docstring states the rule; what RCR cannot take is refused with a
pointer to :func:`rfda_teach.dae.forward_dynamics`), :func:`loop_part` cuts the loop out of a mechanism
that carries more bodies, :func:`state_from_system` reads a System state as (q, qd) and
:func:`absolute_accelerations` maps the loop's qdd back to the System's ydd
(:func:`rfda_teach.rcr.system_accelerations` composes them with RCR / ACS / GCL).

Inputs and states
-----------------
Every public function checks its arguments through :mod:`rfda_teach._check` and raises a
:class:`~rfda_teach.errors.ModelError` naming the argument; :func:`check_model`, :func:`check_q`,
:func:`check_body` and :func:`dependent_indices` are those checks, for every module that takes a loop.
A state (q, qd) must close its loop: every entry of the closure residual within :data:`CLOSURE_TOL`
= 1e-6 (rad, m) and every entry of J_c qd within 1e-6 max(1, |qd|); otherwise
:class:`~rfda_teach.errors.ConstraintViolationError` names the loop and the residual and points to
:func:`rfda_teach.rcr.solve_dependents` / :func:`rfda_teach.rcr.dependent_velocities`
(:func:`check_state`, :func:`check_closed`, :func:`check_series_states`; O(n), ``check=False`` skips it
in inner loops).

Examples
--------
>>> import numpy as np
>>> from rfda_teach import loops
>>> fb = loops.five_bar()
>>> fb.n, fb.m, fb.dependents
(5, 3, ('q2', 'q3', 'q5'))
>>> float(np.abs(loops.closure(fb, fb.q0)).max()) < 1e-14
True
>>> loops.closure_jacobian(fb, fb.q0).shape            # m x n
(3, 5)
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import _check
from . import system as _s
from .bodies import Body
from .coordinates import appendix_a
from .errors import ConstraintViolationError, ModelError
from .joints import Joint, joint_pose
from .models import state_from_joints
from .spatial import G0, planar_cross, planar_transform
from .summary import count_by_kind, html_table
from .system import Cut, State, System

__all__ = ["LoopJoint", "LoopMechanism", "LoopSeries", "five_bar", "four_bar", "loop_chain", "loop_series",
           "closure", "closure_jacobian", "dependent_indices", "check_model", "check_body", "check_q",
           "check_state", "check_closed", "check_series_states", "from_system", "state_from_system",
           "absolute_accelerations", "loop_part", "LoopPart"]

CLOSURE_TOL = 1e-6   # loop-closure tolerance of every state check (rad and m; velocities relative, see _consistent)


# ----------------------------------------------------------------------------- joint geometry

def _frame(p, a) -> np.ndarray:
    """F(p, a): the homogeneous 3 x 3 transform of a frame at point p turned by angle a."""
    return planar_transform(p, a, check=False)


def _motion(kind: str, q: float) -> np.ndarray:
    """M(q): a turn by q about z (revolute) or a slide by q along x (prismatic)."""
    if kind == "revolute":
        return _frame((0.0, 0.0), q)
    return np.array([[1.0, 0.0, q], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


def _inv(T: np.ndarray) -> np.ndarray:
    """The inverse of a planar rigid transform."""
    c, s, x, y = T[0, 0], T[1, 0], T[0, 2], T[1, 2]
    return np.array([[c, s, -c * x - s * y], [-s, c, s * x - c * y], [0.0, 0.0, 1.0]])


def _fixed(T: np.ndarray) -> np.ndarray:
    """T made read-only (a joint's constant frames are shared with every caller of :meth:`LoopJoint.joint_frame`)."""
    T.setflags(write=False)
    return T


def _sign(sign, where: str) -> float:
    """``sign`` checked: 1.0 for a joint as built, -1.0 for a joint worked backwards."""
    sign = _check.scalar(sign, "sign", where=where)
    if sign not in (1.0, -1.0):
        raise ModelError(f"{where}: sign is {sign}; give 1.0 (the joint as built) or -1.0 (worked backwards)")
    return sign


# ----------------------------------------------------------------------------- the records

@dataclass(frozen=True, eq=False)
class LoopJoint:
    """A one-dof planar joint, with the geometry conventions of :class:`rfda_teach.joints.Joint`.

    The joint frame sits at ``parent_point`` (parent axes) turned by ``parent_angle``; the child's
    joint point is ``child_point`` (child axes) and its joint frame is turned by ``child_angle``.
    A revolute joint turns the child frame by q about z, a prismatic joint slides it by q along the
    joint frame's x axis.

    Examples
    --------
    >>> LoopJoint("revolute", parent_point=(1.0, 0.0)).kind
    'revolute'
    """

    kind: str
    parent_point: object = (0.0, 0.0)
    child_point: object = (0.0, 0.0)
    parent_angle: float = 0.0
    child_angle: float = 0.0
    name: str = ""

    def __post_init__(self):
        _check.instance(self.name, str, "name", where="loops.LoopJoint", hint="give the coordinate's name, e.g. 'q1'")
        where = f"loops.LoopJoint {self.name!r}" if self.name else "loops.LoopJoint"
        _check.choice(self.kind, ("revolute", "prismatic"), "kind", where=where)
        for nm in ("parent_point", "child_point"):
            object.__setattr__(self, nm, _check.vector(getattr(self, nm), 2, nm, where=where,
                                                       hint="two finite numbers (x, y) in the body's axes"))
        for nm in ("parent_angle", "child_angle"):
            object.__setattr__(self, nm, _check.scalar(getattr(self, nm), nm, where=where))
        # constant joint frames, computed once (read-only): F(pp, pa), F(cp, ca) and its inverse
        object.__setattr__(self, "_Fp", _fixed(_frame(self.parent_point, self.parent_angle)))
        object.__setattr__(self, "_Fc", _fixed(_frame(self.child_point, self.child_angle)))
        object.__setattr__(self, "_Fci", _fixed(_inv(self._Fc)))

    def joint_frame(self, sign: float = 1.0, *, check: bool = True) -> np.ndarray:
        """The joint frame (homogeneous 3 x 3, read-only) in the axes of the body the joint hangs from in a
        tree: F(parent_point, parent_angle) in the parent's axes, or, for the joint worked backwards
        (``sign`` = -1.0, the child then being the inboard body), F(child_point, child_angle) in the child's
        axes.  ``check=False`` skips the check of ``sign``.

        Examples
        --------
        >>> jt = LoopJoint("revolute", parent_point=(1.0, 0.0), child_point=(-0.5, 0.0))
        >>> jt.joint_frame()[:2, 2], jt.joint_frame(-1.0)[:2, 2]
        (array([1., 0.]), array([-0.5,  0. ]))
        """
        if check:
            sign = _sign(sign, "loops.LoopJoint.joint_frame")
        return self._Fp if sign > 0 else self._Fc

    def transform(self, q, sign: float = 1.0, *, check: bool = True) -> np.ndarray:
        """The child's frame in the parent's axes at coordinate ``q``: F(pp, pa) M(q) F(cp, ca)^-1, M the turn
        by q about z (revolute) or the slide by q along x (prismatic); for ``sign`` = -1.0 (the joint worked
        backwards) the parent's frame in the child's axes, its inverse.  ``check=False`` skips the checks
        of ``q`` and ``sign`` (for the recursions).

        Examples
        --------
        >>> import numpy as np
        >>> jt = LoopJoint("prismatic")
        >>> jt.transform(0.5)[:2, 2]                  # slid 0.5 along x
        array([0.5, 0. ])
        >>> bool(np.allclose(jt.transform(0.5) @ jt.transform(0.5, -1.0), np.eye(3)))
        True
        """
        if check:
            where = "loops.LoopJoint.transform"
            q = _check.scalar(q, "q", where=where)
            sign = _sign(sign, where)
        if sign > 0:
            return self._Fp @ _motion(self.kind, q) @ self._Fci
        return self._Fc @ _motion(self.kind, -q) @ _inv(self._Fp)


@dataclass(frozen=True, eq=False)
class LoopMechanism:
    """A planar single closed loop of one-dof joints (see the module docstring for the numbering).

    ``bodies[k-1]`` is body k (k = 1..n-1); ``joints[k-1]`` is joint k (coordinate q_k).
    ``dependents`` is the default ACS selection and ``split`` the number of joints worked
    backwards in the GCL topology (:func:`rfda_teach.rcr.topology`).  ``mechanism`` is the one model
    this record is a view of (a :class:`~rfda_teach.system.System` with its cut joint, see
    :func:`from_system`), or None for a record written by hand.

    Examples
    --------
    >>> fb = five_bar()
    >>> fb.n, fb.m, fb.names
    (5, 3, ('q1', 'q2', 'q3', 'q4', 'q5'))
    """

    name: str
    bodies: tuple
    joints: tuple
    q0: object
    dependents: tuple
    split: int = 1
    gravity: object = (0.0, -G0)
    names: tuple = ()
    m: int = 3
    mechanism: object = None
    n: int = field(init=False)

    def __repr__(self) -> str:
        """One line: name, bodies, joints by kind, closure rows, dependents.

        Examples
        --------
        >>> five_bar()  # doctest: +ELLIPSIS
        LoopMechanism 'five-bar': 4 planar bodies; joints 3 revolute + 2 prismatic; ... dependents ('q2', 'q3', 'q5')
        """
        joints = count_by_kind(jt.kind for jt in self.joints)
        return (f"LoopMechanism {self.name!r}: {len(self.bodies)} planar bodies; joints {joints}; "
                f"{self.m} closure rows; dependents {tuple(self.dependents)}")

    def _repr_html_(self) -> str:
        """A table in a notebook (:func:`rfda_teach.summary.html_table`): the line of :meth:`__repr__`, then
        one row per joint in loop order (joint k connects body k-1 to body k, the ground at both ends; see
        the module docstring) with its coordinate, kind, q0 and whether it is a dependent of the ACS selection.

        Examples
        --------
        >>> fb = five_bar()
        >>> fb._repr_html_().count("<tr>") == 1 + fb.n
        True
        """
        def body(k):
            return "ground" if k in (0, self.n) else self.bodies[k - 1].name

        rows = [(k, nm, jt.kind, f"{body(k - 1)} – {body(k)}", f"{q + 0.0:.4g}",
                 "dependent" if nm in self.dependents else "independent")
                for k, (nm, jt, q) in enumerate(zip(self.names, self.joints, self.q0), start=1)]
        return html_table(repr(self), ("joint", "coordinate", "kind", "connects", "q0", "ACS selection"), rows,
                          "joints in loop order")

    def __post_init__(self):
        _check.instance(self.name, str, "name", where="loops.LoopMechanism", hint="give the mechanism a name")
        where = f"loops.LoopMechanism {self.name!r}"
        for nm, cls, hint in (("joints", LoopJoint, "a tuple of loops.LoopJoint, joint 1 first"),
                              ("bodies", Body, "a tuple of planar rfda_teach.bodies.Body, body 1 first")):
            seq = getattr(self, nm)
            if isinstance(seq, (str, bytes)) or not isinstance(seq, (tuple, list)):
                raise ModelError(f"{where}: {nm} must be {hint}, got {type(seq).__name__}")
            for i, x in enumerate(seq):
                _check.instance(x, cls, f"{nm}[{i}]", where=where, hint=f"{nm} must be {hint}")
            object.__setattr__(self, nm, tuple(seq))
        n = len(self.joints)
        if self.m != 3:
            raise ModelError(f"{where}: m = {self.m!r}; a planar loop has m = 3 closure constraints")
        if n < self.m + 1:
            raise ModelError(f"{where}: a planar loop needs at least {self.m + 1} joints, got {n}")
        if len(self.bodies) != n - 1:
            raise ModelError(f"{where}: a loop of {n} joints has {n - 1} bodies, got {len(self.bodies)}; "
                             "the last joint connects body n-1 back to the ground")
        for i, b in enumerate(self.bodies):
            check_body(b, f"bodies[{i}]", where=where)
        names = self.names
        if isinstance(names, (str, bytes)) or not isinstance(names, (tuple, list)) or \
                not all(isinstance(x, str) for x in names):
            raise ModelError(f"{where}: names must be a tuple of {n} distinct strings such as ('q1', ...), "
                             f"got {names!r}")
        names = tuple(names) or tuple(f"q{k + 1}" for k in range(n))
        if len(names) != n or len(set(names)) != n:
            raise ModelError(f"{where}: names must be {n} distinct strings (one per joint), got {names!r}")
        object.__setattr__(self, "q0", _check.vector(self.q0, n, "q0", where=where,
                                                     hint=f"{n} entries, one per joint"))
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "gravity", _check.vector(self.gravity, 2, "gravity", where=where,
                                                          hint="the planar gravity vector (g_x, g_y) in m/s^2"))
        object.__setattr__(self, "dependents", tuple(names[i] for i in _dep_indices(self, self.dependents,
                                                                                       where)))
        split = _check.positive_int(self.split, "split", where=where)
        if not 1 <= split <= n - self.m:
            raise ModelError(f"{where}: split = {split}; the GCL base branch needs "
                             f"between 1 and {n - self.m} joints")
        if self.mechanism is not None:
            _check.instance(self.mechanism, System, "mechanism", where=where,
                            hint="give the System this loop is a view of (see loops.from_system), or None")


@dataclass(frozen=True, eq=False)
class LoopSeries:
    """Loops coupled in a chain: loop 0 is based on the ground, loop j > 0 on body ``attach[j-1][1]``
    (1-based) of loop ``attach[j-1][0]``.  Each loop's geometry is given in its base body's frame,
    so each loop closes on its own; the loops are coupled through the base bodies' motion.
    ``mechanism`` is the one model the chain is a view of (:func:`from_system`), or None.

    Examples
    --------
    >>> s = loop_series(3)
    >>> len(s.loops), s.attach
    (3, ((0, 2), (1, 2)))
    """

    loops: tuple
    attach: tuple
    name: str = "loop series"
    mechanism: object = None

    def __repr__(self) -> str:
        """One line: name and its loops.

        Examples
        --------
        >>> loop_series(2)
        LoopSeries '2 coupled four-bars': 2 coupled loops (four-bar, four-bar)
        """
        return (f"LoopSeries {self.name!r}: {len(self.loops)} coupled loops "
                f"({', '.join(L.name for L in self.loops)})")

    def _repr_html_(self) -> str:
        """A table in a notebook (:func:`rfda_teach.summary.html_table`): the line of :meth:`__repr__`, then
        one row per loop with its name, joints, dependents and the body it is based on (the ground for
        loop 0, body ``attach[j-1][1]`` of loop ``attach[j-1][0]`` for loop j).

        Examples
        --------
        >>> loop_series(3)._repr_html_().count("<tr>")           # the header and the 3 loops
        4
        """
        based = ["ground"] + [f"body {b} ({self.loops[i].bodies[b - 1].name}) of loop {i}" for i, b in self.attach]
        rows = [(j, L.name, L.n, ", ".join(L.dependents), on) for j, (L, on) in enumerate(zip(self.loops, based))]
        return html_table(repr(self), ("loop", "name", "joints", "dependents", "based on"), rows, "loops")

    def __post_init__(self):
        _check.instance(self.name, str, "name", where="loops.LoopSeries", hint="give the series a name")
        where = f"loops.LoopSeries {self.name!r}"
        loops, attach = self.loops, self.attach
        for nm, x in (("loops", loops), ("attach", attach)):
            if isinstance(x, (str, bytes)) or not isinstance(x, (tuple, list)):
                raise ModelError(f"{where}: {nm} must be a tuple, got {type(x).__name__}; give loops as a tuple of "
                                 "loops.LoopMechanism and attach as a tuple of (loop, body) pairs")
        if not loops:
            raise ModelError(f"{where}: loops is empty; give at least one loops.LoopMechanism")
        for j, L in enumerate(loops):
            _check.instance(L, LoopMechanism, f"loops[{j}]", where=where, hint="every loop is a loops.LoopMechanism")
        if len(attach) != len(loops) - 1:
            raise ModelError(f"{where}: {len(loops)} loops need {len(loops) - 1} attachments, got {len(attach)}")
        pairs = []
        for j, ab in enumerate(attach, start=1):
            ok = isinstance(ab, (tuple, list)) and len(ab) == 2 and all(
                isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in ab)
            if not ok:
                raise ModelError(f"{where}: attach[{j - 1}] must be a pair of integers (loop, body), got {ab!r}")
            i, b = int(ab[0]), int(ab[1])
            if not 0 <= i < j:
                raise ModelError(f"{where}: loop {j} must be based on a body of an earlier loop, got loop {i}")
            if not 1 <= b <= len(loops[i].bodies):
                raise ModelError(f"{where}: loop {i} has no body {b} (attach[{j - 1}]); its bodies are "
                                 f"1..{len(loops[i].bodies)}")
            pairs.append((i, b))
        g = loops[0].gravity
        for j, L in enumerate(loops):
            if not np.array_equal(L.gravity, g):
                raise ModelError(f"{where}: loops[{j}] has gravity {L.gravity} but loops[0] has {g}; the loops of "
                                 "one series share one gravity")
        object.__setattr__(self, "loops", tuple(loops))
        object.__setattr__(self, "attach", tuple(pairs))
        if self.mechanism is not None:
            _check.instance(self.mechanism, System, "mechanism", where=where,
                            hint="give the System this chain of loops is a view of (see loops.from_system), or None")


# ----------------------------------------------------------------------------- input checks (one layer)

def check_model(model, *, where: str = "") -> LoopMechanism:
    """``model`` itself when it is a :class:`LoopMechanism`, else a :class:`~rfda_teach.errors.ModelError`
    that says how to build one: the first check of every function that takes a loop.

    Examples
    --------
    >>> check_model(five_bar()).name
    'five-bar'
    >>> check_model("five-bar", where="rcr.accelerations")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: rcr.accelerations: model must be a LoopMechanism, got str; build one with ...
    """
    return _check.instance(model, LoopMechanism, "model", where=where or "loops.check_model",
                           hint="build one with rcr.five_bar(), rcr.four_bar(), rcr.loop_chain(n) or "
                                "rcr.LoopMechanism(...)")


def _series(series, where: str) -> LoopSeries:
    return _check.instance(series, LoopSeries, "series", where=where,
                           hint="build one with rcr.loop_series(k) or rcr.LoopSeries(loops, attach)")


def check_body(body, what: str = "body", *, where: str = "") -> Body:
    """``body`` itself when it is a planar :class:`rfda_teach.bodies.Body`, else a
    :class:`~rfda_teach.errors.ModelError` naming it as ``what``.

    Examples
    --------
    >>> import numpy as np
    >>> check_body(Body("planar", 1.0, 0.1)).kind
    'planar'
    >>> check_body(Body("spatial", 1.0, np.eye(3)), where="rcr.spatial_inertia")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: rcr.spatial_inertia: body is a 'spatial' body; a planar loop needs ...
    """
    where = where or "loops.check_body"
    what = _check.instance(what, str, "what", where=where)
    _check.instance(body, Body, what, where=where, hint="give a rfda_teach.bodies.Body('planar', mass, J)")
    if body.kind != "planar":
        raise ModelError(f"{where}: {what} is a {body.kind!r} body; a planar loop needs Body('planar', mass, J)")
    return body


def check_q(model, q, what: str = "q", *, where: str = "") -> np.ndarray:
    """``q`` as a finite float vector with one entry per coordinate of ``model`` (a
    :class:`LoopMechanism`), else a :class:`~rfda_teach.errors.ModelError` naming it as ``what``; for
    positions, speeds, accelerations or joint forces alike.  The loop need not close at ``q``.

    Examples
    --------
    >>> check_q(five_bar(), [0.0, 1, 2, 3, 4])
    array([0., 1., 2., 3., 4.])
    >>> check_q(five_bar(), [0.0, 1.0], "qd", where="rcr.energy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: rcr.energy: qd has shape (2,); it must be (5,) (5 entries, one per coordinate ...)
    """
    where = where or "loops.check_q"
    check_model(model, where=where)
    what = _check.instance(what, str, "what", where=where)
    return _check_q(model, q, what, where)


def _check_q(model, q, what: str = "q", where: str = "") -> np.ndarray:
    """:func:`check_q` for a model known to be a :class:`LoopMechanism`."""
    where = where or f"loop {model.name!r}"
    return _check.vector(q, model.n, what, where=where,
                         hint=f"{model.n} entries, one per coordinate {', '.join(model.names)}")


def dependent_indices(model, dependents, *, where: str = "") -> tuple:
    """A dependent set as sorted 0-based coordinate indices; ``dependents`` holds coordinate names
    (``'q2'``) or 1-based numbers, each at most once (any number of them: a method checks how many it needs).

    Examples
    --------
    >>> dependent_indices(five_bar(), ("q5", "q2", 3))
    (1, 2, 4)
    """
    where = where or "loops.dependent_indices"
    check_model(model, where=where)
    return _dep_indices(model, dependents, where)


def _dep_indices(model, deps, where: str = "") -> tuple:
    """Dependent coordinates as sorted 0-based indices; accepts names ('q2') or 1-based ints."""
    where = where or f"loop {model.name!r}"
    if isinstance(deps, (str, bytes)) or not isinstance(deps, (tuple, list, np.ndarray)):
        example = model.dependents if isinstance(model.dependents, tuple) and \
            all(isinstance(d, str) for d in model.dependents) else tuple(model.names[-model.m:])
        raise ModelError(f"{where}: dependents must be a tuple of coordinate names from {model.names}, e.g. "
                         f"{example}, got {deps!r}")
    out = []
    for d in deps:
        if isinstance(d, str):
            if d not in model.names:
                raise ModelError(f"{where}: unknown coordinate {d!r} in dependents; use names from {model.names}")
            out.append(model.names.index(d))
        elif isinstance(d, (numbers.Integral, np.integer)) and not isinstance(d, (bool, np.bool_)):
            k = int(d) - 1
            if not 0 <= k < len(model.joints):
                raise ModelError(f"{where}: coordinate number {d} in dependents is out of range "
                                 f"1..{len(model.joints)}")
            out.append(k)
        else:
            raise ModelError(f"{where}: dependents entry {d!r} is neither a coordinate name nor a 1-based "
                             f"number; use names from {model.names}")
    if len(set(out)) != len(out):
        raise ModelError(f"{where}: dependent set {tuple(deps)} repeats a coordinate")
    return tuple(sorted(out))


# ----------------------------------------------------------------------------- loop closure

def _chain_frames(model, q) -> list:
    """Frames (homogeneous 3 x 3, world) of bodies 1..n-1 and of the phantom, outward along the chain."""
    T, out = np.eye(3), []
    for jt, qk in zip(model.joints, q):
        T = T @ jt.transform(qk, check=False)
        out.append(T)
    return out


def _closure(model, q) -> np.ndarray:
    Tn = _chain_frames(model, q)[-1]
    return np.array([np.arctan2(Tn[1, 0], Tn[0, 0]), Tn[0, 2], Tn[1, 2]])


def _closure_jacobian(model, q) -> np.ndarray:
    T = _chain_frames(model, q)
    xn = T[-1][:2, 2]
    cols = []
    for k, jt in enumerate(model.joints):
        J = (np.eye(3) if k == 0 else T[k - 1]) @ jt.joint_frame(check=False)    # joint k's frame, world
        if jt.kind == "revolute":
            cols.append([1.0, *planar_cross(1.0, xn - J[:2, 2], check=False)])     # (1, z x (x_n - o_k))
        else:
            cols.append([0.0, *J[:2, 0]])                                          # (0, e_k)
    return np.array(cols).T


def closure(model: LoopMechanism, q, *, check: bool = True) -> np.ndarray:
    """Loop-closure residual (theta, x, y) of the phantom body relative to the base body (C&A eq. 23); it
    depends on the positions only.  ``check=False`` skips the input checks (for inner loops).

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar(); q = fb.q0.copy(); q[3] += 0.1
    >>> np.round(closure(fb, q), 12) + 0.0       # sliding the sleeve alone opens the loop along the guide
    array([0. , 0.1, 0. ])
    """
    if _check.flag(check, "check", where="loops.closure"):
        q = check_q(model, q, "q", where="loops.closure")
    return _closure(model, q)


def closure_jacobian(model: LoopMechanism, q, *, check: bool = True) -> np.ndarray:
    """d(closure)/dq, 3 x n: column k is a_k = (^kS^n)^T P_k^k (C&A eq. 26, 31), the phantom's velocity
    (omega_z, v_x, v_y) for a unit rate of joint k: (1, z x (x_n - o_k)) for a revolute joint at o_k,
    (0, e_k) for a prismatic joint along e_k.  ``check=False`` skips the input checks (for inner loops).

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar(); Jc = closure_jacobian(fb, fb.q0)
    >>> np.round(Jc[:, 3:], 12) + 0.0            # q4 and q5 slide along the same guide
    array([[0., 0.],
           [1., 1.],
           [0., 0.]])
    """
    if _check.flag(check, "check", where="loops.closure_jacobian"):
        q = check_q(model, q, "q", where="loops.closure_jacobian")
    return _closure_jacobian(model, q)


# ----------------------------------------------------------------------------- states

def _consistent(model, q, qd=None, *, where: str = "", tol: float = CLOSURE_TOL) -> None:
    """Refuse a state that does not close the loop, in O(n).

    Positions: every entry of the closure residual (theta, x, y) of C&A eq. (23) must be at most ``tol``
    (rad, m).  Velocities: |J_c qd|_max <= tol max(1, |qd|_max), J_c the closure Jacobian (C&A eq. 26, 31).
    """
    where = where or f"loop {model.name!r}"
    res = _closure(model, q)
    err = float(np.abs(res).max())
    if not err <= tol:
        raise ConstraintViolationError(
            f"{where}: q does not close loop {model.name!r} (closure residual (theta, x, y) = "
            f"{np.array2string(res, precision=3)}, max {err:.1e} > tolerance {tol:g}); solve the dependents "
            f"{model.dependents} first with rcr.solve_dependents(model, q)")
    if qd is None:
        return
    vr = _closure_jacobian(model, q) @ qd
    verr = float(np.abs(vr).max())
    if not verr <= tol * max(1.0, float(np.abs(qd).max())):
        raise ConstraintViolationError(
            f"{where}: qd violates the velocity constraint of loop {model.name!r} (|J_c qd| = {verr:.1e} > "
            f"tolerance {tol:g} max(1, |qd|)); make it consistent with rcr.dependent_velocities(model, q, qd)")


def _check_state(model, q, qd, where: str, check: bool) -> tuple:
    """q and qd checked as vectors and, unless ``check`` is False, for closing the loop."""
    q = _check_q(model, q, "q", where)
    qd = _check_q(model, qd, "qd", where)
    if _check.flag(check, "check", where=where):
        _consistent(model, q, qd, where=where)
    return q, qd


def check_state(model, q, qd, *, where: str = "", check: bool = True) -> tuple:
    """``(q, qd)`` of a loop checked: ``model`` a :class:`LoopMechanism`, q and qd finite vectors with one
    entry per coordinate, and unless ``check`` is False the loop closed at q
    (C&A eq. (23), tolerance :data:`CLOSURE_TOL`) and qd consistent with it (C&A eq. (26), (31)); otherwise a
    :class:`~rfda_teach.errors.ConstraintViolationError` that says which rcr call repairs the state.
    :func:`check_closed` checks q alone.

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar()
    >>> q, qd = check_state(fb, fb.q0, np.zeros(5))
    >>> check_state(fb, fb.q0 + 0.1, np.zeros(5))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ConstraintViolationError: loops.check_state: q does not close loop 'five-bar' ...
    """
    where = where or "loops.check_state"
    check_model(model, where=where)
    return _check_state(model, q, qd, where, check)


def check_closed(model, q, *, where: str = "", check: bool = True) -> np.ndarray:
    """``q`` of a loop checked as :func:`check_state` checks it, without speeds: a finite vector with one
    entry per coordinate and, unless ``check`` is False, the loop closed at q (C&A eq. (23), tolerance
    :data:`CLOSURE_TOL`), else a :class:`~rfda_teach.errors.ConstraintViolationError`.  For a function
    that computes the speeds itself, e.g. :func:`rfda_teach.rcr.dependent_velocities`.

    Examples
    --------
    >>> fb = five_bar()
    >>> check_closed(fb, fb.q0).shape
    (5,)
    >>> check_closed(fb, fb.q0 + 0.1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ConstraintViolationError: loops.check_closed: q does not close loop 'five-bar' ...
    """
    where = where or "loops.check_closed"
    check_model(model, where=where)
    q = _check_q(model, q, "q", where)
    if _check.flag(check, "check", where=where):
        _consistent(model, q, where=where)
    return q


def check_series_states(series, qs, qds=None, *, where: str = "", check: bool | None = True) -> tuple:
    """One checked ``(q, qd)`` per loop of a :class:`LoopSeries`, each as :func:`check_state` checks
    it (``check=None``: only the qs, as vectors, in any configuration).

    Examples
    --------
    >>> s = loop_series(2)
    >>> qs, qds = check_series_states(s, [L.q0 for L in s.loops], None, check=None)
    >>> len(qs)
    2
    """
    where = where or "loops.check_series_states"
    _series(series, where)
    k = len(series.loops)
    for nm, x in (("qs", qs), ("qds", qds)):
        if x is None and nm == "qds" and check is None:
            continue
        if isinstance(x, (str, bytes)) or not isinstance(x, (tuple, list, np.ndarray)) or len(x) != k:
            raise ModelError(f"{where}: {nm} must be a list of {k} vectors, one per loop of {series.name!r} "
                             f"(give one q and one qd per loop), got {x!r:.60}")
    out_q, out_qd = [], []
    for j, L in enumerate(series.loops):
        if check is None:                                   # positions only, any configuration
            out_q.append(_check_q(L, qs[j], "q", f"{where} (loop {j})"))
            continue
        q, qd = _check_state(L, qs[j], qds[j], f"{where} (loop {j})", check)
        out_q.append(q)
        out_qd.append(qd)
    return out_q, out_qd


# ----------------------------------------------------------------------------- the one model

_LOOP_KIND = {"revolute2d": "revolute", "prismatic2d": "prismatic"}
_SYSTEM_TYPE = {"revolute": "revolute2d", "prismatic": "prismatic2d"}
_INSTEAD = "use dae.forward_dynamics(system, state) (D&G eq. (7)), which takes any System"


def _angle(R) -> float:
    """The angle of a planar rotation matrix, in (-pi, pi]."""
    return float(np.arctan2(R[1, 0], R[0, 0]))


class _Order(NamedTuple):
    """How a System's loop is walked: ``steps[k]`` = (source, index, sign) of loop joint k+1 (source
    "tree": the System's joint ``index``; "cut": its cut ``index``; sign -1 for a joint walked from child to
    parent), ``bodies[k]`` the System body that is loop body k+1, ``base`` the body the loop is based on
    (-1: the ground)."""

    steps: tuple
    bodies: tuple
    base: int = -1


def _refuse(where: str, system, what: str) -> ModelError:
    return ModelError(f"{where}: system {system.name!r} {what}; RCR/ACS/GCL (C&A) take planar loops of revolute "
                      "and prismatic joints (one loop through the ground, or a chain of loops each based on a body "
                      f"of an earlier one) and nothing else; {_INSTEAD}")


def _path(system, b: int) -> list:
    """b, its parent, ..., its root (empty for the ground)."""
    out = []
    while b >= 0:
        out.append(b)
        b = system.parents[b]
    return out


def _common(system, where: str) -> System:
    """The checks every loop view makes: a planar System of revolute2d / prismatic2d joints with cut joints and
    no force elements."""
    _check.instance(system, System, "system", where=where,
                    hint="give a rfda_teach.system.System with one cut joint, e.g. loops.five_bar().mechanism")
    if system.kind != "planar":
        raise _refuse(where, system, f"has {system.kind} bodies (a planar loop needs Body('planar', ...) and "
                                     "revolute2d / prismatic2d joints)")
    if system.forces:
        raise _refuse(where, system, f"has {len(system.forces)} force element(s) (LoopMechanism has none)")
    if not system.cuts:
        raise _refuse(where, system, "has no cut joint: it is a tree, not a closed loop (rfda.forward_dynamics "
                                     "solves it recursively)")
    for what, jt in [(f"joint {k} ({jt.name!r})", jt) for k, jt in enumerate(system.joints)] + \
            [(f"cut joint {c.name!r}", c.joint) for c in system.cuts]:
        if jt.type not in _LOOP_KIND:
            raise _refuse(where, system, f"has a {jt.type} {what} (one-dof revolute2d and prismatic2d joints only)")
    return system


def _series_order(system, where: str) -> tuple:
    """The loops of a System with several cut joints, as :func:`from_system` reads a chain of coupled loops:
    ([_Order per cut], attach)."""
    orders, owner = [], {}
    for j, cut in enumerate(system.cuts):
        path, b = [], cut.parent
        while b != cut.child:
            if b < 0:
                raise _refuse(where, system, f"has a cut joint {cut.name!r} whose child (body {cut.child}) is not "
                                             f"below its parent (body {cut.parent}) in the tree; in a chain of "
                                             "loops each cut closes its loop from the loop's last body onto its base")
            path.append(b)
            b = system.parents[b]
        bodies = path[::-1]
        if j == 0 and cut.child >= 0 or j > 0 and cut.child not in owner:
            raise _refuse(where, system, f"has a cut joint {cut.name!r} whose loop is based on "
                                         f"{'body ' + str(cut.child) if cut.child >= 0 else 'the ground'}; in a "
                                         "chain of loops the first cut's loop is based on the ground and every "
                                         "later one on a body of an earlier loop")
        if len(bodies) < 3:
            raise _refuse(where, system, f"has a loop of {len(bodies) + 1} joints (cut {cut.name!r}; a planar "
                                         "loop needs at least 4)")
        for pos, b in enumerate(bodies, start=1):
            if b in owner:
                raise _refuse(where, system, f"has body {b} on two loops")
            owner[b] = (j, pos)
        orders.append(_Order(tuple(("tree", b, 1.0) for b in bodies) + (("cut", j, 1.0),), tuple(bodies),
                             cut.child))
    hanging = sorted(set(range(system.n)) - set(owner))
    if hanging:
        raise _refuse(where, system, f"has bodies {hanging} that are not on a loop")
    return orders, tuple(owner[o.base] for o in orders[1:])


def _loop_order(system, where: str) -> _Order:
    """The loop of a System that :func:`from_system` accepts, walked from the ground (see its rule)."""
    _common(system, where)
    if len(system.cuts) != 1:
        raise _refuse(where, system, f"has {len(system.cuts)} cut joints (several loops: give it to "
                                     "loops.from_system, which reads a chain of coupled loops as a LoopSeries)")
    cut = system.cuts[0]
    pa, pb = _path(system, cut.parent), _path(system, cut.child)
    shared = set(pa) & set(pb)
    if shared:
        raise _refuse(where, system, f"closes its loop on body {max(shared)} (the cut's two sides share the bodies "
                                     f"{sorted(shared)} below it, so the loop is based on a moving body)")
    hanging = sorted(set(range(system.n)) - set(pa) - set(pb))
    if hanging:
        raise _refuse(where, system, f"has bodies {hanging} that are not on the loop (loops.loop_part(system) "
                                     "keeps the loop alone)")
    if cut.parent >= 0:                     # ground -> ... -> cut.parent, the cut, cut.child -> ... -> ground
        steps = [("tree", b, 1.0) for b in pa[::-1]] + [("cut", 0, 1.0)] + [("tree", b, -1.0) for b in pb]
        bodies = pa[::-1] + pb
    else:                                   # ground -> ... -> cut.child, then the cut walked backwards
        steps = [("tree", b, 1.0) for b in pb[::-1]] + [("cut", 0, -1.0)]
        bodies = pb[::-1]
    if len(steps) < 4:
        raise _refuse(where, system, f"has a loop of {len(steps)} joints (a planar loop needs at least 4)")
    return _Order(tuple(steps), tuple(bodies))


def _loop_joint(jt: Joint, sign: float) -> LoopJoint:
    """A System joint as a loop joint, walked backwards (parent and child sides swapped, q -> -q) if sign < 0."""
    pp, cp, pa, ca = jt.parent_point, jt.child_point, _angle(jt.parent_frame), _angle(jt.child_frame)
    if sign < 0:
        pp, cp, pa, ca = cp, pp, ca, pa
    return LoopJoint(_LOOP_KIND[jt.type], pp, cp, pa, ca, jt.name)


def _coordinates(model, system, order, state) -> tuple:
    """(q, qd) of the loop joints read from the absolute state: q from the relative pose of the two joint
    frames, qd its time derivative (the relative angular rate, or the slide rate along the moving axis)."""
    y, yd = state

    def frame(b):
        if b < 0:
            return np.eye(3)
        x = y[system.pos_slices[b]]
        return _frame(x[:2], x[2])

    def vel(b):
        return np.zeros(3) if b < 0 else yd[system.vel_slices[b]]

    ends = (order.base, *order.bodies, order.base)
    T, V = [frame(b) for b in ends], [vel(b) for b in ends]
    q, qd = np.zeros(model.n), np.zeros(model.n)
    for k, jt in enumerate(model.joints):
        A, B = T[k] @ jt.joint_frame(check=False), T[k + 1] @ jt._Fc      # joint frames on the two sides
        M = _inv(A) @ B
        va, vb = V[k], V[k + 1]
        if jt.kind == "revolute":
            q[k], qd[k] = np.arctan2(M[1, 0], M[0, 0]), vb[2] - va[2]
            continue
        e, d = A[:2, 0], B[:2, 2] - A[:2, 2]
        vO = va[:2] + planar_cross(va[2], A[:2, 2] - T[k][:2, 2], check=False)
        vP = vb[:2] + planar_cross(vb[2], B[:2, 2] - T[k + 1][:2, 2], check=False)
        q[k], qd[k] = M[0, 2], planar_cross(va[2], e, check=False) @ d + e @ (vP - vO)
    return q, qd


def _assemble(model, tol: float = 1e-13, max_iter: int = 60) -> np.ndarray | None:
    """q0 closed from the zero configuration by minimum-norm Newton steps on the closure (C&A eq. 23, 26)."""
    q = np.zeros(model.n)
    for _ in range(max_iter):
        r = _closure(model, q)
        if np.abs(r).max() < tol:
            break
        q = q - np.linalg.lstsq(_closure_jacobian(model, q), r, rcond=None)[0]
    if not np.abs(_closure(model, q)).max() < 1e-10:
        return None
    rev = np.array([jt.kind == "revolute" for jt in model.joints])
    q[rev] = (q[rev] + np.pi) % (2 * np.pi) - np.pi              # angles in [-pi, pi)
    return q


def _best_dependents(model, q) -> tuple:
    """q_n and the two coordinates whose closure-Jacobian columns (with q_n's) have the largest smallest
    singular value at q: the best-conditioned ACS selection (C&A §4)."""
    Jc = _closure_jacobian(model, q)
    n = model.n
    best, pick = -1.0, (n - 3, n - 2)
    for i in range(n - 1):
        for j in range(i + 1, n - 1):
            s = float(np.linalg.svd(Jc[:, [i, j, n - 1]], compute_uv=False)[-1])
            if s > best * (1.0 + 1e-9):
                best, pick = s, (i, j)
    return (*pick, n - 1)


def from_system(system, *, q0=None, state=None, dependents=None, split: int = 1,
                name=None) -> LoopMechanism | LoopSeries:
    """Critchley & Anderson's loop record as a view of the one model: the :class:`LoopMechanism` of a planar
    :class:`~rfda_teach.system.System` closed by one cut joint, with ``.mechanism`` = ``system``.

    The rule.  The system must be planar, without force elements, its tree one or two chains of
    ``revolute2d`` / ``prismatic2d`` joints from the ground, closed by one cut joint of the same kinds
    (:class:`~rfda_teach.system.Cut`) into one loop through the ground: every body on the loop.  The loop
    is walked from the ground out along the chain that ends at the cut's parent, through the cut, and back to
    the ground along the chain of the cut's child (joints walked from child to parent change sides and
    the sign of their coordinate); when the cut's parent is the ground, out along the child's chain and back
    through the cut, walked backwards.  This is the inverse of :func:`rfda_teach.loopref.to_system`.
    Anything else (bodies off the loop, a loop based on a moving body, several cuts, other joint kinds,
    spatial bodies, force elements) raises a :class:`~rfda_teach.errors.ModelError` that points to
    :func:`rfda_teach.dae.forward_dynamics`; :func:`loop_part` cuts the loop out of a bigger mechanism.

    ``q0`` (n joint coordinates in loop order) or ``state`` (a System state, read as
    :func:`state_from_system` reads it) give the record's ``q0``; with neither, the zero configuration
    closed by minimum-norm Newton steps on C&A eq. (23).  ``dependents`` (default: q_n and the two
    coordinates whose closure-Jacobian columns, C&A eq. (26), are best conditioned at q0), ``split`` and
    ``name`` (default the system's) as in :class:`LoopMechanism`.

    Several cut joints: a chain of coupled loops, returned as a :class:`LoopSeries` (the inverse of
    :func:`rfda_teach.loopref.to_system` for a series).  Cut j closes loop j from its last body (the cut's
    parent) onto its base body (the cut's child, an ancestor of the parent): the ground for the first cut,
    a body of an earlier loop for the others; the tree path between them is the loop, walked from the base,
    and every body lies on exactly one loop.  ``q0`` and ``dependents`` are then lists, one entry per loop;
    loop j is named ``"loop j"``.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import loopref
    >>> fb = five_bar()
    >>> m = from_system(loopref.to_system(fb), q0=fb.q0, dependents=fb.dependents)
    >>> m.mechanism.cuts[0].joint.type, [jt.kind for jt in m.joints] == [jt.kind for jt in fb.joints]
    ('prismatic2d', True)
    >>> bool(np.allclose(closure_jacobian(m, m.q0), closure_jacobian(fb, fb.q0), atol=1e-12))
    True
    >>> from_system(loop_series(2).mechanism)             # two cut joints: a chain of two loops
    LoopSeries '2 coupled four-bars': 2 coupled loops (loop 0, loop 1)
    """
    where = "loops.from_system"
    _common(system, where)
    name = system.name if name is None else name
    if q0 is not None and state is not None:
        raise ModelError(f"{where}: give q0 or state, not both")
    if state is not None:
        state = _s.check_state(system, state)
    if len(system.cuts) == 1:
        return _one_loop(system, _loop_order(system, where), name, q0, state, dependents, split, system, where)
    return _series_view(system, *_series_order(system, where), name, q0, state, dependents, split, where)


def _series_view(system, orders, attach, name, q0, state, dependents, split, where) -> LoopSeries:
    """The :class:`LoopSeries` of :func:`from_system`, one loop per cut joint."""
    k = len(orders)
    for nm, x in (("q0", q0), ("dependents", dependents)):
        if x is not None and (isinstance(x, (str, bytes)) or not isinstance(x, (tuple, list)) or len(x) != k):
            raise ModelError(f"{where}: system {system.name!r} is a chain of {k} loops; {nm} must be a list of "
                             f"{k} entries, one per loop (cut joint), got {x!r:.60}")
    loops_ = tuple(_one_loop(system, o, f"loop {j}", None if q0 is None else q0[j], state,
                             None if dependents is None else dependents[j], split, None, where)
                   for j, o in enumerate(orders))
    return LoopSeries(loops_, attach, name=name, mechanism=system)


def _one_loop(system, order, name, q0, state, dependents, split, mechanism, where) -> LoopMechanism:
    """One loop of :func:`from_system`: its joints and bodies in loop order, q0 and the dependents."""
    n = len(order.steps)
    joints = tuple(_loop_joint(system.joints[i] if src == "tree" else system.cuts[i].joint, sg)
                   for src, i, sg in order.steps)
    bodies = tuple(system.bodies[b] for b in order.bodies)
    draft = LoopMechanism(name, bodies, joints, np.zeros(n) if q0 is None else q0,
                          tuple(range(n - 2, n + 1)), split=split, gravity=system.gravity)
    if state is not None:
        q = _coordinates(draft, system, order, state)[0]
    elif q0 is None:
        q = _assemble(draft)
        if q is None:
            raise ModelError(f"{where}: Newton's method did not close loop {name!r} from the zero configuration; "
                             "give q0= (joint coordinates that close it) or state=")
    else:
        q = draft.q0
    deps = tuple(d + 1 for d in _best_dependents(draft, q)) if dependents is None else dependents
    return LoopMechanism(name, bodies, joints, q, deps, split=split, gravity=system.gravity, mechanism=mechanism)


def _viewed(model, where: str) -> list:
    """``model`` checked to be a loop or a chain of loops with ``.mechanism``: [(loop, its order), ...]."""
    _check.instance(model, (LoopMechanism, LoopSeries), "model", where=where,
                    hint="build one with loops.from_system(system), e.g. loops.five_bar() or loops.loop_series(2)")
    if model.mechanism is None:
        raise ModelError(f"{where}: {model.name!r} has no .mechanism (it was written by hand); build it from "
                         "its System with loops.from_system(system)")
    if isinstance(model, LoopMechanism):
        return [(model, _loop_order(model.mechanism, where))]
    return list(zip(model.loops, _series_order(_common(model.mechanism, where), where)[0]))


def state_from_system(model, state, *, check: bool = True) -> tuple:
    """(q, qd): the loop coordinates and rates of a state of ``model.mechanism`` (the System the record is a
    view of, :func:`from_system`): q_k the relative angle or slide of joint k's two frames, qd_k its rate
    (C&A's generalized speeds u_k = qd_k), revolute angles on the 2 pi branch nearest ``model.q0``; for a
    :class:`LoopSeries` the lists (qs, qds), one entry per loop, each relative to its base body.
    ``check`` (default) first refuses a state that violates a joint of the System
    (:func:`rfda_teach.system.check_consistency`, :class:`~rfda_teach.errors.ConstraintViolationError`).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import loopref
    >>> fb = five_bar(); qd = np.array([1.0, -0.6, 0.6, 0.0, 0.0])
    >>> qd = qd - np.linalg.pinv(closure_jacobian(fb, fb.q0)) @ closure_jacobian(fb, fb.q0) @ qd
    >>> q, qd2 = state_from_system(fb, loopref.chain_state(fb, fb.q0, qd))
    >>> bool(np.allclose(q, fb.q0, atol=1e-12) and np.allclose(qd2, qd, atol=1e-12))
    True
    """
    where = "loops.state_from_system"
    views = _viewed(model, where)
    system = model.mechanism
    state = _s.check_consistency(system, state) if _check.flag(check, "check", where=where) else \
        _s.check_state(system, state)
    qs, qds = [], []
    for L, order in views:
        q, qd = _coordinates(L, system, order, state)
        rev = np.array([jt.kind == "revolute" for jt in L.joints])
        q[rev] += 2 * np.pi * np.round((L.q0[rev] - q[rev]) / (2 * np.pi))
        qs.append(q)
        qds.append(qd)
    return (qs[0], qds[0]) if isinstance(model, LoopMechanism) else (qs, qds)


def absolute_accelerations(model, state, qdd) -> np.ndarray:
    """The System's absolute accelerations ydd (the layout of :func:`rfda_teach.dae.forward_dynamics`) from
    the loop's qdd: body by body from the root, ydd_k = B_k ydd_j + H_k qdd_k + d_k (D&G eq. (61)
    differentiated, d_k of D&G eq. (5), :func:`rfda_teach.coordinates.appendix_a`), each tree joint's qdd_k
    the loop coordinate's (sign changed for a joint walked backwards).  For a :class:`LoopSeries`, ``qdd``
    is a list with one vector per loop.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import dae, loopref, rcr
    >>> fb = five_bar(); st = loopref.chain_state(fb, fb.q0, np.zeros(5))
    >>> ydd = absolute_accelerations(fb, st, rcr.accelerations(fb, fb.q0, np.zeros(5)))
    >>> bool(np.allclose(ydd, dae.forward_dynamics(fb.mechanism, st).ydd, atol=1e-12))
    True
    """
    where = "loops.absolute_accelerations"
    views = _viewed(model, where)
    system = model.mechanism
    y, yd = _s.check_state(system, state)
    if isinstance(model, LoopSeries):
        qdd = check_series_states(model, qdd, None, where=where, check=None)[0]
    else:
        qdd = [_check_q(model, qdd, "qdd", where)]
    qt = np.zeros(system.n)
    for (L, order), qL in zip(views, qdd):
        for k, (src, i, sg) in enumerate(order.steps):
            if src == "tree":
                qt[i] = sg * qL[k]
    tr = _s.terms(system, State(y, yd), check=False)
    ydd = np.zeros(system.n_vel)
    vs = system.vel_slices
    for k in system.topology.order:
        j, tk = system.parents[k], tr.joint[k]
        _, _, B, H, d = appendix_a(tk.G, tk.G_d, tk.Q, tk.Q_d, tk.gamma, tk.gamma_d, check=False)
        ydd[vs[k]] = H @ qt[k:k + 1] + d + (0.0 if j < 0 else B @ ydd[vs[j]])      # D&G eq. (61), (5)
    return ydd


class LoopPart(NamedTuple):
    """:func:`loop_part`'s answer: the loop-only ``system``, the indices ``bodies`` of its bodies in the
    original system, and the original ``state`` restricted to them (None when none was given)."""

    system: object
    bodies: tuple
    state: object = None


def loop_part(system, state=None) -> LoopPart:
    """The loop-only sub-mechanism that RCR sees: the cut joint's two bodies and their ancestors, every other
    body (an arm carried by the loop, say) and the force elements on it removed, bodies renumbered in their
    order.  The loop's dynamics without the removed bodies' loads; :func:`from_system` takes the result when
    the loop passes through the ground.

    Examples
    --------
    >>> from rfda_teach.joints import Joint
    >>> fb = five_bar().mechanism
    >>> arm = Joint("revolute2d", parent_point=(0.5, 0.0), child_point=(-0.5, 0.0))
    >>> big = System(fb.parents + (0,), fb.bodies + (Body("planar", 2.0, 0.2),), fb.joints + (arm,),
    ...              fb.gravity, name="five-bar with an arm", cuts=fb.cuts)
    >>> part = loop_part(big)
    >>> part.bodies, from_system(part.system, q0=five_bar().q0).n
    ((0, 1, 2, 3), 5)
    """
    where = "loops.loop_part"
    _check.instance(system, System, "system", where=where,
                    hint="give a rfda_teach.system.System with one cut joint")
    if len(system.cuts) != 1:
        raise ModelError(f"{where}: system {system.name!r} has {len(system.cuts)} cut joints; loop_part takes a "
                         f"system closed by one cut joint; {_INSTEAD}")
    cut = system.cuts[0]
    keep = tuple(sorted(set(_path(system, cut.parent)) | set(_path(system, cut.child))))
    new = {b: i for i, b in enumerate(keep)}
    new[-1] = -1
    forces = tuple(f for f in system.forces if f.a in new and f.b in new)
    forces = tuple(dataclasses.replace(f, a=new[f.a], b=new[f.b]) for f in forces)
    part = System(tuple(new[system.parents[b]] for b in keep), tuple(system.bodies[b] for b in keep),
                  tuple(system.joints[b] for b in keep), system.gravity, name=f"{system.name} (loop part)",
                  cuts=(Cut(new[cut.parent], new[cut.child], cut.joint, name=cut.name),), forces=forces)
    if state is None:
        return LoopPart(part, keep)
    y, yd = _s.check_state(system, state)
    sub = State(np.concatenate([y[system.pos_slices[b]] for b in keep]),
                np.concatenate([yd[system.vel_slices[b]] for b in keep]))
    return LoopPart(part, keep, sub)


# ----------------------------------------------------------------------------- builders

def _rod(name: str) -> Body:
    """Thin rod of unit length and unit mass: J = m L^2 / 12 (§6)."""
    return Body("planar", 1.0, 1.0 / 12.0, name=name)


def _closed(name: str, bodies: list, joints: list, q0, gravity, *, child_frame=None) -> System:
    """The one model of a single loop: the open chain ground -> body 1 -> ... -> body n-1 on joints 1..n-1
    (``joints``' first n-1 entries, :class:`~rfda_teach.joints.Joint`), closed by joint n as a cut joint from
    the last body to the ground, whose ground side is placed so that q0 closes the loop exactly: it is the
    pose at q0 (:func:`rfda_teach.models.state_from_joints`, :func:`rfda_teach.joints.joint_pose`) of the
    joint frame carried by the last body."""
    nb = len(bodies)
    tree = System(tuple(range(-1, nb - 1)), tuple(bodies), tuple(joints[:-1]), gravity, name=name)
    y = state_from_joints(tree, [q0[k:k + 1] for k in range(nb)], [np.zeros(1)] * nb, check=False).y
    last = joints[-1]
    x = joint_pose(Joint(last.type, parent_point=last.parent_point, parent_frame=last.parent_frame), "planar",
                   y[tree.pos_slices[-1]], q0[-1:], check=False)
    cut = Joint(last.type, parent_point=last.parent_point, child_point=x[:2], parent_frame=last.parent_frame,
                child_frame=x[2] if child_frame is None else child_frame, name=last.name)
    return System(tree.parents, tree.bodies, tree.joints, gravity, name=name,
                  cuts=(Cut(nb - 1, -1, cut, name=cut.name),))


def five_bar(*, gravity: float = G0) -> LoopMechanism:
    """The planar five-bar of §6: q1, q2, q3 revolute, q4 and q5 telescoping prismatic.

    Geometry (the paper gives no figure, so it is chosen here and drawn in the book).  Four
    thin rods of unit length and mass plus the ground, in a vertical plane:

    * bar 1 turns about the ground pivot O = (0, 0); q1 is its angle from the horizontal;
    * bar 2 is pinned to the tip of bar 1; q2 is measured from the direction of bar 1 turned by
      -195 deg, so that at q2 = pi/2 bar 2 points down at -60 deg;
    * bar 3 is pinned to the tip of bar 2; q3 is measured so that bar 3 is horizontal at q0;
    * bar 4 is a sleeve: bar 3 telescopes in it (q4, along bar 3) and it slides on a horizontal
      ground guide (q5), so the axes of q4 and q5 are parallel by construction.

    At q0 = (pi/4, pi/2, -pi/2, 0, 0) the loop closes exactly (the guide is placed through the
    sleeve's position at q0).  Because q4 and q5 slide along the same direction, the forward-sweep
    dependents (q3, q4, q5) can never fix the loop (their partial velocities at the closure span only
    two directions), while (q2, q3, q5) are regular as long as bar 2 is not vertical.

    The mechanism is built once, as the one model (``.mechanism``: a
    :class:`~rfda_teach.system.System` whose joint q5 is the cut joint), and this record is
    :func:`from_system` of it.

    Examples
    --------
    >>> import numpy as np
    >>> fb = five_bar()
    >>> float(np.abs(closure(fb, fb.q0)).max()) < 1e-14
    True
    >>> fb.mechanism
    System 'five-bar': 4 planar bodies; joints 3 revolute2d + 1 prismatic2d; 1 root; cut joints 1 prismatic2d; 10 constraint rows (8 tree + 2 cut), 2 DOF
    """
    gravity = _check.scalar(gravity, "gravity", where="loops.five_bar")
    q0 = np.array([np.pi / 4, np.pi / 2, -np.pi / 2, 0.0, 0.0])
    d2 = np.deg2rad(-195.0)                       # bar 2 at 45 + 90 - 195 = -60 deg at q0
    d3 = np.deg2rad(150.0)                        # bar 3 at -60 - 90 + 150 = 0 deg at q0
    joints = [
        Joint("revolute2d", parent_point=(0.0, 0.0), child_point=(-0.5, 0.0), name="q1"),
        Joint("revolute2d", parent_point=(0.5, 0.0), child_point=(-0.5, 0.0), parent_frame=d2, name="q2"),
        Joint("revolute2d", parent_point=(0.5, 0.0), child_point=(-0.5, 0.0), parent_frame=d3, name="q3"),
        Joint("prismatic2d", child_point=(-0.5, 0.0), name="q4"),     # bar 4 overlaps bar 3 by half
        Joint("prismatic2d", name="q5"),
    ]
    bodies = [_rod(f"bar {k}") for k in range(1, 5)]
    # the guide is horizontal by construction (bar 3 is, at q0): its angle 0 exactly, not the rounded pose
    system = _closed("five-bar", bodies, joints, q0, (0.0, -gravity), child_frame=0.0)
    return from_system(system, q0=q0, dependents=("q2", "q3", "q5"), split=1)


def four_bar(*, crank_angle: float = -90.0, gravity: float = G0) -> LoopMechanism:
    """A planar crank-rocker four-bar, the second mechanism run through the same code path.

    Crank 0.5, coupler 1.4, rocker 1.0, ground 1.2 m (Grashof: the crank turns fully); unit-mass
    thin rods.  q1 is the crank angle (``crank_angle`` in degrees at q0), q2 and q3 the relative
    angles at the coupler's ends, q4 the angle at the rocker's ground pivot (0 at q0).  The default
    ACS set is (q1, q3, q4): the crank is dependent and the coupler angle q2 independent, which
    puts an independent coordinate between the dependents with p_i = the ground (§4).  The GCL
    topology makes q4 independent (the rocker hangs from the ground), which is regular only away
    from the rocker's extreme positions, so released from rest near the hanging equilibrium.
    Built as the one model first (``.mechanism``, joint q4 the cut joint), this record is
    :func:`from_system` of it.

    Examples
    --------
    >>> import numpy as np
    >>> fb = four_bar()
    >>> float(np.abs(closure(fb, fb.q0)).max()) < 1e-12
    True
    >>> fb.mechanism.cuts[0].joint.type
    'revolute2d'
    """
    gravity = _check.scalar(gravity, "gravity", where="loops.four_bar")
    crank_angle = _check.scalar(crank_angle, "crank_angle", where="loops.four_bar")
    a, b, c, d = 0.5, 1.4, 1.0, 1.2
    th1 = np.deg2rad(crank_angle)
    A = a * np.array([np.cos(th1), np.sin(th1)])
    D = np.array([d, 0.0])
    # coupler end B on both circles |B - A| = b and |B - D| = c (open branch)
    L = np.linalg.norm(D - A)
    e = (D - A) / L
    x = (b ** 2 - c ** 2 + L ** 2) / (2 * L)
    h = np.sqrt(b ** 2 - x ** 2)
    B = A + x * e + h * planar_cross(1.0, e, check=False)
    th2 = np.arctan2(*(B - A)[::-1])
    th3 = np.arctan2(*(D - B)[::-1])
    q0 = np.array([th1, th2 - th1, th3 - th2, 0.0])
    joints = [
        Joint("revolute2d", parent_point=(0.0, 0.0), child_point=(-a / 2, 0.0), name="q1"),
        Joint("revolute2d", parent_point=(a / 2, 0.0), child_point=(-b / 2, 0.0), name="q2"),
        Joint("revolute2d", parent_point=(b / 2, 0.0), child_point=(-c / 2, 0.0), name="q3"),
        Joint("revolute2d", parent_point=(c / 2, 0.0), name="q4"),
    ]
    bodies = [Body("planar", 1.0, a ** 2 / 12, name="crank"), Body("planar", 1.0, b ** 2 / 12, name="coupler"),
              Body("planar", 1.0, c ** 2 / 12, name="rocker")]
    system = _closed("four-bar", bodies, joints, q0, (0.0, -gravity))
    return from_system(system, q0=q0, dependents=("q1", "q3", "q4"), split=1)


def loop_chain(n: int, *, seed: int = 0) -> LoopMechanism:
    """A single planar loop of n revolute joints (n >= 4) on a regular polygon, used by the benchmark;
    built as the one model first (``.mechanism``, joint n the cut joint), this record is
    :func:`from_system` of it.

    Examples
    --------
    >>> loop_chain(6).n, loop_chain(6).mechanism.n
    (6, 5)
    """
    n = _check.positive_int(n, "n", where="loops.loop_chain", minimum=4)
    rng = np.random.default_rng(_check.seed(seed, where="loops.loop_chain"))
    L = 1.0
    turn = 2 * np.pi / n
    q0 = np.full(n, turn) + 0.05 * rng.standard_normal(n)
    q0[0] = 0.0
    q0[-1] = 0.0
    joints = [Joint("revolute2d", parent_point=(0.0, 0.0) if k == 0 else (L / 2, 0.0), child_point=(-L / 2, 0.0),
                    name=f"q{k + 1}") for k in range(n - 1)]
    joints.append(Joint("revolute2d", parent_point=(L / 2, 0.0), name=f"q{n}"))
    bodies = [_rod(f"bar {k}") for k in range(1, n)]
    system = _closed(f"{n}-bar loop", bodies, joints, q0, (0.0, -G0))
    return from_system(system, q0=q0, dependents=tuple(range(n - 2, n + 1)), split=1)


def loop_series(k: int, *, gravity: float = G0) -> LoopSeries:
    """k crank-rocker four-bars in a chain, each based on the coupler of the one before (m = 3k).

    Built as the one model first (``.mechanism``: the k four-bars' Systems in one tree, each hung from the
    previous coupler, cut joint j closing loop j onto its base), this record is :func:`from_system` of it.

    Examples
    --------
    >>> sum(l.n for l in loop_series(2).loops)
    8
    >>> loop_series(2).mechanism.n, len(loop_series(2).mechanism.cuts)
    (6, 2)
    """
    k = _check.positive_int(k, "k", where="loops.loop_series")
    gravity = _check.scalar(gravity, "gravity", where="loops.loop_series")
    fb = four_bar(gravity=gravity)
    one = fb.mechanism
    parents, bodies, joints, cuts = [], [], [], []
    for j in range(k):
        off = len(bodies)
        base = -1 if j == 0 else off - one.n + 1            # the coupler, body 2 of the loop before
        parents += [base if p < 0 else p + off for p in one.parents]
        bodies += one.bodies
        joints += one.joints
        c = one.cuts[0]
        cuts.append(Cut(c.parent + off, base, c.joint, name=f"loop {j}: {c.joint.name}"))
    system = System(tuple(parents), tuple(bodies), tuple(joints), one.gravity, name=f"{k} coupled four-bars",
                    cuts=tuple(cuts))
    where = "loops.loop_series"
    s = _series_view(_common(system, where), *_series_order(system, where), system.name, [fb.q0] * k, None,
                     [fb.dependents] * k, 1, where)           # a series also for k = 1 (from_system: one loop)
    return LoopSeries(tuple(dataclasses.replace(L, name=fb.name) for L in s.loops), s.attach, name=s.name,
                      mechanism=system)
