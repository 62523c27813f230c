"""Real robots: build a tree system from a URDF or a Pinocchio model and run the package's own
algorithms on Pinocchio's state (q, v, tau).  Needs the optional extra ``robots`` (pin,
example-robot-data).

A Pinocchio joint i becomes body i-1 of a :class:`RobotSystem` (a :class:`~rfda_teach.system.System`
that also keeps the Pinocchio model): the body's frame is the joint frame, its reference point the
mass centre (``lever``), and its central inertia Pinocchio's.  Revolute (aligned, unaligned,
continuous) and prismatic joints map to the package's "revolute" and "prismatic" joints with a joint
frame whose z axis is the Pinocchio axis, read from the joint's motion subspace S; a free-flyer
becomes "free", a spherical joint "spherical", a universal joint (``JointModelUniversal``,
R = Rot(axis1, q1) Rot(axis2, q2), the package's convention) "universal" with the same axes, and a
planar joint (motion in the joint frame's xy plane) a "custom" joint with free rows
[v_x, v_y, omega_z].  Fixed joints are merged by Pinocchio's URDF parser.  Every other Pinocchio joint (mimic, ...) is refused with a ModelError naming it.  Every joint
on Pinocchio's universe becomes a root: a fixed-base robot with several joints on its base (two arms
on a torso, a mobile base's wheels and column, legs bolted down) is a forest.

Pinocchio's q must have unit quaternions (free-flyer, spherical) and unit (cos, sin) pairs
(continuous and planar joints) within ``bodies.EULER_TOL``; Pinocchio itself does not check, and a non-unit
quaternion gives accelerations far from the truth, so they are refused, not normalised
(``pinocchio.normalize(model, q)`` does it).  URDF files are read as XML before Pinocchio parses them,
so that what urdfdom would silently drop or mangle (a ``<mimic>`` element, a mass 'nan' read as 0) is
refused with the link or joint named.

Speeds and forces are converted where the conventions differ: Pinocchio's free-flyer, planar and
spherical velocities are in the child (local) frame, the package's in the parent joint frame; the
conversion T (qdot_ours = T v_pin) is orthogonal, so tau_ours = T tau_pin, and accelerations are mapped
back, including the -omega x v term of the free-flyer's (and planar joint's) local linear acceleration.

``forward_dynamics(..., form="fast")`` runs all of this compiled (``fastpath._pin_fd``), a few times the
cost of ``pinocchio.aba`` (``benchmarks/peers.py``); the readable forms are its specification.
:func:`simulate` integrates a robot in its own (q, v) with ``scipy.integrate.solve_ivp``;
:func:`to_mjcf` writes the same model for MuJoCo, a peer in the tests and the benchmark.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import interop
>>> robot = interop.example_robot("ur5")
>>> q, v, tau = interop.random_state(robot, seed=0)
>>> a = interop.forward_dynamics(robot, q, v, tau, form="featherstone")
>>> q[0] = np.nan
>>> interop.forward_dynamics(robot, q, v, tau)
Traceback (most recent call last):
...
rfda_teach.errors.ModelError: interop.forward_dynamics: q[0] is nan; every entry must be a finite number
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import _check, dae, rfda
from .bodies import EULER_TOL, Body, frame_with_z
from .errors import ConstraintViolationError, IllConditionedError, ModelError
from .joints import Joint
from .spatial import cross, euler_params_rate, euler_params_to_matrix, scalar_first, scalar_last
from .simulate import integrate, span
from .summary import samples
from .system import State, System

__all__ = ["RobotSystem", "from_pinocchio", "from_urdf", "example_robot", "EXAMPLE_ROBOTS", "to_state",
           "forward_dynamics", "random_state", "require_pinocchio"]

#: URDF files of example-robot-data used by the book and the tests: (path, floating base)
EXAMPLE_ROBOTS = {
    "panda": ("panda_description/urdf/panda.urdf", False),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", False),
    "solo12": ("solo_description/robots/solo12.urdf", True),
    "talos": ("talos_data/robots/talos_reduced.urdf", True),
    "anymal": ("anymal_b_simple_description/robots/anymal.urdf", True),
    "hyq": ("hyq_description/robots/hyq_no_sensors.urdf", True),
    "baxter": ("baxter_description/urdf/baxter.urdf", False),          # a torso with two arms and a head
    "tiago": ("tiago_description/robots/tiago_no_hand.urdf", False),   # a mobile base: wheels, a column, a head
}


def require_pinocchio():
    """Import pinocchio or raise a ModelError that says how to install it.

    Examples
    --------
    >>> require_pinocchio().__name__
    'pinocchio'
    """
    try:
        import pinocchio
    except ImportError as exc:                                     # pragma: no cover - depends on the extra
        raise ModelError("this needs Pinocchio: pip install -e '.[robots]' (packages pin and "
                         "example-robot-data)") from exc
    return pinocchio


@dataclass(frozen=True, eq=False, repr=False)         # the one-line repr of System
class RobotSystem(System):
    """A :class:`~rfda_teach.system.System` built from a Pinocchio model, which it keeps in ``pin_model``
    together with each joint's Pinocchio kind (``pin_kinds``) and the blocks of Pinocchio's q that must
    have unit norm (``pin_unit_q``: joint name, start, stop, what: quaternions of free-flyers and
    spherical joints, the (cos, sin) pair of continuous joints).

    Examples
    --------
    >>> from rfda_teach import interop
    >>> robot = interop.example_robot("solo12")
    >>> robot.pin_unit_q[0]
    ('root_joint', 3, 7, 'quaternion')
    """

    pin_model: object = None
    pin_kinds: tuple = ()
    pin_placements: tuple = field(default=(), repr=False)
    pin_unit_q: tuple = ()
    mimic: tuple = ()

    def __post_init__(self):
        super().__post_init__()
        pin = require_pinocchio()
        where, hint = "interop.RobotSystem", "build a RobotSystem with interop.from_pinocchio or from_urdf"
        _check.instance(self.pin_model, pin.Model, "pin_model", where=where, hint=hint)
        if self.pin_model.njoints - 1 != self.n or len(self.pin_kinds) != self.n or \
                len(self.pin_placements) != self.n:
            raise ModelError(f"{where}: {self.n} bodies but pin_model has {self.pin_model.njoints - 1} joints, "
                             f"pin_kinds {len(self.pin_kinds)} and pin_placements {len(self.pin_placements)} "
                             f"entries; {hint}")


_REVOLUTE = {"JointModelRX", "JointModelRY", "JointModelRZ", "JointModelRevoluteUnaligned",
             "JointModelRUBX", "JointModelRUBY", "JointModelRUBZ", "JointModelRevoluteUnboundedUnaligned"}
_PRISMATIC = {"JointModelPX", "JointModelPY", "JointModelPZ", "JointModelPrismaticUnaligned"}
_SUPPORTED = ("supported: revolute (axis-aligned or not, bounded or continuous), prismatic (aligned or "
              "not), planar, spherical, universal and free-flyer joints; URDF fixed joints are merged by the parser")
#: advice for the Pinocchio joints a URDF can produce but the package refuses
_REFUSED = {
    "JointModelMimic": "a mimic joint (URDF <mimic>): load the URDF with interop.from_urdf(path, "
                       "mimic=True), which keeps the coupling as a constraint, or ignore_mimic=True to "
                       "treat it as an independent joint",
}


def _joint_name_kind(model, i):
    """'revolute' | 'prismatic' | 'free' | 'spherical' | 'universal' | 'planar' for Pinocchio joint i, or a ModelError
    naming it."""
    name = model.joints[i].shortname()
    if name in _REVOLUTE:
        return "revolute"
    if name in _PRISMATIC:
        return "prismatic"
    if name == "JointModelFreeFlyer":
        return "free"
    if name == "JointModelSpherical":
        return "spherical"
    if name == "JointModelPlanar":
        return "planar"
    if name == "JointModelUniversal":
        return "universal"
    why = _REFUSED.get(name, "a joint type the package has no counterpart for")
    raise ModelError(f"interop.from_pinocchio: joint {model.names[i]!r} is a Pinocchio {name}, which is not "
                     f"supported ({why}); {_SUPPORTED}")


_PLANAR_PHI = np.eye(6)[[2, 3, 4]]                         # joint-frame twist rows [v; w]: v_z, w_x, w_y
_PLANAR_PSI = np.eye(6)[[0, 1, 5]]                         # free: v_x, v_y, w_z (Pinocchio's order)


def _joint_axis(model, data, i, kind):
    """Unit axis of a 1-dof joint in its joint frame, read from its motion subspace S = [linear; angular]
    (the same for every Pinocchio revolute/prismatic variant, aligned or not, bounded or unbounded)."""
    S = np.asarray(data.joints[i].S, dtype=float).reshape(6)
    axis = S[3:] if kind == "revolute" else S[:3]
    other = S[:3] if kind == "revolute" else S[3:]
    nrm = float(np.linalg.norm(axis))
    if not np.isfinite(S).all() or abs(nrm - 1.0) > 1e-9 or np.linalg.norm(other) > 1e-9:
        raise ModelError(f"interop.from_pinocchio: joint {model.names[i]!r} ({model.joints[i].shortname()}) has "
                         f"motion subspace S = {np.round(S, 6).tolist()}; a {kind} joint needs a unit "
                         f"{'angular' if kind == 'revolute' else 'linear'} axis and nothing else; give a unit "
                         "axis in the URDF or the Pinocchio joint")
    return axis / nrm


def _unit_blocks(model, i, kind):
    """(joint name, start, stop, what) of the entries of q that must have unit norm, for joint i."""
    jm, nm = model.joints[i], model.names[i]
    if kind == "free":
        return [(nm, jm.idx_q + 3, jm.idx_q + 7, "quaternion")]
    if kind == "spherical":
        return [(nm, jm.idx_q, jm.idx_q + 4, "quaternion")]
    if kind == "planar":                                     # q = (x, y, cos, sin)
        return [(nm, jm.idx_q + 2, jm.idx_q + 4, "(cos, sin) pair")]
    if kind == "universal":                                  # q = (q1, q2): two angles, no constraint
        return []
    if jm.nq == 2:                                           # continuous joint: q = (cos, sin)
        return [(nm, jm.idx_q, jm.idx_q + 2, "(cos, sin) pair")]
    return []


def from_pinocchio(model, *, bound_mass: float = 0.0, bound_inertia: float = 0.0,
                   balance_inertia: bool = False) -> RobotSystem:
    """A tree system with the bodies, inertias and joints of a Pinocchio model (see the module text).

    Every joint whose parent is Pinocchio's universe (joint 0) becomes a root: a fixed-base robot with
    several joints on its base (two arms on a torso, legs loaded fixed-base) gives a forest.

    Robot files carry CAD inertias that no rigid body has.  Principal moments that break the triangle
    inequality J1 + J2 >= J3 load with an :class:`~rfda_teach.errors.RFDAWarning` naming the links
    (the algorithms only need positive definite inertias), or are balanced with
    ``balance_inertia=True`` (each such body's principal moments replaced by their mean, MuJoCo's
    ``balanceinertia``).  A moving body with zero mass or a zero (or negative) principal moment is
    refused, since the absolute-coordinate equations need every M_i positive definite, unless
    ``bound_mass`` and ``bound_inertia`` raise the mass and each principal moment to at least those
    values (MuJoCo's ``boundmass`` and ``boundinertia``).  Any change is written into the
    ``pin_model`` kept by the result, so the comparisons with Pinocchio use the same inertias.

    Examples
    --------
    >>> from rfda_teach import interop
    >>> robot = interop.example_robot("panda")
    >>> robot.n, robot.n_dof
    (9, 9)
    """
    pin = require_pinocchio()
    where = "interop.from_pinocchio"
    _check.instance(model, pin.Model, "model", where=where,
                    hint="give a pinocchio.Model, e.g. pinocchio.buildModelFromUrdf(path), or use interop.from_urdf")
    if model.njoints < 2:
        raise ModelError(f"{where}: model {model.name!r} has no joints (only the universe); "
                         "a system needs at least one moving body")
    model = _repaired_inertias(model, pin, where, bound_mass, bound_inertia, balance_inertia)
    kinds = [_joint_name_kind(model, i) for i in range(1, model.njoints)]
    data = model.createData()
    pin.forwardKinematics(model, data, pin.neutral(model))
    bodies, joints, parents, placements, unit_q = [], [], [], [], []
    for i in range(1, model.njoints):
        inert = model.inertias[i]
        m = float(inert.mass)
        lever = np.array(inert.lever).ravel()
        Ic = np.array(inert.inertia)
        name = model.names[i]
        if not (np.isfinite(m) and np.isfinite(lever).all() and np.isfinite(Ic).all()):
            raise ModelError(f"{where}: joint {name!r} carries a body with mass {m}, mass centre {lever} and "
                             f"inertia {Ic.tolist()}; every entry must be finite")
        eig = np.linalg.eigvalsh(0.5 * (Ic + Ic.T))
        if m <= 0 or eig.min() <= 0:
            raise ModelError(f"{where}: joint {name!r} moves a body with mass {m} and central inertia "
                             f"eigenvalues {np.round(eig, 9)}; every moving body needs positive mass and inertia: "
                             "give its link an <inertial> with mass and inertia, attach a massless link by a "
                             "fixed joint to one that has them, or pass bound_mass= and bound_inertia= "
                             "(e.g. 1e-4 kg and 1e-6 kg m^2, MuJoCo's boundmass/boundinertia) to raise them")
        bodies.append(Body("spatial", m, Ic, name=name, physical=False))
        p = model.parents[i]
        parents.append(p - 1)                               # Pinocchio's universe 0 -> the ground, -1
        plc = model.jointPlacements[i]
        P, t = np.array(plc.rotation), np.array(plc.translation).ravel()
        if not (np.isfinite(P).all() and np.isfinite(t).all()):
            raise ModelError(f"{where}: joint {name!r} has a placement with NaN or inf; give finite origins")
        lever_parent = np.zeros(3) if p == 0 else np.array(model.inertias[p].lever).ravel()
        kind = kinds[i - 1]
        placements.append(P)
        unit_q += _unit_blocks(model, i, kind)
        if kind in ("revolute", "prismatic"):
            Ra = frame_with_z(_joint_axis(model, data, i, kind))
            joints.append(Joint(kind, parent_point=t - lever_parent, child_point=-lever, parent_frame=P @ Ra,
                                child_frame=Ra, name=name))
        elif kind == "universal":                           # R = Rot(axis1, q1) Rot(axis2, q2), as ours
            ju = model.joints[i].extract()
            axes = np.array([np.asarray(ju.axis1, float).ravel(), np.asarray(ju.axis2, float).ravel()])
            if not np.isfinite(axes).all() or np.abs(np.linalg.norm(axes, axis=1) - 1.0).max() > 1e-9:
                raise ModelError(f"{where}: joint {name!r} (JointModelUniversal) has axes {axes.tolist()}; "
                                 "Pinocchio needs two unit axes (it does not normalise them), give unit vectors")
            joints.append(Joint(kind, parent_point=t - lever_parent, child_point=-lever, parent_frame=P,
                                child_frame=np.eye(3), axes=axes, name=name))
        elif kind == "planar":                              # constrained v_z, w_x, w_y; free v_x, v_y, w_z
            joints.append(Joint("custom", kind="spatial", parent_point=t - lever_parent, child_point=-lever,
                                parent_frame=P, child_frame=np.eye(3), Phi=_PLANAR_PHI, Psi=_PLANAR_PSI,
                                name=name))
        else:
            joints.append(Joint(kind, parent_point=t - lever_parent, child_point=-lever, parent_frame=P,
                                child_frame=np.eye(3), name=name))
    g = np.array(model.gravity.linear).ravel()
    if not np.isfinite(g).all():
        raise ModelError(f"{where}: model gravity {g} has NaN or inf; give finite gravity")
    return RobotSystem(tuple(parents), tuple(bodies), tuple(joints), g, name=str(model.name),
                       pin_model=model, pin_kinds=tuple(kinds), pin_placements=tuple(placements),
                       pin_unit_q=tuple(unit_q))


def _repaired_inertias(model, pin, where, bound_mass, bound_inertia, balance_inertia):
    """The model itself, or a copy with bounded / balanced inertias (see :func:`from_pinocchio`);
    warns once, naming the links, about principal moments that break the triangle inequality."""
    bound_mass = _check.scalar(bound_mass, "bound_mass", where=where, nonneg=True)
    bound_inertia = _check.scalar(bound_inertia, "bound_inertia", where=where, nonneg=True)
    balance_inertia = _flag(balance_inertia, "balance_inertia", where)
    new, unbalanced = {}, []
    for i in range(1, model.njoints):
        inert = model.inertias[i]
        m, Ic = float(inert.mass), np.array(inert.inertia)
        if not (np.isfinite(m) and np.isfinite(Ic).all()):
            continue                                  # refused with the link named by the caller
        lam, V = np.linalg.eigh(0.5 * (Ic + Ic.T))
        m2, lam2 = max(m, bound_mass), np.maximum(lam, bound_inertia)
        if lam2.min() > 0 and _check.violates_triangle(lam2):
            if balance_inertia:
                lam2 = np.full(3, lam2.mean())
            else:
                unbalanced.append(model.names[i])
        if m2 != m or not np.array_equal(lam2, lam):
            new[i] = pin.Inertia(m2, np.array(inert.lever).ravel(), V @ np.diag(lam2) @ V.T)
    if unbalanced:
        _check.warn(f"{where}: model {model.name!r}: the inertias of {', '.join(unbalanced)} break the "
                    "triangle inequality J1 + J2 >= J3 of principal moments (no rigid body has them: a CAD "
                    "export error); loaded as given, since the dynamics only need them positive definite; "
                    "pass balance_inertia=True to replace each by the mean of its moments", stacklevel=4)
    if not new:
        return model
    model = pin.Model(model)                          # a copy: the caller's model is not changed
    for i, inert in new.items():
        model.inertias[i] = inert
    return model


#: joint types of the URDF specification (Pinocchio maps each to a joint model, 'fixed' is merged)
URDF_JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")


def _urdf_path(path, where):
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, (str, os.PathLike)):
        raise ModelError(f"{where}: path must be the path of a .urdf file (str or pathlib.Path), got "
                         f"{path!r} ({type(path).__name__})")
    path = os.fspath(path)
    if os.path.isdir(path):
        found = sorted(f for f in os.listdir(path) if f.endswith(".urdf"))[:5]
        raise ModelError(f"{where}: {path!r} is a directory, not a URDF file; give the path of the .urdf file"
                         + (f" (it holds {found})" if found else ""))
    if not os.path.exists(path):
        raise ModelError(f"{where}: URDF file {path!r} does not exist; check the path (relative paths start at "
                         f"{os.getcwd()!r})")
    return path


def _floats(el, attr, n, what, where):
    """n finite numbers from a URDF attribute (None when the attribute is absent)."""
    text = el.get(attr)
    if text is None:
        return None
    try:
        vals = [float(x) for x in text.split()]
    except ValueError:
        vals = None
    if vals is None or len(vals) != n or not np.isfinite(vals).all():
        raise ModelError(f"{where}: {what} {attr}={text!r} must be {n} finite number{'s' if n > 1 else ''}; "
                         "fix the URDF")
    return vals


def _check_urdf(path, where, ignore_mimic):   # returns [(joint, mimicked, multiplier, offset)]
    """Read the URDF's XML before Pinocchio does, so that what urdfdom would drop or mangle silently (NaN
    masses become 0, <mimic> elements vanish) or report vaguely is refused with its link or joint named."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise ModelError(f"{where}: {path!r} is not well-formed XML ({exc}); fix the file at that line") from None
    except OSError as exc:
        raise ModelError(f"{where}: cannot read {path!r} ({exc.strerror}); check the file's permissions") from None
    if root.tag != "robot":
        raise ModelError(f"{where}: {path!r} has top element <{root.tag}>; a URDF file has <robot> at the top")
    for link in root.findall("link"):
        name = link.get("name")
        inertial = link.find("inertial")
        if inertial is None:
            continue
        here = f"link {name!r} of {path!r}:"
        mass, inertia = inertial.find("mass"), inertial.find("inertia")
        if mass is None or inertia is None or mass.get("value") is None:
            raise ModelError(f"{where}: {here} <inertial> needs <mass value=...> and <inertia ixx=... izz=...> "
                             "(urdfdom would read the link as massless); add them or remove <inertial>")
        _floats(mass, "value", 1, f"{here} <mass>", where)
        for a in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
            if _floats(inertia, a, 1, f"{here} <inertia>", where) is None:
                raise ModelError(f"{where}: {here} <inertia> has no {a}; give all six of ixx ixy ixz iyy iyz izz")
        origin = inertial.find("origin")
        if origin is not None:
            _floats(origin, "xyz", 3, f"{here} inertial <origin>", where)
            _floats(origin, "rpy", 3, f"{here} inertial <origin>", where)
    mimics = []
    for joint in root.findall("joint"):
        name, jtype = joint.get("name"), joint.get("type")
        here = f"joint {name!r} of {path!r}:"
        if jtype not in URDF_JOINT_TYPES:
            raise ModelError(f"{where}: {here} type {jtype!r} is not a URDF joint type; use one of "
                             f"{URDF_JOINT_TYPES}")
        mimic = joint.find("mimic")
        if mimic is not None and not ignore_mimic:
            raise ModelError(f"{where}: {here} it mimics joint {mimic.get('joint')!r} (<mimic>). Pass "
                             "mimic=True to keep the coupling as a constraint, ignore_mimic=True to load it as "
                             "an independent joint (as pinocchio.buildModelFromUrdf does by default), or "
                             "remove the <mimic> element")
        if mimic is not None and jtype != "fixed":
            k = _floats(mimic, "multiplier", 1, f"{here} <mimic>", where)
            c = _floats(mimic, "offset", 1, f"{here} <mimic>", where)
            mimics.append((name, mimic.get("joint"), 1.0 if k is None else k[0], 0.0 if c is None else c[0],
                           jtype))
        origin = joint.find("origin")
        if origin is not None:
            _floats(origin, "xyz", 3, f"{here} <origin>", where)
            _floats(origin, "rpy", 3, f"{here} <origin>", where)
        axis = joint.find("axis")
        if axis is not None and jtype in ("revolute", "continuous", "prismatic", "planar"):
            xyz = _floats(axis, "xyz", 3, f"{here} <axis>", where)
            if xyz is not None and np.linalg.norm(xyz) == 0:
                raise ModelError(f"{where}: {here} <axis xyz='0 0 0'> has no direction; give a non-zero axis")
            if xyz is not None and jtype == "planar" and np.linalg.norm(cross(xyz, [0, 0, 1.0], check=False)) > 1e-9:
                raise ModelError(f"{where}: {here} a planar joint with normal <axis xyz='{axis.get('xyz')}'>: "
                                 "Pinocchio's parser ignores the axis and always moves in the joint frame's xy "
                                 "plane; rotate the joint's <origin rpy> so that the normal is z and give "
                                 "axis xyz='0 0 1'")
    return mimics


def from_urdf(path, floating_base: bool = False, *, ignore_mimic: bool = False, mimic: bool = False,
              bound_mass: float = 0.0, bound_inertia: float = 0.0, balance_inertia: bool = False) -> RobotSystem:
    """Parse a URDF with Pinocchio (a free-flyer root when ``floating_base``) and convert it.

    The file is read first as XML: a malformed file, a missing or non-finite mass, inertia, origin or
    axis, an unknown joint type and a ``<mimic>`` joint are refused with the link or joint named.
    A ``<mimic>`` joint needs a choice: ``mimic=True`` keeps each as the coupling constraint
    q_m = k q_j + c (:class:`Mimic`; :func:`forward_dynamics` enforces it by multipliers), and
    ``ignore_mimic=True`` loads it as an independent joint (as ``pinocchio.buildModelFromUrdf`` does by
    default).  With ``floating_base=False`` every joint on the
    URDF's root link becomes a root of a forest.  ``bound_mass``, ``bound_inertia`` and
    ``balance_inertia`` repair CAD inertias as in :func:`from_pinocchio`.

    Examples
    --------
    >>> from rfda_teach import interop
    >>> robot = interop.from_urdf(interop.example_robot_path("ur5"))
    >>> robot.n
    6
    """
    pin = require_pinocchio()
    where = "interop.from_urdf"
    path = _urdf_path(path, where)
    floating_base = _flag(floating_base, "floating_base", where)
    ignore_mimic = _flag(ignore_mimic, "ignore_mimic", where)
    mimic = _flag(mimic, "mimic", where)
    if mimic and ignore_mimic:
        raise ModelError(f"{where}: mimic=True and ignore_mimic=True contradict each other; pass one of them")
    mimics = _check_urdf(path, where, ignore_mimic or mimic)
    with _StderrCapture() as said:
        try:
            model = pin.buildModelFromUrdf(path, *([pin.JointModelFreeFlyer()] if floating_base else []))
        except (ValueError, RuntimeError) as exc:
            model, failure = None, " ".join(str(exc).split())
    if model is None:
        why = [ln.strip()[len("Error:"):].strip().rstrip(".") for ln in said.text.splitlines()
               if ln.strip().startswith("Error:")]
        raise ModelError(f"{where}: Pinocchio could not build a model from {path!r}: {failure}"
                         + (f" urdfdom says: {'; '.join(why)}." if why else "")
                         + " Fix the file against the URDF specification")
    if said.text:                                                   # urdfdom's warnings on a good file
        import sys
        sys.stderr.write(said.text)
    robot = from_pinocchio(model, bound_mass=bound_mass, bound_inertia=bound_inertia,
                           balance_inertia=balance_inertia)
    if not (mimic and mimics):
        return robot
    import dataclasses
    return dataclasses.replace(robot, mimic=_mimics(robot.pin_model, mimics, path, where))


class Mimic(NamedTuple):
    """A URDF ``<mimic>`` kept as a constraint: q[q_m] = multiplier * q[q_j] + offset, in Pinocchio's q
    (and v[v_m] = multiplier * v[v_j]) of the robot's model, where every joint is independent."""

    joint: str
    mimicked: str
    multiplier: float
    offset: float
    q_m: int
    v_m: int
    q_j: int
    v_j: int


def _mimics(model, mimics, path, where) -> tuple:
    out = []
    for name, target, k, c, jtype in mimics:
        ids = []
        for jn in (name, target):
            if not model.existJointName(jn):
                raise ModelError(f"{where}: joint {name!r} of {path!r} mimics {target!r}, which is not a moving "
                                 f"joint of the model; fix the <mimic joint=...> attribute")
            i = model.getJointId(jn)
            if model.nqs[i] != 1 or model.nvs[i] != 1:
                raise ModelError(f"{where}: joint {jn!r} of {path!r} is in a <mimic> pair but has "
                                 f"{model.nqs[i]} position coordinates (a continuous joint stores cos and sin); "
                                 "mimic=True needs revolute or prismatic joints: use ignore_mimic=True")
            ids.append(i)
        (m, j) = ids
        out.append(Mimic(name, target, float(k), float(c), model.idx_qs[m], model.idx_vs[m], model.idx_qs[j],
                         model.idx_vs[j]))
    return tuple(out)


class _StderrCapture:
    """Collect what C++ code (urdfdom) writes to file descriptor 2 while the block runs, so that its
    messages can be put into the ModelError."""

    def __enter__(self):
        import tempfile
        self.text, self._saved = "", None
        try:
            self._file = tempfile.TemporaryFile()
            import sys
            sys.stderr.flush()
            self._saved = os.dup(2)
            os.dup2(self._file.fileno(), 2)
        except (OSError, ValueError, AttributeError):                  # pragma: no cover - no fd 2 here
            self._saved = None
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            os.dup2(self._saved, 2)
            os.close(self._saved)
            self._file.seek(0)
            self.text = self._file.read().decode(errors="replace")
            self._file.close()
        return False


def example_robot_path(name: str) -> str:
    """Path of an example-robot-data URDF listed in :data:`EXAMPLE_ROBOTS`.

    Examples
    --------
    >>> example_robot_path("ur5").endswith("ur5_robot.urdf")
    True
    """
    _check.choice(name, sorted(EXAMPLE_ROBOTS), "name", where="interop.example_robot")
    import importlib.metadata as md
    try:
        base = md.distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots")
    except md.PackageNotFoundError as exc:                     # pragma: no cover - depends on the extra
        raise ModelError("example robots need the extra: pip install -e '.[robots]'") from exc
    return str(base / EXAMPLE_ROBOTS[name][0])


def example_robot(name: str, *, floating_base: bool | None = None) -> RobotSystem:
    """Load one of :data:`EXAMPLE_ROBOTS` (Panda, UR5, Solo-12, Talos, ANYmal, HyQ, Baxter, TIAGo) from
    example-robot-data, with the floating base listed there
    unless ``floating_base`` says otherwise (``False`` bolts a legged robot to the ground by its base:
    each leg, and the torso, becomes a root of a forest).  Mimic joints (Panda's second finger, Talos'
    grippers) are loaded as independent joints, as ``pinocchio.buildModelFromUrdf`` does by default.

    Examples
    --------
    >>> robot = example_robot("solo12")
    >>> robot.pin_kinds[0], robot.n_dof
    ('free', 18)
    >>> fixed = example_robot("solo12", floating_base=False)
    >>> fixed.topology.roots
    (0, 3, 6, 9)
    """
    path = example_robot_path(name)
    if floating_base is None:
        floating_base = EXAMPLE_ROBOTS[name][1]
    floating_base = _flag(floating_base, "floating_base", "interop.example_robot",
                          hint="pass True, False or None (the robot's usual base)")
    return from_urdf(path, floating_base=floating_base, ignore_mimic=True)


def _robot(robot, where):
    return _check.instance(robot, RobotSystem, "robot", where=where,
                           hint="build it with interop.from_urdf, from_pinocchio or example_robot (a plain "
                                "System has no Pinocchio model)")


def _pin_state(robot: RobotSystem, q, v, where, names=("q", "v")):
    """Pinocchio's (q, v) as finite float arrays of the right lengths, with unit quaternions and
    (cos, sin) pairs; else a ModelError naming the argument (``names``) or the joint."""
    model = robot.pin_model
    nq_, nv_ = names
    q = _check.vector(q, model.nq, nq_, where=where, hint=f"Pinocchio's configuration of {robot.name!r}")
    v = _check.vector(v, model.nv, nv_, where=where, hint=f"Pinocchio's velocity of {robot.name!r}")
    for name, a, b, what in robot.pin_unit_q:
        nrm = float(np.linalg.norm(q[a:b]))
        if abs(nrm - 1.0) > EULER_TOL:
            raise ModelError(f"{where}: {nq_}[{a}:{b}], the {what} of joint {name!r}, has norm {nrm:.8g}, not 1 "
                             f"(tolerance {EULER_TOL}); normalise {nq_} first, e.g. "
                             f"{nq_} = pinocchio.normalize(robot.pin_model, {nq_})")
    return q, v


def _kinematics(robot: RobotSystem, q, v, where="interop.forward_dynamics"):
    pin = require_pinocchio()
    robot = _robot(robot, where)
    q, v = _pin_state(robot, q, v, where)
    model = robot.pin_model
    data = robot.__dict__.get("_pin_data")                       # one Data per robot, reused (createData is slow)
    if data is None:
        data = model.createData()
        object.__setattr__(robot, "_pin_data", data)
    pin.forwardKinematics(model, data, q, v)
    return model, data, q, v


def _speed_maps(robot: RobotSystem, data):
    """Per joint: T with qdot_ours = T v_pin for that joint's speeds (orthogonal)."""
    model = robot.pin_model
    T = []
    for i in range(1, model.njoints):
        kind = robot.pin_kinds[i - 1]
        if kind in ("free", "planar"):
            R = np.array(data.oMi[i].rotation)
            P = robot.pin_placements[i - 1]
            if model.parents[i] != 0:
                Rp = np.array(data.oMi[model.parents[i]].rotation)
                RJ = Rp @ P
            else:
                RJ = P
            if kind == "free":
                B = np.zeros((6, 6))
                B[:3, :3] = RJ.T @ R
                B[3:, 3:] = RJ.T @ R
            else:                                        # the joint's rotation about z acts on (v_x, v_y)
                B = np.eye(3)
                B[:2, :2] = (RJ.T @ R)[:2, :2]
            T.append(B)
        elif kind == "spherical":                        # R_q = P^T (liMi rotation): the joint's own rotation
            T.append(robot.pin_placements[i - 1].T @ np.array(data.liMi[i].rotation))
        elif kind == "universal":                        # v = (qdot_1, qdot_2) in both
            T.append(np.eye(2))
        else:
            T.append(np.eye(1))
    return T


def to_state(robot: RobotSystem, q, v) -> State:
    """The package's absolute state (mass-centre positions, Euler parameters, v, omega) for Pinocchio's (q, v).

    Examples
    --------
    >>> robot = example_robot("ur5")
    >>> q, v, _ = random_state(robot, seed=0)
    >>> st = to_state(robot, q, v)
    >>> st.y.shape, st.yd.shape
    ((42,), (36,))
    """
    model, data, q, v = _kinematics(robot, q, v, "interop.to_state")
    return _state(model, data)


def _state(model, data) -> State:
    """Absolute state from Pinocchio's forward kinematics: y_i = [mass centre; Euler parameters (e0 >= 0)],
    ydot_i = [mass-centre velocity; omega], world components.  Pinocchio's rotations are orthogonal by
    construction (its q was checked), so the Euler parameters come from its own quaternion."""
    pin = require_pinocchio()
    n = model.njoints - 1
    y, yd = np.empty(7 * n), np.empty(6 * n)
    for i in range(1, model.njoints):
        oMi = data.oMi[i]
        R, o = oMi.rotation, oMi.translation
        c = R @ model.inertias[i].lever                              # joint origin -> mass centre, world
        vl = data.v[i]
        w = R @ vl.angular
        x, y_, z, e0 = pin.Quaternion(R).coeffs()
        e = np.array([e0, x, y_, z])
        k = i - 1
        y[7 * k:7 * k + 3] = o + c
        y[7 * k + 3:7 * k + 7] = e if e0 >= 0 else -e
        yd[6 * k:6 * k + 3] = R @ vl.linear + (w[1] * c[2] - w[2] * c[1], w[2] * c[0] - w[0] * c[2],
                                               w[0] * c[1] - w[1] * c[0])                  # + omega x c
        yd[6 * k + 3:6 * k + 6] = w
    return State(y, yd)


def forward_dynamics(robot: RobotSystem, q, v, tau, form: str = "featherstone") -> np.ndarray:
    """Joint accelerations in Pinocchio's ordering and conventions, computed by the package's RFDA
    (``form`` "lubich" or "featherstone"), the dense D&G eq. (7) (``form`` "dense") or the compiled
    Featherstone form (``form`` "fast", numba).

    Every form checks its input the same way first: q, v, tau of Pinocchio's lengths and finite, and
    every quaternion and (cos, sin) pair of q of unit norm within ``bodies.EULER_TOL`` (else a
    ModelError naming the joint; ``pinocchio.normalize(model, q)`` fixes it).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import interop
    >>> robot = interop.example_robot("ur5")
    >>> q, v, tau = interop.random_state(robot, seed=1)
    >>> import pinocchio as pin
    >>> a_pin = pin.aba(robot.pin_model, robot.pin_model.createData(), q, v, tau)
    >>> bool(np.allclose(interop.forward_dynamics(robot, q, v, tau), a_pin))
    True
    >>> solo = interop.example_robot("solo12")
    >>> q, v, tau = interop.random_state(solo, seed=0)
    >>> q[3:7] *= 2
    >>> interop.forward_dynamics(solo, q, v, tau, form="fast")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: interop.forward_dynamics: q[3:7], the quaternion of joint 'root_joint', has norm 2, not 1 (tolerance 1e-06); normalise q first, e.g. q = pinocchio.normalize(robot.pin_model, q)
    """
    where = "interop.forward_dynamics"
    mimic = getattr(robot, "mimic", ())
    if not mimic:
        return _tree_accelerations(robot, q, v, tau, form, where)
    return _mimic_accelerations(robot, q, v, tau, form, where)


def mimic_rows(robot: RobotSystem) -> np.ndarray:
    """The rows J of the mimic constraints in Pinocchio's v: J v = 0 and J a = 0 (the coupling is linear
    with constant coefficients, so its acceleration form has no velocity term).

    Examples
    --------
    >>> from rfda_teach import interop
    >>> panda = interop.from_urdf(interop.example_robot_path("panda"), mimic=True)
    >>> interop.mimic_rows(panda)
    array([[ 0.,  0.,  0.,  0.,  0.,  0.,  0., -1.,  1.]])
    """
    robot = _robot(robot, "interop.mimic_rows")
    J = np.zeros((len(robot.mimic), robot.pin_model.nv))
    for r, mm in enumerate(robot.mimic):
        J[r, mm.v_m] += 1.0
        J[r, mm.v_j] -= mm.multiplier
    return J


def _mimic_accelerations(robot, q, v, tau, form, where):
    """The cut-joint multiplier technique (as for a closed loop): the tree's accelerations a_0, the
    responses A = H^-1 J^T to one unit force per constraint row (each one more run of the same
    recursion, by linearity in tau), then (J A) lambda = -J a_0 and a = a_0 + A lambda."""
    q = _check.vector(q, robot.pin_model.nq, "q", where=where)
    v = _check.vector(v, robot.pin_model.nv, "v", where=where)
    tau = _check.vector(tau, robot.pin_model.nv, "tau", where=where)
    for mm in robot.mimic:
        dq = q[mm.q_m] - mm.multiplier * q[mm.q_j] - mm.offset
        dv = v[mm.v_m] - mm.multiplier * v[mm.v_j]
        if abs(dq) > 1e-6 * (1 + abs(q[mm.q_j])) or abs(dv) > 1e-6 * (1 + abs(v[mm.v_j])):
            raise ConstraintViolationError(
                f"{where}: joint {mm.joint!r} mimics {mm.mimicked!r} with q_m = {mm.multiplier:g} q_j + "
                f"{mm.offset:g}, but the state is off by {dq:.2e} in q and {dv:.2e} in v; make it consistent "
                "(interop.random_state does) before asking for accelerations")
    J = mimic_rows(robot)
    a0 = _tree_accelerations(robot, q, v, tau, form, where)
    A = np.column_stack([_tree_accelerations(robot, q, v, tau + row, form, where) - a0 for row in J])
    S = J @ A                                     # J H^-1 J^T: positive definite for independent rows
    if not (np.isfinite(S).all() and np.isfinite(a0).all()) or np.linalg.cond(S) > 1e12:
        raise IllConditionedError(
            f"{where}: the mimic constraints of {robot.name!r} cannot be solved here (J H^-1 J^T has "
            f"condition {np.linalg.cond(S) if np.isfinite(S).all() else float('inf'):.1e}; largest |q| "
            f"{np.abs(q).max():.1e}, |v| {np.abs(v).max():.1e}): two <mimic> rows are dependent, or the "
            "motion has blown up (in a simulation: lower the gains on light links such as fingers, or "
            "shorten max_step)")
    lam = np.linalg.solve(S, -(J @ a0))
    return a0 + A @ lam


def _tree_accelerations(robot, q, v, tau, form, where):
    """:func:`forward_dynamics` of the tree (every joint independent)."""
    if form == "fast":
        return _forward_dynamics_fast(robot, q, v, tau, where)
    _check.choice(form, ("lubich", "featherstone", "dense", "fast"), "form", where=where)
    model, data, q, v = _kinematics(robot, q, v, where)
    tau = _check.vector(tau, model.nv, "tau", where=where, hint=f"Pinocchio's joint forces of {robot.name!r}")
    state = _state(model, data)
    T = _speed_maps(robot, data)
    tau_ours = np.concatenate([Ti @ tau[model.idx_vs[i]:model.idx_vs[i] + model.nvs[i]]
                               for i, Ti in zip(range(1, model.njoints), T)])
    if form == "dense":
        from .system import terms
        tr = terms(robot, state, tau=tau_ours)
        qdd_ours = rfda.joint_accelerations(robot, tr, dae.solve(robot, tr).ydd)
    else:
        qdd_ours = rfda.forward_dynamics(robot, state, form=form, tau=tau_ours).qdd
    a = np.zeros(model.nv)
    for i, Ti in zip(range(1, model.njoints), T):
        sl = slice(model.idx_vs[i], model.idx_vs[i] + model.nvs[i])
        qdd_k = qdd_ours[robot.dof_slices[i - 1]]
        a_k = Ti.T @ qdd_k
        if robot.pin_kinds[i - 1] == "free":            # local linear acceleration: d/dt(R^T v_o) = R^T a_o - w_l x v_l
            vl = v[sl]
            a_k[:3] -= cross(vl[3:], vl[:3], check=False)
        elif robot.pin_kinds[i - 1] == "planar":        # the same with w_l = (0, 0, w_z), v_l = (v_x, v_y, 0)
            vx, vy, wz = v[sl]
            a_k[0] += wz * vy
            a_k[1] -= wz * vx
        a[sl] = a_k
    return a


def random_state(robot: RobotSystem, seed=None, *, scale: float = 1.0):
    """A random Pinocchio (q, v, tau): q by integrating a random velocity from the neutral configuration
    (works with free-flyers, whose limits are infinite), v and tau standard normal times ``scale``.

    Examples
    --------
    >>> robot = example_robot("panda")
    >>> [x.shape for x in random_state(robot, seed=0)]
    [(9,), (9,), (9,)]
    """
    pin = require_pinocchio()
    where = "interop.random_state"
    model = _robot(robot, where).pin_model
    seed = _check.seed(seed, where=where)
    scale = _check.scalar(scale, "scale", where=where, nonneg=True)
    rng = np.random.default_rng(seed)
    q = pin.integrate(model, pin.neutral(model), rng.normal(size=model.nv))
    v, tau = scale * rng.normal(size=model.nv), scale * rng.normal(size=model.nv)
    for mm in getattr(robot, "mimic", ()):                 # consistent with every mimic constraint
        q[mm.q_m] = mm.multiplier * q[mm.q_j] + mm.offset
        v[mm.v_m] = mm.multiplier * v[mm.v_j]
    return q, v, tau


__all__ += ["example_robot_path", "URDF_JOINT_TYPES", "Mimic", "mimic_rows", "fast_kernel",
            "state_and_speed_map"]


def from_screws(Mlist, Glist, Slist, gravity=(0.0, 0.0, -9.81), name: str = "screw-axis arm") -> RobotSystem:
    """A serial arm in Modern Robotics' format (Lynch & Park): link-frame transforms Mlist (M_{i-1,i} at the
    home position, mass-centre frames), spatial inertias Glist (6x6, [I, 0; 0, m]) and space-frame screw
    axes Slist (6 x n, [omega; v]).  Joint i turns about the line of S_i; its frame is placed on that line,
    parallel to the space frame at home.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import interop
    >>> M = [np.eye(4), np.eye(4)]; M[0][2, 3] = 0.5; M[1][0, 3] = 1.0
    >>> G = [np.diag([0.1, 0.1, 0.1, 1, 1, 1.0])]
    >>> S = np.array([[0, 1.0, 0, -0.5, 0, 0]]).T            # about y through (0, 0, 0.5)
    >>> interop.from_screws(M, G, S).n
    1
    """
    pin = require_pinocchio()
    where = "interop.from_screws"
    Slist = _check.matrix(Slist, (6, None), "Slist", where=where)
    n = Slist.shape[1]
    if n == 0:
        raise ModelError(f"{where}: Slist has no columns; give one screw axis [omega; v] per joint (6 x n)")
    Mlist = _sequence(Mlist, "Mlist", where)
    Glist = _sequence(Glist, "Glist", where)
    if len(Glist) != n or len(Mlist) < n:
        raise ModelError(f"{where}: {n} screw axes (columns of Slist) need {n} inertias in Glist (got "
                         f"{len(Glist)}) and at least {n} link transforms in Mlist (got {len(Mlist)})")
    Mlist = [_check.matrix(M, (4, 4), f"Mlist[{i}]", where=where) for i, M in enumerate(Mlist)]
    Glist = [_check.matrix(G, (6, 6), f"Glist[{i}]", where=where, symmetric=True) for i, G in enumerate(Glist)]
    for i, M in enumerate(Mlist):
        _check.matrix(M[:3, :3], (3, 3), f"Mlist[{i}][:3, :3]", where=where, orthogonal=True)
    gravity = _check.vector(gravity, 3, "gravity", where=where)
    name = _check.instance(name, str, "name", where=where)
    model = pin.Model()
    model.gravity.linear = gravity
    T = np.eye(4)
    prev_point = np.zeros(3)
    parent = 0
    for i in range(n):
        T = T @ np.asarray(Mlist[i], float)                         # mass-centre frame of link i at home
        w, v = Slist[:3, i], Slist[3:, i]
        if abs(np.linalg.norm(w) - 1) > 1e-9:
            raise ModelError(f"{where}: Slist column {i} is not a revolute screw axis (|omega| = "
                             f"{np.linalg.norm(w):.3g}, not 1); give unit rotation axes")
        point = cross(w, v, check=False)                    # the point of the axis nearest the origin
        jid = model.addJoint(parent, pin.JointModelRevoluteUnaligned(w), pin.SE3(np.eye(3), point - prev_point),
                             f"joint{i + 1}")
        G = Glist[i]
        m = G[3, 3]
        if m <= 0 or np.linalg.eigvalsh(G[:3, :3]).min() <= 0:
            raise ModelError(f"{where}: Glist[{i}] has mass {m} and rotational inertia eigenvalues "
                             f"{np.round(np.linalg.eigvalsh(G[:3, :3]), 9)}; give positive mass and inertia")
        model.appendBodyToJoint(jid, pin.Inertia(m, np.zeros(3), G[:3, :3]), pin.SE3(T[:3, :3], T[:3, 3] - point))
        prev_point, parent = point, jid
    model.name = name
    return from_pinocchio(model)


def from_dh(links, gravity=(0.0, 0.0, -9.81), name: str = "DH arm") -> RobotSystem:
    """A serial arm from standard Denavit-Hartenberg rows with dynamics: each link a dict with d, a,
    alpha, offset, m, r (mass centre in the link frame) and I (3x3 inertia at the mass centre, link
    axes), as in the Robotics Toolbox's DH models.  Joint i turns about z_{i-1}.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import interop
    >>> link = dict(d=0.0, a=1.0, alpha=0.0, offset=0.0, m=1.0, r=[-0.5, 0, 0], I=np.eye(3) * 0.1)
    >>> interop.from_dh([link, link]).n
    2
    """
    pin = require_pinocchio()
    where = "interop.from_dh"
    links = _sequence(links, "links", where)
    if not links:
        raise ModelError(f"{where}: links is empty; give one dict per link")
    rows = []
    for i, L in enumerate(links):
        what = f"links[{i}]"
        _check.instance(L, dict, what, where=where, hint="give dict(d=, a=, alpha=, offset=, m=, r=, I=)")
        missing = [k for k in ("d", "a", "alpha", "m", "r", "I") if k not in L]
        if missing:
            raise ModelError(f"{where}: {what} has no {missing}; each link needs d, a, alpha, m, r, I "
                             "(offset optional)")
        row = {k: _check.scalar(L[k], f"{what}['{k}']", where=where) for k in ("d", "a", "alpha")}
        row["offset"] = _check.scalar(L.get("offset", 0.0), f"{what}['offset']", where=where)
        row["m"] = _check.scalar(L["m"], f"{what}['m']", where=where, positive=True)
        row["r"] = _check.vector(L["r"], 3, f"{what}['r']", where=where)
        row["I"] = _check.matrix(L["I"], (3, 3), f"{what}['I']", where=where, symmetric=True)
        if np.linalg.eigvalsh(row["I"]).min() <= 0:
            raise ModelError(f"{where}: {what}['I'] is not positive definite (eigenvalues "
                             f"{np.round(np.linalg.eigvalsh(row['I']), 9)}); give a positive inertia")
        rows.append(row)
    gravity = _check.vector(gravity, 3, "gravity", where=where)
    name = _check.instance(name, str, "name", where=where)
    model = pin.Model()
    model.gravity.linear = gravity

    def dh(d, a, alpha):
        ca, sa = np.cos(alpha), np.sin(alpha)
        R = np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]])
        return pin.SE3(R, np.array([a, 0.0, d]))                     # Tz(d) Tx(a) Rx(alpha), after Rz(theta)

    parent, placement = 0, pin.SE3.Identity()
    for i, L in enumerate(rows):
        off = L["offset"]
        Roff = pin.SE3(np.array([[np.cos(off), -np.sin(off), 0], [np.sin(off), np.cos(off), 0], [0, 0, 1.0]]),
                       np.zeros(3))
        jid = model.addJoint(parent, pin.JointModelRZ(), placement * Roff, f"joint{i + 1}")
        body = dh(L["d"], L["a"], L["alpha"])
        model.appendBodyToJoint(jid, pin.Inertia(L["m"], L["r"], L["I"]), body)
        parent, placement = jid, body
    model.name = name
    return from_pinocchio(model)


def _flag(x, what, where, hint="pass True or False"):
    """A Python bool (numpy bools converted); else a ModelError naming the argument."""
    return bool(_check.instance(x.item() if isinstance(x, np.bool_) else x, bool, what, where=where, hint=hint))


def _sequence(x, what, where):
    """A list or tuple (or an array's rows) of per-joint items; else a ModelError."""
    if isinstance(x, np.ndarray) and x.ndim >= 1:
        return list(x)
    return list(_check.instance(x, (list, tuple), what, where=where, hint="give a list with one entry per joint"))


_F64 = np.dtype(np.float64)


def _fast_args(robot: RobotSystem):
    """The arrays of the compiled end-to-end path (``fastpath._pin_fd``), packed once per robot into one
    int and one float array (``fastpath._pack_pin``): the FastModel's, then per body the Pinocchio joint
    code, q and v offsets, unit axis (revolute and prismatic joints), placement rotation and translation,
    and mass-centre lever; then the unit blocks of q and the squared-norm bounds that the input check uses."""
    args = robot.__dict__.get("_fast_args")
    if args is None:
        from . import fastpath
        pin = require_pinocchio()
        fm = _fast_model(robot)
        model = robot.pin_model
        data = model.createData()
        pin.forwardKinematics(model, data, pin.neutral(model))
        n = robot.n
        code, axis = np.zeros(n, np.int64), np.zeros((n, 3))
        for k, kind in enumerate(robot.pin_kinds):
            i = k + 1
            if kind in ("revolute", "prismatic"):
                axis[k] = _joint_axis(model, data, i, kind)
            code[k] = fastpath.PIN_CODES["continuous" if kind == "revolute" and model.joints[i].nq == 2 else kind]
        pin_arrays = (code, np.array(model.idx_qs[1:], np.int64), np.array(model.idx_vs[1:], np.int64), axis,
                      np.array(robot.pin_placements, float),
                      np.array([np.array(model.jointPlacements[i].translation).ravel() for i in range(1, n + 1)]),
                      np.array([np.array(model.inertias[i].lever).ravel() for i in range(1, n + 1)]))
        kernel = fastpath.pack_pinocchio(fm, *pin_arrays)
        blocks = tuple((a, b) for _, a, b, _ in robot.pin_unit_q)
        args = (kernel, blocks, (1.0 - EULER_TOL) ** 2, (1.0 + EULER_TOL) ** 2)
        object.__setattr__(robot, "_fast_args", args)
    return args


def fast_kernel(robot: RobotSystem) -> tuple:
    """The packed arrays (int, float) of the compiled end-to-end path of ``form="fast"``
    (:func:`rfda_teach.fastpath.pack_pinocchio`), built once per robot and kept with it.

    Examples
    --------
    >>> from rfda_teach import interop
    >>> len(interop.fast_kernel(interop.example_robot("ur5")))
    2
    """
    return _fast_args(_robot(robot, "interop.fast_kernel"))[0]


def state_and_speed_map(robot: RobotSystem, q, v, *, where: str = "") -> tuple:
    """The package's absolute state of Pinocchio's (q, v) and the matrix S with
    qdot_ours = S v (the package's joint speeds from Pinocchio's, joint by joint).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import interop
    >>> robot = interop.example_robot("ur5")
    >>> q, v, _ = interop.random_state(robot, seed=0)
    >>> state, S = interop.state_and_speed_map(robot, q, v)
    >>> S.shape, bool(np.allclose(state.y, interop.to_state(robot, q, v).y))
    ((6, 6), True)
    """
    where = where or "interop.state_and_speed_map"         # a caller's name for its messages
    robot = _robot(robot, where)
    model, data, q, v = _kinematics(robot, q, v, where)
    S = np.zeros((model.nv, model.nv))
    for i, Si in zip(range(1, model.njoints), _speed_maps(robot, data)):
        S[robot.dof_slices[i - 1], model.idx_vs[i]:model.idx_vs[i] + model.nvs[i]] = Si
    return _state(model, data), S


def _forward_dynamics_fast(robot, q, v, tau, where):
    """form="fast": the input check in Python (a few array operations when all is well; else the readable
    checks, which name the argument), then one compiled call (``fastpath._pin_fd``)."""
    from . import fastpath
    if type(robot) is not RobotSystem:
        _robot(robot, where)
    if not fastpath.available():                                   # pragma: no cover - depends on the extra
        raise ModelError("form='fast' needs numba: pip install numba (or the extra 'fast')")
    kernel, blocks, lo, hi = _fast_args(robot)
    model = robot.pin_model
    nq, nv = model.nq, model.nv
    ok = (type(q) is np.ndarray and type(v) is np.ndarray and type(tau) is np.ndarray and q.dtype == _F64
          and v.dtype == _F64 and tau.dtype == _F64 and q.shape == (nq,) and v.shape == (nv,)
          and tau.shape == (nv,) and q.flags.c_contiguous and v.flags.c_contiguous and tau.flags.c_contiguous
          and q.flags.writeable and v.flags.writeable and tau.flags.writeable      # one compiled signature only
          and math.isfinite(q @ q + v @ v + tau @ tau))                            # NaN/inf spoil the sum
    if ok:
        for a, b in blocks:
            s = q[a:b] @ q[a:b]
            if not lo <= s <= hi:
                ok = False
                break
    if not ok:                                                    # the readable checks raise, or convert
        q, v = _pin_state(robot, q, v, where)
        tau = _check.vector(tau, nv, "tau", where=where, hint=f"Pinocchio's joint forces of {robot.name!r}")
        q, v, tau = (np.array(x, dtype=float, order="C") for x in (q, v, tau))  # contiguous, writeable copies
    return fastpath.pinocchio_forward_dynamics(*kernel, q, v, tau)


def _fast_model(robot: RobotSystem):
    from . import fastpath
    fm = robot.__dict__.get("_fast")
    if fm is None:
        fm = fastpath.compile_model(robot)
        object.__setattr__(robot, "_fast", fm)
    return fm



def ur5_screws():
    """The UR5 in Modern Robotics' format (Lynch & Park's UR5 parameters): (Mlist, Glist, Slist).

    Examples
    --------
    >>> Mlist, Glist, Slist = ur5_screws()
    >>> len(Mlist), Slist.shape
    (6, (6, 6))
    """
    M01 = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.089159], [0, 0, 0, 1]])
    M12 = np.array([[0, 0, 1, 0.28], [0, 1, 0, 0.13585], [-1, 0, 0, 0], [0, 0, 0, 1]])
    M23 = np.array([[1, 0, 0, 0], [0, 1, 0, -0.1197], [0, 0, 1, 0.395], [0, 0, 0, 1]])
    M34 = np.array([[0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0.14225], [0, 0, 0, 1]])
    M45 = np.array([[1, 0, 0, 0], [0, 1, 0, 0.093], [0, 0, 1, 0], [0, 0, 0, 1]])
    M56 = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.09465], [0, 0, 0, 1]])
    G = [np.diag(v) for v in ([0.010267495893, 0.010267495893, 0.00666, 3.7, 3.7, 3.7],
                              [0.22689067591, 0.22689067591, 0.0151074, 8.393, 8.393, 8.393],
                              [0.049443313556, 0.049443313556, 0.004095, 2.275, 2.275, 2.275],
                              [0.111172755531, 0.111172755531, 0.21942, 1.219, 1.219, 1.219],
                              [0.111172755531, 0.111172755531, 0.21942, 1.219, 1.219, 1.219],
                              [0.0171364731454, 0.0171364731454, 0.033822, 0.1879, 0.1879, 0.1879])]
    S = np.array([[0, 0, 1, 0, 0, 0], [0, 1, 0, -0.089159, 0, 0], [0, 1, 0, -0.089159, 0, 0.425],
                  [0, 1, 0, -0.089159, 0, 0.81725], [0, 0, -1, -0.10915, 0.81725, 0],
                  [0, 1, 0, 0.005491, 0, 0.81725]]).T
    return [M01, M12, M23, M34, M45, M56], G, S


__all__ += ["from_screws", "from_dh", "ur5_screws"]


# ----------------------------------------------------------------------------- robots in their own (q, v)

@dataclass(frozen=True, eq=False)
class RobotTrajectory:
    """A robot's motion in Pinocchio's coordinates: times ``t`` (m,), configurations ``q`` (m, nq) with unit
    quaternions and (cos, sin) pairs, velocities ``v`` (m, nv); ``nfev`` right-hand-side evaluations.

    Examples
    --------
    >>> import numpy as np
    >>> RobotTrajectory(np.zeros(1), np.zeros((1, 2)), np.zeros((1, 2)), 0).q.shape
    (1, 2)
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    nfev: int = 0

    def __repr__(self) -> str:
        """One line: the samples, the time span, the shapes of q and v (rows are times) and the right-hand-side
        evaluations the integrator of :func:`simulate` spent.

        Examples
        --------
        >>> from rfda_teach import interop
        >>> robot = interop.example_robot("ur5")
        >>> q0, v0, _ = interop.random_state(robot, seed=0)
        >>> interop.simulate(robot, q0, v0, 0.05, n_out=6)  # doctest: +ELLIPSIS
        RobotTrajectory: 6 samples, t = 0 … 0.05 s, q (6, 6), v (6, 6); ... right-hand-side evaluations
        """
        return (f"RobotTrajectory: {samples(self.t)}, q {np.shape(self.q)}, v {np.shape(self.v)}; "
                f"{self.nfev} right-hand-side evaluations")


def _rate_plan(robot: RobotSystem):
    """(q indices, v indices) of the joints whose qdot is v (bounded revolute, prismatic, universal), and
    (kind, idx_q, idx_v) of the others, once per robot."""
    plan = robot.__dict__.get("_rate_plan")
    if plan is None:
        model = robot.pin_model
        sq, sv, special = [], [], []
        for k, kind in enumerate(robot.pin_kinds):
            jm = model.joints[k + 1]
            if kind in ("revolute", "prismatic") and jm.nq == 1:
                sq.append(jm.idx_q)
                sv.append(jm.idx_v)
            elif kind == "universal":                          # qdot = v, two angles
                sq += [jm.idx_q, jm.idx_q + 1]
                sv += [jm.idx_v, jm.idx_v + 1]
            else:
                special.append(("continuous" if kind == "revolute" else kind, jm.idx_q, jm.idx_v))
        plan = (np.array(sq, np.int64), np.array(sv, np.int64), tuple(special),
                tuple((a, b) for _, a, b, _ in robot.pin_unit_q))
        object.__setattr__(robot, "_rate_plan", plan)
    return plan


def _quat_rate(e, w):
    """d/dt of Pinocchio's quaternion e = (x, y, z, w) under the local angular velocity w: (1/2) e (w, 0),
    :func:`rfda_teach.spatial.euler_params_rate` in body components, reordered scalar last."""
    return scalar_last(euler_params_rate(scalar_first(e, check=False), w, frame="body", check=False), check=False)


def configuration_rate(robot: RobotSystem, q, v) -> np.ndarray:
    """qdot for Pinocchio's (q, v): v for revolute, prismatic and universal joints; for a free-flyer R v_lin and the
    quaternion rate (1/2) e (omega, 0) with omega in the child frame; the same quaternion rate for a
    spherical joint; (-sin, cos) omega for a continuous joint's (cos, sin) pair; a planar joint's (x, y)
    rotated by its angle and its (cos, sin) pair as a continuous joint's.  The first-order
    form q' = qdot(q, v), v' = a(q, v, tau) that :func:`simulate` integrates.

    Examples
    --------
    >>> import numpy as np, pinocchio as pin
    >>> robot = example_robot("solo12")
    >>> q, v, _ = random_state(robot, seed=0)
    >>> h = 1e-6
    >>> fd = (pin.integrate(robot.pin_model, q, h * v) - pin.integrate(robot.pin_model, q, -h * v)) / (2 * h)
    >>> bool(np.allclose(configuration_rate(robot, q, v), fd, atol=1e-8))
    True
    """
    where = "interop.configuration_rate"
    robot = _robot(robot, where)
    q, v = _pin_state(robot, q, v, where)
    return _configuration_rate(robot, q, v)


def _configuration_rate(robot, q, v):
    sq, sv, special, _ = _rate_plan(robot)
    qd = np.empty(q.shape[0])
    qd[sq] = v[sv]
    for kind, a, b in special:
        if kind == "free":
            R = euler_params_to_matrix(scalar_first(q[a + 3:a + 7], check=False), check=False)
            qd[a:a + 3] = R @ v[b:b + 3]                       # p' = R v_lin (q is normalised here)
            qd[a + 3:a + 7] = _quat_rate(q[a + 3:a + 7], v[b + 3:b + 6])
        elif kind == "spherical":
            qd[a:a + 4] = _quat_rate(q[a:a + 4], v[b:b + 3])
        elif kind == "continuous":
            qd[a], qd[a + 1] = -q[a + 1] * v[b], q[a] * v[b]
        else:                                                  # planar: (x, y, cos, sin), v = (vx, vy, wz)
            c, s = q[a + 2], q[a + 3]
            qd[a], qd[a + 1] = c * v[b] - s * v[b + 1], s * v[b] + c * v[b + 1]
            qd[a + 2], qd[a + 3] = -s * v[b + 2], c * v[b + 2]
    return qd


def _normalise(q, blocks):
    for a, b in blocks:
        q[..., a:b] /= np.linalg.norm(q[..., a:b], axis=-1, keepdims=True)
    return q


def energy(robot: RobotSystem, q, v) -> float:
    """Total energy, kinetic plus potential in the robot's gravity (Pinocchio's
    ``computeKineticEnergy`` + ``computePotentialEnergy``), for Pinocchio's (q, v).

    Examples
    --------
    >>> import numpy as np
    >>> robot = example_robot("ur5")
    >>> q, v, _ = random_state(robot, seed=0)
    >>> bool(energy(robot, q, 2 * v) > energy(robot, q, v))
    True
    """
    pin = require_pinocchio()
    where = "interop.energy"
    robot = _robot(robot, where)
    q, v = _pin_state(robot, q, v, where)
    data = robot.pin_model.createData()
    return float(pin.computeKineticEnergy(robot.pin_model, data, q, v)
                 + pin.computePotentialEnergy(robot.pin_model, data, q))


def _tau_of_time(tau, robot, t_final, where):
    """tau as a function f(t, q, v): zero, constant, samples at evenly spaced times (linear
    interpolation) or the user's callable (its output checked)."""
    nv = robot.pin_model.nv
    if tau is None:
        zero = np.zeros(nv)
        return lambda t, q, v: zero
    if callable(tau):
        def f(t, q, v):
            try:
                out = tau(t, q.copy(), v.copy())
            except Exception as exc:                          # the user's controller failed: say where
                raise ModelError(f"{where}: the callable tau raised {type(exc).__name__}: {exc} at t = {t:.6g}; "
                                 "tau(t, q, v) must return the nv joint forces") from exc
            return _check.vector(out, nv, "tau(t, q, v)", where=where,
                                 hint=f"the callable tau must return {nv} joint forces")
        return f
    arr = _check._array(tau, "tau", where)
    if arr.ndim == 1:
        arr = _check.vector(arr, nv, "tau", where=where, hint=f"{nv} constant joint forces")
        return lambda t, q, v: arr
    if arr.ndim != 2 or arr.shape[1] != nv or arr.shape[0] < 2:
        raise ModelError(f"{where}: tau has shape {arr.shape}; give {nv} constant joint forces, an array "
                         f"(m, {nv}) of joint forces at m >= 2 evenly spaced times from 0 to t_final, or a "
                         "callable tau(t, q, v)")
    arr = _check._finite(arr, "tau", where)
    m = arr.shape[0]

    def g(t, q, v):
        s = min(max(t / t_final, 0.0), 1.0) * (m - 1)
        i = min(int(s), m - 2)
        w = s - i
        return (1.0 - w) * arr[i] + w * arr[i + 1]
    return g


def simulate(robot: RobotSystem, q0, v0, t_final, *, tau=None, form: str = "fast", method: str = "DOP853",
             rtol: float = 1e-10, atol: float = 1e-10, t_eval=None, n_out: int | None = None) -> RobotTrajectory:
    """Integrate a robot's motion in Pinocchio's own coordinates (q, v) over [0, t_final] with
    ``scipy.integrate.solve_ivp`` (``method`` "DOP853", "RK45", "Radau", "BDF" or "LSODA").

    The first-order system is q' = :func:`configuration_rate` (q, v), v' = :func:`forward_dynamics`
    (q, v, tau), in the embedding coordinates of q (quaternions, (cos, sin) pairs).  Quaternions stay unit by
    renormalisation, not by integrating on the manifold: the right-hand side evaluates the dynamics at q
    with every quaternion and (cos, sin) pair normalised (their rate is tangent to the unit sphere, so the
    integrator drifts off it only by its truncation error), and every returned q is normalised.
    ``tau`` is None (no joint forces), a constant vector (nv,), an array (m, nv) of samples at m evenly
    spaced times from 0 to t_final (linear interpolation between them), or a callable tau(t, q, v) such
    as a PD controller.  ``form`` is any form of :func:`forward_dynamics` ("fast" by default).  Output at
    the solver's steps, at ``t_eval``, or at ``n_out`` evenly spaced times.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import interop
    >>> robot = interop.example_robot("ur5")
    >>> q0, v0, _ = interop.random_state(robot, seed=0)
    >>> pd = lambda t, q, v: -50.0 * (q - q0) - 5.0 * v          # a PD controller holding q0
    >>> traj = interop.simulate(robot, q0, v0, 0.2, tau=pd, n_out=5)
    >>> traj.t.shape, traj.q.shape, traj.v.shape
    ((5,), (5, 6), (5, 6))
    >>> interop.simulate(robot, q0, v0, -1.0)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: interop.simulate: t_final is -1.0; give a finite end time > 0 in seconds, e.g. t_final=2.0
    """
    where = "interop.simulate"
    robot = _robot(robot, where)
    q0, v0 = _pin_state(robot, q0, v0, where, names=("q0", "v0"))
    form = _check.choice(form, ("fast", "featherstone", "lubich", "dense"), "form", where=where)
    options = span(t_final, t_eval=t_eval, n_out=n_out, rtol=rtol, atol=atol, method=method, where=where)
    tau_f = _tau_of_time(tau, robot, options.t_final, where)
    nq = robot.pin_model.nq
    blocks = _rate_plan(robot)[3]

    def rhs(t, x):
        q = _normalise(x[:nq].copy(), blocks)
        v = x[nq:]
        return np.concatenate([_configuration_rate(robot, q, v),
                               forward_dynamics(robot, q, v, tau_f(t, q, v), form=form)])

    run = integrate(rhs, np.concatenate([q0, v0]), options, where=where)
    X = run.x
    return RobotTrajectory(run.t, _normalise(X[:, :nq].copy(), blocks), X[:, nq:].copy(), run.nfev)


__all__ += ["RobotTrajectory", "configuration_rate", "energy", "simulate"]


# ----------------------------------------------------------------------------- the same model for MuJoCo

def to_mjcf(robot: RobotSystem) -> str:
    """The robot as MuJoCo MJCF text: the same bodies (joint frames, mass centres, central inertias),
    joints (hinge, slide, ball, free) and gravity, contacts off, no damping or armature, so that
    ``mujoco.mj_forward`` gives the same accelerations as :func:`forward_dynamics` (MuJoCo is a peer for
    the benchmark and the tests, not a dependency).  Bodies and joints are named ``b<k>`` and ``j<k>``
    for body k.  Planar and universal joints and free-flyers below the root have no MuJoCo counterpart and
    are refused.

    Examples
    --------
    >>> text = to_mjcf(example_robot("ur5"))
    >>> text.count("<joint "), '<flag contact="disable"' in text
    (6, True)
    """
    pin = require_pinocchio()
    where = "interop.to_mjcf"
    robot = _robot(robot, where)
    if robot.forces:                         # the MJCF text is written from the Pinocchio model, which has none
        names = ", ".join(e.name for e in robot.forces)
        raise ModelError(f"{where}: robot {robot.name!r} has force elements ({names}), which this export does not "
                         "write; export the robot without them")
    model = robot.pin_model
    for k, kind in enumerate(robot.pin_kinds):
        if kind in ("planar", "universal") or (kind == "free" and robot.parents[k] >= 0):
            what = f"{kind} joint" if kind != "free" else "free-flyer below another body"
            raise ModelError(f"{where}: joint {model.names[k + 1]!r} is a {what}, "
                             "which MuJoCo has no counterpart for; convert a robot with revolute, prismatic, "
                             "spherical joints and free-flyers on the ground only")
    def f(x):
        return repr(float(x))
    data = model.createData()
    pin.forwardKinematics(model, data, pin.neutral(model))
    children = [[] for _ in range(robot.n + 1)]
    for k, p in enumerate(robot.parents):
        children[p + 1].append(k)

    def body(k, depth):
        i = k + 1
        plc = model.jointPlacements[i]
        x, y, z, w = pin.Quaternion(np.array(plc.rotation)).coeffs()
        t = np.array(plc.translation).ravel()
        inert = model.inertias[i]
        c, I = np.array(inert.lever).ravel(), np.array(inert.inertia)
        kind = robot.pin_kinds[k]
        pad = "  " * depth
        out = [f'{pad}<body name="b{k}" pos="{f(t[0])} {f(t[1])} {f(t[2])}" quat="{f(w)} {f(x)} {f(y)} {f(z)}">',
               f'{pad}  <inertial pos="{f(c[0])} {f(c[1])} {f(c[2])}" mass="{f(float(inert.mass))}" '
               f'fullinertia="{f(I[0, 0])} {f(I[1, 1])} {f(I[2, 2])} {f(I[0, 1])} {f(I[0, 2])} {f(I[1, 2])}"/>']
        if kind == "free":
            out.append(f'{pad}  <freejoint name="j{k}"/>')
        elif kind == "spherical":
            out.append(f'{pad}  <joint name="j{k}" type="ball"/>')
        else:
            u = _joint_axis(model, data, i, kind)
            out.append(f'{pad}  <joint name="j{k}" type="{"hinge" if kind == "revolute" else "slide"}" '
                       f'axis="{f(u[0])} {f(u[1])} {f(u[2])}"/>')
        for ch in children[i]:
            out += body(ch, depth + 1)
        return out + [f"{pad}</body>"]

    g = robot.gravity
    lines = [f'<mujoco model="{robot.name}">',
             '  <compiler angle="radian" autolimits="true" balanceinertia="false" boundmass="0" boundinertia="0"/>',
             f'  <option gravity="{f(g[0])} {f(g[1])} {f(g[2])}">',
             '    <flag contact="disable" constraint="disable"/>', "  </option>", "  <worldbody>"]
    for k in children[0]:
        lines += body(k, 2)
    return "\n".join(lines + ["  </worldbody>", "</mujoco>", ""])


def _mujoco_maps(robot, mj):
    """Per body k: (kind, Pinocchio idx_q, idx_v, nq, MuJoCo qpos address, dof address)."""
    import mujoco
    model = robot.pin_model
    out = []
    for k, kind in enumerate(robot.pin_kinds):
        jid = mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_JOINT, f"j{k}")
        jm = model.joints[k + 1]
        out.append((kind, jm.idx_q, jm.idx_v, jm.nq, int(mj.jnt_qposadr[jid]), int(mj.jnt_dofadr[jid])))
    return out


def _to_mujoco_state(robot, mj, q, v):
    """(qpos, qvel) of MuJoCo for Pinocchio's (q, v): quaternions (w, x, y, z), angles of continuous
    joints, a free joint's linear velocity in world axes."""
    qpos, qvel = np.zeros(mj.nq), np.zeros(mj.nv)
    for kind, a, b, nq, pa, da in _mujoco_maps(robot, mj):
        if kind == "free":
            x, y, z, w = q[a + 3:a + 7]
            qpos[pa:pa + 7] = [*q[a:a + 3], w, x, y, z]
            R = require_pinocchio().Quaternion(w, x, y, z).toRotationMatrix()
            qvel[da:da + 3] = R @ v[b:b + 3]
            qvel[da + 3:da + 6] = v[b + 3:b + 6]
        elif kind == "spherical":
            x, y, z, w = q[a:a + 4]
            qpos[pa:pa + 4] = [w, x, y, z]
            qvel[da:da + 3] = v[b:b + 3]
        else:
            qpos[pa] = np.arctan2(q[a + 1], q[a]) if nq == 2 else q[a]
            qvel[da] = v[b]
    return qpos, qvel


def _from_mujoco_state(robot, mj, qpos, qvel, qacc=None):
    """Pinocchio's (q, v), and a from MuJoCo's qacc when given (the inverse of _to_mujoco_state)."""
    pin = require_pinocchio()
    model = robot.pin_model
    q, v, a = np.zeros(model.nq), np.zeros(model.nv), np.zeros(model.nv)
    for kind, ia, ib, nq, pa, da in _mujoco_maps(robot, mj):
        if kind == "free":
            w, x, y, z = qpos[pa + 3:pa + 7]
            q[ia:ia + 7] = [*qpos[pa:pa + 3], x, y, z, w]
            R = pin.Quaternion(w, x, y, z).toRotationMatrix()
            v[ib:ib + 3] = R.T @ qvel[da:da + 3]
            v[ib + 3:ib + 6] = qvel[da + 3:da + 6]
            if qacc is not None:                         # d/dt (R v_l) = R (a_l + w_l x v_l)
                a[ib:ib + 3] = R.T @ qacc[da:da + 3] - cross(v[ib + 3:ib + 6], v[ib:ib + 3], check=False)
                a[ib + 3:ib + 6] = qacc[da + 3:da + 6]
        elif kind == "spherical":
            w, x, y, z = qpos[pa:pa + 4]
            q[ia:ia + 4] = [x, y, z, w]
            v[ib:ib + 3] = qvel[da:da + 3]
            if qacc is not None:
                a[ib:ib + 3] = qacc[da:da + 3]
        else:
            q[ia:ia + nq] = [np.cos(qpos[pa]), np.sin(qpos[pa])] if nq == 2 else qpos[pa]
            v[ib] = qvel[da]
            if qacc is not None:
                a[ib] = qacc[da]
    return q, v, a


__all__ += ["to_mjcf"]


def to_pinocchio(system: System):
    """A Pinocchio model of a spatial tree of revolute and prismatic joints (the inverse of
    :func:`from_pinocchio` for such trees): Pinocchio's q and v are then the package's joint
    coordinates and speeds (angle or slide, ``joint.n_q`` = ``joint.n_dof`` = 1), joint by joint.

    Pinocchio's frame of body k is our child joint frame of joint k (origin at the joint point
    ``child_point``, axes ``child_frame``), so joint k sits in its parent's Pinocchio frame at
    (C_j^T P_k, C_j^T (p_k - c_j)) (P_k, p_k: joint k's ``parent_frame`` and ``parent_point``;
    C_j, c_j: the parent's own ``child_frame`` and ``child_point``), the body's mass centre at
    C_k^T (-c_k) and its central inertia C_k^T J'_k C_k.  Revolute joints become JointModelRZ,
    prismatic joints JointModelPZ (the package's joints turn about and slide along the joint
    frame's z axis).  Bodies must be numbered after their parents; cut joints and force elements
    have no counterpart here and are refused.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> model = to_pinocchio(models.chain(3, "spatial"))
    >>> model.nq, model.nv, [j.shortname() for j in model.joints][1:]
    (3, 3, ['JointModelRZ', 'JointModelRZ', 'JointModelRZ'])
    """
    pin = require_pinocchio()
    where = "interop.to_pinocchio"
    system = _check.instance(system, System, "system", where=where,
                             hint="give a spatial tree, e.g. models.chain(3, 'spatial')")
    if system.kind != "spatial":
        raise ModelError(f"{where}: system {system.name!r} has {system.kind} bodies; Pinocchio models spatial "
                         "bodies: build the mechanism with spatial bodies and joints (e.g. "
                         "models.five_bar_arm('spatial'))")
    if system.cuts or system.forces:
        what = "cut joints" if system.cuts else "force elements"
        raise ModelError(f"{where}: system {system.name!r} has {what}, which a Pinocchio tree model does not hold; "
                         "convert the tree without them")
    kinds = {"revolute": pin.JointModelRZ, "prismatic": pin.JointModelPZ}
    model = pin.Model()
    model.name = system.name
    model.gravity = pin.Motion(np.concatenate([system.gravity, np.zeros(3)]))
    for k, (jt, b, j) in enumerate(zip(system.joints, system.bodies, system.parents)):
        if jt.type not in kinds:
            raise ModelError(f"{where}: joint {k} ({jt.name or jt.type!r}) is a {jt.type} joint; this export takes "
                             "revolute and prismatic joints only (use from_urdf for other robots)")
        if j >= k:
            raise ModelError(f"{where}: body {k} hangs from body {j}, numbered after it; number every body "
                             "after its parent")
        if j < 0:
            R0, t0 = jt.parent_frame, jt.parent_point
        else:
            C, c = system.joints[j].child_frame, system.joints[j].child_point
            R0, t0 = C.T @ jt.parent_frame, C.T @ (jt.parent_point - c)
        jid = model.addJoint(j + 1, kinds[jt.type](), pin.SE3(R0, t0), jt.name or f"joint {k}")
        C = jt.child_frame
        model.appendBodyToJoint(jid, pin.Inertia(b.mass, C.T @ (-jt.child_point), C.T @ b.J @ C),
                                pin.SE3.Identity())
    return model


__all__ += ["to_pinocchio"]
