"""The analysis reference point (Kang & Yoon): three points, one answer; against the foundation's DAE;
constraint rows against finite differences; multiplication counts; a stabilised simulation."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st_

from rfda_teach import dae, refpoint as rp
from rfda_teach.errors import ConstraintViolationError, ModelError, TopologyError

from conftest import rel


@pytest.fixture(scope="module")
def car():
    return rp.quarter_car(road=rp.road_bump())


def _random_state(car, seed):
    rng = np.random.default_rng(seed)
    q = car.q0.copy()
    q[0] = rng.uniform(-0.15, 0.15)
    q = rp.assemble(car, q + 0.01 * rng.normal(size=car.nq) * (np.arange(car.nq) > 0), fixed=[0])
    return q, rp.consistent_velocity(car, q, rng.normal(size=car.nq))


def test_quarter_car_topology_and_dof(car):
    assert car.n + 1 == 6 and car.nq == 10 and car.m == 9
    assert [b.axes for b in car.bodies] == ["z", "xyz", "xy", "xy", "xy"]
    assert all(c.kind == "s" for c in car.cuts)
    J = rp.closure_jacobian(car, car.q0)
    assert np.linalg.matrix_rank(J) == 9                         # independent constraints: 1 DOF
    assert np.abs(rp.closure_residual(car, car.q0)).max() < 1e-14


@pytest.mark.parametrize("seed", range(4))
def test_three_points_same_qdd_and_lambda(car, seed):
    # K&Y eq. (22)-(30) at the centroid (Method 1) and K&Y eq. (31)-(36) at the instant global origin
    # (Method 2) give the same accelerations and multipliers as the joint point
    q, qd = _random_state(car, seed)
    sols = [rp.solve(car, q, qd, p, t=0.25) for p in rp.POINTS]
    for s in sols[1:]:
        assert rel(s.qdd, sols[0].qdd) < 1e-10
        assert rel(s.lam, sols[0].lam) < 1e-10


@pytest.mark.parametrize("seed", range(3))
def test_same_accelerations_as_the_absolute_coordinate_dae(car, seed):
    q, qd = _random_state(car, seed)
    sol = rp.solve(car, q, qd, "centroid", t=0.25)
    system, state = rp.to_absolute(car, q, qd)
    ref = dae.forward_dynamics(system, state, extra=rp.absolute_constraints(car, q, qd),
                               f_ext=rp.applied_forces(car, q, qd, t=0.25))
    Yd = np.concatenate(sol.Yd)
    assert rel(Yd, ref.ydd) < 1e-10
    # the cut-joint multipliers are the last 9 of the DAE's (tree joints come first)
    assert rel(-sol.lam, ref.lam[-9:]) < 1e-9 or rel(sol.lam, ref.lam[-9:]) < 1e-9


def _test_model():
    """A 3-body chain with every basic constraint kind as cut joints (d1, d2, ss) - 1 DOF left."""
    E = np.eye(3)
    bodies = (rp.RBody("a", -1, np.zeros(3), E, "z", 1.0, np.array([0.3, 0, 0]), np.diag([0.1, 0.2, 0.3])),
              rp.RBody("b", 0, np.array([0.6, 0, 0]), E, "xyz", 1.5, np.array([0.2, 0.1, 0]), np.diag([0.2, 0.1, 0.3])),
              rp.RBody("c", 1, np.array([0.4, 0.2, 0]), E, "xy", 0.8, np.array([0, 0, 0.2]), np.diag([0.05, 0.05, 0.02])))
    cuts = (rp.CutJoint("d1", -1, 1, ua=np.array([0, 0, 1.0]), ub=np.array([1.0, 0, 0])),
            rp.CutJoint("d2", 0, 2, pa=np.array([0.6, 0, 0]), pb=np.array([0, 0, 0.4]), ua=np.array([0, 0, 1.0])),
            rp.CutJoint("ss", -1, 2, pa=np.array([1.0, 0.2, 0.0]), pb=np.array([0, 0, 0.4]), length=0.0))
    m = rp.Model(bodies, cuts, (), np.array([0, 0, -9.81]), np.zeros(6))
    x = rp._closure(m, rp.kinematics(m, m.q0, np.zeros(6)))
    cuts = cuts[:2] + (rp.CutJoint("ss", -1, 2, pa=cuts[2].pa, pb=cuts[2].pb, length=float(np.sqrt(x[2] + 0.0))),)
    return rp.Model(bodies, cuts, (), np.array([0, 0, -9.81]), np.zeros(6))


@pytest.mark.parametrize("point", rp.POINTS)
def test_constraint_rows_velocity_and_gamma_by_finite_differences(point):
    """Sum Phi_Zj Y_j is the rate of the closure residual, and Sum Phi_Zj Ydot_j - gamma its second
    derivative along q(t) = q + t qd + t^2 qdd / 2, for every basic constraint (d1, d2, ss, s)."""
    for model in (_test_model(), rp.quarter_car()):
        rng = np.random.default_rng(1)
        q = model.q0 + 0.2 * rng.normal(size=model.nq)
        qd, qdd = rng.normal(size=model.nq), rng.normal(size=model.nq)
        kin = rp.kinematics(model, q, qd, point)
        Phi, gamma = rp.constraint_rows(model, kin)
        rate = sum(B @ kin.Y[j] for j, B in Phi.items())
        h = 1e-5
        path = lambda s: rp.closure_residual(model, q + s * qd + 0.5 * s * s * qdd)
        assert np.allclose(rate, (path(h) - path(-h)) / (2 * h), atol=1e-7)
        # accelerations Ydot_j for this qdd through eq. (26)/(34)
        tally = rp.Tally()
        tr = rp._transforms(model, kin, qd, point, tally)
        Yd = []
        for j, b in enumerate(model.bodies):
            Yi = np.zeros(6) if b.parent < 0 else Yd[b.parent]
            Yd.append(rp._B1Y(tally, tr[j].d, Yi) + rp._B2q(tally, tr[j], qdd[model.qslices[j]]) + tr[j].D)
        second = sum(B @ Yd[j] for j, B in Phi.items()) - gamma
        fd2 = (path(h) - 2 * path(0.0) + path(-h)) / h ** 2
        assert np.allclose(second, fd2, atol=2e-4)


def test_three_points_on_the_model_with_every_constraint_kind():
    m = _test_model()
    q = m.q0 + 0.0
    q = rp.assemble(m, q, fixed=[0])
    qd = rp.consistent_velocity(m, q, np.arange(6.0) / 5)
    a = [rp.solve(m, q, qd, p) for p in rp.POINTS]
    assert rel(a[1].qdd, a[0].qdd) < 1e-10 and rel(a[2].qdd, a[0].qdd) < 1e-10
    assert rel(a[2].lam, a[0].lam) < 1e-10


def test_multiplication_counts_follow_the_papers_savings(car):
    c = {p: rp.count_multiplications(car, p, by_step=True) for p in rp.POINTS}
    tot = {p: sum(v.values()) for p, v in c.items()}
    assert tot["origin"] < tot["centroid"] and tot["joint"] < tot["centroid"]
    # B_j1 = I saves at least 36 + 6n + 6m in the recursion for every body with a moving parent
    predicted = sum(36 + 6 * len(b.axes) + 6 * car.m for b in car.bodies if b.parent >= 0)
    saved = c["centroid"]["recursion (step 1)"] - c["origin"]["recursion (step 1)"]
    assert saved >= predicted
    # counts are instrumented: they depend on the tree, not only on formulas
    assert rp.count_multiplications(car, "origin", q=car.q0, qd=np.ones(10)) == tot["origin"]


def test_stabilised_simulation_closes_the_loops_and_agrees_across_points(car):
    tr = rp.simulate(car, car.q0, np.zeros(10), 0.6, "origin", t_eval=np.linspace(0, 0.6, 13))
    closure = max(np.abs(rp.closure_residual(car, q)).max() for q in tr.q)
    assert closure < 1e-8
    bump_top = np.argmax([rp.kinematics(car, q, np.zeros(10)).rc[1][2] for q in tr.q])
    assert 0.2 <= tr.t[bump_top] <= 0.5                             # the wheel rises over the bump
    short = [rp.simulate(car, car.q0, np.zeros(10), 0.1, p, t_eval=[0.1], rtol=1e-10, atol=1e-11) for p in rp.POINTS]
    assert np.abs(short[0].q[-1] - car.q0).max() > 1e-2                # it moved
    assert np.allclose(short[0].q, short[1].q, atol=1e-7) and np.allclose(short[0].q, short[2].q, atol=1e-7)


def test_bad_input(car):
    with pytest.raises(ModelError, match="point='cog'"):
        rp.forward_dynamics(car, car.q0, np.zeros(10), "cog")
    with pytest.raises(ModelError, match="q has shape"):
        rp.forward_dynamics(car, car.q0[:4], np.zeros(10))
    import dataclasses
    b = car.bodies
    swapped = (dataclasses.replace(b[1], parent=1), b[0])
    with pytest.raises(TopologyError, match="body 0 .* is numbered lower than its parent 1"):
        rp.Model(swapped, (), (), car.gravity, np.zeros(4))


# ----------------------------------------------------------------------------- regressions (issue 11)

def _open_q(car):
    q = car.q0.copy()
    q[3] += 0.3                               # knuckle turned by 0.3 rad: the three link loops open
    return q


def test_unassembled_q_is_refused_by_every_entry_point(car):
    """Was: q-ddot of an unassembled quarter car (loops open by 0.116 m) returned as if it were a motion."""
    q = _open_q(car)
    assert np.abs(rp.closure_residual(car, q)).max() > 0.1
    for call in (lambda: rp.forward_dynamics(car, q, np.zeros(10)),
                 lambda: rp.solve(car, q, np.zeros(10), "origin"),
                 lambda: rp.simulate(car, q, np.zeros(10), 0.01)):
        with pytest.raises(ConstraintViolationError, match=r"cut joint 2 'tie rod at the chassis'.*residual 0\.11"):
            call()
    # the opt-out still evaluates (for inner loops that hold the state consistent themselves)
    assert np.all(np.isfinite(rp.forward_dynamics(car, q, np.zeros(10), check=False)))


def test_inconsistent_velocity_is_refused_and_consistent_velocity_fixes_it(car):
    qd = np.ones(10)
    with pytest.raises(ConstraintViolationError, match=r"qd violates the velocity constraint.*consistent_velocity"):
        rp.forward_dynamics(car, car.q0, qd)
    qd_ok = rp.consistent_velocity(car, car.q0, qd)
    assert np.all(np.isfinite(rp.forward_dynamics(car, car.q0, qd_ok)))


def test_tolerances_accept_states_from_assemble_and_the_integrator(car):
    q, qd = _random_state(car, 7)
    q_off = q + 1e-9                                                # well inside POSITION_TOL
    rp.forward_dynamics(car, q_off, rp.consistent_velocity(car, q_off, qd))
    assert rp.POSITION_TOL == 1e-6 and rp.VELOCITY_TOL == 1e-6


def test_nan_road_and_nan_time_are_refused():
    """Was: a road returning NaN, or t = NaN, silently dropped the tyre force (NaN > 0 is False)."""
    car = rp.quarter_car(road=lambda t: float("nan"))
    with pytest.raises(ModelError, match=r"road\(0\) is nan"):
        rp.forward_dynamics(car, car.q0, np.zeros(10))
    bump = rp.quarter_car(road=rp.road_bump())
    with pytest.raises(ModelError, match="t is nan"):
        rp.forward_dynamics(bump, bump.q0, np.zeros(10), t=float("nan"))


def test_simulate_refuses_backwards_and_endless_time_spans(car):
    """Was: t_final = -0.01 integrated backwards in time; t_final = inf never returned."""
    for bad in (-0.01, 0.0, float("inf"), None, "1"):
        with pytest.raises(ModelError, match="t_final"):
            rp.simulate(car, car.q0, np.zeros(10), bad)


def test_zero_length_spring_is_refused(car):
    """Was: a spring-damper whose two points coincide gave NaN accelerations (direction d / 0)."""
    kin = rp.kinematics(car, car.q0, np.zeros(10))
    sd = car.springs[0]
    at = kin.r[0] + kin.A[0] @ sd.pa                                 # the spring's arm point, in the world
    model = rp.Model(car.bodies, car.cuts, (rp.SpringDamper(0, -1, sd.pa, at, sd.k, sd.c, sd.L0),), car.gravity,
                     car.q0, car.tire_body, car.tire_k, car.tire_r)
    with pytest.raises(ModelError, match="spring-damper between bodies 0 and -1 has length"):
        rp.forward_dynamics(model, model.q0, np.zeros(10))


def test_body_data_are_checked(car):
    """Was: a non-symmetric J (eigvalsh reads one triangle), a non-orthogonal C, an inertia no body can have,
    a NaN spring constant were all accepted."""
    import dataclasses
    b = car.bodies[0]
    bad = {"J": np.array([[0.05, 0.02, 0.0], [0.0, 0.08, 0.0], [0.0, 0.0, 0.12]]),
           "C": 1.05 * b.C}
    for field_, value in bad.items():
        with pytest.raises(ModelError, match=field_):
            rp.Model((dataclasses.replace(b, **{field_: value}),) + car.bodies[1:], car.cuts, car.springs,
                     car.gravity, car.q0)
    with pytest.raises(ModelError, match="triangle inequality"):
        rp.Model((dataclasses.replace(b, J=np.diag([0.01, 0.02, 0.5])),) + car.bodies[1:], car.cuts, car.springs,
                 car.gravity, car.q0)
    with pytest.raises(ModelError, match=r"k \(stiffness"):
        rp.SpringDamper(0, -1, np.zeros(3), np.ones(3), float("nan"), 1.0, 0.1)


_CAR = rp.quarter_car()
_J0 = rp.closure_jacobian(_CAR, _CAR.q0)


@settings(max_examples=30, deadline=None)
@given(k=st_.integers(0, 9), dq=st_.floats(1e-4, 0.5), sign=st_.sampled_from([-1.0, 1.0]))
def test_any_single_joint_offset_that_opens_a_loop_is_refused(k, dq, sign):
    """Property: moving one joint coordinate of the assembled quarter car opens a loop (1 DOF, every column
    of the closure Jacobian is non-zero), and every such q is refused with the cut joint named."""
    q = _CAR.q0.copy()
    q[k] += sign * dq
    res = np.abs(rp.closure_residual(_CAR, q)).max()
    if res <= rp.POSITION_TOL:                                     # too small a move to open a loop
        rp.forward_dynamics(_CAR, q, np.zeros(10))
        return
    with pytest.raises(ConstraintViolationError, match=r"q does not close the loop of cut joint \d"):
        rp.forward_dynamics(_CAR, q, np.zeros(10), "origin")


@settings(max_examples=30, deadline=None)
@given(qd=st_.lists(st_.floats(-10, 10), min_size=10, max_size=10))
def test_velocities_are_accepted_exactly_when_they_satisfy_the_cut_joints(qd):
    """Property: forward_dynamics accepts qd iff |Phi_q qd| <= VELOCITY_TOL (1 + max |qd|)."""
    qd = np.array(qd)
    ok = np.abs(_J0 @ qd).max() <= rp.VELOCITY_TOL * (1 + np.abs(qd).max())
    if ok:
        rp.forward_dynamics(_CAR, _CAR.q0, qd)
    else:
        with pytest.raises(ConstraintViolationError, match="consistent_velocity"):
            rp.forward_dynamics(_CAR, _CAR.q0, qd)
    rp.forward_dynamics(_CAR, _CAR.q0, rp.consistent_velocity(_CAR, _CAR.q0, qd))


def test_equipollent_is_the_mass_matrix_and_force_of_the_recursion():
    """refpoint.equipollent (eq. 4-8) reproduces M^P_j, Q^P_j of every quarter-car body at every point."""
    from rfda_teach.refpoint import _external_forces, _kinematics, _mass_and_force
    car = rp.quarter_car()
    rng = np.random.default_rng(3)
    q = rp.assemble(car, car.q0 + np.r_[0.05, np.zeros(9)], fixed=[0])
    qd = rp.consistent_velocity(car, q, rng.normal(size=car.nq))
    for point in rp.POINTS:
        kin = _kinematics(car, q, qd, point)
        F, tau = _external_forces(car, q, qd, kin, 0.0, rp.Tally())
        Ms, Qs = _mass_and_force(car, kin, F, tau, point, rp.Tally())
        for j, b in enumerate(car.bodies):
            J = kin.A[j] @ b.J @ kin.A[j].T
            M, Q = rp.equipollent(b.mass, J, kin.p[j] - kin.rc[j], kin.pd[j] - kin.rcd[j], kin.w[j], F[j], tau[j])
            assert np.allclose(M, Ms[j], atol=1e-12) and np.allclose(Q, Qs[j], atol=1e-9)


def test_equipollent_keeps_the_motion():
    """M^P Ydot^P = Q^P holds with Ydot^P from eq. (6) and the centroid's Newton-Euler acceleration."""
    rng = np.random.default_rng(4)
    for _ in range(20):
        m, A = rng.uniform(0.5, 3), np.linalg.qr(rng.normal(size=(3, 3)))[0]
        J = A @ np.diag(rng.uniform(0.5, 1.0, 3)) @ A.T
        s, sd, w, F, tau = (rng.normal(size=3) for _ in range(5))
        M, Q = rp.equipollent(m, J, s, sd, w, F, tau)
        Ydc = np.r_[F / m, np.linalg.solve(J, tau - np.cross(w, J @ w))]
        T = np.eye(6)
        T[:3, 3:] = np.array([[0, -s[2], s[1]], [s[2], 0, -s[0]], [-s[1], s[0], 0]])
        YdP = np.linalg.solve(T, Ydc - np.r_[np.cross(sd, w), np.zeros(3)])
        assert np.allclose(M @ YdP, Q)


def test_velocity_transformation_is_eq_24_at_every_point():
    car = rp.quarter_car()
    rng = np.random.default_rng(5)
    q = rp.assemble(car, car.q0 + np.r_[0.05, np.zeros(9)], fixed=[0])
    qd = rp.consistent_velocity(car, q, rng.normal(size=car.nq))
    for point in rp.POINTS:
        k = rp.kinematics(car, q, qd, point)
        for j, b in enumerate(car.bodies):
            i = b.parent
            p_i = np.zeros(3) if i < 0 else k.p[i]
            Y_i = np.zeros(6) if i < 0 else k.Y[i]
            B1, B2 = rp.velocity_transformation(p_i, k.p[j], k.r[j], k.Bw[j])
            assert np.allclose(k.Y[j], B1 @ Y_i + B2 @ qd[car.qslices[j]])
            if point == "origin":
                assert np.allclose(B1, np.eye(6))
            if point == "joint":
                assert np.allclose(B2[:3], 0)


def _articulated_inertia_dense(car, q, qd, i):
    """Body i's articulated-body inertia at its centroid, from the dense absolute-coordinate
    equations: free bodies, only the tree joints inside i's subtree; the (i, i) block of
    M^-1 - M^-1 C^T (C M^-1 C^T)^-1 C M^-1 is its inverse."""
    from rfda_teach.system import terms
    system, state = rp.to_absolute(car, q, qd)
    M = np.zeros((6 * car.n, 6 * car.n))
    for j, Mj in enumerate(terms(system, state).M):
        M[6 * j:6 * j + 6, 6 * j:6 * j + 6] = Mj
    C, _ = rp.absolute_constraints(car, q, qd)
    sub, rows, r = {i}, [], 0
    for j in range(car.n):                                   # bodies are numbered outward
        if car.bodies[j].parent in sub:
            sub.add(j)
    for c in rp.tree_joint_constraints(car):
        k = {"s": 3, "d1": 1}[c.kind]
        if c.b in sub and c.b != i:
            rows += range(r, r + k)
        r += k
    cols = [6 * j + a for j in sorted(sub) for a in range(6)]
    Ms, Cs = M[np.ix_(cols, cols)], C[np.ix_(rows, cols)]
    Mi = np.linalg.inv(Ms)
    W = Mi - Mi @ Cs.T @ np.linalg.solve(Cs @ Mi @ Cs.T, Cs @ Mi) if rows else Mi
    at = sorted(sub).index(i)
    return np.linalg.inv(W[6 * at:6 * at + 6, 6 * at:6 * at + 6])


@pytest.mark.parametrize("point", ["centroid", "joint", "origin"])
def test_folded_mass_matrix_is_the_shifted_articulated_inertia(car, point):
    """M_i after eq. (29) = T^T Mhat^c_i T, with Mhat^c_i the subtree's articulated inertia at the
    centroid (Deepak & Ghosal's eq. (8) M-hat) and T the shift Y^c = T Y^P of eq. (8)."""
    from rfda_teach.bodies import skew
    q, qd = _random_state(car, 5)
    sol = rp.solve(car, q, qd, point)
    kin = rp.kinematics(car, q, qd, point)
    for i in range(car.n):
        T = np.eye(6)
        T[:3, 3:] = skew(kin.p[i] - kin.rc[i])                # rcdot = pdot + s x omega
        ref = T.T @ _articulated_inertia_dense(car, q, qd, i) @ T
        assert rel(sol.M_art[i], ref) < 1e-9, (point, i)
    leaf = car.n - 1                                          # a leaf: its own M^P
    assert not any(b.parent == leaf for b in car.bodies)


def test_baumgarte_terms_of_forward_dynamics():
    """Off the constraints, the stabilised accelerations satisfy Phi'' + 2 alpha Phi' + beta^2 Phi = 0
    (Phi'' from closure_jacobian and its rate by central differences); at alpha = beta = 0 Phi'' = 0."""
    car = rp.quarter_car()
    rng = np.random.default_rng(1)
    q = car.q0 + 1e-3 * rng.normal(size=car.nq)
    qd = 0.1 * rng.normal(size=car.nq)
    J, h = rp.closure_jacobian(car, q), 1e-6
    Jd_qd = (rp.closure_jacobian(car, q + h * qd) - rp.closure_jacobian(car, q - h * qd)) @ qd / (2 * h)
    Phi = rp.closure_residual(car, q)
    assert np.abs(Phi).max() > 1e-4                     # really off the constraints
    for a, b in ((0.0, 0.0), (5.0, 7.0)):
        qdd = rp.forward_dynamics(car, q, qd, "origin", alpha=a, beta=b, check=False)
        assert np.abs(J @ qdd + Jd_qd + 2 * a * J @ qd + b ** 2 * Phi).max() < 1e-8
    with pytest.raises(ConstraintViolationError):
        rp.forward_dynamics(car, q, qd, "origin", alpha=5.0, beta=7.0)


def test_a_road_that_raises_is_named():
    car = rp.quarter_car(road=lambda t: [][3])
    with pytest.raises(ModelError, match=r"the callable road\(t\) raised IndexError"):
        rp.forward_dynamics(car, car.q0, np.zeros(10))


def test_a_model_shows_one_table_of_tree_joints_cut_joints_and_force_elements():
    """summary.html_table: the repr line, then a row per tree body, cut joint, spring-damper and the tyre."""
    import dataclasses
    car = rp.quarter_car()
    table = car._repr_html_()
    assert table.count("<tr>") == 1 + car.n + len(car.cuts) + len(car.springs) + 1
    assert repr(car).replace("'", "&#x27;") in table
    assert table.count("<td>tree joint</td>") == car.n and table.count("<td>cut joint</td>") == len(car.cuts)
    arm = dataclasses.replace(car.bodies[0], name="<lower & arm>")
    odd = dataclasses.replace(car, bodies=(arm,) + car.bodies[1:], cuts=(), springs=(), tire_body=-1,
                              name="car <1>")
    table = odd._repr_html_()
    assert table.count("<tr>") == 1 + odd.n and "<lower" not in table and "<1>" not in table
    assert "<td>&lt;lower &amp; arm&gt;</td><td>chassis – &lt;lower &amp; arm&gt;</td>" in table
    assert "Model &#x27;car &lt;1&gt;&#x27;" in table


def test_a_solution_and_a_trajectory_print_one_line_of_sizes():
    car = rp.quarter_car()
    sol = rp.solve(car, car.q0, np.zeros(10), "joint")
    line = repr(sol)
    assert "\n" not in line and len(line) < 200
    assert line == f"Solution: qdd (10,), lam (9,), Ydot and M_art of 5 bodies; {sol.tally.total} multiplications"
    qdd, lam, Yd, tally, M_art = sol                  # still a tuple
    tr = rp.simulate(car, car.q0, np.zeros(10), 0.004, t_eval=[0.0, 0.002, 0.004])
    line = repr(tr)
    assert "\n" not in line and len(line) < 200
    assert line == "Trajectory: 3 samples, t = 0 … 0.004 s, q (3, 10), qd (3, 10)"


# ----------------------------------------------------------------------------- a view of the one model

import dataclasses  # noqa: E402

from hypothesis import HealthCheck  # noqa: E402

from rfda_teach import forces, models  # noqa: E402
from rfda_teach.bodies import Body, frame_with_z, rotation  # noqa: E402
from rfda_teach.joints import Joint  # noqa: E402
from rfda_teach.system import Cut, System  # noqa: E402


def _hand_written_quarter_car(*, road=None):
    """The record as refpoint.quarter_car wrote it by hand before it became a view of the System."""
    H = {k: np.array(v, float) for k, v in rp.HARDPOINTS.items()}
    C_lca = frame_with_z(H["lower arm front pivot"] - H["lower arm rear pivot"])
    o_lca, ball = H["lower arm front pivot"], H["lower ball joint"]
    lca_c = (H["lower arm front pivot"] + H["lower arm rear pivot"] + ball) / 3
    bodies = [rp.RBody("lower arm", -1, o_lca, C_lca, "z", 3.0, C_lca.T @ (lca_c - o_lca), np.diag([0.05, 0.08, 0.12])),
              rp.RBody("knuckle and wheel", 0, C_lca.T @ (ball - o_lca), C_lca.T, "xyz", 20.0,
                       H["wheel centre"] - ball, np.diag([0.9, 1.4, 0.9]))]
    cuts = []
    for name, k_end, c_end, mass in (("upper front link", "upper front link, knuckle", "upper front link, chassis", 0.6),
                                     ("upper rear link", "upper rear link, knuckle", "upper rear link, chassis", 0.6),
                                     ("tie rod", "tie rod, knuckle", "tie rod, chassis", 0.5)):
        u = H[c_end] - H[k_end]
        L = np.linalg.norm(u)
        Jl = mass * L * L / 12
        bodies.append(rp.RBody(name, 1, H[k_end] - ball, frame_with_z(u), "xy", mass, np.array([0, 0, L / 2]),
                               np.diag([Jl, Jl, 1e-4])))
        cuts.append(rp.CutJoint("s", -1, len(bodies) - 1, pa=H[c_end], pb=np.array([0, 0, L]),
                                name=f"{name} at the chassis"))
    spring = rp.SpringDamper(0, -1, C_lca.T @ (H["spring, lower arm"] - o_lca), H["spring, chassis"], 30e3, 2.5e3,
                             np.linalg.norm(H["spring, chassis"] - H["spring, lower arm"]) + 0.03)
    return rp.Model(tuple(bodies), tuple(cuts), (spring,), np.array([0, 0, -9.81]), np.zeros(10), tire_body=1,
                    tire_k=200e3, tire_r=0.30, road=road, name="chassis-fixed quarter car")


def test_quarter_car_is_a_view_of_the_system_bit_identical_to_the_hand_written_record():
    road = rp.road_bump()
    new, old = rp.quarter_car(road=road), _hand_written_quarter_car(road=road)
    assert isinstance(new.mechanism, System) and new.mechanism.cuts and len(new.mechanism.forces) == 2
    for a, b in zip(new.bodies, old.bodies):
        assert (a.name, a.parent, a.axes, a.mass) == (b.name, b.parent, b.axes, b.mass)
        assert all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("s", "C", "rho", "J"))
    for a, b in zip(new.cuts + new.springs, old.cuts + old.springs):
        assert all(np.array_equal(getattr(a, k), getattr(b, k)) for k in vars(b))
    assert (new.tire_body, new.tire_k, new.tire_r, new.road, new.tire_point) == (1, 200e3, 0.30, road, None)
    assert np.array_equal(new.gravity, old.gravity) and np.array_equal(new.q0, old.q0)
    for p in rp.POINTS:
        assert rp.count_multiplications(new, p) == rp.count_multiplications(old, p)
        for seed in range(3):
            q, qd = _random_state(old, seed) if seed else (old.q0, np.zeros(10))
            assert np.array_equal(rp.forward_dynamics(new, q, qd, p, t=0.25), rp.forward_dynamics(old, q, qd, p, t=0.25))
    a = rp.simulate(new, new.q0, np.zeros(10), 0.01, t_eval=[0.005, 0.01])
    b = rp.simulate(old, old.q0, np.zeros(10), 0.01, t_eval=[0.005, 0.01])
    assert np.array_equal(a.q, b.q) and np.array_equal(a.qd, b.qd)


def _worst(system, states, t=0.0):
    """Worst relative difference of system_accelerations (three points) from the dense D&G eq. (7)."""
    worst = 0.0
    for st in states:
        ydd = dae.forward_dynamics(system, st, t=t).ydd
        for p in rp.POINTS:
            worst = max(worst, rel(rp.system_accelerations(system, st, p, t=t), ydd))
    return worst


@pytest.mark.parametrize("system", [models.chain(4, "spatial"), models.figure1_tree("spatial"),
                                    models.universal_chain(3, seed=1)], ids=["chain", "figure1", "universal"])
def test_system_accelerations_equal_the_dae_on_trees(system):
    # K&Y eq. (28)-(30) at the centroid, the joint point and the instant global origin (K&Y eq. 31), mapped back
    assert _worst(system, [models.random_state(system, seed=s) for s in range(2)]) < 1e-9


def _closed_states(system, seeds):
    m = rp.from_system(system)
    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        q = rp.assemble(m, m.q0 + 0.05 * rng.normal(size=m.nq), fixed=[0])
        out.append(rp.system_state(m, q, rp.consistent_velocity(m, q, rng.normal(size=m.nq))))
    return out


def test_system_accelerations_equal_the_dae_on_the_quarter_car_with_its_tyre():
    # the closed mechanism of Fig. 3 as a System (cut spherical joints, spring-damper, tyre on a road bump)
    car = rp.quarter_car_system(road=rp.road_bump())
    states = _closed_states(car, range(3))
    tyre = car.forces[1]
    assert any(forces.generalized_forces(tyre, "spatial", st.y[car.pos_slices[1]], st.yd[car.vel_slices[1]], None,
                                         None, t=0.25)[0][2] > 0 for st in states)      # the tyre pushes
    assert _worst(car, states, t=0.25) < 1e-9
    # the tyre away from the centroid (tire_point in {O_j}) agrees too
    moved = dataclasses.replace(car, forces=(car.forces[0], dataclasses.replace(tyre, point=[0.02, 0.05, -0.01])))
    assert rp.from_system(moved).tire_point is not None
    assert _worst(moved, states, t=0.25) < 1e-9


def _loop(coupler: str, cut: str) -> System:
    """A spatial loop: crank (revolute z on the ground), coupler (spherical or universal on the crank), rocker
    (spherical on the ground at (2.5, 0, 1)), the coupler's end and the rocker's end joined by a cut joint."""
    bar = Body("spatial", 1.0, np.diag([0.02, 0.09, 0.09]), name="bar")
    rocker = Body("spatial", 0.7, np.diag([0.05, 0.05, 0.01]), name="rocker")
    joints = (Joint("revolute", child_point=[-0.5, 0, 0], name="crank pivot"),
              Joint(coupler, parent_point=[0.5, 0, 0], child_point=[-0.75, 0, 0], name="crank-coupler"),
              Joint("spherical", parent_point=[2.5, 0.0, 1.0], child_point=[0, 0, 0.5], name="rocker pivot"))
    R = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]]) if cut == "revolute" else np.eye(3)   # z along y: regular
    c = Cut(1, 2, Joint(cut, parent_point=[0.75, 0, 0], child_point=[0.0, 0, -0.5], parent_frame=R, child_frame=R),
            name="coupler-rocker")
    return System((-1, 0, -1), (bar, bar, rocker), joints, (0.0, -9.81, -3.0), name=f"{coupler}-{cut} loop",
                  cuts=(c,))


@pytest.mark.parametrize("coupler, cut", [("spherical", "revolute"), ("spherical", "universal"),
                                          ("universal", "spherical")])
def test_system_accelerations_equal_the_dae_on_closed_spatial_loops(coupler, cut):
    # cut joints as the basic constraints of Tables 1-4 (K&Y eq. 37-43): revolute s + 2 d1, universal s + d1
    system = _loop(coupler, cut)
    kinds = [c.kind for c in rp.from_system(system).cuts]
    assert kinds == {"revolute": ["s", "d1", "d1"], "universal": ["s", "d1"], "spherical": ["s"]}[cut]
    assert _worst(system, _closed_states(system, range(2))) < 1e-9


def _random_rotation_tree(seed: int, n: int) -> System:
    rng = np.random.default_rng(seed)
    bodies, joints, parents = [], [], []
    for j in range(n):
        parents.append(int(rng.integers(-1, j)))
        J = np.diag(rng.uniform(0.5, 1.0, 3)) * rng.uniform(0.01, 0.1)
        bodies.append(Body("spatial", float(rng.uniform(0.5, 3.0)), J))
        kind = ("revolute", "universal", "spherical")[int(rng.integers(3))]
        frame = lambda: frame_with_z(rng.normal(size=3))          # noqa: E731
        joints.append(Joint(kind, parent_point=rng.normal(scale=0.5, size=3), child_point=rng.normal(scale=0.5, size=3),
                            parent_frame=frame(), child_frame=frame()))
    return System(tuple(parents), tuple(bodies), tuple(joints), rng.normal(size=3), name=f"rotation tree {seed}")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10 ** 6), n=st_.integers(1, 5))
def test_system_accelerations_equal_the_dae_on_random_trees(seed, n):
    system = _random_rotation_tree(seed, n)
    st = models.random_state(system, seed=seed)
    m = rp.from_system(system)
    q, qd = rp.state_from_system(m, st)
    back = rp.system_state(m, q, qd)                              # and back: the same positions, rotations, rates
    assert rel(back.yd, st.yd) < 1e-12
    for ps in system.pos_slices:                                  # e and -e are one rotation: compare R
        assert np.abs(back.y[ps][:3] - st.y[ps][:3]).max() < 1e-12 * (1 + np.abs(st.y).max())
        assert np.abs(rotation("spatial", back.y[ps]) - rotation("spatial", st.y[ps])).max() < 1e-12
    assert _worst(system, [st]) < 1e-9


def test_view_refusals_name_the_joint():
    with pytest.raises(ModelError, match=r"joint 0 \(.*type 'free'\).*dae.forward_dynamics"):
        rp.from_system(models.random_tree(3, "spatial", seed=0))
    with pytest.raises(ModelError, match=r"planar bodies.*spatial System"):
        rp.system_accelerations(models.chain(2), models.random_state(models.chain(2), seed=0))
    with pytest.raises(ModelError, match="written by hand"):
        rp.state_from_system(_hand_written_quarter_car(), models.random_state(models.chain(2, "spatial"), seed=0))
