"""The small mathematics, written once: skew matrices and cross products, planar and spatial
rotations, Euler parameters <-> rotation matrices and their rates (E(e), G(e)), elementary
rotations, spatial shifts of twists and wrenches, inertia transport, and standard gravity.

Conventions (the book's notation page lists them):

* Euler parameters are **scalar first**, e = (e0, e1, e2, e3) with e0 = cos(angle/2) (Haug 1989;
  Deepak & Ghosal footnote 3), and ``euler_params_to_matrix(e)`` maps body components to global
  ones.  Scalar-last quaternions (Pinocchio, scipy, three.js, the Kane notes) are reordered by
  :func:`scalar_first` and :func:`scalar_last`, never by a second formula.  The Kane notes'
  relative parameters are scalar *last* and their matrix maps the other way:
  :func:`rfda_teach.kane.relative_rotation` is this module's matrix of the reordered parameters,
  transposed, and Kane's [E_hat']^T of Kane eq. (44) is G(e)^T with its rows reordered.
* Haug's 3x4 matrices E(e) = [-e_v, [e_v]x + e0 I] and G(e) = [-e_v, -[e_v]x + e0 I] give the
  angular velocity omega = 2 E(e) e_dot in global components and omega' = 2 G(e) e_dot in body
  components, and R = E(e) G(e)^T; :func:`euler_params_rate` is the inverse, e_dot = 1/2 E^T omega
  = 1/2 G^T omega'.
* A planar rotation A(phi) maps body axes to global axes (§3.2.1 of Deepak & Ghosal).
* Twists and wrenches are ordered **(linear, angular)**: a twist (v, omega), v the velocity of the
  reference point; a wrench (f, n), n the moment about the reference point; planar ones
  (v_x, v_y, omega_z) and (f_x, f_y, n_z).  This is Kang & Yoon's (v, omega) and Pinocchio's
  ordering.  Critchley & Anderson put the angular part first; :mod:`rfda_teach.rcr` converts with
  :func:`order_permutation` (X_rcr = P^T X P), never with its own copy of the shift.
* :func:`shift` X(r) moves a twist from a point A to the point B = A + r (v_B = v_A + omega x r),
  :func:`force_shift` moves a wrench the same way (n_B = n_A - r x f), and
  force_shift(r) = shift(r)^-T; :func:`spatial_inertia` about a point A is
  shift(c)^T diag(m I, J_c) shift(c), c from A to the mass centre (K&Y eq. (4)-(8)).

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
>>> bool(np.allclose(spatial.euler_E(e) @ spatial.euler_G(e).T, spatial.euler_params_to_matrix(e)))
True
"""
from __future__ import annotations

import numpy as np

from . import _check
from .errors import ModelError

__all__ = ["G0", "EULER_TOL", "skew", "cross", "planar_rotation", "planar_cross", "planar_transform",
           "unit_euler", "euler_params_to_matrix", "matrix_to_euler_params", "elementary_rotation",
           "scalar_first", "scalar_last", "axis_angle_to_euler_params", "euler_params_product", "euler_E",
           "euler_G", "euler_params_rate", "shift", "force_shift", "order_permutation", "rotate_inertia",
           "parallel_axis", "spatial_inertia"]

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


def planar_transform(p, phi, *, check: bool = True) -> np.ndarray:
    """F(p, phi): the homogeneous 3x3 transform [[A(phi), p], [0, 1]] of a planar frame at the point
    p turned by phi (body coordinates (x, y, 1) to global ones).

    Examples
    --------
    >>> import numpy as np
    >>> np.round(planar_transform([1.0, 2.0], np.pi / 2) @ [1.0, 0.0, 1.0], 12) + 0.0
    array([1., 3., 1.])
    """
    if check:
        p = _check.vector(p, 2, "p", where="planar_transform")
        phi = _check.scalar(phi, "phi", where="planar_transform")
    c, s = np.cos(phi), np.sin(phi)
    return np.array([[c, -s, p[0]], [s, c, p[1]], [0.0, 0.0, 1.0]])


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


# ----------------------------------------------------------------------------- Euler parameters: order, product, rates

def _four(q, what: str, where: str) -> np.ndarray:
    return _check.vector(q, 4, what, where=where, hint="four Euler parameters (a quaternion)")


def scalar_first(q, *, check: bool = True) -> np.ndarray:
    """(w, x, y, z) from a scalar-last quaternion q = (x, y, z, w) (Pinocchio, scipy, three.js, the
    Kane notes' (e1, e2, e3, e4)): the book's order e = (e0, e1, e2, e3).  Only a reorder; the norm
    is not checked.

    Examples
    --------
    >>> scalar_first([0.0, 0.0, 0.6, 0.8])
    array([0.8, 0. , 0. , 0.6])
    """
    if check:
        q = _four(q, "q", "scalar_first")
    return np.array([q[3], q[0], q[1], q[2]])


def scalar_last(e, *, check: bool = True) -> np.ndarray:
    """(x, y, z, w) from the book's scalar-first e = (e0, e1, e2, e3): the inverse of
    :func:`scalar_first`.  Also reorders the rows of a 4 x k array (``check=False`` only).

    Examples
    --------
    >>> scalar_last([0.8, 0.0, 0.0, 0.6])
    array([0. , 0. , 0.6, 0.8])
    """
    if check:
        e = _four(e, "e", "scalar_last")
    return e[[1, 2, 3, 0]]


def axis_angle_to_euler_params(axis, angle, *, check: bool = True) -> np.ndarray:
    """Unit Euler parameters (scalar first) of the rotation by ``angle`` about ``axis`` (any
    non-zero length): e = (cos(angle/2), sin(angle/2) axis/|axis|).

    Examples
    --------
    >>> import numpy as np
    >>> np.round(axis_angle_to_euler_params([0.0, 0.0, 2.0], np.pi), 12) + 0.0
    array([0., 0., 0., 1.])
    """
    if check:
        axis = _check.vector(axis, 3, "axis", where="axis_angle_to_euler_params")
        angle = _check.scalar(angle, "angle", where="axis_angle_to_euler_params")
        if not np.linalg.norm(axis) > 0:
            raise ModelError("axis_angle_to_euler_params: axis is the zero vector; give a non-zero rotation axis")
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def euler_params_product(a, b, *, check: bool = True) -> np.ndarray:
    """The quaternion product a * b, scalar first: (a0 b0 - a_v . b_v, a0 b_v + b0 a_v + a_v x b_v).
    For unit parameters R(a * b) = R(a) R(b).

    Examples
    --------
    >>> import numpy as np
    >>> e = axis_angle_to_euler_params([0, 0, 1.0], 0.3)
    >>> bool(np.allclose(euler_params_product(e, e), axis_angle_to_euler_params([0, 0, 1.0], 0.6)))
    True
    """
    if check:
        a, b = _four(a, "a", "euler_params_product"), _four(b, "b", "euler_params_product")
    a0, av = a[0], a[1:]
    b0, bv = b[0], b[1:]
    return np.concatenate([[a0 * b0 - av @ bv], a0 * bv + b0 * av + cross(av, bv, check=False)])


def euler_E(e, *, check: bool = True) -> np.ndarray:
    """Haug's 3x4 E(e) = [-e_v, [e_v]x + e0 I] (scalar first): omega = 2 E(e) e_dot is the angular
    velocity in **global** components, e_dot = 1/2 E(e)^T omega, and R(e) = E(e) G(e)^T.

    Examples
    --------
    >>> euler_E([1.0, 0.0, 0.0, 0.0]) + 0.0
    array([[0., 1., 0., 0.],
           [0., 0., 1., 0.],
           [0., 0., 0., 1.]])
    """
    if check:
        e = unit_euler(e, "e", where="euler_E")
    e0, e1, e2, e3 = e
    return np.array([[-e1, e0, -e3, e2], [-e2, e3, e0, -e1], [-e3, -e2, e1, e0]])


def euler_G(e, *, check: bool = True) -> np.ndarray:
    """Haug's 3x4 G(e) = [-e_v, -[e_v]x + e0 I] (scalar first): omega' = 2 G(e) e_dot is the
    angular velocity in **body** components, e_dot = 1/2 G(e)^T omega'.  The Kane notes'
    [E_hat'_K]^T of Kane eq. (44) is G(e)^T with the scalar row last (:func:`rfda_teach.kane.E_hat`).

    Examples
    --------
    >>> import numpy as np
    >>> e = axis_angle_to_euler_params([1.0, 2.0, 2.0], 0.7)
    >>> R = euler_params_to_matrix(e)
    >>> bool(np.allclose(euler_G(e), R.T @ euler_E(e)))          # omega' = R^T omega
    True
    """
    if check:
        e = unit_euler(e, "e", where="euler_G")
    e0, e1, e2, e3 = e
    return np.array([[-e1, e0, e3, -e2], [-e2, -e3, e0, e1], [-e3, e2, -e1, e0]])


_FRAMES = ("global", "body")


def euler_params_rate(e, omega, *, frame: str = "global", check: bool = True) -> np.ndarray:
    """e_dot of Euler parameters e (scalar first) under the angular velocity omega:
    1/2 E(e)^T omega = 1/2 (0, omega) * e for omega in global components (``frame="global"``),
    1/2 G(e)^T omega' = 1/2 e * (0, omega') for body components (``frame="body"``); * is
    :func:`euler_params_product`.

    Examples
    --------
    >>> euler_params_rate([1.0, 0, 0, 0], [0, 0, 2.0])
    array([0., 0., 0., 1.])
    """
    if check:
        where = "euler_params_rate"
        e = unit_euler(e, "e", where=where)
        omega = _check.vector(omega, 3, "omega", where=where, hint="the angular velocity (rad/s)")
        frame = _check.choice(frame, _FRAMES, "frame", where=where)
    w = np.concatenate([[0.0], omega])
    if frame == "global":
        return 0.5 * euler_params_product(w, e, check=False)
    return 0.5 * euler_params_product(e, w, check=False)


# ----------------------------------------------------------------------------- shifts, (linear, angular) order

def _offset(r, where: str) -> np.ndarray:
    r = _check.vector(r, None, "r", where=where, hint="an offset (x, y) or (x, y, z) in metres")
    if r.shape[0] not in (2, 3):
        raise ModelError(f"{where}: r has shape {r.shape}; it must be (2,) (planar) or (3,) (spatial)")
    return r


def shift(r, *, check: bool = True) -> np.ndarray:
    """X(r): moves a twist (v, omega) from a point A to B = A + r, v_B = v_A + omega x r.
    Spatial (r of 3): [[I, -[r]x], [0, I]] (6x6); planar (r of 2, twist (v_x, v_y, omega_z)):
    [[1, 0, -r_y], [0, 1, r_x], [0, 0, 1]].  X(r1 + r2) = X(r2) X(r1), X(r)^-1 = X(-r); K&Y's
    T^P of K&Y eq. (4) is X(-s^P) and their B_j1 of K&Y eq. (24) is X(p_j - p_i).

    Examples
    --------
    >>> shift([1.0, 0.0]) @ [0.0, 0.0, 1.0]         # turning at 1 rad/s: the point 1 m along x moves up
    array([0., 1., 1.])
    """
    if check:
        r = _offset(r, "shift")
    if r.shape[0] == 2:
        return np.array([[1.0, 0.0, -r[1]], [0.0, 1.0, r[0]], [0.0, 0.0, 1.0]])
    X = np.eye(6)
    X[:3, 3:] = -skew(r, check=False)
    return X


def force_shift(r, *, check: bool = True) -> np.ndarray:
    """X*(r): moves a wrench (f, n) from a point A to B = A + r, n_B = n_A - r x f; X*(r) = X(r)^-T
    = X(-r)^T, so the power f . v + n . omega is the same at every point.  Spatial (r of 3):
    [[I, 0], [-[r]x, I]]; planar (r of 2, wrench (f_x, f_y, n_z)): [[1, 0, 0], [0, 1, 0],
    [r_y, -r_x, 1]].

    Examples
    --------
    >>> force_shift([1.0, 0.0]) @ [0.0, -2.0, 0.0]   # a downward force 1 m to the left of B
    array([ 0., -2.,  2.])
    """
    if check:
        r = _offset(r, "force_shift")
    if r.shape[0] == 2:
        return np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [r[1], -r[0], 1.0]])
    X = np.eye(6)
    X[3:, :3] = -skew(r, check=False)
    return X


def order_permutation(n: int = 6) -> np.ndarray:
    """P with P (omega, v) = (v, omega): from angular-first (Critchley & Anderson; Featherstone)
    to this module's (linear, angular) order, for 6-vectors (n = 6) or planar 3-vectors (n = 3,
    (omega_z, v_x, v_y) -> (v_x, v_y, omega_z)).  A matrix converts as P^T X P (to angular first)
    and P X P^T (back); P^-1 = P^T.

    Examples
    --------
    >>> order_permutation(3) @ [3.0, 1.0, 2.0]
    array([1., 2., 3.])
    """
    n = _check.choice(n, (3, 6), "n", where="order_permutation")
    return np.roll(np.eye(n), 1 if n == 3 else 3, axis=1)


# ----------------------------------------------------------------------------- inertia transport

def rotate_inertia(J, R, *, check: bool = True) -> np.ndarray:
    """R J R^T: an inertia matrix J in the components of a frame, given in the components that R
    maps them to (body-frame J' -> global J = R J' R^T for R body to global).

    Examples
    --------
    >>> import numpy as np
    >>> rotate_inertia(np.diag([1.0, 2.0, 2.5]), elementary_rotation("z", np.pi / 2)).round(12) + 0.0
    array([[2. , 0. , 0. ],
           [0. , 1. , 0. ],
           [0. , 0. , 2.5]])
    """
    if check:
        J = _check.matrix(J, (3, 3), "J", where="rotate_inertia", symmetric=True)
        R = _check.matrix(R, (3, 3), "R", where="rotate_inertia", orthogonal=True)
    return R @ J @ R.T


def _mass_inertia_offset(m, J, c, where: str):
    """(m, J, c) checked: J a positive scalar (planar; also a 1x1 array) or a 3x3 inertia, c None or
    an offset of the matching dimension."""
    m = _check.scalar(m, "m", where=where, positive=True)
    if isinstance(J, np.ndarray) and J.size == 1 and J.ndim <= 2:
        J = J.reshape(()).item()
    if np.ndim(J) == 0:
        J = _check.scalar(J, "J", where=where, positive=True)
    else:
        J = _check.inertia(J, "J", where=where, triangle=False)
    if c is not None:
        c = _offset(c, where)
        if c.shape[0] != (2 if np.ndim(J) == 0 else 3):
            raise ModelError(f"{where}: c has shape {c.shape}; a {'planar (scalar)' if np.ndim(J) == 0 else '3x3'} J "
                             f"needs an offset of shape ({2 if np.ndim(J) == 0 else 3},)")
    return m, J, c


def parallel_axis(m, J, c, *, check: bool = True):
    """The inertia about a point A of a body of mass m and central inertia J whose mass centre is
    at A + c (parallel-axis theorem): J_A = J + m (|c|^2 I - c c^T) = J - m [c]x [c]x; planar
    (J a scalar, c of 2): J_A = J + m |c|^2.

    Examples
    --------
    >>> import numpy as np
    >>> parallel_axis(2.0, 1 / 6, [0.5, 0.0])                 # a 1 m bar of 2 kg about its end
    0.6666666666666666
    >>> parallel_axis(2.0, np.eye(3), [0.0, 0.0, 1.0]).diagonal()
    array([3., 3., 1.])
    """
    if check:
        m, J, c = _mass_inertia_offset(m, J, c, "parallel_axis")
    cc = c @ c
    if c.shape[0] == 2:
        return float(J + m * cc)
    return J + m * (cc * np.eye(3) - np.outer(c, c))


def spatial_inertia(m, J, c=None, *, check: bool = True) -> np.ndarray:
    """The spatial inertia about a point A, ordered (linear, angular): the kinetic energy of the
    twist V_A = (v_A, omega) is 1/2 V_A^T I_A V_A.  c (default 0) points from A to the mass centre;
    I_A = X(c)^T diag(m I, J) X(c) = [[m I, -m [c]x], [m [c]x, J - m [c]x [c]x]] (K&Y eq. (3)-(8)
    with s^P = -c); planar (J a scalar, c of 2): 3x3 for (v_x, v_y, omega_z).

    Examples
    --------
    >>> spatial_inertia(2.0, 1 / 6, [0.5, 0.0]).round(12)     # the bar about its end
    array([[2.        , 0.        , 0.        ],
           [0.        , 2.        , 1.        ],
           [0.        , 1.        , 0.66666667]])
    """
    if check:
        m, J, c = _mass_inertia_offset(m, J, c, "spatial_inertia")
    if np.ndim(J) == 0:
        I_A = np.diag([m, m, J])
        if c is None:
            return I_A
        X = shift(c, check=False)
        return X.T @ I_A @ X
    I_A = np.zeros((6, 6))
    I_A[:3, :3] = m * np.eye(3)
    I_A[3:, 3:] = J
    if c is None:
        return I_A
    X = shift(c, check=False)
    return X.T @ I_A @ X
