"""Joint rows G_k, Q_k, gamma_k checked against sympy (eq. 18) and against finite differences."""
import numpy as np
import pytest
import sympy as sp
from scipy.spatial.transform import Rotation

from rfda_teach import models, symbolic
from rfda_teach.errors import ConstraintRankError, ModelError
from rfda_teach.joints import JOINT_TYPES, Joint, evaluate, joint_pose
from rfda_teach.system import System, terms
from rfda_teach.bodies import Body


def test_planar_revolute_rows_equal_sympy_derivative_of_eq18():
    p = symbolic.planar_revolute_pair()
    args = [p.symbols[k] for k in ("s_jx", "s_jy", "s_kx", "s_ky")] + list(p.q_j) + list(p.q_k) + \
        list(p.v_j) + list(p.v_k)
    f = sp.lambdify(args, [p.G_k, p.Q_k, p.gamma_k], "numpy")
    rng = np.random.default_rng(5)
    for trial in range(5):
        s_j, s_k = rng.uniform(-1, 1, 2), rng.uniform(-1, 1, 2)
        sys_ = models.planar_revolute_pair(s_j=s_j, s_k=s_k)
        st = models.random_state(sys_, seed=trial)
        tk = terms(sys_, st).joint[1]
        G, Q, gam = f(*s_j, *s_k, *st.y[:3], *st.y[3:], *st.yd[:3], *st.yd[3:])
        assert np.allclose(tk.G, np.array(G, float), atol=1e-13)
        assert np.allclose(tk.Q, np.array(Q, float), atol=1e-13)
        assert np.allclose(tk.gamma, np.array(gam, float).ravel(), atol=1e-12)


def _advance(system, y, yd, h):
    """Move the configuration for a time h with constant velocity ydot (exact rotation for spatial)."""
    y = y.copy()
    for ps, vs in zip(system.pos_slices, system.vel_slices):
        if system.kind == "spatial":
            y[ps.start:ps.start + 3] += h * yd[vs][:3]
            x, yq, z, w = Rotation.from_rotvec(h * yd[vs][3:]).as_quat()
            a = np.array([w, x, yq, z])
            e = y[ps][3:]
            y[ps.start + 3:ps.stop] = np.concatenate(
                [[a[0] * e[0] - a[1:] @ e[1:]], a[0] * e[1:] + e[0] * a[1:] + np.cross(a[1:], e[1:])])
        else:
            y[ps] += h * yd[vs]
    return y


@pytest.mark.parametrize("kind, seed", [("planar", 1), ("planar", 2), ("spatial", 3), ("spatial", 4),
                                        ("spatial", 5)])
def test_gamma_is_minus_Cdot_ydot_by_finite_differences(kind, seed):
    sys_ = models.random_tree(7, kind=kind, seed=seed)
    st = models.random_state(sys_, seed=seed)
    h = 1e-5
    yp, ym = _advance(sys_, st.y, st.yd, h), _advance(sys_, st.y, st.yd, -h)
    zero = np.zeros_like(st.yd)
    for k, joint in enumerate(sys_.joints):
        j = sys_.parents[k]
        vs = sys_.vel_slices

        def rows(y):
            a = evaluate(joint, kind, None if j < 0 else y[sys_.pos_slices[j]], None if j < 0 else zero[vs[j]],
                         y[sys_.pos_slices[k]], zero[vs[k]])
            c = a.G @ st.yd[vs[k]] + (0 if j < 0 else a.Q @ st.yd[vs[j]])
            cd = a.G_d @ st.yd[vs[k]] + (0 if j < 0 else a.Q_d @ st.yd[vs[j]])
            return c, cd
        (cp, cdp), (cm, cdm) = rows(yp), rows(ym)
        tk = terms(sys_, st).joint[k]
        scale = 1 + np.abs(st.yd).max() ** 2
        assert np.allclose(tk.gamma, -(cp - cm) / (2 * h), atol=1e-6 * scale), (joint.type, k)
        assert np.allclose(tk.gamma_d, -(cdp - cdm) / (2 * h), atol=1e-6 * scale), (joint.type, k)


@pytest.mark.parametrize("jtype", [t for t, v in JOINT_TYPES.items() if v[5] == 1] + ["free2d"])
def test_velocity_of_eq61_matches_position_kinematics(jtype):
    """ydot from eq. (61) equals the finite-difference derivative of the joint position map."""
    # D&G eq. (58)-(59): the driving rows give qdot_k; eq. (60)-(61) turn them into ydot_k
    kind = JOINT_TYPES[jtype][0]
    rng = np.random.default_rng(0)
    d = 2 if kind != "spatial" else 3
    frame = np.eye(2) if kind != "spatial" else Rotation.random(random_state=1).as_matrix()
    if kind == "planar":
        frame = 0.7
    base = Joint({"point2": "rail", "planar": "revolute2d", "spatial": "revolute"}[kind],
                 parent_point=rng.uniform(-1, 1, d))
    inertia = 0.2 if kind == "planar" else np.eye(3) * 0.2
    bodies = [Body(kind, 1.0, inertia), Body(kind, 1.5, inertia)]
    jt = Joint(jtype, parent_point=rng.uniform(-1, 1, d), child_point=rng.uniform(-1, 1, d),
               parent_frame=frame)
    sys_ = System((-1, 0), bodies, (base, jt))
    q0 = [np.array([0.4]), rng.uniform(-1, 1, jt.n_q)]
    qd = [np.array([0.8]), rng.normal(size=jt.n_dof)]
    st = models.state_from_joints(sys_, q0, qd)
    h = 1e-6
    yp = models.state_from_joints(sys_, [q + h * v for q, v in zip(q0, qd)], qd).y
    ym = models.state_from_joints(sys_, [q - h * v for q, v in zip(q0, qd)], qd).y
    fd = (yp - ym) / (2 * h)
    if kind == "spatial":       # compare translations, and angular velocity via R
        for i, (ps, vs) in enumerate(zip(sys_.pos_slices, sys_.vel_slices)):
            assert np.allclose(fd[ps][:3], st.yd[vs][:3], atol=1e-7)
    else:
        assert np.allclose(fd, st.yd, atol=1e-7)
    # the velocity constraints hold and the driving rows return qdot
    for k, tk in enumerate(terms(sys_, st).joint):
        j = sys_.parents[k]
        vs = sys_.vel_slices
        c = tk.G @ st.yd[vs[k]] + (0 if j < 0 else tk.Q @ st.yd[vs[j]])
        assert np.allclose(c, 0, atol=1e-12)
        assert np.allclose(tk.qd, qd[k], atol=1e-12)


def test_rank_deficient_custom_joint_names_joint_and_rank():
    with pytest.raises(ConstraintRankError, match=r"joint 'bad hinge'.*2 constraint rows but rank 1"):
        Joint("custom", kind="planar", name="bad hinge",
              Phi=[[1.0, 0, 0], [2.0, 0, 0]], Psi=[[0, 0, 1.0]])


def test_custom_joint_equals_builtin_prismatic():
    rng = np.random.default_rng(3)
    a = Joint("prismatic2d", parent_point=[0.2, 0.1], child_point=[0.3, -0.2], parent_frame=0.4)
    b = Joint("custom", kind="planar", parent_point=[0.2, 0.1], child_point=[0.3, -0.2], parent_frame=0.4,
              Phi=[[0, 1.0, 0], [0, 0, 1.0]], Psi=[[1.0, 0, 0]])
    yj, yk = rng.normal(size=3), rng.normal(size=3)
    vj, vk = rng.normal(size=3), rng.normal(size=3)
    ta, tb = evaluate(a, "planar", yj, vj, yk, vk), evaluate(b, "planar", yj, vj, yk, vk)
    # same constraint set: the row spaces agree and gamma transforms with the same rows
    T = np.linalg.lstsq(tb.G.T, ta.G.T, rcond=None)[0].T
    assert np.allclose(T @ tb.G, ta.G) and np.allclose(T @ tb.Q, ta.Q) and np.allclose(T @ tb.gamma, ta.gamma)


def test_bad_joints():
    with pytest.raises(ModelError, match="unknown joint type 'hinge'"):
        Joint("hinge")
    with pytest.raises(ModelError, match="parent_point must be 3 finite numbers"):
        Joint("revolute", parent_point=[1.0, 2.0])
    with pytest.raises(ModelError, match="orthogonal"):
        Joint("revolute", parent_frame=np.ones((3, 3)))
    with pytest.raises(ConstraintRankError, match="invertible"):
        Joint("custom", kind="planar", Phi=[[1.0, 0, 0]], Psi=[[0, 0, 1.0]])
    with pytest.raises(ModelError, match="joint 1 \\(revolute\\) is for spatial bodies but body 1 is planar"):
        System((-1, 0), (Body("planar", 1, 1), Body("planar", 1, 1)), (Joint("revolute2d"), Joint("revolute")))
    with pytest.raises(ModelError, match="needs 1 position variables"):
        joint_pose(Joint("revolute2d"), "planar", None, [0.1, 0.2])
