"""Questions and checkers of the book's ``jointspace`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-js-concept`` (c): the number of off-diagonal blocks (M_q)_{i,k}, i a proper ancestor
of k, that the CRBA computes for the 13-body tree of Fig. 1: one block per (joint, proper
ancestor) pair, the sum over the bodies of (depth - 1).

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-js-concept", None).passed
check_question ex-js-concept: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

from .questions import question

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def _fig1_depths() -> list[int]:
    from .. import models

    fig1 = models.figure1_tree()
    return [fig1.topology.depth(k) for k in range(fig1.n)]


@question("ex-js-concept",
          hint="count, for every body, the joints strictly between it and the "
               "ground (Fig. 1: models.FIGURE1_PARENTS)",
          slips=[(lambda ref: ref + len(_fig1_depths()),
                  "the diagonal blocks (M_q)_{k,k} are not off-diagonal: count "
                  "proper ancestors only, not the body's own joint"),
                 (lambda ref: 2 * ref,
                  "M_q is symmetric: the CRBA computes each pair (ancestor, "
                  "descendant) once and copies its transpose"),
                 (lambda ref: len(_fig1_depths()) * (len(_fig1_depths()) - 1) // 2,
                  "that is every pair of bodies, as on a chain; in a tree only "
                  "pairs on one path to the ground give a block")])
def _ex_js_concept():
    return sum(d - 1 for d in _fig1_depths())
