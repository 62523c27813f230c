"""Real robots: build a tree system from a URDF or a Pinocchio model and run the package's own
algorithms on Pinocchio's state (q, v, tau).  Needs the optional extra ``robots`` (pin,
example-robot-data).

A Pinocchio joint i becomes body i-1 of a :class:`RobotSystem` (a :class:`~rfda_teach.system.System`
that also keeps the Pinocchio model): the body's frame is the joint frame, its reference point the
mass centre (``lever``), and its central inertia Pinocchio's.  Revolute (aligned, unaligned,
continuous) and prismatic joints map to the package's "revolute" and "prismatic" joints with a joint
frame whose z axis is the Pinocchio axis; a free-flyer becomes "free" and a spherical joint
"spherical".  Fixed joints are merged by Pinocchio's URDF parser.

Speeds and forces are converted where the conventions differ: Pinocchio's free-flyer and spherical
velocities are in the child (local) frame, the package's in the parent joint frame; the conversion
T (qdot_ours = T v_pin) is orthogonal, so tau_ours = T tau_pin, and accelerations are mapped back,
including the -omega x v term of the free-flyer's local linear acceleration.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import interop
>>> robot = interop.example_robot("ur5")                             
>>> q, v, tau = interop.random_state(robot, seed=0)                 
>>> a = interop.forward_dynamics(robot, q, v, tau, form="featherstone")  
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import dae, rfda
from .bodies import Body, frame_with_z, matrix_to_euler_params
from .errors import ModelError
from .joints import Joint
from .system import State, System

__all__ = ["RobotSystem", "from_pinocchio", "from_urdf", "example_robot", "EXAMPLE_ROBOTS", "to_state",
           "forward_dynamics", "random_state", "require_pinocchio"]

#: URDF files of example-robot-data used by the book and the tests: (path, floating base)
EXAMPLE_ROBOTS = {
    "panda": ("panda_description/urdf/panda.urdf", False),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", False),
    "solo12": ("solo_description/robots/solo12.urdf", True),
    "talos": ("talos_data/robots/talos_reduced.urdf", True),
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


@dataclass(frozen=True, eq=False)
class RobotSystem(System):
    """A :class:`~rfda_teach.system.System` built from a Pinocchio model, which it keeps in ``pin_model``
    together with each joint's Pinocchio kind (``pin_kinds``)."""

    pin_model: object = None
    pin_kinds: tuple = ()
    pin_placements: tuple = field(default=(), repr=False)


def _joint_kind(jm):
    """('revolute' | 'prismatic' | 'free' | 'spherical', axis) of a Pinocchio joint model."""
    name = jm.shortname()
    for prefix, kind in (("JointModelRUB", "revolute"), ("JointModelR", "revolute"), ("JointModelP", "prismatic")):
        if name.startswith(prefix) and name[len(prefix):] in ("X", "Y", "Z"):
            return kind, np.eye(3)["XYZ".index(name[len(prefix):])]
    if name == "JointModelRevoluteUnaligned" or name == "JointModelRevoluteUnboundedUnaligned":
        return "revolute", np.array(jm.extract().axis).ravel()
    if name == "JointModelPrismaticUnaligned":
        return "prismatic", np.array(jm.extract().axis).ravel()
    if name == "JointModelFreeFlyer":
        return "free", None
    if name == "JointModelSpherical":
        return "spherical", None
    raise ModelError(f"Pinocchio joint type {name} is not supported; use revolute, prismatic, continuous, "
                     "spherical or free-flyer joints (fixed joints are merged by the URDF parser)")


def from_pinocchio(model) -> RobotSystem:
    """A tree system with the bodies, inertias and joints of a Pinocchio model (see the module text).

    Examples
    --------
    >>> from rfda_teach import interop
    >>> robot = interop.example_robot("panda")        
    >>> robot.n, robot.n_dof                          
    (9, 9)
    """
    require_pinocchio()
    bodies, joints, parents, kinds, placements = [], [], [], [], []
    for i in range(1, model.njoints):
        inert = model.inertias[i]
        m = float(inert.mass)
        lever = np.array(inert.lever).ravel()
        Ic = np.array(inert.inertia)
        name = model.names[i]
        if m <= 0 or np.linalg.eigvalsh(Ic).min() <= 0:
            raise ModelError(f"Pinocchio joint {name!r} carries a body with mass {m} and central inertia "
                             f"eigenvalues {np.round(np.linalg.eigvalsh(Ic), 9)}; every body needs positive mass "
                             "and inertia (merge massless links into their parent)")
        bodies.append(Body("spatial", m, Ic, name=name))
        p = model.parents[i]
        parents.append(p - 1)
        plc = model.jointPlacements[i]
        P, t = np.array(plc.rotation), np.array(plc.translation).ravel()
        lever_parent = np.zeros(3) if p == 0 else np.array(model.inertias[p].lever).ravel()
        kind, axis = _joint_kind(model.joints[i])
        kinds.append(kind)
        placements.append(P)
        if kind in ("revolute", "prismatic"):
            Ra = frame_with_z(axis)
            joints.append(Joint(kind, parent_point=t - lever_parent, child_point=-lever, parent_frame=P @ Ra,
                                child_frame=Ra, name=name))
        else:
            joints.append(Joint(kind, parent_point=t - lever_parent, child_point=-lever, parent_frame=P,
                                child_frame=np.eye(3), name=name))
    g = np.array(model.gravity.linear).ravel()
    return RobotSystem(tuple(parents), tuple(bodies), tuple(joints), g, name=str(model.name),
                       pin_model=model, pin_kinds=tuple(kinds), pin_placements=tuple(placements))


def from_urdf(path, floating_base: bool = False) -> RobotSystem:
    """Parse a URDF with Pinocchio (a free-flyer root when ``floating_base``) and convert it.

    Examples
    --------
    >>> from rfda_teach import interop
    >>> robot = interop.from_urdf(interop.example_robot_path("ur5"))   
    >>> robot.n                                                        
    6
    """
    pin = require_pinocchio()
    import os
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ModelError(f"URDF file {path!r} does not exist")
    model = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating_base else pin.buildModelFromUrdf(path)
    return from_pinocchio(model)


def example_robot_path(name: str) -> str:
    """Path of an example-robot-data URDF listed in :data:`EXAMPLE_ROBOTS`.

    Examples
    --------
    >>> example_robot_path("ur5").endswith("ur5_robot.urdf")
    True
    """
    if name not in EXAMPLE_ROBOTS:
        raise ModelError(f"unknown example robot {name!r}; choose one of {sorted(EXAMPLE_ROBOTS)}")
    import importlib.metadata as md
    try:
        base = md.distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots")
    except md.PackageNotFoundError as exc:                     # pragma: no cover - depends on the extra
        raise ModelError("example robots need the extra: pip install -e '.[robots]'") from exc
    return str(base / EXAMPLE_ROBOTS[name][0])


def example_robot(name: str) -> RobotSystem:
    """Load one of :data:`EXAMPLE_ROBOTS` (Panda, UR5, Solo-12, Talos) from example-robot-data.

    Examples
    --------
    >>> robot = example_robot("solo12")
    >>> robot.pin_kinds[0], robot.n_dof
    ('free', 18)
    """
    return from_urdf(example_robot_path(name), floating_base=EXAMPLE_ROBOTS[name][1])


def _kinematics(robot: RobotSystem, q, v):
    pin = require_pinocchio()
    model = robot.pin_model
    q, v = np.asarray(q, float), np.asarray(v, float)
    if q.shape != (model.nq,) or v.shape != (model.nv,):
        raise ModelError(f"Pinocchio state of {robot.name!r} needs q ({model.nq},) and v ({model.nv},); got "
                         f"{q.shape} and {v.shape}")
    if not (np.all(np.isfinite(q)) and np.all(np.isfinite(v))):
        raise ModelError("q or v contains NaN or inf")
    data = model.createData()
    pin.forwardKinematics(model, data, q, v)
    return model, data


def _speed_maps(robot: RobotSystem, data):
    """Per joint: T with qdot_ours = T v_pin for that joint's speeds (orthogonal)."""
    model = robot.pin_model
    T = []
    for i in range(1, model.njoints):
        kind = robot.pin_kinds[i - 1]
        if kind == "free":
            R = np.array(data.oMi[i].rotation)
            P = robot.pin_placements[i - 1]
            if model.parents[i] != 0:
                Rp = np.array(data.oMi[model.parents[i]].rotation)
                RJ = Rp @ P
            else:
                RJ = P
            B = np.zeros((6, 6))
            B[:3, :3] = RJ.T @ R
            B[3:, 3:] = RJ.T @ R
            T.append(B)
        elif kind == "spherical":                        # R_q = P^T (liMi rotation): the joint's own rotation
            T.append(robot.pin_placements[i - 1].T @ np.array(data.liMi[i].rotation))
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
    model, data = _kinematics(robot, q, v)
    ys, yds = [], []
    for i in range(1, model.njoints):
        oMi = data.oMi[i]
        R, o = np.array(oMi.rotation), np.array(oMi.translation).ravel()
        lever = np.array(model.inertias[i].lever).ravel()
        vl = data.v[i]
        w = R @ np.array(vl.angular).ravel()
        vo = R @ np.array(vl.linear).ravel()
        ys.append(np.concatenate([o + R @ lever, matrix_to_euler_params(R)]))
        yds.append(np.concatenate([vo + np.cross(w, R @ lever), w]))
    return State(np.concatenate(ys), np.concatenate(yds))


def forward_dynamics(robot: RobotSystem, q, v, tau, form: str = "featherstone") -> np.ndarray:
    """Joint accelerations in Pinocchio's ordering and conventions, computed by the package's RFDA
    (``form`` "lubich" or "featherstone") or the dense eq. (7) (``form`` "dense").

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
    """
    if form not in ("lubich", "featherstone", "dense", "fast"):
        raise ModelError(f"form={form!r}; use 'lubich', 'featherstone', 'dense' or 'fast' (numba)")
    model, data = _kinematics(robot, q, v)
    tau = np.asarray(tau, float)
    if tau.shape != (model.nv,):
        raise ModelError(f"tau has shape {tau.shape}; {robot.name!r} needs ({model.nv},)")
    state = to_state(robot, q, v)
    T = _speed_maps(robot, data)
    tau_ours = np.concatenate([Ti @ tau[model.idx_vs[i]:model.idx_vs[i] + model.nvs[i]]
                               for i, Ti in zip(range(1, model.njoints), T)])
    if form == "fast":
        from . import fastpath
        if not fastpath.available():
            raise ModelError("form='fast' needs numba: pip install numba (or the extra 'fast')")
        qdd_ours = fastpath.joint_accelerations(_fast_model(robot), state.y, state.yd, tau_ours)
    elif form == "dense":
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
            vl = np.asarray(v[sl], float)
            a_k[:3] -= np.cross(vl[3:], vl[:3])
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
    model = robot.pin_model
    rng = np.random.default_rng(seed)
    q = pin.integrate(model, pin.neutral(model), rng.normal(size=model.nv))
    return q, scale * rng.normal(size=model.nv), scale * rng.normal(size=model.nv)


__all__ += ["example_robot_path"]


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
    Slist = np.asarray(Slist, float)
    n = Slist.shape[1]
    if len(Glist) != n or len(Mlist) < n:
        raise ModelError(f"from_screws: {n} screw axes need {n} inertias and at least {n} link transforms")
    model = pin.Model()
    model.gravity.linear = np.asarray(gravity, float)
    T = np.eye(4)
    prev_point = np.zeros(3)
    parent = 0
    for i in range(n):
        T = T @ np.asarray(Mlist[i], float)                         # mass-centre frame of link i at home
        w, v = Slist[:3, i], Slist[3:, i]
        if abs(np.linalg.norm(w) - 1) > 1e-9:
            raise ModelError(f"from_screws: joint {i + 1} is not revolute (|omega| = {np.linalg.norm(w):.3g})")
        point = np.cross(w, v)                                        # the point of the axis nearest the origin
        jid = model.addJoint(parent, pin.JointModelRevoluteUnaligned(w), pin.SE3(np.eye(3), point - prev_point),
                             f"joint{i + 1}")
        G = np.asarray(Glist[i], float)
        m = G[3, 3]
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
    model = pin.Model()
    model.gravity.linear = np.asarray(gravity, float)

    def dh(d, a, alpha):
        ca, sa = np.cos(alpha), np.sin(alpha)
        R = np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]])
        return pin.SE3(R, np.array([a, 0.0, d]))                     # Tz(d) Tx(a) Rx(alpha), after Rz(theta)

    parent, placement = 0, pin.SE3.Identity()
    for i, L in enumerate(links):
        off = float(L.get("offset", 0.0))
        Roff = pin.SE3(np.array([[np.cos(off), -np.sin(off), 0], [np.sin(off), np.cos(off), 0], [0, 0, 1.0]]),
                       np.zeros(3))
        jid = model.addJoint(parent, pin.JointModelRZ(), placement * Roff, f"joint{i + 1}")
        body = dh(float(L["d"]), float(L["a"]), float(L["alpha"]))
        I = np.asarray(L["I"], float)
        model.appendBodyToJoint(jid, pin.Inertia(float(L["m"]), np.asarray(L["r"], float), I), body)
        parent, placement = jid, body
    model.name = name
    return from_pinocchio(model)


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
