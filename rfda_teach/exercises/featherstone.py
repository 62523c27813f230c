"""Questions and checkers of the book's ``featherstone`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

* ``check_child_map(student_fn)`` (exercise ``ex-fs-impl``): ``student_fn(angle)`` returns the
  2x2 matrix E~_2 S_2 of slider 2 on a rail at ``angle`` (rad) from the x axis; the reference is
  the package's coordinates of RFDA (:func:`rfda_teach.coordinates.rfda_coordinates`) of the
  tilted sliders.
* ``ex-fs-three``: the 6x4 matrix T of the root node's coordinates of RFDA for three sliders
  (slider 2 on a vertical rail on slider 1, slider 3 on a horizontal rail on slider 2).

>>> import numpy as np
>>> def my_function(*args):  # the stub of the exercise
...     raise NotImplementedError
>>> check_child_map(my_function).passed
check_child_map: not implemented yet (fill in the function and run this cell again)
False
>>> check_child_map(lambda a: np.eye(2)).passed  # doctest: +ELLIPSIS
check_child_map: not yet, case 1 of 40 (...): the parent drives the child only ...
False
>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-fs-three", None).passed
check_question ex-fs-three: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

import numpy as np

from .checking import N_CASES, SEED, Case, options, run_cases
from .questions import question
from .slips import slip

__all__ = ["check_child_map"]


def tilted_sliders(angle: float, m1: float = 1.0, m2: float = 2.0):
    """Featherstone's two sliders with slider 2's rail at ``angle`` (rad) from the x axis
    (the chapter's ``tilted_sliders``)."""
    from ..bodies import Body
    from ..joints import Joint
    from ..system import System

    t = np.array([np.cos(angle), np.sin(angle)])          # rail direction
    frame = np.column_stack([t, [t[1], -t[0]]])            # columns t, n
    return System((-1, 0), (Body("point2", m1), Body("point2", m2)),
                  (Joint("rail"), Joint("rail", parent_frame=frame)), gravity=(0.0, -9.81))


def _child_map_reference(angle: float) -> np.ndarray:
    from .. import coordinates as co
    from .. import models

    system = tilted_sliders(angle)
    Et, _, S, _ = co.rfda_coordinates(system, models.random_state(system, seed=2))[0].child[1]
    return Et @ S


def check_child_map(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(angle) -> E~_2 S_2`` (2x2) for slider 2's rail at ``angle`` rad.

    The first cases are the rail angles 0, 0.4, pi/3 and 2.0, then random angles in
    (-pi, pi).  Reference: :func:`rfda_teach.coordinates.rfda_coordinates`.
    """
    name = "check_child_map"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    angles = [0.0, 0.4, np.pi / 3, 2.0]
    angles = (angles + list(rng.uniform(-np.pi, np.pi, max(n_cases - 4, 0))))[:n_cases]
    cases = []
    for a in angles:
        t = np.array([np.cos(a), np.sin(a)])
        wrong = ((np.outer(t, t), "that projects onto the rail direction t; the rail "
                                  "constrains, and so transmits, the direction across it"),
                 (np.eye(2), "the parent drives the child only across the rail: "
                             "E~_2 S_2 is a projector of rank one, not the identity"))
        cases.append(Case((float(a),), "angle: a float, the rail's angle from the x "
                                       "axis in rad", _child_map_reference(a), wrong))
    return run_cases(name, student_fn, cases)


#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {"child_map": check_child_map}


def three_sliders(m1: float = 1.0, m2: float = 2.0, m3: float = 0.5):
    """Three sliders: slider 2 on a vertical rail on slider 1 (the frame of
    :func:`rfda_teach.models.featherstone_sliders`), slider 3 on a horizontal rail on slider 2."""
    from ..bodies import Body
    from ..joints import Joint
    from ..system import System

    vertical = np.array([[0.0, 1.0], [1.0, 0.0]])   # columns: direction, normal
    return System((-1, 0, 1), tuple(Body("point2", m) for m in (m1, m2, m3)),
                  (Joint("rail"), Joint("rail", parent_frame=vertical), Joint("rail")),
                  gravity=(0.0, -9.81))


def _with_rows(T, rows):
    T = np.array(T, dtype=float)
    for i, r in rows.items():
        T[i] = r
    return T


@question("ex-fs-three",
          hint="a slider follows its parent only in the direction its rail "
               "constrains; its free coordinate is absolute",
          slips=[(lambda ref: _with_rows(ref, {3: ref[3] + ref[1], 5: ref[5] + ref[1]}),
                  "slider 2's free coordinate is its absolute height r_y2: it does "
                  "not follow slider 1 vertically"),
                 (lambda ref: _with_rows(ref, {5: 0.0 * ref[5]}),
                  "slider 3's rail is horizontal on slider 2: slider 3 follows "
                  "slider 2 vertically"),
                 (lambda ref: _with_rows(ref, {2: 0.0 * ref[2]}),
                  "slider 2's vertical rail pushes it horizontally: it follows "
                  "slider 1 in x")])
def _ex_fs_three():
    from .. import coordinates as co
    from .. import models

    three = three_sliders()
    return co.rfda_coordinates(three, models.random_state(three, seed=1))[0].T


# ----------------------------------------------------------------------------- typical slips

@slip("check_child_map", "t t^T, the projector onto the rail", hint="rail direction t")
def _slip_child_map_along(angle):
    t = np.array([np.cos(angle), np.sin(angle)])
    return np.outer(t, t)


@slip("check_child_map", "the identity", hint="projector of rank one")
def _slip_child_map_identity(angle):
    return np.eye(2)
