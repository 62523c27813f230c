"""Rigid bodies in absolute coordinates: M_i and f_i of eq. (6).

Three kinds of body, all with the reference point at the mass centre:

``"point2"``
    a planar body that only translates, y_i = (x, y), as in Featherstone's
    two-slider example (Fig. 2): M_i = m I_2.
``"planar"``
    y_i = (x, y, phi), the usual planar body of §3.2: M_i = diag(m, m, J).
``"spatial"``
    position and Euler parameters, y_i = (r (3), e (4)), with the
    pseudo-velocities ydot_i = (v, omega) that footnote 3 of the paper allows,
    omega in inertial-frame components: M_i = diag(m I_3, R J' R^T) and
    f_i = (m g, -omega x (R J' R^T) omega) (the gyroscopic term).

Examples
--------
>>> import numpy as np
>>> b = Body("planar", mass=2.0, inertia=0.5)
>>> mass_matrix(b, np.zeros(3))
array([[2. , 0. , 0. ],
       [0. , 2. , 0. ],
       [0. , 0. , 0.5]])
>>> force(b, np.zeros(3), np.zeros(3), gravity=np.array([0.0, -9.81]))
array([  0.  , -19.62,   0.  ])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import _check
from .errors import ModelError

__all__ = ["Body", "KINDS", "npos", "nvel", "ndim", "mass_matrix", "force", "rotation",
           "euler_params_to_matrix", "matrix_to_euler_params", "planar_rotation", "skew", "frame_with_z",
           "EULER_TOL", "TRIANGLE_TOL", "unit_euler"]

#: position and velocity sizes and the dimension of the space each kind lives in
KINDS = {"point2": (2, 2, 2), "planar": (3, 3, 2), "spatial": (7, 6, 3)}

#: largest | |e| - 1 | accepted for Euler parameters before a ModelError
EULER_TOL = 1e-6

#: relative slack in the triangle inequality of principal moments (see rfda_teach._check.inertia)
TRIANGLE_TOL = _check.INERTIA_TOL


def _kind(kind) -> str:
    return _check.choice(kind, KINDS, "kind", where="body kind")


def npos(kind: str) -> int:
    """Number of position coordinates y_i of a body kind.


    Examples
    --------
    >>> npos("spatial"), nvel("spatial"), ndim("planar")
    (7, 6, 2)
    """
    return KINDS[_kind(kind)][0]


def nvel(kind: str) -> int:
    """p_i: number of velocity components ydot_i of a body kind (§5.1).


    Examples
    --------
    >>> nvel("point2")
    2
    """
    return KINDS[_kind(kind)][1]


def ndim(kind: str) -> int:
    """Dimension of the space (2 for planar kinds, 3 for spatial).


    Examples
    --------
    >>> ndim("spatial")
    3
    """
    return KINDS[_kind(kind)][2]


@dataclass(frozen=True, eq=False)
class Body:
    """A rigid body: kind, mass and central inertia.

    ``inertia`` is ignored for ``"point2"``, a scalar J for ``"planar"`` and a
    3x3 symmetric positive definite matrix J' in body axes for ``"spatial"``.
    """

    kind: str
    mass: float
    inertia: object = 0.0
    name: str = ""
    _J: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        where = f"body {self.name!r}" if self.name else "body"
        try:
            known = self.kind in KINDS
        except TypeError:
            known = False
        if not known:
            raise ModelError(f"{where}: unknown kind {self.kind!r}; use one of {sorted(KINDS)}")
        m = _check.scalar(self.mass, "mass", where=where)
        if m <= 0:
            raise ModelError(f"{where}: mass {m} is not positive; give every body a mass > 0")
        object.__setattr__(self, "mass", m)
        if self.kind == "point2":
            J = np.zeros((0, 0))
        elif self.kind == "planar":
            Js = _check.scalar(self.inertia, "inertia J", where=where)
            if Js <= 0:
                raise ModelError(f"{where}: moment of inertia J = {Js} is not positive; give J > 0")
            J = np.array([[Js]])
        else:
            J = _check.inertia(self.inertia, "inertia", where=where)
        object.__setattr__(self, "_J", J)

    @property
    def J(self) -> np.ndarray:
        """Central inertia as an array (1x1 planar, 3x3 spatial, 0x0 point)."""
        return self._J


def skew(a: np.ndarray) -> np.ndarray:
    """[a]x, the 3x3 matrix with [a]x b = a x b.


    Examples
    --------
    >>> import numpy as np
    >>> skew(np.array([0.0, 0.0, 1.0])) @ np.array([1.0, 0.0, 0.0])
    array([0., 1., 0.])
    """
    return _skew(_check.vector(a, 3, "a", where="skew"))


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def planar_rotation(phi: float) -> np.ndarray:
    """A(phi) of §3.2.1: rotation by phi from body axes to global axes.


    Examples
    --------
    >>> import numpy as np
    >>> np.round(planar_rotation(np.pi / 2) @ [1.0, 0.0], 12) + 0.0
    array([0., 1.])
    """
    return _planar_rotation(_check.scalar(phi, "phi", where="planar_rotation"))


def _planar_rotation(phi):
    c, s = np.cos(phi), np.sin(phi)
    return np.array([[c, -s], [s, c]])


def euler_params_to_matrix(e: np.ndarray) -> np.ndarray:
    """Rotation matrix of unit Euler parameters e = (e0, e1, e2, e3), scalar first (Haug 1989).


    Examples
    --------
    >>> import numpy as np
    >>> euler_params_to_matrix(np.array([1.0, 0, 0, 0]))
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    return _e_to_R(unit_euler(e, "e", where="euler_params_to_matrix"))


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


def _e_to_R(e):
    e0, e1, e2, e3 = e
    return np.array([
        [e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3, 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2)],
        [2 * (e1 * e2 + e0 * e3), e0 * e0 - e1 * e1 + e2 * e2 - e3 * e3, 2 * (e2 * e3 - e0 * e1)],
        [2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), e0 * e0 - e1 * e1 - e2 * e2 + e3 * e3]])


def matrix_to_euler_params(R: np.ndarray) -> np.ndarray:
    """Unit Euler parameters (e0 >= 0) of a rotation matrix.


    Examples
    --------
    >>> import numpy as np
    >>> np.round(matrix_to_euler_params(np.diag([1.0, -1.0, -1.0])), 12) + 0.0
    array([0., 1., 0., 0.])
    """
    R = _check.matrix(R, (3, 3), "R", where="matrix_to_euler_params", orthogonal=True)
    return _R_to_e(R)


def _R_to_e(R):
    """Shepperd's method: the largest of e0^2, e1^2, e2^2, e3^2 is computed first (no cancellation)."""
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


def frame_with_z(a) -> np.ndarray:
    """A rotation matrix whose third column is the unit vector along a (joint frames for axis joints).

    Examples
    --------
    >>> import numpy as np
    >>> R = frame_with_z([0.0, 1.0, 1.0])
    >>> bool(np.allclose(R @ R.T, np.eye(3)) and np.allclose(R[:, 2], np.array([0, 1, 1]) / np.sqrt(2)))
    True
    """
    a = _check.vector(a, 3, "a", where="frame_with_z")
    if not np.linalg.norm(a) > 0:
        raise ModelError("frame_with_z: the axis a is the zero vector; give a non-zero axis direction")
    a = a / np.linalg.norm(a)
    t = np.array([1.0, 0, 0]) if abs(a[0]) < 0.9 else np.array([0, 1.0, 0])
    x = np.cross(t, a)
    x /= np.linalg.norm(x)
    return np.column_stack([x, np.cross(a, x), a])


def rotation(kind: str, y_i: np.ndarray) -> np.ndarray:
    """Orientation matrix of a body from its position coordinates y_i.


    Examples
    --------
    >>> import numpy as np
    >>> np.round(rotation("planar", np.array([0.0, 0.0, np.pi])), 12) + 0.0
    array([[-1.,  0.],
           [ 0., -1.]])
    """
    y_i = _check.vector(y_i, npos(kind), "y_i", where=f"rotation of a {kind} body")
    if kind == "spatial":
        unit_euler(y_i[3:7], "y_i[3:7]", where="rotation")
    return _rotation(kind, y_i)


def _rotation(kind: str, y_i: np.ndarray) -> np.ndarray:
    if kind == "point2":
        return np.eye(2)
    if kind == "planar":
        return _planar_rotation(y_i[2])
    return _e_to_R(y_i[3:7])


def mass_matrix(body: Body, y_i: np.ndarray) -> np.ndarray:
    """M_i of eq. (6) in the body's absolute velocity coordinates.


    Examples
    --------
    >>> import numpy as np
    >>> mass_matrix(Body("point2", 3.0), np.zeros(2))
    array([[3., 0.],
           [0., 3.]])
    """
    _check.instance(body, Body, "body", where="mass_matrix")
    y_i = _check.vector(y_i, npos(body.kind), "y_i", where="mass_matrix")
    return _mass_matrix(body, y_i)


def _mass_matrix(body: Body, y_i: np.ndarray) -> np.ndarray:
    m = body.mass
    if body.kind == "point2":
        return m * np.eye(2)
    if body.kind == "planar":
        return np.diag([m, m, body.J[0, 0]])
    R = _rotation("spatial", y_i)
    M = np.zeros((6, 6))
    M[:3, :3] = m * np.eye(3)
    M[3:, 3:] = R @ body.J @ R.T
    return M


def force(body: Body, y_i: np.ndarray, yd_i: np.ndarray, gravity: np.ndarray) -> np.ndarray:
    """f_i of eq. (6): gravity plus, for a spatial body, the gyroscopic term -omega x (J omega).


    Examples
    --------
    >>> import numpy as np
    >>> b = Body("spatial", 1.0, np.diag([1.0, 2.0, 3.0]))
    >>> force(b, np.array([0, 0, 0, 1.0, 0, 0, 0]), np.array([0, 0, 0, 1.0, 1.0, 0]), np.zeros(3)) + 0.0
    array([ 0.,  0.,  0.,  0.,  0., -1.])
    """
    _check.instance(body, Body, "body", where="force")
    y_i = _check.vector(y_i, npos(body.kind), "y_i", where="force")
    yd_i = _check.vector(yd_i, nvel(body.kind), "yd_i", where="force")
    gravity = _check.vector(gravity, ndim(body.kind), "gravity", where="force")
    return _force(body, y_i, yd_i, gravity)


def _force(body: Body, y_i: np.ndarray, yd_i: np.ndarray, gravity: np.ndarray) -> np.ndarray:
    m = body.mass
    if body.kind == "point2":
        return m * gravity
    if body.kind == "planar":
        return np.array([m * gravity[0], m * gravity[1], 0.0])
    R = _rotation("spatial", y_i)
    w = yd_i[3:6]
    Jw = R @ body.J @ (R.T @ w)
    return np.concatenate([m * gravity, -np.cross(w, Jw)])
