"""Kane's equations with relative coordinates and Euler parameters (the eight-body notes).

Bodies are numbered 1..N from the reference body 1 outward; the body-connection
array L gives each body's adjacent lower body (L(1) = 0, the inertial frame) and a
lower body must have a lower number.  (The notes have one reference body; a forest, several
bodies with L(K) = 0, runs through the same recursions, each such O_K placed by s'_K.)
The generalized coordinates and speeds are,
Kane eq. (1),

    x = [eps_hat (4N); s' (3N)],        y = [omega_hat' (3N); s'dot (3N)],

eps_hat_K = (eps_K1, eps_K2, eps_K3, eps_K4) the Euler parameters of body K
relative to L(K) (eps_K4 the scalar part), s'_K the translation of O_K from Q_K
in L(K)-frame components, omega_hat'_K the relative angular velocity in
K-frame components.  Everything is computed by the recursions of the notes:
relative rotation Kane eq. (4), angular velocities Kane eq. (11), partial angular
velocities Kane eq. (14)-(15) and their rates Kane eq. (18), positions Kane eq. (20)-(21),
partial velocities of origins and mass centres Kane eq. (26)-(30) and their rates
Kane eq. (31)-(32), generalized mass matrix Kane eq. (40) and forcing Kane eq. (41).

:func:`from_system` makes this record a view of the one model (a tree
:class:`rfda_teach.system.System`): free joints keep all six speeds of a body, spherical ones
the three rotation speeds, revolute and prismatic ones one speed each, the others held at zero
(:func:`reduced_dynamics`); :func:`system_accelerations` returns the System's absolute
accelerations by Kane's equations, to compare with every other formulation.

Partial-velocity matrices are stored as dictionaries {block: 3x3 matrix} over the
2N blocks of y (block K-1 for omega_hat'_K, block N+K-1 for s'dot_K): a body's
partials are non-zero only in the blocks of its own branch (Kane eq. 13, 15, 27-28),
and blocks that are zero are never stored or multiplied.

Every public function checks its input through :mod:`rfda_teach._check`: the body-connection
array holds integers, masses are > 0, inertias symmetric positive definite with principal moments
obeying J1 + J2 >= J3, x and y have 7N and 6N finite entries with unit Euler parameters (within
:data:`EULER_TOL`), extra forces and moments are finite; a bad value raises a
:class:`~rfda_teach.errors.ModelError` that names it.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import kane
>>> sys = kane.eight_body()
>>> A, f = kane.mass_matrix_and_forcing(sys, sys.x0, sys.y0)
>>> A.shape, f.shape, bool(np.allclose(A, A.T))
((48, 48), (48,), True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from . import _check
# EULER_TOL: one tolerance for every unit-norm check; skew, cross, ... with check=False on computed arguments
from .spatial import (EULER_TOL, G0, axis_angle_to_euler_params, cross, euler_G, euler_params_to_matrix,
                      matrix_to_euler_params, rotate_inertia, scalar_first, scalar_last, skew)
from .bodies import rotation
from .errors import ModelError, TopologyError
from .summary import html_table
from .tree import Topology
from . import models
from .forces import generalized_forces
from .system import System, State, check_consistency, require_tree
from .simulate import integrate, span

__all__ = ["KaneSystem", "BodyState", "eight_body", "EIGHT_BODY_L", "relative_rotation", "E_hat",
           "kinematics", "mass_matrix_and_forcing", "body_states", "simulate", "euler_norm_drift",
           "state_derivative", "momentum", "kinetic_energy", "energy", "reduced_dynamics", "EULER_GAIN",
           "EULER_TOL"]

#: body-connection array of the notes' eight-body example: L(K) for K = 1..8 (0 = inertial frame)
EIGHT_BODY_L = (0, 1, 2, 1, 2, 1, 1, 7)

#: gain (1/s) of the Euler-parameter norm stabilisation in the kinematical equations
EULER_GAIN = 10.0

#: relative tolerance of the triangle inequality J1 + J2 >= J3 of principal moments of inertia
INERTIA_TOL = _check.INERTIA_TOL


@dataclass(frozen=True, eq=False)
class KaneSystem:
    """A tree of rigid bodies for Kane's method with relative coordinates.

    ``L[K-1]`` is the lower body of body K (0 for the inertial frame: body 1, the reference body, and
    any further body that hangs from the inertial frame, as the roots of a forest do, each with
    q'_K = 0 so that s'_K places O_K from the inertial origin);
    ``mass[K-1]``, ``inertia[K-1]`` (central inertia matrix I'_GK in K-frame components),
    ``q[K-1]`` = q'_K (from O_J to Q_K, J-frame components; q'_1 = 0), ``r[K-1]`` = r'_K
    (from O_K to G_K, K-frame components), gravity in inertial components, and an initial
    state ``x0``, ``y0``.  Every field is checked (see the module docstring).

    A record built from the one model by :func:`from_system` also carries (keyword fields, None
    for a record written by hand): ``mechanism``, the :class:`rfda_teach.system.System` it views;
    ``speeds``, the indices into y of the generalized speeds its joints leave free (the others are
    held at zero, :func:`reduced_dynamics`; :func:`simulate` and :func:`state_derivative` keep
    them by default); ``frames``, Kane's frame of body K (its axes as columns, in the components
    of the System's body axes); ``ground_frame``, the inertial frame N in world components; and
    ``order``, the System body index of Kane's body K.

    Examples
    --------
    >>> import numpy as np
    >>> s = eight_body()
    >>> two = KaneSystem((0, 1), s.mass[:2], s.inertia[:2], s.q[:2], s.r[:2], s.gravity,
    ...                  np.concatenate([s.x0[:8], np.zeros(6)]), s.y0[:12])
    >>> two.N, two.topology.n
    (2, 2)
    """

    L: tuple
    mass: np.ndarray
    inertia: np.ndarray
    q: np.ndarray
    r: np.ndarray
    gravity: np.ndarray
    x0: np.ndarray
    y0: np.ndarray
    name: str = ""
    mechanism: object = field(default=None, kw_only=True, repr=False)
    speeds: tuple = field(default=None, kw_only=True, repr=False)
    frames: object = field(default=None, kw_only=True, repr=False)
    ground_frame: object = field(default=None, kw_only=True, repr=False)
    order: tuple = field(default=None, kw_only=True, repr=False)
    topology: Topology = field(init=False, repr=False)

    def __post_init__(self):
        where = "kane.KaneSystem"
        if self.L is None or isinstance(self.L, (str, bytes, dict, set)) or np.ndim(self.L) != 1:
            raise ModelError(f"{where}: L must be a sequence of integers (the body-connection array L(K), "
                             f"K = 1..N), got {self.L!r}; e.g. L=(0, 1, 2, 1)")
        L = tuple(_check.positive_int(v, f"L[{K}] (lower body of body {K + 1})", where=where, minimum=0)
                  for K, v in enumerate(self.L))
        N = len(L)
        if N == 0 or L[0] != 0:
            raise TopologyError("body 1 must be the reference body: L(1) = 0 (the inertial frame)")
        for K, J in enumerate(L, start=1):
            if J >= K:
                raise TopologyError(f"body {K} has lower body {J} >= {K}; number the bodies from the reference "
                                    "body outward so that a lower body has a lower number (the notes' convention)")
        topo = Topology.from_parents([J - 1 for J in L])
        mass = _check.vector(self.mass, N, "mass", where=where, hint=f"one mass per body, {N} bodies")
        for K in range(N):
            if not mass[K] > 0:
                raise ModelError(f"{where}: body {K + 1}: mass {mass[K]} is not positive; give every body a mass > 0")
        inertia = _check.matrix(self.inertia, (N, 3, 3), "inertia", where=where)
        for K in range(N):
            _check.inertia(inertia[K], f"inertia[{K}] (body {K + 1})", where=where)
        q = _check.matrix(self.q, (N, 3), "q", where=where)
        r = _check.matrix(self.r, (N, 3), "r", where=where)
        for K in range(N):
            if L[K] == 0 and np.any(q[K] != 0):
                raise ModelError(f"{where}: q[{K}] = q'_{K + 1} = {q[K]} must be zero (body {K + 1} hangs from the "
                                 f"inertial frame: O_{K + 1} is placed by s'_{K + 1} alone); put the offset into "
                                 f"s'_{K + 1} of x0")
        g = _check.vector(self.gravity, 3, "gravity", where=where, hint="inertial components, e.g. (0, 0, -9.81)")
        _check.instance(self.name, str, "name", where=where)
        for k, v in (("mass", mass), ("inertia", inertia), ("q", q), ("r", r), ("gravity", g)):
            object.__setattr__(self, k, v)
        object.__setattr__(self, "L", L)
        object.__setattr__(self, "topology", topo)
        x0, y0 = _state(self, self.x0, self.y0, where, names=("x0", "y0"))
        object.__setattr__(self, "x0", x0)
        object.__setattr__(self, "y0", y0)
        _view_fields(self, where)

    @property
    def N(self) -> int:
        """Number of bodies."""
        return len(self.L)

    def __repr__(self) -> str:
        """One line: name, bodies, roots, coordinates and speeds (Kane eq. (1)).

        Examples
        --------
        >>> eight_body()
        KaneSystem 'eight-body tree of the notes': 8 spatial bodies; 1 root; 7N = 56 coordinates (relative Euler parameters, s'), 6N = 48 speeds
        """
        roots = sum(1 for p in self.L if p == 0)
        return (f"KaneSystem {self.name!r}: {self.N} spatial bodies; {roots} root{'s' if roots > 1 else ''}; "
                f"7N = {7 * self.N} coordinates (relative Euler parameters, s'), 6N = {6 * self.N} speeds")

    def _repr_html_(self) -> str:
        """A table in a notebook (:func:`rfda_teach.summary.html_table`): the line of :meth:`__repr__`, then one
        row per body K with its lower body L(K), mass, central inertia I'_GK (K-frame components; its
        diagonal when the K axes are principal), q'_K (J-frame components) and r'_K (K-frame components).

        Examples
        --------
        >>> eight_body()._repr_html_().count("<tr>")            # the header and the 8 bodies
        9
        """
        def vec(v):
            return ", ".join(f"{x + 0.0:.4g}" for x in v)               # no "-0"

        def inertia(J):
            if np.count_nonzero(J - np.diag(np.diag(J))) == 0:
                return f"diag({vec(np.diag(J))})"
            return "[" + "; ".join(vec(row) for row in J) + "]"

        rows = [(K, J, f"{m:.4g}", inertia(I), vec(q), vec(r))
                for K, (J, m, I, q, r) in enumerate(zip(self.L, self.mass, self.inertia, self.q, self.r), start=1)]
        return html_table(repr(self), ("body K", "L(K)", "mass (kg)", "I'_GK (kg m^2)", "q'_K (m)", "r'_K (m)"),
                          rows, "bodies")


def _view_fields(ks: KaneSystem, where: str) -> None:
    """Check the optional fields of a view of the one model (:func:`from_system`)."""
    N = ks.N
    if ks.speeds is not None:
        object.__setattr__(ks, "speeds", tuple(int(i) for i in _speeds(ks.speeds, N, where)))
    if ks.mechanism is None:
        for name in ("frames", "ground_frame", "order"):
            if getattr(ks, name) is not None:
                raise ModelError(f"{where}: {name} is given but mechanism is None; {name} describes the view "
                                 "of a System: build the record with kane.from_system(system)")
        return
    _check.instance(ks.mechanism, System, "mechanism", where=where,
                    hint="the rfda_teach.system.System this record views (kane.from_system builds both)")
    if ks.mechanism.n != N:
        raise ModelError(f"{where}: mechanism has {ks.mechanism.n} bodies but the record has {N}; build the "
                         "record with kane.from_system(mechanism)")
    order = tuple(range(N)) if ks.order is None else tuple(
        _check.positive_int(v, f"order[{K}]", where=where, minimum=0) for K, v in enumerate(ks.order))
    if sorted(order) != list(range(N)):
        raise ModelError(f"{where}: order must list every body 0..{N - 1} of the mechanism once, got {order}")
    K_of = {b: K for K, b in enumerate(order)}
    L = tuple(0 if ks.mechanism.parents[b] < 0 else K_of[ks.mechanism.parents[b]] + 1 for b in order)
    if L != ks.L:
        raise ModelError(f"{where}: L = {ks.L} is not the mechanism's tree in this order (that is L = {L}); "
                         "build the record with kane.from_system(mechanism)")
    frames = np.tile(np.eye(3), (N, 1, 1)) if ks.frames is None else _check.matrix(ks.frames, (N, 3, 3), "frames",
                                                                                   where=where)
    for K in range(N):
        _check.matrix(frames[K], (3, 3), f"frames[{K}]", where=where, orthogonal=True)
    C0 = np.eye(3) if ks.ground_frame is None else _check.matrix(ks.ground_frame, (3, 3), "ground_frame",
                                                                   where=where, orthogonal=True)
    for k, v in (("order", order), ("frames", frames), ("ground_frame", C0)):
        object.__setattr__(ks, k, v)


def _system(system, where: str) -> KaneSystem:
    return _check.instance(system, KaneSystem, "system", where=where,
                           hint="build one with kane.KaneSystem(...) or kane.eight_body()")


def _state(system: KaneSystem, x, y, where: str, *, names=("x", "y")):
    """x (7N, unit Euler parameters within :data:`EULER_TOL`) and y (6N), finite."""
    _system(system, where)
    N = system.N
    nx, ny = names
    x = _check.vector(x, 7 * N, nx, where=where,
                      hint=f"{N} bodies need 7N = {7 * N} coordinates [eps (4N); s' (3N)]")
    y = _check.vector(y, 6 * N, ny, where=where,
                      hint=f"{N} bodies need 6N = {6 * N} speeds [omega' (3N); s'dot (3N)]")
    for K in range(N):
        n = np.linalg.norm(x[4 * K:4 * K + 4])
        if n == 0:
            raise ModelError(f"{where}: body {K + 1}: Euler parameters {nx}[{4 * K}:{4 * K + 4}] are all zero; "
                             "give unit Euler parameters, e.g. (0, 0, 0, 1) for no relative rotation")
        if abs(n - 1.0) > EULER_TOL:
            raise ModelError(f"{where}: body {K + 1}: Euler parameters have norm {n:.8f}, not 1 "
                             f"({nx}[{4 * K}:{4 * K + 4}], tolerance {EULER_TOL}); divide them by their norm")
    return x, y


def _eps(eps, where: str) -> np.ndarray:
    return _check.vector(eps, 4, "eps", where=where, hint="Euler parameters (e1, e2, e3, e4), e4 the scalar part")


def relative_rotation(eps: np.ndarray) -> np.ndarray:
    """[^J R_K] of Kane eq. (4): K-frame components from J-frame components, eps = (e1, e2, e3, e4), e4 scalar.

    Examples
    --------
    >>> import numpy as np
    >>> c, s = np.cos(0.25), np.sin(0.25)                   # 0.5 rad about the common 3-axis
    >>> np.round(relative_rotation(np.array([0, 0, s, c])), 4)
    array([[ 0.8776,  0.4794,  0.    ],
           [-0.4794,  0.8776,  0.    ],
           [ 0.    ,  0.    ,  1.    ]])
    """
    eps = _eps(eps, "kane.relative_rotation")
    n = np.linalg.norm(eps)
    if abs(n - 1.0) > EULER_TOL:
        raise ModelError(f"kane.relative_rotation: eps has norm {n:.8f}, not 1 (tolerance {EULER_TOL}); eq. (4) "
                         "is a rotation only for unit Euler parameters: divide eps by its norm")
    return _relative_rotation(eps)


def _relative_rotation(eps: np.ndarray) -> np.ndarray:
    """Kane eq. (4) is the book's scalar-first matrix (:func:`rfda_teach.spatial.euler_params_to_matrix`,
    body to global) of the reordered parameters (e4, e1, e2, e3), transposed: the notes put the scalar
    last and map J-frame components to K-frame ones (tested entry by entry against Kane eq. (4) as printed)."""
    return euler_params_to_matrix(scalar_first(eps, check=False), check=False).T


def E_hat(eps: np.ndarray) -> np.ndarray:
    """[E_hat'_K]^T of Kane eq. (44) (4x3): eps_dot = 1/2 [E_hat']^T omega_hat' (Kane eq. 9, 42).

    Examples
    --------
    >>> import numpy as np
    >>> E_hat(np.array([0.0, 0.0, 0.0, 1.0]))
    array([[ 1., -0.,  0.],
           [ 0.,  1., -0.],
           [-0.,  0.,  1.],
           [-0., -0., -0.]])
    """
    return _E_hat(_eps(eps, "kane.E_hat"))


def _E_hat(eps: np.ndarray) -> np.ndarray:
    """Kane eq. (44) is Haug's G(e)^T (:func:`rfda_teach.spatial.euler_G`, body components) of the reordered
    parameters e = (e4, e1, e2, e3), with its scalar row moved last (the notes' order)."""
    return scalar_last(euler_G(scalar_first(eps, check=False), check=False).T, check=False)


class Kinematics(NamedTuple):
    """Per body (0-based lists): relative and absolute rotations, angular velocity (K comps),
    partial angular velocities W and rates Wd, partial velocities of the origin VO (J comps)
    and of the mass centre VG (K comps) with rates, mass-centre velocity vG (K comps) and
    positions of the origin pO and mass centre pG (K comps)."""

    R_rel: list
    R: list
    omega: list
    W: list
    Wd: list
    VO: list
    VOd: list
    VG: list
    VGd: list
    vG: list
    pG: list


def _apply(blocks: dict, y: np.ndarray) -> np.ndarray:
    out = np.zeros(3)
    for b, B in blocks.items():
        out += B @ y[3 * b:3 * b + 3]
    return out


def _add(*dicts) -> dict:
    out = {}
    for d in dicts:
        for b, B in d.items():
            out[b] = out[b] + B if b in out else B
    return out


def kinematics(system: KaneSystem, x, y) -> Kinematics:
    """All recursive kinematic quantities of the notes, Kane eq. (4), (11), (14)-(21), (23)-(32).

    Examples
    --------
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body()
    >>> k = kane.kinematics(sys, sys.x0, sys.y0)
    >>> sorted(k.W[7])                    # body 8: blocks of bodies 1, 7, 8 (Kane eq. 14 for the example)
    [0, 6, 7]
    """
    x, y = _state(system, x, y, "kane.kinematics")
    return _kinematics(system, x, y)


def _kinematics(system: KaneSystem, x: np.ndarray, y: np.ndarray) -> Kinematics:
    N = system.N
    eye = np.eye(3)
    out = Kinematics(*[[None] * N for _ in range(11)])
    pO = [None] * N
    for k in range(N):
        j = system.L[k] - 1
        eps = x[4 * k:4 * k + 4] / np.linalg.norm(x[4 * k:4 * k + 4])
        s, sdot, w_hat = x[4 * N + 3 * k:4 * N + 3 * k + 3], y[3 * N + 3 * k:3 * N + 3 * k + 3], y[3 * k:3 * k + 3]
        Rr = _relative_rotation(eps)                                           # Kane eq. (4)
        out.R_rel[k] = Rr
        out.R[k] = Rr @ (eye if j < 0 else out.R[j])                          # Kane eq. (3), (5)
        Wj = {} if j < 0 else out.W[j]
        Wdj = {} if j < 0 else out.Wd[j]
        out.omega[k] = (Rr @ out.omega[j] if j >= 0 else 0.0) + w_hat        # Kane eq. (11)
        out.W[k] = _add({b: Rr @ B for b, B in Wj.items()}, {k: eye})         # Kane eq. (14)-(15)
        wt = skew(w_hat, check=False)
        out.Wd[k] = _add({b: Rr @ B for b, B in Wdj.items()},                 # Kane eq. (18)
                         {b: wt.T @ Rr @ B for b, B in Wj.items()})
        if j < 0:
            out.VO[k], out.VOd[k] = {N + k: eye}, {}
            pO[k] = Rr @ s                                                     # p'_O1 = [R_1] s'_1
        else:
            Rj = out.R_rel[j]
            wj_hat = y[3 * j:3 * j + 3]
            qs = skew(system.q[k] + s, check=False)
            out.VO[k] = _add({b: Rj @ B for b, B in out.VO[j].items()},        # Kane eq. (26)-(28)
                             {b: -qs @ B for b, B in Wj.items()}, {N + k: eye})
            out.VOd[k] = _add({b: Rj @ B for b, B in out.VOd[j].items()},      # Kane eq. (32)
                              {b: skew(wj_hat, check=False).T @ Rj @ B for b, B in out.VO[j].items()},
                              {b: -skew(sdot, check=False) @ B for b, B in Wj.items()},
                              {b: -qs @ B for b, B in Wdj.items()})
            pO[k] = Rr @ (pO[j] + system.q[k] + s)                            # Kane eq. (20)
        rt = skew(system.r[k], check=False)
        out.VG[k] = _add({b: Rr @ B for b, B in out.VO[k].items()},            # Kane eq. (30)
                         {b: -rt @ B for b, B in out.W[k].items()})
        out.VGd[k] = _add({b: Rr @ B for b, B in out.VOd[k].items()},          # Kane eq. (31)
                          {b: wt.T @ Rr @ B for b, B in out.VO[k].items()},
                          {b: -rt @ B for b, B in out.Wd[k].items()})
        out.vG[k] = _apply(out.VG[k], y)                                       # Kane eq. (29)
        out.pG[k] = pO[k] + system.r[k]                                        # Kane eq. (21)
    return out


def mass_matrix_and_forcing(system: KaneSystem, x, y, *, forces=None, moments=None):
    """[A] of Kane eq. (40) and {f} of Kane eq. (41) at the state (x, y): [A] ydot = {f} (Kane eq. 39).

    ``forces`` / ``moments`` are optional (N, 3) arrays (or flat 3N vectors) of extra forces at
    the mass centres and moments, in inertial components, finite; gravity is always included.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body()
    >>> A, f = kane.mass_matrix_and_forcing(sys, sys.x0, sys.y0)
    >>> bool(np.linalg.eigvalsh(A).min() > 0)
    True
    """
    where = "kane.mass_matrix_and_forcing"
    x, y = _state(system, x, y, where)
    F_ext = _loads(forces, system.N, "forces", where)
    M_ext = _loads(moments, system.N, "moments", where)
    return _mass_matrix_and_forcing(system, x, y, F_ext, M_ext)


def _loads(v, N: int, what: str, where: str):
    """None or N vectors of 3 (an (N, 3) array or a flat 3N vector), finite."""
    if v is None:
        return None
    hint = f"one 3-vector per body in inertial components: ({N}, 3) or ({3 * N},)"
    if np.ndim(v) == 1:
        return _check.vector(v, 3 * N, what, where=where, hint=hint).reshape(N, 3)
    try:
        return _check.matrix(v, (N, 3), what, where=where)
    except ModelError as exc:
        raise ModelError(f"{exc}; give {hint}") from None


def _mass_matrix_and_forcing(system: KaneSystem, x, y, F_ext=None, M_ext=None):
    N = system.N
    kin = _kinematics(system, x, y)
    A = np.zeros((6 * N, 6 * N))
    f = np.zeros(6 * N)
    F_ext = np.zeros((N, 3)) if F_ext is None else F_ext
    M_ext = np.zeros((N, 3)) if M_ext is None else M_ext
    for k in range(N):
        m, I = system.mass[k], system.inertia[k]
        R, VG, W, w, vG = kin.R[k], kin.VG[k], kin.W[k], kin.omega[k], kin.vG[k]
        F = R @ (m * system.gravity + F_ext[k])                                  # {F'_K}, K components
        M = R @ M_ext[k]
        a_bias = _apply(kin.VGd[k], y) + cross(w, vG, check=False)  # VG_dot y + omega x v_G
        h_bias = I @ _apply(kin.Wd[k], y) + cross(w, I @ w, check=False)  # I W_dot y + omega x I omega
        # the non-zero blocks of body K's partials side by side: B = [B_a1 B_a2 ...] (3 x 3k), so that
        # one product B^T X B gives every block pair (a, b) of the double sum at once
        iv, Bv = _side_by_side(VG)
        f[iv] += Bv.T @ (F - m * a_bias)                                         # Kane eq. (41), translation
        A[np.ix_(iv, iv)] += (m * Bv.T) @ Bv                                     # Kane eq. (40)
        iw, Bw = _side_by_side(W)
        f[iw] += Bw.T @ (M - h_bias)                                             # Kane eq. (41), rotation
        A[np.ix_(iw, iw)] += Bw.T @ I @ Bw                                       # Kane eq. (40)
    return A, f


def _side_by_side(blocks: dict) -> tuple:
    """(rows of y, [B_a1 B_a2 ...]) for a dictionary {block a: 3 x 3 partial}."""
    keys = list(blocks)
    rows = (3 * np.repeat(keys, 3) + np.tile(np.arange(3), len(keys))) if keys else np.zeros(0, int)
    B = np.hstack([blocks[a] for a in keys]) if keys else np.zeros((3, 0))
    return rows, B


class BodyState(NamedTuple):
    """One body, inertial components: mass, central inertia, mass-centre position and velocity, omega."""

    mass: float
    inertia: np.ndarray
    position: np.ndarray
    velocity: np.ndarray
    omega: np.ndarray


def body_states(system: KaneSystem, x, y) -> list:
    """Per body: mass, central inertia matrix, mass-centre position and velocity, angular velocity,
    all in inertial-frame components (R_K^T times the body-frame quantities).

    Examples
    --------
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body()
    >>> b = kane.body_states(sys, sys.x0, sys.y0)
    >>> len(b), b[0].mass
    (8, 10.0)
    """
    x, y = _state(system, x, y, "kane.body_states")
    return _body_states(system, x, y)


def _body_states(system: KaneSystem, x, y) -> list:
    kin = _kinematics(system, x, y)
    out = []
    for k in range(system.N):
        RT = kin.R[k].T
        out.append(BodyState(float(system.mass[k]), rotate_inertia(system.inertia[k], RT, check=False),
                             RT @ kin.pG[k], RT @ kin.vG[k], RT @ kin.omega[k]))
    return out


def momentum(system: KaneSystem, x, y):
    """Total linear momentum and angular momentum about the inertial origin (inertial components).

    Examples
    --------
    >>> sys = eight_body()
    >>> P, H = momentum(sys, sys.x0, sys.y0)
    >>> P.shape, H.shape
    ((3,), (3,))
    """
    x, y = _state(system, x, y, "kane.momentum")
    P, H = np.zeros(3), np.zeros(3)
    for b in _body_states(system, x, y):
        P += b.mass * b.velocity
        H += cross(b.position, b.mass * b.velocity, check=False) + b.inertia @ b.omega
    return P, H


def kinetic_energy(system: KaneSystem, x, y) -> float:
    """1/2 y^T [A] y, equal to the sum of 1/2 m v_G^2 + 1/2 omega^T I omega.

    Examples
    --------
    >>> import numpy as np
    >>> sys = eight_body()
    >>> A, _ = mass_matrix_and_forcing(sys, sys.x0, sys.y0)
    >>> bool(np.isclose(kinetic_energy(sys, sys.x0, sys.y0), 0.5 * sys.y0 @ A @ sys.y0))
    True
    """
    x, y = _state(system, x, y, "kane.kinetic_energy")
    return _kinetic_energy(_body_states(system, x, y))


def _kinetic_energy(bodies) -> float:
    return float(sum(0.5 * b.mass * b.velocity @ b.velocity + 0.5 * b.omega @ b.inertia @ b.omega
                     for b in bodies))


def energy(system: KaneSystem, x, y) -> float:
    """Kinetic plus gravitational potential energy.

    Examples
    --------
    >>> sys = eight_body()
    >>> energy(sys, sys.x0, sys.y0) > kinetic_energy(sys, sys.x0, sys.y0)     # bodies above z = 0
    True
    """
    x, y = _state(system, x, y, "kane.energy")
    bodies = _body_states(system, x, y)
    V = -sum(b.mass * system.gravity @ b.position for b in bodies)
    return _kinetic_energy(bodies) + float(V)


def state_derivative(system: KaneSystem, x, y, *, speeds=None, check: bool = True):
    """(xdot, ydot): Kane eq. (42)-(43) with norm stabilisation, and ydot from Kane eq. (39).

    The kinematical equation of each body's Euler parameters is
    eps_dot = 1/2 [E_hat']^T omega_hat' + (k/2)(1 - |eps|^2) eps (k = :data:`EULER_GAIN`):
    the added term vanishes on |eps| = 1 and drives |eps|^2 - 1 to zero at rate k
    (constraint stabilisation).  ``speeds`` restricts the motion to a subset of the 6N speeds
    (see :func:`reduced_dynamics`); by default the record's own ``speeds`` (a view built by
    :func:`from_system`), all 6N for a record written by hand.  With ``check`` (the default) the state is checked first
    (shapes, finite, unit Euler parameters within :data:`EULER_TOL`); :func:`simulate`'s
    right-hand side passes ``check=False``.

    Examples
    --------
    >>> sys = eight_body()
    >>> xd, yd = state_derivative(sys, sys.x0, sys.y0)
    >>> xd.shape, yd.shape
    ((56,), (48,))
    """
    if check is not False:
        where = "kane.state_derivative"
        _check.flag(check, "check", where=where)
        x, y = _state(system, x, y, where)
        speeds = _record_speeds(system) if speeds is None else _speeds(speeds, system.N, where)
    N = system.N
    xdot = np.zeros(7 * N)
    for k in range(N):
        eps = x[4 * k:4 * k + 4]
        xdot[4 * k:4 * k + 4] = 0.5 * _E_hat(eps) @ y[3 * k:3 * k + 3] + 0.5 * EULER_GAIN * (1 - eps @ eps) * eps
    xdot[4 * N:] = y[3 * N:]                                                      # Kane eq. (43)
    xn = x.copy()
    for k in range(N):
        xn[4 * k:4 * k + 4] /= np.linalg.norm(x[4 * k:4 * k + 4])
    if speeds is None:
        A, f = _mass_matrix_and_forcing(system, xn, y)
        ydot = _solve_spd(A, f)
    else:
        ydot = _reduced(system, xn, y, speeds, "kane.state_derivative")
    return xdot, ydot


def _solve_spd(A, f):
    try:
        return cho_solve(cho_factor(A), f)
    except (np.linalg.LinAlgError, ValueError):
        raise ModelError("the generalized mass matrix [A] is not positive definite (or not finite); check "
                         "masses, inertias and the state") from None


def _record_speeds(system: KaneSystem):
    """The record's kept speeds as an index array, or None when it keeps all 6N (or says nothing)."""
    S = system.speeds
    return None if S is None or len(S) == 6 * system.N else np.asarray(S)


def _speeds(speeds, N: int, where: str) -> np.ndarray:
    """Sorted distinct indices into y (0..6N-1), at least one."""
    if speeds is None or isinstance(speeds, (str, bytes, dict)) or not hasattr(speeds, "__iter__"):
        raise ModelError(f"{where}: speeds must be a list of indices 0..{6 * N - 1} into y, got {speeds!r}")
    S = sorted(set(_check.positive_int(i, "speeds entry", where=where, minimum=0) for i in speeds))
    if not S:
        raise ModelError(f"{where}: speeds is empty; keep at least one of the {6 * N} speeds (indices into y)")
    if S[-1] >= 6 * N:
        raise ModelError(f"{where}: speeds contains {S[-1]}; give indices 0..{6 * N - 1} of y "
                         f"({N} bodies have 6N = {6 * N} speeds)")
    return np.asarray(S)


def reduced_dynamics(system: KaneSystem, x, y, speeds) -> np.ndarray:
    """ydot when only the generalized speeds listed in ``speeds`` (indices into y) may be non-zero.

    Holding the other speeds at zero turns the free joints into joints: dropping s'dot_K
    makes joint K spherical, keeping one component of omega_hat'_K as well makes it revolute.
    The remaining rows of Kane eq. (39) are [A_SS] ydot_S = {f_S} (Kane's equations with the
    reduced set of speeds); the returned ydot is zero outside S.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body()
    >>> S = list(range(24)) + list(range(24, 27))       # all rotations, translation of body 1 only
    >>> y = np.where(np.isin(np.arange(48), S), sys.y0, 0.0)
    >>> yd = kane.reduced_dynamics(sys, sys.x0, y, S)
    >>> bool(np.all(yd[27:] == 0))
    True
    """
    where = "kane.reduced_dynamics"
    x, y = _state(system, x, y, where)
    return _reduced(system, x, y, _speeds(speeds, system.N, where), where)


def _reduced(system: KaneSystem, x, y, S: np.ndarray, where: str, F_ext=None, M_ext=None) -> np.ndarray:
    N = system.N
    mask = np.zeros(6 * N, bool)
    mask[S] = True
    if np.any(np.abs(y[~mask]) > 0):
        i = int(np.flatnonzero(np.abs(y) * ~mask)[0])
        raise ModelError(f"{where}: y has non-zero entries outside the kept speeds (y[{i}] = {y[i]:.6g}); "
                         "set the dropped speeds to zero")
    A, f = _mass_matrix_and_forcing(system, x, y, F_ext, M_ext)
    out = np.zeros(6 * N)
    out[S] = _solve_spd(A[np.ix_(S, S)], f[S])                                  # Kane eq. (39), rows S
    return out


def euler_norm_drift(system: KaneSystem, X) -> float:
    """Largest | |eps_K| - 1 | over a trajectory X (rows of x, or one x).

    Examples
    --------
    >>> sys = eight_body()
    >>> euler_norm_drift(sys, sys.x0[None, :])
    0.0
    """
    where = "kane.euler_norm_drift"
    N = _system(system, where).N
    if np.ndim(X) == 1:
        X = _check.vector(X, 7 * N, "X", where=where, hint=f"one x of 7N = {7 * N} coordinates")[None, :]
    else:
        X = _check.matrix(X, (None, 7 * N), "X", where=where)
        if len(X) == 0:
            raise ModelError(f"{where}: X has no rows; give a trajectory X of shape (len(t), {7 * N})")
    norms = np.linalg.norm(X[:, :4 * N].reshape(len(X), N, 4), axis=2)
    return float(np.abs(norms - 1).max())


def simulate(system: KaneSystem, x0, y0, t_final: float, *, rtol: float = 1e-10, atol: float = 1e-10,
             t_eval=None, speeds=None):
    """Integrate Kane eq. (39), (42)-(43) over [0, t_final] with solve_ivp (DOP853).

    Returns (t, X, Y) with X of shape (len(t), 7N) and Y of shape (len(t), 6N).  The
    Euler-parameter norm is held by constraint stabilisation (:func:`state_derivative`);
    :func:`euler_norm_drift` reports what is left.  ``t_final`` must be finite and > 0,
    ``t_eval`` (optional) increasing times in [0, t_final]; with ``speeds`` the entries of
    ``y0`` outside the kept speeds must be zero (see :func:`reduced_dynamics`).  ``speeds``
    defaults to the record's own (a view of a System keeps the speeds its joints leave free,
    :func:`from_system`); pass ``range(6 * N)`` to free every body.

    Examples
    --------
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body(gravity=0.0)
    >>> t, X, Y = kane.simulate(sys, sys.x0, sys.y0, 0.05, t_eval=[0.0, 0.05])
    >>> X.shape, Y.shape
    ((2, 56), (2, 48))
    """
    where = "kane.simulate"
    x0, y0 = _state(system, x0, y0, where, names=("x0", "y0"))
    options = span(t_final, t_eval=t_eval, rtol=rtol, atol=atol, where=where)
    N = system.N
    speeds = _record_speeds(system) if speeds is None else _speeds(speeds, N, where)
    if speeds is not None:
        dropped = np.setdiff1d(np.arange(6 * N), speeds)
        if np.any(y0[dropped] != 0):
            i = int(dropped[np.flatnonzero(y0[dropped])[0]])
            raise ModelError(f"{where}: y0[{i}] = {y0[i]:.6g} is a dropped speed (not in speeds); set the "
                             "dropped speeds of y0 to zero")

    def rhs(t, z):
        xd, yd = state_derivative(system, z[:7 * N], z[7 * N:], speeds=speeds, check=False)
        return np.concatenate([xd, yd])

    run = integrate(rhs, np.concatenate([x0, y0]), options, where=where)
    return run.t, run.x[:, :7 * N], run.x[:, 7 * N:]


def _unit_quat(axis, angle):
    """Kane's (e1, e2, e3, e4), scalar last, of the rotation by angle about axis."""
    return scalar_last(axis_angle_to_euler_params(axis, angle, check=False), check=False)


def _eight_body_data():
    """mass, central inertia, q'_K, r'_K of the eight-body tree (the data chosen in :func:`eight_body`)."""
    N = 8
    mass = np.array([10.0, 1.0, 0.5, 1.0, 0.5, 1.0, 1.0, 0.5])
    inertia = np.zeros((N, 3, 3))
    a, b, c = 0.6, 0.4, 0.2
    inertia[0] = 10.0 / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    Lk, w = 0.4, 0.04
    for k in range(1, N):
        m = mass[k]
        inertia[k] = np.diag([m * w * w / 6, m * (Lk * Lk + w * w) / 12, m * (Lk * Lk + w * w) / 12])
    q = np.array([[0, 0, 0], [0.3, 0, 0], [0.4, 0, 0], [-0.3, 0, 0], [0.4, 0, 0], [0, 0.2, 0], [0, -0.2, 0],
                  [0.4, 0, 0]], float)
    r = np.array([[0, 0, 0]] + [[0.2, 0, 0]] * 7, float)
    return mass, inertia, q, r


def eight_body_system(gravity: float = G0) -> System:
    """The eight-body tree of the notes as the one model: a :class:`rfda_teach.system.System` of eight
    spatial bodies on free joints, parents L(K) - 1 (:data:`EIGHT_BODY_L`), with the data of
    :func:`eight_body`.

    Body K's axes are Kane's K-frame; joint K is a free joint from Q_K on the lower body
    (``parent_point`` = q'_K - r'_J, from G_J) to O_K (``child_point`` = -r'_K, from G_K), so that
    its six joint speeds are Kane's omega_hat'_K and s'dot_K (Kane eq. (1)) in other components.

    Examples
    --------
    >>> tree = eight_body_system()
    >>> tree.parents, tree.n_dof
    ((-1, 0, 1, 0, 1, 0, 0, 6), 48)
    """
    from .bodies import Body
    from .joints import Joint
    gravity = _check.scalar(gravity, "gravity", where="kane.eight_body_system")
    mass, inertia, q, r = _eight_body_data()
    parents = tuple(J - 1 for J in EIGHT_BODY_L)
    bodies = tuple(Body("spatial", float(mass[k]), inertia[k], name=f"body {k + 1}") for k in range(8))
    joints = tuple(Joint("free", parent_point=np.zeros(3) if J < 0 else q[k] - r[J], child_point=-r[k],
                         name=f"joint {k + 1}") for k, J in enumerate(parents))
    return System(parents, bodies, joints, (0.0, 0.0, -float(gravity)), name="eight-body tree of the notes")


def eight_body(gravity: float = G0) -> KaneSystem:
    """The eight-body tree of the notes, L = (0, 1, 2, 1, 2, 1, 1, 7), with the data chosen here:
    Kane's record of :func:`eight_body_system` (:func:`from_system`), with the initial state below.

    The notes give the topology only; this book chooses (SI units, all vectors as stated):

    * body 1: a 0.6 x 0.4 x 0.2 m box of 10 kg, the reference body, O_1 at its mass centre;
    * bodies 2..8: slender links of 1 kg (bodies 2, 4, 6, 7) or 0.5 kg (3, 5, 8), 0.4 m long
      along their own 1-axis, O_K at one end, G_K at the middle (r'_K = (0.2, 0, 0)),
      I' = diag(m w^2/6, m (L^2 + w^2)/12, m (L^2 + w^2)/12) with w = 0.04 m;
    * Q_K (q'_K, in the lower body's frame): links on body 1 at its faces, (+0.3, 0, 0) for 2,
      (-0.3, 0, 0) for 4, (0, 0.2, 0) for 6, (0, -0.2, 0) for 7; links on links at the far end
      of the lower link, (0.4, 0, 0);
    * initial s'_K = 0 (O_K at Q_K) except s'_1 = (0, 0, 1) m; initial relative orientations:
      body 4 turned by pi about 3, body 6 by +pi/2 about 3, body 7 by -pi/2 about 3, body 5
      by 0.4 rad about 2, the others aligned;
    * initial rates: body 1 spins at (0.3, 0.2, 1.0) rad/s and translates at (0.1, 0, 0.5) m/s,
      every other body turns relative to its lower body at 0.5 rad/s about its 3-axis (body 3
      at -0.8 rad/s) and slides at s'dot = (0, 0, 0.05) m/s.

    With ``gravity`` = g the inertial frame has gravity (0, 0, -g); with 0 the system floats.
    ``.mechanism`` is the System; every joint is free, so ``.speeds`` keeps all 6N speeds.

    Examples
    --------
    >>> sys = eight_body(gravity=0.0)
    >>> sys.N, sys.x0.shape, sys.y0.shape, float(sys.gravity[2]) + 0.0
    (8, (56,), (48,), 0.0)
    >>> sys.mechanism.joints[7].type, len(sys.speeds)
    ('free', 48)
    """
    gravity = _check.scalar(gravity, "gravity", where="kane.eight_body")
    N = 8
    eps = [_unit_quat([0, 0, 1], 0.0), _unit_quat([0, 0, 1], 0.0), _unit_quat([0, 0, 1], 0.0),
           _unit_quat([0, 0, 1], np.pi), _unit_quat([0, 1, 0], 0.4), _unit_quat([0, 0, 1], np.pi / 2),
           _unit_quat([0, 0, 1], -np.pi / 2), _unit_quat([0, 0, 1], 0.0)]
    s0 = np.zeros((N, 3))
    s0[0] = [0, 0, 1.0]
    x0 = np.concatenate([np.concatenate(eps), s0.ravel()])
    w0 = np.array([[0.3, 0.2, 1.0]] + [[0, 0, 0.5]] * 7)
    w0[2] = [0, 0, -0.8]
    sd0 = np.array([[0.1, 0, 0.5]] + [[0, 0, 0.05]] * 7)
    y0 = np.concatenate([w0.ravel(), sd0.ravel()])
    return replace(from_system(eight_body_system(gravity)), x0=x0, y0=y0)


def accelerations(system: KaneSystem, x, y, ydot) -> list:
    """Per body (a_G, alpha) in inertial components for given speed rates ydot
    (a'_G = VG ydot + VG_dot y + omega x v_G, alpha' = W ydot + W_dot y, then R^T).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body()
    >>> A, f = kane.mass_matrix_and_forcing(sys, sys.x0, sys.y0)
    >>> acc = kane.accelerations(sys, sys.x0, sys.y0, np.linalg.solve(A, f))
    >>> np.round(acc[3][0], 10) + 0.0          # every body is free: its mass centre falls at g
    array([ 0.  ,  0.  , -9.81])
    """
    where = "kane.accelerations"
    x, y = _state(system, x, y, where)
    ydot = _check.vector(ydot, 6 * system.N, "ydot", where=where, hint="one rate per speed, as y")
    return _accelerations(system, x, y, ydot)


def _accelerations(system: KaneSystem, x, y, ydot) -> list:
    kin = _kinematics(system, x, y)
    out = []
    for k in range(system.N):
        a = _apply(kin.VG[k], ydot) + _apply(kin.VGd[k], y) + cross(kin.omega[k], kin.vG[k], check=False)
        al = _apply(kin.W[k], ydot) + _apply(kin.Wd[k], y)
        out.append((kin.R[k].T @ a, kin.R[k].T @ al))
    return out


def to_absolute(system: KaneSystem, x, y):
    """The same bodies as a :class:`rfda_teach.system.System` of spatial bodies in absolute
    coordinates (free joints, same tree), and the state that matches (x, y).

    Examples
    --------
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body()
    >>> tree, state = kane.to_absolute(sys, sys.x0, sys.y0)
    >>> tree.n, [j.type for j in tree.joints][:2]
    (8, ['free', 'free'])
    """
    from .bodies import Body, matrix_to_euler_params
    from .joints import Joint
    from .system import State, System
    x, y = _state(system, x, y, "kane.to_absolute")
    kin = _kinematics(system, x, y)
    bodies = tuple(Body("spatial", float(system.mass[k]), system.inertia[k], name=f"body {k + 1}")
                   for k in range(system.N))
    joints = tuple(Joint("free", name=f"joint {k + 1}") for k in range(system.N))
    tree = System(tuple(J - 1 for J in system.L), bodies, joints, system.gravity, name=system.name)
    ys, yds = [], []
    for k in range(system.N):
        RT = kin.R[k].T                                       # body -> inertial
        ys.append(np.concatenate([RT @ kin.pG[k], matrix_to_euler_params(RT)]))
        yds.append(np.concatenate([RT @ kin.vG[k], RT @ kin.omega[k]]))
    return tree, State(np.concatenate(ys), np.concatenate(yds))


def to_joint_tree(system: KaneSystem, x, *, revolute=()):
    """The same bodies as a :class:`rfda_teach.system.System` with joints instead of free bodies:
    body 1 free, every other body K on a spherical joint that holds O_K at Q_K, or on a revolute joint
    (axis: the third axis of the relative orientation at ``x``) for the 0-based body indices in
    ``revolute``.  A view for checks: Kane's equations with the matching speeds locked
    (:func:`reduced_dynamics`) must give the joint tree's accelerations.

    ``x`` must put every O_K at Q_K (s'_K = 0 for K = 2..N, the last 3(N-1) entries of x).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import kane
    >>> sys = kane.eight_body()
    >>> x = sys.x0.copy(); x[4 * sys.N + 3:] = 0.0            # O_K at Q_K
    >>> tree = kane.to_joint_tree(sys, x, revolute=(2,))
    >>> [j.type for j in tree.joints][:4]
    ['free', 'spherical', 'revolute', 'spherical']
    """
    from .joints import Joint
    from .system import System
    where = "kane.to_joint_tree"
    _system(system, where)
    x, _ = _state(system, x, np.zeros(6 * system.N), where)
    N = system.N
    if isinstance(revolute, (str, bytes)) or not hasattr(revolute, "__iter__"):
        raise ModelError(f"{where}: revolute must be a sequence of body indices 1..{N - 1}, got {revolute!r}")
    revolute = tuple(revolute)
    if any(not isinstance(K, (int, np.integer)) or isinstance(K, bool) or not 1 <= K < N for K in revolute):
        raise ModelError(f"{where}: revolute must hold 0-based body indices 1..{N - 1} (body 1, index 0, is "
                         f"free), got {revolute!r}")
    slide = np.abs(x[4 * N + 3:]).max(initial=0.0)
    if slide > 1e-12:
        raise ModelError(f"{where}: x puts O_K away from Q_K (largest |s'_K| = {slide:.3g}); set "
                         f"x[4 * N + 3:] = 0 so that the joints hold")
    free, _ = to_absolute(system, x, np.zeros(6 * N))
    joints = [Joint("free", name="joint 1")]
    for K in range(1, N):
        J = system.L[K] - 1
        pp, cp = system.q[K] - system.r[J], -system.r[K]
        if K in revolute:
            frame = relative_rotation(x[4 * K:4 * K + 4]).T
            joints.append(Joint("revolute", parent_point=pp, child_point=cp, parent_frame=frame,
                                name=f"joint {K + 1}"))
        else:
            joints.append(Joint("spherical", parent_point=pp, child_point=cp, name=f"joint {K + 1}"))
    return System(free.parents, free.bodies, tuple(joints), free.gravity, name=system.name)


# ----------------------------------------------------------------------------- a view of the one model

#: how far (1 - |cos|) two directions may be from parallel, or |cos| from orthogonal, and still be
#: taken as such when Kane's frames are chosen so that joint axes are frame axes
AXIS_TOL = 1e-9

_EZ = np.array([0.0, 0.0, 1.0])
_ALL = "all"
_KINDS_TAKEN = ("free, spherical, revolute and prismatic joints between spatial bodies; revolute2d, "
                "prismatic2d and free2d joints between planar bodies")


def _lift(v, kind: str) -> np.ndarray:
    """A point or vector of the plane as a spatial one (z = 0); a spatial one unchanged."""
    v = np.asarray(v, float)
    return np.array([v[0], v[1], 0.0]) if kind == "planar" else v


def _lift_frame(F, kind: str) -> np.ndarray:
    """A planar rotation as the spatial rotation about z; a spatial one unchanged."""
    if kind != "planar":
        return F
    out = np.eye(3)
    out[:2, :2] = F
    return out


def _joint_motion(system: System, k: int, where: str):
    """(rot, trans): what joint k leaves free in Kane's speeds of body k.

    rot is None (no relative rotation), "all" (omega_hat'_K free) or an axis in body k's components
    (one component of omega_hat'_K); trans is None (O_K held at Q_K), "all" (s'dot_K free) or a list of
    axes in the lower body's components (the ground's for a root) along which s'_K may change.
    """
    joint, kind = system.joints[k], system.kind
    if kind == "planar":
        F = _lift_frame(joint.parent_frame, kind)
        table = {"revolute2d": (_EZ, None), "prismatic2d": (None, [F[:, 0]]), "free2d": (_EZ, [F[:, 0], F[:, 1]])}
    elif kind == "spatial":
        table = {"revolute": (joint.child_frame[:, 2], None), "prismatic": (None, [joint.parent_frame[:, 2]]),
                 "spherical": (_ALL, None), "free": (_ALL, _ALL)}
    else:
        table = {}
    if joint.type not in table:
        why = {"universal": "its relative angular velocity q1' a1 + q2' a2 has a1 fixed in the lower body, so "
                            "in the K-frame it turns: no subset of omega_hat'_K's components is the joint",
               "custom": "its free rows are not a subset of Kane's speeds in general",
               "rail": "a point2 body has no rotation, and Kane's bodies are rigid bodies with inertia"}
        raise ModelError(f"{where}: joint {k} ({joint.name!r}, {joint.type}) of system {system.name!r} cannot be "
                         f"written in Kane's relative coordinates by keeping a subset of the 6N speeds "
                         f"({why.get(joint.type, 'not a kind the view knows')}); kane.from_system takes "
                         f"{_KINDS_TAKEN}. Solve this system with rfda.forward_dynamics or dae.forward_dynamics")
    return table[joint.type]


def _frame(dirs, what: str, where: str) -> np.ndarray:
    """Kane's frame of a body (its axes as columns, in the body's components) in which every direction of
    ``dirs`` ((unit vector, label) pairs in the body's components) is a frame axis, up to sign: the body
    axes themselves when they already serve (so a record written in body axes is unchanged)."""
    if all(np.abs(d).max() > 1 - AXIS_TOL for d, _ in dirs):
        return np.eye(3)
    axes, labels = [], []
    for d, label in dirs:
        d = d / np.linalg.norm(d)
        c = [abs(a @ d) for a in axes]
        if any(v > 1 - AXIS_TOL for v in c):
            continue
        if any(v > AXIS_TOL for v in c):
            i = int(np.argmax(c))
            deg = np.degrees(np.arccos(min(c[i], 1.0)))
            raise ModelError(f"{where}: {label} and {labels[i]} meet at {deg:.4g} deg in {what}; Kane's speeds "
                             "of a revolute or prismatic joint are components along frame axes, so these axes "
                             "must be parallel or perpendicular. Solve this system with rfda.forward_dynamics "
                             "or dae.forward_dynamics")
        axes.append(d)
        labels.append(label)
    z = axes[0]
    if len(axes) > 1:
        x = axes[1]
    else:
        e = np.eye(3)[int(np.argmin(np.abs(z)))]
        x = e - (e @ z) * z
        x /= np.linalg.norm(x)
    return np.column_stack([x, np.cross(z, x), z])


def _axis_index(C: np.ndarray, d) -> int:
    """The frame axis (0, 1, 2) of C along d."""
    return int(np.argmax(np.abs(C.T @ d)))


class _View(NamedTuple):
    """How a System maps on Kane's record: Kane body K is System body order[K], L its connection array,
    frames[K] Kane's K-frame in body components, C0 the inertial frame N, S the kept speeds."""

    order: tuple
    L: tuple
    frames: np.ndarray
    C0: np.ndarray
    S: tuple


def _view(system: System, where: str) -> _View:
    """Kane's numbering, frames and kept speeds for a tree System (or a ModelError)."""
    _check.instance(system, System, "system", where=where,
                    hint="build one with rfda_teach.models or rfda_teach.system.System")
    if system.cuts:
        raise ModelError(f"{where}: system {system.name!r} has {len(system.cuts)} cut joint(s) "
                         f"({', '.join(c.name for c in system.cuts)}); Kane's notes treat trees (relative "
                         "coordinates of a tree, one set per body). Solve the closed system with "
                         "rfda_teach.dae.forward_dynamics (D&G eq. (7) with the cuts' rows), or view the tree "
                         "without cuts=")
    require_tree(system, where)
    if system.kind not in ("spatial", "planar"):
        raise ModelError(f"{where}: system {system.name!r} has {system.kind} bodies; Kane's relative coordinates "
                         f"take rigid bodies that rotate ({_KINDS_TAKEN}). Solve it with rfda.forward_dynamics "
                         "or dae.forward_dynamics")
    topo = system.topology
    n, parents = system.n, system.parents
    order = tuple(range(n)) if all(p < i for i, p in enumerate(parents)) else tuple(topo.order)
    K_of = {b: K for K, b in enumerate(order)}
    motion = [_joint_motion(system, k, where) for k in range(n)]
    dirs = {b: [] for b in range(-1, n)}
    for k, (rot, trans) in enumerate(motion):
        if not isinstance(rot, str) and rot is not None:
            dirs[k].append((_lift(rot, "spatial"), f"the axis of joint {k} ({system.joints[k].type})"))
        if not isinstance(trans, str) and trans is not None:
            dirs[parents[k]] += [(d, f"the sliding axis of joint {k} ({system.joints[k].type})") for d in trans]
    C = {b: _frame(dirs[b], "the ground" if b < 0 else f"body {b}", where) for b in dirs}
    S = []
    for K, k in enumerate(order):
        rot, trans = motion[k]
        if isinstance(rot, str):
            S += [3 * K, 3 * K + 1, 3 * K + 2]
        elif rot is not None:
            S.append(3 * K + _axis_index(C[k], rot))
        if isinstance(trans, str):
            S += [3 * n + 3 * K + i for i in range(3)]
        elif trans is not None:
            S += [3 * n + 3 * K + _axis_index(C[parents[k]], d) for d in trans]
    L = tuple(0 if parents[k] < 0 else K_of[parents[k]] + 1 for k in order)
    return _View(order, L, np.array([C[k] for k in order]), C[-1], tuple(sorted(set(S))))


def _rest_state(system: System) -> State:
    """Every joint at q = 0 (identity Euler parameters), at rest."""
    q = []
    for jt in system.joints:
        qk = np.zeros(jt.n_q)
        if jt.type in ("spherical", "free"):
            qk[-4] = 1.0                                     # scalar-first identity in the last four
        q.append(qk)
    return models.state_from_joints(system, q, [np.zeros(jt.n_dof) for jt in system.joints])


def _body_motion(system: System, y, yd, k: int):
    """R (body to world), mass-centre position, velocity and angular velocity of body k, spatial."""
    kind = system.kind
    yk, ydk = y[system.pos_slices[k]], yd[system.vel_slices[k]]
    if kind == "planar":
        R = _lift_frame(rotation(kind, yk, check=False), kind)
        return R, _lift(yk[:2], kind), _lift(ydk[:2], kind), np.array([0.0, 0.0, ydk[2]])
    return rotation(kind, yk, check=False), yk[:3], ydk[:3], ydk[3:6]


def _coordinates(system: System, v: _View, state, where: str):
    """Kane's (x, y) of Kane eq. (1) for a consistent state of the System."""
    y_abs, yd_abs = check_consistency(system, state)
    N, kind = system.n, system.kind
    x, y = np.zeros(7 * N), np.zeros(6 * N)
    for K, k in enumerate(v.order):
        j = system.parents[k]
        joint = system.joints[k]
        R_k, r_k, v_k, w_k = _body_motion(system, y_abs, yd_abs, k)
        A_k = R_k @ v.frames[K]                                  # K-frame axes, world components
        c = R_k @ _lift(joint.child_point, kind)
        P, Pd = r_k + c, v_k + np.cross(w_k, c)                  # O_K and its velocity
        if j < 0:
            A_j, Q, Qd, w_j = v.C0, np.zeros(3), np.zeros(3), np.zeros(3)    # q'_1 = 0: O_1 from the origin
        else:
            R_j, r_j, v_j, w_j = _body_motion(system, y_abs, yd_abs, j)
            A_j = R_j @ v.frames[v.L[K] - 1]
            b = R_j @ _lift(joint.parent_point, kind)
            Q, Qd = r_j + b, v_j + np.cross(w_j, b)              # Q_K and its velocity
        e = scalar_last(matrix_to_euler_params(A_j.T @ A_k, check=False), check=False)
        x[4 * K:4 * K + 4] = e                                   # Kane eq. (4): [^J R_K] = A_k^T A_j
        d = P - Q
        x[4 * N + 3 * K:4 * N + 3 * K + 3] = A_j.T @ d           # s'_K, J components
        y[3 * K:3 * K + 3] = A_k.T @ (w_k - w_j)                 # omega_hat'_K, K components
        y[3 * N + 3 * K:3 * N + 3 * K + 3] = A_j.T @ (Pd - Qd - np.cross(w_j, d))   # s'dot_K, rate in J
    keep = np.zeros(6 * N, bool)
    keep[list(v.S)] = True
    y[~keep] = 0.0                         # the joints hold these speeds at zero (to rounding: the state is consistent)
    return x, y


def from_system(system: System, state=None) -> KaneSystem:
    """Kane's record of a tree :class:`rfda_teach.system.System`: the one model in Kane's relative
    coordinates, Kane eq. (1), with the speeds its joints leave free.

    Body K of the record is a body of the System (``.order``; the System's numbering when every parent
    has a lower number, else its root-first order); O_K sits at the body's joint point, so Q_K is the
    joint point on the lower body, q'_K and r'_K follow from the joint points, I'_GK is the central
    inertia in Kane's K-frame.  A free joint keeps all six speeds of body K, a spherical one the three
    of omega_hat'_K, a revolute one the component of omega_hat'_K along its axis and a prismatic one the
    component of s'dot_K along its axis: the K-frame (``.frames``) and the inertial frame N
    (``.ground_frame``) are chosen so that these axes are frame axes (the body axes, the world axes
    when they already are).  A planar System is the same mechanism in the plane z = 0 (a planar body
    of moment J gets the lamina inertia diag(J/2, J/2, J)): revolute2d turns about z, prismatic2d
    slides along its joint frame's x, free2d does both in the plane.

    ``state`` (a consistent :class:`rfda_teach.system.State`; default: every joint at q = 0, at rest)
    gives ``x0``, ``y0`` (:func:`state_from_system`).  Several bodies on the ground (a forest, e.g. a
    closed chain cut open at a coupler) become several bodies with L(K) = 0.  Cut joints, universal and
    custom joints, ``point2`` bodies, and revolute or prismatic axes on one body that are neither
    parallel nor perpendicular are refused with a message that names them.

    Examples
    --------
    >>> from rfda_teach import kane, models
    >>> ks = kane.from_system(models.chain(3, "spatial"))
    >>> ks.N, ks.L, ks.speeds                       # one rotation speed per body
    (3, (0, 1, 2), (2, 4, 8))
    >>> ks.mechanism.name
    'spatial chain n=3'
    """
    where = "kane.from_system"
    system = _check.instance(system, System, "system", where=where,
                             hint="build one with rfda_teach.models or rfda_teach.system.System")
    v = _view(system, where)
    kind, N = system.kind, system.n
    mass, inertia, q, r = np.zeros(N), np.zeros((N, 3, 3)), np.zeros((N, 3)), np.zeros((N, 3))
    for K, k in enumerate(v.order):
        body, joint, C = system.bodies[k], system.joints[k], v.frames[K]
        mass[K] = body.mass
        J = body.J if kind == "spatial" else np.diag([0.5, 0.5, 1.0]) * body.J[0, 0]
        inertia[K] = rotate_inertia(J, C.T, check=False)        # I'_GK in K components
        r[K] = C.T @ -_lift(joint.child_point, kind)             # r'_K: O_K to G_K
        j = system.parents[k]
        if j >= 0:                                               # q'_K: O_J to Q_K, J components
            q[K] = v.frames[v.L[K] - 1].T @ (_lift(joint.parent_point, kind)
                                             - _lift(system.joints[j].child_point, kind))
    g = v.C0.T @ _lift(system.gravity, kind)
    x0, y0 = _coordinates(system, v, _rest_state(system) if state is None else state, where)
    return KaneSystem(v.L, mass, inertia, q, r, g, x0, y0, name=system.name, mechanism=system, speeds=v.S,
                      frames=v.frames, ground_frame=v.C0, order=v.order)


def _mechanism(kane_system, where: str) -> System:
    _system(kane_system, where)
    if kane_system.mechanism is None:
        raise ModelError(f"{where}: this KaneSystem was written by hand and views no System (mechanism is None); "
                         "build it with kane.from_system(system)")
    return kane_system.mechanism


def _view_of(ks: KaneSystem) -> _View:
    S = tuple(range(6 * ks.N)) if ks.speeds is None else ks.speeds
    return _View(ks.order, ks.L, ks.frames, ks.ground_frame, S)


def state_from_system(kane_system: KaneSystem, state):
    """(x, y) of Kane eq. (1) for a state of the System that ``kane_system`` views (:func:`from_system`).

    eps_K from [^J R_K] (Kane eq. (4)) of the K- and J-frames, s'_K from Q_K to O_K in J components,
    omega_hat'_K in K components, s'dot_K the rate of s'_K seen in the J-frame.  The state must satisfy
    every joint (:func:`rfda_teach.system.check_consistency`); the speeds the joints hold at zero are
    returned as exact zeros.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import kane, models
    >>> tree = models.chain(2, "spatial")
    >>> ks = kane.from_system(tree)
    >>> x, y = kane.state_from_system(ks, models.state_from_joints(tree, [[0.3], [0.0]], [[2.0], [0.0]]))
    >>> round(float(y[ks.speeds[0]]), 12), x.shape, y.shape   # joint 0 turns at 2 rad/s about its axis
    (2.0, (14,), (12,))
    """
    where = "kane.state_from_system"
    system = _mechanism(kane_system, where)
    return _coordinates(system, _view_of(kane_system), state, where)


def _element_loads(ks: KaneSystem, system: System, state):
    """Forces at the mass centres and moments (N components) of the System's force elements."""
    if not system.forces:
        return None, None
    y, yd = state
    ps, vs, kind = system.pos_slices, system.vel_slices, system.kind
    K_of = {b: K for K, b in enumerate(ks.order)}
    F, M = np.zeros((ks.N, 3)), np.zeros((ks.N, 3))
    for e in system.forces:
        ends = [(None, None) if b < 0 else (y[ps[b]], yd[vs[b]]) for b in (e.a, e.b)]
        fa, fb = generalized_forces(e, kind, *ends[0], *ends[1], check=False)
        for b, fv in ((e.a, fa), (e.b, fb)):
            if b >= 0:
                if kind == "planar":
                    F[K_of[b]] += [fv[0], fv[1], 0.0]
                    M[K_of[b]] += [0.0, 0.0, fv[2]]
                else:
                    F[K_of[b]] += fv[:3]
                    M[K_of[b]] += fv[3:]
    return F @ ks.ground_frame, M @ ks.ground_frame          # rows C0^T F: N components


def system_accelerations(system: System, state) -> np.ndarray:
    """The System's absolute accelerations ydd (the layout of :func:`rfda_teach.dae.forward_dynamics`)
    by Kane's method: the record of :func:`from_system` at the state (:func:`state_from_system`),
    Kane's equations (Kane eq. (39)-(41)) with the speeds its joints leave free
    (:func:`reduced_dynamics`), and the mass-centre and angular accelerations mapped back to the world.

    Gravity and the force elements ``system.forces`` act (as forces at the mass centres and moments,
    Kane eq. (41)); there are no joint torques.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import dae, kane, models
    >>> tree = models.figure1_tree("spatial")
    >>> st = models.random_state(tree, seed=1)
    >>> ydd = kane.system_accelerations(tree, st)
    >>> bool(np.allclose(ydd, dae.forward_dynamics(tree, st).ydd, rtol=1e-9, atol=1e-9))
    True
    """
    where = "kane.system_accelerations"
    system = _check.instance(system, System, "system", where=where,
                             hint="build one with rfda_teach.models or rfda_teach.system.System")
    ks = from_system(system, state)
    st = check_consistency(system, state)
    F, M = _element_loads(ks, system, st)
    x, y = ks.x0, ks.y0
    ydot = _reduced(ks, x, y, np.asarray(ks.speeds), where, F, M)
    ydd = np.zeros(system.n_vel)
    for K, (a, al) in enumerate(_accelerations(ks, x, y, ydot)):
        a, al = ks.ground_frame @ a, ks.ground_frame @ al       # N components to world
        ydd[system.vel_slices[ks.order[K]]] = [a[0], a[1], al[2]] if system.kind == "planar" else np.r_[a, al]
    return ydd


__all__ += ["accelerations", "to_absolute", "to_joint_tree", "from_system", "state_from_system",
            "system_accelerations", "eight_body_system", "AXIS_TOL"]
