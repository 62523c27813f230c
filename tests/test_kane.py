"""Kane's equations with relative Euler parameters: structure, an independent sympy.physics.mechanics
reference, physics (momentum, energy), and agreement with the absolute-coordinate foundation."""
import functools

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st_
import sympy.physics.mechanics as me

from rfda_teach import dae, kane, rfda
from rfda_teach.errors import ModelError, TopologyError
from rfda_teach.joints import Joint
from rfda_teach.system import System

from conftest import rel


def small_tree(L, seed=0, gravity=9.81):
    """A random Kane tree with body-connection array L."""
    rng = np.random.default_rng(seed)
    N = len(L)
    mass = rng.uniform(0.5, 2.0, N)
    inertia = []
    for _ in range(N):
        Q = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        a, b, c = rng.uniform(0.05, 0.5, 3)              # second moments of a mass distribution
        inertia.append(Q @ np.diag([b + c, a + c, a + b]) @ Q.T)   # principal moments obey J1 + J2 >= J3
    q = rng.uniform(-0.5, 0.5, (N, 3))
    q[0] = 0
    r = rng.uniform(-0.3, 0.3, (N, 3))
    eps = rng.normal(size=(N, 4))
    eps /= np.linalg.norm(eps, axis=1)[:, None]
    x0 = np.concatenate([eps.ravel(), rng.uniform(-0.5, 0.5, 3 * N)])
    y0 = rng.normal(size=6 * N)
    return kane.KaneSystem(tuple(L), mass, np.array(inertia), q, r, np.array([0, 0, -gravity]), x0, y0)


@functools.lru_cache(maxsize=None)
def sympy_reference(L):
    """sympy.physics.mechanics KanesMethod for the same coordinates and speeds (symbolic constants)."""
    N = len(L)
    t = me.dynamicsymbols._t
    eps = [me.dynamicsymbols(f"e{K}_1:5") for K in range(N)]
    s = [me.dynamicsymbols(f"s{K}_1:4") for K in range(N)]
    w = [me.dynamicsymbols(f"w{K}_1:4") for K in range(N)]
    v = [me.dynamicsymbols(f"v{K}_1:4") for K in range(N)]
    m = sp.symbols(f"m0:{N}")
    Iv = [sp.symbols(f"I{K}_0:6") for K in range(N)]
    qv = [sp.symbols(f"qq{K}_0:3") for K in range(N)]
    rv = [sp.symbols(f"rr{K}_0:3") for K in range(N)]
    g = sp.Symbol("g")
    Nf = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(Nf, 0)
    frames, origins, bodies, loads, kd = [], [], [], [], []
    for K in range(N):
        J = L[K] - 1
        parent_frame = Nf if J < 0 else frames[J]
        parent_origin = O if J < 0 else origins[J]
        e1, e2, e3, e4 = eps[K]
        R = sp.Matrix([
            [e1**2 - e2**2 - e3**2 + e4**2, 2 * (e1 * e2 + e3 * e4), 2 * (e1 * e3 - e2 * e4)],
            [2 * (e1 * e2 - e3 * e4), -e1**2 + e2**2 - e3**2 + e4**2, 2 * (e2 * e3 + e1 * e4)],
            [2 * (e1 * e3 + e2 * e4), 2 * (e2 * e3 - e1 * e4), -e1**2 - e2**2 + e3**2 + e4**2]])
        F = me.ReferenceFrame(f"B{K}")
        F.orient_explicit(parent_frame, R.T)                     # F.dcm(parent) = R, eq. (4)
        F.set_ang_vel(parent_frame, w[K][0] * F.x + w[K][1] * F.y + w[K][2] * F.z)
        Qp = parent_origin.locatenew(f"Q{K}", qv[K][0] * parent_frame.x + qv[K][1] * parent_frame.y
                                     + qv[K][2] * parent_frame.z)
        OK = Qp.locatenew(f"O{K}", s[K][0] * parent_frame.x + s[K][1] * parent_frame.y + s[K][2] * parent_frame.z)
        OK.set_vel(Nf, OK.pos_from(O).dt(Nf))
        G = OK.locatenew(f"G{K}", rv[K][0] * F.x + rv[K][1] * F.y + rv[K][2] * F.z)
        G.set_vel(Nf, G.pos_from(O).dt(Nf))
        a = Iv[K]
        body = me.RigidBody(f"body{K}", G, F, m[K], (me.inertia(F, a[0], a[1], a[2], a[3], a[4], a[5]), G))
        frames.append(F)
        origins.append(OK)
        bodies.append(body)
        loads.append((G, -m[K] * g * Nf.z))
        Eh = sp.Matrix([[e4, -e3, e2], [e3, e4, -e1], [-e2, e1, e4], [-e1, -e2, -e3]])
        kd += list(sp.Matrix(eps[K]).diff(t) - Eh * sp.Matrix(w[K]) / 2)           # eq. (9)
        kd += [s[K][i].diff(t) - v[K][i] for i in range(3)]                           # eq. (43)
    qs = [c for K in range(N) for c in eps[K]] + [c for K in range(N) for c in s[K]]
    us = [c for K in range(N) for c in w[K]] + [c for K in range(N) for c in v[K]]
    km = me.KanesMethod(Nf, q_ind=qs, u_ind=us, kd_eqs=kd)
    km.kanes_equations(bodies, loads)
    consts = list(m) + [c for a in Iv for c in a] + [c for a in qv for c in a] + [c for a in rv for c in a] + [g]
    f = sp.lambdify([qs, us, consts], [km.mass_matrix, km.forcing], "numpy", cse=True)
    return f


def _constants(sys_):
    c = list(sys_.mass)
    for I in sys_.inertia:
        c += [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[1, 2], I[0, 2]]   # sympy inertia(ixx, iyy, izz, ixy, iyz, izx)
    c += list(sys_.q.ravel()) + list(sys_.r.ravel()) + [-sys_.gravity[2]]
    return c


@pytest.mark.parametrize("L", [(0, 1), (0, 1, 1)])
def test_mass_matrix_and_forcing_equal_sympy_physics_mechanics(L):
    ref = sympy_reference(L)
    for seed in range(3):
        sys_ = small_tree(L, seed=seed)
        x, y = sys_.x0, sys_.y0
        A, f = kane.mass_matrix_and_forcing(sys_, x, y)
        A_ref, f_ref = ref(list(x), list(y), _constants(sys_))
        assert rel(A, np.array(A_ref, float)) < 1e-12
        assert rel(f, np.array(f_ref, float).ravel()) < 1e-12


def test_A_symmetric_positive_definite_and_sparsity_of_eight_body():
    sys_ = kane.eight_body()
    A, f = kane.mass_matrix_and_forcing(sys_, sys_.x0, sys_.y0)
    assert np.allclose(A, A.T, atol=1e-12) and np.linalg.eigvalsh(A).min() > 0
    kin = kane.kinematics(sys_, sys_.x0, sys_.y0)
    # Kane eq. (13): a body's partial angular velocities live in the blocks of its own branch;
    # eq. (14) for the example: body 8's row is [7R8 1R7, 0, ..., 7R8, I, 0] over the omega blocks
    W8 = kin.W[7]
    assert sorted(W8) == [0, 6, 7]
    assert np.allclose(W8[0], kin.R_rel[7] @ kin.R_rel[6]) and np.allclose(W8[6], kin.R_rel[7])
    assert np.allclose(W8[7], np.eye(3))
    W3 = kin.W[2]
    assert sorted(W3) == [0, 1, 2] and np.allclose(W3[0], kin.R_rel[2] @ kin.R_rel[1])
    # eq. (27)-(28): partial velocities of O_K reach the s'dot blocks of the branch only
    assert sorted(kin.VO[7]) == [0, 6, 8, 14, 15]
    assert sorted(b for b in kin.VG[4]) == [0, 1, 4, 8, 9, 12]


def test_same_accelerations_as_the_absolute_coordinate_foundation():
    for sys_ in (kane.eight_body(), small_tree((0, 1, 2, 1, 4), seed=3)):
        A, f = kane.mass_matrix_and_forcing(sys_, sys_.x0, sys_.y0)
        acc = kane.accelerations(sys_, sys_.x0, sys_.y0, np.linalg.solve(A, f))
        tree, st = kane.to_absolute(sys_, sys_.x0, sys_.y0)
        for r in (rfda.forward_dynamics(tree, st, form="featherstone"), dae.forward_dynamics(tree, st)):
            for k, (a, al) in enumerate(acc):
                assert np.allclose(a, r.ydd[6 * k:6 * k + 3], atol=1e-10)
                assert np.allclose(al, r.ydd[6 * k + 3:6 * k + 6], atol=1e-10)


def test_momentum_and_energy_conserved_without_gravity_and_energy_with():
    sys0 = kane.eight_body(gravity=0.0)
    t, X, Y = kane.simulate(sys0, sys0.x0, sys0.y0, 5.0, t_eval=np.linspace(0, 5, 11), rtol=1e-12, atol=1e-12)
    P0, H0 = kane.momentum(sys0, X[0], Y[0])
    T0 = kane.kinetic_energy(sys0, X[0], Y[0])
    for x, y in zip(X, Y):
        P, H = kane.momentum(sys0, x / _norms(sys0, x), y)
        assert np.linalg.norm(P - P0) < 1e-8 * np.linalg.norm(P0)
        assert np.linalg.norm(H - H0) < 1e-8 * np.linalg.norm(H0)
        assert abs(kane.kinetic_energy(sys0, x / _norms(sys0, x), y) - T0) < 1e-8 * T0
    assert kane.euler_norm_drift(sys0, X) < 1e-8
    sysg = kane.eight_body()
    t, X, Y = kane.simulate(sysg, sysg.x0, sysg.y0, 2.0, t_eval=np.linspace(0, 2, 5), rtol=1e-12, atol=1e-12)
    E = [kane.energy(sysg, x / _norms(sysg, x), y) for x, y in zip(X, Y)]
    assert np.abs(np.array(E) - E[0]).max() < 1e-8 * abs(E[0])


def _norms(sys_, x):
    """Divide each Euler-parameter block by its norm (a vector of divisors for x)."""
    d = np.ones_like(x)
    for k in range(sys_.N):
        d[4 * k:4 * k + 4] = np.linalg.norm(x[4 * k:4 * k + 4])
    return d


def test_spherical_and_revolute_joints_by_dropping_speeds_match_the_foundation():
    """Drop s'dot_K (spherical) and two omega components (revolute about 3) and compare with
    the foundation's spherical and revolute joints at the same state."""
    L = (0, 1, 2, 1)
    sys_ = small_tree(L, seed=5)
    N = sys_.N
    x = sys_.x0.copy()
    x[4 * N + 3:] = 0.0                                         # O_K at Q_K for K >= 2
    y = sys_.y0.copy()
    y[3 * N + 3:] = 0.0                                         # s'dot_K = 0: spherical joints
    y[3 * 2:3 * 2 + 2] = 0.0                                    # body 3: omega_hat only about its 3-axis
    S = [i for i in range(6 * N) if not (i >= 3 * N + 3 or i in (6, 7))]
    ydot = kane.reduced_dynamics(sys_, x, y, S)
    acc = kane.accelerations(sys_, x, y, ydot)
    # the same bodies with spherical joints (and a revolute joint about body 3's 3-axis) in the foundation
    tree_free, st = kane.to_absolute(sys_, x, y)
    joints = [Joint("free")]
    for k in range(1, N):
        J = L[k] - 1
        pp = sys_.q[k] - sys_.r[J]                              # Q_K from G_J, J-frame components
        cp = -sys_.r[k]                                          # O_K from G_K, K-frame components
        if k == 2:
            Rrel = kane.relative_rotation(x[4 * k:4 * k + 4])   # K comps from J comps
            joints.append(Joint("revolute", parent_point=pp, child_point=cp, parent_frame=Rrel.T,
                                child_frame=np.eye(3)))
        else:
            joints.append(Joint("spherical", parent_point=pp, child_point=cp))
    tree = System(tree_free.parents, tree_free.bodies, tuple(joints), tree_free.gravity)
    res = rfda.forward_dynamics(tree, st, form="lubich")
    for k, (a, al) in enumerate(acc):
        assert np.allclose(a, res.ydd[6 * k:6 * k + 3], atol=1e-9), k
        assert np.allclose(al, res.ydd[6 * k + 3:6 * k + 6], atol=1e-9), k


def test_bad_input():
    with pytest.raises(TopologyError, match="body 3 has lower body 4 >= 3"):
        small_tree((0, 1, 4, 1))
    with pytest.raises(TopologyError, match="L\\(1\\) = 0"):
        small_tree((1, 0))
    sys_ = kane.eight_body()
    x = sys_.x0.copy()
    x[4:8] *= 1.1
    with pytest.raises(ModelError, match="body 2: Euler parameters have norm 1.1"):
        kane.mass_matrix_and_forcing(sys_, x, sys_.y0)
    with pytest.raises(ModelError, match="y has shape"):
        kane.mass_matrix_and_forcing(sys_, sys_.x0, sys_.y0[:5])
    with pytest.raises(ModelError, match="non-zero entries outside"):
        kane.reduced_dynamics(sys_, sys_.x0, sys_.y0, [0, 1, 2])


# ----------------------------------------------------------------------------- regressions (issue 11)

def test_nan_forces_and_moments_are_refused():
    """Was: a NaN extra force or moment came back as NaN entries of {f} without a word."""
    sys_ = kane.eight_body()
    F = np.zeros((8, 3))
    F[0, 0] = np.nan
    with pytest.raises(ModelError, match="forces.* is nan"):
        kane.mass_matrix_and_forcing(sys_, sys_.x0, sys_.y0, forces=F)
    with pytest.raises(ModelError, match="moments.* is nan"):
        kane.mass_matrix_and_forcing(sys_, sys_.x0, sys_.y0, moments=F)
    # a flat 3N vector is still accepted and means the same as the (N, 3) array
    G = np.arange(24.0).reshape(8, 3)
    assert np.array_equal(kane.mass_matrix_and_forcing(sys_, sys_.x0, sys_.y0, forces=G)[1],
                          kane.mass_matrix_and_forcing(sys_, sys_.x0, sys_.y0, forces=G.ravel())[1])


def test_body_connection_array_must_hold_integers():
    """Was: L = (0, 1.7) was truncated to (0, 1) silently."""
    sys_ = kane.eight_body()
    x0 = np.concatenate([sys_.x0[:8], np.zeros(6)])
    with pytest.raises(ModelError, match=r"L\[1\].*must be an integer, got 1.7"):
        kane.KaneSystem((0, 1.7), sys_.mass[:2], sys_.inertia[:2], [[0, 0, 0], [0.3, 0, 0]], sys_.r[:2],
                        sys_.gravity, x0, sys_.y0[:12])
    ok = kane.KaneSystem(np.array([0, 1]), sys_.mass[:2], sys_.inertia[:2], [[0, 0, 0], [0.3, 0, 0]], sys_.r[:2],
                         sys_.gravity, x0, sys_.y0[:12])
    assert ok.L == (0, 1) and all(type(v) is int for v in ok.L)


def test_model_data_are_checked_at_construction():
    """Was: a 2-vector gravity failed later with a bare ValueError; an inertia violating J1 + J2 >= J3 and
    a non-zero q'_1 (ignored by the recursion, eq. 20) were accepted."""
    s = kane.eight_body()
    args = dict(L=s.L, mass=s.mass, inertia=s.inertia, q=s.q, r=s.r, gravity=s.gravity, x0=s.x0, y0=s.y0)
    with pytest.raises(ModelError, match=r"gravity has shape \(2,\)"):
        kane.KaneSystem(**{**args, "gravity": [0.0, -9.81]})
    I = s.inertia.copy()
    I[3] = np.diag([0.01, 0.02, 0.5])
    with pytest.raises(ModelError, match=r"body 4.*triangle inequality J1 \+ J2 >= J3"):
        kane.KaneSystem(**{**args, "inertia": I})
    q = s.q.copy()
    q[0] = [0.1, 0, 0]
    with pytest.raises(ModelError, match="q'_1"):
        kane.KaneSystem(**{**args, "q": q})


def test_simulate_time_spans():
    sys_ = kane.eight_body()
    for bad in (None, "1", 0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ModelError, match="t_final"):
            kane.simulate(sys_, sys_.x0, sys_.y0, bad)
    with pytest.raises(ModelError, match="t_eval has times outside"):
        kane.simulate(sys_, sys_.x0, sys_.y0, 0.1, t_eval=[0.0, 0.2])


_EIGHT = kane.eight_body()


@settings(max_examples=40, deadline=None)
@given(where=st_.sampled_from(["x", "y", "forces", "moments"]), index=st_.integers(0, 55),
       bad=st_.sampled_from([float("nan"), float("inf"), -float("inf")]))
def test_any_non_finite_entry_is_refused_by_name(where, index, bad):
    """Property: one NaN or inf anywhere in x, y, forces or moments is refused, and the message names it."""
    args = {"x": _EIGHT.x0.copy(), "y": _EIGHT.y0.copy(), "forces": np.zeros(24), "moments": np.zeros(24)}
    a = args[where]
    a[index % a.size] = bad
    with pytest.raises(ModelError, match=rf"{where}\[{index % a.size}\] is (nan|inf|-inf)"):
        kane.mass_matrix_and_forcing(_EIGHT, args["x"], args["y"], forces=args["forces"], moments=args["moments"])


@pytest.mark.parametrize("revolute", [(2,), (1, 3, 5, 6)])
def test_reduced_dynamics_equals_the_joint_tree(revolute):
    """Kane's equations with the sliding speeds and two of a revolute body's three rates locked give the
    accelerations of kane.to_joint_tree, by the RFDA and by the dense eq. (7)."""
    from rfda_teach import dae, rfda
    sys8 = kane.eight_body()
    N = sys8.N
    x = sys8.x0.copy()
    x[4 * N + 3:] = 0.0
    eps = np.random.default_rng(5).normal(size=(N, 4))   # general relative orientations
    x[:4 * N] = (eps / np.linalg.norm(eps, axis=1, keepdims=True)).ravel()
    y = sys8.y0.copy()
    y[3 * N + 3:] = 0.0                                  # no sliding
    for K in revolute:                                   # spin about the third relative axis only
        y[3 * K:3 * K + 2] = 0.0
    S = [i for i in range(3 * N + 3) if not any(3 * K <= i < 3 * K + 2 for K in revolute)]
    acc = kane.accelerations(sys8, x, y, kane.reduced_dynamics(sys8, x, y, S))
    ours = np.concatenate([np.concatenate(a) for a in acc])
    tree = kane.to_joint_tree(sys8, x, revolute=revolute)
    _, st = kane.to_absolute(sys8, x, y)
    assert [j.type for j in tree.joints].count("revolute") == len(revolute)
    for ref in (rfda.forward_dynamics(tree, st).ydd, dae.forward_dynamics(tree, st).ydd):
        assert np.abs(ours - ref).max() < 1e-9


def test_a_kane_system_shows_a_table_of_its_bodies_in_a_notebook():
    """summary.html_table: the repr line, then one row per body K (L(K), mass, I'_GK, q'_K, r'_K); names escaped."""
    import dataclasses
    s = dataclasses.replace(kane.eight_body(), name="<eight & bodies>")
    table = s._repr_html_()
    assert table.count("<tr>") == 1 + s.N
    assert "KaneSystem &#x27;&lt;eight &amp; bodies&gt;&#x27;: 8 spatial bodies" in table and "<eight" not in table
    assert "<td>2</td><td>1</td><td>1</td><td>diag(0.0002667, 0.01347, 0.01347)</td>" in table


@pytest.mark.parametrize("seed", range(3))
def test_E_hat_turns_body_angular_velocity_into_euler_parameter_rates(seed):
    """Kane eq. (9), (42) with [E_hat'] of Kane eq. (44): eps_dot = 1/2 [E_hat']^T omega_hat' keeps
    |eps| = 1 and moves [^J R_K] of eq. (4) as d/dt R = -[omega_hat' x] R (omega in K components)."""
    rng = np.random.default_rng(seed)
    eps = rng.normal(size=4)
    eps /= np.linalg.norm(eps)
    w = rng.normal(size=3)
    E = kane.E_hat(eps)
    assert np.allclose(E.T @ E, np.eye(3), atol=1e-14)       # Kane eq. (44): orthonormal columns
    assert abs(eps @ E @ w) < 1e-14                          # the norm of eps does not change
    h = 1e-6
    Rd = (kane.relative_rotation(eps + 0.5 * h * E @ w) - kane.relative_rotation(eps - 0.5 * h * E @ w)) / (2 * h)
    wx = np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])
    assert np.allclose(Rd, -wx @ kane.relative_rotation(eps), atol=1e-8)


# ----------------------------------------------------------------------------- a view of the one model (issue 22)

from hypothesis import HealthCheck, assume  # noqa: E402

from rfda_teach import models  # noqa: E402
from rfda_teach.bodies import Body  # noqa: E402
from rfda_teach.errors import ConstraintViolationError  # noqa: E402
from rfda_teach.forces import SpringDamper  # noqa: E402
from rfda_teach.system import Cut, State  # noqa: E402


def _agree(system, seeds=(0, 1)):
    """kane.system_accelerations against the dense D&G eq. (7) at random consistent states: the worst
    relative difference."""
    worst = 0.0
    for seed in seeds:
        st = models.random_state(system, seed=seed)
        worst = max(worst, rel(kane.system_accelerations(system, st), dae.forward_dynamics(system, st).ydd))
    return worst


def _five_bar_and_arm(kind):
    """A five-bar cut open at its coupler pin (two chains from the ground, a forest) carrying a two-link
    arm on link 1, revolute joints about parallel z axes (spatial) or revolute2d (planar); with a spring."""
    d = 3 if kind == "spatial" else 2
    pt = lambda x: (x, 0.0, 0.0)[:d]                               # noqa: E731
    jt = "revolute" if kind == "spatial" else "revolute2d"
    body = Body("spatial", 1.0, np.diag([1e-2, 1 / 12, 1 / 12])) if kind == "spatial" else Body("planar", 1.0, 1 / 12)
    J = lambda p: Joint(jt, parent_point=pt(p), child_point=pt(-0.5))   # noqa: E731
    g = (0.0, -9.81, 0.0)[:d]
    return System((-1, 0, -1, 2, 1, 4), (body,) * 6, (J(0.0), J(0.5), J(1.0), J(0.5), J(0.0), J(0.5)), g,
                  name=f"five-bar cut open, with an arm ({kind})",
                  forces=(SpringDamper(5, -1, point_a=pt(0.5), point_b=pt(2.0), k=30.0, c=0.5, L0=0.5),))


@pytest.mark.parametrize("build", [
    lambda: models.figure1_tree("spatial"), lambda: models.chain(5, "spatial"), lambda: models.chain(4, "planar"),
    lambda: models.figure1_tree("planar"), lambda: models.planar_revolute_pair(), lambda: kane.eight_body_system(),
    lambda: _five_bar_and_arm("spatial"), lambda: _five_bar_and_arm("planar")],
    ids=["figure1-spatial", "chain-spatial", "chain-planar", "figure1-planar", "revolute-pair", "eight-body",
         "five-bar-arm-spatial", "five-bar-arm-planar"])
def test_system_accelerations_by_kane_equal_the_dense_reference(build):
    """Kane eq. (39) with the speeds the joints leave free (a view of the one model) gives D&G eq. (7)'s ydd."""
    assert _agree(build()) < 1e-9


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(n=st_.integers(1, 5), seed=st_.integers(0, 10_000), kind=st_.sampled_from(["spatial", "planar"]))
def test_system_accelerations_on_random_trees(n, seed, kind):
    """Property: on random trees (free, spherical, revolute, prismatic joints; planar ones) Kane's view gives the
    dense reference's accelerations; a tree whose sliding and hinge axes on one body are oblique is refused."""
    tree = models.random_tree(n, kind, seed=seed)
    try:
        kane.from_system(tree)
    except ModelError as exc:
        assert "parallel or perpendicular" in str(exc)
        assume(False)
    assert _agree(tree, seeds=(seed,)) < 1e-9


def _old_eight_body(gravity):
    """The eight-body record as it was written by hand before it became a view (same data, same x0, y0)."""
    N = 8
    mass = np.array([10.0, 1.0, 0.5, 1.0, 0.5, 1.0, 1.0, 0.5])
    inertia = np.zeros((N, 3, 3))
    inertia[0] = 10.0 / 12 * np.diag([0.4 * 0.4 + 0.2 * 0.2, 0.6 * 0.6 + 0.2 * 0.2, 0.6 * 0.6 + 0.4 * 0.4])
    for k in range(1, N):
        m = mass[k]
        inertia[k] = np.diag([m * 0.04 * 0.04 / 6, m * (0.4 * 0.4 + 0.04 * 0.04) / 12,
                              m * (0.4 * 0.4 + 0.04 * 0.04) / 12])
    q = np.array([[0, 0, 0], [0.3, 0, 0], [0.4, 0, 0], [-0.3, 0, 0], [0.4, 0, 0], [0, 0.2, 0], [0, -0.2, 0],
                  [0.4, 0, 0]], float)
    r = np.array([[0, 0, 0]] + [[0.2, 0, 0]] * 7, float)
    new = kane.eight_body(gravity)
    return kane.KaneSystem(kane.EIGHT_BODY_L, mass, inertia, q, r, np.array([0.0, 0.0, -gravity]), new.x0, new.y0)


@pytest.mark.parametrize("gravity", [9.81, 0.0])
def test_eight_body_is_the_view_of_its_system_and_unchanged(gravity):
    """kane.eight_body() = from_system(eight_body_system()) with the notes' x0, y0: the data, [A] and {f} of
    Kane eq. (40)-(41) and a simulation are bit-identical to the record written by hand."""
    new, old = kane.eight_body(gravity), _old_eight_body(gravity)
    assert new.mechanism.n == 8 and new.speeds == tuple(range(48)) and new.L == kane.EIGHT_BODY_L
    for f in ("mass", "inertia", "q", "r", "gravity"):
        assert np.array_equal(getattr(new, f), getattr(old, f)), f
    A_f_new = kane.mass_matrix_and_forcing(new, new.x0, new.y0)
    for a, b in zip(A_f_new, kane.mass_matrix_and_forcing(old, old.x0, old.y0)):
        assert np.array_equal(a, b)
    for a, b in zip(kane.simulate(new, new.x0, new.y0, 0.05), kane.simulate(old, old.x0, old.y0, 0.05)):
        assert np.array_equal(a, b)


def test_state_from_system_inverts_to_absolute_on_the_eight_body():
    """Kane eq. (1)'s (x, y) of the absolute state that kane.to_absolute makes from (x0, y0) are (x0, y0)."""
    ks = kane.eight_body()
    _, st = kane.to_absolute(ks, ks.x0, ks.y0)
    x, y = kane.state_from_system(ks, st)
    assert np.abs(x - ks.x0).max() < 1e-12 and np.abs(y - ks.y0).max() < 1e-12
    assert rel(kane.system_accelerations(ks.mechanism, st), dae.forward_dynamics(ks.mechanism, st).ydd) < 1e-9


def test_the_view_keeps_one_speed_per_hinge_and_simulates_with_it():
    """A spatial chain of hinges keeps one omega_hat' component per body (along the hinge, a frame axis);
    kane.simulate keeps the record's speeds by default and conserves Kane's energy."""
    tree = models.chain(3, "spatial")
    st = models.state_from_joints(tree, [[0.4], [-0.2], [0.7]], [[1.0], [0.5], [-1.0]])
    ks = kane.from_system(tree, st)
    assert ks.speeds == (2, 4, 8)                                # z, -y, z hinges of models.chain
    t, X, Y = kane.simulate(ks, ks.x0, ks.y0, 0.5, rtol=1e-11, atol=1e-11)
    dropped = np.setdiff1d(np.arange(18), ks.speeds)
    assert np.all(Y[:, dropped] == 0)
    E = [kane.energy(ks, x / _norms(ks, x), y) for x, y in zip(X, Y)]
    assert np.abs(np.array(E) - E[0]).max() < 1e-8 * abs(E[0])


def test_a_tree_numbered_out_of_order_is_renumbered_root_first():
    """Kane's lower bodies carry lower numbers; a System numbered otherwise is viewed in its root-first order."""
    b = Body("spatial", 1.0, np.diag([0.01, 1 / 12, 1 / 12]))
    tree = System((1, -1, 1), (b, b, b), (Joint("revolute", parent_point=(0.5, 0, 0), child_point=(-0.5, 0, 0)),
                                          Joint("revolute", child_point=(-0.5, 0, 0)),
                                          Joint("spherical", parent_point=(-0.5, 0, 0), child_point=(0.5, 0, 0))),
                  (0.0, 0.0, -9.81))
    ks = kane.from_system(tree)
    assert ks.order == (1, 0, 2) and ks.L == (0, 1, 1)
    assert _agree(tree) < 1e-9


def test_from_system_refuses_what_kane_cannot_take():
    """Cut joints (use dae.forward_dynamics), universal joints, point bodies, oblique sliding axes, a record
    written by hand, an inconsistent state."""
    closed = models.chain(3, "planar")
    closed = System(closed.parents, closed.bodies, closed.joints, closed.gravity,
                    cuts=(Cut(2, -1, Joint("revolute2d", parent_point=(0.5, 0.0), child_point=(2.0, 0.0))),))
    with pytest.raises(ModelError, match=r"cut joint.*Kane's notes treat trees.*dae\.forward_dynamics"):
        kane.from_system(closed)
    with pytest.raises(ModelError, match=r"joint 0 .*universal.*rfda\.forward_dynamics or dae\.forward_dynamics"):
        kane.system_accelerations(models.universal_chain(2, seed=0), None)
    with pytest.raises(ModelError, match=r"point2 bodies"):
        kane.from_system(models.featherstone_sliders())
    b = Body("spatial", 1.0, np.diag([0.01, 1 / 12, 1 / 12]))
    oblique = np.array([[1.0, 0, 0], [0, np.cos(0.5), -np.sin(0.5)], [0, np.sin(0.5), np.cos(0.5)]])
    slid = System((-1, 0), (b, b), (Joint("revolute"), Joint("prismatic", parent_frame=oblique)), (0.0, 0.0, -9.81))
    with pytest.raises(ModelError, match=r"sliding axis of joint 1 \(prismatic\) and the axis of joint 0.*28\.65 deg"):
        kane.from_system(slid)
    with pytest.raises(ModelError, match=r"written by hand.*kane\.from_system"):
        kane.state_from_system(small_tree((0, 1)), None)
    tree = models.chain(2, "spatial")
    st = models.random_state(tree, seed=0)
    y = st.y.copy()
    y[7] += 0.1
    with pytest.raises(ConstraintViolationError, match="joint 1"):
        kane.state_from_system(kane.from_system(tree), State(y, st.yd))


def test_a_forest_is_a_record_with_several_bodies_on_the_inertial_frame():
    """Several bodies with L(K) = 0 (a forest): each O_K placed by s'_K alone, q'_K = 0 required."""
    ks = kane.from_system(_five_bar_and_arm("spatial"))
    assert ks.L == (0, 1, 0, 3, 2, 5) and "2 roots" in repr(ks)
    q = ks.q.copy()
    q[2] = [0.1, 0, 0]
    with pytest.raises(ModelError, match=r"q\[2\] = q'_3 .* must be zero"):
        kane.KaneSystem(ks.L, ks.mass, ks.inertia, q, ks.r, ks.gravity, ks.x0, ks.y0)


def test_energy_is_the_one_models_energy():
    """Issue 22: kane.energy of Kane's (x, y) is simulate.energy of the System it views, at that state."""
    from rfda_teach import models, simulate
    ks = kane.eight_body()
    for seed in (0, 1):
        st = models.random_state(ks.mechanism, seed=seed)
        x, y = kane.state_from_system(ks, st)
        E = simulate.energy(ks.mechanism, st)
        assert abs(kane.energy(ks, x, y) - E) <= 1e-12 * max(1.0, abs(E))
