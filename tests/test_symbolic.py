"""Exact symbolic checks of eq. (15), (17), §3.2.1 and eq. (47), and symbolic against numeric."""
import numpy as np
import sympy as sp

from rfda_teach import coordinates as co, dae, models, rfda, symbolic
from rfda_teach.system import terms


def test_featherstone_eq15_exact():
    fs = symbolic.featherstone_sliders()
    m1, m2 = fs.m
    fx1, fy1, fx2, fy2 = list(fs.f[0]) + list(fs.f[1])
    # eq. (13b), (14b): G_1 = [0 1], G_2 = [1 0], Q_2 = [-1 0]
    assert fs.G[0] == sp.Matrix([[0, 1]]) and fs.G[1] == sp.Matrix([[1, 0]]) and fs.Q[1] == sp.Matrix([[-1, 0]])
    M_hat, f_hat = symbolic.lubich(fs.M[0], fs.f[0], [(fs.M[1], fs.f[1], fs.G[1], fs.Q[1], fs.gamma[1])])
    assert sp.simplify(M_hat - sp.Matrix([[m1 + m2, 0], [0, m1]])) == sp.zeros(2, 2)          # eq. (15)
    assert sp.simplify(f_hat - sp.Matrix([fx1 + fx2, fy1])) == sp.zeros(2, 1)
    # the Featherstone form gives the same, with B, H, d from Appendix A
    E, D, B, H = symbolic.appendix_a(fs.G[1], fs.G_d[1], fs.Q[1], fs.Q_d[1])
    M_hat2, f_hat2 = symbolic.featherstone(fs.M[0], fs.f[0], [(fs.M[1], fs.f[1], B, H, sp.zeros(2, 1))])
    assert sp.simplify(M_hat2 - M_hat) == sp.zeros(2, 2) and sp.simplify(f_hat2 - f_hat) == sp.zeros(2, 1)


def test_featherstone_eq17_exact():
    fs = symbolic.featherstone_sliders()
    m1, m2 = fs.m
    T = fs.T16                                                                   # eq. (16)
    M = sp.diag(fs.M[0], fs.M[1])
    f = fs.f[0].col_join(fs.f[1])
    Mv, fv = T.T * M * T, T.T * f                                                # eq. (63)-(64)
    assert Mv == sp.Matrix([[m1 + m2, 0, 0], [0, m1, 0], [0, 0, m2]])           # eq. (17)
    assert sp.simplify(fv - sp.Matrix([f[0] + f[2], f[1], f[3]])) == sp.zeros(3, 1)
    C = sp.Matrix([[0, 1, 0, 0], [-1, 0, 1, 0]])                                 # rows (13b), (14b)
    assert C * T == sp.Matrix([[0, 1, 0], [0, 0, 0]])                            # only r_y1' = 0 remains


def test_featherstone_numeric_matches_symbolic():
    fs = symbolic.featherstone_sliders()
    vals = {fs.m[0]: 1.3, fs.m[1]: 0.7}
    sys_ = models.featherstone_sliders(m1=1.3, m2=0.7, gravity=(0.4, -9.81))
    s = models.random_state(sys_, seed=2)
    tr = terms(sys_, s)
    fvals = dict(zip(list(fs.f[0]) + list(fs.f[1]), np.concatenate(tr.f)))
    M_hat, f_hat = symbolic.lubich(fs.M[0], fs.f[0], [(fs.M[1], fs.f[1], fs.G[1], fs.Q[1], fs.gamma[1])])
    for form in rfda.FORMS:
        r = rfda.forward_dynamics(sys_, s, form=form)
        assert np.allclose(r.M_hat[0], np.array(M_hat.subs(vals), float), atol=1e-14)
        assert np.allclose(r.f_hat[0], np.array(f_hat.subs(fvals), float).ravel(), atol=1e-14)
    K, _ = dae.assemble(sys_, s)
    assert np.array_equal(K[4:, :4], [[0, 1, 0, 0], [-1, 0, 1, 0]])


def test_planar_pair_M_hat_11_is_the_printed_formula():
    p = symbolic.planar_revolute_pair()
    M_hat, _ = symbolic.lubich(p.M_j, sp.zeros(3, 1), [(p.M_k, sp.zeros(3, 1), p.G_k, p.Q_k, p.gamma_k)])
    assert sp.simplify(M_hat[0, 0] - symbolic.M_hat_11_printed(p)) == 0


def test_planar_pair_A_tilde_is_eq47_and_eq36_satisfies_condition1():
    p = symbolic.planar_revolute_pair()
    E, D = symbolic.E_D_eq36(p)
    assert sp.simplify(p.G_k * D) == sp.zeros(2, 1)                                 # condition 1
    A, Et, Dt = symbolic.method_2(p.M_k, E, D)
    assert sp.simplify(A - symbolic.A_tilde_printed(p)) == sp.zeros(1, 2)            # eq. (47)
    assert sp.simplify(Dt.T * p.M_k * Et) == sp.zeros(1, 2)                         # condition 2


def test_planar_pair_M_hat_numeric_equals_symbolic():
    p = symbolic.planar_revolute_pair()
    M_hat, f_hat = symbolic.lubich(p.M_j, sp.zeros(3, 1), [(p.M_k, sp.zeros(3, 1), p.G_k, p.Q_k, p.gamma_k)])
    syms = [p.m_j, p.J_j, p.m_k, p.J_k, *p.s_j, *p.s_k, *p.q_j, *p.q_k]
    fM = sp.lambdify(syms, M_hat, "numpy")
    rng = np.random.default_rng(7)
    for trial in range(4):
        mj, Jj, mk, Jk = rng.uniform(0.5, 2, 4)
        s_j, s_k = rng.uniform(-1, 1, 2), rng.uniform(-1, 1, 2)
        sys_ = models.planar_revolute_pair(mj, Jj, mk, Jk, s_j, s_k, gravity=(0.0, 0.0))
        s = models.random_state(sys_, seed=trial)
        num = rfda.forward_dynamics(sys_, s).M_hat[0]
        sym = np.array(fM(mj, Jj, mk, Jk, *s_j, *s_k, *s.y), float)
        assert np.allclose(num, sym, rtol=1e-12, atol=1e-12)
        nc = co.rfda_coordinates(sys_, s)
        assert np.allclose(nc[0].M_hat, sym, rtol=1e-12, atol=1e-12)


# --- issue 11: singular or non-sympy input is named -------------------------------------------------

import pytest  # noqa: E402

from rfda_teach.errors import ConstraintRankError, ModelError  # noqa: E402


@pytest.mark.parametrize("call, error, match", [
    (lambda: symbolic.appendix_a(sp.Matrix([[1, 0]]), sp.Matrix([[2, 0]]), sp.Matrix([[1, 0]]),
                                 sp.Matrix([[0, 1]])), ConstraintRankError, r"\[G; G_d\]"),
    (lambda: symbolic.method_2(sp.eye(2), sp.Matrix([1, 0]), sp.Matrix([0, 0])), ConstraintRankError, r"D\^T M D"),
    (lambda: symbolic.lubich(sp.eye(1), sp.zeros(1, 1), [(sp.zeros(1, 1), sp.zeros(1, 1), sp.eye(1), sp.eye(1),
                                                          sp.zeros(1, 1))]), ModelError, "M_k is singular"),
    (lambda: symbolic.featherstone(sp.eye(1), sp.zeros(1, 1), [(sp.eye(1), sp.zeros(1, 1), sp.eye(1),
                                                                sp.zeros(1, 1), sp.zeros(1, 1))]),
     ConstraintRankError, "H_k"),
    (lambda: symbolic.method_2("M", sp.Matrix([1, 0]), sp.Matrix([0, 1])), ModelError, "M must be a sympy Matrix"),
    (lambda: symbolic.planar_rotation(None), ModelError, "phi"),
])
def test_symbolic_singular_or_bad_input_named(call, error, match):
    """These used to raise sympy's NonInvertibleMatrixError, a ShapeError or an AttributeError."""
    with pytest.raises(error, match=match):
        call()


def test_rational_decides_zero_exactly_and_agrees_with_sympy():
    """symbolic.rational: arithmetic in QQ(symbols) gives the same matrices as sympy's Matrix
    arithmetic followed by cancel, and tells zero from non-zero."""
    import sympy as sp
    from rfda_teach import symbolic
    m, J, g1, g2 = sp.symbols("m J g_1 g_2", positive=True)
    M, G = sp.diag(m, m, J), sp.Matrix([[1, 0, g1], [0, 1, g2]])
    rM, rG = symbolic.rational(M, G)
    W = rG * rM.inv() * rG.transpose()
    assert (W.to_Matrix() - (G * M.inv() * G.T).applyfunc(sp.cancel)).applyfunc(sp.cancel) == sp.zeros(2, 2)
    assert (W * W.inv() - W.inv() * W).is_zero_matrix
    assert not (W - W.transpose() * 2).is_zero_matrix
