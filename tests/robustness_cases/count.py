"""Bad-input cases for count and the algorithms that take ``tally=`` (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

from collections import Counter

import numpy as np

from rfda_teach import count, coordinates as co, models, rcr, rfda
from rfda_teach.errors import ModelError
from rfda_teach.system import terms

from robustness_cases import Case

_E2 = np.eye(2)
_FAC = count.chol(None, np.diag([4.0, 9.0]))
_SYS = models.chain(2)


def _solve(tally):
    return rfda.solve(_SYS, terms(_SYS, models.random_state(_SYS, seed=0)), tally=tally)


CASES = [
    Case("count.Tally-counts", lambda: count.Tally(counts={"a": 1}), ModelError,
         r"count\.Tally: counts must be a Counter"),
    Case("count.Tally-step", lambda: count.Tally(step=None), ModelError, r"step must be a str"),
    Case("count.check", lambda: count.check(Counter(), where="x"), ModelError, r"x: tally must be a Tally"),
    Case("count.add", lambda: count.add("t", 3), ModelError, r"count\.add: tally must be a Tally"),
    Case("count.set_step-tally", lambda: count.set_step(3, "s"), ModelError, r"count\.set_step: tally must be"),
    Case("count.set_step-step", lambda: count.set_step(count.Tally(), 3), ModelError, r"step must be a str"),
    Case("count.mm", lambda: count.mm(Counter(), _E2, _E2), ModelError, r"count\.mm: tally must be a Tally"),
    Case("count.outer", lambda: count.outer("t", [1.0], [2.0]), ModelError, r"count\.outer: tally must be"),
    Case("count.scale", lambda: count.scale(1, 2.0, _E2), ModelError, r"count\.scale: tally must be"),
    Case("count.chol", lambda: count.chol("t", _E2), ModelError, r"count\.chol: tally must be"),
    Case("count.solve", lambda: count.solve("t", _FAC, [1.0, 1.0]), ModelError, r"count\.solve: tally must be"),
    Case("count.cholesky_count-negative", lambda: count.cholesky_count(-1), ModelError, r"n is -1"),
    Case("count.cholesky_count-float", lambda: count.cholesky_count(2.5), ModelError, r"n must be an integer"),
    Case("rfda.solve-tally", lambda: _solve("t"), ModelError, r"rfda\.solve: tally must be a Tally"),
    Case("coordinates.appendix_a-tally",
         lambda: co.appendix_a(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]), tally=Counter()), ModelError,
         r"coordinates\.appendix_a: tally must be a Tally"),
    Case("rcr.series_accelerations-tally",
         lambda: rcr.series_accelerations(rcr.loop_series(1), [rcr.loop_series(1).loops[0].q0], [np.zeros(4)],
                                          tally="t"), ModelError, r"tally must be a Tally"),
]

COVERED = [f"count.{n}" for n in count.__all__]

EXEMPT: dict = {}
