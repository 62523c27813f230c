"""Physics checks that share nothing with eq. (7) but the model: energy is conserved."""
import numpy as np
import pytest

from rfda_teach import models, simulate
from rfda_teach.errors import ModelError


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
