"""Bad-input cases for exercises (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

import numpy as np

from rfda_teach import exercises as ex
from rfda_teach.errors import ModelError

from robustness_cases import Case

_CHECKERS = sorted(ex.CHECKERS)
_GOOD = [ex.Case((np.ones(2),), "x: shape (2,)", np.ones(2))]


def _ident(x):
    return x


CASES = []
for _name in _CHECKERS:
    _fn = ex.CHECKERS[_name]
    CASES += [
        Case(f"exercises.check_{_name}-none", lambda f=_fn: f(None), ModelError, "student_fn must be a function"),
        Case(f"exercises.check_{_name}-array", lambda f=_fn: f(np.eye(3)), ModelError, "student_fn"),
        Case(f"exercises.check_{_name}-n0", lambda f=_fn: f(_ident, n_cases=0), ModelError, "n_cases"),
        Case(f"exercises.check_{_name}-nstr", lambda f=_fn: f(_ident, n_cases="5"), ModelError, "n_cases"),
        Case(f"exercises.check_{_name}-seedneg", lambda f=_fn: f(_ident, seed=-1), ModelError, "seed"),
        Case(f"exercises.check_{_name}-seedfloat", lambda f=_fn: f(_ident, seed=1.5), ModelError, "seed"),
    ]
CASES += [
    Case("exercises.run_cases-fn", lambda: ex.run_cases("check_x", 3, _GOOD), ModelError, "student_fn"),
    Case("exercises.run_cases-name", lambda: ex.run_cases(None, _ident, _GOOD), ModelError, "name"),
    Case("exercises.run_cases-none", lambda: ex.run_cases("check_x", _ident, None), ModelError, "cases"),
    Case("exercises.run_cases-empty", lambda: ex.run_cases("check_x", _ident, []), ModelError, "cases"),
    Case("exercises.run_cases-notcase", lambda: ex.run_cases("check_x", _ident, [1, 2]), ModelError, "entry 0"),
    Case("exercises.run_cases-rtol", lambda: ex.run_cases("check_x", _ident, _GOOD, rtol=-1.0), ModelError, "rtol"),
]

COVERED = [f"exercises.check_{n}" for n in _CHECKERS] + ["exercises.run_cases"]

EXEMPT: dict = {
    "exercises.CheckResult": "plain result record returned by every checker",
    "exercises.Case": "plain record of one test case; run_cases validates a list of them",
    "exercises.StudentHint": "an exception class a checker's wrapper raises to name a slip (caught by run_cases)",
}
