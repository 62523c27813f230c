"""Tests for rfda_teach.loops: the closed-loop mechanism record (joints, loops, series), its builders,
the loop closure and its Jacobian, and the checks of a state; rcr re-exports all of it unchanged."""

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from rfda_teach import loops, rcr
from rfda_teach.bodies import Body
from rfda_teach.errors import ConstraintViolationError, ModelError

BUILDERS = {"five-bar": loops.five_bar, "four-bar": loops.four_bar,
            "four-bar at 40 deg": lambda: loops.four_bar(crank_angle=40.0),
            **{f"{n}-bar loop": (lambda n=n: loops.loop_chain(n, seed=n)) for n in (4, 5, 9)}}


def test_rcr_re_exports_the_record_unchanged():
    """rcr.five_bar(), rcr.LoopMechanism, ... (the book's and the tests' names) are the objects of loops."""
    moved = ["LoopJoint", "LoopMechanism", "LoopSeries", "five_bar", "four_bar", "loop_chain", "loop_series",
             "closure", "closure_jacobian", "check_state", "check_series_states", "CLOSURE_TOL"]
    for name in moved:
        assert getattr(rcr, name) is getattr(loops, name), name
    assert set(moved) - {"CLOSURE_TOL"} <= set(rcr.__all__)
    assert rcr.CLOSURE_TOL == 1e-6


def test_loops_imports_neither_rcr_nor_loopref():
    """The record is what rcr and loopref share: it imports neither (rcr -> loopref -> loops, one way)."""
    tree = ast.parse((Path(loops.__file__)).read_text())
    imported = {a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for a in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {"rcr", "loopref"}


@pytest.mark.parametrize("name", BUILDERS)
def test_every_builder_closes_its_loop_at_q0(name):
    model = BUILDERS[name]()
    assert np.abs(loops.closure(model, model.q0)).max() < 1e-12
    loops.check_state(model, model.q0, np.zeros(model.n))
    assert model.m == 3 and len(model.bodies) == model.n - 1 and len(model.dependents) == 3


@pytest.mark.parametrize("name", BUILDERS)
def test_closure_jacobian_is_the_derivative_of_the_closure(name):
    """Central differences of the closure residual (eq. 23) against its Jacobian (eq. 26, 31)."""
    model = BUILDERS[name]()
    rng = np.random.default_rng(1)
    q = model.q0 + rng.uniform(-0.3, 0.3, model.n)                # any configuration: the loop need not close
    Jc = loops.closure_jacobian(model, q)
    h = 1e-6
    for k in range(model.n):
        dq = np.zeros(model.n)
        dq[k] = h
        fd = (loops.closure(model, q + dq) - loops.closure(model, q - dq)) / (2 * h)
        assert np.allclose(Jc[:, k], fd, atol=1e-8), (k, Jc[:, k], fd)


@pytest.mark.parametrize("name", BUILDERS)
def test_closure_jacobian_columns_are_the_phantoms_partial_velocities_of_rcr(name):
    """Column k is a_k = (^kS^n)^T P_k^k: the same numbers as rcr's tree kinematics (eq. 1-4) shifted
    to the phantom, computed here from the joint frames alone."""
    # C&A eq. (5): the partial velocity of the phantom is (^kS^n)^T P_k^k for every joint k inboard of it
    model = BUILDERS[name]()
    q = model.q0 + 0.1
    topo = rcr.topology(model, "acs")
    kin = rcr._kinematics(model, topo, q, np.zeros(model.n))
    xn = kin.x[-1]
    a = np.column_stack([rcr.shift_T(xn - kin.x[i]) @ kin.P[i] for i in range(model.n)])
    assert np.allclose(loops.closure_jacobian(model, q), a, rtol=1e-13, atol=1e-13)
    assert np.allclose(loops.closure(model, q), rcr.body_poses(model, q)[-1][[2, 0, 1]], atol=1e-13)


def test_a_joint_transform_and_its_reverse_are_inverse():
    jt = loops.five_bar().joints[1]
    for q in (-2.0, 0.0, 0.7):
        assert np.allclose(jt.transform(q) @ jt.transform(q, -1.0), np.eye(3), atol=1e-14)
    assert np.array_equal(jt.joint_frame()[:2, 2], jt.parent_point)
    assert np.array_equal(jt.joint_frame(-1.0)[:2, 2], jt.child_point)
    with pytest.raises(ValueError):
        jt.joint_frame()[0, 0] = 2.0                                # the cached frames are read-only
    for bad, match in ((np.nan, "q is nan"), ("0.1", "q must be a real number")):
        with pytest.raises(ModelError, match=match):
            jt.transform(bad)
    for sign in (0.0, 2.0, "x"):
        with pytest.raises(ModelError, match="sign"):
            jt.transform(0.1, sign)
        with pytest.raises(ModelError, match="sign"):
            jt.joint_frame(sign)


def test_a_state_is_checked_by_closure_and_speeds():
    fb = loops.five_bar()
    q, qd = loops.check_state(fb, fb.q0, np.zeros(5))
    assert np.array_equal(q, fb.q0) and qd.shape == (5,)
    with pytest.raises(ConstraintViolationError, match=r"loops.check_state: q does not close.*solve_dependents"):
        loops.check_state(fb, fb.q0 + 0.1, np.zeros(5))
    with pytest.raises(ConstraintViolationError, match="velocity constraint.*dependent_velocities"):
        loops.check_state(fb, fb.q0, np.ones(5), where="my_fn")
    assert loops.check_state(fb, fb.q0, np.ones(5), check=False)[1].shape == (5,)
    assert np.array_equal(loops.check_closed(fb, fb.q0), fb.q0)    # positions only
    with pytest.raises(ConstraintViolationError, match="my_fn: q does not close"):
        loops.check_closed(fb, fb.q0 + 0.1, where="my_fn")
    assert loops.check_closed(fb, fb.q0 + 0.1, check=False).shape == (5,)
    with pytest.raises(ModelError, match="qd must be an array"):
        loops.check_state(fb, fb.q0, None)                         # a state has speeds
    tol = loops.CLOSURE_TOL
    q = fb.q0.copy()
    q[3] += 0.5 * tol                                              # slides along the guide: residual 0.5 tol
    loops.check_closed(fb, q)
    q[3] += tol
    with pytest.raises(ConstraintViolationError):
        loops.check_closed(fb, q)


def test_series_states_are_checked_loop_by_loop():
    s = loops.loop_series(2)
    qs = [L.q0 for L in s.loops]
    out, outd = loops.check_series_states(s, qs, [np.zeros(4)] * 2)
    assert len(out) == len(outd) == 2
    with pytest.raises(ConstraintViolationError, match=r"\(loop 1\).*does not close"):
        loops.check_series_states(s, [qs[0], qs[1] + 0.1], [np.zeros(4)] * 2)
    assert len(loops.check_series_states(s, [qs[0], qs[1] + 0.1], None, check=None)[0]) == 2
    with pytest.raises(ModelError, match="one q and one qd"):
        loops.check_series_states(s, qs[:1], [np.zeros(4)])


def test_dependent_sets_by_name_or_number():
    fb = loops.five_bar()
    assert loops.dependent_indices(fb, ("q2", "q3", "q5")) == (1, 2, 4)
    assert loops.dependent_indices(fb, [5, "q2", np.int64(3)]) == (1, 2, 4)
    assert loops.dependent_indices(fb, ()) == ()
    for bad, match in (("q2", "tuple of coordinate names"), (("q2", "q9"), "unknown coordinate 'q9'"),
                       ((0,), "out of range"), (("q2", 2), "repeats"), ((True,), "neither")):
        with pytest.raises(ModelError, match=match):
            loops.dependent_indices(fb, bad, where="here")


def test_the_input_checks_name_what_they_refuse():
    fb = loops.five_bar()
    assert loops.check_model(fb) is fb
    with pytest.raises(ModelError, match="f: model must be a LoopMechanism, got LoopSeries"):
        loops.check_model(loops.loop_series(1), where="f")
    assert loops.check_q(fb, [1, 2, 3, 4, 5]).dtype == float
    with pytest.raises(ModelError, match=r"qd\[2\] is inf"):
        loops.check_q(fb, [0, 0, np.inf, 0, 0], "qd")
    rod = Body("planar", 1.0, 0.1)
    assert loops.check_body(rod) is rod
    with pytest.raises(ModelError, match=r"g: bodies\[1\] is a 'spatial' body"):
        loops.check_body(Body("spatial", 1.0, np.eye(3)), "bodies[1]", where="g")
    with pytest.raises(ModelError, match="revolute"):
        loops.LoopJoint("spherical")
    with pytest.raises(ModelError):
        loops.loop_chain(3)


def test_series_input_errors():
    L = loops.four_bar()
    with pytest.raises(ModelError, match="attachments"):
        loops.LoopSeries((L, L), ())
    with pytest.raises(ModelError, match="earlier loop"):
        loops.LoopSeries((L, L), ((1, 2),))
    with pytest.raises(ModelError, match="no body"):
        loops.LoopSeries((L, L), ((0, 7),))
    with pytest.raises(ModelError):
        loops.loop_series(0)


def test_a_loop_shows_a_table_of_its_joints_in_loop_order():
    """summary.html_table: the repr line, then one row per joint (kind, bodies, q0, dependent); names escaped."""
    fb = loops.five_bar()
    table = fb._repr_html_()
    assert table.count("<tr>") == 1 + fb.n and repr(fb).replace("'", "&#x27;") in table
    assert table.count("<td>dependent</td>") == fb.m
    assert "<td>1</td><td>q1</td><td>revolute</td><td>ground – bar 1</td>" in table
    bodies = (dataclasses.replace(fb.bodies[0], name="<crank & co>"),) + fb.bodies[1:]
    odd = dataclasses.replace(fb, name="<5>", bodies=bodies)
    table = odd._repr_html_()
    assert "<crank" not in table and "<5>" not in table and "ground – &lt;crank &amp; co&gt;" in table


def test_a_series_shows_a_table_of_its_loops():
    series = loops.loop_series(3)
    table = series._repr_html_()
    assert table.count("<tr>") == 1 + len(series.loops) and repr(series).replace("'", "&#x27;") in table
    assert "<td>2</td><td>four-bar</td><td>4</td><td>q1, q3, q4</td><td>body 2 (coupler) of loop 1</td>" in table
    odd = dataclasses.replace(series, name="a<b", loops=(dataclasses.replace(series.loops[0], name="x&y"),)
                              + series.loops[1:])
    table = odd._repr_html_()
    assert "a&lt;b" in table and "<td>x&amp;y</td>" in table and "a<b" not in table


# ----------------------------------------------------------------------------- the record as a view of the one model

def _legacy_five_bar():
    """The five-bar as it was written by hand before it was built from the one model (for comparison)."""
    from rfda_teach.spatial import G0
    q0 = np.array([np.pi / 4, np.pi / 2, -np.pi / 2, 0.0, 0.0])
    joints = [loops.LoopJoint("revolute", (0.0, 0.0), (-0.5, 0.0), 0.0, 0.0, "q1"),
              loops.LoopJoint("revolute", (0.5, 0.0), (-0.5, 0.0), np.deg2rad(-195.0), 0.0, "q2"),
              loops.LoopJoint("revolute", (0.5, 0.0), (-0.5, 0.0), np.deg2rad(150.0), 0.0, "q3"),
              loops.LoopJoint("prismatic", (0.0, 0.0), (-0.5, 0.0), 0.0, 0.0, "q4"),
              loops.LoopJoint("prismatic", (0.0, 0.0), (0.0, 0.0), 0.0, 0.0, "q5")]
    T = np.eye(3)
    for jt, qk in zip(joints[:-1], q0):
        T = T @ jt.transform(qk)
    Tj = T @ joints[-1].joint_frame()                          # q5 = 0: the guide through the sleeve
    joints[-1] = loops.LoopJoint("prismatic", (0.0, 0.0), Tj[:2, 2], 0.0, np.arctan2(Tj[1, 0], Tj[0, 0]), "q5")
    bodies = tuple(Body("planar", 1.0, 1.0 / 12.0, name=f"bar {k}") for k in range(1, 5))
    return loops.LoopMechanism("five-bar", bodies, tuple(joints), q0, ("q2", "q3", "q5"), split=1,
                               gravity=(0.0, -G0))


def _same_record(a, b, tol=1e-12):
    """Field by field: names, bodies (mass, inertia), joints (kind, points, angles mod 2 pi), q0, dependents."""
    assert (a.name, a.n, a.m, a.names, a.dependents, a.split) == (b.name, b.n, b.m, b.names, b.dependents, b.split)
    assert np.array_equal(a.gravity, b.gravity) and np.abs(a.q0 - b.q0).max() <= tol
    for x, y in zip(a.bodies, b.bodies):
        assert (x.name, x.kind, x.mass) == (y.name, y.kind, y.mass) and np.array_equal(x.J, y.J)
    for x, y in zip(a.joints, b.joints):
        assert (x.kind, x.name) == (y.kind, y.name)
        assert np.abs(x.parent_point - y.parent_point).max() <= tol
        assert np.abs(x.child_point - y.child_point).max() <= tol
        for u, v in ((x.parent_angle, y.parent_angle), (x.child_angle, y.child_angle)):
            assert abs((u - v + np.pi) % (2 * np.pi) - np.pi) <= tol


def test_five_bar_built_from_the_one_model_equals_the_hand_written_record():
    """Issue 22, step 3: rcr.five_bar() is from_system of its System; the record and its trajectories are
    those of the record written by hand (to 1e-12; the one difference is q2's joint angle, -195 deg before,
    165 deg read back from the System's rotation matrix, and rounding of the guide's placement)."""
    old, new = _legacy_five_bar(), rcr.five_bar()
    _same_record(old, new)
    assert isinstance(new.mechanism, loops.System) and old.mechanism is None
    for method in ("acs", "gcl", "dae"):
        a, b = rcr.simulate(old, method, 0.2, n_out=3), rcr.simulate(new, method, 0.2, n_out=3)
        assert np.abs(a.q - b.q).max() <= 1e-12 * np.abs(a.q).max(), method
        assert np.abs(a.qd - b.qd).max() <= 1e-12 * np.abs(a.qd).max(), method
    assert abs(rcr.energy(old, old.q0, np.zeros(5)) - rcr.energy(new, new.q0, np.zeros(5))) < 1e-12
    with pytest.raises(rcr.SingularCoordinateSelectionError):
        rcr.simulate(new, "rcr", 0.1)


@pytest.mark.parametrize("name", ["five-bar", "four-bar", "4-bar loop", "9-bar loop"])
def test_from_system_inverts_to_system(name):
    """from_system(loopref.to_system(m)) is m: the same bodies (the same objects), joints and geometry."""
    from rfda_teach import loopref
    m = BUILDERS[name]()
    back = loops.from_system(loopref.to_system(m), q0=m.q0, dependents=m.dependents)
    _same_record(m, back, tol=0.0)
    assert all(x is y for x, y in zip(m.bodies, back.bodies))
    q, qd = loops.state_from_system(m, loopref.chain_state(m, m.q0, np.zeros(m.n)))
    assert np.abs(q - m.q0).max() < 1e-12 and np.abs(qd).max() < 1e-12
    byst = loops.from_system(m.mechanism, state=loopref.chain_state(m, m.q0, np.zeros(m.n)))
    assert np.abs(byst.q0 - m.q0).max() < 1e-12 and (m.n - 1) in loops.dependent_indices(byst, byst.dependents)


def _reversed(jt):
    """The same joint with parent and child swapped (its coordinate changes sign)."""
    return loops.Joint(jt.type, parent_point=jt.child_point, child_point=jt.parent_point,
                       parent_frame=jt.child_frame, child_frame=jt.parent_frame, name=jt.name)


def _two_chains(m):
    """m's System re-rooted as two chains from the ground (bars 1-2 on q1, q2; bar 4 on q5, bar 3 on q4, both
    reversed), closed by q3 as the cut; and its state map from loop coordinates."""
    sx = m.mechanism
    J = sx.joints + (sx.cuts[0].joint,)
    system = loops.System((-1, 0, -1, 2), (sx.bodies[0], sx.bodies[1], sx.bodies[3], sx.bodies[2]),
                          (J[0], J[1], _reversed(J[4]), _reversed(J[3])), sx.gravity, name="two chains",
                          cuts=(loops.Cut(1, 3, J[2], name="q3"),))
    return system, lambda q, qd: __import__("rfda_teach.models", fromlist=["x"]).state_from_joints(
        system, [q[0:1], q[1:2], -q[4:5], -q[3:4]], [qd[0:1], qd[1:2], -qd[4:5], -qd[3:4]])


def test_from_system_reads_two_chains_and_a_reversed_cut():
    """The rule: out along the chain of the cut's parent, through the cut, back along the child's chain; and a cut
    whose parent is the ground is walked backwards.  Both give the five-bar's record again."""
    fb = rcr.five_bar()
    system, state = _two_chains(fb)
    _same_record(fb, loops.from_system(system, q0=fb.q0, dependents=fb.dependents, name="five-bar"), tol=1e-15)
    sx = fb.mechanism
    c = sx.cuts[0]
    flipped = loops.System(sx.parents, sx.bodies, sx.joints, sx.gravity, name="five-bar",
                           cuts=(loops.Cut(-1, c.parent, _reversed(c.joint), name="q5"),))
    _same_record(fb, loops.from_system(flipped, q0=fb.q0, dependents=fb.dependents), tol=1e-15)


def _cases():
    """(system, state) of the library loops at a random consistent state, and of the two-chain five-bar."""
    from rfda_teach import loopref
    rng = np.random.default_rng(3)
    out = []
    for name in ("five-bar", "four-bar", "4-bar loop", "6-bar loop"):
        m = BUILDERS[name]() if name in BUILDERS else loops.loop_chain(6)
        q = rcr.solve_dependents(m, m.q0 + 0.05 * rng.standard_normal(m.n))
        qd = rcr.dependent_velocities(m, q, rng.standard_normal(m.n))
        out.append((name, m.mechanism, loopref.chain_state(m, q, qd)))
        if name == "five-bar":
            system, state = _two_chains(m)
            out.append(("five-bar, two chains", system, state(q, qd)))
    return out


@pytest.mark.parametrize("method", ["acs", "gcl", "rcr"])
def test_system_accelerations_equal_the_dense_dae(method):
    """rcr.system_accelerations (RCR / ACS / GCL mapped back to ydd) == dae.forward_dynamics(...).ydd to 1e-9
    relative; "rcr" only where its last-three selection is regular (not the five-bar: q3-q5)."""
    from rfda_teach import dae
    worst = 0.0
    for name, system, state in _cases():
        ref = dae.forward_dynamics(system, state).ydd
        if method == "rcr" and name.startswith("five-bar"):
            with pytest.raises(rcr.SingularCoordinateSelectionError):
                rcr.system_accelerations(system, state, method="rcr")
            continue
        got = rcr.system_accelerations(system, state, method=method)
        worst = max(worst, np.abs(got - ref).max() / np.abs(ref).max())
    assert worst < 1e-9, worst


def test_loop_part_removes_an_arm_and_from_system_refuses_what_rcr_cannot_take():
    """A five-bar carrying a two-link arm: refused as it is (bodies off the loop), its loop_part is the five-bar;
    a tree, two loops, a universal joint and force elements are refused with a pointer to dae.forward_dynamics."""
    from rfda_teach import dae, loopref, models
    from rfda_teach.forces import SpringDamper
    fb = rcr.five_bar()
    sx = fb.mechanism
    link = loops.Joint("revolute2d", parent_point=(0.5, 0.0), child_point=(-0.5, 0.0))
    rod = Body("planar", 2.0, 0.2, name="arm")
    big = loops.System(sx.parents + (1, 4), sx.bodies + (rod, rod), sx.joints + (link, link), sx.gravity,
                       name="five-bar with an arm", cuts=sx.cuts)
    with pytest.raises(ModelError, match=r"bodies \[4, 5\] that are not on the loop.*loop_part.*dae.forward_dynamics"):
        loops.from_system(big)
    st = models.state_from_joints(big, [np.array([v]) for v in fb.q0[:4]] + [np.array([0.3]), np.array([-0.2])],
                                  [np.zeros(1)] * 6)
    part = loops.loop_part(big, st)
    assert part.bodies == (0, 1, 2, 3)
    assert np.allclose(part.state.y, loopref.chain_state(fb, fb.q0, np.zeros(5)).y, rtol=0, atol=1e-14)
    _same_record(fb, loops.from_system(part.system, q0=fb.q0, dependents=fb.dependents, name="five-bar"))
    assert np.allclose(rcr.system_accelerations(part.system, part.state),
                       dae.forward_dynamics(part.system, part.state).ydd, rtol=1e-9, atol=1e-12)
    refused = {
        "no cut joint": models.chain(4),
        "q5. whose loop is based on the ground": loops.System(sx.parents, sx.bodies, sx.joints, sx.gravity,
                                                             cuts=sx.cuts * 2),
        "body 1 on two loops": loops.System(sx.parents, sx.bodies, sx.joints, sx.gravity,
                                            cuts=(sx.cuts[0], loops.Cut(3, 0, sx.joints[2]))),
        "universal": models.universal_chain(3),
        "force element": loops.System(sx.parents, sx.bodies, sx.joints, sx.gravity, cuts=sx.cuts,
                                      forces=(SpringDamper(0, -1, k=1.0),)),
        "based on a moving body": loops.System(sx.parents, sx.bodies, sx.joints, sx.gravity,
                                               cuts=(loops.Cut(3, 0, sx.cuts[0].joint),)),
        "loop of 3 joints": loops.System(sx.parents[:2], sx.bodies[:2], sx.joints[:2], sx.gravity,
                                         cuts=(loops.Cut(1, -1, sx.joints[1]),)),
    }
    for what, system in refused.items():
        with pytest.raises(ModelError, match=f"{what}.*RCR/ACS/GCL.*dae.forward_dynamics"):
            loops.from_system(system)
    with pytest.raises(ModelError, match="has no .mechanism"):
        loops.state_from_system(_legacy_five_bar(), loopref.chain_state(fb, fb.q0, np.zeros(5)))


def _legacy_series(k):
    """loop_series(k) as it was before it was built from the one model: k hand-assembled four-bar records."""
    fb = loops.four_bar()
    legacy = loops.LoopMechanism(fb.name, fb.bodies, fb.joints, fb.q0, fb.dependents)   # no .mechanism
    return loops.LoopSeries((legacy,) * k, tuple((j - 1, 2) for j in range(1, k)), name=f"{k} coupled four-bars")


def test_loop_series_is_a_view_of_one_system():
    """loop_series(k) is from_system of one System with k cut joints: the same loops as the hand-assembled
    series, the same accelerations (C&A eq. (47)-(64)), its System that of loopref.to_system, and
    rcr.system_accelerations of it equals the dense DAE."""
    from rfda_teach import dae, loopref, models
    old, new = _legacy_series(3), loops.loop_series(3)
    assert new.attach == old.attach and new.name == old.name and len(new.mechanism.cuts) == 3
    for a, b in zip(old.loops, new.loops):
        _same_record(a, b, tol=0.0)
    rng = np.random.default_rng(5)
    qs = [rcr.solve_dependents(L, L.q0 + 0.05 * rng.standard_normal(4)) for L in old.loops]
    qds = [rcr.dependent_velocities(L, q, rng.standard_normal(4)) for L, q in zip(old.loops, qs)]
    for a, b in zip(rcr.series_accelerations(old, qs, qds), rcr.series_accelerations(new, qs, qds)):
        assert np.array_equal(a, b)
    sx = new.mechanism
    rebuilt = loopref.to_system(new)
    assert rebuilt.parents == sx.parents and [(c.parent, c.child) for c in rebuilt.cuts] == \
        [(c.parent, c.child) for c in sx.cuts]
    state = models.state_from_joints(sx, [q[k:k + 1] for q in qs for k in range(3)],
                                     [qd[k:k + 1] for qd in qds for k in range(3)])
    q2, qd2 = loops.state_from_system(new, state)
    assert max(np.abs(a - b).max() for a, b in zip(q2 + qd2, qs + qds)) < 1e-12
    ref = dae.forward_dynamics(sx, state).ydd
    got = rcr.system_accelerations(sx, state)
    assert np.abs(got - ref).max() / np.abs(ref).max() < 1e-9
    with pytest.raises(ModelError, match="chain of 3 loops.*method 'gcl' is for a single loop"):
        rcr.system_accelerations(sx, state, method="gcl")
    with pytest.raises(ModelError, match="q0 must be a list of 3 entries"):
        loops.from_system(sx, q0=qs[0])
