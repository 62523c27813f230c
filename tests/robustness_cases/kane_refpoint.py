"""Bad-input cases for ``kane`` and ``refpoint`` (see tests/robustness_cases/__init__.py for the format)."""
from __future__ import annotations

import dataclasses
import numpy as np

from rfda_teach import errors, kane, refpoint as rp

from robustness_cases import Case

NAN, INF = float("nan"), float("inf")
ME, CV, TE = errors.ModelError, errors.ConstraintViolationError, errors.TopologyError


# --------------------------------------------------------------------------- kane

def _sys():
    return kane.eight_body()


def _x():
    return _sys().x0.copy()


def _y():
    return _sys().y0.copy()


def _xpin():
    x = _x()
    x[4 * 8 + 3:] = 0.0                                 # O_K at Q_K
    return x


def _ks(**kw):
    """KaneSystem(...) of the eight-body tree with some fields replaced."""
    s = _sys()
    args = dict(L=s.L, mass=s.mass, inertia=s.inertia, q=s.q, r=s.r, gravity=s.gravity, x0=s.x0, y0=s.y0)
    args.update(kw)
    return kane.KaneSystem(**args)


def _with(a, i, v):
    a = np.array(a, float)
    a[i] = v
    return a


def _inertia_with(k, J):
    I = _sys().inertia.copy()
    I[k] = J
    return I


def _two_body_L(L):
    s = _sys()
    return kane.KaneSystem(L, s.mass[:2], s.inertia[:2], [[0, 0, 0], [0.3, 0, 0]], s.r[:2], s.gravity,
                           np.concatenate([s.x0[:8], np.zeros(6)]), s.y0[:12])


def _forces(v):
    F = np.zeros((8, 3))
    F[3, 1] = v
    return F


S27 = list(range(27))


def _y27():
    return np.where(np.isin(np.arange(48), S27), _y(), 0.0)


KANE_CASES = [
    # KaneSystem: body-connection array, data, initial state
    Case("kane-KaneSystem-L-float", lambda: _two_body_L((0, 1.5)), ME, r"L\[1\].*must be an integer.*1\.5"),
    Case("kane-KaneSystem-L-float-integral", lambda: _two_body_L((0.0, 1.0)), ME, r"L\[0\].*must be an integer"),
    Case("kane-KaneSystem-L-str", lambda: _ks(L="01213"), ME, r"L must be a sequence of integers"),
    Case("kane-KaneSystem-L-None", lambda: _ks(L=None), ME, r"L must be a sequence"),
    Case("kane-KaneSystem-L-negative", lambda: _two_body_L((0, -1)), ME, r"L\[1\].*>= 0"),
    Case("kane-KaneSystem-L-order", lambda: _two_body_L((0, 2)), TE, r"body 2 has lower body 2"),
    Case("kane-KaneSystem-gravity-2", lambda: _ks(gravity=[0, -9.81]), ME, r"gravity has shape \(2,\)"),
    Case("kane-KaneSystem-gravity-nan", lambda: _ks(gravity=[0, 0, NAN]), ME, r"gravity\[2\] is nan"),
    Case("kane-KaneSystem-gravity-str", lambda: _ks(gravity="down"), ME, r"gravity must be an array"),
    Case("kane-KaneSystem-mass-short", lambda: _ks(mass=np.ones(7)), ME, r"mass has shape \(7,\)"),
    Case("kane-KaneSystem-mass-zero", lambda: _ks(mass=_with(_sys().mass, 2, 0.0)), ME, r"body 3: mass 0.0"),
    Case("kane-KaneSystem-mass-nan", lambda: _ks(mass=_with(_sys().mass, 2, NAN)), ME, r"mass\[2\] is nan"),
    Case("kane-KaneSystem-inertia-nonsymmetric",
         lambda: _ks(inertia=_inertia_with(1, [[0.1, 0.05, 0], [0, 0.1, 0], [0, 0, 0.1]])), ME,
         r"inertia\[1\] \(body 2\) is not symmetric"),
    Case("kane-KaneSystem-inertia-not-pd", lambda: _ks(inertia=_inertia_with(0, -np.eye(3))), ME,
         r"inertia\[0\] \(body 1\) is not positive definite"),
    Case("kane-KaneSystem-inertia-triangle", lambda: _ks(inertia=_inertia_with(4, np.diag([0.01, 0.01, 1.0]))), ME,
         r"inertia\[4\] \(body 5\).*triangle inequality"),
    Case("kane-KaneSystem-inertia-shape", lambda: _ks(inertia=np.ones((8, 3))), ME, r"inertia has shape \(8, 3\)"),
    Case("kane-KaneSystem-inertia-inf", lambda: _ks(inertia=_inertia_with(2, np.diag([INF, 1, 1]))), ME,
         r"inertia.* is inf"),
    Case("kane-KaneSystem-q-shape", lambda: _ks(q=np.zeros((8, 2))), ME, r"q has shape \(8, 2\)"),
    Case("kane-KaneSystem-q1-nonzero", lambda: _ks(q=_with(_sys().q, (0, 2), 0.5)), ME, r"q\[0\] = q'_1"),
    Case("kane-KaneSystem-r-nan", lambda: _ks(r=_with(_sys().r, (3, 0), NAN)), ME, r"r\[.*is nan"),
    Case("kane-KaneSystem-x0-short", lambda: _ks(x0=_x()[:-1]), ME, r"x0 has shape \(55,\)"),
    Case("kane-KaneSystem-y0-nan", lambda: _ks(y0=_with(_y(), 5, NAN)), ME, r"y0\[5\] is nan"),
    Case("kane-KaneSystem-x0-nonunit", lambda: _ks(x0=_with(_x(), 0, 0.5)), ME, r"body 1: Euler parameters have norm"),
    Case("kane-KaneSystem-name", lambda: _ks(name=3), ME, r"name must be a str"),
    # eight_body
    Case("kane-eight_body-str", lambda: kane.eight_body("9.81"), ME, r"gravity must be a real number"),
    Case("kane-eight_body-nan", lambda: kane.eight_body(NAN), ME, r"gravity is nan"),
    Case("kane-eight_body-None", lambda: kane.eight_body(None), ME, r"gravity must be a real number"),
    # relative_rotation, E_hat
    Case("kane-relative_rotation-short", lambda: kane.relative_rotation([0, 0, 1]), ME, r"eps has shape \(3,\)"),
    Case("kane-relative_rotation-nonunit", lambda: kane.relative_rotation([0, 0, 0, 2.0]), ME, r"eps has norm 2"),
    Case("kane-relative_rotation-nan", lambda: kane.relative_rotation([0, 0, NAN, 1]), ME, r"eps\[2\] is nan"),
    Case("kane-relative_rotation-None", lambda: kane.relative_rotation(None), ME, r"eps must be an array"),
    Case("kane-E_hat-str", lambda: kane.E_hat("1000"), ME, r"eps must be an array"),
    Case("kane-E_hat-shape", lambda: kane.E_hat(np.eye(4)), ME, r"eps has shape \(4, 4\)"),
    Case("kane-E_hat-inf", lambda: kane.E_hat([INF, 0, 0, 1]), ME, r"eps\[0\] is inf"),
    # state functions: system, x, y
    Case("kane-kinematics-system-None", lambda: kane.kinematics(None, _x(), _y()), ME, r"system must be a KaneSystem"),
    Case("kane-kinematics-x-short", lambda: kane.kinematics(_sys(), _x()[:10], _y()), ME, r"x has shape \(10,\)"),
    Case("kane-kinematics-y-nan", lambda: kane.kinematics(_sys(), _x(), _with(_y(), 7, NAN)), ME, r"y\[7\] is nan"),
    Case("kane-kinematics-eps-zero", lambda: kane.kinematics(_sys(), _with(_x(), slice(4, 8), 0.0), _y()), ME,
         r"body 2: Euler parameters x\[4:8\] are all zero"),
    Case("kane-mass_matrix_and_forcing-forces-nan", lambda: kane.mass_matrix_and_forcing(
        _sys(), _x(), _y(), forces=_forces(NAN)), ME, r"forces.* is nan"),
    Case("kane-mass_matrix_and_forcing-moments-inf", lambda: kane.mass_matrix_and_forcing(
        _sys(), _x(), _y(), moments=_forces(INF)), ME, r"moments.* is inf"),
    Case("kane-mass_matrix_and_forcing-forces-shape", lambda: kane.mass_matrix_and_forcing(
        _sys(), _x(), _y(), forces=np.zeros((7, 3))), ME, r"forces has shape \(7, 3\)"),
    Case("kane-mass_matrix_and_forcing-forces-str", lambda: kane.mass_matrix_and_forcing(
        _sys(), _x(), _y(), forces="gravity"), ME, r"forces must be an array"),
    Case("kane-mass_matrix_and_forcing-x-str", lambda: kane.mass_matrix_and_forcing(_sys(), "x", _y()), ME,
         r"x must be an array"),
    Case("kane-mass_matrix_and_forcing-x-nonunit", lambda: kane.mass_matrix_and_forcing(
        _sys(), _with(_x(), 4, 0.9), _y()), ME, r"body 2: Euler parameters have norm"),
    Case("kane-body_states-y-long", lambda: kane.body_states(_sys(), _x(), np.zeros(49)), ME, r"y has shape \(49,\)"),
    Case("kane-body_states-system-str", lambda: kane.body_states("eight", _x(), _y()), ME,
         r"system must be a KaneSystem"),
    Case("kane-momentum-x-nan", lambda: kane.momentum(_sys(), _with(_x(), 40, NAN), _y()), ME, r"x\[40\] is nan"),
    Case("kane-momentum-None", lambda: kane.momentum(_sys(), None, _y()), ME, r"x must be an array"),
    Case("kane-kinetic_energy-y-short", lambda: kane.kinetic_energy(_sys(), _x(), _y()[:6]), ME, r"y has shape"),
    Case("kane-kinetic_energy-y-inf", lambda: kane.kinetic_energy(_sys(), _x(), _with(_y(), 0, INF)), ME,
         r"y\[0\] is inf"),
    Case("kane-energy-x-2d", lambda: kane.energy(_sys(), _x()[None, :], _y()), ME, r"x has shape \(1, 56\)"),
    Case("kane-energy-system-None", lambda: kane.energy(None, _x(), _y()), ME, r"system must be a KaneSystem"),
    Case("kane-state_derivative-x-short", lambda: kane.state_derivative(_sys(), _x()[:3], _y()), ME, r"x has shape"),
    Case("kane-state_derivative-y-nan", lambda: kane.state_derivative(_sys(), _x(), _with(_y(), 3, NAN)), ME,
         r"y\[3\] is nan"),
    Case("kane-state_derivative-speeds-float", lambda: kane.state_derivative(
        _sys(), _x(), _y27(), speeds=[0.5, 1]), ME, r"speeds entry must be an integer"),
    Case("kane-state_derivative-check-str", lambda: kane.state_derivative(_sys(), _x(), _y(), check="yes"), ME,
         r"check must be True or False"),
    Case("kane-reduced_dynamics-speeds-range", lambda: kane.reduced_dynamics(_sys(), _x(), _y27(), [0, 48]), ME,
         r"speeds contains 48"),
    Case("kane-reduced_dynamics-speeds-empty", lambda: kane.reduced_dynamics(_sys(), _x(), _y27(), []), ME,
         r"speeds is empty"),
    Case("kane-reduced_dynamics-speeds-None", lambda: kane.reduced_dynamics(_sys(), _x(), _y27(), None), ME,
         r"speeds must be a list"),
    Case("kane-reduced_dynamics-speeds-str", lambda: kane.reduced_dynamics(_sys(), _x(), _y27(), "012"), ME,
         r"speeds must be a list"),
    Case("kane-reduced_dynamics-y-dropped", lambda: kane.reduced_dynamics(_sys(), _x(), _y(), S27), ME,
         r"y has non-zero entries outside the kept speeds"),
    Case("kane-reduced_dynamics-negative", lambda: kane.reduced_dynamics(_sys(), _x(), _y27(), [-1, 0]), ME,
         r"speeds entry is -1"),
    Case("kane-euler_norm_drift-None", lambda: kane.euler_norm_drift(_sys(), None), ME, r"X must be an array"),
    Case("kane-euler_norm_drift-shape", lambda: kane.euler_norm_drift(_sys(), np.ones((3, 5))), ME,
         r"X has shape \(3, 5\)"),
    Case("kane-euler_norm_drift-nan", lambda: kane.euler_norm_drift(_sys(), _with(_x(), 0, NAN)), ME, r"X\[0\] is nan"),
    Case("kane-euler_norm_drift-empty", lambda: kane.euler_norm_drift(_sys(), np.zeros((0, 56))), ME, r"X has no rows"),
    Case("kane-euler_norm_drift-system", lambda: kane.euler_norm_drift(3, _x()), ME, r"system must be a KaneSystem"),
    Case("kane-accelerations-ydot-short", lambda: kane.accelerations(_sys(), _x(), _y(), np.zeros(5)), ME,
         r"ydot has shape \(5,\)"),
    Case("kane-accelerations-ydot-nan", lambda: kane.accelerations(_sys(), _x(), _y(), np.full(48, NAN)), ME,
         r"ydot\[0\] is nan"),
    Case("kane-to_absolute-x-nonunit", lambda: kane.to_absolute(_sys(), _with(_x(), 31, 3.0), _y()), ME,
         r"body 8: Euler parameters have norm"),
    Case("kane-to_absolute-y-None", lambda: kane.to_absolute(_sys(), _x(), None), ME, r"y must be an array"),
    Case("kane-to_joint_tree-sliding", lambda: kane.to_joint_tree(_sys(), _with(_x(), 37, 0.1)), ME,
         r"O_K away from Q_K"),
    Case("kane-to_joint_tree-revolute-0", lambda: kane.to_joint_tree(_sys(), _xpin(), revolute=(0,)), ME,
         r"revolute must hold 0-based body indices 1\.\.7"),
    Case("kane-to_joint_tree-revolute-str", lambda: kane.to_joint_tree(_sys(), _xpin(), revolute="2"), ME,
         r"revolute must be a sequence"),
    Case("kane-to_joint_tree-x-short", lambda: kane.to_joint_tree(_sys(), _x()[:5]), ME, r"x has shape \(5,\)"),
    Case("kane-to_joint_tree-system", lambda: kane.to_joint_tree(None, _x()), ME, r"system must be a KaneSystem"),
    # simulate: time spans, tolerances, t_eval, speeds
    Case("kane-simulate-t_final-None", lambda: kane.simulate(_sys(), _x(), _y(), None), ME, r"t_final is None"),
    Case("kane-simulate-t_final-str", lambda: kane.simulate(_sys(), _x(), _y(), "1"), ME, r"t_final is '1'"),
    Case("kane-simulate-t_final-zero", lambda: kane.simulate(_sys(), _x(), _y(), 0.0), ME, r"t_final is 0.0"),
    Case("kane-simulate-t_final-negative", lambda: kane.simulate(_sys(), _x(), _y(), -1.0), ME, r"t_final is -1.0"),
    Case("kane-simulate-t_final-inf", lambda: kane.simulate(_sys(), _x(), _y(), INF), ME, r"t_final is inf"),
    Case("kane-simulate-t_final-nan", lambda: kane.simulate(_sys(), _x(), _y(), NAN), ME, r"t_final is nan"),
    Case("kane-simulate-rtol", lambda: kane.simulate(_sys(), _x(), _y(), 1.0, rtol=0.0), ME, r"rtol is 0.0"),
    Case("kane-simulate-atol-str", lambda: kane.simulate(_sys(), _x(), _y(), 1.0, atol="tight"), ME,
         r"atol must be a real number"),
    Case("kane-simulate-t_eval-outside", lambda: kane.simulate(_sys(), _x(), _y(), 1.0, t_eval=[0.0, 2.0]), ME,
         r"t_eval has times outside \[0, t_final\]"),
    Case("kane-simulate-t_eval-unsorted", lambda: kane.simulate(_sys(), _x(), _y(), 1.0, t_eval=[0.5, 0.1]), ME,
         r"t_eval is not strictly increasing"),
    Case("kane-simulate-t_eval-nan", lambda: kane.simulate(_sys(), _x(), _y(), 1.0, t_eval=[0.0, NAN]), ME,
         r"t_eval\[1\] is nan"),
    Case("kane-simulate-x0-short", lambda: kane.simulate(_sys(), _x()[:-3], _y(), 1.0), ME, r"x0 has shape \(53,\)"),
    Case("kane-simulate-y0-long", lambda: kane.simulate(_sys(), _x(), np.zeros(49), 1.0), ME, r"y0 has shape \(49,\)"),
    Case("kane-simulate-speeds-y0", lambda: kane.simulate(_sys(), _x(), _y(), 1.0, speeds=S27), ME,
         r"y0\[29\] = 0.05 is a dropped speed"),
    Case("kane-simulate-speeds-range", lambda: kane.simulate(_sys(), _x(), _y27(), 1.0, speeds=[0, 99]), ME,
         r"speeds contains 99"),
    # the view of the one model: KaneSystem's view fields, eight_body_system, from_system, state_from_system,
    # system_accelerations
    Case("kane-KaneSystem-speeds-range", lambda: _ks(speeds=[0, 48]), ME, r"speeds contains 48"),
    Case("kane-KaneSystem-mechanism-str", lambda: _ks(mechanism="eight"), ME, r"mechanism must be a System"),
    Case("kane-KaneSystem-mechanism-size", lambda: _ks(mechanism=_chain()), ME, r"mechanism has 2 bodies"),
    Case("kane-KaneSystem-frames-alone", lambda: _ks(frames=np.tile(np.eye(3), (8, 1, 1))), ME,
         r"frames is given but mechanism is None"),
    Case("kane-KaneSystem-order-repeat", lambda: _ks(mechanism=_sys().mechanism, order=(0,) * 8), ME,
         r"order must list every body"),
    Case("kane-KaneSystem-mechanism-tree", lambda: _ks(mechanism=_sys().mechanism, order=(0, 1, 2, 3, 4, 6, 5, 7)),
         ME, r"not the mechanism's tree in this order"),
    Case("kane-eight_body_system-str", lambda: kane.eight_body_system("9.81"), ME, r"gravity must be a real number"),
    Case("kane-eight_body_system-nan", lambda: kane.eight_body_system(NAN), ME, r"gravity is nan"),
    Case("kane-from_system-None", lambda: kane.from_system(None), ME, r"system must be a System"),
    Case("kane-from_system-cuts", lambda: kane.from_system(_closed()), ME, r"Kane's notes treat trees.*dae\.forward"),
    Case("kane-from_system-universal", lambda: kane.from_system(_models().universal_chain(2, seed=0)), ME,
         r"joint 0 .*universal.*cannot be written in Kane's relative coordinates"),
    Case("kane-from_system-point2", lambda: kane.from_system(_models().featherstone_sliders()), ME, r"point2 bodies"),
    Case("kane-from_system-oblique", lambda: kane.from_system(_oblique()), ME, r"parallel or perpendicular"),
    Case("kane-from_system-state-short", lambda: kane.from_system(_chain(), (np.zeros(3), np.zeros(12))), ME,
         r"state.y has shape \(3,\)"),
    Case("kane-from_system-state-broken", lambda: kane.from_system(_chain(), _broken()), CV, r"violates joint 1"),
    Case("kane-state_from_system-hand", lambda: kane.state_from_system(_ks(), None), ME, r"written by hand"),
    Case("kane-state_from_system-str", lambda: kane.state_from_system("ks", None), ME, r"system must be a KaneSystem"),
    Case("kane-state_from_system-state-None", lambda: kane.state_from_system(kane.from_system(_chain()), None), ME,
         r"state must be a pair"),
    Case("kane-system_accelerations-None", lambda: kane.system_accelerations(None, None), ME,
         r"system must be a System"),
    Case("kane-system_accelerations-nan", lambda: kane.system_accelerations(_chain(), _nan_state()), ME,
         r"state.yd\[0\] is nan"),
    Case("kane-system_accelerations-cuts", lambda: kane.system_accelerations(_closed(), None), ME,
         r"cut joint.*dae\.forward_dynamics"),
]


def _models():
    from rfda_teach import models
    return models


def _chain():
    return _models().chain(2, "spatial")


def _closed():
    from rfda_teach.joints import Joint
    from rfda_teach.system import Cut, System
    c = _models().chain(3, "planar")
    return System(c.parents, c.bodies, c.joints, c.gravity,
                  cuts=(Cut(2, -1, Joint("revolute2d", parent_point=(0.5, 0.0), child_point=(2.0, 0.0))),))


def _oblique():
    from rfda_teach.bodies import Body
    from rfda_teach.joints import Joint
    from rfda_teach.system import System
    b = Body("spatial", 1.0, np.diag([0.01, 1 / 12, 1 / 12]))
    F = np.array([[1.0, 0, 0], [0, np.cos(0.5), -np.sin(0.5)], [0, np.sin(0.5), np.cos(0.5)]])
    return System((-1, 0), (b, b), (Joint("revolute"), Joint("prismatic", parent_frame=F)), (0.0, 0.0, -9.81))


def _broken():
    st = _models().random_state(_chain(), seed=0)
    y = st.y.copy()
    y[7] += 0.1                                          # body 1 off its hinge
    return y, st.yd


def _nan_state():
    st = _models().random_state(_chain(), seed=0)
    return st.y, np.full(12, NAN)

KANE_COVERED = ["kane.KaneSystem", "kane.eight_body", "kane.relative_rotation", "kane.E_hat", "kane.kinematics",
                "kane.mass_matrix_and_forcing", "kane.body_states", "kane.momentum", "kane.kinetic_energy",
                "kane.energy", "kane.state_derivative", "kane.reduced_dynamics", "kane.euler_norm_drift",
                "kane.accelerations", "kane.to_absolute", "kane.to_joint_tree", "kane.simulate",
                "kane.eight_body_system", "kane.from_system", "kane.state_from_system", "kane.system_accelerations"]


# --------------------------------------------------------------------------- refpoint

def _car(**kw):
    return rp.quarter_car(**kw)


Z10 = np.zeros(10)


def _q_open():
    """The quarter car's q0 with the knuckle turned by 0.3 rad: three loops open by up to 0.12 m."""
    return _with(_car().q0, 3, 0.3)


def _body(**kw):
    return dataclasses.replace(_car().bodies[0], **kw)


def _cut(**kw):
    args = dict(kind="s", a=-1, b=2)
    args.update(kw)
    return rp.CutJoint(**args)


def _spring(**kw):
    args = dict(a=0, b=-1, pa=np.zeros(3), pb=np.ones(3), k=1e3, c=10.0, L0=0.5)
    args.update(kw)
    return rp.SpringDamper(**args)


def _model(**kw):
    car = _car()
    args = dict(bodies=car.bodies, cuts=car.cuts, springs=car.springs, gravity=car.gravity, q0=car.q0,
                tire_body=car.tire_body, tire_k=car.tire_k, tire_r=car.tire_r, road=car.road)
    args.update(kw)
    return rp.Model(**args)


def _fd(q=None, qd=None, point="centroid", t=0.0, model=None, **kw):
    car = _car() if model is None else model
    return rp.forward_dynamics(car, car.q0 if q is None else q, Z10 if qd is None else qd, point, t, **kw)


def _sim(t_final=0.1, q=None, qd=None, **kw):
    car = _car()
    return rp.simulate(car, car.q0 if q is None else q, Z10 if qd is None else qd, t_final, **kw)


REFPOINT_CASES = [
    # records
    Case("refpoint-Tally-counts", lambda: rp.Tally(counts=5), ME, r"counts must be a Counter"),
    Case("refpoint-Tally-step", lambda: rp.Tally(step=3), ME, r"step must be a str"),
    Case("refpoint-RBody-J-nonsymmetric", lambda: _body(J=[[0.05, 0.01, 0], [0, 0.08, 0], [0, 0, 0.12]]), ME,
         r"J is not symmetric"),
    Case("refpoint-RBody-J-not-pd", lambda: _body(J=np.diag([0.05, -0.08, 0.12])), ME, r"J is not positive definite"),
    Case("refpoint-RBody-J-triangle", lambda: _body(J=np.diag([0.01, 0.02, 0.5])), ME, r"J .*triangle inequality"),
    Case("refpoint-RBody-J-nan", lambda: _body(J=np.diag([NAN, 1, 1])), ME, r"J\[0, 0\] is nan"),
    Case("refpoint-RBody-C-nonorthogonal", lambda: _body(C=1.1 * np.eye(3)), ME, r"C is not a rotation matrix"),
    Case("refpoint-RBody-C-reflection", lambda: _body(C=np.diag([1.0, 1, -1])), ME, r"C is not a rotation.*det"),
    Case("refpoint-RBody-mass-zero", lambda: _body(mass=0.0), ME, r"mass is 0.0; it must be > 0"),
    Case("refpoint-RBody-mass-str", lambda: _body(mass="3"), ME, r"mass must be a real number"),
    Case("refpoint-RBody-axes-bad", lambda: _body(axes="zw"), ME, r"axes='zw'"),
    Case("refpoint-RBody-axes-repeat", lambda: _body(axes="zz"), ME, r"axes='zz'.*no letter twice"),
    Case("refpoint-RBody-axes-None", lambda: _body(axes=None), ME, r"axes must be a str"),
    Case("refpoint-RBody-parent-float", lambda: _body(parent=0.5), ME, r"parent must be an integer"),
    Case("refpoint-RBody-parent-low", lambda: _body(parent=-2), ME, r"parent is -2"),
    Case("refpoint-RBody-s-shape", lambda: _body(s=[0, 1]), ME, r"s has shape \(2,\)"),
    Case("refpoint-RBody-rho-nan", lambda: _body(rho=[0, NAN, 0]), ME, r"rho\[1\] is nan"),
    Case("refpoint-RBody-name", lambda: _body(name=None), ME, r"name must be a str"),
    Case("refpoint-CutJoint-kind", lambda: _cut(kind="revolute"), ME, r"kind='revolute' is not known"),
    Case("refpoint-CutJoint-same-body", lambda: _cut(a=2, b=2), ME, r"a = b = 2"),
    Case("refpoint-CutJoint-a-float", lambda: _cut(a=1.0), ME, r"a must be an integer"),
    Case("refpoint-CutJoint-pa-nan", lambda: _cut(pa=[NAN, 0, 0]), ME, r"pa\[0\] is nan"),
    Case("refpoint-CutJoint-ua-nonunit", lambda: _cut(kind="d1", ua=[2.0, 0, 0]), ME, r"ua has norm 2"),
    Case("refpoint-CutJoint-ub-zero", lambda: _cut(kind="d1", ub=[0.0, 0, 0]), ME, r"ub has norm 0"),
    Case("refpoint-CutJoint-length-negative", lambda: _cut(kind="ss", length=-0.1), ME, r"length is -0.1"),
    Case("refpoint-SpringDamper-k-nan", lambda: _spring(k=NAN), ME, r"k \(stiffness, N/m\) is nan"),
    Case("refpoint-SpringDamper-c-negative", lambda: _spring(c=-1.0), ME, r"c \(damping, N s/m\) is -1.0"),
    Case("refpoint-SpringDamper-L0-str", lambda: _spring(L0="0.4"), ME, r"L0 \(free length, m\) must be a real"),
    Case("refpoint-SpringDamper-pb-shape", lambda: _spring(pb=[1, 2]), ME, r"pb has shape \(2,\)"),
    Case("refpoint-SpringDamper-same-body", lambda: _spring(a=0, b=0), ME, r"a = b = 0"),
    Case("refpoint-Model-bodies-empty", lambda: _model(bodies=(), cuts=(), springs=(), q0=[]), ME,
         r"bodies is empty"),
    Case("refpoint-Model-bodies-wrong-type", lambda: _model(bodies=("lower arm",)), ME,
         r"bodies\[0\] must be a RBody"),
    Case("refpoint-Model-cuts-None", lambda: _model(cuts=None), ME, r"cuts must be a tuple of CutJoint"),
    Case("refpoint-Model-cut-body-range", lambda: _model(cuts=(_cut(b=7),)), ME, r"cuts\[0\].b = 7"),
    Case("refpoint-Model-spring-body-range", lambda: _model(springs=(_spring(a=9),)), ME, r"springs\[0\].a = 9"),
    Case("refpoint-Model-gravity-2", lambda: _model(gravity=[0, -9.81]), ME, r"gravity has shape \(2,\)"),
    Case("refpoint-Model-q0-short", lambda: _model(q0=np.zeros(9)), ME, r"q0 has shape \(9,\)"),
    Case("refpoint-Model-q0-nan", lambda: _model(q0=_with(Z10, 4, NAN)), ME, r"q0\[4\] is nan"),
    Case("refpoint-Model-tire_k-nan", lambda: _model(tire_k=NAN), ME, r"tire_k.* is nan"),
    Case("refpoint-Model-tire_body-range", lambda: _model(tire_body=5), ME, r"tire_body = 5"),
    Case("refpoint-Model-road-not-callable", lambda: _model(road=0.05), ME, r"road must be None .*or a function"),
    Case("refpoint-Model-parent-order", lambda: _model(bodies=(dataclasses.replace(_car().bodies[1], parent=1),
                                                              _car().bodies[0]), cuts=(), springs=(), q0=np.zeros(4),
                                                      tire_body=-1), TE, r"numbered lower than its parent"),
    Case("refpoint-attachment_points-model", lambda: rp.attachment_points("car"), ME,
         r"attachment_points: model must be a Model"),
    Case("refpoint-quarter_car-road", lambda: rp.quarter_car(road="bumpy"), ME, r"road must be None"),
    Case("refpoint-quarter_car-road-number", lambda: rp.quarter_car(road=1.0), ME, r"road must be None"),
    # road functions
    Case("refpoint-road_bump-duration", lambda: rp.road_bump(duration=0.0), ME, r"duration is 0.0"),
    Case("refpoint-road_bump-height-nan", lambda: rp.road_bump(height=NAN), ME, r"height is nan"),
    Case("refpoint-road_bump-start-str", lambda: rp.road_bump(start="0.2"), ME, r"start must be a real number"),
    Case("refpoint-road_bump-t-nan", lambda: rp.road_bump()(NAN), ME, r"t is nan"),
    Case("refpoint-road_bump-t-None", lambda: rp.road_bump()(None), ME, r"t must be a real number"),
    Case("refpoint-road-returns-nan", lambda: _fd(model=_car(road=lambda t: NAN)), ME, r"road\(0\) is nan"),
    Case("refpoint-road-returns-str", lambda: _fd(model=_car(road=lambda t: "flat")), ME,
         r"road\(0\) must be a real number"),
    # joint_rotation, Bw_local
    Case("refpoint-joint_rotation-axes", lambda: rp.joint_rotation("q", [0.1]), ME, r"axes='q'"),
    Case("refpoint-joint_rotation-length", lambda: rp.joint_rotation("xy", [0.1]), ME, r"q has shape \(1,\)"),
    Case("refpoint-joint_rotation-nan", lambda: rp.joint_rotation("z", [NAN]), ME, r"q\[0\] is nan"),
    Case("refpoint-Bw_local-qd-length", lambda: rp.Bw_local("xy", [0, 0], [1.0]), ME, r"qd has shape \(1,\)"),
    Case("refpoint-Bw_local-axes-int", lambda: rp.Bw_local(3, [0, 0, 0]), ME, r"axes must be a str"),
    Case("refpoint-Bw_local-q-str", lambda: rp.Bw_local("z", "0"), ME, r"q must be an array"),
    # kinematics and evaluations: model, q, qd, point, t
    Case("refpoint-kinematics-model-None", lambda: rp.kinematics(None, Z10, Z10), ME, r"model must be a Model"),
    Case("refpoint-kinematics-q-short", lambda: rp.kinematics(_car(), Z10[:9], Z10), ME, r"q has shape \(9,\)"),
    Case("refpoint-kinematics-point", lambda: rp.kinematics(_car(), Z10, Z10, "cog"), ME, r"point='cog'"),
    Case("refpoint-kinematics-tally", lambda: rp.kinematics(_car(), Z10, Z10, "joint", tally=3), ME,
         r"tally must be a Tally"),
    Case("refpoint-forward_dynamics-q-open", lambda: _fd(q=_q_open()), CV,
         r"q does not close the loop of cut joint 2 'tie rod at the chassis'.*residual 0.11"),
    Case("refpoint-forward_dynamics-qd-inconsistent", lambda: _fd(qd=np.ones(10)), CV,
         r"qd violates the velocity constraint of cut joint .*consistent_velocity"),
    Case("refpoint-forward_dynamics-t-nan", lambda: _fd(t=NAN), ME, r"t is nan"),
    Case("refpoint-forward_dynamics-t-str", lambda: _fd(t="0"), ME, r"t must be a real number"),
    Case("refpoint-forward_dynamics-point-None", lambda: _fd(point=None), ME, r"point=None"),
    Case("refpoint-forward_dynamics-qd-nan", lambda: _fd(qd=_with(Z10, 2, NAN)), ME, r"qd\[2\] is nan"),
    Case("refpoint-forward_dynamics-q-2d", lambda: _fd(q=np.zeros((2, 10))), ME, r"q has shape \(2, 10\)"),
    Case("refpoint-forward_dynamics-check-str", lambda: _fd(check="no"), ME, r"check must be True or False"),
    Case("refpoint-forward_dynamics-alpha-negative", lambda: _fd(alpha=-1.0), ME, r"alpha"),
    Case("refpoint-forward_dynamics-beta-nan", lambda: _fd(beta=NAN), ME, r"beta"),
    Case("refpoint-solve-q-open", lambda: rp.solve(_car(), _q_open(), Z10, "origin"), CV,
         r"refpoint.solve: q does not"),
    Case("refpoint-solve-baumgarte", lambda: rp.solve(_car(), _car().q0, Z10, baumgarte=(1.0,)), ME,
         r"baumgarte must be a pair"),
    Case("refpoint-solve-baumgarte-nan", lambda: rp.solve(_car(), _car().q0, Z10, baumgarte=(NAN, 1.0)), ME,
         r"alpha is nan"),
    Case("refpoint-solve-t-inf", lambda: rp.solve(_car(), _car().q0, Z10, t=INF), ME, r"t is inf"),
    Case("refpoint-count_multiplications-point", lambda: rp.count_multiplications(_car(), "middle"), ME,
         r"point='middle'"),
    Case("refpoint-count_multiplications-q", lambda: rp.count_multiplications(_car(), "joint", q=np.ones(3)), ME,
         r"q has shape \(3,\)"),
    Case("refpoint-count_multiplications-model", lambda: rp.count_multiplications("car", "joint"), ME,
         r"model must be a Model"),
    Case("refpoint-count_multiplications-by_step", lambda: rp.count_multiplications(_car(), "joint", by_step="y"), ME,
         r"by_step must be True or False"),
    Case("refpoint-constraint_rows-kin", lambda: rp.constraint_rows(_car(), "kin"), ME, r"kin must be a Kin"),
    Case("refpoint-constraint_rows-kin-other-model", lambda: rp.constraint_rows(
        _car(), rp.kinematics(_model(bodies=_car().bodies[:1], cuts=(), springs=(), q0=[0.0], tire_body=-1),
                              [0.0], [0.0])), ME, r"kin has 1 bodies, the model 5"),
    Case("refpoint-constraint_rows-tally", lambda: rp.constraint_rows(_car(), rp.kinematics(_car(), Z10, Z10),
                                                                      tally="t"), ME, r"tally must be a Tally"),
    Case("refpoint-closure_residual-q-nan", lambda: rp.closure_residual(_car(), _with(Z10, 0, NAN)), ME,
         r"q\[0\] is nan"),
    Case("refpoint-closure_residual-model", lambda: rp.closure_residual(None, Z10), ME, r"model must be a Model"),
    Case("refpoint-closure_jacobian-q-short", lambda: rp.closure_jacobian(_car(), [0.0]), ME, r"q has shape \(1,\)"),
    Case("refpoint-closure_jacobian-q-None", lambda: rp.closure_jacobian(_car(), None), ME, r"q must be an array"),
    Case("refpoint-assemble-fixed-range", lambda: rp.assemble(_car(), Z10, fixed=[10]), ME, r"fixed contains 10"),
    Case("refpoint-assemble-fixed-float", lambda: rp.assemble(_car(), Z10, fixed=[0.5]), ME,
         r"fixed entry must be an integer"),
    Case("refpoint-assemble-fixed-int", lambda: rp.assemble(_car(), Z10, fixed=0), ME, r"fixed must be a list"),
    Case("refpoint-assemble-all-fixed", lambda: rp.assemble(_car(), _q_open(), fixed=range(10)), ME,
         r"fixed holds every coordinate"),
    Case("refpoint-assemble-tol", lambda: rp.assemble(_car(), Z10, tol=-1.0), ME, r"tol is -1.0"),
    Case("refpoint-assemble-max_iter", lambda: rp.assemble(_car(), Z10, max_iter=0), ME, r"max_iter is 0"),
    Case("refpoint-assemble-q-nan", lambda: rp.assemble(_car(), _with(Z10, 1, NAN)), ME, r"q_guess\[1\] is nan"),
    Case("refpoint-assemble-no-convergence", lambda: rp.assemble(_car(), _q_open(), max_iter=1), CV,
         r"assembly did not converge in 1 iterations"),
    Case("refpoint-consistent_velocity-qd-short", lambda: rp.consistent_velocity(_car(), Z10, np.ones(4)), ME,
         r"qd_guess has shape \(4,\)"),
    Case("refpoint-consistent_velocity-qd-inf", lambda: rp.consistent_velocity(_car(), Z10, _with(Z10, 0, INF)), ME,
         r"qd_guess\[0\] is inf"),
    Case("refpoint-tree_joint_constraints-model", lambda: rp.tree_joint_constraints([1, 2]), ME,
         r"model must be a Model"),
    Case("refpoint-tree_joint_constraints-axes", lambda: rp.tree_joint_constraints(
        _model(bodies=(_body(axes="x"),), cuts=(), springs=(), q0=[0.0], tire_body=-1)), ME,
         r"joint axes 'x' have no basic-constraint form"),
    Case("refpoint-absolute_constraints-qd-short", lambda: rp.absolute_constraints(_car(), Z10, Z10[:3]), ME,
         r"qd has shape \(3,\)"),
    Case("refpoint-absolute_constraints-q-str", lambda: rp.absolute_constraints(_car(), "q0", Z10), ME,
         r"q must be an array"),
    Case("refpoint-applied_forces-t-nan", lambda: rp.applied_forces(_car(), Z10, Z10, t=NAN), ME, r"t is nan"),
    Case("refpoint-applied_forces-q-nan", lambda: rp.applied_forces(_car(), _with(Z10, 9, NAN), Z10), ME,
         r"q\[9\] is nan"),
    Case("refpoint-to_absolute-model", lambda: rp.to_absolute(None, Z10, Z10), ME, r"model must be a Model"),
    Case("refpoint-to_absolute-qd-None", lambda: rp.to_absolute(_car(), Z10, None), ME, r"qd must be an array"),
    # simulate: time spans, state consistency, options
    Case("refpoint-simulate-t_final-None", lambda: _sim(None), ME, r"t_final is None"),
    Case("refpoint-simulate-t_final-str", lambda: _sim("2"), ME, r"t_final is '2'"),
    Case("refpoint-simulate-t_final-zero", lambda: _sim(0), ME, r"t_final is 0.0"),
    Case("refpoint-simulate-t_final-negative", lambda: _sim(-0.01), ME, r"t_final is -0.01"),
    Case("refpoint-simulate-t_final-inf", lambda: _sim(INF), ME, r"t_final is inf"),
    Case("refpoint-simulate-q0-open", lambda: _sim(q=_q_open()), CV, r"refpoint.simulate: q does not close the loop"),
    Case("refpoint-simulate-qd0-inconsistent", lambda: _sim(qd=np.ones(10)), CV,
         r"qd violates the velocity constraint"),
    Case("refpoint-simulate-point", lambda: _sim(point="tip"), ME, r"point='tip'"),
    Case("refpoint-simulate-alpha-negative", lambda: _sim(alpha=-1.0), ME, r"alpha is -1.0"),
    Case("refpoint-simulate-rtol-str", lambda: _sim(rtol="1e-9"), ME, r"rtol must be a real number"),
    Case("refpoint-simulate-t_eval-outside", lambda: _sim(0.1, t_eval=[0.0, 0.5]), ME, r"t_eval has times outside"),
    Case("refpoint-simulate-q0-short", lambda: _sim(q=np.zeros(3)), ME, r"q has shape \(3,\)"),
]

_EQ = dict(m=2.0, J=np.diag([0.5, 0.5, 1.0]), s=np.zeros(3), s_dot=np.zeros(3), omega=np.zeros(3),
           F=np.zeros(3), tau=np.zeros(3))


def _eq(**kw):
    return rp.equipollent(**{**_EQ, **kw})


REFPOINT_CASES += [
    Case("refpoint-equipollent-m-zero", lambda: _eq(m=0.0), ME, r"m is 0.0"),
    Case("refpoint-equipollent-m-str", lambda: _eq(m="2"), ME, r"m must be a real number"),
    Case("refpoint-equipollent-J-shape", lambda: _eq(J=np.eye(2)), ME, r"J has shape \(2, 2\)"),
    Case("refpoint-equipollent-J-triangle", lambda: _eq(J=np.diag([1.0, 1.0, 3.0])), ME, r"triangle"),
    Case("refpoint-equipollent-s-short", lambda: _eq(s=np.zeros(2)), ME, r"s has shape \(2,\)"),
    Case("refpoint-equipollent-s_dot-nan", lambda: _eq(s_dot=_with(np.zeros(3), 1, NAN)), ME,
         r"s_dot\[1\] is nan"),
    Case("refpoint-equipollent-omega-None", lambda: _eq(omega=None), ME, r"omega must be an array"),
    Case("refpoint-equipollent-F-inf", lambda: _eq(F=_with(np.zeros(3), 2, INF)), ME, r"F\[2\] is inf"),
    Case("refpoint-equipollent-tau-str", lambda: _eq(tau="0"), ME, r"tau must be an array"),
]

REFPOINT_CASES += [
    Case("refpoint-velocity_transformation-p_i-short", lambda: rp.velocity_transformation(np.zeros(2), np.zeros(3),
         np.zeros(3), np.eye(3)), ME, r"p_i has shape \(2,\)"),
    Case("refpoint-velocity_transformation-r_j-nan", lambda: rp.velocity_transformation(np.zeros(3), np.zeros(3),
         _with(np.zeros(3), 0, NAN), np.eye(3)), ME, r"r_j\[0\] is nan"),
    Case("refpoint-velocity_transformation-Bw-rows", lambda: rp.velocity_transformation(np.zeros(3), np.zeros(3),
         np.zeros(3), np.eye(2)), ME, r"Bw has shape \(2, 2\)"),
    Case("refpoint-velocity_transformation-Bw-cols", lambda: rp.velocity_transformation(np.zeros(3), np.zeros(3),
         np.zeros(3), np.ones((3, 4))), ME, r"Bw has 4 columns"),
    Case("refpoint-velocity_transformation-p_j-None", lambda: rp.velocity_transformation(np.zeros(3), None,
         np.zeros(3), np.eye(3)), ME, r"p_j must be an array"),
]

def _views():
    """Systems the view functions refuse (built lazily: the table module imports without them)."""
    from rfda_teach import models
    from rfda_teach.bodies import Body
    from rfda_teach.joints import Joint
    from rfda_teach.system import Cut, System
    bar = Body("spatial", 1.0, np.diag([0.1, 0.1, 0.05]))
    two = System((-1, 0), (bar, bar), (Joint("revolute"), Joint("revolute", parent_point=[1.0, 0, 0])), None)
    return dict(
        planar=models.chain(2), prismatic=System((-1,), (bar,), (Joint("prismatic"),), None),
        free=models.random_tree(3, "spatial", seed=0), two=two,
        backwards=System((1, -1), (bar, bar), (Joint("revolute"), Joint("revolute")), None),
        cut_prismatic=dataclasses.replace(two, cuts=(Cut(-1, 1, Joint("prismatic"), name="slide"),)),
        tyres=dataclasses.replace(two, forces=(forces_tyre(0), forces_tyre(1))))


def forces_tyre(b):
    from rfda_teach.forces import Tyre
    return Tyre(b, k=1.0, radius=0.1)


def _sa(which="two", state=None, **kw):
    from rfda_teach import models
    sys_ = _views()[which]
    return rp.system_accelerations(sys_, models.random_state(sys_, seed=0) if state is None else state, **kw)


REFPOINT_CASES += [
    Case("refpoint-from_system-None", lambda: rp.from_system(None), ME, r"system must be a System"),
    Case("refpoint-from_system-planar", lambda: rp.from_system(_views()["planar"]), ME,
         r"planar bodies; Kang & Yoon's joints are spatial rotations"),
    Case("refpoint-from_system-prismatic", lambda: rp.from_system(_views()["prismatic"]), ME,
         r"joint 0 \(unnamed, type 'prismatic'\) has no form in Kang & Yoon's joint vocabulary"),
    Case("refpoint-from_system-free", lambda: rp.from_system(_views()["free"]), ME, r"type 'free'"),
    Case("refpoint-from_system-cut-prismatic", lambda: rp.from_system(_views()["cut_prismatic"]), ME,
         r"cut 0 'slide' \(unnamed, type 'prismatic'\)"),
    Case("refpoint-from_system-order", lambda: rp.from_system(_views()["backwards"]), TE,
         r"body 0 is numbered lower than its parent 1"),
    Case("refpoint-from_system-tyres", lambda: rp.from_system(_views()["tyres"]), ME, r"has 2 tyres"),
    Case("refpoint-from_system-q0", lambda: rp.from_system(_views()["two"], q0=np.zeros(3)), ME,
         r"q0 has shape \(3,\)"),
    Case("refpoint-Model-tire_point", lambda: _model(tire_point=[0.0, 1.0]), ME, r"tire_point has shape \(2,\)"),
    Case("refpoint-Model-mechanism", lambda: _model(mechanism="car"), ME, r"mechanism must be a System"),
    Case("refpoint-state_from_system-hand", lambda: rp.state_from_system(_model(), (np.zeros(35), np.zeros(30))),
         ME, r"was written by hand"),
    Case("refpoint-state_from_system-shape", lambda: rp.state_from_system(_car(), (np.zeros(3), np.zeros(30))),
         ME, r"state.y has shape \(3,\)"),
    Case("refpoint-state_from_system-model", lambda: rp.state_from_system(None, None), ME, r"model must be a Model"),
    Case("refpoint-system_state-stale", lambda: rp.system_state(dataclasses.replace(
        _car(), bodies=_car().bodies[:1], cuts=(), springs=(), tire_body=-1, q0=np.zeros(1)), np.zeros(1), np.zeros(1)),
        ME, r"no longer matches its mechanism"),
    Case("refpoint-system_state-hand", lambda: rp.system_state(_model(), Z10, Z10), ME, r"was written by hand"),
    Case("refpoint-system_state-q-short", lambda: rp.system_state(_car(), Z10[:4], Z10), ME, r"q has shape \(4,\)"),
    Case("refpoint-system_accelerations-point", lambda: _sa(point="tip"), ME, r"point='tip'"),
    Case("refpoint-system_accelerations-t", lambda: _sa(t=NAN), ME, r"t is nan"),
    Case("refpoint-system_accelerations-planar", lambda: _sa("planar"), ME, r"planar bodies"),
    Case("refpoint-system_accelerations-state", lambda: _sa(state=(np.zeros(14), np.zeros(3))), ME,
         r"state.yd has shape \(3,\)"),
    Case("refpoint-system_accelerations-open", lambda: rp.system_accelerations(
        _car().mechanism, rp.system_state(_car(), _q_open(), Z10)), CV, r"q does not close the loop"),
    Case("refpoint-quarter_car_system-road", lambda: rp.quarter_car_system(road=3.0), ME, r"road must be None"),
]

REFPOINT_COVERED = ["refpoint." + n for n in (
    "attachment_points", "Tally", "RBody", "CutJoint", "SpringDamper", "Model", "quarter_car", "joint_rotation", "Bw_local", "kinematics",
    "forward_dynamics", "solve", "count_multiplications", "constraint_rows", "closure_residual", "closure_jacobian",
    "assemble", "consistent_velocity", "simulate", "to_absolute", "tree_joint_constraints", "absolute_constraints",
    "applied_forces", "road_bump", "equipollent",
    "velocity_transformation", "from_system", "state_from_system", "system_state", "system_accelerations",
    "quarter_car_system")]

CASES = KANE_CASES + REFPOINT_CASES
COVERED = KANE_COVERED + REFPOINT_COVERED
EXEMPT = {
    "kane.BodyState": "plain result record (NamedTuple) that body_states returns; it computes nothing from its "
                      "fields and no public function takes one as input",
}
