"""The package's algorithms on real robots (Pinocchio models), against pinocchio.aba."""
import numpy as np
import pytest

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
    def inertia():
        A = rng.normal(size=(3, 3))
        return pin.Inertia(rng.uniform(0.5, 2.0), rng.normal(size=3) * 0.2, A @ A.T + 0.1 * np.eye(3))
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
    with pytest.raises(ModelError, match="unknown example robot 'r2d2'"):
        interop.example_robot("r2d2")
    model = pin.Model()
    j = model.addJoint(0, pin.JointModelPlanar(), pin.SE3.Identity(), "planar")
    model.appendBodyToJoint(j, pin.Inertia.Random(), pin.SE3.Identity())
    with pytest.raises(ModelError, match="JointModelPlanar is not supported"):
        interop.from_pinocchio(model)
    robot = interop.example_robot("ur5")
    q, v, tau = interop.random_state(robot, seed=0)
    with pytest.raises(ModelError, match="needs q"):
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
