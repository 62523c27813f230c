"""rfda_teach.count: the one counter of scalar multiplications and its helpers."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from rfda_teach import count, jointspace as js, models, refpoint, rfda
from rfda_teach.count import Tally
from rfda_teach.errors import ConstraintRankError, ModelError
from rfda_teach.system import terms

RNG = np.random.default_rng(0)


def test_tally_counts_by_step():
    t = Tally()
    assert t.step == "other" and t.total == 0 and t.counts == Counter()
    t.add(3)
    t.step = "b"
    t.add(4)
    t.add(np.int64(1))
    assert t.counts == Counter({"other": 3, "b": 5}) and t.total == 8 and isinstance(t.total, int)


def test_tally_methods():
    t = Tally()
    A, B = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    assert np.array_equal(t.mm(A, B), A @ B) and t.total == 24
    assert t.mm(A, np.ones(3)).shape == (2,) and t.total == 30
    assert t.mm(np.ones(3), np.ones(3)).shape == (1,) and t.total == 33      # a 1-D A is one row
    a, b = np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.0])
    assert np.array_equal(t.cross(a, b), np.cross(a, b)) and t.total == 39
    assert np.allclose(t.cross_cols(a, np.eye(3)), np.cross(a, np.eye(3), axisb=0, axisc=0)) and t.total == 57
    assert np.array_equal(t.scale(2.0, [1.0, 2.0]), [2.0, 4.0]) and t.total == 59
    S = np.array([[4.0, 2.0], [2.0, 3.0]])
    fac = t.chol(S)
    assert t.total == 59 + 2
    assert np.allclose(S @ t.solve(fac, np.eye(2)), np.eye(2)) and t.total == 61 + 8
    with pytest.raises(ConstraintRankError, match="positive definite"):
        t.chol(np.array([[1.0, 2.0], [2.0, 1.0]]))


def test_refpoint_tally_is_the_same_class():
    assert refpoint.Tally is Tally and "Tally" in refpoint.__all__


@pytest.mark.parametrize("sa, sb, n", [((2, 3), (3, 4), 24), ((2, 3), (3,), 6), ((3,), (3, 4), 12),
                                       ((3,), (3,), 3), ((1, 5), (5, 1), 5), ((0, 3), (3, 2), 0)])
def test_mm_counts_rows_inner_cols(sa, sb, n):
    A, B = RNG.standard_normal(sa), RNG.standard_normal(sb)
    t = Tally()
    got = count.mm(t, A, B)
    assert t.total == n
    assert np.array_equal(got, A @ B) and np.shape(got) == np.shape(A @ B)
    assert np.array_equal(count.mm(None, A, B), A @ B)


def test_helpers_compute_the_same_with_and_without_a_tally():
    a, b, S = RNG.standard_normal(3), RNG.standard_normal(4), np.array([[4.0, 1.0], [1.0, 2.0]])
    t = Tally(step="s")
    assert np.array_equal(count.outer(t, a, b), np.outer(a, b)) and t.total == 12
    assert np.array_equal(count.outer(None, a, b), np.outer(a, b))
    assert np.array_equal(count.scale(t, 2.0, a), 2.0 * a) and t.total == 15
    assert count.scale(t, 2.0, 3.0) == 6.0 and t.total == 16                  # a division counts as one
    assert np.array_equal(count.scale(None, 2.0, a), 2.0 * a)
    f1, f0 = count.chol(t, S), count.chol(None, S)
    assert np.array_equal(f1[0], f0[0]) and t.total == 16 + count.cholesky_count(2)
    x = count.solve(t, f1, np.array([1.0, 2.0]))
    assert np.allclose(S @ x, [1.0, 2.0]) and t.total == 16 + 2 + 4
    assert np.array_equal(count.solve(None, f0, np.eye(2)), count.solve(t, f1, np.eye(2))) and t.total == 22 + 8
    count.add(t, 5)
    count.add(None, 5)
    count.set_step(t, "other step")
    count.set_step(None, "ignored")
    count.add(t, 1)
    assert t.counts == Counter({"s": 35, "other step": 1})


def test_nothing_is_counted_without_a_tally():
    """The helpers keep no global state: calling them with None leaves every Tally as it was."""
    t = Tally()
    count.mm(None, np.eye(3), np.eye(3))
    count.add(None, 10)
    assert t.total == 0


def test_cholesky_count():
    assert [count.cholesky_count(n) for n in range(5)] == [0, 0, 2, 7, 16]
    for n in (1, 5, 17):                  # n(n-1)(n+1)/6 multiplications and n(n-1)/2 divisions
        assert count.cholesky_count(n) == sum(k * (k - 1) // 2 + (k - 1) for k in range(1, n + 1))


def test_check():
    t = Tally()
    assert count.check(t) is t and count.check(None) is None
    for bad in ("t", 3, Counter()):
        with pytest.raises(ModelError, match="tally must be a Tally"):
            count.check(bad, where="x")


def test_a_counter_that_is_not_a_tally_is_refused():
    with pytest.raises(ModelError, match=r"count\.mm: tally must be a Tally"):
        count.mm("t", np.eye(2), np.eye(2))
    with pytest.raises(ModelError, match=r"rfda\.solve: tally must be a Tally"):
        sys_ = models.chain(2)
        rfda.solve(sys_, terms(sys_, models.random_state(sys_, seed=0)), tally=Counter())


def test_the_rfda_counted_while_it_runs():
    """rfda.solve with a tally gives the same numbers and the counts of jointspace.count_multiplications."""
    sys_ = models.figure1_tree()
    st = models.random_state(sys_, seed=1)
    tr = terms(sys_, st)
    for form in rfda.FORMS:
        t = Tally()
        a, b = rfda.solve(sys_, tr, form, tally=t), rfda.solve(sys_, tr, form)
        assert np.array_equal(a.ydd, b.ydd) and np.array_equal(a.lam, b.lam) and np.array_equal(a.qdd, b.qdd)
        assert dict(t.counts) == js.count_multiplications(sys_, form, by_step=True)


def test_known_counts_do_not_move():
    """Counts recorded before the counting code was moved into rfda_teach.count (issue 22)."""
    assert js.count_multiplications(models.chain(64), ("lubich", "featherstone")) == \
        {"lubich": 8896, "featherstone": 13057}
    assert js.count_multiplications(models.chain(3), "featherstone", by_step=True) == \
        {"appendix A": 162, "featherstone leaves-to-root": 218, "featherstone root-to-leaves": 66,
         "multipliers": 45}
    assert js.count_multiplications(models.chain(3), "lubich", by_step=True) == \
        {"lubich leaves-to-root": 227, "lubich root-to-leaves": 114, "joint accelerations": 15}
