"""Tests for rfda_teach.rcr: the tree solution against eq. (7), RCR/ACS/GCL against the dense DAE,
Fig. 7 against the DAE and sympy references, energy, closure, the singular selection and errors."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rfda_teach import dae, loopref, loops, rcr, rfda, system as s
from rfda_teach.errors import ConstraintViolationError, ModelError, RFDAError, SingularCoordinateSelectionError

MECHANISMS = {"five-bar": rcr.five_bar, "four-bar": rcr.four_bar, "7-loop": lambda: rcr.loop_chain(7)}


def consistent_state(model, seed, method="acs", dependents=None, spread=None):
    """Perturb the default independents of q0, close the loop, draw the method's independent speeds."""
    rng = np.random.default_rng(seed)
    spread = (0.08 if model.n <= 5 else 0.02) if spread is None else spread
    q = rcr.solve_dependents(model, model.q0 + rng.uniform(-spread, spread, model.n))
    qd = rcr.dependent_velocities(model, q, rng.standard_normal(model.n), method=method, dependents=dependents)
    return q, qd


@pytest.mark.parametrize("name", MECHANISMS)
@given(seed=st.integers(0, 10_000))
@settings(max_examples=25, deadline=None)
def test_tree_solution_matches_dense_dae(name, seed):
    """§2, eq. (10)-(22) on the open chain (loop cut at the last joint) against eq. (7)."""
    model = MECHANISMS[name]()
    rng = np.random.default_rng(seed)
    q, qd, tau = rng.normal(size=model.n), rng.normal(size=model.n), rng.normal(size=model.n - 1)
    sys, _ = loopref.open_chain(model)
    st_ = loopref._state(model, sys, q, qd)
    tr = s.terms(sys, st_, tau=tau)
    ref = rfda.joint_accelerations(sys, tr, dae.solve(sys, tr).ydd)
    got = rcr.tree_accelerations(model, q, qd, tau=tau)
    assert np.allclose(got, ref, rtol=1e-9, atol=1e-9 * np.abs(ref).max())


@pytest.mark.parametrize("name,method", [("five-bar", "acs"), ("five-bar", "gcl"), ("four-bar", "acs"),
                                         ("four-bar", "gcl"), ("four-bar", "rcr"), ("7-loop", "rcr"),
                                         ("7-loop", "gcl")])
@given(seed=st.integers(0, 10_000))
@settings(max_examples=20, deadline=None)
def test_reduced_accelerations_match_lagrange_multiplier_dae(name, method, seed):
    model = MECHANISMS[name]()
    q, qd = consistent_state(model, seed, method)
    ref = loopref.dae_accelerations(model, q, qd)
    got = rcr.accelerations(model, q, qd, method=method)      # C&A eq. (86)-(99): the whole reduction
    assert np.allclose(got, ref, rtol=1e-9, atol=1e-9 * np.abs(ref).max())
    mult = loopref.multiplier_accelerations(model, q, qd)      # cut joint + multipliers on the RFDA
    assert np.allclose(mult, ref, rtol=1e-9, atol=1e-9 * np.abs(ref).max())


def test_every_regular_dependent_set_of_the_four_bar_gives_the_same_accelerations():
    """ACS (§4) with any three of the four coordinates (the last always dependent)."""
    model = rcr.four_bar()
    q, qd = consistent_state(model, 3)
    ref = loopref.dae_accelerations(model, q, qd)
    for deps in itertools.combinations(model.names[:-1], 2):
        got = rcr.accelerations(model, q, qd, method="acs", dependents=deps + ("q4",))
        assert np.allclose(got, ref, rtol=1e-9, atol=1e-9), deps


def test_acs_with_independents_between_dependents_on_a_longer_loop():
    model = rcr.loop_chain(8)
    deps = ("q2", "q5", "q8")
    q, qd = consistent_state(model, 5, "acs", deps)
    ref = loopref.dae_accelerations(model, q, qd)
    assert np.allclose(rcr.accelerations(model, q, qd, method="acs", dependents=deps), ref, rtol=1e-9, atol=1e-9)


def test_velocity_level_rcr_satisfies_the_velocity_constraint():
    for name, make in MECHANISMS.items():
        model = make()
        for method in ("acs", "gcl"):
            q, qd = consistent_state(model, 11, method)
            assert np.abs(rcr.closure_jacobian(model, q) @ qd).max() < 1e-11, (name, method)


def test_forward_sweep_selection_of_the_five_bar_is_singular():
    fb = rcr.five_bar()
    assert rcr.selection_sigma(fb, fb.q0, ("q3", "q4", "q5")) < 1e-12
    assert rcr.selection_sigma(fb, fb.q0, ("q2", "q3", "q5")) > 0.1
    with pytest.raises(SingularCoordinateSelectionError) as err:
        rcr.accelerations(fb, fb.q0, np.zeros(5), method="rcr")
    msg = str(err.value)
    assert "five-bar" in msg and "('q3', 'q4', 'q5')" in msg and "acs" in msg and "gcl" in msg
    with pytest.raises(SingularCoordinateSelectionError):
        rcr.simulate(fb, "rcr", 1.0)
    with pytest.raises(SingularCoordinateSelectionError):
        rcr.accelerations(fb, fb.q0, np.zeros(5), method="acs", dependents=("q1", "q4", "q5"))


# the tests of the shared five-bar runs on one worker: a module fixture is computed once per worker
# (with them the other users of loopref's cached sympy models: test_four_bar_same_checks here and
# tests/test_loopref.py::test_dae_and_sympy_accelerations_agree)
FIVE_BAR = pytest.mark.xdist_group("five_bar")


@pytest.fixture(scope="module")
def five_bar_runs():
    # half of Fig. 7's 3 s (the chapter runs all of it, under nbval): the motion has turned over by then
    fb = rcr.five_bar()
    runs = {m: rcr.simulate(fb, m, 1.5, n_out=151) for m in ("acs", "gcl", "dae")}
    runs["sympy"] = loopref.sympy_simulate(fb, 1.5, n_out=151)
    return fb, runs


@FIVE_BAR
def test_fig7_acs_and_gcl_coincide(five_bar_runs):
    fb, r = five_bar_runs
    assert r["acs"].t[-1] == pytest.approx(1.5)
    assert r["acs"].q.shape == (151, 5)
    assert np.abs(r["acs"].q - r["gcl"].q).max() < 1e-8
    assert np.abs(r["acs"].qd - r["gcl"].qd).max() < 1e-8
    for m in ("acs", "gcl", "dae"):                                   # issue 11, item 1
        assert np.abs(r[m].q[0] - fb.q0).max() < 1e-12
        assert np.abs(np.diff(r[m].q, axis=0)).max() < 1.0


@FIVE_BAR
@pytest.mark.parametrize("ref", ["dae", "sympy"])
def test_fig7_matches_independent_references(five_bar_runs, ref):
    fb, r = five_bar_runs
    for m in ("acs", "gcl"):
        assert np.abs(r[m].q - r[ref].q).max() < 1e-6
        assert np.abs(r[m].qd - r[ref].qd).max() < 1e-6


@FIVE_BAR
def test_five_bar_energy_closure_and_motion(five_bar_runs):
    fb, r = five_bar_runs
    for m in ("acs", "gcl"):
        E = np.array([rcr.energy(fb, q, qd) for q, qd in zip(r[m].q, r[m].qd)])
        assert np.ptp(E) / abs(E[0]) < 1e-6
        assert r[m].closure_max < 1e-8
    assert r["dae"].closure_max < 1e-8
    q = r["acs"].q
    assert np.ptp(q[:, 0]) > 1.0 and np.ptp(q[:, 3]) > 1.0          # it really moves
    assert np.abs(q[:, 4]).max() < 1e-9                             # the sleeve stays on its horizontal guide
    sig = [rcr.selection_sigma(fb, qi, fb.dependents) for qi in q]
    assert min(sig) > 0.1                                           # ACS stays regular along the motion


@FIVE_BAR                                 # the four-bar's sympy model is shared with tests/test_loopref.py
def test_four_bar_same_checks():
    fb = rcr.four_bar()
    runs = {m: rcr.simulate(fb, m, 1.5, n_out=76) for m in ("acs", "gcl", "dae")}
    sym = loopref.sympy_simulate(fb, 1.5, n_out=76)
    assert np.ptp(runs["acs"].q[:, 0]) > 0.3
    assert np.abs(runs["acs"].q - runs["gcl"].q).max() < 1e-8
    for ref in (runs["dae"], sym):
        assert np.abs(runs["acs"].q - ref.q).max() < 1e-6
    E = np.array([rcr.energy(fb, q, qd) for q, qd in zip(runs["acs"].q, runs["acs"].qd)])
    assert np.ptp(E) / abs(E[0]) < 1e-6
    assert runs["acs"].closure_max < 1e-8 and runs["gcl"].closure_max < 1e-8


def test_geometry_of_the_five_bar():
    fb = rcr.five_bar()
    P = rcr.body_poses(fb, fb.q0)
    assert np.allclose(P[:, 2][:4], np.deg2rad([45, -60, 0, 0]), atol=1e-12)
    assert np.abs(rcr.closure(fb, fb.q0)).max() < 1e-14
    assert [b.mass for b in fb.bodies] == [1.0] * 4
    assert [float(b.J[0, 0]) for b in fb.bodies] == pytest.approx([1 / 12] * 4)


def test_bad_input_is_refused_clearly():
    fb = rcr.five_bar()
    with pytest.raises(ModelError, match="5 entries"):
        rcr.accelerations(fb, np.zeros(4), np.zeros(5))
    with pytest.raises(ModelError, match=r"q\[0\] is nan"):
        rcr.accelerations(fb, np.r_[np.nan, fb.q0[1:]], np.zeros(5))
    with pytest.raises(ModelError, match="method='magic' is not known"):
        rcr.accelerations(fb, fb.q0, np.zeros(5), method="magic")
    with pytest.raises(ModelError, match="exactly 3"):
        rcr.accelerations(fb, fb.q0, np.zeros(5), method="acs", dependents=("q2", "q5"))
    with pytest.raises(ModelError, match="must be dependent"):
        rcr.accelerations(fb, fb.q0, np.zeros(5), method="acs", dependents=("q1", "q2", "q3"))
    with pytest.raises(ModelError, match="unknown coordinate"):
        rcr.accelerations(fb, fb.q0, np.zeros(5), method="acs", dependents=("q2", "q3", "q9"))
    with pytest.raises(ConstraintViolationError, match="does not close"):
        rcr.accelerations(fb, fb.q0 + 0.1, np.zeros(5))
    with pytest.raises(ConstraintViolationError, match="velocity constraint"):
        rcr.accelerations(fb, fb.q0, np.ones(5))
    with pytest.raises(ModelError, match="t_final is -1.0"):
        rcr.simulate(fb, "acs", -1.0)
    assert issubclass(SingularCoordinateSelectionError, RFDAError)


def series_state(series, seed):
    rng = np.random.default_rng(seed)
    qs = [rcr.solve_dependents(L, L.q0 + rng.uniform(-0.05, 0.05, L.n)) for L in series.loops]
    qds = [rcr.dependent_velocities(L, q, rng.standard_normal(L.n)) for L, q in zip(series.loops, qs)]
    return qs, qds


@pytest.mark.parametrize("deps", [("q1", "q3", "q4"), ("q2", "q3", "q4"), ("q1", "q2", "q4")])
@given(seed=st.integers(0, 10_000), k=st.integers(1, 4))
@settings(max_examples=10, deadline=None)
def test_chain_of_coupled_loops_matches_dense_dae_and_multipliers(deps, seed, k):
    """Loops based on a moving body (eq. 47-64) in series, against eq. (7) with every cut joint and
    against the cut-tree multiplier technique."""
    f = rcr.four_bar()
    L = rcr.LoopMechanism("four-bar", f.bodies, f.joints, f.q0, deps)
    rng = np.random.default_rng(seed)
    attach = tuple((j - 1, int(rng.integers(1, 4))) for j in range(1, k))
    series = rcr.LoopSeries((L,) * k, attach)
    qs, qds = series_state(series, seed)
    ref = loopref.series_dae_accelerations(series, qs, qds)
    scale = max(np.abs(r).max() for r in ref)
    for got in (rcr.series_accelerations(series, qs, qds), loopref.series_multiplier_accelerations(series, qs, qds)):
        for a, b in zip(got, ref):
            assert np.allclose(a, b, rtol=1e-9, atol=1e-9 * scale)


def test_one_loop_series_is_the_single_loop():
    s = rcr.loop_series(1)
    L = s.loops[0]
    q, qd = consistent_state(L, 4)
    assert np.allclose(rcr.series_accelerations(s, [q], [qd])[0], rcr.accelerations(L, q, qd), atol=1e-12)


def test_series_input_errors():
    L = rcr.four_bar()
    with pytest.raises(ModelError, match="one q and one qd"):
        rcr.series_accelerations(rcr.loop_series(2), [L.q0], [np.zeros(4)])


def test_multiplication_counts_are_linear_and_do_not_change_results():
    from rfda_teach.count import Tally
    c = [rcr.count_multiplications(rcr.loop_chain(n), method="rcr") for n in (6, 7, 8, 12)]
    assert c[1] - c[0] == c[2] - c[1] > 0 and c[3] - c[2] == 4 * (c[1] - c[0])
    g = [rcr.count_multiplications(rcr.loop_chain(n), method="gcl") for n in (6, 7, 8)]
    assert g[1] - g[0] == g[2] - g[1] > 0
    s = [rcr.count_multiplications(rcr.loop_series(k)) for k in (1, 2, 3, 5)]
    assert s[1] - s[0] == s[2] - s[1] == s[0] and s[3] == 5 * s[0]
    fb = rcr.five_bar()
    q, qd = consistent_state(fb, 2)
    t = Tally()
    counted = rcr._solve(fb, rcr.topology(fb, "acs"), q, qd, t)[0]
    assert t.total == rcr.count_multiplications(fb) and np.array_equal(counted, rcr.accelerations(fb, q, qd))


# ----------------------------------------------------------------------------- issue 11 regressions

def test_simulate_rows_are_the_integrated_motion_for_every_t_final():
    """Issue 11, item 1: the rows were rebuilt after integration by Newton from the *last* guess, so for
    t_final = 2.0 GCL started in the mirror assembly (q4 = 1) and ACS at q2 + 2 pi.  All five columns of
    ACS and GCL at several t_final must equal one DAE run at the same instants, start at q0 and be
    continuous.  (t_final = 3.0 is checked the same way on the module fixture, below.)"""
    fb = rcr.five_bar()
    tol = dict(rtol=1e-8, atol=1e-8)
    ref = rcr.simulate(fb, "dae", 2.0, n_out=41, **tol)                # rows every 0.05 s
    for t_final in (0.5, 1.0, 2.0):
        n_out = int(round(t_final / 0.05)) + 1
        runs = {m: rcr.simulate(fb, m, t_final, n_out=n_out, **tol) for m in ("acs", "gcl")}
        if t_final == 1.0:
            runs["dae"] = rcr.simulate(fb, "dae", t_final, n_out=n_out, **tol)
        for m, r in runs.items():
            assert r.q.shape == (n_out, 5)
            assert np.abs(r.q[0] - fb.q0).max() < 1e-12, (m, t_final, r.q[0])
            assert np.abs(r.qd[0]).max() < 1e-12
            assert np.abs(np.diff(r.q, axis=0)).max() < 1.0, (m, t_final)     # no 2 pi jumps, no branch change
            assert np.abs(r.q - ref.q[:n_out]).max() < 1e-5, (m, t_final)
            assert np.abs(r.qd - ref.qd[:n_out]).max() < 1e-4, (m, t_final)


def test_dae_rows_follow_a_revolute_cut_joint_through_pi():
    """The DAE reads the cut joint's angle from the geometry (atan2); it must keep its multiple of 2 pi."""
    f = rcr.four_bar()
    q0 = f.q0.copy()
    q0[-1] = 0.02 - np.pi                                        # the rocker pivot angle starts near -pi
    T = np.eye(3)                                                # the rocker's ground pivot placed to close at q0
    for jt, qk in zip(f.joints[:-1], q0):
        T = T @ jt.transform(qk)
    last = f.joints[-1]
    Tj = T @ last.joint_frame() @ loops.LoopJoint("revolute").transform(q0[-1])
    closing = loops.LoopJoint("revolute", last.parent_point, Tj[:2, 2], last.parent_angle,
                              np.arctan2(Tj[1, 0], Tj[0, 0]), last.name)
    L = rcr.LoopMechanism("four-bar at pi", f.bodies, f.joints[:-1] + (closing,), q0, f.dependents)
    tol = dict(rtol=1e-9, atol=1e-9)
    dae_run = rcr.simulate(L, "dae", 1.0, n_out=21, **tol)
    acs_run = rcr.simulate(L, "acs", 1.0, n_out=21, **tol)
    assert dae_run.q[:, -1].min() < -np.pi                        # it does cross -pi
    for r in (dae_run, acs_run):
        assert np.abs(r.q[0] - q0).max() < 1e-12
        assert np.abs(np.diff(r.q, axis=0)).max() < 0.5
    assert np.abs(dae_run.q - acs_run.q).max() < 1e-6


@pytest.mark.parametrize("method", ["acs", "gcl", "dae"])
def test_simulate_refuses_an_initial_speed_that_opens_the_loop(method):
    """Issue 11, item 5: qd0 violating the velocity constraint was integrated (DAE) or silently changed."""
    fb = rcr.five_bar()
    with pytest.raises(ConstraintViolationError, match="velocity constraint.*five-bar.*dependent_velocities"):
        rcr.simulate(fb, method, 0.1, qd0=[1.0, 0, 0, 0, 0], n_out=3)
    qd0 = rcr.dependent_velocities(fb, fb.q0, [1.0, 0, 0, 0, 0])
    r = rcr.simulate(fb, method, 0.05, qd0=qd0, n_out=3)
    assert np.allclose(r.qd[0], qd0, atol=1e-12)


def test_simulate_refuses_a_model_whose_q0_does_not_close():
    f = rcr.five_bar()
    L = rcr.LoopMechanism("open five-bar", f.bodies, f.joints, f.q0 + 0.1, f.dependents)
    with pytest.raises(ConstraintViolationError, match="does not close loop 'open five-bar'.*solve_dependents"):
        rcr.simulate(L, "acs", 0.1)


def test_series_accelerations_refuses_an_open_loop():
    """Issue 11, item 5: rcr.series_accelerations accepted unassembled q."""
    s = rcr.loop_series(2)
    qs = [L.q0 for L in s.loops]
    qs[1] = qs[1] + 0.05
    qds = [np.zeros(4)] * 2
    with pytest.raises(ConstraintViolationError, match=r"loop 1\).*does not close"):
        rcr.series_accelerations(s, qs, qds)
    rcr.series_accelerations(s, qs, qds, check=False)               # the opt-out for inner loops
    with pytest.raises(ConstraintViolationError, match="velocity constraint"):
        rcr.series_accelerations(s, [L.q0 for L in s.loops], [np.ones(4)] * 2)


def test_dependent_velocities_and_energy_refuse_an_open_loop():
    fb = rcr.five_bar()
    with pytest.raises(ConstraintViolationError, match="does not close"):
        rcr.dependent_velocities(fb, fb.q0 + 0.1, np.zeros(5))
    with pytest.raises(ConstraintViolationError, match="velocity constraint"):
        rcr.energy(fb, fb.q0, np.ones(5))
    assert np.isfinite(rcr.energy(fb, fb.q0, np.ones(5), check=False))


def test_nan_and_wrong_shapes_are_refused_by_name():
    """Issue 11, item 8: NaN in tau passed silently; wrong-length gravity failed later with a bare ValueError."""
    fb = rcr.five_bar()
    with pytest.raises(ModelError, match=r"tree_accelerations.*tau\[1\] is nan"):
        rcr.tree_accelerations(fb, fb.q0, np.zeros(5), tau=[0.0, np.nan, 0.0, 0.0])
    with pytest.raises(ModelError, match="gravity has shape"):
        rcr.LoopMechanism("g3", fb.bodies, fb.joints, fb.q0, fb.dependents, gravity=(0.0, -9.81, 0.0))
    with pytest.raises(ModelError, match="t_final is inf"):
        rcr.simulate(fb, "acs", float("inf"))
    with pytest.raises(ModelError, match="n must be an integer"):
        rcr.loop_chain(6.0)
    with pytest.raises(ModelError, match="method='magic'"):
        rcr.simulate(fb, "magic", 1.0)


@given(i=st.integers(0, 4), bad=st.sampled_from([float("nan"), float("inf"), -float("inf")]),
       which=st.sampled_from(["q", "qd"]),
       fn=st.sampled_from(["accelerations", "energy", "tree_accelerations", "dae_accelerations",
                           "multiplier_accelerations"]))
@settings(max_examples=40, deadline=None)
def test_non_finite_entries_are_named_wherever_they_are(i, bad, which, fn):
    """Issue 11, item 8: a NaN or inf anywhere in a loop state is refused by position, never passed on."""
    fb = rcr.five_bar()
    q, qd = fb.q0.copy(), np.zeros(5)
    (q if which == "q" else qd)[i] = bad
    f = getattr(rcr, fn, None) or getattr(loopref, fn)
    with pytest.raises(ModelError, match=rf"{fn}: {which}\[{i}\] is {bad}"):
        f(fb, q, qd)


# ----------------------------------------------------------------------------- reduction_step (eq. 34, 36)

@pytest.mark.parametrize("make,method", [(rcr.five_bar, "acs"), (rcr.four_bar, "acs"),
                                         (lambda: rcr.loop_chain(7), "rcr")])
def test_reduction_step_repeats_the_loop_kinematics(make, method):
    """Stepping reduction_step inward over the dependents gives the Q^k and R^{k+1} of the recursion."""
    model = make()
    topo = rcr.topology(model, method)
    kin = rcr._kinematics(model, topo, model.q0, np.zeros(model.n))
    lp = rcr._loop_kinematics(model, topo, kin)
    R = np.eye(3)
    for j in sorted(lp.Q, reverse=True):
        assert np.allclose(R, lp.Rn[j], atol=1e-12)
        st = rcr.reduction_step(R, lp.a[j])
        assert st.Q == pytest.approx(lp.Q[j], rel=1e-12)
        assert np.allclose(st.R @ st.R, st.R, atol=1e-10) and np.allclose(st.R, st.R.T, atol=1e-12)
        R = st.R
    assert np.abs(R).max() < 1e-9                    # all m = 3 constraint directions used up


def test_reduction_step_refuses_the_parallel_sliders():
    fb = rcr.five_bar()
    Jc = rcr.closure_jacobian(fb, fb.q0)
    R5 = rcr.reduction_step(np.eye(3), Jc[:, 4]).R
    with pytest.raises(SingularCoordinateSelectionError, match="span"):
        rcr.reduction_step(R5, Jc[:, 3])


@pytest.mark.parametrize("model", [rcr.five_bar(), rcr.four_bar()], ids=["five-bar", "four-bar"])
def test_recursive_inertias_equal_the_featherstone_folded_inertias(model):
    """Eq. (20) of C&A along the open chain is the articulated inertia M_hat of D&G eq. (11), reordered
    from (x, y, phi) to (omega, v_x, v_y): two recursions that share no code."""
    chain, _ = loopref.open_chain(model)
    n = model.n - 1
    st0 = loopref.chain_state(model, model.q0, np.zeros(model.n))
    M_hat = rfda.forward_dynamics(chain, st0, form="featherstone").M_hat
    I_hat = rcr.recursive_inertias(model, model.q0, list(range(n)))
    sig = np.array([[0, 0, 1.0], [1, 0, 0], [0, 1, 0]])
    assert len(I_hat) == n
    for Ik, Mk in zip(I_hat, M_hat):
        assert np.allclose(sig.T @ Ik @ sig, Mk, rtol=1e-12, atol=1e-12)
    assert not np.allclose(I_hat[0], rcr.spatial_inertia(model.bodies[0]))   # the subtree is folded in


def test_a_simulation_result_prints_one_line():
    r = rcr.simulate(rcr.four_bar(), "gcl", 0.02, n_out=3)
    line = repr(r)
    assert "\n" not in line and len(line) < 200
    assert line.startswith("RCRResult(method='gcl'): 3 samples, t = 0 … 0.02 s, q (3, 4), qd (3, 4); dependents ")
    assert line.endswith(f"closure_max {r.closure_max:.1e}")
    assert repr(rcr.simulate(rcr.four_bar(), "dae", 0.02, n_out=3)).count("no dependents") == 1


@pytest.mark.parametrize("build", [rcr.five_bar, loops.four_bar])
def test_energy_is_the_one_models_energy(build):
    """Issue 22: rcr.energy of C&A's (q, qd) is simulate.energy of the System the record views (model.mechanism)."""
    from rfda_teach import simulate
    m = build()
    qd = rcr.dependent_velocities(m, m.q0, np.r_[1.0, np.zeros(m.n - 1)], method="acs")
    st = loopref.chain_state(m, m.q0, qd)
    E = simulate.energy(m.mechanism, st)
    assert abs(rcr.energy(m, m.q0, qd) - E) <= 1e-12 * max(1.0, abs(E))
    assert np.allclose(loops.state_from_system(m, st)[1], qd, rtol=0, atol=1e-12)
