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
