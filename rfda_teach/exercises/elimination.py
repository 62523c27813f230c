"""Questions and checkers of the book's ``elimination`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-el-fill``: the new couplings (fill-in) when the Fig. 1 tree
(:func:`rfda_teach.models.figure1_tree`) is eliminated root first in its depth-first order
``topology.order``, counted by :func:`rfda_teach.elimination.fill_in`.

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-el-fill", None).passed
check_question ex-el-fill: not answered yet (write your answer above and run this cell again)
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


def _pairs_per_node(system, order, *, inherit: bool) -> int:
    """Pairs of remaining neighbours summed over the eliminated nodes, each pair counted every
    time (also when already coupled); ``inherit=False`` counts the remaining children only."""
    adj = {i: set() for i in range(system.n)}
    for k, p in enumerate(system.parents):
        if p >= 0:
            adj[k].add(p)
            adj[p].add(k)
    total = 0
    for k in order:
        nb = sorted(adj.pop(k))
        for a in nb:
            adj[a].discard(k)
        if not inherit:
            nb = [a for a in nb if system.parents[a] == k]
        total += len(nb) * (len(nb) - 1) // 2
        if inherit:
            for x, a in enumerate(nb):
                for b in nb[x + 1:]:
                    adj[a].add(b)
                    adj[b].add(a)
    return total


def _breadth_first() -> int:
    from .. import elimination as el

    fig1 = _fig1()
    return el.fill_in(fig1, list(range(fig1.n)))


def _recounted() -> int:
    fig1 = _fig1()
    return _pairs_per_node(fig1, list(fig1.topology.order), inherit=True)


def _children_only() -> int:
    fig1 = _fig1()
    return _pairs_per_node(fig1, list(fig1.topology.order), inherit=False)


@question("ex-el-fill",
          hint="eliminating a node couples all its remaining neighbours "
               "pairwise; a node with c remaining neighbours creates at most "
               "c(c-1)/2 new couplings, and the survivors inherit them",
          slips=[(lambda ref: _breadth_first(),
                  "that is the breadth-first order 0, 1, 2, ...; the exercise "
                  "eliminates in the depth-first order fig1.topology.order"),
                 (lambda ref: _recounted(),
                  "a pair that is already coupled (by eq. (7) or by an earlier "
                  "elimination) is not new: count it once"),
                 (lambda ref: _children_only(),
                  "the remaining neighbours are not only the children: a node "
                  "also inherits the couplings made when its ancestors were "
                  "eliminated")])
def _ex_el_fill():
    from .. import elimination as el

    fig1 = _fig1()
    return el.fill_in(fig1, list(fig1.topology.order))
