"""Joint rows G_k, Q_k, gamma_k checked against sympy (eq. 18) and against finite differences."""
import numpy as np
import pytest
import sympy as sp
from scipy.spatial.transform import Rotation

from rfda_teach import models, symbolic
from rfda_teach.errors import ConstraintRankError, ModelError
from rfda_teach.joints import JOINT_TYPES, Joint, Phi, evaluate, joint_pose, position_residual
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
                                        ("spatial", 5), ("universal", 6), ("universal", 7)])
def test_gamma_is_minus_Cdot_ydot_by_finite_differences(kind, seed):
    # D&G eq. (3): gamma_k = -(Qdot_k ydot_j + Gdot_k ydot_k) along ydot (the universal joint's rows turn with its cross)
    sys_ = models.universal_chain(5, seed=seed) if kind == "universal" else models.random_tree(7, kind=kind, seed=seed)
    kind = sys_.kind
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


# ----------------------------------------------------------------------------- the universal joint

def _axis_rot(a, t):
    return Rotation.from_rotvec(t * np.asarray(a, float) / np.linalg.norm(a)).as_matrix()


def test_universal_rows_have_rank_4_and_follow_the_convention():
    """Q_k, G_k of full row rank 4 (6 - 2 dof); R_q = Rot(a1, q1) Rot(a2, q2) between the joint frames."""
    rng = np.random.default_rng(11)
    A = Rotation.random(random_state=3).as_matrix()
    jt = Joint("universal", parent_point=rng.uniform(-1, 1, 3), child_point=rng.uniform(-1, 1, 3),
               parent_frame=Rotation.random(random_state=4).as_matrix(),
               child_frame=Rotation.random(random_state=5).as_matrix(), axes=(2 * A[:, 0], A[:, 1]), name="u")
    assert (jt.n_constraints, jt.n_dof, jt.n_q) == (4, 2, 2)
    assert np.allclose(jt.axes, [A[:, 0], A[:, 1]])
    y_j = np.concatenate([rng.normal(size=3), Rotation.random(random_state=6).as_quat()[[3, 0, 1, 2]]])
    for trial in range(5):
        q = rng.uniform(-np.pi, np.pi, 2)
        y_k = joint_pose(jt, "spatial", y_j, q)
        t = evaluate(jt, "spatial", y_j, rng.normal(size=6), y_k, rng.normal(size=6))
        assert t.G.shape == (4, 6) and t.Q.shape == (4, 6)
        assert np.linalg.matrix_rank(t.G) == 4 and np.linalg.matrix_rank(t.Q) == 4
        assert np.linalg.matrix_rank(np.vstack([t.G, t.G_d])) == 6                  # D&G eq. (60) invertible
        assert np.allclose(t.nu, 0.0)
        assert np.abs(position_residual(jt, "spatial", y_j, y_k)).max() < 1e-12
        assert np.abs(Phi(jt, "spatial", y_j, y_k)).max() < 1e-12
        R_j = Rotation.from_quat(y_j[[4, 5, 6, 3]]).as_matrix()
        R_k = Rotation.from_quat(y_k[[4, 5, 6, 3]]).as_matrix()
        R_q = (R_j @ jt.parent_frame).T @ R_k @ jt.child_frame                       # child joint frame in parent's
        assert np.allclose(R_q, _axis_rot(A[:, 0], q[0]) @ _axis_rot(A[:, 1], q[1]), atol=1e-12)
        p_j = y_j[:3] + R_j @ jt.parent_point
        assert np.allclose(y_k[:3] + R_k @ jt.child_point, p_j, atol=1e-12)         # the joint points meet
    bent = y_k.copy()
    bent[3:] = Rotation.from_matrix(Rotation.from_rotvec([0.0, 0.0, 0.1]).as_matrix() @ R_k).as_quat()[[3, 0, 1, 2]]
    assert abs(position_residual(jt, "spatial", y_j, bent)[3]) > 1e-3               # a1 no longer normal to a2


def test_universal_joint_along_a_motion_of_its_coordinates():
    """Along q(t) = q0 + qd0 t + qdd0 t^2 / 2: y(t) follows ydot (positions and rotations), the rows give
    nu = 0 and qdot, and yddot by finite differences meets D&G eq. (3) and the driving rows (D&G eq. 59)."""
    sys_ = models.universal_chain(3, seed=2)
    rng = np.random.default_rng(5)
    q0, qd0, qdd0 = (rng.normal(size=(3, 2)) for _ in range(3))

    def state(t):
        return models.state_from_joints(sys_, list(q0 + qd0 * t + 0.5 * qdd0 * t * t), list(qd0 + qdd0 * t))

    st, h = state(0.0), 1e-5
    sp_, sm = state(h), state(-h)
    ydd = (sp_.yd - sm.yd) / (2 * h)
    tr = terms(sys_, st)
    for k, (ps, vs) in enumerate(zip(sys_.pos_slices, sys_.vel_slices)):
        assert np.allclose((sp_.y[ps][:3] - sm.y[ps][:3]) / (2 * h), st.yd[vs][:3], atol=1e-7)
        Rp, Rm = (Rotation.from_quat(s.y[ps][[4, 5, 6, 3]]) for s in (sp_, sm))
        assert np.allclose((Rp * Rm.inv()).as_rotvec() / (2 * h), st.yd[vs][3:], atol=1e-7)   # omega, world
        j, tk = sys_.parents[k], tr.joint[k]
        jv = sys_.vel_slices[j] if j >= 0 else None
        vel = tk.G @ st.yd[vs] + (0 if j < 0 else tk.Q @ st.yd[jv])
        acc = tk.G @ ydd[vs] + (0 if j < 0 else tk.Q @ ydd[jv])
        acc_d = tk.G_d @ ydd[vs] + (0 if j < 0 else tk.Q_d @ ydd[jv])
        assert np.allclose(vel, tk.nu, atol=1e-12)                                   # D&G eq. (2), nu_k = 0
        assert np.allclose(tk.qd, qd0[k], atol=1e-12)                                # the joint speeds
        assert np.allclose(acc, tk.gamma, atol=1e-6)                                 # D&G eq. (3)
        assert np.allclose(acc_d, qdd0[k] + tk.gamma_d, atol=1e-6)                   # driving rows: qddot


def test_universal_Phi_rate_is_G_ydot_off_the_manifold():
    """Phi_k's rate along any ydot is Q_k ydot_j + G_k ydot_k (D&G eq. 1-2, for Baumgarte and projection)."""
    sys_ = models.universal_chain(2, seed=4)
    st = models.random_state(sys_, seed=1)
    yd = np.random.default_rng(2).normal(size=sys_.n_vel)                           # violates the joints
    h = 1e-6
    yp, ym = _advance(sys_, st.y, yd, h), _advance(sys_, st.y, yd, -h)
    tr = terms(sys_, st)
    for k, jt in enumerate(sys_.joints):
        j = sys_.parents[k]
        ps, vs = sys_.pos_slices, sys_.vel_slices

        def phi(y):
            return Phi(jt, "spatial", None if j < 0 else y[ps[j]], y[ps[k]])
        rate = tr.joint[k].G @ yd[vs[k]] + (0 if j < 0 else tr.joint[k].Q @ yd[vs[j]])
        assert np.allclose((phi(yp) - phi(ym)) / (2 * h), rate, atol=1e-7)


def test_bad_universal_axes_name_the_joint():
    for axes, match in (([(1, 0, 0), (1, 1, 0)], "must be orthogonal; the angle between them is 45 deg"),
                        ([(0, 0, 0), (0, 1, 0)], "axis a1 of a universal joint is the zero vector"),
                        ([(1, 0, 0), (0, np.nan, 0)], "axes must be two finite 3-vectors"),
                        ([(1, 0, 0)], "axes must be two finite 3-vectors")):
        with pytest.raises(ModelError, match="joint 'cardan': .*" + match):
            Joint("universal", axes=axes, name="cardan")
    with pytest.raises(ModelError, match="joint 'hinge': axes= is only for a universal joint"):
        Joint("revolute", axes=[(1, 0, 0), (0, 1, 0)], name="hinge")
    assert np.array_equal(Joint("universal").axes, [[1, 0, 0], [0, 1, 0]])           # the default: x, then y
    flat = np.r_[0.0, 0, 0, np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)]              # a2 = y turned onto x
    with pytest.raises(ModelError, match="joint 'cardan' \\(universal\\): its axes .* are parallel"):
        evaluate(Joint("universal", name="cardan"), "spatial", None, None, flat, np.zeros(6))
