"""The small mathematics, written once: skew matrices and cross products, planar and spatial
rotations, Euler parameters <-> rotation matrices, elementary rotations, and standard gravity.

Conventions (the book's notation page lists them): Euler parameters are **scalar first**,
e = (e0, e1, e2, e3) with e0 = cos(angle/2) (Haug 1989; Deepak & Ghosal footnote 3), and
``euler_params_to_matrix(e)`` maps body components to global ones.  The Kane notes' relative
parameters are scalar *last* and their matrix maps the other way; :func:`rfda_teach.kane.relative_rotation`
is this module's matrix of the reordered parameters, transposed.  A planar rotation A(phi) maps
body axes to global axes (§3.2.1 of Deepak & Ghosal).

Every function takes ``check`` (keyword, default True): validate the input and raise
:class:`~rfda_teach.errors.ModelError` naming it (the public use), or skip the validation for
vectors the package has computed itself, inside its loops (``check=False``).  The numba twins in
:mod:`rfda_teach.fastpath` and the sympy twins in :mod:`rfda_teach.symbolic` are tested equal to
these functions.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import spatial
>>> a, b = np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5, 2.0])
>>> bool(np.allclose(spatial.skew(a) @ b, spatial.cross(a, b)))
True
>>> e = spatial.matrix_to_euler_params(spatial.elementary_rotation("z", 0.3))
>>> bool(np.allclose(spatial.euler_params_to_matrix(e), spatial.elementary_rotation("z", 0.3)))
True
"""
from __future__ import annotations

import numpy as np

from . import _check
from .errors import ModelError

__all__ = ["G0", "EULER_TOL", "skew", "cross", "planar_rotation", "planar_cross", "unit_euler",
           "euler_params_to_matrix", "matrix_to_euler_params", "elementary_rotation"]

#: standard gravity, m/s^2: the one value every model of the book uses
G0 = 9.81
#: how far |e| may be from 1 before Euler parameters are refused
EULER_TOL = 1e-6
_AXIS = {"x": 0, "y": 1, "z": 2}


def skew(a, *, check: bool = True) -> np.ndarray:
    """[a]x, the 3x3 matrix with [a]x b = a x b.

    Examples
    --------
    >>> import numpy as np
    >>> skew(np.array([0.0, 0.0, 1.0])) @ np.array([1.0, 0.0, 0.0])
    array([0., 1., 0.])
    """
    if check:
        a = _check.vector(a, 3, "a", where="skew")
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def cross(a, b, *, check: bool = True) -> np.ndarray:
    """a x b of two 3-vectors: the same products and differences, in the same order, as numpy.cross
    (so the same bits), without its general-axis overhead (about 5x faster for one pair).

    Examples
    --------
    >>> cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    array([0., 0., 1.])
    """
    if check:
        a, b = _check.vector(a, 3, "a", where="cross"), _check.vector(b, 3, "b", where="cross")
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def planar_rotation(phi, *, check: bool = True) -> np.ndarray:
    """A(phi) of §3.2.1: rotation by phi from body axes to global axes.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(planar_rotation(np.pi / 2) @ [1.0, 0.0], 12) + 0.0
    array([0., 1.])
    """
    if check:
        phi = _check.scalar(phi, "phi", where="planar_rotation")
    c, s = np.cos(phi), np.sin(phi)
    return np.array([[c, -s], [s, c]])


def planar_cross(w, a, *, check: bool = True) -> np.ndarray:
    """omega x a in the plane, for the angular velocity omega = w z: w (-a_y, a_x).

    Examples
    --------
    >>> planar_cross(2.0, [1.0, 0.0]) + 0.0          # + 0.0: no negative zero
    array([0., 2.])
    """
    if check:
        w = _check.scalar(w, "w", where="planar_cross")
        a = _check.vector(a, 2, "a", where="planar_cross")
    return w * np.array([-a[1], a[0]])


def unit_euler(e, what: str = "e", *, where: str = "") -> np.ndarray:
    """Four finite Euler parameters of unit norm (to :data:`EULER_TOL`), as a float array.

    Examples
    --------
    >>> unit_euler([0.0, 0.0, 0.0, 0.0])
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: Euler parameters e are all zero; they must have unit norm, e.g. (1, 0, 0, 0) for no rotation
    """
    e = _check.vector(e, 4, what, where=where)
    pre = f"{where}: " if where else ""
    nrm = float(np.linalg.norm(e))
    if nrm == 0.0:
        raise ModelError(f"{pre}Euler parameters {what} are all zero; they must have unit norm, "
                         "e.g. (1, 0, 0, 0) for no rotation")
    if abs(nrm - 1.0) > EULER_TOL:
        raise ModelError(f"{pre}Euler parameters {what} = {np.round(e, 6)} have norm {nrm:.8g}, not 1 "
                         f"(tolerance {EULER_TOL}); normalise them ({what} / |{what}|)")
    return e


def euler_params_to_matrix(e, *, check: bool = True) -> np.ndarray:
    """Rotation matrix of unit Euler parameters e = (e0, e1, e2, e3), scalar first (Haug 1989).

    Examples
    --------
    >>> import numpy as np
    >>> euler_params_to_matrix(np.array([1.0, 0, 0, 0]))
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    if check:
        e = unit_euler(e, "e", where="euler_params_to_matrix")
    e0, e1, e2, e3 = e
    return np.array([
        [e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3, 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2)],
        [2 * (e1 * e2 + e0 * e3), e0 * e0 - e1 * e1 + e2 * e2 - e3 * e3, 2 * (e2 * e3 - e0 * e1)],
        [2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), e0 * e0 - e1 * e1 - e2 * e2 + e3 * e3]])


def matrix_to_euler_params(R, *, check: bool = True) -> np.ndarray:
    """Unit Euler parameters (e0 >= 0) of a rotation matrix, by Shepperd's method: the largest of
    e0^2, e1^2, e2^2, e3^2 is computed first (no cancellation).

    Examples
    --------
    >>> import numpy as np
    >>> np.round(matrix_to_euler_params(np.diag([1.0, -1.0, -1.0])), 12) + 0.0
    array([0., 1., 0., 0.])
    """
    if check:
        R = _check.matrix(R, (3, 3), "R", where="matrix_to_euler_params", orthogonal=True)
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    k = int(np.argmax([tr, R[0, 0], R[1, 1], R[2, 2]]))
    if k == 0:
        e0 = 0.5 * np.sqrt(1.0 + tr)
        e = np.array([e0, (R[2, 1] - R[1, 2]) / (4 * e0), (R[0, 2] - R[2, 0]) / (4 * e0),
                      (R[1, 0] - R[0, 1]) / (4 * e0)])
    elif k == 1:
        e1 = 0.5 * np.sqrt(max(1.0 + 2 * R[0, 0] - tr, 0.0))
        e = np.array([(R[2, 1] - R[1, 2]) / (4 * e1), e1, (R[0, 1] + R[1, 0]) / (4 * e1),
                      (R[0, 2] + R[2, 0]) / (4 * e1)])
    elif k == 2:
        e2 = 0.5 * np.sqrt(max(1.0 + 2 * R[1, 1] - tr, 0.0))
        e = np.array([(R[0, 2] - R[2, 0]) / (4 * e2), (R[0, 1] + R[1, 0]) / (4 * e2), e2,
                      (R[1, 2] + R[2, 1]) / (4 * e2)])
    else:
        e3 = 0.5 * np.sqrt(max(1.0 + 2 * R[2, 2] - tr, 0.0))
        e = np.array([(R[1, 0] - R[0, 1]) / (4 * e3), (R[0, 2] + R[2, 0]) / (4 * e3),
                      (R[1, 2] + R[2, 1]) / (4 * e3), e3])
    e /= np.linalg.norm(e)
    return e if e[0] >= 0 else -e


def elementary_rotation(axis: str, angle, *, check: bool = True) -> np.ndarray:
    """The rotation by ``angle`` about the body's ``axis`` ("x", "y" or "z"), body to global.

    Examples
    --------
    >>> import numpy as np
    >>> bool(np.allclose(elementary_rotation("z", 0.4)[:2, :2], planar_rotation(0.4)))
    True
    """
    if check:
        axis = _check.choice(axis, tuple(_AXIS), "axis", where="elementary_rotation")
        angle = _check.scalar(angle, "angle", where="elementary_rotation")
    c, s = np.cos(angle), np.sin(angle)
    i = _AXIS[axis]
    R = np.eye(3)
    j, k = (i + 1) % 3, (i + 2) % 3
    R[j, j], R[j, k], R[k, j], R[k, k] = c, -s, s, c
    return R
