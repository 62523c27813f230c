import numpy as np
import pytest

from rfda_teach import models
from rfda_teach.errors import ModelError
from rfda_teach.system import terms


@pytest.mark.parametrize("make", [
    lambda: models.featherstone_sliders(), lambda: models.planar_revolute_pair(),
    lambda: models.figure1_tree(), lambda: models.figure1_tree("spatial"),
    lambda: models.random_tree(12, "planar", seed=1), lambda: models.random_tree(12, "spatial", seed=2),
    lambda: models.chain(5, "spatial"), lambda: models.universal_chain(4, seed=3)])
def test_random_state_satisfies_every_joint(make):
    sys_ = make()
    s = models.random_state(sys_, seed=11)
    vs = sys_.vel_slices
    for k, jt in enumerate(terms(sys_, s).joint):
        j = sys_.parents[k]
        c = jt.G @ s.yd[vs[k]] + (0 if j < 0 else jt.Q @ s.yd[vs[j]])
        assert np.allclose(c, 0, atol=1e-12)
    # positions: joint points coincide (revolute/spherical) for every joint with a fully constrained point
    from rfda_teach.bodies import rotation
    for k, joint in enumerate(sys_.joints):
        if joint.type in ("revolute", "revolute2d", "spherical", "universal"):
            j = sys_.parents[k]
            yk = s.y[sys_.pos_slices[k]]
            nl = len(joint.child_point)
            pk = yk[:nl] + rotation(sys_.kind, yk) @ joint.child_point
            pj = joint.parent_point if j < 0 else (s.y[sys_.pos_slices[j]][:nl] + rotation(
                sys_.kind, s.y[sys_.pos_slices[j]]) @ joint.parent_point)
            assert np.allclose(pk, pj, atol=1e-12)


def test_random_models_are_reproducible_and_mix_joint_types():
    a, b = models.random_tree(30, "spatial", seed=5), models.random_tree(30, "spatial", seed=5)
    assert a.parents == b.parents and all(x.type == y.type for x, y in zip(a.joints, b.joints))
    assert np.array_equal(models.random_state(a, seed=1).y, models.random_state(b, seed=1).y)
    kinds = {jt.type for s in range(5) for jt in models.random_tree(30, "spatial", seed=s).joints}
    assert kinds == {"revolute", "prismatic", "spherical", "free"}
    assert all(p < i for i, p in enumerate(a.parents))


def test_model_argument_errors():
    with pytest.raises(ModelError, match=r"n \(the number of bodies\) is 0; give an integer >= 1"):
        models.random_tree(0)
    with pytest.raises(ModelError, match="kind='cubic'"):
        models.random_tree(3, kind="cubic")
    with pytest.raises(ModelError, match="mass -1.0 is not positive"):
        models.planar_revolute_pair(m_k=-1.0)


# --- issue 11, item 8: NaN and bad arguments never pass silently ------------------------------------

def test_random_state_refuses_nan_speed():
    """speed=nan used to give a state full of NaN velocities without a word."""
    with pytest.raises(ModelError, match="speed is nan"):
        models.random_state(models.chain(3), seed=0, speed=float("nan"))


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_bad_seeds_refused_everywhere(seed):
    with pytest.raises(ModelError, match="seed"):
        models.random_state(models.chain(2), seed=seed)
    with pytest.raises(ModelError, match="seed"):
        models.random_tree(3, seed=seed)


def test_state_from_joints_refuses_nan_positions_and_speeds():
    """A NaN joint position used to give NaN absolute positions silently."""
    sys_ = models.chain(2)
    ok = [np.zeros(1), np.zeros(1)]
    with pytest.raises(ModelError, match=r"q\[1\]\[0\] is nan"):
        models.state_from_joints(sys_, [np.zeros(1), np.array([np.nan])], ok)
    with pytest.raises(ModelError, match=r"qd\[0\]\[0\] is inf"):
        models.state_from_joints(sys_, ok, [np.array([np.inf]), np.zeros(1)])


def test_state_from_joints_refuses_wrong_lengths_and_types():
    sys_ = models.chain(2)
    ok = [np.zeros(1), np.zeros(1)]
    with pytest.raises(ModelError, match="q has 1 entries"):
        models.state_from_joints(sys_, ok[:1], ok)
    with pytest.raises(ModelError, match=r"q\[0\] has shape \(2,\)"):
        models.state_from_joints(sys_, [np.zeros(2), np.zeros(1)], ok)
    with pytest.raises(ModelError, match="qd must be a list"):
        models.state_from_joints(sys_, ok, None)
    with pytest.raises(ModelError, match=r"q\[1\] must be an array"):
        models.state_from_joints(sys_, [np.zeros(1), "x"], ok)


def test_state_from_joints_refuses_non_unit_quaternions():
    """A spherical joint's Euler parameters of norm 2 used to be normalised silently."""
    from rfda_teach.bodies import Body
    from rfda_teach.joints import Joint
    from rfda_teach.system import System
    ball = System((-1,), (Body("spatial", 1.0, np.eye(3)),), (Joint("spherical", child_point=(0, 0, -1.0)),),
                  (0.0, 0.0, -9.81))
    with pytest.raises(ModelError, match="norm 2"):
        models.state_from_joints(ball, [np.array([2.0, 0, 0, 0])], [np.zeros(3)])
    with pytest.raises(ModelError, match="norm 0"):
        models.state_from_joints(ball, [np.zeros(4)], [np.zeros(3)])


@pytest.mark.parametrize("n", [0, -2, 2.0, "3", None, True])
def test_chain_and_random_tree_refuse_bad_sizes(n):
    with pytest.raises(ModelError, match="number of bodies"):
        models.chain(n)
    with pytest.raises(ModelError, match="number of bodies"):
        models.random_tree(n)


def test_universal_chain_is_reproducible_and_leaves_random_tree_alone():
    a, b = models.universal_chain(3, seed=5), models.universal_chain(3, seed=5)
    assert all(np.array_equal(x.axes, y.axes) for x, y in zip(a.joints, b.joints))
    assert {jt.type for jt in a.joints} == {"universal"} and a.n_dof == 6
    assert "universal" not in {jt.type for jt in models.random_tree(40, kind="spatial", seed=0).joints}
