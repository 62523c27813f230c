"""Physics checks that share nothing with eq. (7) but the model: energy is conserved."""
import numpy as np
import pytest

from rfda_teach import models, simulate
from rfda_teach.errors import ConstraintViolationError, ModelError


@pytest.mark.parametrize("kind, seed", [("planar", 0), ("spatial", 1), ("spatial", 2)])
def test_energy_conserved_without_applied_forces(kind, seed):
    sys_ = models.random_tree(4, kind=kind, seed=seed)
    s0 = models.random_state(sys_, seed=seed)
    traj = simulate.simulate(sys_, s0, 0.5, form="featherstone", rtol=1e-11, atol=1e-11)
    E = np.array([simulate.energy(sys_, s) for s in traj.states])
    assert np.abs(E - E[0]).max() < 1e-6 * (1 + abs(E[0]))


def test_simulate_argument_errors():
    sys_ = models.planar_revolute_pair()
    s0 = models.random_state(sys_, seed=0)
    with pytest.raises(ModelError, match="t_final"):
        simulate.simulate(sys_, s0, -1.0)
    with pytest.raises(ModelError, match="form='rk4'"):
        simulate.simulate(sys_, s0, 1.0, form="rk4")


# --- issue 11, item 7: no silent wrong answers from simulate ---------------------------------------

def test_simulate_refuses_y_too_long_and_yd_too_short():
    """y one entry too long and yd one too short used to be split at n_pos and shifted silently."""
    sys_ = models.chain(2)
    s0 = models.random_state(sys_, seed=0)
    y, yd = np.append(s0.y, 0.0), s0.yd[:-1]
    with pytest.raises(ModelError, match=r"state\.y has shape \(7,\)"):
        simulate.simulate(sys_, (y, yd), 0.05)


def test_simulate_refuses_non_unit_euler_parameters():
    """Euler parameters of norm 1.01 used to be normalised silently; the design says ModelError."""
    sys_ = models.random_tree(2, kind="spatial", seed=1)
    s0 = models.random_state(sys_, seed=1)
    y = s0.y.copy()
    y[3:7] *= 1.01
    with pytest.raises(ModelError, match="Euler parameters"):
        simulate.simulate(sys_, (y, s0.yd), 0.05)


def test_simulate_refuses_inconsistent_positions_unless_check_false():
    sys_ = models.planar_revolute_pair()
    s0 = models.random_state(sys_, seed=0)
    y = s0.y.copy()
    y[4] += 0.3                                        # body 1, 0.3 m off its pin
    with pytest.raises(ConstraintViolationError, match=r"joint 1.*0\.3"):
        simulate.simulate(sys_, (y, s0.yd), 0.05)
    traj = simulate.simulate(sys_, (y, s0.yd), 0.01, check=False)    # the opt-out integrates it
    assert traj.y.shape[1] == 6


@pytest.mark.parametrize("t_final", [None, "1.0", 0.0, -1.0, float("inf"), float("nan")])
def test_simulate_t_final_refused(t_final):
    sys_ = models.chain(2)
    with pytest.raises(ModelError, match="t_final"):
        simulate.simulate(sys_, models.random_state(sys_, seed=0), t_final)


@pytest.mark.parametrize("n_out", [0, -3, 1, 2.5, "10"])
def test_simulate_n_out_refused(n_out):
    sys_ = models.chain(2)
    with pytest.raises(ModelError, match="n_out"):
        simulate.simulate(sys_, models.random_state(sys_, seed=0), 0.1, n_out=n_out)


def test_simulate_n_out_gives_evenly_spaced_rows():
    sys_ = models.chain(2)
    traj = simulate.simulate(sys_, models.random_state(sys_, seed=0), 0.1, n_out=5)
    assert np.allclose(traj.t, np.linspace(0, 0.1, 5)) and traj.y.shape == (5, 6)


def test_energy_refuses_nan():
    sys_ = models.chain(2)
    s0 = models.random_state(sys_, seed=0)
    yd = s0.yd.copy()
    yd[2] = np.nan
    with pytest.raises(ModelError, match=r"yd\[2\] is nan"):
        simulate.energy(sys_, (s0.y, yd))
