"""Questions and checkers of the book's ``dae`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-dae-count``: a third slider (mass 5) hung from slider 2 of
:func:`rfda_teach.models.featherstone_sliders` on a horizontal rail; the answer is
(rows, non-zero entries) of the matrix of D&G eq. (7) that :func:`rfda_teach.dae.forward_dynamics`
assembles for these three sliders.

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-dae-count", None).passed
check_question ex-dae-count: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

import numpy as np

from .questions import question

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def three_sliders():
    """The two sliders of Featherstone's example (m1 = 1, m2 = 2) and a third (m3 = 5) on a
    horizontal rail fixed to slider 2, Phi_3 = r_y3 - r_y2 = 0."""
    from .. import models
    from ..bodies import Body
    from ..joints import Joint
    from ..system import System

    sliders = models.featherstone_sliders(m1=1.0, m2=2.0)
    return System((-1, 0, 1), tuple(Body("point2", m) for m in (1.0, 2.0, 5.0)),
                  sliders.joints + (Joint("rail", parent_frame=np.eye(2)),), sliders.gravity)


def _eq7():
    from .. import dae, models

    three = three_sliders()
    return dae.forward_dynamics(three, models.random_state(three, seed=4))


@question("ex-dae-count",
          hint="one momentum row per velocity and one row per constraint; M is "
               "diagonal; count the non-zeros of G_k and Q_k for each joint, and "
               "C^T has as many as C",
          slips=[(lambda ref: (ref[0], ref[1] - int(np.count_nonzero(_eq7().C))),
                  "you forgot the block C^T: the matrix of eq. (7) is symmetric"),
                 (lambda ref: (ref[0], ref[1] + 2),
                  "joint 1 is a root joint: its row holds G_1 only, there is no "
                  "parent body for a Q_1"),
                 (lambda ref: (three_sliders().n + _eq7().C.shape[0], ref[1]),
                  "a slider has two velocities: one momentum row per velocity, "
                  "not per body")])
def _ex_dae_count():
    K = _eq7().K
    return (K.shape[0], int(np.count_nonzero(K)))
