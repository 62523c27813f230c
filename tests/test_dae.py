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
