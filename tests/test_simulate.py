"""Physics checks that share nothing with eq. (7) but the model: energy is conserved."""
import numpy as np
import pytest

from rfda_teach import models, simulate
from rfda_teach.errors import ConstraintViolationError, ModelError
from rfda_teach.system import force_potential

from conftest import sprung


@pytest.mark.parametrize("kind, seed", [("planar", 0), ("spatial", 1), ("spatial", 2)])
def test_energy_conserved_without_applied_forces(kind, seed):
    sys_ = models.random_tree(4, kind=kind, seed=seed)
    s0 = models.random_state(sys_, seed=seed)
    traj = simulate.simulate(sys_, s0, 0.5, form="featherstone", rtol=1e-11, atol=1e-11)
    E = np.array([simulate.energy(sys_, s) for s in traj.states])
    assert np.abs(E - E[0]).max() < 1e-6 * (1 + abs(E[0]))


def test_simulate_argument_errors():
    sys_ = models.planar_revolute_pair()
    s0 = models.random_state(sys_, seed=0)
    with pytest.raises(ModelError, match="t_final"):
        simulate.simulate(sys_, s0, -1.0)
    with pytest.raises(ModelError, match="form='rk4'"):
        simulate.simulate(sys_, s0, 1.0, form="rk4")


# --- issue 11, item 7: no silent wrong answers from simulate ---------------------------------------

def test_simulate_refuses_y_too_long_and_yd_too_short():
    """y one entry too long and yd one too short used to be split at n_pos and shifted silently."""
    sys_ = models.chain(2)
    s0 = models.random_state(sys_, seed=0)
    y, yd = np.append(s0.y, 0.0), s0.yd[:-1]
    with pytest.raises(ModelError, match=r"state\.y has shape \(7,\)"):
        simulate.simulate(sys_, (y, yd), 0.05)


def test_simulate_refuses_non_unit_euler_parameters():
    """Euler parameters of norm 1.01 used to be normalised silently; the design says ModelError."""
    sys_ = models.random_tree(2, kind="spatial", seed=1)
    s0 = models.random_state(sys_, seed=1)
    y = s0.y.copy()
    y[3:7] *= 1.01
    with pytest.raises(ModelError, match="Euler parameters"):
        simulate.simulate(sys_, (y, s0.yd), 0.05)


def test_simulate_refuses_inconsistent_positions_unless_check_false():
    sys_ = models.planar_revolute_pair()
    s0 = models.random_state(sys_, seed=0)
    y = s0.y.copy()
    y[4] += 0.3                                        # body 1, 0.3 m off its pin
    with pytest.raises(ConstraintViolationError, match=r"joint 1.*0\.3"):
        simulate.simulate(sys_, (y, s0.yd), 0.05)
    traj = simulate.simulate(sys_, (y, s0.yd), 0.01, check=False)    # the opt-out integrates it
    assert traj.y.shape[1] == 6


@pytest.mark.parametrize("t_final", [None, "1.0", 0.0, -1.0, float("inf"), float("nan")])
def test_simulate_t_final_refused(t_final):
    sys_ = models.chain(2)
    with pytest.raises(ModelError, match="t_final"):
        simulate.simulate(sys_, models.random_state(sys_, seed=0), t_final)


@pytest.mark.parametrize("n_out", [0, -3, 1, 2.5, "10"])
def test_simulate_n_out_refused(n_out):
    sys_ = models.chain(2)
    with pytest.raises(ModelError, match="n_out"):
        simulate.simulate(sys_, models.random_state(sys_, seed=0), 0.1, n_out=n_out)


def test_simulate_n_out_gives_evenly_spaced_rows():
    sys_ = models.chain(2)
    traj = simulate.simulate(sys_, models.random_state(sys_, seed=0), 0.1, n_out=5)
    assert np.allclose(traj.t, np.linspace(0, 0.1, 5)) and traj.y.shape == (5, 6)


def test_energy_refuses_nan():
    sys_ = models.chain(2)
    s0 = models.random_state(sys_, seed=0)
    yd = s0.yd.copy()
    yd[2] = np.nan
    with pytest.raises(ModelError, match=r"yd\[2\] is nan"):
        simulate.energy(sys_, (s0.y, yd))


def test_phi_rates_are_the_constraint_rows():
    """joints.Phi is row for row the position constraint of G_k: its rate along the motion is
    C ydot to first order in Phi (all joint kinds, planar and spatial)."""
    from rfda_teach.system import constraint_residuals
    for kind in ("planar", "spatial"):
        for seed in range(4):
            s = models.random_tree(6, kind=kind, seed=seed)
            st = models.random_state(s, seed=seed)
            rng = np.random.default_rng(seed)
            y = st.y + 1e-5 * rng.normal(size=st.y.shape)
            if kind == "spatial":
                for ps in s.pos_slices:
                    y[ps][3:7] /= np.linalg.norm(y[ps][3:7])
            yd = st.yd + 0.1 * rng.normal(size=st.yd.shape)
            rate = simulate.position_rate(s, y, yd)

            def phi(z):
                z = z.copy()
                if kind == "spatial":
                    for ps in s.pos_slices:
                        z[ps][3:7] /= np.linalg.norm(z[ps][3:7])
                return constraint_residuals(s, (z, yd))[0]
            h = 1e-7
            fd = (phi(y + h * rate) - phi(y - h * rate)) / (2 * h)
            _, phi_dot = constraint_residuals(s, (y, yd))
            assert np.abs(fd - phi_dot).max() < 1e-2 * np.abs(phi_dot).max()


@pytest.mark.parametrize("kind", ["planar", "spatial"])
def test_project_lands_on_the_manifold_and_baumgarte_cuts_drift(kind):
    from rfda_teach.system import check_consistency, constraint_residuals
    s = models.random_tree(5, kind=kind, seed=3)
    st = models.random_state(s, seed=3)
    rng = np.random.default_rng(0)
    y = st.y + 1e-3 * rng.normal(size=st.y.shape)
    if kind == "spatial":
        for ps in s.pos_slices:
            y[ps][3:7] /= np.linalg.norm(y[ps][3:7])
    pr = simulate.project(s, (y, st.yd + 1e-2))
    phi, phi_dot = constraint_residuals(s, pr)
    assert np.abs(phi).max() < 1e-12 and np.abs(phi_dot).max() < 1e-12
    check_consistency(s, pr)
    drift = {}
    for stab in (None, (10.0, 10.0)):
        tr = simulate.simulate(s, st, 2.0, rtol=1e-6, atol=1e-6, baumgarte=stab, n_out=3)
        drift[stab] = np.abs(constraint_residuals(s, (tr.y[-1], tr.yd[-1]))[0]).max()
    assert drift[(10.0, 10.0)] < drift[None] / 20
    with pytest.raises(ModelError, match="baumgarte must be None or a pair"):
        simulate.simulate(s, st, 1.0, baumgarte=5.0)


def test_a_callable_tau_that_fails_or_returns_nothing_is_named():
    """Issue 23: a user's controller that raises, returns None or the wrong size gets a ModelError that
    names it (was a bare error from inside solve_ivp, or None silently taken as no force)."""
    sys_ = models.random_tree(3, kind="planar", seed=0)
    st = models.random_state(sys_, seed=0)
    with pytest.raises(ModelError, match=r"the callable tau\(t, state\) raised KeyError"):
        simulate.simulate(sys_, st, 0.1, tau=lambda t, s: {}["gain"])
    with pytest.raises(ModelError, match=r"tau\(t, state\) must be an array"):
        simulate.simulate(sys_, st, 0.1, tau=lambda t, s: None)
    with pytest.raises(ModelError, match=r"tau\(t, state\) has shape \(2,\)"):
        simulate.simulate(sys_, st, 0.1, tau=lambda t, s: np.zeros(2))


def test_a_callable_tau_gives_the_motion_of_the_same_constant_tau():
    """A controller returns one joint force per joint speed (n_dof), as a constant tau does: the callable
    was checked against the body velocities (n_vel) and every sound controller was refused."""
    sys_ = models.random_tree(3, kind="planar", seed=0)
    st = models.random_state(sys_, seed=0)
    tau = np.array([0.5, -0.2, 0.1])
    const = simulate.simulate(sys_, st, 0.1, tau=tau, n_out=3)
    live = simulate.simulate(sys_, st, 0.1, tau=lambda t, s: tau.copy(), n_out=3)
    assert sys_.n_dof == 3 and sys_.n_vel == 9
    assert np.allclose(live.y, const.y, rtol=0, atol=1e-12) and np.allclose(live.yd, const.yd, rtol=0, atol=1e-12)


def test_a_motion_that_blows_up_stops_at_once(monkeypatch):
    """Issue 23: simulate(..., tau=1e7 * ones) ran for minutes of ever smaller steps.  Now the integration
    stops once its pace projects more than _check.MAX_EVALUATIONS (checked here after 2000 evaluations
    instead of 20000, to keep the test short), and a state beyond _check.BLOW_UP stops it at once."""
    from rfda_teach import _check
    monkeypatch.setattr(_check, "CHECK_AFTER", 2000)
    sys_ = models.random_tree(3, kind="planar", seed=0)
    st = models.random_state(sys_, seed=0)
    with pytest.raises(ModelError, match=r"evaluations of the dynamics reached only t = .* stiff or blowing up"):
        simulate.simulate(sys_, st, 1.0, tau=1e7 * np.ones(3))
    with pytest.raises(ModelError, match=r"the motion blew up at t = 0\.5 s"):
        _check.bounded_state(np.array([0.0, np.inf]), 0.5, where="simulate")
    traj = simulate.simulate(sys_, st, 0.2, n_out=3)                  # a sound motion is untouched
    assert traj.t[-1] == pytest.approx(0.2)


def test_a_trajectory_prints_one_line_of_sizes():
    sys_ = models.planar_revolute_pair()
    line = repr(simulate.simulate(sys_, models.random_state(sys_, seed=0), 0.02, n_out=5))
    assert "\n" not in line and len(line) < 200
    assert line == "Trajectory: 5 samples, t = 0 … 0.02 s, y (5, 6), yd (5, 6)"


# --- issue 22, step 2: simulating a system with cut (loop-closing) joints ----------------------------

def _closed(make):
    """The book's loop as one System (tree + cut joint) and its documented start (model.q0, at rest)."""
    from rfda_teach import loopref
    model = make()
    return model, loopref.to_system(model), loopref.chain_state(model, model.q0, np.zeros(model.n))


@pytest.mark.parametrize("make, t_final, stab", [("five_bar", 1.0, None), ("five_bar", 1.0, (10.0, 10.0)),
                                                 ("four_bar", 0.5, None)])
def test_a_closed_loop_moves_as_rcr_acs_says(make, t_final, stab):
    """The five-bar (prismatic cut joint) and the four-bar (revolute cut joint) as one System with its cut,
    integrated by simulate.simulate (dense D&G eq. (7) with the cut rows, chosen automatically), follow
    C&A's ACS in joint coordinates: rcr's q and qdot at every output time, mapped to the bodies' absolute
    coordinates, are the simulated y and ydot to 1e-6 (measured: 1e-10); energy is conserved to 1e-6
    relative (measured: 3e-10) and the cut joint stays closed to 1e-8 (measured: 3e-12)."""
    from rfda_teach import loopref, rcr
    from rfda_teach.system import cut_residuals
    model, closed, start = _closed(getattr(rcr, make))
    traj = simulate.simulate(closed, start, t_final, n_out=11, baumgarte=stab)
    ref = rcr.simulate(model, "acs", t_final, n_out=11)
    assert np.allclose(traj.t, ref.t, rtol=0, atol=1e-14)
    ref_states = [loopref.chain_state(model, q, qd) for q, qd in zip(ref.q, ref.qd)]
    dy = traj.y - np.array([s.y for s in ref_states])
    dy[:, 2::3] = np.angle(np.exp(1j * dy[:, 2::3]))                  # body angles: the same modulo 2 pi
    assert np.abs(dy).max() < 1e-6
    assert np.abs(traj.yd - np.array([s.yd for s in ref_states])).max() < 1e-6
    E = np.array([simulate.energy(closed, s) for s in traj.states])
    assert np.abs(E - E[0]).max() < 1e-6 * abs(E[0])
    for s in traj.states:
        phi_x, phi_x_dot = cut_residuals(closed, s)
        assert np.abs(phi_x).max() < 1e-8 and np.abs(phi_x_dot).max() < 1e-8
    assert abs(traj.y[-1] - traj.y[0]).max() > 0.1                    # it moved


def test_baumgarte_covers_the_cut_rows():
    """Started slightly open (check=False), the five-bar's cut joint is pulled closed by the Baumgarte
    terms on its rows (they were applied to the tree joints only), and stays open without them."""
    from rfda_teach import dae, rcr
    from rfda_teach.models import state_from_joints
    from rfda_teach.system import cut_residuals, terms
    model, closed, start = _closed(rcr.five_bar)
    assert np.abs(simulate.project(closed, start).y - start.y).max() < 1e-14     # on the manifold: unchanged
    q = model.q0[:4] + [0.0, 0.0, 1e-4, 0.0]                 # bar 3 turned: every tree joint holds, the cut is open
    open_ = state_from_joints(closed, [[v] for v in q], [[0.0]] * 4, check=False)
    phi0 = np.abs(cut_residuals(closed, open_)[0]).max()
    assert phi0 > 5e-5
    end = {}
    for stab in (None, (20.0, 20.0)):
        tr = simulate.simulate(closed, open_, 0.5, n_out=2, baumgarte=stab, check=False)
        end[stab] = np.abs(cut_residuals(closed, (tr.y[-1], tr.yd[-1]))[0]).max()
    assert end[None] > phi0 / 10 and end[(20.0, 20.0)] < phi0 / 100
    # the cut rows of the projection's Jacobian are dae.cut_rows: the same matrix simulate's C has
    C_x, _ = dae.cut_rows(closed, terms(closed, start))
    assert C_x.shape == (2, closed.n_vel) and np.abs(C_x[:, :9]).max() == 0.0     # only the sleeve, body 3


@pytest.mark.parametrize("make", ["five_bar", "four_bar"])
def test_project_closes_the_cut_joint(make):
    """A perturbed state of a closed loop is projected onto every joint's and the cut joint's manifold; the
    rate of Phi_x along ydot is C_x ydot (the cut rows are Phi_x's Jacobian, as for a tree joint)."""
    from rfda_teach import rcr
    from rfda_teach.system import check_consistency, cut_residuals
    _, closed, start = _closed(getattr(rcr, make))
    rng = np.random.default_rng(1)
    off = (start.y + 1e-3 * rng.standard_normal(start.y.shape), start.yd + 1e-2 * rng.standard_normal(start.yd.shape))
    pr = simulate.project(closed, off)
    phi, phi_dot = simulate.residuals(closed, pr)
    assert phi.shape == (closed.n_constraints + closed.n_cut_constraints,)
    assert np.abs(phi).max() < 1e-12 and np.abs(phi_dot).max() < 1e-12
    check_consistency(closed, pr)
    h, y, yd = 1e-6, pr.y, off[1]                       # on the manifold, along any velocity
    fd = (cut_residuals(closed, (y + h * yd, yd))[0] - cut_residuals(closed, (y - h * yd, yd))[0]) / (2 * h)
    assert np.abs(fd - cut_residuals(closed, (y, yd))[1]).max() < 1e-6 * (1 + np.abs(fd).max())


def test_a_closed_system_is_refused_by_the_recursions_and_an_open_cut_is_named():
    from rfda_teach import rcr
    from rfda_teach.errors import ConstraintViolationError
    model, closed, start = _closed(rcr.five_bar)
    for form in ("featherstone", "lubich"):
        with pytest.raises(ModelError, match=rf"simulate.simulate: form='{form}' is a recursion for trees, but "
                                             r"system 'five-bar' has 1 cut joint.*needs a tree.*Leave form out"):
            simulate.simulate(closed, start, 0.1, form=form)
    from rfda_teach.models import state_from_joints
    q = model.q0[:4] + [0.0, 0.0, 0.01, 0.0]            # bar 3 turned: the tree joints hold, the cut is open
    open_ = state_from_joints(closed, [[v] for v in q], [[0.0]] * 4, check=False)
    with pytest.raises(ConstraintViolationError, match=r"violates cut joint 0 \('q5', prismatic2d between body 3 "
                                                       r"and the ground\)"):
        simulate.simulate(closed, open_, 0.1)
    with pytest.raises(ModelError, match="form='rk4'"):
        simulate.simulate(closed, start, 0.1, form="rk4")
    with pytest.raises(ModelError, match="baumgarte must be None or a pair"):
        simulate.simulate(closed, start, 0.1, baumgarte=(1.0,))
    with pytest.raises(ModelError, match=r"state\.y has shape"):
        simulate.project(closed, (start.y[:-1], start.yd))


@pytest.mark.parametrize("kind", ["planar", "spatial"])
def test_energy_with_undamped_springs_is_conserved(kind):
    sys_ = sprung(models.chain(4, kind=kind), 3, n_springs=4, damping=False)
    s0 = models.random_state(sys_, seed=3)
    traj = simulate.simulate(sys_, s0, 1.0, rtol=1e-11, atol=1e-11, n_out=41)
    E = np.array([simulate.energy(sys_, s) for s in traj.states])
    V = np.array([force_potential(sys_, s) for s in traj.states])
    assert np.ptp(V) > 1e-2 * (1 + abs(E[0]))               # the springs store and return energy
    assert np.abs(E - E[0]).max() < 1e-8 * (1 + abs(E[0]))


def test_energy_with_damped_springs_decreases_monotonically():
    sys_ = sprung(models.chain(4), 4, n_springs=4, damping=True)
    s0 = models.random_state(sys_, seed=4)
    traj = simulate.simulate(sys_, s0, 2.0, rtol=1e-11, atol=1e-11, n_out=81)
    E = np.array([simulate.energy(sys_, s) for s in traj.states])
    assert E[-1] < E[0] - 1e-2 * (1 + abs(E[0]))            # damping dissipates
    assert np.diff(E).max() < 1e-9 * (1 + abs(E[0]))        # and never adds energy


# --- issue 22, step 3: one integration driver for every simulate ----------------------------------

def test_span_output_times():
    """Output at the integrator's steps (None), at t_eval, or at n_out evenly spaced times."""
    assert simulate.span(2.0).t_eval is None
    assert np.array_equal(simulate.span(2.0, n_out=5).t_eval, np.linspace(0.0, 2.0, 5))
    assert np.array_equal(simulate.span(2.0, t_eval=1.5).t_eval, [1.5])
    sp = simulate.span(2, rtol=1e-6, atol=1e-8, method="Radau")
    assert (sp.t_final, sp.rtol, sp.atol, sp.method) == (2.0, 1e-6, 1e-8, "Radau")


@pytest.mark.parametrize("kw, match", [
    (dict(t_final=float("nan")), r"where: t_final is nan"),
    (dict(t_final=1.0, t_eval=[0.0, 1.0], n_out=2), r"where: give t_eval or n_out, not both"),
    (dict(t_final=1.0, n_out=2.0), r"where: n_out must be an integer"),
    (dict(t_final=1.0, t_eval=[0.5, 0.5]), r"where: t_eval is not strictly increasing"),
    (dict(t_final=1.0, rtol=float("inf")), r"where: rtol is inf"),
    (dict(t_final=1.0, method="rk4"), r"where: method='rk4' is not known"),
])
def test_span_refuses_bad_options(kw, match):
    t_final = kw.pop("t_final")
    with pytest.raises(ModelError, match=match):
        simulate.span(t_final, where="where", **kw)


def test_integrate_is_solve_ivp():
    """The driver returns solve_ivp's own numbers, rows by time (bit-identical)."""
    from scipy.integrate import solve_ivp

    def rhs(t, x):
        return np.array([x[1], -np.sin(x[0])])
    run = simulate.integrate(rhs, [1.0, 0.0], simulate.span(3.0, rtol=1e-9, atol=1e-9))
    ref = solve_ivp(rhs, (0.0, 3.0), [1.0, 0.0], method="DOP853", rtol=1e-9, atol=1e-9)
    assert np.array_equal(run.t, ref.t) and np.array_equal(run.x, ref.y.T) and run.nfev == ref.nfev
    run = simulate.integrate(rhs, [1.0, 0.0], simulate.span(3.0, n_out=4, method="RK45"))
    assert np.array_equal(run.t, [0.0, 1.0, 2.0, 3.0]) and run.x.shape == (4, 2)


def test_integrate_failure_names_where_and_the_time_reached():
    """An integrator that gives up raises a ModelError naming the caller, the time reached and what to try
    (was a bare RFDAError in four modules and sol.t[-1], empty with t_eval, in one)."""
    with pytest.raises(ModelError, match=r"^kane.simulate: solve_ivp \(DOP853\) stopped at t = 1 s of 2 s: "
                                         r"Required step size.*loosen rtol/atol"):
        simulate.integrate(lambda t, x: 1.0 / (1.0 - t), [0.0], simulate.span(2.0, t_eval=[1.5, 2.0]),
                           where="kane.simulate")


def test_integrate_guard_stops_a_blow_up_and_a_failing_rhs_is_not_hidden():
    with pytest.raises(ModelError, match=r"^demo: the motion blew up at t = "):
        simulate.integrate(lambda t, x: x * x, [1.0], simulate.span(2.0), where="demo")
    with pytest.raises(KeyError):                   # the module's own right-hand side: its errors pass through
        simulate.integrate(lambda t, x: {}["gain"] if t > 0.5 else x, [1.0], simulate.span(1.0))
