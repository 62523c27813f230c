"""The two closed-loop references agree with each other (they share no code with rcr)."""

import numpy as np
import pytest

from rfda_teach import loopref, rcr
from rfda_teach.bodies import Body
from rfda_teach.errors import ConstraintViolationError, ModelError


# on the worker of tests/test_rcr.py's xdist group "five_bar" (under --dist loadgroup), whose
# sympy_simulate runs of the same two loops reuse these KanesMethod models (loopref caches them by geometry)
@pytest.mark.xdist_group("five_bar")
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
    with pytest.raises(ConstraintViolationError, match="does not close"):
        loopref.dae_simulate(model, 1.0, q0=q0, n_out=11)           # refused unless asked for
    r = loopref.dae_simulate(model, 1.0, q0=q0, n_out=11, check=False)
    res = [np.abs(rcr.closure(model, q)).max() for q in r.q]
    assert res[0] > 1e-5 and res[-1] < 1e-3 * res[0]


def test_open_chain_is_the_loop_cut_at_its_last_joint():
    sys, cut = loopref.open_chain(rcr.five_bar())
    assert sys.parents == (-1, 0, 1, 2)
    assert [j.type for j in sys.joints] == ["revolute2d"] * 3 + ["prismatic2d"]
    assert cut.type == "prismatic2d"


def alternating(ratio):
    """The five-bar with bar masses ratio, 1/ratio, ratio, 1/ratio (thin rods of unit length)."""
    f = rcr.five_bar()
    bodies = tuple(Body("planar", m, m / 12, name=f"bar {k}") for k, m in enumerate([ratio, 1 / ratio] * 2, 1))
    return rcr.LoopMechanism(f"five-bar {ratio:g}", bodies, f.joints, f.q0, f.dependents)


@pytest.mark.parametrize("ratio", [1e3, 1e6, 1e9])
def test_multiplier_reference_is_accurate_at_extreme_mass_ratios(ratio):
    """Issue 11, item 3: built on the Lubich form, the multiplier reference was 1.9e3 relative off at
    1e6 : 1e-6 (ill-conditioned G M_hat^-1 G^T) and raised ConstraintRankError at 1e9 : 1e-9; on the
    Featherstone form it agrees with the dense DAE and with RCR to rounding.

    Compared in the coordinates (q1, q2, q3, q4 + q5): the sleeve's own slide along the guide (q4 = -q5,
    the closure does not see it) is driven by the heavy bar 3's normal force times the rounding-level
    misalignment (1e-16 rad) of bar 3 and the guide at the state, over the sleeve's mass 1/ratio, so its
    acceleration is ratio^2 1e-16 by the model itself: tilting the guide by 1e-16 rad moves it by 7e-9
    at ratio 1e3 in every method alike."""
    model = alternating(ratio)
    rng = np.random.default_rng(0)
    q = rcr.solve_dependents(model, model.q0 + 0.05 * rng.standard_normal(5))
    qd = rcr.dependent_velocities(model, q, rng.standard_normal(5))
    P = np.array([[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 1.0]])
    ref = P @ rcr.accelerations(model, q, qd)
    scale = np.abs(ref).max()
    got = P @ loopref.multiplier_accelerations(model, q, qd)
    assert np.abs(got - ref).max() / scale < 1e-9
    if ratio <= 1e6:                       # eq. (7) itself is near-singular at 1e9 (rcond 1e-19)
        assert np.abs(P @ loopref.dae_accelerations(model, q, qd) - ref).max() / scale < 1e-9


def test_loop_references_refuse_an_open_loop_and_bad_numbers():
    """Issue 11, items 5 and 8: loopref accepted an open loop and NaN Baumgarte parameters."""
    fb = rcr.five_bar()
    for f in (loopref.dae_accelerations, loopref.multiplier_accelerations):
        with pytest.raises(ConstraintViolationError, match="does not close loop 'five-bar'.*solve_dependents"):
            f(fb, fb.q0 + 0.1, np.zeros(5))
        with pytest.raises(ConstraintViolationError, match="velocity constraint"):
            f(fb, fb.q0, np.ones(5))
    with pytest.raises(ModelError, match="alpha is nan"):
        loopref.dae_accelerations(fb, fb.q0, np.zeros(5), alpha=float("nan"))
    with pytest.raises(ModelError, match="t_final"):
        loopref.dae_simulate(fb, None)
    s = rcr.loop_series(2)
    qs = [L.q0 for L in s.loops]
    qs[0] = qs[0] + 0.05
    for f in (loopref.series_dae_accelerations, loopref.series_multiplier_accelerations):
        with pytest.raises(ConstraintViolationError, match=r"loop 0\).*does not close"):
            f(s, qs, [np.zeros(4)] * 2)
    assert len(loopref.series_dae_accelerations(s, qs, [np.zeros(4)] * 2, check=False)) == 2


def test_multiplier_count_is_the_tree_solves_plus_the_m_by_m_system():
    """Counted multiplier technique: (m + 1) Featherstone solves (or 1 + m outward sweeps for the
    lower bound) plus C Y, the Cholesky factor of C Y and Y lam; superlinear in the loops, and
    above RCR's linear count from a few loops on, even as a lower bound."""
    from rfda_teach import jointspace
    series = rcr.loop_series(3)
    sys_, cuts = loopref.series_tree(series)
    st = loopref._series_state(series, sys_, [L.q0 for L in series.loops],
                               [np.zeros(L.n) for L in series.loops])
    steps = jointspace.count_multiplications(sys_, "featherstone", state=st, by_step=True)
    full = sum(v for k, v in steps.items() if k != "multipliers")
    m = 2 * len(series.loops)                  # a planar pin cut joint: 2 rows
    impl = loopref.count_multiplications(series)
    low = loopref.count_multiplications(series, bound="lower")
    assert impl - low == m * (full - steps["featherstone root-to-leaves"])
    assert impl > (m + 1) * full
    ks = range(1, 10)
    mult = [loopref.count_multiplications(rcr.loop_series(k), bound="lower") for k in ks]
    red = [rcr.count_multiplications(rcr.loop_series(k)) for k in ks]
    assert (np.diff(mult, 2) > 0).all() and len(set(np.diff(red))) == 1
    assert mult[0] < red[0] and mult[-1] > red[-1]          # RCR wins from some k on
    assert loopref.count_multiplications(rcr.five_bar()) > 0


def test_chain_state_places_the_bars_where_rcr_does():
    fb = rcr.five_bar()
    rng = np.random.default_rng(3)
    qd = rcr.dependent_velocities(fb, fb.q0, rng.normal(size=5))
    st = loopref.chain_state(fb, fb.q0, qd)
    poses = rcr.body_poses(fb, fb.q0)                   # (x, y, phi) of every bar
    assert np.allclose(st.y.reshape(-1, 3), poses[:fb.n - 1], atol=1e-12)
    sys, _ = loopref.open_chain(fb)
    from rfda_teach.system import terms
    terms(sys, st)                                      # every joint of the open chain holds


def test_a_reference_trajectory_prints_one_line_of_sizes():
    r = loopref.dae_simulate(rcr.four_bar(), 0.02, n_out=3)
    line = repr(r)
    assert "\n" not in line and len(line) < 200
    assert line == "RefResult: 3 samples, t = 0 … 0.02 s, q (3, 4), qd (3, 4)"
    t, q, qd = r                                      # still a tuple
    assert q.shape == (3, 4)


_METHODS = {"five-bar": ("acs", "gcl"), "four-bar": ("acs", "gcl", "rcr"), "7-loop": ("rcr", "gcl")}
_LOOPS = {"five-bar": rcr.five_bar, "four-bar": rcr.four_bar, "7-loop": lambda: rcr.loop_chain(7)}


@pytest.mark.parametrize("name", _LOOPS)
def test_the_loop_as_one_system_with_its_cut_joint_gives_the_rcr_accelerations(name):
    """Issue 22, step 2: the mechanism as one System whose cut joint is in ``cuts`` (the five-bar's is
    the prismatic q5, the four-bar's the revolute q4); D&G eq. (7) assembled by dae.forward_dynamics from
    the model alone gives the qddot of RCR, ACS and GCL (C&A eq. (86)-(99)) to 1e-9 relative."""
    from rfda_teach import dae, rfda
    from rfda_teach.system import cut_residuals, terms
    model = _LOOPS[name]()
    closed = loopref.to_system(model)
    assert len(closed.cuts) == 1 and closed.cuts[0].child == -1 and closed.cuts[0].parent == model.n - 2
    rng = np.random.default_rng(7)
    worst = 0.0
    for i in range(5):
        q = model.q0 if i == 0 else rcr.solve_dependents(model, model.q0 + 0.05 * rng.standard_normal(model.n))
        qd = rcr.dependent_velocities(model, q, rng.standard_normal(model.n))
        st_ = loopref.chain_state(model, q, qd)
        assert max(np.abs(r).max() for r in cut_residuals(closed, st_)) < 1e-9
        res = dae.forward_dynamics(closed, st_)                 # checks that the state closes the cut
        tr = terms(closed, st_)
        qdd = np.concatenate([rfda.joint_accelerations(closed, tr, res.ydd),    # the tree joints and the
                              tr.cut[0].Q_d @ res.ydd[closed.vel_slices[-1]] - tr.cut[0].gamma_d])   # cut's
        for method in _METHODS[name]:
            ref = rcr.accelerations(model, q, qd, method=method)
            err = np.abs(qdd - ref).max() / np.abs(ref).max()
            worst = max(worst, err)
            assert err < 1e-9, (method, err)
        assert np.allclose(loopref.dae_accelerations(model, q, qd), qdd, rtol=1e-12, atol=1e-12)
    print(f"{name}: max relative difference to RCR/ACS/GCL {worst:.1e}")


def test_a_state_that_opens_the_cut_joint_is_refused_by_the_dae():
    from rfda_teach import dae
    fb = rcr.five_bar()
    st_ = loopref.chain_state(fb, fb.q0 + 0.1, np.zeros(5), check=False)
    with pytest.raises(ConstraintViolationError, match="violates cut joint 0 .*prismatic2d between body 3 and "
                                                       "the ground.*position residual"):
        dae.forward_dynamics(loopref.to_system(fb), st_)
    assert dae.forward_dynamics(loopref.to_system(fb), st_, check=False).lam.shape == (10,)


def test_a_chain_of_loops_is_one_system_with_a_cut_joint_per_loop():
    s = rcr.loop_series(3)
    closed = loopref.to_system(s)
    tree, cuts = loopref.series_tree(s)
    assert tree.cuts == () and closed.parents == tree.parents
    assert [(c.joint, c.parent, c.child) for c in closed.cuts] == list(cuts)
    assert closed.n_cut_constraints == 6 and "cut joints 3 revolute2d" in repr(closed)
    with pytest.raises(ModelError, match="model must be"):
        loopref.to_system("five-bar")


# --- issue 22, step 2: the closed System of to_system integrated by simulate.simulate -----------------

def test_to_system_of_a_loop_chain_simulates_as_rcr_acs():
    """loop_chain(6) as one System with its cut joint, integrated by simulate.simulate (dense D&G eq. (7),
    chosen for the cut), is C&A's ACS motion mapped to absolute coordinates by chain_state (body angles
    modulo 2 pi), to 1e-6 (measured 3e-11)."""
    from rfda_teach import simulate
    model = rcr.loop_chain(6)
    closed = loopref.to_system(model)
    traj = simulate.simulate(closed, loopref.chain_state(model, model.q0, np.zeros(model.n)), 0.3, n_out=4)
    ref = rcr.simulate(model, "acs", 0.3, n_out=4)
    dy = traj.y - np.array([loopref.chain_state(model, q, qd).y for q, qd in zip(ref.q, ref.qd)])
    dy[:, 2::3] = np.angle(np.exp(1j * dy[:, 2::3]))
    assert np.abs(dy).max() < 1e-6


def test_to_system_of_coupled_loops_simulates_with_every_cut_closed():
    """Three coupled four-bars: three cut joints, two of them on a moving base body (the cut's child is a
    body, not the ground).  simulate.simulate keeps every cut closed (1e-8; measured 8e-13) and the energy
    constant (1e-6 relative; measured 4e-12)."""
    from rfda_teach import loops, models, simulate
    from rfda_teach.system import cut_residuals
    series = loops.loop_series(3)
    closed = loopref.to_system(series)
    assert [c.child for c in closed.cuts] == [-1, 1, 4]
    q = [[v] for L in series.loops for v in L.q0[:L.n - 1]]
    traj = simulate.simulate(closed, models.state_from_joints(closed, q, [[0.0]] * len(q)), 0.5, n_out=6)
    E = np.array([simulate.energy(closed, s) for s in traj.states])
    assert np.abs(E - E[0]).max() < 1e-6 * abs(E[0])
    assert max(np.abs(cut_residuals(closed, s)[0]).max() for s in traj.states) < 1e-8
    assert np.abs(traj.y[-1] - traj.y[0]).max() > 0.1
