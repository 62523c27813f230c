"""The package's algorithms on real robots (Pinocchio models), against pinocchio.aba."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st_

pin = pytest.importorskip("pinocchio")

from rfda_teach import coordinates as co, interop, rfda  # noqa: E402
from rfda_teach.errors import ModelError  # noqa: E402

from conftest import rel  # noqa: E402


@pytest.fixture(scope="module", params=["panda", "ur5", "solo12"])
def robot(request):
    return interop.example_robot(request.param)


@pytest.mark.parametrize("form", ["lubich", "featherstone", "dense"])
def test_forward_dynamics_equals_pinocchio_aba(robot, form):
    data = robot.pin_model.createData()
    for seed in range(4):
        q, v, tau = interop.random_state(robot, seed=seed)
        a_ref = pin.aba(robot.pin_model, data, q, v, tau)
        assert rel(interop.forward_dynamics(robot, q, v, tau, form=form), a_ref) < 1e-8


def test_state_conversion_matches_pinocchio_com_and_velocities(robot):
    q, v, _ = interop.random_state(robot, seed=3)
    st = interop.to_state(robot, q, v)
    model = robot.pin_model
    data = model.createData()
    pin.forwardKinematics(model, data, q, v)
    for i in range(1, model.njoints):
        com = data.oMi[i].act(model.inertias[i].lever)
        assert np.allclose(st.y[robot.pos_slices[i - 1]][:3], com)
        w = data.oMi[i].rotation @ data.v[i].angular
        vo = data.oMi[i].rotation @ data.v[i].linear
        assert np.allclose(st.yd[robot.vel_slices[i - 1]][:3], vo + np.cross(w, com - data.oMi[i].translation))
        assert np.allclose(st.yd[robot.vel_slices[i - 1]][3:], w)


def test_spherical_and_unaligned_joints_against_aba():
    model = pin.Model()
    rng = np.random.default_rng(0)
    def inertia():                       # a physical inertia: second moments s_k > 0 of a mass distribution
        s1, s2, s3 = rng.uniform(0.05, 1.0, 3)
        R = pin.rpy.rpyToMatrix(*rng.normal(size=3))
        J = R @ np.diag([s2 + s3, s1 + s3, s1 + s2]) @ R.T
        return pin.Inertia(rng.uniform(0.5, 2.0), rng.normal(size=3) * 0.2, J)
    M1 = pin.SE3(pin.rpy.rpyToMatrix(*rng.normal(size=3)), rng.normal(size=3))
    j1 = model.addJoint(0, pin.JointModelFreeFlyer(), M1, "root")
    model.appendBodyToJoint(j1, inertia(), pin.SE3.Identity())
    j2 = model.addJoint(j1, pin.JointModelSpherical(), pin.SE3(pin.rpy.rpyToMatrix(0.3, -0.2, 0.5), np.array([0.3, 0.1, 0.0])), "ball")
    model.appendBodyToJoint(j2, inertia(), pin.SE3.Identity())
    axis = np.array([1.0, 2.0, -0.5]) / np.linalg.norm([1.0, 2.0, -0.5])
    j3 = model.addJoint(j2, pin.JointModelRevoluteUnaligned(axis), pin.SE3(np.eye(3), np.array([0.0, 0.4, 0.1])), "hinge")
    model.appendBodyToJoint(j3, inertia(), pin.SE3.Identity())
    j4 = model.addJoint(j3, pin.JointModelPrismaticUnaligned(axis[::-1] / np.linalg.norm(axis)), pin.SE3(np.eye(3), np.array([0.2, 0.0, 0.0])), "slide")
    model.appendBodyToJoint(j4, inertia(), pin.SE3.Identity())
    robot = interop.from_pinocchio(model)
    assert robot.pin_kinds == ("free", "spherical", "revolute", "prismatic")
    data = model.createData()
    for seed in range(4):
        q, v, tau = interop.random_state(robot, seed=seed)
        a_ref = pin.aba(model, data, q, v, tau)
        for form in ("lubich", "featherstone", "dense"):
            assert rel(interop.forward_dynamics(robot, q, v, tau, form=form), a_ref) < 1e-8


def test_coordinates_of_rfda_on_a_robot_are_block_diagonal():
    robot = interop.example_robot("ur5")
    q, v, _ = interop.random_state(robot, seed=0)
    st = interop.to_state(robot, q, v)
    nodes = co.rfda_coordinates(robot, st)
    import scipy.linalg
    from rfda_teach.system import terms
    tr = terms(robot, st)
    lub = rfda.forward_dynamics(robot, st)
    for nc in nodes:
        Mv = co.appendix_b(nc.T, scipy.linalg.block_diag(*[tr.M[i] for i in nc.members]))
        assert np.linalg.norm(Mv[:nc.p, nc.p:]) < 1e-10 * np.linalg.norm(Mv)
        assert rel(Mv[:nc.p, :nc.p], lub.M_hat[nc.node]) < 1e-10


def test_errors():
    with pytest.raises(ModelError, match="does not exist"):
        interop.from_urdf("/nonexistent/robot.urdf")
    with pytest.raises(ModelError, match="name='r2d2' is not known; use one of"):
        interop.example_robot("r2d2")
    model = pin.Model()
    j = model.addJoint(0, pin.JointModelTranslation(), pin.SE3.Identity(), "xyz")
    # a physical inertia (a random one may break the triangle inequality, and its warning then
    # came before the error, in some runs and not others)
    model.appendBodyToJoint(j, pin.Inertia(1.0, np.zeros(3), np.diag([0.02, 0.03, 0.04])), pin.SE3.Identity())
    with pytest.raises(ModelError, match="joint 'xyz' is a Pinocchio JointModelTranslation, which is not supported"):
        interop.from_pinocchio(model)
    robot = interop.example_robot("ur5")
    q, v, tau = interop.random_state(robot, seed=0)
    with pytest.raises(ModelError, match=r"q has shape \(3,\); it must be \(6,\)"):
        interop.forward_dynamics(robot, q[:3], v, tau)
    with pytest.raises(ModelError, match="form='aba'"):
        interop.forward_dynamics(robot, q, v, tau, form="aba")


@pytest.mark.parametrize("name", ["ur5", "solo12"])
def test_fast_form_equals_aba(name):
    from rfda_teach import fastpath
    if not fastpath.available():
        pytest.skip("numba is not installed")
    robot = interop.example_robot(name)
    data = robot.pin_model.createData()
    q, v, tau = interop.random_state(robot, seed=2)
    assert rel(interop.forward_dynamics(robot, q, v, tau, form="fast"), pin.aba(robot.pin_model, data, q, v, tau)) < 1e-8


def test_from_screws_equals_modern_robotics_forward_dynamics():
    mr = pytest.importorskip("modern_robotics")
    Mlist, Glist, Slist = interop.ur5_screws()
    robot = interop.from_screws(Mlist, Glist, Slist)
    rng = np.random.default_rng(0)
    for _ in range(3):
        th, dth, tau = rng.uniform(-1, 1, 6), rng.normal(size=6), rng.normal(size=6)
        ref = mr.ForwardDynamics(th, dth, tau, np.array([0, 0, -9.81]), np.zeros(6), Mlist + [np.eye(4)], Glist, Slist)
        for form in ("featherstone", "dense"):
            assert rel(interop.forward_dynamics(robot, th, dth, tau, form=form), ref) < 1e-8


def test_from_dh_two_link_arm_against_the_textbook_formula():
    """A planar two-link arm with point masses at the link ends (Spong's example), gravity along -y."""
    m1, m2, l1, l2 = 1.3, 0.7, 0.9, 0.6
    eps = 1e-9 * np.eye(3)                     # point masses: a vanishing inertia keeps every body valid
    links = [dict(d=0.0, a=l1, alpha=0.0, m=m1, r=[0, 0, 0], I=eps), dict(d=0.0, a=l2, alpha=0.0, m=m2, r=[0, 0, 0], I=eps)]
    robot = interop.from_dh(links, gravity=(0, -9.81, 0))
    q, qd, tau = np.array([0.4, -0.7]), np.array([0.3, 0.5]), np.array([1.0, -0.5])
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    M = np.array([[m1 * l1**2 + m2 * (l1**2 + 2 * l1 * l2 * c2 + l2**2), m2 * (l1 * l2 * c2 + l2**2)],
                  [m2 * (l1 * l2 * c2 + l2**2), m2 * l2**2]])
    h = m2 * l1 * l2 * s2
    Cqd = np.array([-h * qd[1] * (2 * qd[0] + qd[1]), h * qd[0] ** 2])
    g = 9.81
    grav = np.array([(m1 + m2) * l1 * g * np.cos(q[0]) + m2 * g * l2 * np.cos(q[0] + q[1]),
                     m2 * g * l2 * np.cos(q[0] + q[1])])
    ref = np.linalg.solve(M, tau - Cqd - grav)
    assert rel(interop.forward_dynamics(robot, q, qd, tau), ref) < 1e-6


# ---------------------------------------------------------------- issue 11: no silent wrong answer

FORMS = ["lubich", "featherstone", "dense", "fast"]


def _forms():
    from rfda_teach import fastpath
    return FORMS if fastpath.available() else FORMS[:3]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("scale", [1.5, 1.0 + 1e-4, 0.0])
def test_non_unit_free_flyer_quaternion_is_refused(form, scale):
    """Item 2: a quaternion of norm 1.5 (or 0) gave accelerations ~1e3 off pinocchio.aba, silently."""
    robot = interop.example_robot("solo12")
    q, v, tau = interop.random_state(robot, seed=0)
    q[3:7] *= scale
    with pytest.raises(ModelError, match=r"quaternion of joint 'root_joint', has norm .*not 1.*pinocchio.normalize"):
        interop.forward_dynamics(robot, q, v, tau, form=form)
    with pytest.raises(ModelError, match="root_joint"):
        interop.to_state(robot, q, v)


def test_unit_quaternion_within_tolerance_is_accepted():
    robot = interop.example_robot("solo12")
    q, v, tau = interop.random_state(robot, seed=0)
    q[3:7] *= 1.0 + 1e-8
    a = interop.forward_dynamics(robot, q, v, tau)
    assert rel(a, pin.aba(robot.pin_model, robot.pin_model.createData(), q, v, tau)) < 1e-6


@pytest.mark.parametrize("arg, bad, match", [
    ("q", lambda x: x[:-1], r"q has shape"), ("v", lambda x: x[:-1], r"v has shape"),
    ("tau", lambda x: np.r_[x, 0.0], r"tau has shape"), ("q", lambda x: np.r_[np.nan, x[1:]], r"q\[0\] is nan"),
    ("v", lambda x: np.r_[x[:-1], np.inf], r"v\[17\] is inf"), ("tau", lambda x: None, r"tau must be an array"),
    ("q", lambda x: "abc", r"q must be an array"), ("v", lambda x: [["1"]], r"v has shape"),
])
@pytest.mark.parametrize("form", FORMS)
def test_bad_pinocchio_state_names_the_argument(arg, bad, match, form):
    robot = interop.example_robot("solo12")
    args = dict(zip(("q", "v", "tau"), interop.random_state(robot, seed=0)))
    args[arg] = bad(args[arg])
    with pytest.raises(ModelError, match=match):
        interop.forward_dynamics(robot, form=form, **args)


def _ball_and_hinge():
    model = pin.Model()
    j1 = model.addJoint(0, pin.JointModelSpherical(), pin.SE3.Identity(), "ball")
    model.appendBodyToJoint(j1, pin.Inertia(1.0, np.array([0.1, 0, 0.2]), np.diag([0.1, 0.2, 0.3])), pin.SE3.Identity())
    j2 = model.addJoint(j1, pin.JointModelRUBY(), pin.SE3(np.eye(3), np.array([0.0, 0.0, 0.5])), "wheel")
    model.appendBodyToJoint(j2, pin.Inertia(0.5, np.array([0, 0.1, 0]), np.diag([0.1, 0.1, 0.2])), pin.SE3.Identity())
    return interop.from_pinocchio(model)


def test_spherical_quaternion_and_continuous_cos_sin_pair_must_be_unit():
    robot = _ball_and_hinge()
    assert [b[:2] for b in robot.pin_unit_q] == [("ball", 0), ("wheel", 4)]
    q, v, tau = interop.random_state(robot, seed=0)
    q_bad = q.copy(); q_bad[:4] *= 2
    with pytest.raises(ModelError, match=r"q\[0:4\], the quaternion of joint 'ball', has norm 2"):
        interop.forward_dynamics(robot, q_bad, v, tau)
    q_bad = q.copy(); q_bad[4:6] *= 0.5
    with pytest.raises(ModelError, match=r"the \(cos, sin\) pair of joint 'wheel', has norm 0.5"):
        interop.forward_dynamics(robot, q_bad, v, tau)
    a_ref = pin.aba(robot.pin_model, robot.pin_model.createData(), q, v, tau)
    for form in _forms():
        assert rel(interop.forward_dynamics(robot, q, v, tau, form=form), a_ref) < 1e-9


def test_plain_system_is_refused_where_a_robot_is_needed():
    from rfda_teach import models
    sys_ = models.chain(3, "spatial")
    robot = interop.example_robot("ur5")
    q, v, tau = interop.random_state(robot, seed=0)
    for call in (lambda: interop.forward_dynamics(sys_, q, v, tau), lambda: interop.to_state(sys_, q, v),
                 lambda: interop.random_state(sys_)):
        with pytest.raises(ModelError, match=r"robot must be a RobotSystem, got System.*from_urdf"):
            call()


# ---------------------------------------------------------------- URDF files written on the spot

_INERTIAL = ('<inertial><origin xyz="0.01 0.02 0.03" rpy="0.1 0 0"/><mass value="{m}"/>'
             '<inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.15"/></inertial>')
_LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def _urdf(tmp_path, joints, *, mass="1.2", name="t.urdf"):
    """A URDF with the joints [(name, type, parent, child, extra xml)]; every link carries a body."""
    links = ["base"] + [j[3] for j in joints]
    xml = ['<robot name="t">'] + [f'<link name="{ln}">{_INERTIAL.format(m=mass)}</link>' for ln in links]
    xml += [f'<joint name="{n}" type="{t}"><parent link="{p}"/><child link="{c}"/>'
            f'<origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/>{extra}</joint>' for n, t, p, c, extra in joints]
    path = tmp_path / name
    path.write_text("\n".join(xml + ["</robot>"]))
    return path


_KINDS = {   # URDF joint -> (Pinocchio joint model, the package's joint)
    "revolute aligned": (("revolute", '<axis xyz="0 0 1"/>' + _LIMIT), "JointModelRZ", "revolute"),
    "revolute unaligned": (("revolute", '<axis xyz="0.6 0.8 0"/>' + _LIMIT), "JointModelRevoluteUnaligned", "revolute"),
    "continuous aligned": (("continuous", '<axis xyz="0 1 0"/>'), "JointModelRUBY", "revolute"),
    "continuous unaligned": (("continuous", '<axis xyz="0.6 0 0.8"/>'), "JointModelRevoluteUnboundedUnaligned",
                             "revolute"),
    "prismatic aligned": (("prismatic", '<axis xyz="1 0 0"/>' + _LIMIT), "JointModelPX", "prismatic"),
    "prismatic unaligned": (("prismatic", '<axis xyz="0 0.6 -0.8"/>' + _LIMIT), "JointModelPrismaticUnaligned",
                            "prismatic"),
    "floating": (("floating", ""), "JointModelFreeFlyer", "free"),
    "planar": (("planar", '<axis xyz="0 0 1"/>'), "JointModelPlanar", "planar"),
}


@pytest.mark.parametrize("kind", list(_KINDS))
def test_every_urdf_joint_kind_against_aba(tmp_path, kind):
    """Item 3: a continuous joint with an unaligned axis crashed with AttributeError; every kind a URDF
    gives is either supported (checked against pinocchio.aba here) or refused by name (next tests).
    Each kind is tested on the ground, after a revolute joint and after a fixed joint (merged)."""
    (jtype, extra), pin_name, ours = _KINDS[kind]
    hinge = '<axis xyz="1 0 0"/>' + _LIMIT
    path = _urdf(tmp_path, [("a", jtype, "base", "l1", extra), ("b", "revolute", "l1", "l2", hinge),
                            ("c", jtype, "l2", "l3", extra), ("d", "fixed", "l3", "l4", ""),
                            ("e", jtype, "l4", "l5", extra)])
    for floating_base in (False, True):
        robot = interop.from_urdf(path, floating_base=floating_base)
        names = [robot.pin_model.joints[i].shortname() for i in range(1, robot.pin_model.njoints)]
        assert names[-4:] == [pin_name, "JointModelRX", pin_name, pin_name]          # 'd' merged
        assert robot.pin_kinds[-4:] == (ours, "revolute", ours, ours)
        data = robot.pin_model.createData()
        for seed in range(3):
            q, v, tau = interop.random_state(robot, seed=seed)
            a_ref = pin.aba(robot.pin_model, data, q, v, tau)
            for form in _forms():
                assert rel(interop.forward_dynamics(robot, q, v, tau, form=form), a_ref) < 1e-9, (form, seed)


def test_planar_urdf_joint_with_a_normal_other_than_z_is_refused(tmp_path):
    """Pinocchio's URDF parser ignores a planar joint's axis (the plane is always the joint frame's xy)."""
    path = _urdf(tmp_path, [("slider", "planar", "base", "l1", '<axis xyz="1 0 0"/>')])
    with pytest.raises(ModelError, match=r"joint 'slider' .*planar joint with normal <axis xyz='1 0 0'>: Pinocchio's "
                                         r"parser ignores the axis"):
        interop.from_urdf(path)


@pytest.mark.parametrize("make, joint", [
    (lambda pin: pin.JointModelTranslation(), "JointModelTranslation"),
    (lambda pin: pin.JointModelSphericalZYX(), "JointModelSphericalZYX"),
    (lambda pin: pin.JointModelHZ(0.1), "JointModelHZ"),
    (lambda pin: pin.JointModelHelicalUnaligned(np.array([0, 0.6, 0.8]), 0.1), "JointModelHelicalUnaligned"),
    (lambda pin: pin.JointModelEllipsoid(0.1, 0.2, 0.3), "JointModelEllipsoid"),
])
def test_other_pinocchio_joints_are_refused_by_name(make, joint):
    try:
        jm = make(pin)
    except (AttributeError, TypeError):
        pytest.skip(f"this Pinocchio has no {joint}")
    model = pin.Model()
    j = model.addJoint(0, jm, pin.SE3.Identity(), "odd")
    model.appendBodyToJoint(j, pin.Inertia(1.0, np.zeros(3), np.eye(3)), pin.SE3.Identity())
    with pytest.raises(ModelError, match=f"joint 'odd' is a Pinocchio {joint}, which is not supported.*supported: "):
        interop.from_pinocchio(model)


def test_unknown_urdf_joint_type_is_refused_by_name(tmp_path):
    path = _urdf(tmp_path, [("ball", "spherical", "base", "l1", "")])
    with pytest.raises(ModelError, match=r"joint 'ball' of .*type 'spherical' is not a URDF joint type"):
        interop.from_urdf(path)


def test_mimic_joint_is_refused_not_dropped(tmp_path):
    """Item 6: <mimic> was dropped silently (2 dof where Pinocchio with mimic support gives 1)."""
    hinge = '<axis xyz="0 0 1"/>' + _LIMIT
    path = _urdf(tmp_path, [("j1", "revolute", "base", "l1", hinge),
                            ("j2", "revolute", "l1", "l2", hinge + '<mimic joint="j1" multiplier="2" offset="0.1"/>')])
    with pytest.raises(ModelError, match=r"joint 'j2' .*mimics joint 'j1'.*mimic=True.*ignore_mimic=True"):
        interop.from_urdf(path)
    assert interop.from_urdf(path, ignore_mimic=True).n_dof == 2        # the documented opt-out
    kept = interop.from_urdf(path, mimic=True)                          # the coupling as a constraint
    assert kept.mimic[0][:4] == ("j2", "j1", 2.0, 0.1)
    q, v, tau = interop.random_state(kept, seed=1)
    assert np.isclose(q[1], 2 * q[0] + 0.1) and np.isclose(v[1], 2 * v[0])
    a = interop.forward_dynamics(kept, q, v, tau)
    assert np.isclose(a[1], 2 * a[0])
    mimic_model = pin.buildModelFromUrdf(str(path), mimic=True)      # a model built with mimic support
    with pytest.raises(ModelError, match=r"joint 'j2' is a Pinocchio JointModelMimic, which is not "
                                         r"supported .*mimic=True"):
        interop.from_pinocchio(mimic_model)


@pytest.mark.parametrize("make, match", [
    (lambda d: d / "missing.urdf", r"URDF file '.*missing.urdf' does not exist; check the path"),
    (lambda d: d, r"is a directory, not a URDF file; give the path of the .urdf file \(it holds \['t.urdf'\]\)"),
    (lambda d: _write(d, "bad.urdf", "<robot name='x'><link name='a'>"),
     r"bad.urdf' is not well-formed XML \(.*line 1"),
    (lambda d: _write(d, "e.urdf", ""), r"e.urdf' is not well-formed XML"),
    (lambda d: _write(d, "s.sdf", "<sdf><model/></sdf>"), r"has top element <sdf>; a URDF file has <robot>"),
    (lambda d: _urdf(d, [("j", "revolute", "base", "l1", _LIMIT)], mass="nan", name="n.urdf"),
     r"link 'base' of .*<mass> value='nan' must be 1 finite number"),
    (lambda d: _urdf(d, [("j", "revolute", "base", "l1", _LIMIT)], mass="heavy", name="h.urdf"),
     r"link 'base' of .*<mass> value='heavy' must be 1 finite number"),
    (lambda d: _urdf(d, [("j", "revolute", "base", "l1", '<axis xyz="0 0 0"/>' + _LIMIT)], name="z.urdf"),
     r"joint 'j' of .*has no direction"),
    (lambda d: _urdf(d, [("j", "revolute", "base", "l1", '<axis xyz="0 inf 1"/>' + _LIMIT)], name="i.urdf"),
     r"joint 'j' of .*<axis> xyz='0 inf 1' must be 3 finite numbers"),
    (lambda d: _write(d, "u.urdf", '<robot name="r"><link name="a"/><joint name="j" type="fixed"><parent link="a"/>'
                                   '<child link="ghost"/></joint></robot>'), r"Pinocchio could not build a model from"),
    (lambda d: _write(d, "l.urdf", '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
                                   '<parent link="a"/><child link="b"/></joint></robot>'),
     r"Pinocchio could not build a model from '.*l.urdf'.* urdfdom says: Joint \[j\] .*does not specify limits"),
    (lambda d: _write(d, "m.urdf", '<robot name="r"><link name="a"/><link name="b"><inertial><inertia ixx="1" '
                                   'ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link><joint name="j" '
                                   'type="continuous"><parent link="a"/><child link="b"/></joint></robot>'),
     r"link 'b' of .*<inertial> needs <mass value=...>"),
    (lambda d: _write(d, "z.urdf", '<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
                                   'type="continuous"><parent link="a"/><child link="b"/></joint></robot>'),
     r"joint 'j' moves a body with mass 0.0 .*give its link an <inertial>"),
])
def test_urdf_file_errors_say_what_where_and_what_to_do(tmp_path, make, match):
    """Item 4: Pinocchio's bare ValueError, a directory reported as 'does not exist', mass 'nan' read as 0."""
    _urdf(tmp_path, [("j", "revolute", "base", "l1", _LIMIT)])
    with pytest.raises(ModelError, match=match):
        interop.from_urdf(make(tmp_path))


def _write(d, name, text):
    (d / name).write_text(text)
    return d / name


def test_from_urdf_argument_types():
    with pytest.raises(ModelError, match=r"path must be the path of a .urdf file .*got None"):
        interop.from_urdf(None)
    with pytest.raises(ModelError, match="floating_base must be a bool"):
        interop.from_urdf(interop.example_robot_path("ur5"), floating_base="yes")
    with pytest.raises(ModelError, match="model must be a Model"):
        interop.from_pinocchio("ur5")


# ---------------------------------------------------------------- several bodies on the ground

FOREST = [("talos", 3), ("solo12", 4), ("anymal", 4), ("hyq", 4), ("baxter", 3), ("tiago", 3)]


@pytest.mark.parametrize("name, n_roots", FOREST, ids=[f[0] for f in FOREST])
def test_fixed_base_robots_with_several_roots_against_aba(name, n_roots):
    """Fixed-base robots with several joints on the base (legs and torso bolted down, two arms and a
    head on a torso, a mobile base's wheels and column) are forests: each ground-attached body a root."""
    robot = interop.example_robot(name, floating_base=False)
    assert len(robot.topology.roots) == n_roots
    data = robot.pin_model.createData()
    for seed in range(2):
        q, v, tau = interop.random_state(robot, seed=seed)
        a_ref = pin.aba(robot.pin_model, data, q, v, tau)
        for form in _forms():
            assert rel(interop.forward_dynamics(robot, q, v, tau, form=form), a_ref) < 1e-9, (form, seed)


@settings(max_examples=40, deadline=None)
@given(st_.sampled_from(["q", "v", "tau"]), st_.sampled_from(["nan", "inf", "scale", "cut", "grow", "list"]),
       st_.integers(0, 100), st_.floats(0.0, 2.0), st_.sampled_from(FORMS))
def test_forward_dynamics_answers_aba_or_model_error(arg, how, at, factor, form):
    """Whatever is wrong with (q, v, tau): a ModelError naming it, or pinocchio.aba's answer (1e-9)."""
    robot = _solo()
    form = form if form in _forms() else "featherstone"
    args = dict(zip(("q", "v", "tau"), interop.random_state(robot, seed=1)))
    x = args[arg]
    i = at % x.size
    if how == "nan":
        x[i] = np.nan
    elif how == "inf":
        x[i] = np.inf
    elif how == "scale":
        x[i] *= factor
    elif how == "cut":
        args[arg] = x[:i]
    elif how == "grow":
        args[arg] = np.r_[x, np.zeros(i + 1)]
    else:
        args[arg] = list(x)
    try:
        a = interop.forward_dynamics(robot, form=form, **args)
    except ModelError as exc:
        assert arg in str(exc)
    else:
        q, v, tau = (np.asarray(args[k], float) for k in ("q", "v", "tau"))
        assert abs(np.linalg.norm(q[3:7]) - 1) <= 1e-6
        assert rel(a, pin.aba(robot.pin_model, robot.pin_model.createData(), q, v, tau)) < 1e-9


_SOLO = []


def _solo():
    if not _SOLO:
        _SOLO.append(interop.example_robot("solo12"))
    return _SOLO[0]


# ---------------------------------------------------------------- issue 16: the compiled path end to end

_PIN_JOINTS = {
    "RX": lambda pin, u: pin.JointModelRX(), "RY": lambda pin, u: pin.JointModelRY(),
    "RZ": lambda pin, u: pin.JointModelRZ(), "R unaligned": lambda pin, u: pin.JointModelRevoluteUnaligned(u),
    "RUBX": lambda pin, u: pin.JointModelRUBX(), "RUBZ": lambda pin, u: pin.JointModelRUBZ(),
    "RUBY": lambda pin, u: pin.JointModelRUBY(),    # unaligned continuous joints: test_every_urdf_joint_kind
    "PX": lambda pin, u: pin.JointModelPX(), "PY": lambda pin, u: pin.JointModelPY(),
    "P unaligned": lambda pin, u: pin.JointModelPrismaticUnaligned(u),
    "free": lambda pin, u: pin.JointModelFreeFlyer(), "spherical": lambda pin, u: pin.JointModelSpherical(),
    "planar": lambda pin, u: pin.JointModelPlanar(),
}


def random_pin_tree(kinds, parents, seed):
    """A Pinocchio model with the given joint kinds (names of _PIN_JOINTS) and parents (-1: the ground,
    so several roots make a forest), random placements, physical inertias and unit axes."""
    rng = np.random.default_rng(seed)
    model = pin.Model()
    for k, (kind, p) in enumerate(zip(kinds, parents)):
        u = rng.normal(size=3)
        u /= np.linalg.norm(u)
        M = pin.SE3(pin.rpy.rpyToMatrix(*rng.normal(size=3)), rng.normal(size=3) * 0.3)
        j = model.addJoint(p + 1, _PIN_JOINTS[kind](pin, u), M, f"j{k}")
        s1, s2, s3 = rng.uniform(0.05, 1.0, 3)
        R = pin.rpy.rpyToMatrix(*rng.normal(size=3))
        model.appendBodyToJoint(j, pin.Inertia(rng.uniform(0.5, 2.0), rng.normal(size=3) * 0.2,
                                               R @ np.diag([s2 + s3, s1 + s3, s1 + s2]) @ R.T), pin.SE3.Identity())
    return interop.from_pinocchio(model)


@st_.composite
def _pin_trees(draw):
    n = draw(st_.integers(1, 12))
    kinds = draw(st_.lists(st_.sampled_from(sorted(_PIN_JOINTS)), min_size=n, max_size=n))
    parents = [draw(st_.integers(-1, k - 1)) for k in range(n)]
    return kinds, parents, draw(st_.integers(0, 2 ** 31 - 1))


@settings(max_examples=60, deadline=None)
@given(_pin_trees())
def test_fast_path_end_to_end_equals_the_readable_featherstone_form(tree):
    """The compiled path (Pinocchio kinematics, speed maps, the RFDA, q-ddot back) against its
    specification, the readable interop.forward_dynamics: random trees and forests with every joint
    kind, free-flyers and spherical joints anywhere, to 1e-10."""
    from rfda_teach import fastpath
    if not fastpath.available():
        pytest.skip("numba is not installed")
    kinds, parents, seed = tree
    robot = random_pin_tree(kinds, parents, seed)
    q, v, tau = interop.random_state(robot, seed=seed)
    ref = interop.forward_dynamics(robot, q, v, tau, form="featherstone")
    assert rel(interop.forward_dynamics(robot, q, v, tau, form="fast"), ref) < 1e-10
    assert rel(ref, pin.aba(robot.pin_model, robot.pin_model.createData(), q, v, tau)) < 1e-8


@pytest.mark.parametrize("name, floating", [("ur5", None), ("panda", None), ("talos", None), ("solo12", None),
                                            ("anymal", None), ("hyq", None), ("talos", False), ("baxter", None),
                                            ("tiago", None)])
def test_fast_path_end_to_end_on_the_example_robots(name, floating):
    from rfda_teach import fastpath
    if not fastpath.available():
        pytest.skip("numba is not installed")
    robot = interop.example_robot(name, floating_base=floating)
    for seed in range(2):
        q, v, tau = interop.random_state(robot, seed=seed)
        ref = interop.forward_dynamics(robot, q, v, tau, form="featherstone")
        assert rel(interop.forward_dynamics(robot, q, v, tau, form="fast"), ref) < 1e-10


def test_fast_path_accepts_lists_and_converts_like_the_readable_forms():
    robot = interop.example_robot("solo12")
    q, v, tau = interop.random_state(robot, seed=0)
    ref = interop.forward_dynamics(robot, q, v, tau, form="featherstone")
    assert rel(interop.forward_dynamics(robot, list(q), list(v), list(tau), form="fast"), ref) < 1e-10
    assert rel(interop.forward_dynamics(robot, q, v, tau.astype(np.float32), form="fast"), ref) < 1e-6


# ---------------------------------------------------------------- issue 16: robots simulated in (q, v)

def _gravity_free(name):
    model = interop.example_robot(name).pin_model.copy()
    model.gravity.linear = np.zeros(3)
    return interop.from_pinocchio(model)


def test_simulate_conserves_energy_of_a_free_floating_robot():
    """Torque-free, gravity-free Solo-12 (a free-flyer and 12 joints) over 2 s: energy to 1e-6 relative
    (about 1e-11 with the default DOP853, rtol = atol = 1e-10), quaternion unit."""
    robot = _gravity_free("solo12")
    q0, v0, _ = interop.random_state(robot, seed=0)
    traj = interop.simulate(robot, q0, v0, 2.0, n_out=41)
    assert traj.t[-1] == 2.0 and traj.q.shape == (41, 19) and traj.v.shape == (41, 18)
    E = np.array([interop.energy(robot, q, v) for q, v in zip(traj.q, traj.v)])
    assert np.abs(E - E[0]).max() / E[0] < 1e-6
    assert np.abs(np.linalg.norm(traj.q[:, 3:7], axis=1) - 1).max() < 1e-12
    h = traj.q[-1] - q0                                          # it moved
    assert np.linalg.norm(h) > 0.1


@settings(max_examples=20, deadline=None)
@given(_pin_trees())
def test_configuration_rate_is_the_derivative_of_pinocchio_integrate(tree):
    """q' of every joint kind against pinocchio.integrate(q, h v) by central differences."""
    robot = random_pin_tree(*tree)
    q, v, _ = interop.random_state(robot, seed=tree[2])
    h = 1e-6
    fd = (pin.integrate(robot.pin_model, q, h * v) - pin.integrate(robot.pin_model, q, -h * v)) / (2 * h)
    assert np.allclose(interop.configuration_rate(robot, q, v), fd, atol=1e-7 * (1 + np.abs(fd).max()))


def test_simulate_against_pinocchio_on_the_manifold():
    """A short horizon against an independent integrator: classical RK4 on Pinocchio's configuration
    manifold (pinocchio.integrate, pinocchio.aba) with a small step, free-flyer and gravity included."""
    robot = interop.example_robot("solo12")
    model, data = robot.pin_model, robot.pin_model.createData()
    q0, v0, tau = interop.random_state(robot, seed=4)
    T, N = 0.1, 400
    traj = interop.simulate(robot, q0, v0, T, tau=tau, t_eval=[T])
    dt = T / N
    q, v = q0.copy(), v0.copy()
    for _ in range(N):                    # RK4 in the tangent space at q (the steps are tiny: O(dt^4) error)
        def f(dq, dv):
            qq = pin.integrate(model, q, dq)
            return (v + dv), pin.aba(model, data, qq, v + dv, tau)
        k1 = f(0 * v, 0 * v)
        k2 = f(dt / 2 * k1[0], dt / 2 * k1[1])
        k3 = f(dt / 2 * k2[0], dt / 2 * k2[1])
        k4 = f(dt * k3[0], dt * k3[1])
        dq = dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        dv = dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        q, v = pin.integrate(model, q, dq), v + dv
    assert np.linalg.norm(pin.difference(model, traj.q[-1], q)) < 1e-6
    assert rel(traj.v[-1], v) < 1e-6


def test_simulate_tau_constant_sampled_and_callable():
    robot = interop.example_robot("ur5")
    q0, v0, tau = interop.random_state(robot, seed=1)
    const = interop.simulate(robot, q0, v0, 0.1, tau=tau, t_eval=[0.05, 0.1])
    sampled = interop.simulate(robot, q0, v0, 0.1, tau=np.tile(tau, (3, 1)), t_eval=[0.05, 0.1])
    called = interop.simulate(robot, q0, v0, 0.1, tau=lambda t, q, v: tau, t_eval=[0.05, 0.1])
    for other in (sampled, called):
        assert rel(other.q, const.q) < 1e-12 and rel(other.v, const.v) < 1e-12
    ramp = interop.simulate(robot, q0, v0, 0.1, tau=np.array([0 * tau, 2 * tau]), t_eval=[0.1])
    by_hand = interop.simulate(robot, q0, v0, 0.1, tau=lambda t, q, v: 20 * t * tau, t_eval=[0.1])
    assert rel(ramp.q, by_hand.q) < 1e-9
    pd = interop.simulate(robot, q0, v0, 3.0, tau=lambda t, q, v: -400 * (q - q0) - 40 * v
                          + pin.computeGeneralizedGravity(robot.pin_model, robot.pin_model.createData(), q),
                          t_eval=[3.0])
    assert np.abs(pd.q[-1] - q0).max() < 1e-3                   # the PD controller holds q0
    slow = interop.simulate(robot, q0, v0, 0.1, tau=tau, form="featherstone", t_eval=[0.1])
    assert rel(slow.q, const.q[-1:]) < 1e-9


def test_simulate_refuses_bad_input():
    robot = interop.example_robot("solo12")
    q0, v0, tau = interop.random_state(robot, seed=0)
    q_bad = q0.copy(); q_bad[3:7] *= 2
    for kw, match in [(dict(q0=q_bad), r"q0\[3:7\], the quaternion of joint 'root_joint', has norm 2"),
                      (dict(v0=v0[:3]), r"v0 has shape \(3,\)"), (dict(t_final=0.0), r"t_final is 0.0"),
                      (dict(tau=tau[:3]), r"tau has shape \(3,\)"), (dict(tau=np.ones((1, 18))), r"tau has shape"),
                      (dict(tau=lambda t, q, v: None), r"tau\(t, q, v\) must be an array"),
                      (dict(tau=lambda t, q, v: 1 / 0), r"the callable tau raised ZeroDivisionError"),
                      (dict(method="euler"), r"method='euler'"), (dict(form="aba"), r"form='aba'"),
                      (dict(n_out=1), r"n_out"), (dict(t_eval=[2.0]), r"t_eval has times outside")]:
        args = dict(robot=robot, q0=q0, v0=v0, t_final=0.1)
        args.update(kw)
        with pytest.raises(ModelError, match=match):
            interop.simulate(args.pop("robot"), args.pop("q0"), args.pop("v0"), args.pop("t_final"), **args)


# ---------------------------------------------------------------- issue 16: MuJoCo as a peer (optional extra)

def _mujoco(robot):
    mujoco = pytest.importorskip("mujoco")
    mj = mujoco.MjModel.from_xml_string(interop.to_mjcf(robot))
    return mujoco, mj, mujoco.MjData(mj)


@pytest.mark.parametrize("name, floating", [("ur5", None), ("panda", None), ("solo12", None), ("talos", None),
                                            ("talos", False), ("baxter", None)])
def test_mujoco_mj_forward_agrees_on_the_same_model(name, floating):
    robot = interop.example_robot(name, floating_base=floating)
    mujoco, mj, d = _mujoco(robot)
    q, v, tau = interop.random_state(robot, seed=3)
    d.qpos[:], d.qvel[:] = interop._to_mujoco_state(robot, mj, q, v)
    d.qfrc_applied[:] = interop._to_mujoco_state(robot, mj, q, tau)[1]     # tau maps like v (orthogonal)
    mujoco.mj_forward(mj, d)
    q2, v2, a_mj = interop._from_mujoco_state(robot, mj, d.qpos, d.qvel, d.qacc)
    assert np.allclose(q2, q, atol=1e-14) and np.allclose(v2, v, atol=1e-13)
    assert rel(interop.forward_dynamics(robot, q, v, tau, form="fast"), a_mj) < 1e-10


def test_simulate_against_mujoco_rk4_over_a_short_horizon():
    """interop.simulate (DOP853 in Pinocchio's (q, v)) against MuJoCo's RK4 integrator (step 5e-5, its own
    quaternion update) on the same floating robot, gravity and joint forces on, over 0.1 s
    (RK4 at step 1e-4 differs by 2e-6, at 5e-5 by about 1e-7: MuJoCo converges to simulate's answer)."""
    robot = interop.example_robot("solo12")
    mujoco, mj, d = _mujoco(robot)
    mj.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
    mj.opt.timestep = 5e-5
    q0, v0, tau = interop.random_state(robot, seed=5)
    tau[:6] = 0.0                                   # motor torques only: the same generalized force in both
    d.qpos[:], d.qvel[:] = interop._to_mujoco_state(robot, mj, q0, v0)
    d.qfrc_applied[:] = interop._to_mujoco_state(robot, mj, q0, tau)[1]
    for _ in range(2000):
        mujoco.mj_step(mj, d)
    q_mj, v_mj, _ = interop._from_mujoco_state(robot, mj, d.qpos, d.qvel)
    traj = interop.simulate(robot, q0, v0, 0.1, tau=tau, t_eval=[0.1])
    assert np.linalg.norm(pin.difference(robot.pin_model, traj.q[-1], q_mj)) < 1e-6
    assert rel(traj.v[-1], v_mj) < 1e-6


def test_a_controller_that_blows_the_motion_up_stops_at_once(monkeypatch):
    """Issue 23: interop.simulate(ur5, tau=lambda t, q, v: 1e8 * v) ran for minutes; now a ModelError
    says the motion blew up or is on a pace of more than _check.MAX_EVALUATIONS evaluations (checked
    here after 2000 of them, to keep the test short)."""
    from rfda_teach import _check
    monkeypatch.setattr(_check, "CHECK_AFTER", 2000)
    robot = interop.example_robot("ur5")
    q0, v0, _ = interop.random_state(robot, seed=0)
    with pytest.raises(ModelError, match=r"interop.simulate: (the motion blew up|\d+ evaluations of the dynamics)"):
        interop.simulate(robot, q0, v0, 1.0, tau=lambda t, q, v: 1e8 * v, form="featherstone")


# ---- the whole example-robot-data corpus (issue 23, item 1) --------------------------------------

def _corpus():
    import glob
    import os
    try:
        root = interop.example_robot_path("talos").split(os.sep + "robots" + os.sep)[0] + "/robots"
    except Exception:                                  # noqa: BLE001 - no example-robot-data
        return []
    return sorted(os.path.relpath(f, root) for f in glob.glob(root + "/**/*.urdf", recursive=True))


CORPUS = _corpus()
#: the documented repair for links with no mass or inertia (MuJoCo's boundmass / boundinertia)
BOUNDS = dict(bound_mass=1e-4, bound_inertia=1e-6)


def _load_any(path, floating_base):
    """Load as given; a refusal must name the bound options, and loading with them must work."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")              # triangle inequality: RFDAWarning, tested below
        try:
            return interop.from_urdf(path, floating_base, ignore_mimic=True), ""
        except ModelError as exc:
            if "has no joints" in str(exc):
                return None, "no joints"
            assert "bound_mass=" in str(exc) and "bound_inertia=" in str(exc), str(exc)
            return interop.from_urdf(path, floating_base, ignore_mimic=True, **BOUNDS), "bounds"


@pytest.mark.parametrize("name", CORPUS)
def test_every_example_robot_equals_pinocchio_aba(name):
    """Every URDF of example-robot-data that Pinocchio loads, fixed and floating base: q-ddot of
    the Featherstone, Lubich and dense forms equals pinocchio.aba on the model the package keeps."""
    root = interop.example_robot_path("talos").split("/robots/")[0] + "/robots/"
    try:
        pin.buildModelFromUrdf(root + name)
    except (ValueError, RuntimeError):
        pytest.skip("Pinocchio itself cannot load this file")
    for floating in (False, True):
        robot, how = _load_any(root + name, floating)
        if robot is None:                      # a fixed base with nothing moving: only floating
            assert not floating, name
            continue
        q, v, tau = interop.random_state(robot, seed=3)
        ref = pin.aba(robot.pin_model, robot.pin_model.createData(), q, v, tau)
        for form in ("featherstone", "lubich", "dense"):
            got = interop.forward_dynamics(robot, q, v, tau, form=form)
            err = np.abs(got - ref).max() / max(1.0, np.abs(ref).max())
            assert err < 1e-9, f"{name} floating={floating} {form} ({how}): {err:.1e}"


def test_cad_inertias_warn_or_balance_and_massless_links_need_bounds():
    import warnings
    from rfda_teach.errors import RFDAWarning
    root = interop.example_robot_path("talos").split("/robots/")[0] + "/robots/"
    small = root + "romeo_description/urdf/romeo_small.urdf"
    with pytest.warns(RFDAWarning, match="RShoulderYaw, RElbowYaw break the triangle inequality"):
        robot = interop.from_urdf(small)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # balanced: no warning, and physical inertias
        balanced = interop.from_urdf(small, balance_inertia=True)
    assert robot.n == balanced.n
    moved = [i for i in range(robot.n) if not np.allclose(robot.bodies[i].J, balanced.bodies[i].J)]
    assert [robot.bodies[i].name for i in moved] == ["RShoulderYaw", "RElbowYaw"]
    for i in moved:
        lam = np.linalg.eigvalsh(balanced.bodies[i].J)
        assert np.allclose(lam, lam.mean())
        assert np.isclose(lam.sum(), np.trace(robot.bodies[i].J))    # the mean of the three moments
    human = root + "human_description/robots/human.urdf"
    with pytest.raises(ModelError, match="left_hip_Z.*bound_mass=.*bound_inertia="):
        interop.from_urdf(human)
    bounded = interop.from_urdf(human, **BOUNDS)
    i = [b.name for b in bounded.bodies].index("left_hip_Z")
    assert bounded.bodies[i].mass == 1e-4 and np.allclose(bounded.bodies[i].J, 1e-6 * np.eye(3))
    assert bounded.pin_model.inertias[i + 1].mass == 1e-4            # Pinocchio sees the same body
    with pytest.raises(ModelError, match="bound_mass"):
        interop.from_urdf(human, bound_mass=-1.0)


# ---- mimic joints as constraints (issue 23, item 2) ----------------------------------------------

def _pin_elimination(robot, q, v, tau):
    """Independent reference: Pinocchio's CRBA and RNEA on the tree, the mimic joints eliminated by
    v = P v_r (q_m = k q_j + c), H_r = P^T H P."""
    m = robot.pin_model
    d = m.createData()
    dependent = {mm.v_m for mm in robot.mimic}
    keep = [i for i in range(m.nv) if i not in dependent]
    P = np.eye(m.nv)[:, keep]
    for mm in robot.mimic:
        P[mm.v_m, keep.index(mm.v_j)] = mm.multiplier
    H = pin.crba(m, d, q)
    H = np.triu(H) + np.triu(H, 1).T
    b = pin.rnea(m, d, q, v, np.zeros(m.nv))
    return P @ np.linalg.solve(P.T @ H @ P, P.T @ (tau - b)), P


def _pin_mimic(path, robot, q, v, tau, P):
    """Pinocchio's own mimic support (buildModelFromUrdf(..., mimic=True)): CRBA and RNEA on the
    reduced model (its ABA refuses mimic joints)."""
    mr = pin.buildModelFromUrdf(path, mimic=True)
    dr = mr.createData()
    m = robot.pin_model
    qr = np.zeros(mr.nq)
    mimics = {mm.joint for mm in robot.mimic}
    for i in range(1, mr.njoints):
        if mr.names[i] not in mimics:
            jf = m.getJointId(mr.names[i])
            qr[mr.idx_qs[i]:mr.idx_qs[i] + mr.nqs[i]] = q[m.idx_qs[jf]:m.idx_qs[jf] + m.nqs[jf]]
    vr = np.linalg.lstsq(P, v, rcond=None)[0]
    H = pin.crba(mr, dr, qr)
    H = np.triu(H) + np.triu(H, 1).T
    return P @ np.linalg.solve(H, P.T @ tau - pin.rnea(mr, dr, qr, vr, np.zeros(mr.nv)))


@pytest.mark.parametrize("name, n_mimic, native", [("panda_description/urdf/panda.urdf", 1, True),
                                                   ("baxter_description/urdf/baxter.urdf", 2, True),
                                                   ("talos_data/robots/talos_full_v2.urdf", 12, False)])
def test_mimic_joints_are_exact_constraints(name, n_mimic, native):
    path = interop.example_robot_path("talos").split("/robots/")[0] + "/robots/" + name
    robot = interop.from_urdf(path, mimic=True)
    assert len(robot.mimic) == n_mimic
    q, v, tau = interop.random_state(robot, seed=4)
    ref, P = _pin_elimination(robot, q, v, tau)
    J = interop.mimic_rows(robot)
    assert np.abs(J @ P).max() == 0                         # P spans the constraint's null space
    if native:                                              # Pinocchio's mimic model agrees with it
        assert np.allclose(_pin_mimic(path, robot, q, v, tau, P), ref, rtol=1e-10, atol=1e-10)
    for form in ("featherstone", "lubich", "dense"):
        a = interop.forward_dynamics(robot, q, v, tau, form=form)
        assert np.abs(a - ref).max() < 1e-10 * np.abs(ref).max(), form
        assert np.abs(J @ a).max() < 1e-9 * np.abs(a).max()
    free = interop.from_urdf(path, ignore_mimic=True)      # the opt-out drops the coupling
    assert np.abs(J @ interop.forward_dynamics(free, q, v, tau)).max() > 1e-3


def test_a_state_off_a_mimic_constraint_is_refused():
    from rfda_teach.errors import ConstraintViolationError
    panda = interop.from_urdf(interop.example_robot_path("panda"), mimic=True)
    q, v, tau = interop.random_state(panda, seed=0)
    mm = panda.mimic[0]
    q[mm.q_m] += 0.01
    with pytest.raises(ConstraintViolationError, match="panda_finger_joint2' mimics 'panda_finger_joint1'"):
        interop.forward_dynamics(panda, q, v, tau)
    with pytest.raises(ModelError, match="contradict"):
        interop.from_urdf(interop.example_robot_path("panda"), mimic=True, ignore_mimic=True)
    with pytest.raises(ModelError, match="Pass mimic=True to keep the coupling"):
        interop.from_urdf(interop.example_robot_path("panda"))


def test_a_robot_trajectory_prints_one_line_of_sizes():
    robot = interop.example_robot("ur5")
    q0, v0, _ = interop.random_state(robot, seed=1)
    traj = interop.simulate(robot, q0, v0, 0.02, n_out=3)
    line = repr(traj)
    assert "\n" not in line and len(line) < 200
    assert line == (f"RobotTrajectory: 3 samples, t = 0 … 0.02 s, q (3, 6), v (3, 6); {traj.nfev} right-hand-side "
                    "evaluations")


def _universal_robot():
    """A free-flyer, two universal joints (random orthogonal axes) and a hinge, built in Pinocchio."""
    model = pin.Model()
    rng = np.random.default_rng(3)

    def inertia():
        s1, s2, s3 = rng.uniform(0.05, 1.0, 3)
        R = pin.rpy.rpyToMatrix(*rng.normal(size=3))
        return pin.Inertia(rng.uniform(0.5, 2.0), rng.normal(size=3) * 0.2, R @ np.diag([s2 + s3, s1 + s3, s1 + s2]) @ R.T)

    def placement():
        return pin.SE3(pin.rpy.rpyToMatrix(*rng.normal(size=3)), rng.normal(size=3) * 0.3)

    def cardan():
        A = pin.rpy.rpyToMatrix(*rng.normal(size=3))
        return pin.JointModelUniversal(A[:, 0], A[:, 1])

    parent = 0
    for name, jm in (("root", pin.JointModelFreeFlyer()), ("cardan 1", cardan()), ("cardan 2", cardan()),
                     ("hinge", pin.JointModelRevoluteUnaligned(np.array([0.6, 0.0, 0.8])))):
        parent = model.addJoint(parent if name != "cardan 2" else 1, jm, placement(), name)   # a tree: 2 on 1
        model.appendBodyToJoint(parent, inertia(), pin.SE3.Identity())
    return interop.from_pinocchio(model)


def test_universal_joints_against_aba_and_crba():
    """JointModelUniversal (R = Rot(axis1, q1) Rot(axis2, q2), v = qdot) is the package's "universal" joint."""
    robot = _universal_robot()
    model, data = robot.pin_model, robot.pin_model.createData()
    assert robot.pin_kinds == ("free", "universal", "universal", "revolute")
    assert [jt.type for jt in robot.joints][1:3] == ["universal", "universal"] and robot.n_dof == model.nv
    from rfda_teach import jointspace as js
    from rfda_teach.system import terms
    for seed in range(3):
        q, v, tau = interop.random_state(robot, seed=seed)
        a_ref = pin.aba(model, data, q, v, tau)
        for form in ("lubich", "featherstone", "dense"):
            assert rel(interop.forward_dynamics(robot, q, v, tau, form=form), a_ref) < 1e-9, form
        st, S, qdd = js.pinocchio_maps(robot, q, v, a_ref)
        assert rel(S.T @ js.mass_matrix(robot, terms(robot, st)) @ S, pin.crba(model, data, q)) < 1e-9
        h = 1e-6
        fd = (pin.integrate(model, q, h * v) - pin.integrate(model, q, -h * v)) / (2 * h)
        assert np.allclose(interop.configuration_rate(robot, q, v), fd, atol=1e-8)
    with pytest.raises(ModelError, match="joint 1 \\('cardan 1'\\) .* universal joint"):
        interop.forward_dynamics(robot, q, v, tau, form="fast")
    with pytest.raises(ModelError, match="joint 'cardan 1' is a universal joint, which MuJoCo has no counterpart"):
        interop.to_mjcf(robot)


def test_mjcf_export_refuses_force_elements_by_name():
    import dataclasses

    from rfda_teach.forces import SpringDamper
    robot = dataclasses.replace(interop.example_robot("ur5"), forces=(SpringDamper(2, -1, k=5.0, name="strut"),))
    with pytest.raises(ModelError, match=r"force elements \(strut\), which this export does not write"):
        interop.to_mjcf(robot)


def test_energy_is_the_one_models_energy():
    """Issue 22: Pinocchio's energy of (q, v) is simulate.energy of the robot's System at interop.to_state."""
    from rfda_teach import simulate
    robot = interop.example_robot("ur5")
    for seed in (0, 1):
        q, v, _ = interop.random_state(robot, seed=seed)
        E = simulate.energy(robot, interop.to_state(robot, q, v))
        assert abs(interop.energy(robot, q, v) - E) <= 1e-9 * max(1.0, abs(E))


def test_to_pinocchio_gives_the_package_joint_accelerations():
    """interop.to_pinocchio of a spatial tree of revolute joints: pinocchio.aba at the package's joint
    coordinates is the RFDA's qddot; from_pinocchio of it is the same mechanism (the same eq. (7))."""
    from rfda_teach import compare, dae, models
    tree = models.figure1_tree("spatial")
    q = [np.array([v]) for v in np.linspace(-1.0, 1.2, tree.n)]
    qd = [np.array([v]) for v in np.linspace(0.5, -0.7, tree.n)]
    state = models.state_from_joints(tree, q, qd)
    model = interop.to_pinocchio(tree)
    a = pin.aba(model, model.createData(), np.concatenate(q), np.concatenate(qd), np.zeros(tree.n))
    assert rel(a, rfda.forward_dynamics(tree, state, form="featherstone").qdd) < 1e-10
    back = interop.from_pinocchio(model)
    st2 = interop.to_state(back, np.concatenate(q), np.concatenate(qd))
    assert rel(rfda.forward_dynamics(back, st2, form="featherstone").qdd, a) < 1e-10
    assert rel(dae.forward_dynamics(back, st2).ydd, rfda.forward_dynamics(back, st2).ydd) < 1e-10
    with pytest.raises(ModelError, match="cut joints"):
        interop.to_pinocchio(compare.five_bar_arm("spatial"))
