"""Every bad input named in the design raises the matching RFDAError, naming the body or joint."""
import numpy as np
import pytest

from rfda_teach import dae, errors, models, rfda
from rfda_teach.bodies import Body
from rfda_teach.joints import Joint
from rfda_teach.system import System


def test_hierarchy():
    for cls in (errors.TopologyError, errors.ConstraintRankError, errors.SingularCoordinateSelectionError,
                errors.ModelError):
        assert issubclass(cls, errors.RFDAError) and issubclass(cls, ValueError)


def test_rank_deficient_G_names_joint_and_rank():
    with pytest.raises(errors.ConstraintRankError, match=r"joint 'elbow'.*rank 2"):
        Joint("custom", kind="spatial", name="elbow", Phi=np.array([[1.0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0],
                                                                    [1, 1, 0, 0, 0, 0]]),
              Psi=np.eye(6)[2:])


def test_cycle_names_bodies():
    b = Body("planar", 1.0, 0.1)
    with pytest.raises(errors.TopologyError, match=r"bodies 1, 2, 3 form a cycle"):
        System((-1, 3, 1, 2), (b,) * 4, (Joint("revolute2d"),) * 4)


@pytest.mark.parametrize("form", ["dense", "lubich", "featherstone"])
def test_nan_in_state_names_body(form):
    sys_ = models.figure1_tree()
    s = models.random_state(sys_, seed=0)
    yd = s.yd.copy()
    yd[sys_.vel_slices[7].start + 1] = np.inf
    fd = dae.forward_dynamics if form == "dense" else (lambda a, b: rfda.forward_dynamics(a, b, form=form))
    with pytest.raises(errors.ModelError, match=r"state.yd\[22\] is inf \(body 7\)"):
        fd(sys_, (s.y, yd))


def test_non_positive_mass_names_body():
    with pytest.raises(errors.ModelError, match=r"body 'forearm': mass 0.0 is not positive"):
        Body("spatial", 0.0, np.eye(3), name="forearm")


def test_non_unit_euler_parameters_name_body():
    sys_ = models.random_tree(4, kind="spatial", seed=1)
    s = models.random_state(sys_, seed=1)
    y = s.y.copy()
    sl = sys_.pos_slices[3]
    y[sl.start + 3:sl.stop] *= 1.001
    with pytest.raises(errors.ModelError, match=r"body 3: Euler parameters .* norm 1.00100000, not 1"):
        rfda.forward_dynamics(sys_, (y, s.yd))
