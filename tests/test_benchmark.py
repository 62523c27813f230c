"""The benchmark helpers compute what they claim (no timing is asserted)."""
import pytest

from rfda_teach import benchmark
from rfda_teach.errors import ModelError


def test_slope_and_crossover():
    assert benchmark.loglog_slope([16, 32, 64], [1.0, 2.0, 4.0]) == pytest.approx(1.0)
    assert benchmark.loglog_slope([16, 32, 64], [1.0, 8.0, 64.0]) == pytest.approx(3.0)
    rows = [{"n": 4, "dense": 1, "rfda": 2}, {"n": 8, "dense": 3, "rfda": 2}, {"n": 16, "dense": 9, "rfda": 3}]
    assert benchmark.crossover(rows, "rfda") == 8
    assert benchmark.crossover(rows[:1], "rfda") is None


def test_scaling_rows_and_errors():
    msgs = []
    rows = benchmark.scaling([2, 3], family="tree", kind="spatial", min_time=0.0, stage="solve", progress=msgs.append)
    assert [r["n"] for r in rows] == [2, 3] and len(msgs) == 2
    assert all(r[m] > 0 for r in rows for m in benchmark.METHODS)
    with pytest.raises(ModelError, match="family='ring'"):
        benchmark.scaling([2], family="ring")
    with pytest.raises(ModelError, match="at least two"):
        benchmark.loglog_slope([4], [1.0])


@pytest.mark.parametrize("call, match", [
    (lambda: benchmark.scaling([-2]), r"ns\[\] is -2"),
    (lambda: benchmark.scaling(None), "ns must be a list"),
    (lambda: benchmark.scaling([2], seed=-1), "seed is -1"),
    (lambda: benchmark.time_call(None), "fn must be a callable"),
    (lambda: benchmark.time_call(lambda: 0, max_repeat=0), "max_repeat is 0"),
    (lambda: benchmark.loglog_slope([4, 8], [1.0, -1.0]), "> 0"),
    (lambda: benchmark.crossover(None, "lubich"), "rows must be"),
    (lambda: benchmark.time_forward_dynamics(None, None, "dense"), "system must be a System"),
])
def test_benchmark_bad_arguments_raise_model_error(call, match):
    """Negative sizes, None and wrong types used to fail inside numpy or the model builders."""
    with pytest.raises(ModelError, match=match):
        call()
