"""Questions and checkers of the book's ``recursion`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-rec-count``: for the Fig. 1 tree (:func:`rfda_teach.models.figure1_tree`), the Lubich
form's factorisations of M_hat_j (one per node) and of W_k (one per joint with constraint
rows), and the size of the matrix of D&G eq. (7) (one row per velocity and one per constraint).

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-rec-count", None).passed
check_question ex-rec-count: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

from .questions import question

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def _fig1():
    from .. import models

    return models.figure1_tree()


@question("ex-rec-count",
          hint="one factorisation per node and one per joint that has "
               "constraint rows; eq. (7) has one row per velocity and one per "
               "constraint",
          slips=[(lambda ref: (ref[0] - 1, ref[1] - 1, ref[2]),
                  "that is step 1 alone: the root's two factorisations are done "
                  "in step 2, and the question counts both steps"),
                 (lambda ref: (ref[0], ref[1], _fig1().n_vel),
                  "eq. (7) solves for the multipliers too: it has a row per "
                  "constraint as well as per velocity"),
                 (lambda ref: (ref[0], ref[1] - 1, ref[2]),
                  "the root is pinned to the ground: its joint has constraint "
                  "rows, so it has a W_k too")])
def _ex_rec_count():
    tree = _fig1()
    return (tree.n, sum(1 for jt in tree.joints if jt.n_constraints),
            tree.n_vel + tree.n_constraints)
