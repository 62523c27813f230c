"""Questions and checkers of the book's ``refpoint`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

The chapter's first checkers (``check_equipollent``, ``check_velocity_transformation``) live in
:mod:`rfda_teach.exercises` itself; later ones live here.

* ``check_velocity_shift(student_fn)`` (exercise ``ex-ref-impl-shift``): ``student_fn(Y, p_from,
  p_to)`` returns the velocity state of the same rigid body at another reference point,
  ``(v + omega x (p_to - p_from), omega)`` (the shift of K&Y eq. (4)-(5); ordering (v, omega)).
* ``check_sliding_transformation(student_fn)`` (exercise ``ex-ref-impl-slide``):
  ``student_fn(p_i, p_j, r_j, Bv, Bw)`` returns K&Y's B_j1 (6x6) and B_j2 (6 x (n_v + n_w)) of
  K&Y eq. (24)-(25) for a joint with sliding coordinates (columns ``Bv``, 3 x n_v) and rotational
  ones (``Bw``, 3 x n_w, possibly no column), the sliding columns first as in K&Y eq. (25).

>>> import numpy as np
>>> def my_function(*args):  # the stub of the exercise
...     raise NotImplementedError
>>> check_velocity_shift(my_function).passed
check_velocity_shift: not implemented yet (fill in the function and run this cell again)
False
>>> check_velocity_shift(lambda Y, p_from, p_to: Y).passed  # doctest: +ELLIPSIS
check_velocity_shift: not yet, case 1 of 40 (...): ...depends on the point...
False
>>> check_sliding_transformation(_sliding_transformation).passed
check_sliding_transformation: passed on 40 cases
True
"""

from __future__ import annotations

import numpy as np

from ..spatial import shift, skew
from .checking import N_CASES, SEED, Case, options, run_cases
from .slips import slip

# the reference answers stay private: a student's notebook imports this package
__all__ = ["check_velocity_shift", "check_sliding_transformation"]


def _velocity_shift(Y, p_from, p_to) -> np.ndarray:
    """The velocity state Y = (v, omega) of a rigid body, given at the point ``p_from``, moved to
    the point ``p_to``: (v + omega x (p_to - p_from), omega); K&Y eq. (4)-(5), Y^c = T^P Y^P.

    >>> _velocity_shift(np.r_[0.0, 0, 0, 0, 0, 1], np.zeros(3), np.r_[1.0, 0, 0])
    array([0., 1., 0., 0., 0., 1.])
    """
    Y = np.asarray(Y, dtype=float)
    d = np.asarray(p_to, dtype=float) - np.asarray(p_from, dtype=float)
    return shift(d) @ Y                                            # X(d) = [[I, -[d]x], [0, I]]


def _sliding_transformation(p_i, p_j, r_j, Bv, Bw):
    """K&Y eq. (24)-(25) with sliding coordinates: B_j1 = [[I, -(p_j - p_i)~], [0, I]] and
    B_j2 = [[Bv, -(p_j - r_j)~ Bw], [0, Bw]], the sliding columns first.

    ``Bv`` (3 x n_v) are the sliding directions B^v_j, ``Bw`` (3 x n_w, n_w may be 0) the
    rotation axes B^omega_j, all in world components; ``r_j`` is the joint point (it slides with
    the joint), ``p_i``, ``p_j`` the reference points of the lower body and of body j.
    """
    p_i, p_j, r_j = (np.asarray(x, dtype=float) for x in (p_i, p_j, r_j))
    Bv = np.asarray(Bv, dtype=float).reshape(3, -1)
    Bw = np.asarray(Bw, dtype=float).reshape(3, -1)
    B1 = shift(p_j - p_i)                                          # K&Y eq. (25)
    top = np.hstack([Bv, -skew(p_j - r_j) @ Bw])
    bottom = np.hstack([np.zeros_like(Bv), Bw])
    return B1, np.vstack([top, bottom])


def check_velocity_shift(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(Y, p_from, p_to) -> Y_to``: the velocity state (v, omega) of a rigid
    body moved from the reference point ``p_from`` to ``p_to`` (K&Y eq. (4)-(5)).

    The cases are random velocity states and points; every third case moves to the world
    origin (the IGO of the chapter), every third from it.  Reference: ``_velocity_shift``.
    """
    name = "check_velocity_shift"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    kinds = ("general points", "to the world origin (IGO)", "from the world origin (IGO)")
    cases = []
    for k in range(n_cases):
        Y, p_from, p_to = rng.normal(size=6), rng.normal(size=3), rng.normal(size=3)
        if k % 3 == 1:
            p_to = np.zeros(3)
        elif k % 3 == 2:
            p_from = np.zeros(3)
        ref = _velocity_shift(Y, p_from, p_to)
        wrong = ((_velocity_shift(Y, p_to, p_from),
                  "direction of the lever: v_to = v_from + omega x (p_to - p_from), the lever runs "
                  "from the old point to the new one (or the cross product is reversed)"),
                 (np.r_[ref[3:], ref[:3]], "ordering: the state is (v, omega), velocity first"),
                 (Y.copy(), "the velocity of a rigid body depends on the point: add the "
                            "rotation's share omega x (lever)"),
                 (np.r_[ref[:3], ref[3:] + np.cross(ref[3:], p_to - p_from)],
                  "omega is the same at every point of the body: shift only v"))
        cases.append(Case((Y, p_from, p_to), f"Y: shape (6,), p_from, p_to: shape (3,), {kinds[k % 3]}",
                          ref, wrong))
    return run_cases(name, student_fn, cases)


def check_sliding_transformation(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(p_i, p_j, r_j, Bv, Bw) -> (B1, B2)``: K&Y's B_j1 (6x6) and B_j2
    (6 x (n_v + n_w)) of K&Y eq. (24)-(25) for a joint with sliding directions ``Bv`` (3 x n_v) and
    rotation axes ``Bw`` (3 x n_w, n_w = 0 for a prismatic joint), sliding columns first;
    ordering (v, omega), world components.

    The cases are prismatic (n_v = 1, n_w = 0), cylindrical (1, 1) and planar-like (2, 1) joints
    at the IGO, the joint point and general points.  Reference: ``_sliding_transformation``.
    """
    from scipy.spatial.transform import Rotation

    name = "check_sliding_transformation"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    joints = (("prismatic", 1, 0), ("cylindrical", 1, 1), ("two slides and a turn", 2, 1))
    points = ("IGO (p_i = p_j = 0)", "joint point (p_j = r_j)", "general points")
    cases = []
    for k in range(n_cases):
        jname, nv, nw = joints[k % 3]
        R = Rotation.random(random_state=rng).as_matrix()
        Bv, Bw = R[:, :nv], R[:, nv:nv + nw]          # orthonormal: slides across the axis
        r_j, p_i, p_j = (rng.normal(size=3) for _ in range(3))
        where = points[(k // 3) % 3]
        if where.startswith("IGO"):
            p_i, p_j = np.zeros(3), np.zeros(3)
        elif where.startswith("joint"):
            p_j = r_j.copy()
        B1, B2 = _sliding_transformation(p_i, p_j, r_j, Bv, Bw)
        S = skew(p_j - r_j) @ Bw
        wrong = (((B1, np.vstack([np.hstack([np.zeros((3, nv)), -S]), B2[3:]])),
                  "the sliding columns: a slide moves the body's points by B^v_j qdot^v, "
                  "so B^v_j is the top block of its columns"),
                 ((B1, np.vstack([np.hstack([np.zeros((3, nv)), -S]),
                                  np.hstack([Bv, Bw])])),
                  "a slide adds no angular velocity: B^v_j belongs in the top (velocity) rows"),
                 ((B1, np.hstack([B2[:, nv:], B2[:, :nv]])),
                  "order of the columns: sliding coordinates first, as in eq. (25)"),
                 ((B1, np.vstack([np.hstack([Bv, -skew(p_j - p_i) @ Bw]),
                                  B2[3:]])),
                  "lever of the joint's rotation: it turns about the joint point r_j, "
                  "top block -(p_j - r_j)~ B^omega_j"))
        cases.append(Case((p_i, p_j, r_j, Bv, Bw),
                          f"a {jname} joint (Bv: 3x{nv}, Bw: 3x{nw}), {where}",
                          (B1, B2), wrong))
    return run_cases(name, student_fn, cases)


#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {"velocity_shift": check_velocity_shift,
                  "sliding_transformation": check_sliding_transformation}


# ----------------------------------------------------------------------------- typical slips

@slip("check_velocity_shift", "the lever from p_to to p_from", hint="direction of the lever")
def _slip_shift_lever(Y, p_from, p_to):
    return _velocity_shift(Y, p_to, p_from)


@slip("check_velocity_shift", "(omega, v) instead of (v, omega)", hint="ordering")
def _slip_shift_order(Y, p_from, p_to):
    Y2 = _velocity_shift(Y, p_from, p_to)
    return np.r_[Y2[3:], Y2[:3]]


@slip("check_velocity_shift", "no shift at all", hint="depends on the point")
def _slip_shift_none(Y, p_from, p_to):
    return np.array(Y, dtype=float)


@slip("check_sliding_transformation", "the sliding columns left zero", hint="sliding columns")
def _slip_slide_missing(p_i, p_j, r_j, Bv, Bw):
    B1, B2 = _sliding_transformation(p_i, p_j, r_j, Bv, Bw)
    B2[:3, :np.shape(Bv)[1]] = 0.0
    return B1, B2


@slip("check_sliding_transformation", "B^v in the angular rows", hint="no angular velocity")
def _slip_slide_rows(p_i, p_j, r_j, Bv, Bw):
    B1, B2 = _sliding_transformation(p_i, p_j, r_j, Bv, Bw)
    nv = np.shape(Bv)[1]
    B2[3:, :nv], B2[:3, :nv] = B2[:3, :nv].copy(), 0.0
    return B1, B2


@slip("check_sliding_transformation", "rotational columns first", hint="order of the columns")
def _slip_slide_order(p_i, p_j, r_j, Bv, Bw):
    B1, B2 = _sliding_transformation(p_i, p_j, r_j, Bv, Bw)
    nv = np.shape(Bv)[1]
    return B1, np.hstack([B2[:, nv:], B2[:, :nv]])


@slip("check_sliding_transformation", "the rotation's lever from p_i", hint="lever of the joint")
def _slip_slide_lever(p_i, p_j, r_j, Bv, Bw):
    return _sliding_transformation(p_i, p_j, p_i, Bv, Bw)
