"""The two closed-loop references agree with each other (they share no code with rcr)."""

import numpy as np
import pytest

from rfda_teach import loopref, rcr


@pytest.mark.parametrize("make", [rcr.five_bar, rcr.four_bar])
def test_dae_and_sympy_accelerations_agree(make):
    model = make()
    rng = np.random.default_rng(0)
    M, F = loopref.sympy_model(model)
    for _ in range(5):
        q = rcr.solve_dependents(model, model.q0 + 0.1 * rng.standard_normal(model.n))
        qd = rcr.dependent_velocities(model, q, rng.standard_normal(model.n))
        full = np.empty(2 * model.n)
        x = np.r_[q, qd]
        full[M.order] = np.linalg.solve(M(x), F(x))
        ref = loopref.dae_accelerations(model, q, qd)
        assert np.allclose(full[model.n:], ref, rtol=1e-9, atol=1e-9)
        assert np.allclose(full[:model.n], qd, atol=1e-12)


def test_baumgarte_pulls_an_open_loop_closed():
    model = rcr.four_bar()
    q0 = model.q0.copy()
    q0[1] += 1e-4                                                # open the loop slightly
    r = loopref.dae_simulate(model, 1.0, q0=q0, n_out=11)
    res = [np.abs(rcr.closure(model, q)).max() for q in r.q]
    assert res[0] > 1e-5 and res[-1] < 1e-3 * res[0]


def test_open_chain_is_the_loop_cut_at_its_last_joint():
    sys, cut = loopref.open_chain(rcr.five_bar())
    assert sys.parents == (-1, 0, 1, 2)
    assert [j.type for j in sys.joints] == ["revolute2d"] * 3 + ["prismatic2d"]
    assert cut.type == "prismatic2d"
