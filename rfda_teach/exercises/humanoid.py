"""Questions and checkers of the book's ``humanoid`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

The chapter's first checker, ``check_free_flyer_ydot``, lives in :mod:`rfda_teach.exercises`
itself; later ones live here.

* ``check_free_flyer_vdot(student_fn)`` (exercise ``ex-hum-impl-vdot``): ``student_fn(quat, c, v,
  ydd)`` returns Pinocchio's free-flyer acceleration (spatial, base axes) from the package's
  absolute acceleration ``ydd`` of the base body (classical, mass centre, world axes).

>>> import numpy as np
>>> def my_function(*args):  # the stub of the exercise
...     raise NotImplementedError
>>> check_free_flyer_vdot(my_function).passed
check_free_flyer_vdot: not implemented yet (fill in the function and run this cell again)
False
>>> def classical(quat, c, v, ydd):  # R^T rddot: forgets that v_l turns with the base
...     R = _rotation(quat)
...     wd = R.T @ ydd[3:]
...     w = v[3:]
...     return np.r_[R.T @ ydd[:3] - np.cross(wd, c) - np.cross(w, np.cross(w, c)), wd]
>>> check_free_flyer_vdot(classical).passed  # doctest: +ELLIPSIS
check_free_flyer_vdot: not yet, case 1 of 40 (...): ... subtract omega_l x v_l
False
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

from ..spatial import euler_params_to_matrix, scalar_first
from .checking import N_CASES, SEED, Case, options, run_cases
from .slips import slip

__all__ = ["check_free_flyer_vdot"]


def _rotation(quat) -> np.ndarray:
    """R (base axes to world axes) from Pinocchio's quaternion (x, y, z, w), scalar last."""
    return euler_params_to_matrix(scalar_first(quat))


def _vdot(quat, c, v, ydd, *, R_back=None, rotate_w=True, wv=-1.0, centripetal=True,
          offset=True) -> np.ndarray:
    """Pinocchio's (vdot_l, omegadot_l) from the package's (rddot, omegadot); the keywords make
    the typical slips (the defaults give the answer)."""
    R = _rotation(quat)
    Rb = R.T if R_back is None else R_back(R)
    v_l, w_l = np.asarray(v[:3], dtype=float), np.asarray(v[3:], dtype=float)
    wd_l = Rb @ ydd[3:] if rotate_w else np.asarray(ydd[3:], dtype=float)
    vd_l = Rb @ ydd[:3] + wv * np.cross(w_l, v_l)
    if offset:
        vd_l = vd_l - np.cross(wd_l, c)
    if centripetal:
        vd_l = vd_l - np.cross(w_l, np.cross(w_l, c))
    return np.r_[vd_l, wd_l]


def _vdot_case(rng: np.random.Generator, k: int) -> Case:
    """One free-flying base: random rotation (R = I in case 2), mass-centre offset (c = 0 in
    case 1), Pinocchio velocity and the package's absolute acceleration."""
    quat = np.array([0.0, 0, 0, 1]) if k == 1 else Rotation.random(random_state=rng).as_quat()
    c = np.zeros(3) if k == 0 else rng.normal(size=3)
    v, ydd = rng.normal(size=6), rng.normal(size=6)
    args = (quat, c, v, ydd)
    wrong = ((_vdot(*args, wv=0.0),
              "R^T rddot is the classical acceleration, Pinocchio's the spatial one "
              "(v_l turns with the base): subtract omega_l x v_l"),
             (_vdot(*args, wv=1.0), "sign of omega_l x v_l: R^T rddot = vdot_l + omega_l x v_l"),
             (_vdot(*args, centripetal=False),
              "the centripetal term of the mass centre about O: subtract omega_l x (omega_l x c)"),
             (_vdot(*args, offset=False),
              "the offset c turns with the angular acceleration too: subtract omegadot_l x c"),
             (_vdot(*args, R_back=lambda R: R), "back to base axes: R^T, not R"),
             (_vdot(*args, rotate_w=False), "the angular acceleration too goes to base axes: R^T omegadot"))
    where = "c = 0" if k == 0 else ("R = I" if k == 1 else "random R and c")
    return Case(tuple(a.copy() for a in args),
                f"quat: shape (4,), c: shape (3,), v: shape (6,), ydd: shape (6,), {where}",
                _vdot(*args), wrong)


def check_free_flyer_vdot(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(quat, c, v, ydd) -> vdot`` (shape (6,)): Pinocchio's free-flyer
    acceleration (vdot_l, omegadot_l) in base axes, from the quaternion ``quat`` = (x, y, z, w)
    (base axes to world), the mass-centre offset ``c`` from the joint origin in base axes,
    Pinocchio's velocity ``v`` = (v_l, omega_l) and the package's absolute acceleration ``ydd`` =
    (rddot, omegadot) of the base body (mass centre, world axes).

    The reference is the chapter's inverse of ydd = A vdot + Adot v (exercise ex-hum-rate (c));
    the notebook checks that map against ``pinocchio.aba`` on Talos.  The first case has c = 0,
    the second R = I, then random rotations and offsets.

    Examples
    --------
    >>> check_free_flyer_vdot(lambda quat, c, v, ydd: None).implemented
    check_free_flyer_vdot: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_free_flyer_vdot"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    return run_cases(name, student_fn, [_vdot_case(rng, k) for k in range(n_cases)])


#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {"free_flyer_vdot": check_free_flyer_vdot}


# ----------------------------------------------------------------------------- typical slips

@slip("check_free_flyer_vdot", "classical for spatial: no -omega_l x v_l", hint="subtract omega_l x v_l")
def _slip_vdot_classical(quat, c, v, ydd):
    return _vdot(quat, c, v, ydd, wv=0.0)


@slip("check_free_flyer_vdot", "+omega_l x v_l", hint="sign of omega_l x v_l")
def _slip_vdot_sign(quat, c, v, ydd):
    return _vdot(quat, c, v, ydd, wv=1.0)


@slip("check_free_flyer_vdot", "no centripetal term", hint="centripetal term")
def _slip_vdot_centripetal(quat, c, v, ydd):
    return _vdot(quat, c, v, ydd, centripetal=False)


@slip("check_free_flyer_vdot", "R for R^T", hint="R^T, not R")
def _slip_vdot_transposed(quat, c, v, ydd):
    return _vdot(quat, c, v, ydd, R_back=lambda R: R)
