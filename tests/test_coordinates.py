"""Coordinates of RFDA: conditions 1 and 2, Methods 1 and 2, the tree construction eq. (49)-(57)."""
import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings, strategies as st_

from rfda_teach import coordinates as co, dae, models, rfda
from rfda_teach.errors import ConstraintRankError, ModelError
from rfda_teach.system import terms

from conftest import rel


def _pair_terms(seed=0):
    sys_ = models.planar_revolute_pair(s_j=(0.3, -0.2), s_k=(-0.6, 0.25))
    s = models.random_state(sys_, seed=seed)
    return sys_, s, terms(sys_, s)


def test_E_D_appendix_a_and_null_space_satisfy_condition_1():
    _, st, tr = _pair_terms()
    jt = tr.joint[1]
    E, D, B, H, d = co.appendix_a(jt.G, jt.G_d, jt.Q, jt.Q_d, jt.gamma, jt.gamma_d)
    assert np.allclose(jt.G @ E, np.eye(2)) and np.allclose(jt.G @ D, 0)        # eq. (60)
    assert np.allclose(jt.G_d @ E, 0) and np.allclose(jt.G_d @ D, 1)
    assert co.condition_1(jt.G, D).holds
    E2, D2 = co.null_space_E_D(jt.G)
    assert co.condition_1(jt.G, D2).holds and np.allclose(jt.G @ E2, np.eye(2))
    assert abs(np.linalg.det(np.hstack([E2, D2]))) > 1e-8
    # D of Appendix A equals eq. (36) for the revolute joint
    phi, (sx, sy) = st.y[5], (-0.6, 0.25)
    D36 = np.array([sx * np.sin(phi) + sy * np.cos(phi), -sx * np.cos(phi) + sy * np.sin(phi), 1.0])
    assert np.allclose(D.ravel(), D36)
    # a wrong D fails condition 1; a plain E fails condition 2
    assert not co.condition_1(jt.G, np.array([[1.0], [0.0], [0.0]])).holds
    assert not co.condition_2(tr.M[1], E, D).holds


@pytest.mark.parametrize("seed", range(5))
def test_method_1_and_2_satisfy_both_conditions_and_give_same_M_hat_f_hat(seed):
    rng = np.random.default_rng(seed)
    sys_ = models.random_tree(8, kind="spatial" if seed % 2 else "planar", seed=seed)
    s = models.random_state(sys_, seed=seed)
    tr = terms(sys_, s)
    ref = dae.forward_dynamics(sys_, s)
    m2 = co.rfda_coordinates(sys_, s, method="method2")
    Cc = {k: rng.normal(size=(jt.n_constraints,) * 2) + 3 * np.eye(jt.n_constraints)
          for k, jt in enumerate(sys_.joints)}
    Cf = {k: rng.normal(size=(jt.n_dof,) * 2) + 3 * np.eye(jt.n_dof) for k, jt in enumerate(sys_.joints)}
    m1 = co.rfda_coordinates(sys_, s, method="method1", C_c=Cc, C_f=Cf)
    for j in range(sys_.n):
        for k, (Et, Dt, S, a) in list(m1[j].child.items()) + list(m2[j].child.items()):
            G = tr.joint[k].G
            Mk = m1[k].M_hat
            # D&G eq. (21) (property 1: G_k D~_k = 0) and D&G eq. (23), (33) (property 2: block diagonal)
            assert co.condition_1(G, Dt).holds and co.condition_2(Mk, Et, Dt).holds
        assert rel(m1[j].M_hat, m2[j].M_hat) < 1e-10
        f1, f2 = (_f_hat_from_coordinates(sys_, s, tr, ref, nc) for nc in (m1[j], m2[j]))
        assert np.linalg.norm(f1 - f2) < 1e-9 * (np.linalg.norm(f2) + np.linalg.norm(m2[j].M_hat))


def _f_hat_from_coordinates(sys_, s, tr, ref, nc):
    """y_j rows of eq. (57): f_dj = M_hat_j yddot_j + T_y^T (f - M yddot) over the subtree (Appendix B)."""
    vs = sys_.vel_slices
    ydd = np.concatenate([ref.ydd[vs[i]] for i in nc.members])
    f = np.concatenate([tr.f[i] for i in nc.members])
    M = scipy.linalg.block_diag(*[tr.M[i] for i in nc.members])
    Ty = nc.T[:, :nc.p]
    return nc.M_hat @ ref.ydd[vs[nc.node]] + Ty.T @ (f - M @ ydd)


trees = st_.builds(lambda n, kind, seed: models.random_tree(n, kind=kind, seed=seed),
                   st_.integers(1, 30), st_.sampled_from(["planar", "spatial"]), st_.integers(0, 2 ** 31 - 1))


@given(trees, st_.integers(0, 2 ** 31 - 1), st_.sampled_from(["method1", "method2"]))
@settings(max_examples=40)       # each example forms every node's dense subtree map (up to 30 bodies)
def test_rfda_coordinates_block_diagonal_and_y_rows_are_eq8(sys_, state_seed, method):
    s = models.random_state(sys_, seed=state_seed)
    tr = terms(sys_, s)
    ref = dae.forward_dynamics(sys_, s)
    lub = rfda.forward_dynamics(sys_, s, form="lubich")
    nodes = co.rfda_coordinates(sys_, s, method=method)
    vs, cs = sys_.vel_slices, sys_.con_slices
    for nc in nodes:
        M = scipy.linalg.block_diag(*[tr.M[i] for i in nc.members])
        Mv = co.appendix_b(nc.T, M)                                # eq. (64)
        p = nc.p
        off = np.linalg.norm(Mv[:p, p:])
        assert off / np.linalg.norm(Mv) < 1e-10                   # eq. (57): block diagonal
        assert rel(Mv[p:, p:], nc.Lambda) < 1e-10                 # Lambda_j, the left-out part
        assert rel(Mv[:p, :p], lub.M_hat[nc.node]) < 1e-10        # y_j rows: M_hat of eq. (9)
        f_d = _f_hat_from_coordinates(sys_, s, tr, ref, nc)
        j = nc.node
        assert np.linalg.norm(f_d - lub.f_hat[j]) < 1e-9 * (np.linalg.norm(lub.f_hat[j]) + np.linalg.norm(Mv))
        lhs = lub.M_hat[j] @ ref.ydd[vs[j]] + tr.joint[j].G.T @ ref.lam[cs[j]]   # eq. (8), first line
        assert np.linalg.norm(lhs - lub.f_hat[j]) < 1e-9 * (np.linalg.norm(lub.f_hat[j]) + np.linalg.norm(Mv))
        # property 2 of §6: every [ydot_j; xidot_j] satisfies the joints inside the subtree
        for k in nc.members[1:]:
            jt = tr.joint[k]
            rows_k = _rows(nc.members, sys_, k)
            rows_p = _rows(nc.members, sys_, sys_.parents[k])
            assert np.allclose(jt.G @ nc.T[rows_k] + jt.Q @ nc.T[rows_p], 0, atol=1e-9 * (1 + np.abs(nc.T).max()))


def _rows(members, sys_, i):
    start = 0
    for m in members:
        size = sys_.vel_slices[m].stop - sys_.vel_slices[m].start
        if m == i:
            return slice(start, start + size)
        start += size
    raise AssertionError


def test_method_2_A_tilde_for_planar_pair_is_eq47_numerically():
    sys_, s, tr = _pair_terms(seed=3)
    jt = tr.joint[1]
    E, D = co.appendix_a(jt.G, jt.G_d)[:2]
    Et, Dt, A = co.method_2(tr.M[1], E, D)                   # D&G eq. (41)-(44) with E, D of eq. (60)
    m_k, J_k = 1.0, 0.1
    sx, sy, phi = -0.6, 0.25, s.y[5]
    den = J_k + m_k * (sx ** 2 + sy ** 2)
    A47 = np.array([[-m_k * (np.sin(phi) * sx + np.cos(phi) * sy) / den,
                     m_k * (np.cos(phi) * sx - np.sin(phi) * sy) / den]])
    assert np.allclose(A, A47, atol=1e-14)
    tn = co.two_node(tr.M[0], tr.M[1], jt.G, jt.Q, Et, Dt)
    # eq. (48): T48 = [[I, 0], [-(E + D A~) Q, D]]
    assert np.allclose(tn.T48[3:, :3], -(E + D @ A) @ jt.Q) and np.allclose(tn.T48[3:, 3:], D)
    assert np.allclose(tn.M28, co.appendix_b(tn.T48, scipy.linalg.block_diag(tr.M[0], tr.M[1])))


def test_featherstone_sliders_two_node_is_eq16_eq17():
    sys_ = models.featherstone_sliders(m1=1.5, m2=2.5)
    s = models.random_state(sys_, seed=0)
    tr = terms(sys_, s)
    jt = tr.joint[1]
    E, D = co.appendix_a(jt.G, jt.G_d)[:2]
    Et, Dt, A = co.method_2(tr.M[1], E, D)
    tn = co.two_node(tr.M[0], tr.M[1], jt.G, jt.Q, Et, Dt)
    T16 = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1.0]])
    assert np.array_equal(tn.T48, T16)                                     # eq. (16)
    assert np.array_equal(tn.M28, np.diag([4.0, 1.5, 2.5]))                # eq. (17)


def test_errors_from_coordinates():
    M = np.eye(3)
    with pytest.raises(ConstraintRankError, match="2 rows but rank 1"):
        co.null_space_E_D(np.array([[1.0, 0, 0], [2.0, 0, 0]]))
    G = np.array([[1.0, 0, 0]])
    E, D = co.null_space_E_D(G)
    with pytest.raises(ModelError, match="C_c must be a non-singular 1x1"):
        co.method_1(M, G, D, C_c=[[0.0]])
    with pytest.raises(ModelError, match="C_f must be a non-singular 2x2"):
        co.method_1(M, G, D, C_f=np.eye(3))
    with pytest.raises(ModelError, match="method='method3'"):
        co.rfda_coordinates(models.featherstone_sliders(), models.random_state(models.featherstone_sliders()),
                            method="method3")


# --- issue 11: memory of rfda_coordinates, singular input named -------------------------------------

def test_rfda_coordinates_memory_is_not_cubic():
    """Each node used to store its dense subtree T: 692 MB at n = 400 (O(n^3)).  Now O(n p^2)."""
    import tracemalloc
    sys_ = models.chain(150)
    s = models.random_state(sys_, seed=0)
    tracemalloc.start()
    nodes = co.rfda_coordinates(sys_, s)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 5e6                                          # old code: about 40 MB at n = 150
    assert nodes[0].T.shape == (450, 3 + 149) and nodes[0].Lambda.shape == (149, 149)


def test_node_coordinates_assembled_on_access_match_the_recursion():
    """T, varpi, Lambda assembled root-to-leaves agree with eq. (51), (55) written leaves-to-root."""
    sys_ = models.figure1_tree()
    s = models.random_state(sys_, seed=4)
    nodes = co.rfda_coordinates(sys_, s)
    for nc in nodes:
        for k, (Et, Dt, S, a) in nc.child.items():
            ck = nodes[k]
            rows = np.concatenate([np.arange(*_span(nc.members, sys_, i)) for i in ck.members])
            assert np.allclose(nc.T[rows, :nc.p], ck.T[:, :ck.p] @ Et @ S, atol=1e-13)      # eq. (51)
            assert np.allclose(nc.varpi[rows], ck.T[:, :ck.p] @ Et @ a + ck.varpi, atol=1e-13)


def _span(members, sys_, i):
    r = _rows(members, sys_, i)
    return r.start, r.stop


@pytest.mark.parametrize("call, error, match", [
    (lambda: co.appendix_a(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0]])), ConstraintRankError,
     r"\[G; G_d\].*singular"),
    (lambda: co.method_2(np.eye(3), np.eye(3)[:, :2], np.zeros((3, 1))), ConstraintRankError, r"D\^T M D"),
    (lambda: co.method_1(np.eye(3), np.eye(2, 3), np.zeros((3, 1))), ConstraintRankError, "D has 1 columns"),
    (lambda: co.method_1(np.zeros((3, 3)), np.eye(2, 3), np.eye(3)[:, 2:]), ModelError, "M is singular"),
    (lambda: co.S_a(np.eye(2, 3), np.eye(2), np.array([[1.0, 0], [1.0, 0], [0, 0]])), ConstraintRankError,
     "G E_tilde"),
    (lambda: co.compare_methods(np.eye(3), np.zeros((3, 3)), np.eye(2, 3), np.eye(2, 3), np.eye(3)[2:]),
     ModelError, "M is singular"),
])
def test_singular_input_raises_rfda_error_naming_it(call, error, match):
    """These used to raise a bare numpy LinAlgError (or return inf/NaN)."""
    with pytest.raises(error, match=match):
        call()


def test_rfda_coordinates_on_a_forest():
    """Several bodies on the ground: every root's subtree gets its own coordinates of RFDA."""
    from rfda_teach.system import System
    c = models.chain(4)
    forest = System((-1, 0, -1, 2), c.bodies, c.joints, c.gravity, name="two chains on the ground")
    s = models.random_state(forest, seed=1)
    nodes = co.rfda_coordinates(forest, s)
    lub = rfda.forward_dynamics(forest, s)
    tr = terms(forest, s)
    assert [nc.members for nc in nodes] == [(0, 1), (1,), (2, 3), (3,)]
    for nc in nodes:
        Mv = co.appendix_b(nc.T, scipy.linalg.block_diag(*[tr.M[i] for i in nc.members]))
        p = nc.p
        assert rel(Mv[:p, :p], lub.M_hat[nc.node]) < 1e-12 and np.abs(Mv[:p, p:]).max(initial=0) < 1e-12


def test_pivot_coordinates_of_the_revolute_pair_give_the_mass_matrix_of_eq25():
    """D&G eq. (24): ydot_k = T ybar_k with ybar_k = (velocity of the pivot P_k, phi_k dot); the mass
    matrix T^T M_k T of Appendix B (D&G eq. (64)) is D&G eq. (25), with J_k + m_k |s'_k|^2 in its
    (2,2) block (the paper prints m_k^2, errata 2), and it is not block diagonal."""
    m, J, phi, s = 1.7, 0.3, 0.9, np.array([-0.6, 0.25])
    A = lambda a: np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])   # noqa: E731
    col = -A(phi + np.pi / 2) @ s                     # r_k = r_P - A(phi) s'_k, differentiated
    T = np.block([[np.eye(2), col[:, None]], [np.zeros((1, 2)), np.ones((1, 1))]])
    M25 = co.appendix_b(T, np.diag([m, m, J]))
    assert np.allclose(M25[:2, :2], m * np.eye(2))
    assert np.allclose(M25[:2, 2], -m * A(phi + np.pi / 2) @ s)
    assert np.isclose(M25[2, 2], J + m * s @ s)
    assert np.abs(M25[:2, 2]).max() > 0.1              # property 2 fails for these coordinates
    # and the velocity map is right: the pivot's velocity from ydot_k by eq. (24) read backwards
    yd = np.array([0.4, -1.1, 0.7])
    rP_dot = yd[:2] + yd[2] * A(phi + np.pi / 2) @ s
    assert np.allclose(T @ np.r_[rP_dot, yd[2]], yd)
