"""Tests of rfda_teach.compare: every formulation of the registry agrees with D&G eq. (7) on every
library mechanism it takes and on random trees; refusals; counts; the 50-digit reference; the
capstone's mechanism compare.five_bar_arm."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rfda_teach import compare, count, dae, jointspace, kane, loopref, loops, models, rcr, refpoint, rfda
from rfda_teach.errors import ModelError, RFDAError
from rfda_teach.system import terms

TOL = 1e-9


def _library():
    """(label, system, state) of every library mechanism."""
    out = []
    for s in (models.featherstone_sliders(), models.planar_revolute_pair(), models.figure1_tree("planar"),
              models.figure1_tree("spatial"), models.chain(4), models.chain(4, "spatial"),
              models.universal_chain(3, seed=1)):
        out.append((s.name, s, models.random_state(s, seed=3)))
    for kind in ("planar", "spatial"):
        for cut in (True, False):
            for arm in (True, False):
                s = compare.five_bar_arm(kind, cut=cut, arm=arm, mass_ratio=10.0)
                out.append((s.name, s, compare.five_bar_arm_state(s, seed=4)))
    for arm in (True, False):
        s = compare.five_bar_arm("spatial", cut=False, arm=arm, sleeve=False, mass_ratio=10.0)
        out.append((s.name, s, compare.five_bar_arm_state(s, seed=4)))
    for lm in (loops.five_bar(), loops.four_bar(), loops.loop_chain(6)):   # moving: speeds closed by RCR
        qd = rcr.dependent_velocities(lm, lm.q0, np.linspace(0.8, -0.5, lm.n))
        out.append((f"loopref {lm.name}", loopref.to_system(lm), loopref.chain_state(lm, lm.q0, qd)))
    sys8 = kane.eight_body()                                 # the eight-body tree of Kane's notes
    out.append((sys8.mechanism.name, sys8.mechanism, kane.to_absolute(sys8, sys8.x0, sys8.y0)[1]))
    car = refpoint.quarter_car()                             # cuts, spring-damper, tyre, gravity
    qd = refpoint.consistent_velocity(car, car.q0, np.linspace(0.5, -0.4, car.nq))
    out.append((car.mechanism.name, car.mechanism, refpoint.system_state(car, car.q0, qd)))
    return out


LIBRARY = _library()


@pytest.mark.parametrize("label,system,state", LIBRARY, ids=[x[0] for x in LIBRARY])
def test_every_formulation_agrees_with_eq7_on_the_library(label, system, state):
    """Every formulation that takes the mechanism gives D&G eq. (7)'s ydd to 1e-9 relative; the views of
    the other papers refuse what they cannot take with an RFDAError (compare.run lists them as refused)."""
    c = compare.run(system, state)
    assert c.names[0] == "eq7" and set(c.names) | set(c.refused) == set(compare.FORMULATIONS)
    assert max(c.difference) < TOL, dict(zip(c.names, c.difference))
    for n in c.names:                      # the registry's own call gives the same numbers
        assert np.array_equal(compare.accelerations(n, system, state), c.ydd[c.names.index(n)]), n


def test_the_closed_mechanism_moves_at_a_random_speed():
    """five_bar_arm_state's velocities are not zero and close the loop; the open tree is the same state."""
    closed, open_ = compare.five_bar_arm(), compare.five_bar_arm(cut=False)
    a, b = compare.five_bar_arm_state(closed, seed=5), compare.five_bar_arm_state(open_, seed=5)
    assert np.abs(a.yd).max() > 0.1
    assert np.array_equal(a.y, b.y) and np.array_equal(a.yd, b.yd)
    # the closed and the open mechanism accelerate differently: the cut's rows act
    assert compare.relative_difference(dae.forward_dynamics(closed, a).ydd, dae.forward_dynamics(open_, b).ydd) > 0.1


def test_planar_and_spatial_five_bar_arm_agree():
    """The spatial mechanism with parallel z axes moves as the planar one: the same joint accelerations."""
    for cut in (True, False):
        qdd = []
        for kind in ("planar", "spatial"):
            s = compare.five_bar_arm(kind, cut=cut)
            state = compare.five_bar_arm_state(s, seed=6)
            qdd.append(rfda.joint_accelerations(s, terms(s, state), dae.forward_dynamics(s, state).ydd))
        assert compare.relative_difference(qdd[1], qdd[0]) < 1e-12


def test_five_bar_alone_is_loopref_system():
    """arm=False, cut=True, planar is loopref.to_system(loops.five_bar()): the same eq. (7)."""
    a, b = compare.five_bar_arm(arm=False), loopref.to_system(loops.five_bar())
    fb = loops.five_bar()
    state = loopref.chain_state(fb, fb.q0, np.zeros(5))
    Ka, ra = dae.assemble(a, state)
    Kb, rb = dae.assemble(b, state)
    assert np.array_equal(Ka, Kb) and np.array_equal(ra, rb)


@settings(max_examples=8, deadline=None)
@given(n=st.integers(1, 6), kind=st.sampled_from(["planar", "spatial"]), seed=st.integers(0, 10_000))
def test_every_formulation_agrees_on_random_trees(n, kind, seed):
    s = models.random_tree(n, kind=kind, seed=seed)
    state = models.random_state(s, seed=seed + 1)
    c = compare.run(s, state)
    assert {"eq7", "lubich", "featherstone", "crba"} <= set(c.names)
    assert max(c.difference) < TOL, dict(zip(c.names, c.difference))


@settings(max_examples=6, deadline=None)
@given(kind=st.sampled_from(["planar", "spatial"]), cut=st.booleans(), ratio=st.sampled_from([1.0, 1e3, 1e6]),
       seed=st.integers(0, 10_000))
def test_every_formulation_agrees_on_random_states_of_the_five_bar_arm(kind, cut, ratio, seed):
    s = compare.five_bar_arm(kind, cut=cut, mass_ratio=ratio)
    state = compare.five_bar_arm_state(s, seed=seed, speed=2.0)
    c = compare.run(s, state)
    assert len(c.names) >= 2 and max(c.difference) < TOL, dict(zip(c.names, c.difference))


@settings(max_examples=5, deadline=None)
@given(n=st.integers(1, 6), seed=st.integers(0, 10_000))
def test_pinocchio_and_mujoco_on_random_spatial_chains(n, seed):
    """The peers on random spatial trees of revolute joints (figure1-like chains of random bars)."""
    rng = np.random.default_rng(seed)
    base = models.chain(n, "spatial")
    bodies = [models.Body("spatial", m, np.diag(rng.uniform(0.1, 0.15, 3)))
              for m in rng.uniform(0.5, 2.0, n)]
    s = models.System(base.parents, bodies, base.joints, base.gravity, name="random chain")
    state = models.random_state(s, seed=seed)
    ref = dae.forward_dynamics(s, state).ydd
    for name in ("pinocchio", "mujoco", "crba"):
        assert compare.relative_difference(compare.accelerations(name, s, state), ref) < TOL, name


def test_refusals_are_rfda_errors():
    closed, open_ = compare.five_bar_arm(), compare.five_bar_arm(cut=False)
    state = compare.five_bar_arm_state(closed, seed=0)
    for name in ("lubich", "featherstone", "crba", "pinocchio", "mujoco"):
        with pytest.raises(RFDAError, match="needs a tree"):
            compare.accelerations(name, closed, state)
    with pytest.raises(ModelError, match="needs cut joints"):
        compare.accelerations("multipliers", open_, compare.five_bar_arm_state(open_, seed=0))
    with pytest.raises(ModelError, match="spatial bodies"):
        compare.accelerations("pinocchio", open_, compare.five_bar_arm_state(open_, seed=0))
    assert compare.applicable(closed) == [n for n in compare.FORMULATIONS if not compare.refusal(n, closed)]


def test_a_spatial_prismatic_cut_of_the_planar_loop_is_refused():
    """Why the spatial five-bar's cut has two rows: a spatial prismatic cut repeats three rows."""
    from rfda_teach.joints import Joint
    from rfda_teach.system import Cut, System
    s = compare.five_bar_arm("spatial")
    c = s.cuts[0].joint
    x_to_z = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])     # slide along the guide
    full = Joint("prismatic", parent_point=c.parent_point, child_point=c.child_point,
                 parent_frame=c.parent_frame @ x_to_z, child_frame=c.child_frame @ x_to_z)
    bad = System(s.parents, s.bodies, s.joints, s.gravity, name="redundant", cuts=(Cut(3, -1, full),))
    with pytest.raises(RFDAError, match="rank"):
        dae.forward_dynamics(bad, compare.five_bar_arm_state(s, seed=0))


def test_counts():
    """Counted multiplications: the RFDA forms and CRBA as jointspace counts them; the multiplier technique
    (m + 1) Featherstone solves plus C Y, C a_0, the m x m Cholesky and solve, Y mu."""
    open_ = compare.five_bar_arm(cut=False)
    state = compare.five_bar_arm_state(open_, seed=0)
    for name, method in (("lubich", "lubich"), ("featherstone", "featherstone"), ("crba", "joint_space_fd")):
        assert compare.count_multiplications(name, open_, state) == \
            jointspace.count_multiplications(open_, method)
    assert compare.count_multiplications("eq7", open_) is None
    closed = compare.five_bar_arm()
    cstate = compare.five_bar_arm_state(closed, seed=0)
    m, N = closed.n_cut_constraints, closed.n_vel
    tree = jointspace.count_multiplications(open_, "featherstone", state=state)
    expect = (m + 1) * tree + m * N * m + count.cholesky_count(m) + m * m + m * N + N * m
    assert compare.count_multiplications("multipliers", closed, cstate) == expect


def test_run_table():
    closed = compare.five_bar_arm()
    c = compare.run(closed, compare.five_bar_arm_state(closed, seed=1))
    assert c.names[0] == "eq7" and c.difference[0] == 0.0
    assert "lubich" in c.refused and "needs a tree" in c.refused["lubich"]
    assert "<table>" in c._repr_html_() and "multipliers" in repr(c)


def test_joint_coordinates_round_trip():
    for kind in ("planar", "spatial"):
        s = compare.five_bar_arm(kind, cut=False)
        q = [np.array([v]) for v in (0.3, -0.2, 1.0, 0.1, 2.0, -3.0)]
        qd = [np.array([v]) for v in (1.0, 0.5, -0.5, 0.2, 0.0, 3.0)]
        a, b = compare.joint_coordinates(s, models.state_from_joints(s, q, qd))
        assert np.allclose(a, np.concatenate(q), atol=1e-12) and np.allclose(b, np.concatenate(qd), atol=1e-12)


def test_mpmath_reference_agrees_with_numpy_at_mass_ratio_one():
    for cut in (True, False):
        s = compare.five_bar_arm("planar", cut=cut)
        state = compare.five_bar_arm_state(s, seed=0)
        ref = compare.reference_accelerations(s, state)
        K, rhs = dae.assemble(s, state)
        assert compare.relative_difference(np.linalg.solve(K, rhs)[:s.n_vel], ref) < 1e-13


def test_mass_ratio_sweep_lubich_loses_digits_featherstone_does_not():
    r = compare.mass_ratio_sweep((1.0, 1e8), kinds=("planar",), names=("eq7", "lubich", "featherstone",
                                                                      "multipliers"))
    assert r.variant == {"eq7": "planar closed", "lubich": "planar open", "featherstone": "planar open",
                         "multipliers": "planar closed"}
    assert r.errors["lubich"][0] < 1e-13 and r.errors["lubich"][1] > 1e-10
    for n in ("eq7", "featherstone", "multipliers"):
        assert max(r.errors[n]) < 1e-13, n


def test_the_views_of_the_other_papers_are_registered():
    """Kane's view on the open trees (planar and spatial), RCR with ACS and GCL on the loop alone, with
    RCR's own counted multiplications; RCR refuses the arm, which is not on the loop."""
    for kind in ("planar", "spatial"):
        s = compare.five_bar_arm(kind, cut=False)
        assert "kane" in compare.run(s, compare.five_bar_arm_state(s, seed=3)).names
    loop = compare.five_bar_arm(arm=False)
    c = compare.run(loop, compare.five_bar_arm_state(loop, seed=3))
    counts = dict(zip(c.names, c.counts))
    assert counts["rcr gcl"] < counts["multipliers"] < counts["rcr acs"]
    closed = compare.five_bar_arm()
    refused = compare.run(closed, compare.five_bar_arm_state(closed, seed=3)).refused
    assert "not on the loop" in refused["rcr acs"]
    rev = compare.five_bar_arm("spatial", cut=False, sleeve=False)       # K&Y: rotations about joint points
    c = compare.run(rev, compare.five_bar_arm_state(rev, seed=3))
    counts = dict(zip(c.names, c.counts))
    assert counts["refpoint origin"] < counts["refpoint joint"] < counts["refpoint centroid"]
    sp = compare.five_bar_arm("spatial", cut=False)
    assert "prismatic" in compare.run(sp, compare.five_bar_arm_state(sp, seed=3)).refused["refpoint joint"]


def test_five_bar_arm_variants():
    """The capstone's mechanism: the five-bar of C&A §6 (loopref.to_system's bodies, joints and cut)
    with a two-link arm on bar 2; planar or spatial, closed or open, light first arm link."""
    from rfda_teach import loopref, loops
    s = compare.five_bar_arm()
    fb = loopref.to_system(loops.five_bar())
    assert s.parents == (-1, 0, 1, 2, 1, 4) and s.n_dof - s.n_cut_constraints == 4
    assert [b.mass for b in compare.five_bar_arm(mass_ratio=1e3).bodies] == [1, 1, 1, 1, 1e-3, 1]
    bare = compare.five_bar_arm(arm=False)
    assert bare.parents == fb.parents and bare.cuts[0].joint.type == fb.cuts[0].joint.type
    assert np.allclose(bare.cuts[0].joint.child_point, fb.cuts[0].joint.child_point)
    sp = compare.five_bar_arm("spatial")
    assert sp.kind == "spatial" and sp.cuts[0].joint.type == "custom" and sp.cuts[0].joint.n_constraints == 2
    assert not compare.five_bar_arm(cut=False).cuts
    rev = compare.five_bar_arm("spatial", cut=False, sleeve=False)
    assert rev.n == 5 and {jt.type for jt in rev.joints} == {"revolute"} and rev.parents == (-1, 0, 1, 1, 3)
    with pytest.raises(ModelError, match="sleeve"):
        compare.five_bar_arm(sleeve=False)
    with pytest.raises(ModelError, match="mass_ratio"):
        compare.five_bar_arm(mass_ratio=-1.0)
