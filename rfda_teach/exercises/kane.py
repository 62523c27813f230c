"""Questions and checkers of the book's ``kane`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-kane-count``: the eight-body tree of the notes with body 1 free, revolute joints for the
links on the box (bodies 2, 4, 6, 7) and spherical joints for the links on links (3, 5, 8);
the answer is (kept speeds, unknowns of D&G eq. (7)), counted from the
:class:`~rfda_teach.system.System` of the same bodies and joints (the chapter's
``pinned_system``): kept speeds = speeds - constraint rows, unknowns = speeds + rows.

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-kane-count", None).passed
check_question ex-kane-count: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

import numpy as np

from .questions import question

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def _jointed_eight_body(revolute=(1, 3, 5, 6)):
    """The eight-body tree in absolute coordinates with body 1 free, body K + 1 revolute
    (about its own 3-axis) for K in ``revolute``, spherical otherwise; O_K at Q_K."""
    from .. import kane
    from ..joints import Joint
    from ..system import System

    sys8 = kane.eight_body()
    N = sys8.N
    x = sys8.x0.copy()
    x[4 * N + 3:] = 0.0                          # O_K at Q_K for K = 2..8
    free, _ = kane.to_absolute(sys8, x, np.zeros(6 * N))
    joints = [Joint("free")]
    for K in range(1, N):
        J = sys8.L[K] - 1
        pp, cp = sys8.q[K] - sys8.r[J], -sys8.r[K]
        if K in revolute:
            frame = kane.relative_rotation(x[4 * K:4 * K + 4]).T
            joints.append(Joint("revolute", parent_point=pp, child_point=cp, parent_frame=frame))
        else:
            joints.append(Joint("spherical", parent_point=pp, child_point=cp))
    return System(free.parents, free.bodies, tuple(joints), free.gravity)


@question("ex-kane-count",
          hint="(a) a joint keeps as many speeds as the motions it allows; "
               "(b) count accelerations and multipliers",
          slips=[(lambda ref: (ref[0], (ref[0] + ref[1]) // 2),
                  "(b) eq. (7) solves for the multipliers too, not only for the accelerations"),
                 (lambda ref: (ref[0] - 6, ref[1]),
                  "(a) body 1 is free: it keeps all six of its speeds"),
                 (lambda ref: (ref[0], (ref[0] + ref[1]) // 2 + ref[0]),
                  "(b) a joint adds one multiplier per constraint row, i.e. per motion it "
                  "forbids, not per motion it allows")])
def _ex_kane_count():
    mixed = _jointed_eight_body()
    return (mixed.n_vel - mixed.n_constraints, mixed.n_vel + mixed.n_constraints)
