"""The compiled fast path implements the same equations as the readable RFDA."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st_

from rfda_teach import fastpath, models, rfda
from rfda_teach.errors import ModelError

from conftest import rel

pytestmark = pytest.mark.skipif(not fastpath.available(), reason="numba is not installed (extra 'fast')")


@settings(max_examples=25)
@given(st_.integers(1, 30), st_.integers(0, 2 ** 31 - 1))
def test_fast_path_equals_readable_featherstone(n, seed):
    sys_ = models.random_tree(n, kind="spatial", seed=seed)
    s = models.random_state(sys_, seed=seed + 1)
    tau = np.random.default_rng(seed).normal(size=sys_.n_dof)
    fm = fastpath.compile_model(sys_)
    ref = rfda.forward_dynamics(sys_, s, form="featherstone", tau=tau)
    assert rel(fastpath.forward_dynamics(fm, s.y, s.yd, tau), ref.ydd) < 1e-10
    assert rel(fastpath.joint_accelerations(fm, s.y, s.yd, tau), ref.qdd) < 1e-10


def test_fast_path_refuses_planar_systems():
    with pytest.raises(ModelError, match="spatial trees"):
        fastpath.compile_model(models.figure1_tree())
