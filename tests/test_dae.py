"""The dense reference, eq. (7)."""
import numpy as np
import pytest

from rfda_teach import dae, models
from rfda_teach.errors import ModelError


def test_assembled_matrix_structure_is_eq7():
    sys_ = models.figure1_tree()
    s = models.random_state(sys_, seed=0)
    res = dae.forward_dynamics(sys_, s)
    K, nv = res.K, sys_.n_vel
    assert np.allclose(K, K.T)
    assert np.allclose(res.M, np.diag(np.diag(res.M)))                   # planar bodies: diag(m, m, J)
    # row block of joint k touches only body k and its parent
    for k in range(sys_.n):
        rows = res.C[sys_.con_slices[k]]
        touched = {i for i in range(sys_.n) if np.abs(rows[:, sys_.vel_slices[i]]).max() > 0}
        assert touched <= {k, sys_.parents[k]}
    # the solution satisfies both lines of eq. (7)
    assert np.allclose(K @ np.concatenate([res.ydd, res.lam]), res.rhs)


def test_featherstone_sliders_eq13_eq14_numbers():
    sys_ = models.featherstone_sliders(m1=2.0, m2=5.0, gravity=(0.0, -10.0))
    s = models.random_state(sys_, seed=0)
    res = dae.forward_dynamics(sys_, s, f_ext=[6.0, 0.0, 1.0, 0.0])
    # (m1 + m2) xddot = fx1 + fx2 = 7; slider 2 falls freely; slider 1 held on its rail
    assert np.allclose(res.ydd, [1.0, 0.0, 1.0, -10.0])
    assert np.allclose(res.lam, [-20.0, -4.0])          # lam_1 = f_y1, lam_2 = f_x2 - m2 xddot


def test_bad_state_is_refused():
    sys_ = models.planar_revolute_pair()
    s = models.random_state(sys_, seed=0)
    y = s.y.copy()
    y[4] = np.nan
    with pytest.raises(ModelError, match=r"state.y\[4\] is nan \(body 1\)"):
        dae.forward_dynamics(sys_, (y, s.yd))
    with pytest.raises(ModelError, match=r"state.yd has shape \(5,\)"):
        dae.forward_dynamics(sys_, (s.y, s.yd[:5]))
    with pytest.raises(ModelError, match="pair"):
        dae.forward_dynamics(sys_, 3.0)


def test_duplicated_extra_row_is_named_not_solved():
    """Issue 11 item 4: a row that repeats a joint row gave 1e17 accelerations and a LinAlgWarning."""
    from rfda_teach.errors import ConstraintRankError
    sys_ = models.figure1_tree()
    s = models.random_state(sys_, seed=0)
    K, rhs = dae.assemble(sys_, s)
    nv = sys_.n_vel
    row, g = K[nv + 5:nv + 6, :nv], rhs[nv + 5:nv + 6]
    with pytest.raises(ConstraintRankError, match=r"rank 26 of 27; extra row 0 depend"):
        dae.forward_dynamics(sys_, s, extra=(row, g))
    # an independent extra row is fine
    free = np.zeros((1, nv))
    free[0, sys_.vel_slices[12].start] = 1.0
    r = dae.forward_dynamics(sys_, s, extra=(free, [0.0]))
    assert np.all(np.isfinite(r.ydd)) and abs(r.ydd[sys_.vel_slices[12].start]) < 1e-12


def test_state_off_its_joint_is_refused():
    """Issue 11 item 5: a child 0.3 m off its pin was accepted by dae and rfda."""
    from rfda_teach import rfda
    from rfda_teach.errors import ConstraintViolationError
    sys_ = models.figure1_tree()
    s = models.random_state(sys_, seed=1)
    y = s.y.copy()
    y[sys_.pos_slices[7].start] += 0.3
    for fd in (dae.forward_dynamics, lambda a, b: rfda.forward_dynamics(a, b, form="lubich"),
               lambda a, b: rfda.forward_dynamics(a, b, form="featherstone")):
        with pytest.raises(ConstraintViolationError, match=r"violates joint 7.*position residual 0.3"):
            fd(sys_, (y, s.yd))
    yd = s.yd.copy()
    yd[sys_.vel_slices[4].start] += 0.5
    with pytest.raises(ConstraintViolationError, match=r"velocities violate joint 4"):
        dae.forward_dynamics(sys_, (s.y, yd))
    assert np.all(np.isfinite(dae.forward_dynamics(sys_, (y, s.yd), check=False).ydd))  # the opt-out


def test_extreme_mass_ratio_warns_not_lies():
    """At mass ratio 1e16 eq. (7) is ill-conditioned: an RFDAWarning, the Featherstone form agrees."""
    from rfda_teach import rfda
    from rfda_teach.errors import RFDAWarning
    sys_ = _alternating_chain(1e-8)
    s = models.random_state(sys_, seed=1)
    with pytest.warns(RFDAWarning, match="ill-conditioned"):
        ref = dae.forward_dynamics(sys_, s)
    fe = rfda.forward_dynamics(sys_, s, form="featherstone")
    assert np.linalg.norm(fe.ydd - ref.ydd) < 1e-9 * np.linalg.norm(ref.ydd)


def _alternating_chain(r, kind="planar", n=6):
    from rfda_teach.bodies import Body
    from rfda_teach.system import System
    c = models.chain(n, kind)
    bodies = [Body(b.kind, m, b.inertia * m) for b, m in
              zip(c.bodies, [r if i % 2 == 0 else 1 / r for i in range(n)])]
    return System(c.parents, tuple(bodies), c.joints, c.gravity, name=f"alternating chain {r:g}")


def test_a_result_prints_one_line_of_sizes():
    sys_ = models.featherstone_sliders()
    line = repr(dae.forward_dynamics(sys_, models.random_state(sys_, seed=0)))
    assert "\n" not in line and len(line) < 200
    assert line == "DAEResult: K 6 x 6 (4 velocities + 2 constraint rows), ydd (4,), lam (2,)"


# ----------------------------------------------------------------------------- cut (loop-closing) joints

from hypothesis import given, settings, strategies as st  # noqa: E402

from rfda_teach import bodies, joints  # noqa: E402
from rfda_teach.errors import ConstraintRankError, IllConditionedError  # noqa: E402
from rfda_teach.system import Cut, System, State, terms  # noqa: E402


def _closed_by_a_random_cut(kind, n, seed):
    """A random tree, a random cut (revolute2d in the plane, spherical in space) between two random
    bodies or a body and the ground, pinned at a random point, and a state closing it: positions by
    construction, velocities projected onto the null space of every row.  The two bodies are chosen
    with at least 2 (planar) or 3 (spatial) tree joints between them where the tree has such a pair,
    so that the loop keeps its rows independent (a shorter loop has dependent rows)."""
    tree = models.random_tree(n, kind=kind, seed=seed)
    rng = np.random.default_rng(seed)
    y, yd = models.random_state(tree, seed=seed)

    def path(i):                       # body i, its ancestors, the ground
        out = [i]
        while out[-1] >= 0:
            out.append(tree.parents[out[-1]])
        return out
    pairs = [(i, k) for i in range(-1, n) for k in range(-1, n) if i != k]
    loops = [(i, k) for i, k in pairs if len(set(path(i)) ^ set(path(k))) >= (2 if kind == "planar" else 3)]
    a, b = (pairs, loops)[bool(loops)][rng.integers(len(loops or pairs))]
    p = rng.uniform(-1.0, 1.0, bodies.ndim(kind))                 # the pin, in world axes

    def local(i):
        if i < 0:
            return p
        yi = y[tree.pos_slices[i]]
        return bodies.rotation(kind, yi).T @ (p - yi[:bodies.ndim(kind)])
    joint = joints.Joint("revolute2d" if kind == "planar" else "spherical", parent_point=local(a),
                         child_point=local(b))
    closed = System(tree.parents, tree.bodies, tree.joints, tree.gravity, cuts=(Cut(a, b, joint),))
    C = np.vstack([dae.assemble(tree, (y, yd))[0][tree.n_vel:, :tree.n_vel], _hand_rows(tree, joint, a, b, y, yd)[0]])
    yd = yd - np.linalg.pinv(C) @ (C @ yd)
    return tree, closed, joint, a, b, State(y, yd)


def _hand_rows(tree, joint, a, b, y, yd):
    """The cut's rows C_x yddot = gamma_x built by hand from joints.evaluate (the old extra= path)."""
    ps, vs, kind = tree.pos_slices, tree.vel_slices, tree.kind
    ground = np.r_[np.zeros(3), 1.0, np.zeros(3)] if kind == "spatial" else np.zeros(3)
    yj, ydj = (None, None) if a < 0 else (y[ps[a]], yd[vs[a]])
    yk, ydk = (ground, np.zeros(bodies.nvel(kind))) if b < 0 else (y[ps[b]], yd[vs[b]])
    t = joints.evaluate(joint, kind, yj, ydj, yk, ydk)
    C = np.zeros((t.G.shape[0], tree.n_vel))
    if a >= 0:
        C[:, vs[a]] += t.Q
    if b >= 0:
        C[:, vs[b]] += t.G
    return C, t.gamma


@given(kind=st.sampled_from(["planar", "spatial"]), n=st.integers(2, 7), seed=st.integers(0, 10_000))
@settings(max_examples=40, deadline=None)
def test_a_cut_joint_in_the_model_gives_the_same_accelerations_as_rows_built_by_hand(kind, n, seed):
    """D&G eq. (7) with the cut joint's rows appended by dae itself (``cuts=``) equals D&G eq. (7) of the tree
    with the same rows built by hand and passed as ``extra=``: the same K, accelerations and multipliers."""
    tree, closed, joint, a, b, state = _closed_by_a_random_cut(kind, n, seed)
    extra = _hand_rows(tree, joint, a, b, *state)
    tr = terms(closed, state)                                 # checks that the state closes the cut
    C_x, g_x = dae.cut_rows(closed, tr)
    assert np.array_equal(C_x, extra[0]) and np.array_equal(g_x, extra[1])
    outcomes = []
    for call in (lambda: dae.forward_dynamics(closed, state), lambda: dae.forward_dynamics(tree, state, extra=extra)):
        try:
            outcomes.append(call())
        except (ConstraintRankError, IllConditionedError) as exc:     # a cut at a singular configuration
            outcomes.append(type(exc))
    got, ref = outcomes
    if isinstance(ref, type):
        assert got is ref
        return
    assert np.array_equal(got.K, ref.K) and np.array_equal(got.rhs, ref.rhs)
    assert np.allclose(got.ydd, ref.ydd, rtol=1e-12, atol=1e-12 * np.abs(ref.ydd).max())
    assert np.allclose(got.lam, ref.lam, rtol=1e-12, atol=1e-12 * np.abs(ref.lam).max())
    assert got.lam.shape == (closed.n_constraints + closed.n_cut_constraints,)


def test_hand_rows_and_cut_rows_combine_and_a_repeated_cut_is_named():
    tree, closed, joint, a, b, state = _closed_by_a_random_cut("planar", 4, 3)
    extra = _hand_rows(tree, joint, a, b, *state)
    with pytest.raises(ConstraintRankError, match=r"cut joint 0 \('cut .*'\) row|extra row"):
        dae.forward_dynamics(closed, state, extra=extra)           # the same rows twice
    both = System(tree.parents, tree.bodies, tree.joints, tree.gravity, cuts=closed.cuts * 2)
    with pytest.raises(ConstraintRankError, match="cut joint 1"):
        dae.forward_dynamics(both, state)
