import numpy as np
import pytest

from rfda_teach import models
from rfda_teach.errors import ModelError
from rfda_teach.system import terms


@pytest.mark.parametrize("make", [
    lambda: models.featherstone_sliders(), lambda: models.planar_revolute_pair(),
    lambda: models.figure1_tree(), lambda: models.figure1_tree("spatial"),
    lambda: models.random_tree(12, "planar", seed=1), lambda: models.random_tree(12, "spatial", seed=2),
    lambda: models.chain(5, "spatial")])
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
        if joint.type in ("revolute", "revolute2d", "spherical"):
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
    with pytest.raises(ModelError, match="positive integer"):
        models.random_tree(0)
    with pytest.raises(ModelError, match="kind='cubic'"):
        models.random_tree(3, kind="cubic")
    with pytest.raises(ModelError, match="mass -1.0 is not positive"):
        models.planar_revolute_pair(m_k=-1.0)
