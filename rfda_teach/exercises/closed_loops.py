"""Questions and checkers of the book's ``closed_loops`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-rcr-never`` (b): the five-bar of :func:`rfda_teach.rcr.five_bar` is moved, with the
default ACS dependents (q2, q3, q5) solved at each step, until the set (q1, q2, q5) becomes
singular (det[a_1 a_2 a_5] changes sign; the root is found by bisection on q1); the answer is
the number of the bar that stands vertical there.

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-rcr-never", None).passed
check_question ex-rcr-never: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from .questions import question

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def _vertical_bar_when_singular(model=None, singular_set=("q1", "q2", "q5"), steps: int = 40) -> int:
    """The bar (1-based) standing vertical where ``singular_set`` loses rank along q1."""
    from .. import rcr

    fb = rcr.five_bar() if model is None else model
    cols = [fb.names.index(n) for n in singular_set]
    deps = fb.dependents

    def at(q1, guess):
        q = guess.copy()
        q[0] = q1
        return rcr.solve_dependents(fb, q, dependents=deps)

    def det(q):
        return np.linalg.det(rcr.closure_jacobian(fb, q)[:, cols])

    q_prev = fb.q0.copy()
    for q1 in np.linspace(fb.q0[0], fb.q0[0] - np.pi, steps + 1)[1:]:   # bar 1 swings down
        q = at(q1, q_prev)
        if np.sign(det(q)) != np.sign(det(q_prev)):
            guess = q_prev
            root = brentq(lambda a: det(at(a, guess)), q_prev[0], q1, xtol=1e-14)
            q_s = at(root, guess)
            angles = rcr.body_poses(fb, q_s)[:len(fb.bodies), 2]
            tilt = np.abs(np.cos(angles))              # 0 for a vertical bar
            if rcr.selection_sigma(fb, q_s, singular_set) > 1e-9 or np.sort(tilt)[1] < 1e-3:
                raise RuntimeError("exercises.closed_loops: no single vertical bar at the root")
            return int(np.argmin(tilt)) + 1
        q_prev = q
    raise RuntimeError("exercises.closed_loops: the set never became singular along the sweep")


@question("ex-rcr-never",
          hint="expand det[a_1 a_2 a_5] along the slider's column (0, 1, 0); "
               "which two joint points must then share x, and which bar joins them?",
          slips=[(lambda ref: ref + 1,
                  "off by one bar: you took the bar that starts at the second pivot; which "
                  "bar has both joint points of (a) at its ends?")])
def _ex_rcr_never():
    return _vertical_bar_when_singular()
