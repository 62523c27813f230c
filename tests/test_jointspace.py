"""The joint-space baseline (RNEA, CRBA, Cholesky) against the RFDA, eq. (7) and Pinocchio."""
import numpy as np
import pytest
from hypothesis import given, strategies as st_

from rfda_teach import dae, jointspace as js, models, rfda
from rfda_teach.benchmark import loglog_slope
from rfda_teach.errors import IllConditionedError, ModelError
from rfda_teach.joints import random_joint_position
from rfda_teach.system import System, terms

from conftest import rel

trees = st_.builds(lambda n, kind, seed, bias: models.random_tree(n, kind=kind, seed=seed, chain_bias=bias),
                   st_.integers(1, 25), st_.sampled_from(["planar", "spatial"]), st_.integers(0, 2 ** 31 - 1),
                   st_.floats(0.0, 1.0))


def joint_state(sys_, seed, speed=1.0):
    """Random joint coordinates: q per joint, qd and tau stacked, and the absolute state."""
    rng = np.random.default_rng(seed)
    q = [random_joint_position(jt, rng) for jt in sys_.joints]
    qd = speed * rng.normal(size=sys_.n_dof)
    tau = rng.normal(size=sys_.n_dof)
    st = models.state_from_joints(sys_, q, [qd[s] for s in sys_.dof_slices])
    return q, qd, tau, st


def forest(kind):
    a = models.random_tree(5, kind=kind, seed=1)
    b = models.random_tree(4, kind=kind, seed=2)
    c = models.chain(3, kind)
    parents = list(a.parents) + [p + 5 if p >= 0 else -1 for p in b.parents] + \
        [p + 9 if p >= 0 else -1 for p in c.parents]
    return System(tuple(parents), a.bodies + b.bodies + c.bodies, a.joints + b.joints + c.joints,
                  gravity=a.gravity, name=f"{kind} forest")


# ----------------------------------------------------------------------------- agreement

@given(trees, st_.integers(0, 2 ** 31 - 1), st_.floats(0.0, 3.0))
def test_forward_dynamics_equals_rfda_and_dae(sys_, seed, speed):
    q, qd, tau, st = joint_state(sys_, seed, speed)
    qdd = js.forward_dynamics(sys_, q, qd, tau)
    for form in rfda.FORMS:
        assert rel(qdd, rfda.forward_dynamics(sys_, st, form=form, tau=tau).qdd) < 1e-9, form
    tr = terms(sys_, st, tau=tau)
    assert rel(qdd, rfda.joint_accelerations(sys_, tr, dae.solve(sys_, tr).ydd)) < 1e-9


@given(trees, st_.integers(0, 2 ** 31 - 1))
def test_rnea_inverts_forward_dynamics(sys_, seed):
    q, qd, tau, _ = joint_state(sys_, seed)
    qdd = js.forward_dynamics(sys_, q, qd, tau)
    assert rel(js.rnea(sys_, q, qd, qdd), tau) < 1e-9
    qdd2 = np.random.default_rng(seed + 1).normal(size=sys_.n_dof)
    assert rel(js.forward_dynamics(sys_, q, qd, js.rnea(sys_, q, qd, qdd2)), qdd2) < 1e-9


@given(trees, st_.integers(0, 2 ** 31 - 1))
def test_crba_is_symmetric_positive_definite_and_equals_TtMT(sys_, seed):
    q, qd, _, st = joint_state(sys_, seed)
    M = js.crba(sys_, q)
    assert np.array_equal(M, M.T)
    assert np.linalg.eigvalsh(M).min() > 0
    tr = terms(sys_, st)
    T = js.velocity_map(sys_, tr)
    Mabs = np.zeros((sys_.n_vel, sys_.n_vel))
    for i, s in enumerate(sys_.vel_slices):
        Mabs[s, s] = tr.M[i]
    assert rel(M, T.T @ Mabs @ T) < 1e-12
    assert rel(T @ qd, st.yd) < 1e-12                         # ydot = T qdot, eq. (61) stacked
    # the mass matrix is the linear part of RNEA: rnea(q, qd, e_i) - rnea(q, qd, 0) = M e_i
    i = int(np.random.default_rng(seed).integers(sys_.n_dof))
    e = np.zeros(sys_.n_dof)
    e[i] = 1.0
    assert rel(js.rnea(sys_, q, qd, e) - js.rnea(sys_, q, qd, np.zeros(sys_.n_dof)), M[:, i]) < 1e-9


@pytest.mark.parametrize("kind", ["planar", "spatial"])
def test_forest(kind):
    sys_ = forest(kind)
    assert sys_.topology.roots == (0, 5, 9)
    q, qd, tau, st = joint_state(sys_, 7)
    qdd = js.forward_dynamics(sys_, q, qd, tau)
    for form in rfda.FORMS:
        assert rel(qdd, rfda.forward_dynamics(sys_, st, form=form, tau=tau).qdd) < 1e-9
    M = js.crba(sys_, q)
    a, b = sys_.dof_slices[4].stop, sys_.dof_slices[8].stop
    assert not M[:a, a:].any() and not M[a:b, b:].any()        # separate trees do not couple


def test_stacked_and_per_joint_q_agree():
    sys_ = models.random_tree(6, kind="spatial", seed=5)
    q, qd, tau, _ = joint_state(sys_, 3)
    assert np.array_equal(js.forward_dynamics(sys_, q, qd, tau),
                          js.forward_dynamics(sys_, np.concatenate(q), qd, tau))
    assert np.array_equal(js.crba(sys_, tuple(q)), js.crba(sys_, list(np.concatenate(q))))


def test_two_link_arm_closed_form():
    arm = models.chain(2)                          # m = l = 1, J = 1/12, pinned at the end of bar 0
    for q2 in (0.0, 0.7, -2.0):
        c = np.cos(q2)
        M = js.crba(arm, [0.3, q2])
        assert np.allclose(M, [[5 / 3 + c, 1 / 3 + c / 2], [1 / 3 + c / 2, 1 / 3]], rtol=0, atol=1e-14)


def test_counting_the_rfda_does_not_change_it():
    """The RFDA forms are counted as they run (rfda.solve with a tally), not in a copy of them."""
    sys_ = models.random_tree(12, kind="spatial", seed=4)
    q, qd, tau, st = joint_state(sys_, 2)
    tr = terms(sys_, st, tau=tau)
    from rfda_teach.count import Tally
    for form in rfda.FORMS:
        t = Tally()
        counted, plain = rfda.solve(sys_, tr, form, tally=t), rfda.solve(sys_, tr, form)
        for x in ("ydd", "lam", "qdd"):
            assert np.array_equal(getattr(counted, x), getattr(plain, x)), (form, x)
        assert t.total == js.count_multiplications(sys_, form, state=st) > 0, form
    assert not hasattr(js, "_lubich_counted") and not hasattr(js, "_featherstone_counted")


def test_jointspace_imports_nothing_of_part_ii():
    """The joint-space baseline (Part 0) counts with rfda_teach.count, not with refpoint (Part II)."""
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(js))
    names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | \
        {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not names & {"refpoint", "rcr", "loopref", "kane"}, names


# ----------------------------------------------------------------------------- Pinocchio

@pytest.mark.parametrize("name", ["ur5", "panda", "solo12", "talos"])
def test_against_pinocchio_rnea_and_crba(name):
    pin = pytest.importorskip("pinocchio")
    from rfda_teach import interop
    robot = interop.example_robot(name)
    model = robot.pin_model
    data = model.createData()
    q, v, a = interop.random_state(robot, seed=3)
    st, S, qdd = js.pinocchio_maps(robot, q, v, a)      # qdot_ours = S v_pin (orthogonal blocks)
    tr = terms(robot, st)
    Mp = pin.crba(model, data, q)
    Mp = np.triu(Mp) + np.triu(Mp, 1).T
    assert rel(S.T @ js.mass_matrix(robot, tr) @ S, Mp) < 1e-9
    assert rel(S.T @ js.inverse_dynamics(robot, tr, qdd), pin.rnea(model, data, q, v, a)) < 1e-9
    tau_pin = np.random.default_rng(0).normal(size=model.nv)
    qdd_js = js.solve(robot, terms(robot, st, tau=S @ tau_pin)).qdd
    assert rel(qdd_js, js.pinocchio_maps(robot, q, v, pin.aba(model, data, q, v, tau_pin)).qdd) < 1e-9


def test_pinocchio_maps_refuses_plain_systems_and_bad_a():
    pytest.importorskip("pinocchio")
    from rfda_teach import interop
    with pytest.raises(ModelError, match="robot"):
        js.pinocchio_maps(models.chain(2), [0, 0], [0, 0])
    robot = interop.example_robot("ur5")
    q, v, _ = interop.random_state(robot, seed=0)
    with pytest.raises(ModelError, match=r"\ba\b"):
        js.pinocchio_maps(robot, q, v, np.zeros(5))


# ----------------------------------------------------------------------------- counts

def test_counts_grow_n2_for_crba_and_n3_for_joint_space_fd():
    ns = [64, 128, 256]
    count = {m: [js.count_multiplications(models.chain(n), m, by_step=True) for n in ns] for m in js.METHODS}
    total = {m: [sum(c.values()) for c in cs] for m, cs in count.items()}
    blocks = [c["crba blocks"] for c in count["crba"]]          # the ancestor walk: n(n+1)/2 block pairs
    assert 1.95 < loglog_slope(ns, blocks) < 2.05
    assert 1.8 < loglog_slope(ns, total["crba"]) < 2.05
    assert 2.9 < loglog_slope(ns, total["cholesky"]) < 3.0
    assert 2.5 < loglog_slope(ns, total["joint_space_fd"]) < 3.0
    assert loglog_slope(ns[1:], total["joint_space_fd"][1:]) > loglog_slope(ns[:2], total["joint_space_fd"][:2])
    for m in ("rnea", "lubich", "featherstone"):
        assert 0.99 < loglog_slope(ns, total[m]) < 1.01, m
    assert all(f > r for f, r in zip(total["joint_space_fd"], total["featherstone"]))


def test_count_pieces():
    from rfda_teach.count import Tally
    sys_ = models.random_tree(10, kind="spatial", seed=1)
    n = sys_.n_dof
    assert js.count_multiplications(sys_, "cholesky") == n * (n - 1) * (n + 1) // 6 + n * (n - 1) // 2 + n * n
    steps = js.count_multiplications(sys_, "joint_space_fd", by_step=True)
    assert sum(steps.values()) == js.count_multiplications(sys_, "joint_space_fd")
    assert set(steps) == {"appendix A", "rnea forward", "rnea backward", "crba composite", "crba blocks",
                          "cholesky"}
    t = Tally()                                        # counting without factoring = counting while solving
    js._solve(sys_, terms(sys_, models.random_state(sys_, seed=2)), "test", t)
    assert t.total == js.count_multiplications(sys_, "joint_space_fd")
    both = js.count_multiplications(sys_, ("lubich", "featherstone"), by_step=True)
    assert sum(both["lubich"].values()) == js.count_multiplications(sys_, "lubich")
    st = models.random_state(sys_, seed=9)             # counts do not depend on the state's values
    for m in js.METHODS:
        assert js.count_multiplications(sys_, m, state=st) == js.count_multiplications(sys_, m)


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("call, word", [
    (lambda s: js.rnea("arm", [0, 0], [0, 0], [0, 0]), "system"),
    (lambda s: js.rnea(s, [0, 0, 0], [0, 0], [0, 0]), "q"),
    (lambda s: js.rnea(s, [0, np.nan], [0, 0], [0, 0]), "q[1]"),
    (lambda s: js.rnea(s, [0, 0], [0, 0, 0], [0, 0]), "qd"),
    (lambda s: js.rnea(s, [0, 0], [0, 0], None), "qdd"),
    (lambda s: js.rnea(s, [0, 0], [0, 0], "ab"), "qdd"),
    (lambda s: js.rnea(s, [[0.0], [0.0, 1.0]], [0, 0], [0, 0]), "q[1]"),
    (lambda s: js.rnea(s, [0, 0], [0, 0], [0, 0], f_ext=[1.0]), "f_ext"),
    (lambda s: js.crba(s, None), "q"),
    (lambda s: js.crba(s, "00"), "q"),
    (lambda s: js.forward_dynamics(s, [0, 0], [0, 0], [np.inf, 0]), "tau"),
    (lambda s: js.forward_dynamics(s, [0, 0], [0, 0], [[1.0, 2.0]]), "tau"),
    (lambda s: js.count_multiplications(s, "aba"), "method"),
    (lambda s: js.count_multiplications(s, ()), "method"),
    (lambda s: js.count_multiplications(s, ("crba", 3)), "method"),
    (lambda s: js.count_multiplications(s, "crba", by_step="yes"), "by_step"),
    (lambda s: js.count_multiplications(s, "crba", state=(1, 2)), "state"),
    (lambda s: js.inverse_dynamics(s, "terms", [0, 0]), "terms"),
    (lambda s: js.solve(s, None), "terms"),
    (lambda s: js.split_q(s, {"a": 1}), "q"),
])
def test_bad_inputs_raise_model_error_naming_the_argument(call, word):
    with pytest.raises(ModelError, match=word.replace("[", r"\[").replace("]", r"\]")):
        call(models.chain(2))


def test_non_unit_quaternion_refused():
    sys_ = models.random_tree(2, kind="spatial", seed=1)           # free + spherical
    q = js.neutral_q(sys_)
    q[3] = 2.0
    with pytest.raises(ModelError, match=r"q\[0\].*norm"):
        js.crba(sys_, q)


def test_indefinite_mass_matrix_is_named_not_a_linalg_error():
    from rfda_teach.count import Tally
    for t in (Tally(), None):
        with pytest.raises(IllConditionedError, match="M_q"):
            js._cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]), np.zeros(2), t, "jointspace.forward_dynamics")


def test_benchmark_script_runs(capsys):
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "jointspace.py"
    spec = importlib.util.spec_from_file_location("bench_jointspace", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--max-n", "4", "--min-time", "0"]) == 0
    out = capsys.readouterr().out
    assert "crossover" in out and "joint_space" in out


def test_a_result_prints_one_line_of_sizes():
    sys_ = models.random_tree(4, kind="spatial", seed=0)
    res = js.solve(sys_, terms(sys_, models.random_state(sys_, seed=0)))
    line = repr(res)
    assert "\n" not in line and len(line) < 200
    n = sys_.n_dof
    assert line == f"JointSpaceResult: {n} DOF, qdd ({n},), M_q {n} x {n}, C ({n},)"
    qdd, M, C = res                                   # still a tuple
    assert M.shape == (n, n)


def test_universal_joints_crba_cholesky_agrees_with_rfda_and_dae():
    u = models.universal_chain(5, seed=3)
    sys_ = System((-1, 0, 1, 1, 3), u.bodies, u.joints, u.gravity, name="universal tree")
    for seed in range(3):
        q, qd, tau, st = joint_state(sys_, seed, speed=2.0)
        qdd = js.forward_dynamics(sys_, q, qd, tau)
        for form in rfda.FORMS:
            assert rel(qdd, rfda.forward_dynamics(sys_, st, form=form, tau=tau).qdd) < 1e-9, form
        tr = terms(sys_, st, tau=tau)
        assert rel(qdd, rfda.joint_accelerations(sys_, tr, dae.solve(sys_, tr).ydd)) < 1e-9
        assert rel(js.rnea(sys_, q, qd, qdd), tau) < 1e-9
    assert js.neutral_q(sys_).shape == (10,) and not js.neutral_q(sys_).any()      # two angles per joint


def test_absolute_accelerations_inverts_joint_accelerations():
    """D&G eq. (61) differentiated, root to leaves: ydd from the joint accelerations of any tree."""
    for kind in ("planar", "spatial"):
        s = models.random_tree(7, kind=kind, seed=11)
        tr = terms(s, models.random_state(s, seed=12))
        res = rfda.solve(s, tr, "featherstone")
        assert rel(js.absolute_accelerations(s, tr, res.qdd), res.ydd) < 1e-12
