"""Rigid bodies in absolute coordinates: M_i and f_i of D&G eq. (6).

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
# the rotations and products live in rfda_teach.spatial; bodies re-exports them (its public names)
from .spatial import (EULER_TOL, cross, euler_params_to_matrix, matrix_to_euler_params, planar_rotation, rotate_inertia,
                      skew, unit_euler)

__all__ = ["Body", "KINDS", "npos", "nvel", "ndim", "mass_matrix", "force", "rotation",
           "euler_params_to_matrix", "matrix_to_euler_params", "planar_rotation", "skew", "frame_with_z",
           "EULER_TOL", "TRIANGLE_TOL", "unit_euler"]

#: position and velocity sizes and the dimension of the space each kind lives in
KINDS = {"point2": (2, 2, 2), "planar": (3, 3, 2), "spatial": (7, 6, 3)}


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
    #: False only for inertias read from a robot file (interop): the triangle inequality of the
    #: principal moments is then reported by a warning there instead of refused here
    physical: bool = field(default=True, repr=False)
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
            J = _check.inertia(self.inertia, "inertia", where=where, triangle=bool(self.physical))
        object.__setattr__(self, "_J", J)

    @property
    def J(self) -> np.ndarray:
        """Central inertia as an array (1x1 planar, 3x3 spatial, 0x0 point)."""
        return self._J


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
    x = cross(t, a, check=False)
    x /= np.linalg.norm(x)
    return np.column_stack([x, cross(a, x, check=False), a])


def rotation(kind: str, y_i: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Orientation matrix of a body from its position coordinates y_i (``check=False``: y_i computed
    by the package, not validated).

    Examples
    --------
    >>> import numpy as np
    >>> np.round(rotation("planar", np.array([0.0, 0.0, np.pi])), 12) + 0.0
    array([[-1.,  0.],
           [ 0., -1.]])
    """
    if check:
        y_i = _check.vector(y_i, npos(_kind(kind)), "y_i", where=f"rotation of a {kind} body")
        if kind == "spatial":
            unit_euler(y_i[3:7], "y_i[3:7]", where="rotation")
    if kind == "point2":
        return np.eye(2)
    if kind == "planar":
        return planar_rotation(y_i[2], check=False)
    return euler_params_to_matrix(y_i[3:7], check=False)


def mass_matrix(body: Body, y_i: np.ndarray, *, check: bool = True) -> np.ndarray:
    """M_i of D&G eq. (6) in the body's absolute velocity coordinates.


    Examples
    --------
    >>> import numpy as np
    >>> mass_matrix(Body("point2", 3.0), np.zeros(2))
    array([[3., 0.],
           [0., 3.]])
    """
    if not check:                      # arguments computed by the package: no validation
        return _mass_matrix(body, y_i)
    _check.instance(body, Body, "body", where="mass_matrix")
    y_i = _check.vector(y_i, npos(body.kind), "y_i", where="mass_matrix")
    return _mass_matrix(body, y_i)


def _mass_matrix(body: Body, y_i: np.ndarray) -> np.ndarray:
    m = body.mass
    if body.kind == "point2":
        return m * np.eye(2)
    if body.kind == "planar":
        return np.diag([m, m, body.J[0, 0]])
    R = rotation("spatial", y_i, check=False)
    M = np.zeros((6, 6))
    M[:3, :3] = m * np.eye(3)
    M[3:, 3:] = rotate_inertia(body.J, R, check=False)                 # J = R J' R^T
    return M


def force(body: Body, y_i: np.ndarray, yd_i: np.ndarray, gravity: np.ndarray, *, check: bool = True) -> np.ndarray:
    """f_i of D&G eq. (6): gravity plus, for a spatial body, the gyroscopic term -omega x (J omega).


    Examples
    --------
    >>> import numpy as np
    >>> b = Body("spatial", 1.0, np.diag([1.0, 2.0, 3.0]))
    >>> force(b, np.array([0, 0, 0, 1.0, 0, 0, 0]), np.array([0, 0, 0, 1.0, 1.0, 0]), np.zeros(3)) + 0.0
    array([ 0.,  0.,  0.,  0.,  0., -1.])
    """
    if not check:                      # arguments computed by the package: no validation
        return _force(body, y_i, yd_i, gravity)
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
    R = rotation("spatial", y_i, check=False)
    w = yd_i[3:6]
    Jw = R @ body.J @ (R.T @ w)
    return np.concatenate([m * gravity, -cross(w, Jw, check=False)])
