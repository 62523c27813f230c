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
