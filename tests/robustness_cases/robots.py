"""Bad-input cases for interop and fastpath (see tests/robustness_cases/__init__.py for the format).

Robots and models are built lazily (inside the calls, cached), so collecting the table costs nothing.
"""
from __future__ import annotations

import functools
import os
import tempfile

import numpy as np

from rfda_teach import errors, fastpath, interop, models

from robustness_cases import Case

ME = errors.ModelError
TE = errors.TopologyError


@functools.lru_cache(maxsize=None)
def _robot(name="solo12"):
    return interop.example_robot(name)


def _state(name="solo12"):
    return interop.random_state(_robot(name), seed=0)


def _fd(name="solo12", *, form="featherstone", **bad):
    args = dict(zip(("q", "v", "tau"), _state(name)))
    args.update(bad)
    return interop.forward_dynamics(bad.pop("robot", _robot(name)), args["q"], args["v"], args["tau"], form=form)


@functools.lru_cache(maxsize=None)
def _planar_robot():
    import pinocchio as pin
    model = pin.Model()
    j = model.addJoint(0, pin.JointModelPlanar(), pin.SE3.Identity(), "slide")
    model.appendBodyToJoint(j, pin.Inertia(1.0, np.zeros(3), np.eye(3)), pin.SE3.Identity())
    return interop.from_pinocchio(model)


@functools.lru_cache(maxsize=None)
def _universal_model(axis2=(0.0, 1.0, 0.0)):
    import pinocchio as pin
    model = pin.Model()
    j = model.addJoint(0, pin.JointModelUniversal(np.array([1.0, 0, 0]), np.array(axis2)), pin.SE3.Identity(),
                       "cardan")
    model.appendBodyToJoint(j, pin.Inertia(1.0, np.array([0.0, 0, -0.3]), np.eye(3) * 0.1), pin.SE3.Identity())
    return model


def _sim(**bad):
    q, v, _ = _state()
    args = dict(q0=q, v0=v, t_final=0.01)
    args.update(bad)
    return interop.simulate(_robot(), args.pop("q0"), args.pop("v0"), args.pop("t_final"), **args)


def _unit_q(scale):
    q, v, tau = _state()
    q = q.copy()
    q[3:7] *= scale
    return q


@functools.lru_cache(maxsize=None)
def _dir():
    return tempfile.mkdtemp(prefix="rfda_urdf_")


def _file(name, text):
    path = os.path.join(_dir(), name)
    with open(path, "w") as f:
        f.write(text)
    return path


_LINK = ('<link name="{n}"><inertial><mass value="{m}"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" '
         'izz="0.1"/></inertial></link>')
_LIM = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def _urdf(name, *, mass="1.0", joint2=""):
    links = "".join(_LINK.format(n=n, m=mass) for n in ("base", "l1", "l2"))
    j1 = f'<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>{_LIM}</joint>'
    return _file(name, f'<robot name="r">{links}{j1}{joint2}</robot>')


def _mimic():
    j2 = (f'<joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><axis xyz="0 0 1"/>{_LIM}'
          '<mimic joint="j1"/></joint>')
    return _urdf("mimic.urdf", joint2=j2)


def _odd_joint_model():
    import pinocchio as pin
    model = pin.Model()
    j = model.addJoint(0, pin.JointModelTranslation(), pin.SE3.Identity(), "slider")
    model.appendBodyToJoint(j, pin.Inertia(1.0, np.zeros(3), np.eye(3)), pin.SE3.Identity())
    return model


def _screws(**bad):
    Mlist, Glist, Slist = interop.ur5_screws()
    args = dict(Mlist=Mlist, Glist=Glist, Slist=Slist)
    args.update(bad)
    return interop.from_screws(**args)


_LINK_DH = dict(d=0.0, a=1.0, alpha=0.0, offset=0.0, m=1.0, r=[-0.5, 0, 0], I=np.eye(3) * 0.1)


def _dh(**bad):
    link = dict(_LINK_DH)
    gravity = bad.pop("gravity", (0.0, 0.0, -9.81))
    link.update(bad)
    return interop.from_dh([link], gravity=gravity)


@functools.lru_cache(maxsize=None)
def _chain():
    sys_ = models.chain(3, "spatial")
    return sys_, models.random_state(sys_, seed=0), fastpath.compile_model(sys_)


def _replace_fm(**bad):
    import dataclasses
    return dataclasses.replace(_chain()[2], **bad)


def _fast(fn, **bad):
    sys_, s, fm = _chain()
    args = dict(fm=fm, y=s.y, yd=s.yd, tau=np.zeros(3))
    args.update(bad)
    return getattr(fastpath, fn)(args.pop("fm"), **args)


def _zero_quat():
    y = _chain()[1].y.copy()
    y[3:7] = 0.0
    return y


def _nan_at(x, i):
    x = np.array(x, float)
    x[i] = np.nan
    return x


_PANDA_MIMIC = interop.from_urdf(interop.example_robot_path("panda"), mimic=True)


def _off_mimic():
    q, v, tau = interop.random_state(_PANDA_MIMIC, seed=0)
    q[_PANDA_MIMIC.mimic[0].q_m] += 0.1
    return q, v, tau


CASES = [
    # ------------------------------------------------------------ interop.forward_dynamics
    Case("interop.forward_dynamics q None", lambda: _fd(q=None), ME, r"forward_dynamics: q must be an array"),
    Case("interop.forward_dynamics q short", lambda: _fd(q=_state()[0][:-1]), ME,
         r"q has shape \(18,\); it must be \(19,\)"),
    Case("interop.forward_dynamics v nan", lambda: _fd(v=_nan_at(_state()[1], 2)), ME, r"v\[2\] is nan"),
    Case("interop.forward_dynamics tau str", lambda: _fd(tau="tau"), ME, r"tau must be an array"),
    Case("interop.forward_dynamics tau inf", lambda: _fd(tau=np.full(18, np.inf)), ME, r"tau\[0\] is inf"),
    Case("interop.forward_dynamics zero quaternion", lambda: _fd(q=_unit_q(0.0)), ME,
         r"q\[3:7\], the quaternion of joint 'root_joint', has norm 0"),
    Case("interop.forward_dynamics non-unit quaternion fast", lambda: _fd(q=_unit_q(1.5), form="fast"), ME,
         r"quaternion of joint 'root_joint', has norm 1.5.*pinocchio.normalize"),
    Case("interop.forward_dynamics form", lambda: _fd(form="aba"), ME, r"form='aba' is not known"),
    Case("interop.forward_dynamics plain System", lambda: interop.forward_dynamics(models.chain(2, "spatial"),
         *_state()), ME, r"robot must be a RobotSystem, got System"),
    Case("interop.forward_dynamics fast q None", lambda: _fd(q=None, form="fast"), ME, r"forward_dynamics: q must be "),
    Case("interop.forward_dynamics fast v str", lambda: _fd(v="v", form="fast"), ME, r"v must be an array"),
    Case("interop.forward_dynamics fast tau nan", lambda: _fd(tau=_nan_at(_state()[2], 4), form="fast"), ME,
         r"tau\[4\] is nan"),
    Case("interop.forward_dynamics fast q long", lambda: _fd(q=np.zeros(20), form="fast"), ME, r"q has shape \(20,\)"),
    Case("interop.forward_dynamics fast robot None", lambda: interop.forward_dynamics(None, *_state(), form="fast"),
         ME, r"robot must be a RobotSystem"),
    # ------------------------------------------------------------ interop.simulate, configuration_rate, energy
    Case("interop.simulate t_final 0", lambda: _sim(t_final=0.0), ME, r"simulate: t_final is 0.0"),
    Case("interop.simulate t_final str", lambda: _sim(t_final="2"), ME, r"t_final is '2'"),
    Case("interop.simulate q0 quaternion", lambda: _sim(q0=_unit_q(3.0)), ME, r"q0\[3:7\], the quaternion"),
    Case("interop.simulate v0 None", lambda: _sim(v0=None), ME, r"v0 must be an array"),
    Case("interop.simulate tau shape", lambda: _sim(tau=np.zeros((2, 3))), ME, r"tau has shape \(2, 3\)"),
    Case("interop.simulate tau returns str", lambda: _sim(tau=lambda t, q, v: "x"), ME, r"tau\(t, q, v\) must be"),
    Case("interop.simulate method", lambda: _sim(method="euler"), ME, r"method='euler' is not known"),
    Case("interop.simulate rtol", lambda: _sim(rtol=-1.0), ME, r"rtol is -1.0"),
    Case("interop.simulate n_out", lambda: _sim(n_out=0), ME, r"n_out"),
    Case("interop.simulate robot", lambda: interop.simulate("solo", *_state()[:2], 1.0), ME, r"robot must be"),
    Case("interop.configuration_rate v nan", lambda: interop.configuration_rate(_robot(), _state()[0],
         _nan_at(_state()[1], 0)), ME, r"configuration_rate: v\[0\] is nan"),
    Case("interop.configuration_rate robot", lambda: interop.configuration_rate(None, *_state()[:2]), ME,
         r"robot must be a RobotSystem"),
    Case("interop.energy q short", lambda: interop.energy(_robot(), _state()[0][:5], _state()[1]), ME,
         r"energy: q has shape \(5,\)"),
    Case("interop.energy quaternion", lambda: interop.energy(_robot(), _unit_q(0.5), _state()[1]), ME,
         r"q\[3:7\], the quaternion of joint 'root_joint', has norm 0.5"),
    Case("interop.to_mjcf None", lambda: interop.to_mjcf(None), ME, r"to_mjcf: robot must be a RobotSystem"),
    Case("interop.to_mjcf planar joint", lambda: interop.to_mjcf(_planar_robot()), ME,
         r"to_mjcf: joint 'slide' is a planar joint, which MuJoCo has no counterpart for"),
    # ------------------------------------------------------------ interop.to_state
    Case("interop.to_state robot None", lambda: interop.to_state(None, *_state()[:2]), ME, r"to_state: robot must be"),
    Case("interop.to_state v long", lambda: interop.to_state(_robot(), _state()[0], np.zeros(19)), ME, r"v has shape"),
    Case("interop.to_state quaternion", lambda: interop.to_state(_robot(), _unit_q(2.0), _state()[1]), ME,
         r"to_state: q\[3:7\], the quaternion of joint 'root_joint'"),
    # ------------------------------------------------------------ interop.random_state
    Case("interop.random_state plain System", lambda: interop.random_state(models.chain(2, "spatial")), ME,
         r"random_state: robot must be a RobotSystem"),
    Case("interop.random_state seed -1", lambda: interop.random_state(_robot(), seed=-1), ME, r"seed is -1"),
    Case("interop.random_state seed str", lambda: interop.random_state(_robot(), seed="0"), ME, r"seed is '0'"),
    Case("interop.random_state scale nan", lambda: interop.random_state(_robot(), scale=float("nan")), ME,
         r"scale is nan"),
    # ------------------------------------------------------------ interop.from_urdf
    Case("interop.from_urdf mimic flag", lambda: interop.from_urdf(interop.example_robot_path("panda"),
                                                                     mimic=1), ME, r"mimic must be a bool"),
    Case("interop.fast_kernel not a robot", lambda: interop.fast_kernel("ur5"), ME, r"fast_kernel"),
    Case("interop.state_and_speed_map q", lambda: interop.state_and_speed_map(
        interop.example_robot("ur5"), np.zeros(5), np.zeros(6)), ME, r"state_and_speed_map: q"),
    Case("interop.mimic_rows not a robot", lambda: interop.mimic_rows("panda"), ME, r"mimic_rows"),
    Case("interop.forward_dynamics mimic off", lambda: interop.forward_dynamics(
        _PANDA_MIMIC, *_off_mimic()), errors.ConstraintViolationError, r"mimics 'panda_finger_joint1'"),
    Case("interop.from_urdf bound_mass", lambda: interop.from_urdf(interop.example_robot_path("ur5"),
                                                                     bound_mass=-1.0), ME, r"bound_mass"),
    Case("interop.from_urdf bound_inertia", lambda: interop.from_urdf(interop.example_robot_path("ur5"),
                                                                        bound_inertia=float("nan")), ME,
         r"bound_inertia is nan"),
    Case("interop.from_urdf balance_inertia", lambda: interop.from_urdf(interop.example_robot_path("ur5"),
                                                                          balance_inertia="yes"), ME,
         r"balance_inertia must be a bool"),
    Case("interop.from_urdf None", lambda: interop.from_urdf(None), ME, r"from_urdf: path must be the path of a .urdf"),
    Case("interop.from_urdf directory", lambda: interop.from_urdf(_dir()), ME, r"is a directory, not a URDF file"),
    Case("interop.from_urdf missing", lambda: interop.from_urdf(os.path.join(_dir(), "nope.urdf")), ME,
         r"URDF file '.*nope.urdf' does not exist"),
    Case("interop.from_urdf malformed", lambda: interop.from_urdf(_file("bad.urdf", "<robot><link>")), ME,
         r"bad.urdf' is not well-formed XML"),
    Case("interop.from_urdf mass nan", lambda: interop.from_urdf(_urdf("nan.urdf", mass="nan")), ME,
         r"link 'base' of .*<mass> value='nan' must be 1 finite number"),
    Case("interop.from_urdf mimic", lambda: interop.from_urdf(_mimic()), ME,
         r"joint 'j2' .*mimics joint 'j1'.*Pass mimic=True"),
    Case("interop.from_urdf floating_base str", lambda: interop.from_urdf(_urdf("ok.urdf"), floating_base="no"), ME,
         r"floating_base must be a bool"),
    Case("interop.from_urdf unknown element", lambda: interop.from_urdf(_file(
        "ghost.urdf", '<robot name="r"><link name="a"/><joint name="j" type="fixed"><parent link="a"/>'
                      '<child link="ghost"/></joint></robot>')), ME,
         r"Pinocchio could not build a model from '.*ghost"),
    # ------------------------------------------------------------ interop.from_pinocchio
    Case("interop.from_pinocchio str", lambda: interop.from_pinocchio("ur5"), ME, r"model must be a Model"),
    Case("interop.from_pinocchio None", lambda: interop.from_pinocchio(None), ME, r"model must be a Model"),
    Case("interop.from_pinocchio empty", lambda: interop.from_pinocchio(__import__("pinocchio").Model()), ME,
         r"model '.*' has no joints"),
    Case("interop.from_pinocchio translation joint", lambda: interop.from_pinocchio(_odd_joint_model()), ME,
         r"joint 'slider' is a Pinocchio JointModelTranslation, which is not supported"),
    # ------------------------------------------------------------ interop.example_robot(_path)
    Case("interop.example_robot unknown", lambda: interop.example_robot("r2d2"), ME, r"name='r2d2' is not known"),
    Case("interop.example_robot None", lambda: interop.example_robot(None), ME, r"name=None is not known"),
    Case("interop.example_robot floating_base", lambda: interop.example_robot("ur5", floating_base="yes"), ME,
         r"floating_base must be a bool"),
    Case("interop.example_robot_path int", lambda: interop.example_robot_path(3), ME, r"name=3 is not known"),
    Case("interop.example_robot_path list", lambda: interop.example_robot_path(["ur5"]), ME, r"name=\['ur5'\] is not"),
    # ------------------------------------------------------------ interop.from_screws
    Case("interop.from_screws Slist 5x6", lambda: _screws(Slist=np.zeros((5, 6))), ME, r"Slist has shape \(5, 6\)"),
    Case("interop.from_screws Slist nan", lambda: _screws(Slist=_nan_at(interop.ur5_screws()[2], (0, 0))), ME,
         r"Slist\[.*0.*0.*\] is nan"),
    Case("interop.from_screws Glist short", lambda: _screws(Glist=interop.ur5_screws()[1][:2]), ME,
         r"need 6 inertias in Glist \(got 2\)"),
    Case("interop.from_screws Mlist None", lambda: _screws(Mlist=None), ME, r"Mlist must be a list or tuple"),
    Case("interop.from_screws Mlist not a rotation", lambda: _screws(Mlist=[2 * np.eye(4)] * 6), ME,
         r"Mlist\[0\]\[:3, :3\] is not a rotation matrix"),
    Case("interop.from_screws Glist not symmetric", lambda: _screws(Glist=[np.triu(np.ones((6, 6)))] * 6), ME,
         r"Glist\[0\] is not symmetric"),
    Case("interop.from_screws gravity", lambda: _screws(gravity=(0, -9.81)), ME, r"gravity has shape \(2,\)"),
    # ------------------------------------------------------------ interop.from_dh
    Case("interop.from_dh links None", lambda: interop.from_dh(None), ME, r"links must be a list or tuple"),
    Case("interop.from_dh links empty", lambda: interop.from_dh([]), ME, r"links is empty"),
    Case("interop.from_dh link str", lambda: interop.from_dh(["link"]), ME, r"links\[0\] must be a dict"),
    Case("interop.from_dh missing keys", lambda: interop.from_dh([{"d": 0.0}]), ME,
         r"links\[0\] has no \['a', 'alpha'"),
    Case("interop.from_dh mass negative", lambda: _dh(m=-1.0), ME, r"links\[0\]\['m'\] is -1.0; it must be > 0"),
    Case("interop.from_dh r nan", lambda: _dh(r=[0, np.nan, 0]), ME, r"links\[0\]\['r'\]\[1\] is nan"),
    Case("interop.from_dh I not symmetric", lambda: _dh(I=[[1, 1, 0], [0, 1, 0], [0, 0, 1]]), ME,
         r"links\[0\]\['I'\] is not symmetric"),
    Case("interop.from_dh d str", lambda: _dh(d="0.1"), ME, r"links\[0\]\['d'\] must be a real number"),
    Case("interop.from_dh gravity str", lambda: _dh(gravity="down"), ME, r"gravity must be an array"),
    # ------------------------------------------------------------ interop.RobotSystem
    Case("interop.RobotSystem no pin_model", lambda: interop.RobotSystem(*(lambda s: (s.parents, s.bodies, s.joints))(
        models.chain(2, "spatial"))), ME, r"RobotSystem: pin_model must be a Model"),
    Case("interop.RobotSystem bad parents", lambda: interop.RobotSystem((5,), (), ()), TE, r"unknown parent 5"),
    # ------------------------------------------------------------ fastpath
    Case("fastpath.compile_model None", lambda: fastpath.compile_model(None), ME,
         r"compile_model: system must be a System"),
    Case("fastpath.compile_model str", lambda: fastpath.compile_model("ur5"), ME, r"system must be a System, got str"),
    Case("fastpath.compile_model planar", lambda: fastpath.compile_model(models.figure1_tree()), ME,
         r"fast path handles spatial trees; system .* is planar"),
    Case("fastpath.compile_model universal", lambda: fastpath.compile_model(models.universal_chain(2, seed=0)), ME,
         r"joint 0 \('joint 0'\) .* is a universal joint, .*form='featherstone'"),
    Case("interop.from_pinocchio universal not orthogonal",
         lambda: interop.from_pinocchio(_universal_model((0.6, 0.8, 0.0))), ME,
         r"joint 'cardan': axes a1 and a2 of a universal joint must be orthogonal"),
    Case("interop.from_pinocchio universal not unit", lambda: interop.from_pinocchio(_universal_model((0.0, 2.0, 0.0))),
         ME, r"joint 'cardan' \(JointModelUniversal\) has axes .* give unit vectors"),
    Case("interop.to_mjcf universal", lambda: interop.to_mjcf(interop.from_pinocchio(_universal_model())), ME,
         r"to_mjcf: joint 'cardan' is a universal joint, which MuJoCo has no counterpart for"),
    Case("interop.forward_dynamics universal fast", lambda: interop.forward_dynamics(
        interop.from_pinocchio(_universal_model()), np.zeros(2), np.zeros(2), np.zeros(2), form="fast"), ME,
         r"joint 0 \('cardan'\) .* universal joint"),
    Case("fastpath.FastModel negative mass", lambda: _replace_fm(mass=-np.ones(3)), ME,
         r"mass .* is not positive at bodies \[0, 1, 2\]"),
    Case("fastpath.FastModel reversed parents", lambda: _replace_fm(parents=np.array([1, 2, -1])), ME,
         r"order visits body 0 before its parent 1"),
    Case("fastpath.FastModel nan", lambda: _replace_fm(gravity=np.array([0.0, 0.0, np.nan])), ME,
         r"gravity has NaN or inf"),
    Case("fastpath.FastModel n_dof", lambda: _replace_fm(n_dof=7), ME, r"n_dof = sum\(6 - mc\)"),
    Case("fastpath.FastModel None fields", lambda: fastpath.FastModel(*([None] * 14)), ME,
         r"FastModel: parents must be a ndarray"),
    Case("fastpath.FastModel shapes", lambda: fastpath.FastModel(**{**_chain()[2].__dict__, "mass": np.ones(2)}), ME,
         r"FastModel: mass has shape \(2,\), not \(3,\)"),
]
for _fn in ("forward_dynamics", "joint_accelerations"):
    CASES += [
        Case(f"fastpath.{_fn} fm None", lambda f=_fn: _fast(f, fm=None), ME, rf"{_fn}: fm must be a FastModel"),
        Case(f"fastpath.{_fn} y None", lambda f=_fn: _fast(f, y=None), ME, r"y must be an array of numbers, got None"),
        Case(f"fastpath.{_fn} y str", lambda f=_fn: _fast(f, y="y"), ME, r"y must be an array of numbers, got 'y'"),
        Case(f"fastpath.{_fn} y nan", lambda f=_fn: _fast(f, y=_nan_at(_chain()[1].y, 0)), ME, r"y\[0\] is nan"),
        Case(f"fastpath.{_fn} y short", lambda f=_fn: _fast(f, y=_chain()[1].y[:-1]), ME, r"y has shape \(20,\)"),
        Case(f"fastpath.{_fn} zero quaternion", lambda f=_fn: _fast(f, y=_zero_quat()), ME,
             r"body 0: Euler parameters y\[3:7\] have norm 0, not 1"),
        Case(f"fastpath.{_fn} yd inf", lambda f=_fn: _fast(f, yd=np.full(18, np.inf)), ME, r"yd\[0\] is inf"),
        Case(f"fastpath.{_fn} tau long", lambda f=_fn: _fast(f, tau=np.zeros(4)), ME, r"tau has shape \(4,\)"),
        Case(f"fastpath.{_fn} tau 2-D", lambda f=_fn: _fast(f, tau=np.zeros((3, 1))), ME, r"tau has shape \(3, 1\)"),
    ]

COVERED = ["interop.mimic_rows", "interop.fast_kernel", "interop.state_and_speed_map", "interop.RobotSystem", "interop.from_pinocchio", "interop.from_urdf", "interop.example_robot",
           "interop.to_state", "interop.forward_dynamics", "interop.random_state", "interop.example_robot_path",
           "interop.from_screws", "interop.from_dh",
           "interop.simulate", "interop.configuration_rate", "interop.energy", "interop.to_mjcf",
           "fastpath.FastModel", "fastpath.compile_model", "fastpath.forward_dynamics", "fastpath.joint_accelerations"]
EXEMPT = {
    "fastpath.pack_pinocchio": "packs arrays that interop.fast_kernel builds from a validated robot",
    "fastpath.pinocchio_forward_dynamics": "the compiled kernel behind interop.forward_dynamics(form='fast'), "
                                           "which validates q, v, tau first (covered)",
    "interop.Mimic": "a plain record of one <mimic> coupling built by interop.from_urdf(mimic=True)",
    "interop.require_pinocchio": "takes no argument: imports pinocchio or says how to install it",
    "interop.RobotTrajectory": "a plain record of arrays returned by interop.simulate (no checks of its own)",
    "interop.ur5_screws": "takes no argument: returns the UR5's fixed parameters",
    "fastpath.available": "takes no argument: reports whether numba is installed",
}
