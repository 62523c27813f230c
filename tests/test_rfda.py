"""RFDA (eq. 8-12) in both forms against the dense DAE of eq. (7)."""
import dataclasses

import numpy as np
import pytest
from hypothesis import given, strategies as st_

from rfda_teach import dae, models, rfda
from rfda_teach.errors import ModelError

from conftest import rel, sprung

trees = st_.builds(lambda n, kind, seed, bias: (models.random_tree(n, kind=kind, seed=seed, chain_bias=bias), seed),
                   st_.integers(1, 30), st_.sampled_from(["planar", "spatial"]), st_.integers(0, 2 ** 31 - 1),
                   st_.floats(0.0, 1.0))


@given(trees, st_.integers(0, 2 ** 31 - 1), st_.floats(0.0, 3.0))
def test_both_forms_equal_dense_eq7(tree, state_seed, speed):
    sys_, _ = tree
    s = models.random_state(sys_, seed=state_seed, speed=speed)
    rng = np.random.default_rng(state_seed)
    tau = rng.normal(size=sys_.n_dof)
    ref = dae.forward_dynamics(sys_, s, tau=tau)
    for form in rfda.FORMS:
        r = rfda.forward_dynamics(sys_, s, form=form, tau=tau)
        assert rel(r.ydd, ref.ydd) < 1e-9, form
        if ref.lam.size:
            assert rel(r.lam, ref.lam) < 1e-9, form


@given(trees, st_.integers(0, 2 ** 31 - 1))
def test_M_hat_f_hat_of_both_forms_agree_and_M_hat_is_spd(tree, state_seed):
    sys_, _ = tree
    s = models.random_state(sys_, seed=state_seed)
    a = rfda.forward_dynamics(sys_, s, form="lubich")
    b = rfda.forward_dynamics(sys_, s, form="featherstone")
    for j in range(sys_.n):
        assert rel(a.M_hat[j], b.M_hat[j]) < 1e-9          # eq. (9) = eq. (11)
        scale = np.linalg.norm(a.f_hat[j]) + np.linalg.norm(a.M_hat[j])   # f_hat may vanish
        assert np.linalg.norm(a.f_hat[j] - b.f_hat[j]) < 1e-9 * scale      # eq. (10) = eq. (12)
        assert np.allclose(a.M_hat[j], a.M_hat[j].T, atol=1e-12 * np.abs(a.M_hat[j]).max())
        assert np.linalg.eigvalsh(a.M_hat[j]).min() > 0


def test_joint_torque_drives_a_pinned_bar():
    """A horizontal bar pinned at one end, no gravity: tau = J_O thetaddot with J_O = J + m (l/2)^2."""
    from rfda_teach.bodies import Body
    from rfda_teach.joints import Joint
    from rfda_teach.system import System
    sys_ = System((-1,), (Body("planar", 2.0, 2.0 / 12),), (Joint("revolute2d", child_point=(-0.5, 0.0)),),
                  gravity=(0.0, 0.0))
    s = models.state_from_joints(sys_, [np.array([0.0])], [np.array([0.0])])
    for form in rfda.FORMS:
        r = rfda.forward_dynamics(sys_, s, form=form, tau=[3.0])
        J_O = 2.0 / 12 + 2.0 * 0.25
        assert np.isclose(r.qdd[0], 3.0 / J_O, rtol=1e-13)
        assert np.allclose(r.ydd, [0.0, 0.5 * 3.0 / J_O, 3.0 / J_O], rtol=1e-13)


def test_qdd_matches_across_forms_and_featherstone_sliders_fall():
    sys_ = models.featherstone_sliders(m1=1.0, m2=3.0)
    s = models.random_state(sys_, seed=0)
    for form in rfda.FORMS:
        r = rfda.forward_dynamics(sys_, s, form=form, tau=[4.0, 0.0])
        assert np.allclose(r.qdd, [1.0, -9.81])           # (m1+m2) xddot = 4, yddot_2 = -g
        assert np.allclose(r.lam, [-9.81, -3.0])          # lam_1 = m1 g, lam_2 = m2 xddot = 3 (sign of eq. 7)


def test_bad_form_and_bad_tau():
    sys_ = models.planar_revolute_pair()
    s = models.random_state(sys_, seed=0)
    with pytest.raises(ModelError, match="form='aba' is not known"):
        rfda.forward_dynamics(sys_, s, form="aba")
    with pytest.raises(ModelError, match=r"tau has shape \(2,\); it must be \(4,\)"):
        rfda.forward_dynamics(sys_, s, tau=[1.0, 2.0])


@pytest.mark.parametrize("kind", ["planar", "spatial"])
def test_lubich_warns_at_extreme_mass_ratio_featherstone_stays_accurate(kind):
    """Issue 11 item 3: masses alternating 1e-6/1e6 gave 7e-5 relative error from the Lubich form
    without a word.  Cause: M_hat_j of eq. (9) of a light body carries the stiff constraint
    directions of its heavy subtree (cond ~ 1e12).  Now an RFDAWarning; at 1e-8/1e8, where its
    Cholesky factor breaks down, an IllConditionedError naming the cause (it blamed dependent rows)."""
    from test_dae import _alternating_chain
    from rfda_teach.errors import IllConditionedError, RFDAWarning
    sys_ = _alternating_chain(1e-6, kind)
    s = models.random_state(sys_, seed=1)
    ref = dae.forward_dynamics(sys_, s)
    with pytest.warns(RFDAWarning, match=r"Lubich form is ill-conditioned.*featherstone"):
        lub = rfda.forward_dynamics(sys_, s, form="lubich")
    assert rel(lub.ydd, ref.ydd) > 1e-9                   # the warning is deserved
    fe = rfda.forward_dynamics(sys_, s, form="featherstone")
    assert rel(fe.ydd, ref.ydd) < 1e-12
    sys_ = _alternating_chain(1e-8, kind)
    s = models.random_state(sys_, seed=1)
    with pytest.raises(IllConditionedError, match=r"extreme mass or inertia ratios.*form='featherstone'"):
        rfda.forward_dynamics(sys_, s, form="lubich")


def test_well_conditioned_systems_do_not_warn():
    import warnings
    from rfda_teach.errors import RFDAWarning
    for seed in range(5):
        sys_ = models.random_tree(20, kind="spatial", seed=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("error", RFDAWarning)
            rfda.forward_dynamics(sys_, models.random_state(sys_, seed=seed), form="lubich")


@pytest.mark.parametrize("kind", ["planar", "spatial"])
def test_forest_several_bodies_on_the_ground(kind):
    """Several roots (a torso with two arms on a fixed base): both forms equal eq. (7)."""
    from rfda_teach.system import System
    a = models.random_tree(5, kind=kind, seed=1)
    b = models.random_tree(4, kind=kind, seed=2)
    c = models.random_tree(3, kind=kind, seed=3)
    parents = list(a.parents) + [p + 5 if p >= 0 else -1 for p in b.parents] + \
        [p + 9 if p >= 0 else -1 for p in c.parents]
    sys_ = System(tuple(parents), a.bodies + b.bodies + c.bodies, a.joints + b.joints + c.joints,
                  gravity=a.gravity, name="forest")
    assert sys_.topology.roots == (0, 5, 9)
    s = models.random_state(sys_, seed=4)
    ref = dae.forward_dynamics(sys_, s)
    for form in rfda.FORMS:
        r = rfda.forward_dynamics(sys_, s, form=form)
        assert rel(r.ydd, ref.ydd) < 1e-10 and rel(r.lam, ref.lam) < 1e-10
        assert rel(r.qdd, rfda.joint_accelerations(sys_, __import__("rfda_teach.system").system.terms(sys_, s),
                                                   ref.ydd)) < 1e-10


def test_a_result_prints_one_line_of_sizes():
    sys_ = models.figure1_tree()
    line = repr(rfda.forward_dynamics(sys_, models.random_state(sys_, seed=0), form="featherstone"))
    assert "\n" not in line and len(line) < 200
    assert line == "RFDAResult(form='featherstone'): 13 bodies, ydd (39,), lam (26,), qdd (13,)"


@pytest.mark.parametrize("form", ["lubich", "featherstone"])
def test_forces_that_overflow_in_the_sweep_raise_ill_conditioned_error(form):
    """Finite inputs whose sums overflow (f_ext = 1e308 on every body): an IllConditionedError that
    says to rescale, not scipy's bare ValueError from inside the sweep, and never a NaN result."""
    from rfda_teach.errors import IllConditionedError
    s = models.figure1_tree()
    st = models.random_state(s, seed=0)
    with pytest.raises(IllConditionedError, match="rescale the model"):
        rfda.forward_dynamics(s, st, f_ext=np.full(s.n_vel, 1e308), form=form)


def _universal_tree():
    """Six bodies on universal joints as a tree (two branches at bodies 0 and 1), plus a random spatial tree
    beside it (a forest with revolute, prismatic, spherical and free joints too)."""
    from rfda_teach.system import System
    u = models.universal_chain(6, seed=8)
    r = models.random_tree(4, kind="spatial", seed=3)
    parents = (-1, 0, 0, 1, 1, 2) + tuple(p + 6 if p >= 0 else -1 for p in r.parents)
    return System(parents, u.bodies + r.bodies, u.joints + r.joints, u.gravity, name="universal tree")


@pytest.mark.parametrize("seed, speed", [(0, 1.0), (1, 3.0), (2, 0.0)])
def test_universal_joints_both_forms_equal_dense_eq7(seed, speed):
    # D&G eq. (7) against eq. (9)-(10) and (11)-(12)
    sys_ = _universal_tree()
    s = models.random_state(sys_, seed=seed, speed=speed)
    tau = np.random.default_rng(seed).normal(size=sys_.n_dof)
    ref = dae.forward_dynamics(sys_, s, tau=tau)
    for form in rfda.FORMS:
        r = rfda.forward_dynamics(sys_, s, form=form, tau=tau)
        assert rel(r.ydd, ref.ydd) < 1e-9, form
        assert rel(r.lam, ref.lam) < 1e-9, form


@given(trees, st_.integers(0, 2 ** 31 - 1), st_.integers(1, 5), st_.booleans())
def test_both_forms_equal_dense_eq7_with_spring_dampers(tree, seed, n_springs, damping):
    sys_ = sprung(tree[0], seed, n_springs=n_springs, damping=damping)
    s = models.random_state(sys_, seed=seed)
    ref = dae.forward_dynamics(sys_, s)
    assert rel(ref.ydd, dae.forward_dynamics(dataclasses.replace(sys_, forces=()), s).ydd) > 0   # they act
    for form in rfda.FORMS:
        r = rfda.forward_dynamics(sys_, s, form=form)
        assert rel(r.ydd, ref.ydd) < 1e-9, form
        if ref.lam.size:
            assert rel(r.lam, ref.lam) < 1e-9, form
