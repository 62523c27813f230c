"""rfda_teach.elimination: step 1 of the RFDA is leaf-first block elimination of eq. (7)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from rfda_teach import elimination as el, models, rfda  # noqa: E402


@pytest.mark.parametrize("kind,seed", [("planar", 1), ("spatial", 2), ("spatial", 5)])
def test_subtree_schur_is_M_hat_and_f_hat_of_both_forms(kind, seed):
    sys = models.random_tree(7, kind=kind, seed=seed)
    st = models.random_state(sys, seed=seed)
    for form in ("lubich", "featherstone"):
        r = rfda.forward_dynamics(sys, st, form=form)
        for j in range(sys.n):
            s = el.subtree_schur(sys, st, j)
            scale = np.abs(r.M_hat[j]).max()
            assert np.allclose(s.M_hat, r.M_hat[j], rtol=1e-9, atol=1e-9 * scale)
            assert np.allclose(s.f_hat, r.f_hat[j], rtol=1e-9, atol=1e-9 * max(1.0, np.abs(r.f_hat[j]).max()))


def test_leaf_is_its_own_block():
    sys = models.chain(3)
    st = models.random_state(sys, seed=0)
    s = el.subtree_schur(sys, st, 2)
    assert np.allclose(s.M_hat, np.diag([1.0, 1.0, 1 / 12]))


def test_steps_children_first():
    sys = models.figure1_tree()
    steps = el.elimination_steps(sys)
    seen = set()
    for k in steps:
        assert set(sys.topology.children(k)) <= seen
        seen.add(k)
    assert sorted(steps) == list(range(sys.n))


def test_fill_in():
    sys = models.figure1_tree()
    assert el.fill_in(sys, el.elimination_steps(sys)) == 0
    assert el.fill_in(sys, sys.topology.order) > 0
    star = models.random_tree(5, seed=0, chain_bias=0.0)
    n_children_root = len(star.topology.children(0))
    # root first: its children become pairwise coupled
    assert el.fill_in(star, [0] + [k for k in range(1, 5)]) >= n_children_root * (n_children_root - 1) // 2


def test_alternating_chain():
    sys = el.alternating_chain(5, 1e-3)
    assert [b.mass for b in sys.bodies] == [1e-3, 1.0, 1e-3, 1.0, 1e-3]
    assert np.isclose(sys.bodies[1].J[0, 0], 1 / 12)


def test_mass_ratio_study():
    s = el.mass_ratio_study([1.0, 1e-4, 1e-8, 1e-17], n=6)
    assert s.error["featherstone"][:3].max() < 1e-13
    assert s.error["lubich"][2] > 1e3 * s.error["lubich"][0]
    assert s.warned["lubich"].tolist()[:3] == [False, False, True]
    assert s.raised["lubich"][3] and not s.raised["featherstone"].any()
    assert np.isnan(s.error["lubich"][3])
    assert s.cond[2] > 1e7 * s.cond[0] / 10


def test_drawings():
    sys = models.figure1_tree()
    st = models.random_state(sys, seed=0)
    axes = el.draw_elimination_step(sys, st, 4)
    assert "eliminated" in axes[0].get_title()
    fig, anim = el.animate_elimination(sys, st, interval=100)
    assert "<script" in anim.to_jshtml()
    plt.close("all")
