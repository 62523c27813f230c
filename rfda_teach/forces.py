"""Force elements: a linear spring-damper between two points of two bodies (or a body and the ground).

A :class:`SpringDamper` joins the point P_a of body ``a`` to the point P_b of body ``b``; its
length L = |P_b - P_a| and its rate Ldot = u . (v_Pb - v_Pa), u = (P_b - P_a) / L, give the
tension

    T = k (L - L0) + c Ldot,

which pulls the points together when positive (stretched or opening).  On body ``a`` the force
F_a = T u acts at P_a, on body ``b`` the force F_b = -T u at P_b; each enters D&G eq. (6) as a
generalized force in the body's absolute velocity coordinates (:func:`generalized_forces`):
(F, rho x F) with rho = R p' the arm from the mass centre, the moment in global components (the
angular velocity of a spatial body is global, :mod:`rfda_teach.bodies`), the scalar
rho_x F_y - rho_y F_x for a planar body, and F alone for a ``"point2"`` body.  The spring stores
V = 1/2 k (L - L0)^2 (:func:`potential`), so that the generalized force of an undamped element
is minus the gradient of V and :func:`rfda_teach.simulate.energy` (kinetic + gravity + springs) is
conserved.  :class:`rfda_teach.system.System` holds the elements (``forces=``) and
:func:`rfda_teach.system.terms` adds their forces to f, so every solver built on the terms (D&G eq. (7),
both RFDA forms, the joint-space baseline, :mod:`rfda_teach.simulate`) sees them; the compiled fast path
and the MJCF export refuse a system with force elements.  A :class:`Tyre` is the vertical point-contact
tyre of Kang & Yoon's quarter car (force k (r - h) up while the point's height h above the road is
below the radius r); :func:`rfda_teach.refpoint.from_system` turns both elements into Kang & Yoon's
record (:class:`rfda_teach.refpoint.SpringDamper` is the same law, its points in the body's joint frame).

Examples
--------
A unit mass on a spring of stiffness 4 N/m to the ground, stretched 0.1 m beyond its free length
of 1 m: the spring pulls it back with 0.4 N.

>>> import math

import numpy as np
>>> s = SpringDamper(0, -1, k=4.0, L0=1.0)
>>> fa, fb = generalized_forces(s, "planar", np.array([1.1, 0.0, 0.0]), np.zeros(3), None, None)
>>> np.round(fa, 12) + 0.0, fb
(array([-0.4,  0. ,  0. ]), None)
>>> round(potential(s, "planar", np.array([1.1, 0.0, 0.0]), None), 12)
0.02
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _check
from .bodies import KINDS, ndim, npos, nvel, rotation, unit_euler
from .errors import ConstraintViolationError, ModelError
from .spatial import cross, planar_cross

__all__ = ["SpringDamper", "Tyre", "ELEMENTS", "Elongation", "elongation", "generalized_forces", "potential",
           "COINCIDENT_TOL"]

#: two attachment points closer than this (metres) leave the line of a spring-damper undefined
COINCIDENT_TOL = 1e-12


def _index(v, what: str, where: str) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < -1:
        raise ModelError(f"{where}: {what} must be a body index (an int >= 0) or -1 for the ground, got {v!r}")
    return int(v)


@dataclass(frozen=True, eq=False)
class SpringDamper:
    """A linear spring-damper: tension T = k (L - L0) + c Ldot along the line between two points.

    Parameters
    ----------
    a, b : int
        Body indices of the two ends (-1 for the ground; not both the same).
    point_a, point_b : array_like, optional
        The attachment points in body components relative to the body's mass centre, as the points
        of a :class:`~rfda_teach.joints.Joint` (2 entries for planar bodies, 3 for spatial); on the
        ground, global coordinates.  Default: the mass centre (the origin for the ground).
    k : float
        Stiffness (N/m), >= 0.
    c : float
        Damping (N s/m), >= 0.
    L0 : float
        Free length (m), >= 0.
    name : str
        Shown in messages and tables (default ``"spring <a>-<b>"``).

    Examples
    --------
    >>> SpringDamper(0, -1, point_a=[0.5, 0.0], k=100.0, c=2.0, L0=0.3).name
    'spring 0-ground'
    >>> SpringDamper(0, 1, k=-1.0)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: spring 'spring 0-1': k (stiffness, N/m) is -1.0; it must be >= 0
    """

    a: int
    b: int
    point_a: object = None
    point_b: object = None
    k: float = 0.0
    c: float = 0.0
    L0: float = 0.0
    name: str = ""

    def __post_init__(self):
        where = f"spring {self.name!r}" if self.name else "SpringDamper"
        a, b = _index(self.a, "a", where), _index(self.b, "b", where)
        if a == b:
            side = "the ground" if a < 0 else f"body {a}"
            raise ModelError(f"{where}: a and b are both {side}; a spring-damper joins two different bodies "
                             "(or a body and the ground, -1)")
        if not self.name:
            side = lambda i: "ground" if i < 0 else str(i)          # noqa: E731
            object.__setattr__(self, "name", f"spring {side(a)}-{side(b)}")
        where = f"spring {self.name!r}"
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        for nm in ("point_a", "point_b"):
            p = getattr(self, nm)
            if p is not None:
                p = _check.vector(p, None, nm, where=where, hint="2 entries for planar bodies, 3 for spatial")
                if p.shape[0] not in (2, 3):
                    raise ModelError(f"{where}: {nm} has {p.shape[0]} entries; give 2 (planar) or 3 (spatial)")
                object.__setattr__(self, nm, p)
        pa, pb = self.point_a, self.point_b
        if pa is not None and pb is not None and pa.shape != pb.shape:
            raise ModelError(f"{where}: point_a has {pa.shape[0]} entries but point_b {pb.shape[0]}; both "
                             "points live in the same space (2 entries planar, 3 spatial)")
        for nm, unit in (("k", "stiffness, N/m"), ("c", "damping, N s/m"), ("L0", "free length, m")):
            object.__setattr__(self, nm, _check.scalar(getattr(self, nm), f"{nm} ({unit})", where=where,
                                                       nonneg=True))

    @property
    def dim(self):
        """2 or 3 when a point fixes the space the element lives in, else None (either)."""
        p = self.point_a if self.point_a is not None else self.point_b
        return None if p is None else p.shape[0]

    @property
    def summary(self) -> str:
        """The constants in one phrase, for tables (:class:`rfda_teach.system.System`).

        Examples
        --------
        >>> SpringDamper(0, -1, k=100.0, c=2.0, L0=0.3).summary
        'k 100, c 2, L0 0.3'
        """
        return f"k {self.k:.4g}, c {self.c:.4g}, L0 {self.L0:.4g}"


def _road(road, where: str):
    if road is not None and not callable(road):
        raise ModelError(f"{where}: road must be None (flat, height 0) or a function of time t returning the road "
                         f"height in metres, e.g. refpoint.road_bump(); got {road!r}")
    return road


@dataclass(frozen=True, eq=False)
class Tyre:
    """A vertical point-contact tyre: the force k (r - h) upwards at a point P of one body while the
    penetration r - h is positive, h = z_P - road(t) the height of P above the road.

    The quarter car of Kang & Yoon (2003, Fig. 3) rests on it (:func:`rfda_teach.refpoint.quarter_car`).
    "Up" is the last global axis (z for spatial bodies, y for planar and ``"point2"`` ones); the
    force acts at P, so it also gives the moment rho x F about the mass centre.  The tyre stores
    V = 1/2 k (r - h)^2 while in contact (:func:`potential`), so that with a flat road
    :func:`rfda_teach.simulate.energy` stays constant.

    Parameters
    ----------
    body : int
        The body that carries the wheel (>= 0).
    point : array_like, optional
        P in body components relative to the mass centre (2 or 3 entries); default the mass centre.
    k : float
        Radial stiffness (N/m), >= 0.
    radius : float
        Free radius r (m), >= 0: the height of P above the road at which contact starts.
    road : callable, optional
        road(t), the road height (m) at time t; default None, a flat road at height 0.
    name : str
        Shown in messages and tables (default ``"tyre <body>"``).

    Examples
    --------
    >>> Tyre(1, k=200e3, radius=0.3).name, Tyre(1, k=200e3, radius=0.3).a, Tyre(1, k=200e3, radius=0.3).b
    ('tyre 1', 1, -1)
    >>> Tyre(-1, k=1.0)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: Tyre: body must be a body index (an int >= 0), got -1
    """

    body: int
    point: object = None
    k: float = 0.0
    radius: float = 0.0
    road: object = None
    name: str = ""

    def __post_init__(self):
        where = f"tyre {self.name!r}" if self.name else "Tyre"
        b = self.body
        if isinstance(b, (bool, np.bool_)) or not isinstance(b, (int, np.integer)) or b < 0:
            raise ModelError(f"{where}: body must be a body index (an int >= 0), got {b!r}")
        object.__setattr__(self, "body", int(b))
        if not self.name:
            object.__setattr__(self, "name", f"tyre {int(b)}")
        where = f"tyre {self.name!r}"
        if self.point is not None:
            p = _check.vector(self.point, None, "point", where=where, hint="2 entries for planar bodies, 3 for spatial")
            if p.shape[0] not in (2, 3):
                raise ModelError(f"{where}: point has {p.shape[0]} entries; give 2 (planar) or 3 (spatial)")
            object.__setattr__(self, "point", p)
        for nm, unit in (("k", "stiffness, N/m"), ("radius", "free radius, m")):
            object.__setattr__(self, nm, _check.scalar(getattr(self, nm), f"{nm} ({unit})", where=where,
                                                       nonneg=True))
        _road(self.road, where)

    @property
    def a(self) -> int:
        """The body end (the element's end a, as for :class:`SpringDamper`)."""
        return self.body

    @property
    def b(self) -> int:
        """The road end: -1, the ground."""
        return -1

    @property
    def dim(self):
        """2 or 3 when the point fixes the space the element lives in, else None (either)."""
        return None if self.point is None else self.point.shape[0]

    @property
    def summary(self) -> str:
        """The constants in one phrase, for tables.

        Examples
        --------
        >>> Tyre(0, k=200e3, radius=0.3).summary
        'k 2e+05, radius 0.3, flat road'
        """
        return f"k {self.k:.4g}, radius {self.radius:.4g}, {'flat road' if self.road is None else 'road(t)'}"

    def height(self, t: float = 0.0) -> float:
        """The road height road(t) (0 for a flat road).

        Examples
        --------
        >>> Tyre(0, road=lambda t: 0.1 * t).height(2.0)
        0.2
        """
        t = _check.time(t, "t", where=f"tyre {self.name!r}")
        return self._height(t)

    def _height(self, t: float) -> float:
        if self.road is None:
            return 0.0
        z = _check.user_call(self.road, (t,), "road(t)", where=f"tyre {self.name!r}")
        if type(z) is not float or not math.isfinite(z):              # slow path: a clear error or a float
            z = _check.scalar(z, f"road({t:g})", where=f"tyre {self.name!r}: the road height")
        return z


#: the force element types a :class:`~rfda_teach.system.System` accepts in ``forces=``
ELEMENTS = (SpringDamper, Tyre)


class Elongation(NamedTuple):
    """The geometry of one element at a state: length ``L``, rate ``Ld``, unit vector ``u`` from P_a to
    P_b and the arms ``rho_a``, ``rho_b`` (global components, from each mass centre to its point)."""

    L: float
    Ld: float
    u: np.ndarray
    rho_a: np.ndarray
    rho_b: np.ndarray
    d: np.ndarray


def _args(element, kind, ends: dict, where: str, types=SpringDamper):
    """Validate the arguments of a public function (the package's own calls pass ``check=False``)."""
    _check.instance(element, types, "element", where=where,
                    hint="build one with rfda_teach.forces.SpringDamper(a, b, k=..., c=..., L0=...)"
                         + ("" if types is SpringDamper else " or rfda_teach.forces.Tyre(body, k=..., radius=...)"))
    kind = _check.choice(kind, KINDS, "kind", where=where)
    if element.dim is not None and element.dim != ndim(kind):
        raise ModelError(f"{where}: {element.name!r} has {element.dim}-entry points but the kind {kind!r} "
                         f"lives in {ndim(kind)} dimensions")
    out = {}
    for nm, x in ends.items():
        body = element.a if nm.endswith("_a") else element.b
        if (x is None) != (body < 0):
            need = "None (that end is the ground)" if body < 0 else f"the coordinates of body {body}"
            raise ModelError(f"{where}: {nm} must be {need}, got {'None' if x is None else type(x).__name__}")
        if x is not None:
            n = nvel(kind) if nm.startswith("yd") else npos(kind)
            x = _check.vector(x, n, nm, where=where)
            if kind == "spatial" and not nm.startswith("yd"):
                unit_euler(x[3:7], f"{nm}[3:7]", where=where)
        out[nm] = x
    return out


def _point(p, kind: str):
    return np.zeros(ndim(kind)) if p is None else p


def _end(kind: str, p, y_i, yd_i):
    """(global point, its velocity, arm rho = R p') of one end; y_i None: the ground."""
    if y_i is None:
        return p, np.zeros_like(p), np.zeros_like(p)
    d = ndim(kind)
    rho = rotation(kind, y_i, check=False) @ p
    v = yd_i[:d].copy()
    if kind == "planar":
        v = v + planar_cross(yd_i[2], rho, check=False)
    elif kind == "spatial":
        v = v + cross(yd_i[3:6], rho, check=False)
    return y_i[:d] + rho, v, rho


def elongation(element: SpringDamper, kind: str, y_a, yd_a, y_b, yd_b, *, check: bool = True) -> Elongation:
    """Length L = |P_b - P_a|, its rate Ldot = u . (v_Pb - v_Pa) and the direction u of one element.

    ``y_a``, ``yd_a`` (``y_b``, ``yd_b``) are the absolute coordinates and velocities of the body at
    end a (b), None for the ground (``check=False``: arrays the package computed, not validated).
    Coincident points (L below :data:`COINCIDENT_TOL`) leave u undefined: ConstraintViolationError,
    unless the element is a zero-free-length spring without damping (L0 = 0, c = 0), whose force k d
    needs no direction (u is then returned as zeros).

    Examples
    --------
    >>> import numpy as np
    >>> s = SpringDamper(0, -1, point_a=[0.0, 0.5], k=1.0, c=1.0, L0=0.5)
    >>> e = elongation(s, "planar", np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 2.0]), None, None)
    >>> round(e.L, 12), round(e.Ld, 12)                  # P_a = (1, 0.5), moving with (-1, 0)
    (1.11803398875, -0.894427191)
    """
    if check:
        a = _args(element, kind, {"y_a": y_a, "yd_a": yd_a, "y_b": y_b, "yd_b": yd_b}, "forces.elongation")
        y_a, yd_a, y_b, yd_b = a["y_a"], a["yd_a"], a["y_b"], a["yd_b"]
    pa, pb = _point(element.point_a, kind), _point(element.point_b, kind)
    Pa, va, ra = _end(kind, pa, y_a, yd_a)
    Pb, vb, rb = _end(kind, pb, y_b, yd_b)
    d = Pb - Pa
    L = float(np.sqrt(d @ d))
    if not L > COINCIDENT_TOL:
        if element.L0 == 0.0 and element.c == 0.0:
            return Elongation(L, 0.0, np.zeros_like(d), ra, rb, d)
        raise ConstraintViolationError(
            f"{element.name!r}: its two points coincide (L = {L:.3g} m <= {COINCIDENT_TOL:g} m), so the line "
            "of its force is undefined; start from a state where the points are apart, or use a "
            "zero-free-length spring without damping (L0 = 0, c = 0), whose force k (P_b - P_a) needs no direction")
    u = d / L
    return Elongation(L, float(u @ (vb - va)), u, ra, rb, d)


def _wrench(kind: str, F, rho):
    """Generalized force of a force F (global) at the arm rho from the mass centre: D&G eq. (6)'s f_i."""
    if kind == "point2":
        return F
    if kind == "planar":
        return np.array([F[0], F[1], planar_cross(1.0, rho, check=False) @ F])    # rho_x F_y - rho_y F_x
    return np.concatenate([F, cross(rho, F, check=False)])                       # moment about the centre


def generalized_forces(element, kind: str, y_a, yd_a, y_b, yd_b, *, t: float = 0.0, check: bool = True) -> tuple:
    """(f_a, f_b): the element's generalized forces on its two bodies, in the bodies' absolute velocity
    coordinates (the components of f_i of D&G eq. (6)); None for the ground.

    The tension T = k (L - L0) + c Ldot (:func:`elongation`) gives F_a = T u at P_a and F_b = -T u at
    P_b.  A force F at the arm rho (global) is (F, rho x F): (F_x, F_y, rho_x F_y - rho_y F_x) on a planar
    body, (F, rho x F) with the moment in global components on a spatial one, F on a ``"point2"`` body.
    ``check=False``: arrays the package computed, not validated.  A :class:`Tyre` (end b the road, None)
    pushes its body up with k (r - h) at its point while in contact, the road height taken at time ``t``.

    Examples
    --------
    A wheel of 0.3 m radius whose centre is 0.29 m above a flat road: 2000 N/m x 0.01 m up.

    >>> fa, fb = generalized_forces(Tyre(0, k=2000.0, radius=0.3), "planar", np.array([0.0, 0.29, 0.0]),
    ...                             np.zeros(3), None, None)
    >>> np.round(fa, 9) + 0.0, fb
    (array([ 0., 20.,  0.]), None)

    Two planar bodies 2 m apart joined centre to centre, free length 1.5 m: each is pulled towards
    the other with k (L - L0) = 5 N.

    >>> import numpy as np
    >>> s = SpringDamper(0, 1, k=10.0, L0=1.5)
    >>> fa, fb = generalized_forces(s, "planar", np.zeros(3), np.zeros(3), np.array([2.0, 0, 0]), np.zeros(3))
    >>> fa + 0.0, fb + 0.0
    (array([5., 0., 0.]), array([-5.,  0.,  0.]))
    """
    if check:
        a = _args(element, kind, {"y_a": y_a, "yd_a": yd_a, "y_b": y_b, "yd_b": yd_b}, "forces.generalized_forces",
                  ELEMENTS)
        y_a, yd_a, y_b, yd_b = a["y_a"], a["yd_a"], a["y_b"], a["yd_b"]
        t = _check.time(t, "t", where="forces.generalized_forces")
    if isinstance(element, Tyre):
        pen, rho = _penetration(element, kind, y_a, t)
        if not pen > 0:
            return _wrench(kind, np.zeros(ndim(kind)), rho), None
        F = np.zeros(ndim(kind))
        F[-1] = element.k * pen                               # upwards, at P
        return _wrench(kind, F, rho), None
    g = elongation(element, kind, y_a, yd_a, y_b, yd_b, check=False)
    if element.L0 == 0.0 and element.c == 0.0:
        F = element.k * g.d                                   # k L u without the division
    else:
        F = (element.k * (g.L - element.L0) + element.c * g.Ld) * g.u
    fa = None if y_a is None else _wrench(kind, F, g.rho_a)
    fb = None if y_b is None else _wrench(kind, -F, g.rho_b)
    return fa, fb


def _penetration(tyre: Tyre, kind: str, y_a, t: float):
    """(r - h, rho): the tyre's penetration (h = z_P - road(t)) and the arm rho = R p' of its point."""
    p = _point(tyre.point, kind)
    rho = rotation(kind, y_a, check=False) @ p
    return float(tyre.radius - (y_a[ndim(kind) - 1] + rho[-1] - tyre._height(t))), rho


def potential(element, kind: str, y_a, y_b, *, t: float = 0.0, check: bool = True) -> float:
    """Potential energy V = 1/2 k (L - L0)^2 stored in the element's spring (the damper stores none).

    Its gradient over the bodies' positions and rotations is minus the spring part of
    :func:`generalized_forces`; :func:`rfda_teach.simulate.energy` adds it to the kinetic and
    gravitational energy.  A :class:`Tyre` stores 1/2 k (r - h)^2 while in contact (0 otherwise), the
    road height taken at time ``t``.

    Examples
    --------
    >>> import numpy as np
    >>> potential(SpringDamper(0, -1, k=2.0, L0=1.0), "point2", np.array([0.0, 3.0]), None)
    4.0
    >>> round(potential(Tyre(0, k=2000.0, radius=0.3), "point2", np.array([0.0, 0.2]), None), 12)
    10.0
    """
    if check:
        a = _args(element, kind, {"y_a": y_a, "y_b": y_b}, "forces.potential", ELEMENTS)
        y_a, y_b = a["y_a"], a["y_b"]
        t = _check.time(t, "t", where="forces.potential")
    if isinstance(element, Tyre):                           # V = 1/2 k (r - h)^2 in contact
        pen = _penetration(element, kind, y_a, t)[0]
        return float(0.5 * element.k * pen ** 2) if pen > 0 else 0.0
    pa, pb = _point(element.point_a, kind), _point(element.point_b, kind)
    d = ndim(kind)
    Pa = pa if y_a is None else y_a[:d] + rotation(kind, y_a, check=False) @ pa
    Pb = pb if y_b is None else y_b[:d] + rotation(kind, y_b, check=False) @ pb
    L = float(np.linalg.norm(Pb - Pa))
    return 0.5 * element.k * (L - element.L0) ** 2
