import dataclasses

import numpy as np
import pytest

from rfda_teach import dae, jointspace, models, rfda
from rfda_teach.forces import SpringDamper
from rfda_teach.bodies import Body
from rfda_teach.errors import ModelError, TopologyError
from rfda_teach.joints import Joint
from rfda_teach.system import System, check_state, terms

from conftest import rel, sprung


def test_sizes_and_slices():
    sys_ = models.random_tree(5, "spatial", seed=0)
    assert sys_.n_pos == 35 and sys_.n_vel == 30
    assert sys_.n_constraints + sys_.n_dof == 30


def test_non_unit_euler_parameters_are_refused_with_body_named():
    sys_ = models.random_tree(3, "spatial", seed=0)
    s = models.random_state(sys_, seed=0)
    y = s.y.copy()
    y[sys_.pos_slices[2]][3:] *= 1.01
    y[sys_.pos_slices[2].start + 3:sys_.pos_slices[2].stop] *= 1.01
    with pytest.raises(ModelError, match=r"body 2: Euler parameters .* not 1"):
        check_state(sys_, (y, s.yd))


def test_cycle_in_system_is_a_topology_error():
    b = Body("planar", 1.0, 0.1)
    with pytest.raises(TopologyError, match="cycle"):
        System((-1, 2, 1), (b, b, b), (Joint("revolute2d"),) * 3)


def test_mismatched_lengths_and_gravity():
    b = Body("planar", 1.0, 0.1)
    with pytest.raises(ModelError, match="2 parents but 1 bodies"):
        System((-1, 0), (b,), (Joint("revolute2d"),) * 2)
    with pytest.raises(ModelError, match="gravity must be 2 finite numbers"):
        System((-1,), (b,), (Joint("revolute2d"),), gravity=(0, 0, -9.81))


def test_tau_enters_through_driving_rows():
    sys_ = models.planar_revolute_pair()
    s = models.random_state(sys_, seed=0)
    base = terms(sys_, s)
    t = terms(sys_, s, tau=[0, 0, 0, 2.0])
    assert np.allclose(t.f[1] - base.f[1], [0, 0, 2.0])       # torque on k
    assert np.allclose(t.f[0] - base.f[0], [0, 0, -2.0])      # reaction on j


def test_a_system_prints_one_line_and_a_table_in_a_notebook():
    """Issue 23, item 4: a newcomer's first look at a model is a summary, not every inertia."""
    from rfda_teach import models
    s = models.random_tree(5, kind="spatial", seed=1)
    line = repr(s)
    assert "\n" not in line and len(line) < 200
    assert line.startswith("System 'random spatial tree n=5 seed=1': 5 spatial bodies; joints ")
    assert f"{s.n_constraints} constraint rows, {s.n_dof} DOF" in line
    table = s._repr_html_()
    assert table.count("<tr>") == s.n + 1 and line.replace("'", "&#x27;") in table


# ----------------------------------------------------------------------------- cut (loop-closing) joints

def slider_crank(**kw):
    """Crank (body 0) and rod (body 1) from the origin, slider (body 2) on a ground rail; a cut revolute
    joint pins the rod's far end to the slider.  The state at crank angle th closes the loop."""
    from rfda_teach.system import Cut
    bodies = (Body("planar", 1.0, 1 / 12), Body("planar", 2.0, 8 / 12), Body("planar", 0.5, 0.01))
    joints = (Joint("revolute2d", child_point=[-0.5, 0.0]),
              Joint("revolute2d", parent_point=[0.5, 0.0], child_point=[-1.0, 0.0]), Joint("prismatic2d"))
    cuts = kw.pop("cuts", (Cut(1, 2, Joint("revolute2d", parent_point=[1.0, 0.0]), name="wrist pin"),))
    return System((-1, 0, -1), bodies, joints, (0.0, -9.81), name="slider-crank", cuts=cuts, **kw)


def closed_state(sys_, th=np.pi / 3, w=1.3):
    """Positions closing the slider-crank at crank angle th, crank rate w (loop velocities closed)."""
    phi = -np.arcsin(np.sin(th) / 2)
    phid = -w * np.cos(th) / (2 * np.cos(phi))                  # d/dt of sin(phi) = -sin(th) / 2
    xd = -w * np.sin(th) - 2 * np.sin(phi) * phid
    return models.state_from_joints(sys_, [[th], [phi - th], [np.cos(th) + 2 * np.cos(phi)]],
                                    [[w], [phid - w], [xd]])


def test_a_tree_has_no_cuts_and_prints_as_before():
    sys_ = models.figure1_tree()
    assert sys_.cuts == () and sys_.n_cut_constraints == 0 and sys_.cut_slices == ()
    assert "cut" not in repr(sys_) and "cut" not in sys_._repr_html_()


def test_cut_joint_rows_follow_the_tree_rows_and_print():
    sys_ = slider_crank()
    assert sys_.n_constraints == 6 and sys_.n_cut_constraints == 2 and sys_.cut_slices == (slice(6, 8),)
    assert repr(sys_).endswith("cut joints 1 revolute2d; 8 constraint rows (6 tree + 2 cut), 1 DOF")
    html = sys_._repr_html_()
    assert "<th>cuts</th>" in html and html.count("wrist pin (revolute2d)") == 2      # at bodies 1 and 2


def test_cut_residuals_vanish_on_a_closed_state_and_the_check_names_the_cut():
    from rfda_teach.errors import ConstraintViolationError
    from rfda_teach.system import check_consistency, cut_residuals
    sys_ = slider_crank()
    st = closed_state(sys_)
    phi, phi_dot = cut_residuals(sys_, st)
    assert phi.shape == phi_dot.shape == (2,) and np.abs(phi).max() < 1e-14 and np.abs(phi_dot).max() < 1e-14
    check_consistency(sys_, st)
    assert len(terms(sys_, st).cut) == 1
    y = st.y.copy()
    y[6] += 0.01                                                   # the slider leaves the rod's end
    with pytest.raises(ConstraintViolationError, match=r"violates cut joint 0 \('wrist pin', revolute2d between "
                                                       r"body 1 and body 2\): position residual 0.01"):
        check_consistency(sys_, (y, st.yd))
    assert np.allclose(cut_residuals(sys_, (y, st.yd))[0], [0.01, 0.0])      # child point - parent point
    yd = st.yd.copy()
    yd[6] += 0.5
    with pytest.raises(ConstraintViolationError, match="velocities violate cut joint 0"):
        terms(sys_, (st.y, yd))
    terms(sys_, (st.y, yd), check=False)


def test_bad_cut_joints_are_refused_with_the_cut_named():
    from rfda_teach.system import Cut
    pin = Joint("revolute2d")
    for bad, msg in (((True, 0), "parent must be a body index"), ((0, "2"), "child must be a body index"),
                     ((-2, 0), "parent must be a body index"), ((-1, -1), "both the ground"),
                     ((1, 1), "both body 1")):
        with pytest.raises(ModelError, match=msg):
            Cut(*bad, pin)
    with pytest.raises(ModelError, match="joint must be"):
        Cut(0, 1, "revolute2d")
    with pytest.raises(TopologyError, match=r"cuts\[0\] \('cut 1-7'\) has child body 7, but the bodies are 0..2"):
        slider_crank(cuts=(Cut(1, 7, pin),))
    with pytest.raises(ModelError, match=r"cuts\[0\] .* is a spherical joint for spatial bodies but its parent "
                                         "body 1 is planar"):
        slider_crank(cuts=(Cut(1, 2, Joint("spherical")),))
    with pytest.raises(ModelError, match=r"cuts\[1\] is Joint, not a Cut"):
        slider_crank(cuts=(Cut(1, 2, pin), pin))
    with pytest.raises(ModelError, match="cuts must be a sequence"):
        slider_crank(cuts=Cut(1, 2, pin))


def test_the_recursive_algorithms_refuse_a_system_with_cuts():
    from rfda_teach import coordinates, dae, elimination, jointspace, rfda, simulate
    sys_ = slider_crank()
    st = closed_state(sys_)
    for call in (lambda: rfda.forward_dynamics(sys_, st), lambda: rfda.solve(sys_, terms(sys_, st)),
                 lambda: jointspace.forward_dynamics(sys_, np.zeros(3), np.zeros(3), np.zeros(3)),
                 lambda: jointspace.solve(sys_, terms(sys_, st)),
                 lambda: simulate.simulate(sys_, st, 0.1, form="featherstone"),
                 lambda: simulate.simulate(sys_, st, 0.1, form="lubich"),
                 lambda: coordinates.rfda_coordinates(sys_, st), lambda: elimination.subtree_schur(sys_, st, 0)):
        with pytest.raises(ModelError, match="has 1 cut joint.*needs a tree.*dae.forward_dynamics"):
            call()
    res = dae.forward_dynamics(sys_, st)
    assert res.lam.shape == (8,)
    # simulate chooses the dense D&G eq. (7) for a system with cuts, and projects on its cut rows too
    assert simulate.simulate(sys_, st, 0.05, n_out=2).y.shape == (2, 9)
    assert simulate.project(sys_, st).y.shape == (9,)


def test_forces_enter_f_and_both_solvers_see_them():
    sys_ = sprung(models.chain(3), 7)
    st = models.random_state(sys_, seed=7)
    bare = dataclasses.replace(sys_, forces=())
    a, b = dae.forward_dynamics(sys_, st).ydd, dae.forward_dynamics(bare, st).ydd
    assert rel(a, b) > 1e-3
    r = rfda.forward_dynamics(sys_, st, form="featherstone")
    assert rel(r.ydd, a) < 1e-9
    assert rel(jointspace.solve(sys_, terms(sys_, st)).qdd, r.qdd) < 1e-9      # RNEA + CRBA see them too


def test_a_system_with_forces_prints_them_and_without_prints_as_before():
    tree = models.chain(2)
    assert "force" not in repr(tree) and "forces" not in tree._repr_html_()
    s = dataclasses.replace(tree, forces=(SpringDamper(1, -1, k=5.0, L0=0.2, name="<s>"),))
    assert repr(s) == repr(tree).replace("1 root; ", "1 root; force elements 1 SpringDamper; ")
    html = s._repr_html_()
    assert "<th>forces</th>" in html and "&lt;s&gt; (k 5, c 0, L0 0.2)" in html
    assert "<summary>bodies, joints and force elements</summary>" in html
