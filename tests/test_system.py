import numpy as np
import pytest

from rfda_teach import models
from rfda_teach.bodies import Body
from rfda_teach.errors import ModelError, TopologyError
from rfda_teach.joints import Joint
from rfda_teach.system import System, check_state, terms


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
