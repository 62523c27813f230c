"""Interactive 3-D recordings of a motion that work offline, in a static HTML page.

A :class:`Recording` is plain data: the shapes of every body (in the body's own frame) and the
world pose of every body frame at every recorded time.  :func:`to_html` writes it as one
self-contained HTML document that runs the viewer of the ``meshcat`` package (three.js inside,
its ``main.min.js`` inlined): the reader orbits, zooms, plays, pauses and scrubs the time, and
nothing is fetched from the network, neither when the book is built nor when it is read.
:func:`embed` wraps the document in an ``<iframe srcdoc=...>`` for a notebook cell, with a PNG
still of the first frame that the PDF shows instead (and the page too, when WebGL is missing).

The document is the one meshcat's own server writes for ``get_scene`` (the viewer, then
msgpack-encoded meshcat commands: ``set_object``, ``set_transform``, ``set_property``,
``set_animation``), with four differences: the commands are decoded by a plain base64 loop
instead of ``fetch("data:...")``; every body goes into one ``set_object`` (a three.js scene
whose geometries and materials are listed once and shared, so a mesh used by a left and a right
leg is sent once); the animation is one clip whose tracks carry their times and values as binary
float32 arrays (three.js' own ``times``/``values`` form: a third of meshcat's keyed lists); and
a small bar under the scene has play/pause and a time slider (meshcat's own animation panel
stays under "Open Controls").

Four builders turn what the chapters compute into a recording: :func:`from_robot` (a Pinocchio
robot of :mod:`rfda_teach.interop` with its example-robot-data meshes), :func:`from_system` (a
tree in absolute coordinates), :func:`from_kane` (Kane's relative-coordinate trees) and
:func:`from_quarter_car` (the reference-point quarter car of :mod:`rfda_teach.refpoint`).

Examples
--------
>>> import numpy as np
>>> from rfda_teach import scene3d
>>> t = np.linspace(0.0, 1.0, 3)
>>> poses = np.repeat(np.eye(4)[None], 3, axis=0)
>>> poses[:, 2, 3] = t                                  # the box rises 1 m in 1 s
>>> rec = scene3d.Recording({"box": (scene3d.Shape("box", (0.2, 0.1, 0.1)),)}, t,
...                         {"box": poses}, title="a rising box")
>>> page = scene3d.to_html(rec)
>>> page.startswith("<!DOCTYPE html>") and "https://" not in page
True
"""

from __future__ import annotations

import base64
import html as _html
import io
import json
import math
import os
from dataclasses import dataclass, field

import numpy as np

from . import _check
from .errors import ModelError
from .spatial import elementary_rotation

__all__ = ["Shape", "Recording", "Scene", "MAX_BYTES", "SHAPE_KINDS", "to_html", "size_bytes",
           "still_png", "embed", "from_robot", "from_system", "from_kane", "from_quarter_car"]

#: the largest scene (bytes of HTML, as embedded in a page) :func:`to_html` writes; a longer
#: recording is thinned to fewer frames until it fits
MAX_BYTES = 5_000_000

#: shape kinds and the meaning of ``Shape.size`` for each
SHAPE_KINDS = {
    "box": "full side lengths (lx, ly, lz)",
    "sphere": "radius (r,)",
    "cylinder": "(radius, length), axis along the shape's z",
    "ellipsoid": "semi-axes (a, b, c)",
    "mesh": "scale factors (sx, sy, sz) of the mesh file or of vertices/faces",
}
_SIZE_LEN = {"box": 3, "sphere": 1, "cylinder": 2, "ellipsoid": 3, "mesh": 3}

#: body colours of the builders (matplotlib's tab10)
PALETTE = (0x1F77B4, 0xFF7F0E, 0x2CA02C, 0xD62728, 0x9467BD, 0x8C564B, 0xE377C2, 0x7F7F7F,
           0xBCBD22, 0x17BECF)

_FOV = 75.0          # meshcat's default camera: vertical field of view, degrees
_RIGID_TOL = 1e-6    # |R^T R - I| accepted in a pose


def _meshcat():
    """meshcat's Python modules (the extra "book"), or a ModelError saying how to install them."""
    import warnings
    try:
        with warnings.catch_warnings():          # meshcat's package imports its zmq server
            warnings.simplefilter("ignore", DeprecationWarning)
            import meshcat.animation as animation
            import meshcat.commands as commands
            import meshcat.geometry as geometry
            import umsgpack
            from meshcat.path import Path as path
    except ImportError as exc:                      # pragma: no cover - depends on the extra
        raise ModelError("3-D scenes need meshcat: pip install 'meshcat>=0.3.2,<0.4' "
                         "(requirements.txt, extra 'book')") from exc
    return commands, geometry, animation, path, umsgpack


# ----------------------------------------------------------------------------- plain data

def _array(x, what: str, where: str) -> np.ndarray:
    """Any array of real numbers (shape not checked yet), else a ModelError naming it."""
    if x is None or isinstance(x, (str, bytes, dict, set)):
        raise ModelError(f"{where}: {what} must be an array of numbers, got {x!r}"[:300])
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{where}: {what} must be an array of real numbers of one shape, "
                         f"got {type(x).__name__}") from exc


def _pose(x, what: str, where: str) -> np.ndarray:
    """A rigid 4x4 pose (rotation, translation, last row 0 0 0 1), checked."""
    P = _check.matrix(x, (4, 4), what, where=where)
    _rigid(P[None], what, where)
    return P


def _rigid(P: np.ndarray, what: str, where: str) -> None:
    """Every P[i] (shape (T, 4, 4)) is a rigid pose, else a ModelError naming the first bad one."""
    R = P[:, :3, :3]
    err = np.abs(np.einsum("tji,tjk->tik", R, R) - np.eye(3)).max(axis=(1, 2))
    bottom = np.abs(P[:, 3] - [0.0, 0.0, 0.0, 1.0]).max(axis=1)
    det = np.linalg.det(R)
    bad = (err > _RIGID_TOL) | (bottom > 0) | (det < 0)
    if bad.any():
        i = int(np.argmax(bad))
        at = f"{what}[{i}]" if P.shape[0] > 1 or what.startswith("poses") else what
        raise ModelError(f"{where}: {at} is not a rigid pose (|R^T R - I| = {err[i]:.3g}, det R = "
                         f"{det[i]:.3g}, last row {P[i, 3].tolist()}); give a rotation matrix "
                         "in the upper-left 3x3 block, the position in the last column and "
                         "[0, 0, 0, 1] as the last row")


def _color(c, where: str) -> int:
    if isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_)):
        if 0 <= int(c) <= 0xFFFFFF:
            return int(c)
    elif isinstance(c, (tuple, list, np.ndarray)) and len(c) == 3:
        v = _check.vector(c, 3, "color", where=where)
        if np.all((v >= 0) & (v <= 1)):
            r, g, b = (int(round(255 * x)) for x in v)
            return (r << 16) | (g << 8) | b
    raise ModelError(f"{where}: color {c!r} is not a colour; give 0xRRGGBB (an int from 0 to "
                     "0xFFFFFF) or three numbers (r, g, b) in [0, 1]")


@dataclass(frozen=True, eq=False)
class Shape:
    """One visual shape of a body, in the body's frame.

    ``kind`` is a key of :data:`SHAPE_KINDS`; ``size`` means what :data:`SHAPE_KINDS` says for it
    (a box's full side lengths, a sphere's radius, a cylinder's radius and length along its z, an
    ellipsoid's semi-axes, a mesh's scale factors).  ``color`` is 0xRRGGBB or (r, g, b) in [0, 1];
    ``offset`` the rigid 4x4 pose of the shape in the body frame (None: the identity);
    ``opacity`` in (0, 1].  A mesh comes from a file ``mesh_path`` (STL, binary or ASCII; OBJ;
    any format the ``coal`` mesh loader of Pinocchio reads) or from arrays ``vertices`` (n, 3)
    and ``faces`` (m, 3) of vertex indices.

    Examples
    --------
    >>> Shape("cylinder", (0.02, 0.5), color=(1.0, 0.5, 0.0)).color == 0xFF8000
    True
    >>> Shape("cylinder", (0.02,))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: scene3d.Shape: size has shape (1,); it must be (2,) ((radius, ...
    """

    kind: str
    size: tuple
    color: object = 0x3B6EA8
    offset: object = None
    mesh_path: object = None
    vertices: object = field(default=None, repr=False)
    faces: object = field(default=None, repr=False)
    opacity: float = 1.0

    def __post_init__(self):
        where = "scene3d.Shape"
        kind = _check.choice(self.kind, tuple(SHAPE_KINDS), "kind", where=where)
        size = _check.vector(np.atleast_1d(self.size) if np.isscalar(self.size) else self.size,
                             _SIZE_LEN[kind], "size", where=where, hint=SHAPE_KINDS[kind])
        if (kind == "mesh" and np.any(size == 0)) or (kind != "mesh" and np.any(size <= 0)):
            raise ModelError(f"{where}: size {size.tolist()} of a {kind} must be "
                             f"{'non-zero' if kind == 'mesh' else 'positive'}: {SHAPE_KINDS[kind]}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "size", tuple(float(s) for s in size))
        object.__setattr__(self, "color", _color(self.color, where))
        off = np.eye(4) if self.offset is None else _pose(self.offset, "offset", where)
        object.__setattr__(self, "offset", off)
        op = _check.scalar(self.opacity, "opacity", where=where, positive=True)
        if op > 1:
            raise ModelError(f"{where}: opacity is {op}; give a number in (0, 1]")
        object.__setattr__(self, "opacity", op)
        has_file, has_arrays = self.mesh_path is not None, self.vertices is not None
        if kind != "mesh":
            if has_file or has_arrays or self.faces is not None:
                raise ModelError(f"{where}: mesh_path, vertices and faces are for kind='mesh', not "
                                 f"{kind!r}")
            return
        if has_file == has_arrays:
            raise ModelError(f"{where}: a mesh needs either mesh_path (a file) or vertices and "
                             "faces (arrays), not both and not neither")
        if has_file:
            path = _check.instance(self.mesh_path, (str, os.PathLike), "mesh_path", where=where)
            if not os.path.isfile(path):
                raise ModelError(f"{where}: mesh_path {os.fspath(path)!r} is not a file; give "
                                 "the path of an STL, OBJ or other mesh file")
            object.__setattr__(self, "mesh_path", os.fspath(path))
            return
        V = _check.matrix(self.vertices, (None, 3), "vertices", where=where)
        F = _check.matrix(self.faces, (None, 3), "faces", where=where)
        if len(V) == 0 or len(F) == 0 or np.any(F != np.round(F)) or F.min() < 0 \
                or F.max() >= len(V):
            raise ModelError(f"{where}: faces must be integer indices into the {len(V)} vertices "
                             "(at least one vertex and one face)")
        object.__setattr__(self, "vertices", V.astype(np.float32))
        object.__setattr__(self, "faces", F.astype(np.int64))


@dataclass(frozen=True, eq=False)
class Recording:
    """A recorded motion: the shapes of every body and the world pose of its frame per frame.

    ``shapes`` maps a body name (a non-empty string without "/") to a tuple of :class:`Shape`;
    ``t`` holds the T recorded times (strictly increasing, seconds); ``poses`` maps every body
    name to an array (T, 4, 4) of rigid world poses of the body frame, one per time, or to one
    pose (4, 4) for a body that does not move.  ``links`` lists pairs of body names whose frame
    origins the still image joins by a line (the tree's skeleton); ``view`` is the camera's
    (azimuth, elevation) in degrees, as matplotlib's ``view_init`` takes them; ``playback`` the
    speed at which the viewer plays (0.25: a quarter of real time); ``focus`` the bodies the
    camera frames (default: every body; scenery such as a long road can stay out of it).

    Examples
    --------
    >>> import numpy as np
    >>> ball = {"ball": (Shape("sphere", (0.1,)),)}
    >>> Recording(ball, [0.0, 1.0], {"ball": np.eye(4)}).n_frames
    2
    >>> Recording(ball, [0.0, 1.0], {"ball": np.zeros((2, 4, 4))})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: scene3d.Recording: poses['ball'][0] is not a rigid pose (|R^T ...
    """

    shapes: dict
    t: object
    poses: dict
    title: str = ""
    links: tuple = ()
    view: tuple = (-55.0, 20.0)
    playback: float = 1.0
    focus: tuple = ()

    def __post_init__(self):
        where = "scene3d.Recording"
        _check.instance(self.shapes, dict, "shapes", where=where,
                        hint="a dict body name -> tuple of scene3d.Shape")
        _check.instance(self.poses, dict, "poses", where=where,
                        hint="a dict body name -> array (T, 4, 4) of world poses")
        if not self.shapes:
            raise ModelError(f"{where}: shapes is empty; give at least one body with a shape")
        t = _check.vector(np.atleast_1d(self.t) if np.ndim(self.t) == 0 else self.t, None, "t",
                          where=where, hint="the recorded times, seconds")
        if t.size == 0 or np.any(np.diff(t) <= 0):
            raise ModelError(f"{where}: t must hold at least one time and increase strictly "
                             f"(got {t.size} times)")
        T = t.size
        missing = [n for n in self.shapes if n not in self.poses]
        extra = [n for n in self.poses if n not in self.shapes]
        if missing or extra:
            raise ModelError(f"{where}: every body needs shapes and poses: "
                             + (f"no poses for {missing}" if missing else "")
                             + ("; " if missing and extra else "")
                             + (f"no shapes for {extra}" if extra else ""))
        shapes, poses = {}, {}
        for name, shp in self.shapes.items():
            if not isinstance(name, str) or not name or "/" in name:
                raise ModelError(f"{where}: body name {name!r} must be a non-empty str without '/'")
            shp = (shp,) if isinstance(shp, Shape) else shp
            if not isinstance(shp, (tuple, list)) or not all(isinstance(s, Shape) for s in shp):
                raise ModelError(f"{where}: shapes[{name!r}] must be a tuple of scene3d.Shape, "
                                 f"got {type(shp).__name__}")
            shapes[name] = tuple(shp)
            P = _array(self.poses[name], f"poses[{name!r}]", where)
            if P.shape in ((4, 4), (1, 4, 4)):                  # a body that does not move
                P = _check.matrix(P.reshape(4, 4), (4, 4), f"poses[{name!r}]", where=where)[None]
            else:
                P = _check.matrix(P, (T, 4, 4), f"poses[{name!r}]", where=where)
            _rigid(P, f"poses[{name!r}]", where)
            poses[name] = P
        links = tuple(tuple(p) for p in self.links)
        for p in links:
            if len(p) != 2 or any(n not in shapes for n in p):
                raise ModelError(f"{where}: link {p!r} must be a pair of body names of shapes")
        view = _check.vector(self.view, 2, "view", where=where, hint="(azimuth, elevation) degrees")
        focus = (self.focus,) if isinstance(self.focus, str) else tuple(self.focus)
        if any(n not in shapes for n in focus):
            raise ModelError(f"{where}: focus {focus!r} names bodies that have no shapes; give "
                             f"names among {sorted(shapes)[:6]}")
        object.__setattr__(self, "focus", focus)
        object.__setattr__(self, "shapes", shapes)
        object.__setattr__(self, "poses", poses)
        object.__setattr__(self, "t", t)
        object.__setattr__(self, "title", _check.instance(self.title, str, "title", where=where))
        object.__setattr__(self, "links", links)
        object.__setattr__(self, "view", (float(view[0]), float(view[1])))
        object.__setattr__(self, "playback",
                           _check.scalar(self.playback, "playback", where=where, positive=True))

    @property
    def n_frames(self) -> int:
        """Number of recorded times T."""
        return int(self.t.size)

    def __repr__(self) -> str:
        """One line: title, bodies, shapes, frames and time span.

        Examples
        --------
        >>> import numpy as np
        >>> Recording({"b": (Shape("sphere", (1.0,)),)}, [0.0, 0.5], {"b": np.eye(4)}, title="x")
        Recording 'x': 1 bodies (1 shapes), 2 frames from t = 0 to 0.5 s
        """
        n = sum(len(v) for v in self.shapes.values())
        return (f"Recording {self.title!r}: {len(self.shapes)} bodies ({n} shapes), "
                f"{self.n_frames} frames from t = {self.t[0]:.4g} to {self.t[-1]:.4g} s")

    def pose(self, name: str, i: int) -> np.ndarray:
        """World pose (4, 4) of body ``name``'s frame at frame i (a static body: its one pose).

        Examples
        --------
        >>> import numpy as np
        >>> rec = Recording({"b": (Shape("sphere", (1.0,)),)}, [0.0], {"b": np.eye(4)})
        >>> rec.pose("b", 0)[3].tolist()
        [0.0, 0.0, 0.0, 1.0]
        """
        P = self.poses[name]
        return P[0] if P.shape[0] == 1 else P[i]

    def every(self, k: int) -> "Recording":
        """The same recording with every k-th frame (the last one always kept).

        Examples
        --------
        >>> import numpy as np
        >>> rec = Recording({"b": (Shape("sphere", (1.0,)),)}, np.arange(10.0), {"b": np.eye(4)})
        >>> rec.every(4).t.tolist()
        [0.0, 4.0, 8.0, 9.0]
        """
        k = _check.positive_int(k, "k", where="scene3d.Recording.every")
        keep = np.unique(np.r_[np.arange(0, self.n_frames, k), self.n_frames - 1])
        poses = {n: P if P.shape[0] == 1 else P[keep] for n, P in self.poses.items()}
        return Recording(self.shapes, self.t[keep], poses, self.title, self.links, self.view,
                         self.playback, self.focus)


def _recording(rec, where: str) -> Recording:
    return _check.instance(rec, Recording, "rec", where=where,
                           hint="build one with scene3d.Recording or a scene3d.from_* builder")


# ----------------------------------------------------------------------------- meshes

def _coal():
    """Pinocchio's collision library: coal (Pinocchio 3), formerly hpp-fcl."""
    try:
        import coal
    except ImportError:
        import hppfcl as coal
    return coal


def _read_stl(data: bytes):
    """Triangles (m, 3, 3) of a binary or ASCII STL file."""
    if len(data) >= 84:
        m = int(np.frombuffer(data, np.uint32, 1, 80)[0])
        if len(data) == 84 + 50 * m:
            rec = np.frombuffer(data, np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)),
                                                ("a", "<u2")]), m, 84)
            return rec["v"].astype(np.float32)
    text = data.decode("ascii", errors="replace")
    nums = [ln.split()[1:4] for ln in text.splitlines() if ln.strip().startswith("vertex")]
    return np.array(nums, np.float32).reshape(-1, 3, 3)


def _read_obj(text: str):
    V, F = [], []
    for ln in text.splitlines():
        p = ln.split()
        if not p:
            continue
        if p[0] == "v":
            V.append([float(x) for x in p[1:4]])
        elif p[0] == "f":
            idx = [int(x.split("/")[0]) for x in p[1:]]
            idx = [i - 1 if i > 0 else len(V) + i for i in idx]
            F += [[idx[0], idx[j], idx[j + 1]] for j in range(1, len(idx) - 1)]
    return np.array(V, np.float32), np.array(F, np.int64)


def _unique_rows(X: np.ndarray):
    """``np.unique(X, axis=0, return_inverse=True)`` of float rows, by a sort on the columns: the
    same arrays, several times faster than numpy's sort of the rows as records.  Where a row holds
    NaN or -0.0 (which equals 0.0 but differs in its bits) numpy's own function decides."""
    if X.shape[0] == 0 or np.isnan(X).any() or (np.signbit(X) & (X == 0)).any():
        return np.unique(X, axis=0, return_inverse=True)
    order = np.lexsort(X.T[::-1])                # rows in lexicographic order
    S = X[order]
    new = np.empty(len(S), bool)
    new[0] = True
    np.any(S[1:] != S[:-1], axis=1, out=new[1:])
    inv = np.empty(len(S), np.intp)
    inv[order] = np.cumsum(new) - 1
    return S[new], inv


def _mesh_arrays(shape: Shape):
    """(vertices float32 (n, 3), faces int (m, 3)) of a mesh shape, identical vertices merged."""
    if shape.vertices is not None:
        return shape.vertices, shape.faces
    path = shape.mesh_path
    where = f"scene3d: mesh {path!r}"
    ext = os.path.splitext(path)[1].lower()
    try:
        if ext == ".stl":
            with open(path, "rb") as fh:
                tri = _read_stl(fh.read())
            V, inv = _unique_rows(tri.reshape(-1, 3))
            return V, inv.reshape(-1, 3)
        if ext == ".obj":
            with open(path, encoding="utf-8", errors="replace") as fh:
                return _read_obj(fh.read())
        coal = _coal()                              # Pinocchio's collision library reads the rest
        m = coal.MeshLoader().load(path, np.ones(3))
        F = np.array([[m.tri_indices(i)[j] for j in range(3)] for i in range(m.num_tris)])
        return np.asarray(m.vertices(), np.float32), F
    except ImportError as exc:
        raise ModelError(f"{where}: reading {ext} meshes needs the 'coal' package (comes with "
                         "pin, the extra 'robots'); or convert the mesh to STL or OBJ") from exc
    except (OSError, ValueError, RuntimeError, IndexError) as exc:
        raise ModelError(f"{where}: could not be read ({type(exc).__name__}: {exc}); give a "
                         "valid STL or OBJ file") from exc


class _IndexedMesh:
    """A three.js BufferGeometry of indexed triangles (float32 positions, 16-bit indices when
    there are fewer than 65536 vertices, else 32-bit), lowered as meshcat lowers geometries."""

    def __init__(self, V, F, uuid: str, umsgpack):
        self.V, self.F, self.uuid, self._ext = V, F, uuid, umsgpack.Ext

    def lower(self, object_data):
        small = self.V.shape[0] < 65536
        idx = self.F.astype(np.uint16 if small else np.uint32)
        return {"uuid": self.uuid, "type": "BufferGeometry", "data": {
            "attributes": {"position": {
                "itemSize": 3, "type": "Float32Array", "normalized": False,
                "array": self._ext(0x17, np.ascontiguousarray(self.V, np.float32).tobytes())}},
            "index": {"itemSize": 1, "type": "Uint16Array" if small else "Uint32Array",
                      "normalized": False,
                      "array": self._ext(0x14 if small else 0x16, idx.tobytes())}}}


# ----------------------------------------------------------------------------- the document

def _rot_x(a: float) -> np.ndarray:
    """The 4x4 homogeneous rotation by a about x."""
    P = np.eye(4)
    P[:3, :3] = elementary_rotation("x", a, check=False)
    return P


def _shape_radius(s: Shape, meshes: dict) -> tuple[np.ndarray, float]:
    """Centre (shape frame) and radius of a sphere around the shape."""
    if s.kind == "box":
        return np.zeros(3), 0.5 * float(np.linalg.norm(s.size))
    if s.kind == "cylinder":
        return np.zeros(3), float(math.hypot(s.size[0], 0.5 * s.size[1]))
    if s.kind in ("sphere", "ellipsoid"):
        return np.zeros(3), float(max(s.size))
    V = meshes[id(s)][0] * np.asarray(s.size, np.float32)
    lo, hi = V.min(axis=0), V.max(axis=0)
    return 0.5 * (lo + hi), 0.5 * float(np.linalg.norm(hi - lo))


def _bounds(rec: Recording, meshes: dict, names=None):
    """Lowest and highest corner of the box around every shape (of the bodies ``names``, default
    all) over every frame."""
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    for name, shapes in rec.shapes.items():
        if names and name not in names:
            continue
        P = rec.poses[name]
        for s in shapes:
            c, r = _shape_radius(s, meshes)
            W = P @ s.offset
            pts = W[:, :3, :3] @ c + W[:, :3, 3]
            lo = np.minimum(lo, pts.min(axis=0) - r)
            hi = np.maximum(hi, pts.max(axis=0) + r)
    return lo, hi


def _view_dir(view) -> np.ndarray:
    az, el = np.radians(view[0]), np.radians(view[1])
    return np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])


def _packed_track(name: str, jstype: str, times, values, ext):
    """An animation track in three.js' (times, values) form, both float32 binary arrays; ``name``
    is "<node name>.<property>"."""
    return {"name": name, "type": jstype,
            "times": ext(0x17, np.asarray(times, np.float32).tobytes()),
            "values": ext(0x17, np.asarray(values, np.float32).tobytes())}


def _quaternions(R: np.ndarray) -> np.ndarray:
    """Unit quaternions (x, y, z, w) of rotations R (T, 3, 3), each in the hemisphere of the one
    before it (no half-turn jumps between frames)."""
    from scipy.spatial.transform import Rotation
    q = Rotation.from_matrix(R).as_quat()
    for i in range(1, len(q)):
        if q[i] @ q[i - 1] < 0:
            q[i] = -q[i]
    return q


def _matrix(P: np.ndarray) -> list:
    """A 4x4 matrix as three.js stores it (column-major)."""
    return [float(v) for v in np.asarray(P).T.ravel()]


def _node(i: int) -> str:
    """three.js name of body i's group (the animation tracks find it by this name)."""
    return f"b{i}"


def _scene_object(rec: Recording, meshes: dict, mc) -> dict:
    """One three.js scene (ObjectLoader JSON) with every body: a group per body at its first
    pose, one mesh per shape inside it, every geometry and material listed once and shared (a
    mesh file used by two bodies, e.g. a left and a right leg, is sent once)."""
    _, geometry, _, _, umsgpack = mc
    geoms, mats, gid, mid = [], [], {}, {}

    def geometry_of(s: Shape) -> str:
        key = (s.kind, s.mesh_path or id(s)) if s.kind == "mesh" else (s.kind, s.size)
        if key not in gid:
            uid = f"rfda-g{len(gid)}"
            if s.kind == "mesh":
                V, F = meshes[id(s)]
                g = _IndexedMesh(V, F, uid, umsgpack)
            else:
                g = {"box": lambda: geometry.Box(list(s.size)),
                     "sphere": lambda: geometry.Sphere(1.0),
                     "cylinder": lambda: geometry.Cylinder(s.size[1], s.size[0]),
                     "ellipsoid": lambda: geometry.Sphere(1.0)}[s.kind]()
                g.uuid = uid
            geoms.append(g.lower({}))
            gid[key] = uid
        return gid[key]

    def material_of(s: Shape) -> str:
        key = (s.kind == "mesh", s.color, s.opacity)
        if key not in mid:
            if s.kind == "mesh":
                m = geometry.MeshPhongMaterial(color=s.color, opacity=s.opacity,
                                               flatShading=True, shininess=20)
            else:
                m = geometry.MeshLambertMaterial(color=s.color, opacity=s.opacity)
            m.uuid = f"rfda-m{len(mid)}"
            mats.append(m.lower({}))
            mid[key] = m.uuid
        return mid[key]

    def intrinsic(s: Shape) -> np.ndarray:           # the unit shape -> the shape's frame
        if s.kind == "cylinder":
            return _rot_x(np.pi / 2)                 # three.js cylinders lie along y: y -> z
        if s.kind in ("sphere", "ellipsoid", "mesh"):
            return np.diag(np.r_[np.broadcast_to(s.size, 3), 1.0])
        return np.eye(4)

    bodies = []
    for i, (name, shapes) in enumerate(rec.shapes.items()):
        children = [{"uuid": f"rfda-{i}-{k}", "type": "Mesh", "name": str(k),
                     "geometry": geometry_of(s), "material": material_of(s),
                     "matrix": _matrix(s.offset @ intrinsic(s))} for k, s in enumerate(shapes)]
        bodies.append({"uuid": f"rfda-{i}", "type": "Group", "name": _node(i),
                       "matrix": _matrix(rec.pose(name, 0)), "children": children})
    return {"metadata": {"version": 4.5, "type": "Object"}, "geometries": geoms,
            "materials": mats, "object": {"uuid": "rfda-bodies", "type": "Group",
                                          "name": "bodies", "matrix": _matrix(np.eye(4)),
                                          "children": bodies}}


def _static_commands(rec: Recording, meshes: dict, mc) -> list:
    """meshcat commands (lowered) for the bodies, the camera, the world axes and the grid."""
    commands, geometry, _, Path, _ = mc

    class _Loaded(geometry.Object):                  # a ready three.js JSON for SetObject
        def __init__(self, data):
            self.data = data

        def lower(self):
            return self.data

    out = [commands.SetObject(_Loaded(_scene_object(rec, meshes, mc)), path=Path(("meshcat",)))]
    # meshcat's orbit controls turn about the world origin: the scene (and the world axes with
    # it) moves by -centre so that the camera circles the middle of the motion
    lo, hi = _bounds(rec, meshes, rec.focus)
    centre, radius = 0.5 * (lo + hi), max(0.5 * float(np.linalg.norm(hi - lo)), 0.05)
    d = radius / math.tan(math.radians(_FOV / 2)) * _view_dir(rec.view)
    lo = _bounds(rec, meshes)[0]
    out.append(commands.SetProperty("position", [float(d[0]), float(d[2]), float(-d[1])],
                                    Path(("Cameras", "default", "rotated", "<object>"))))
    shift = _homogeneous(np.eye(3), -centre)
    out.append(commands.SetTransform(shift, Path(("meshcat",))))
    out.append(commands.SetTransform(shift, Path(("Axes",))))
    floor = _homogeneous(np.eye(3), [0.0, 0.0, min(float(lo[2]), 0.0) - centre[2]])
    out.append(commands.SetTransform(floor, Path(("Grid",))))   # under the lowest point
    return [c.lower() for c in out]


def _animation_command(rec: Recording, mc, *, autoplay: bool, loop: bool) -> dict:
    """meshcat's set_animation command: one clip on the bodies' scene, a position and a
    quaternion track per moving body (found by its group's name), times from 0 in seconds."""
    commands, _, animation, Path, umsgpack = mc
    times = rec.t - rec.t[0]
    tracks = []
    for i, P in enumerate(rec.poses.values()):
        if P.shape[0] > 1:
            tracks += [_packed_track(f"{_node(i)}.position", "vector3", times, P[:, :3, 3],
                                     umsgpack.Ext),
                       _packed_track(f"{_node(i)}.quaternion", "quaternion", times,
                                     _quaternions(P[:, :3, :3]), umsgpack.Ext)]
    cmd = commands.SetAnimation(animation.Animation(), play=autoplay,
                                repetitions=math.inf if loop else 1).lower()
    if tracks:
        cmd["animations"] = [{"path": Path(("meshcat", "<object>")).lower(),
                              "clip": {"fps": 1.0, "name": "default", "tracks": tracks}}]
    return cmd


_CSS = """html,body{margin:0;height:100%;overflow:hidden;background:#fff;font:13px sans-serif}
#meshcat-pane{width:100vw;height:100vh;overflow:hidden}
#rfda-still{position:absolute;inset:0;width:100%;height:100%;object-fit:contain;background:#fff}
#rfda-title{position:absolute;left:8px;top:6px;color:#223;pointer-events:none;
text-shadow:0 0 3px #fff}
#rfda-bar{position:absolute;left:0;right:0;bottom:0;display:flex;gap:8px;align-items:center;
padding:4px 8px;background:rgba(255,255,255,.75)}
#rfda-bar input{flex:1}
#rfda-bar button{min-width:5.5em}"""

# the play bar; show() runs on every animation frame and writes only what changed, so that a
# paused scene makes no new frame (a clock rewritten with the same text had the tab redraw the bar
# and composite the canvas 20 to 60 times a second: 5 s paused took 2.1 s of CPU, now 0.9 s)
_CONTROLS = """(function () {
  var an = viewer.animator, t0 = %(t0)r, T = an.duration;
  var btn = document.getElementById("rfda-play"), sl = document.getElementById("rfda-time");
  var out = document.getElementById("rfda-clock");
  an.mixer.timeScale = %(playback)r;
  if (!an.playing) { an.actions.forEach(function (a) { a.play(); }); an.seek(0); }
  function show() {
    var v = T > 0 ? Math.round(1000 * an.time / T) : 0;
    var clock = "t = " + (t0 + an.time).toFixed(2) + " s";
    var label = an.playing ? "\\u275a\\u275a pause" : "\\u25b6 play";
    if (document.activeElement !== sl && +sl.value !== v) sl.value = v;
    if (out.textContent !== clock) out.textContent = clock;
    if (btn.textContent !== label) btn.textContent = label;
  }
  btn.onclick = function () { if (an.playing) an.pause(); else an.play(); show(); };
  sl.oninput = function () {
    if (an.playing) an.pause();
    var s = sl.value / 1000 * T; an.seek(s); an.display_progress(s); show();
  };
  btn.disabled = sl.disabled = !(T > 0);
  (function tick() { show(); requestAnimationFrame(tick); })();
})();"""


def _document(rec: Recording, commands: list, *, still: bytes | None, mc) -> str:
    """The standalone HTML page: viewer, commands, controls, fallback still."""
    umsgpack = mc[4]
    from importlib.resources import files
    js = files("meshcat").joinpath("viewer", "dist", "main.min.js").read_text(encoding="utf-8")
    blobs = ",\n".join(json.dumps(base64.b64encode(umsgpack.packb(c)).decode("ascii"))
                       for c in commands)
    title = _html.escape(rec.title or "3-D scene")
    img = ("" if still is None else
           f'<img id="rfda-still" alt="{title} (still: this scene needs WebGL)" '
           f'src="data:image/png;base64,{base64.b64encode(still).decode("ascii")}">')
    controls = _CONTROLS % {"t0": float(rec.t[0]), "playback": rec.playback}
    return f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}</title><style>{_CSS}</style></head>
<body>
<div id="meshcat-pane"></div>
{img}
<div id="rfda-title">{title}</div>
<div id="rfda-bar"><button id="rfda-play" type="button">&#x25B6; play</button>
<input id="rfda-time" type="range" min="0" max="1000" value="0" step="1" aria-label="time">
<output id="rfda-clock">t = {rec.t[0]:.2f} s</output></div>
<script>
{js}
</script>
<script>
var viewer = null;
try {{ viewer = new MeshCat.Viewer(document.getElementById("meshcat-pane")); }}
catch (e) {{ document.getElementById("rfda-bar").style.display = "none"; }}
if (viewer !== null) {{
(function () {{
  function bytes(s) {{
    var b = atob(s), n = b.length, u = new Uint8Array(n);
    for (var i = 0; i < n; i++) u[i] = b.charCodeAt(i);
    return u;
  }}
  var commands = [
{blobs}
  ];
  for (var i = 0; i < commands.length; i++) viewer.handle_command_bytearray(bytes(commands[i]));
}})();
{controls}
var still = document.getElementById("rfda-still");
if (still) still.style.display = "none";
}}
</script>
</body>
</html>
"""


def _srcdoc(page: str) -> str:
    """The page escaped for an ``srcdoc`` attribute, as meshcat's ``srcdoc_escape`` does."""
    return page.replace("&", "&amp;").replace('"', "&quot;")


def _load_meshes(rec: Recording) -> dict:
    """id(shape) -> (vertices, faces) of every mesh shape, each file read once."""
    by_file, out = {}, {}
    for shapes in rec.shapes.values():
        for s in shapes:
            if s.kind == "mesh":
                key = s.mesh_path if s.mesh_path is not None else id(s)
                if key not in by_file:
                    by_file[key] = _mesh_arrays(s)
                out[id(s)] = by_file[key]
    return out


def _build(rec: Recording, *, still: bool, autoplay: bool, loop: bool, max_bytes: int):
    """(page, recording as shown, still PNG or None): the page under max_bytes, thinning the
    frames if needed."""
    where = "scene3d.to_html"
    mc = _meshcat()
    meshes = _load_meshes(rec)
    static = _static_commands(rec, meshes, mc)
    png = _still(rec, 0, 100, meshes) if still else None
    shown = rec
    for _ in range(8):
        page = _document(shown, static + [_animation_command(shown, mc, autoplay=autoplay,
                                                             loop=loop)], still=png, mc=mc)
        size = len(_srcdoc(page).encode("utf-8"))
        if size <= max_bytes:
            return page, shown, png
        bare = len(_srcdoc(_document(shown.every(shown.n_frames), static, still=png, mc=mc))
                   .encode("utf-8"))
        if bare > 0.8 * max_bytes or shown.n_frames <= 2:
            raise ModelError(f"{where}: the viewer and the shapes alone take {bare:,} of the "
                             f"{max_bytes:,} bytes allowed; use lighter meshes (for a robot: "
                             "from_robot(..., geometry='collision')) or fewer shapes")
        per_frame = (size - bare) / shown.n_frames
        keep = max(2, int((max_bytes - bare) / per_frame * 0.97))
        shown = shown.every(math.ceil(shown.n_frames / keep))
    raise ModelError(f"{where}: could not fit the recording in {max_bytes:,} bytes; "
                     "record fewer frames")  # pragma: no cover - the loop converges


def to_html(rec: Recording, *, still: bool = True, autoplay: bool = False, loop: bool = True,
            max_bytes: int = MAX_BYTES) -> str:
    """The recording as one standalone HTML document (meshcat's viewer inlined, no network).

    The scene opens paused on the first frame (``autoplay=True``: playing), with meshcat's grid
    as the floor under the scene's lowest point, its axes at the world origin and the camera
    looking at the whole motion from ``rec.view``; the reader orbits (drag), zooms (wheel),
    pans (right drag), plays and pauses, and drags the time slider.  With ``loop`` the motion
    repeats until paused (meshcat's ``repetitions``: infinity), otherwise it plays once.  With
    ``still`` a PNG of the first frame (:func:`still_png`) is shown when the viewer cannot start
    (no WebGL, no JavaScript).

    A document larger than ``max_bytes`` (as embedded by :func:`embed`; default
    :data:`MAX_BYTES`, 5 MB) is **thinned automatically**: every k-th frame is kept (the last
    one too) with the smallest k that fits.  When the shapes alone leave no room for the
    motion, a ModelError says so and what to do (lighter meshes, fewer shapes).

    Examples
    --------
    >>> import numpy as np
    >>> rec = Recording({"b": (Shape("sphere", (0.1,)),)}, np.linspace(0, 1, 200),
    ...                 {"b": np.eye(4)})
    >>> page = to_html(rec, still=False)
    >>> len(page) < 1_000_000, "viewer.handle_command_bytearray" in page
    (True, True)
    >>> to_html(rec, max_bytes=100_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: scene3d.to_html: the viewer and the shapes alone take 9... of ...
    """
    where = "scene3d.to_html"
    rec = _recording(rec, where)
    flags = [_check.flag(v, n, where=where) for v, n in ((still, "still"), (autoplay, "autoplay"),
                                                         (loop, "loop"))]
    max_bytes = _check.positive_int(max_bytes, "max_bytes", where=where)
    return _build(rec, still=flags[0], autoplay=flags[1], loop=flags[2], max_bytes=max_bytes)[0]


def size_bytes(rec: Recording, **options) -> int:
    """Bytes of the scene as :func:`embed` puts it in a page (``options`` as for :func:`to_html`).

    Examples
    --------
    >>> import numpy as np
    >>> rec = Recording({"b": (Shape("sphere", (0.1,)),)}, [0.0, 1.0], {"b": np.eye(4)})
    >>> 850_000 < size_bytes(rec, still=False) < 1_000_000      # mostly the viewer
    True
    """
    return len(_srcdoc(to_html(rec, **options)).encode("utf-8"))


# ----------------------------------------------------------------------------- the still

def _unit_circle(n: int = 24) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n + 1)
    return np.stack([np.cos(a), np.sin(a), np.zeros_like(a)], axis=1)


def _outline(s: Shape, meshes: dict, rng) -> tuple[list, np.ndarray | None]:
    """Polylines and points (shape frame) that sketch a shape in the still."""
    if s.kind == "box":
        h = 0.5 * np.asarray(s.size)
        c = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * h
        edges = [(a, b) for a in range(8) for b in range(a + 1, 8)
                 if np.count_nonzero(c[a] != c[b]) == 1]
        return [c[[a, b]] for a, b in edges], None
    circ = _unit_circle()
    if s.kind == "cylinder":
        r, half = s.size[0], 0.5 * s.size[1]
        lines = [circ * r + [0, 0, -half], circ * r + [0, 0, half]]
        lines += [np.array([[r * x, r * y, -half], [r * x, r * y, half]])
                  for x, y in ((1, 0), (0, 1), (-1, 0), (0, -1))]
        return lines, None
    if s.kind in ("sphere", "ellipsoid"):
        ax = np.asarray(s.size * 3 if s.kind == "sphere" else s.size)
        rings = [circ, circ[:, [2, 0, 1]], circ[:, [1, 2, 0]]]
        return [r * ax for r in rings], None
    V = meshes[id(s)][0]
    pick = V if len(V) <= 400 else V[rng.choice(len(V), 400, replace=False)]
    return [], pick * np.asarray(s.size)


def still_png(rec: Recording, frame: int = 0, *, dpi: int = 100) -> bytes:
    """A PNG of one frame drawn with matplotlib (mplot3d, no pyplot state): boxes and cylinders
    as wire frames, spheres and ellipsoids as three rings, meshes as a sample of their vertices,
    ``rec.links`` as black lines, seen from ``rec.view``.  The PDF shows it in place of the
    interactive scene.

    Examples
    --------
    >>> import numpy as np
    >>> rec = Recording({"b": (Shape("box", (1.0, 0.5, 0.2)),)}, [0.0], {"b": np.eye(4)})
    >>> still_png(rec)[:4] == b"\\x89PNG"
    True
    """
    where = "scene3d.still_png"
    rec = _recording(rec, where)
    frame = _check.positive_int(frame, "frame", where=where, minimum=0, maximum=rec.n_frames - 1)
    dpi = _check.positive_int(dpi, "dpi", where=where, maximum=600)
    return _still(rec, frame, dpi, _load_meshes(rec))


def _still(rec: Recording, frame: int, dpi: int, meshes: dict) -> bytes:
    """:func:`still_png` with the meshes already read (:func:`_load_meshes`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    rng = np.random.default_rng(0)
    fig = Figure(figsize=(5.0, 3.6))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(projection="3d")
    # the limits are set once below, from the frame's bounds: no autoscaling after every line
    # (mplot3d re-scales all three axes per plot call, most of the cost of the still)
    ax.set_autoscale_on(False)
    for name, shapes in rec.shapes.items():
        P = rec.pose(name, frame)
        for s in shapes:
            W = P @ s.offset
            lines, pts = _outline(s, meshes, rng)
            color = f"#{s.color:06x}"
            for ln in lines:
                w = ln @ W[:3, :3].T + W[:3, 3]
                ax.plot(w[:, 0], w[:, 1], w[:, 2], color=color, lw=1.0)
            if pts is not None:
                w = pts @ W[:3, :3].T + W[:3, 3]
                ax.scatter(w[:, 0], w[:, 1], w[:, 2], s=0.4, color=color, depthshade=False)
    for a, b in rec.links:
        p = np.array([rec.pose(a, frame)[:3, 3], rec.pose(b, frame)[:3, 3]])
        ax.plot(p[:, 0], p[:, 1], p[:, 2], color="k", lw=1.2)
    one = Recording(rec.shapes, rec.t[[frame]], {n: rec.pose(n, frame) for n in rec.shapes})
    lo, hi = _bounds(one, meshes, rec.focus)
    c, r = 0.5 * (lo + hi), 0.5 * float(np.max(hi - lo)) or 0.5
    ax.set(xlim=(c[0] - r, c[0] + r), ylim=(c[1] - r, c[1] + r), zlim=(c[2] - r, c[2] + r))
    ax.set_box_aspect((1, 1, 1))
    ax.view_init(elev=rec.view[1], azim=rec.view[0])
    ax.set_xlabel("x (m)", fontsize=7)
    ax.set_ylabel("y (m)", fontsize=7)
    ax.set_zlabel("z (m)", fontsize=7)
    ax.tick_params(labelsize=6, pad=0)
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_major_locator(MaxNLocator(4))
    ax.set_title(f"{rec.title}{': ' if rec.title else ''}t = {rec.t[frame]:.2f} s", fontsize=9)
    fig.subplots_adjust(left=0, right=0.95, bottom=0.06, top=0.93)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


# ----------------------------------------------------------------------------- the notebook face

@dataclass(frozen=True)
class Scene:
    """A recording ready for a notebook cell: the HTML ``page`` (:func:`to_html`), the ``png``
    still (or None), and what the one-line text face says.  In the HTML book the cell shows the
    interactive scene in an iframe; in the PDF (LaTeX builder) the still; as text one line."""

    page: str
    png: bytes | None
    title: str
    n_bodies: int
    n_frames: int
    duration: float
    height: int = 420

    @property
    def nbytes(self) -> int:
        """Bytes of the iframe's ``srcdoc`` (what the scene adds to a page)."""
        return len(_srcdoc(self.page).encode("utf-8"))

    def _iframe(self) -> str:
        return (f'<iframe class="rfda-scene3d" title="{_html.escape(self.title)}" '
                f'data-frames="{self.n_frames}" data-bytes="{self.nbytes}" '
                f'style="width:100%;height:{self.height}px;border:1px solid #ddd" '
                f'srcdoc="{_srcdoc(self.page)}"></iframe>')

    def __repr__(self) -> str:
        return (f"3-D scene {self.title!r}: {self.n_bodies} bodies, {self.n_frames} frames over "
                f"{self.duration:.3g} s, {self.nbytes / 1e6:.2f} MB (interactive in the HTML book)")

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/html": self._iframe(), "text/plain": repr(self)}
        if self.png is not None:
            bundle["image/png"] = base64.b64encode(self.png).decode("ascii")
        return bundle


def embed(rec: Recording, *, still: bool = True, height: int = 420, autoplay: bool = False,
          loop: bool = True, max_bytes: int = MAX_BYTES) -> Scene:
    """The recording for a notebook cell (see :class:`Scene`): an ``<iframe srcdoc>`` of fixed
    ``height`` (pixels) and full width, class ``rfda-scene3d``, with ``data-frames`` and
    ``data-bytes``; with ``still``, a PNG of the first frame for the PDF, also shown inside the
    page when WebGL is missing.  Frames are thinned as :func:`to_html` says.

    Examples
    --------
    >>> import numpy as np
    >>> rec = Recording({"b": (Shape("sphere", (0.1,)),)}, [0.0, 1.0], {"b": np.eye(4)},
    ...                 title="a ball")
    >>> scene = embed(rec)
    >>> sorted(scene._repr_mimebundle_())
    ['image/png', 'text/html', 'text/plain']
    >>> print(repr(scene).split(" over")[0])
    3-D scene 'a ball': 1 bodies, 2 frames
    """
    where = "scene3d.embed"
    rec = _recording(rec, where)
    still = _check.flag(still, "still", where=where)
    height = _check.positive_int(height, "height", where=where, minimum=100, maximum=2000)
    page, shown, png = _build(rec, still=still,
                              autoplay=_check.flag(autoplay, "autoplay", where=where),
                              loop=_check.flag(loop, "loop", where=where),
                              max_bytes=_check.positive_int(max_bytes, "max_bytes", where=where))
    return Scene(page, png, rec.title or "3-D scene",
                 len(rec.shapes), shown.n_frames, float(rec.t[-1] - rec.t[0]), height)


# ----------------------------------------------------------------------------- builders

def _times(t, where: str) -> np.ndarray:
    t = _check.vector(np.atleast_1d(t) if np.ndim(t) == 0 else t, None, "t", where=where,
                      hint="the recorded times, seconds")
    if t.size == 0 or np.any(np.diff(t) <= 0):
        raise ModelError(f"{where}: t must hold at least one time and increase strictly")
    return t


def _rows(X, T: int, n: int, what: str, where: str) -> np.ndarray:
    X = _array(X, what, where)
    if X.ndim == 1 and T == 1:
        X = X[None]
    return _check.matrix(X, (T, n), what, where=where)


def _homogeneous(R: np.ndarray, p: np.ndarray) -> np.ndarray:
    P = np.zeros(R.shape[:-2] + (4, 4))
    P[..., :3, :3], P[..., :3, 3], P[..., 3, 3] = R, p, 1.0
    return P


def _rod(a, b, radius: float, color: int) -> Shape | None:
    """A cylinder from point a to point b (body frame), or None when they coincide."""
    from .bodies import frame_with_z
    a, b = np.asarray(a, float), np.asarray(b, float)
    L = float(np.linalg.norm(b - a))
    if L < 1e-9:
        return None
    return Shape("cylinder", (radius, L), color, _homogeneous(frame_with_z(b - a), 0.5 * (a + b)))


def inertia_box(mass: float, J) -> Shape:
    """The uniform box with the body's mass and central inertia J (body axes), along its principal
    axes: sides a_i = sqrt(6 (J_j + J_k - J_i) / m), each at least 4 % of the longest.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(inertia_box(12.0, np.diag([5.0, 10.0, 13.0])).size, 6).tolist()
    [3.0, 2.0, 1.0]
    """
    where = "scene3d.inertia_box"
    mass = _check.scalar(mass, "mass", where=where, positive=True)
    J = _check.inertia(J, "J", where=where)
    lam, V = np.linalg.eigh(J)
    if np.linalg.det(V) < 0:
        V[:, 0] = -V[:, 0]
    sides = np.sqrt(np.clip(6.0 * (lam.sum() - 2.0 * lam) / mass, 0.0, None))
    sides = np.maximum(sides, 0.04 * sides.max())
    return Shape("box", tuple(sides), offset=_homogeneous(V, np.zeros(3)))


__all__ += ["inertia_box", "PALETTE"]


def _urdf_of(robot, where: str) -> str:
    """The URDF of an example robot whose name matches the Pinocchio model's name."""
    import re

    from . import interop
    for key in interop.EXAMPLE_ROBOTS:
        path = interop.example_robot_path(key)
        with open(path, encoding="utf-8") as fh:
            m = re.search(r'<robot[^>]*\bname="([^"]+)"', fh.read(4000))
        if m and m.group(1) == robot.pin_model.name:
            return path
    raise ModelError(f"{where}: {robot.name!r} is not one of interop.EXAMPLE_ROBOTS; give its "
                     "URDF file as urdf=path (for the meshes)")


def from_robot(robot, t, Q, *, geometry: str = "visual", urdf=None, title: str | None = None,
               view=(-35.0, 15.0)) -> Recording:
    """A robot's motion (Pinocchio configurations, one row of ``Q`` per time of ``t``) with the
    meshes of its URDF.

    ``robot`` is an :class:`rfda_teach.interop.RobotSystem` (as :func:`interop.example_robot
    <rfda_teach.interop.example_robot>` returns; bolted down or floating) or the name of an
    example robot (then with its usual base).  Pinocchio loads the ``geometry`` ("visual" or
    "collision") of ``urdf`` (default: the example robot of the same name) with
    ``pinocchio.buildGeomFromUrdf``; every Pinocchio joint that carries geometry becomes a body
    whose pose is ``data.oMi`` after ``pinocchio.forwardKinematics``; meshes keep their file
    (each file read and sent once, shared by every shape that uses it), scale and URDF colour,
    and boxes, cylinders and spheres become shapes of their own.

    Size: Talos' 25 visual mesh files (5.1 MB of binary STL) shrink to 1.3 MB as indexed
    triangles (merged vertices, 16-bit indices; 1.7 MB in base64), so the humanoid with all its
    meshes and 121 frames takes 2.9 MB, under :data:`MAX_BYTES`; ``geometry="collision"`` (0.8
    MB of STL, 0.26 MB in the page) is the lighter choice for longer recordings, which
    :func:`to_html` otherwise thins to fewer frames.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import interop
    >>> ur5 = interop.example_robot("ur5")
    >>> q0 = np.zeros(ur5.pin_model.nq)
    >>> rec = from_robot(ur5, [0.0, 0.5], [q0, q0 + 0.3])
    >>> rec.n_frames, len(rec.shapes), rec.shapes["shoulder_pan_joint"][0].kind
    (2, 7, 'mesh')
    """
    where = "scene3d.from_robot"
    from . import interop
    pin = interop.require_pinocchio()
    if isinstance(robot, str):
        robot = interop.example_robot(_check.choice(robot, sorted(interop.EXAMPLE_ROBOTS),
                                                    "robot", where=where))
    robot = _check.instance(robot, interop.RobotSystem, "robot", where=where,
                            hint="give interop.example_robot(name) or its name")
    kind = _check.choice(geometry, ("visual", "collision"), "geometry", where=where)
    model = robot.pin_model
    t = _times(t, where)
    Q = _rows(Q, t.size, model.nq, "Q", where)
    for name, a, b, what in robot.pin_unit_q:
        nrm = np.linalg.norm(Q[:, a:b], axis=1)
        if np.abs(nrm - 1).max() > 1e-6:
            i = int(np.argmax(np.abs(nrm - 1)))
            raise ModelError(f"{where}: Q[{i}, {a}:{b}], the {what} of joint {name!r}, has norm "
                             f"{nrm[i]:.8g}, not 1; normalise every row, e.g. with "
                             "pinocchio.normalize(robot.pin_model, q)")
    path = _urdf_of(robot, where) if urdf is None else os.fspath(
        _check.instance(urdf, (str, os.PathLike), "urdf", where=where))
    dirs = [os.path.dirname(path)]
    if "/example-robot-data/" in path:
        dirs.insert(0, path.split("/example-robot-data/")[0])
    gtype = pin.GeometryType.VISUAL if kind == "visual" else pin.GeometryType.COLLISION
    try:
        gm = pin.buildGeomFromUrdf(model, path, gtype, package_dirs=dirs)
    except (ValueError, RuntimeError) as exc:
        raise ModelError(f"{where}: Pinocchio could not load the {kind} geometry of {path!r}: "
                         f"{exc}; check the URDF's mesh paths (package:// directories)") from exc
    coal = _coal()
    shapes: dict = {}
    for g in gm.geometryObjects:
        rgb = tuple(float(np.clip(c, 0, 1)) for c in np.asarray(g.meshColor)[:3])
        off = g.placement.homogeneous
        geo = g.geometry
        if g.meshPath and os.path.isfile(g.meshPath):
            s = Shape("mesh", tuple(np.asarray(g.meshScale, float)), rgb, off, mesh_path=g.meshPath)
        elif isinstance(geo, coal.Box):
            s = Shape("box", tuple(2 * np.asarray(geo.halfSide, float)), rgb, off)
        elif isinstance(geo, (coal.Cylinder, coal.Capsule)):
            s = Shape("cylinder", (geo.radius, 2 * geo.halfLength), rgb, off)
        elif isinstance(geo, coal.Sphere):
            s = Shape("sphere", (geo.radius,), rgb, off)
        else:                                        # pragma: no cover - other fcl shapes
            continue
        shapes.setdefault(model.names[g.parentJoint], []).append(s)
    data = model.createData()
    joints = [model.getJointId(n) for n in shapes]
    P = np.zeros((len(joints), t.size, 4, 4))
    for i, q in enumerate(Q):
        pin.forwardKinematics(model, data, q)
        for k, j in enumerate(joints):
            P[k, i] = data.oMi[j].homogeneous
    poses = {n: P[k] for k, n in enumerate(shapes)}
    links = tuple((model.names[model.parents[j]], model.names[j]) for j in joints
                  if model.names[model.parents[j]] in shapes)
    return Recording({n: tuple(s) for n, s in shapes.items()}, t, poses,
                     title=f"{robot.name}" if title is None else title, links=links, view=view)


def from_system(system, t, Y, *, title: str | None = None, view=(-55.0, 20.0)) -> Recording:
    """A tree in absolute coordinates (:class:`rfda_teach.system.System`) moving through the rows
    of ``Y`` (positions y, as ``simulate.simulate(...).y`` returns them; or a list of
    :class:`~rfda_teach.system.State`), one per time of ``t``.

    Every body is the box with its mass and central inertia (:func:`inertia_box`) at its mass
    centre, joined by thin rods to its joint points (its own joint's ``child_point`` and its
    children's ``parent_point``), each joint a grey sphere.  Planar bodies move in the plane
    z = 0 as discs of their moment of inertia; point masses are spheres.

    Examples
    --------
    >>> from rfda_teach import models
    >>> tree = models.random_tree(3, kind="spatial", seed=4)
    >>> y = models.random_state(tree, seed=0).y
    >>> rec = from_system(tree, [0.0], [y])
    >>> rec.n_frames, sorted(rec.shapes)
    (1, ['body 0', 'body 1', 'body 2'])
    """
    from .bodies import ndim, rotation
    from .system import System
    where = "scene3d.from_system"
    system = _check.instance(system, System, "system", where=where,
                             hint="a tree of rfda_teach.models, e.g. models.random_tree(8, "
                                  "kind='spatial', seed=4)")
    t = _times(t, where)
    if isinstance(Y, (list, tuple)) and Y and all(hasattr(st, "yd") for st in Y):
        Y = [st.y for st in Y]                        # a list of State
    Y = _rows(Y, t.size, system.n_pos, "Y", where)
    d = ndim(system.kind)
    names = [b.name or f"body {i}" for i, b in enumerate(system.bodies)]
    if len(set(names)) < len(names) or any("/" in n for n in names):
        names = [f"body {i}" for i in range(system.n)]
    shapes, poses = {}, {}
    for i, (b, jt) in enumerate(zip(system.bodies, system.joints)):
        color = PALETTE[i % len(PALETTE)]
        if system.kind == "spatial":
            box = inertia_box(b.mass, b.J)
            own = [Shape("box", box.size, color, box.offset, opacity=0.55)]
        elif system.kind == "planar":
            r = math.sqrt(2.0 * float(b.J[0, 0]) / b.mass)
            own = [Shape("cylinder", (r, 0.05 * r), color)]
        else:
            own = [Shape("sphere", (0.05,), color)]
        pts = [jt.child_point] + [system.joints[c].parent_point
                                  for c in system.topology.children(i)]
        for p in pts:
            p3 = np.r_[p, np.zeros(3 - d)]
            rod = _rod(np.zeros(3), p3, 0.012, color)
            own += ([rod] if rod is not None else []) + [Shape("sphere", (0.03,), 0x555555,
                                                               _homogeneous(np.eye(3), p3))]
        shapes[names[i]] = tuple(own)
        P = np.zeros((t.size, 4, 4))
        for k, y in enumerate(Y):
            yi = y[system.pos_slices[i]]
            R = rotation(system.kind, yi, check=False)
            if d == 2:
                R = np.block([[R, np.zeros((2, 1))], [np.zeros((1, 2)), np.ones((1, 1))]])
            if system.kind == "spatial":
                R = _orthonormal(R)
            P[k] = _homogeneous(R, np.r_[yi[:d], np.zeros(3 - d)])
        poses[names[i]] = P
    links = tuple((names[p], names[i]) for i, p in enumerate(system.parents) if p >= 0)
    return Recording(shapes, t, poses, title=system.name if title is None else title,
                     links=links, view=view)


def _orthonormal(R: np.ndarray) -> np.ndarray:
    """The rotation nearest to R (integrated Euler parameters are unit only to round-off)."""
    U, _, Vt = np.linalg.svd(R)
    return U @ Vt


def from_kane(system, t, X, *, title: str | None = None, view=(-55.0, 20.0)) -> Recording:
    """Kane's relative-coordinate tree (:class:`rfda_teach.kane.KaneSystem`) moving through the
    rows x = [epsilon (4N); s' (3N)] of ``X`` (as ``kane.simulate`` returns them), one per time.

    Each body K's frame sits at its origin O_K with the orientation of ``kane.kinematics``
    (R_K^T: body to inertial axes; the mass centre G_K at r'_K); the body is drawn as the box
    with its mass and central inertia at G_K (:func:`inertia_box`; the eight-body tree's rods
    become slender bars from O_K to 2 G_K - O_K), its joint point O_K as a grey sphere.

    Examples
    --------
    >>> from rfda_teach import kane
    >>> sys8 = kane.eight_body()
    >>> rec = from_kane(sys8, [0.0], [sys8.x0])
    >>> rec.n_frames, len(rec.shapes), [s.kind for s in rec.shapes["body 2"]]
    (1, 8, ['box', 'sphere'])
    """
    from . import kane
    where = "scene3d.from_kane"
    system = _check.instance(system, kane.KaneSystem, "system", where=where,
                             hint="give a kane.KaneSystem, e.g. kane.eight_body()")
    N = system.N
    t = _times(t, where)
    X = _rows(X, t.size, 7 * N, "X", where)
    y0 = np.zeros(6 * N)
    P = np.zeros((N, t.size, 4, 4))
    for k, x in enumerate(X):
        kin = kane.kinematics(system, x, y0)
        for K in range(N):
            RT = kin.R[K].T
            G = RT @ kin.pG[K]
            P[K, k] = _homogeneous(_orthonormal(RT), G - RT @ system.r[K])
    shapes = {}
    for K in range(N):
        box = inertia_box(system.mass[K], system.inertia[K])
        own = [Shape("box", box.size, PALETTE[K % len(PALETTE)],
                     _homogeneous(box.offset[:3, :3], system.r[K]))]
        if K > 0:
            own.append(Shape("sphere", (0.025,), 0x555555))
        shapes[f"body {K + 1}"] = tuple(own)
    poses = {f"body {K + 1}": P[K] for K in range(N)}
    links = tuple((f"body {J}", f"body {K + 1}") for K, J in enumerate(system.L) if J > 0)
    return Recording(shapes, t, poses, title=(system.name or "Kane tree") if title is None
                     else title, links=links, view=view)


def from_quarter_car(model, t, Q, *, road=None, speed: float = 2.0, title: str | None = None,
                     view=(-55.0, 18.0), playback: float = 0.25) -> Recording:
    """The reference-point quarter car (:func:`rfda_teach.refpoint.quarter_car`) moving through
    the rows of joint coordinates ``Q`` (as ``refpoint.simulate(...).q``), one per time of ``t``.

    Every body's frame is the joint frame {O_j} of ``refpoint.kinematics`` (A_j, r_j); the body
    is a set of rods from its centroid to its attachment points (own joint, children's joints,
    cut joints, spring points), each a grey sphere; the tyre body carries the wheel (radius
    ``model.tire_r``, axle along its y); the chassis points are black cubes; the spring-damper
    is a telescoping strut between its two ends.  The road ``road(t)`` (default ``model.road``,
    flat when None) is drawn as a strip that moves under the wheel at ``speed`` (m/s, for the
    picture only: the model's road is a function of time), its height under the wheel centre
    equal to ``road(t)`` at every frame.  ``playback`` 0.25: the viewer plays at a quarter of
    real time.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint
    >>> car = refpoint.quarter_car()
    >>> rec = from_quarter_car(car, [0.0], [car.q0])
    >>> sorted(rec.shapes)[:3]
    ['chassis', 'knuckle and wheel', 'lower arm']
    """
    from . import refpoint as rp
    where = "scene3d.from_quarter_car"
    model = _check.instance(model, rp.Model, "model", where=where,
                            hint="give refpoint.quarter_car()")
    t = _times(t, where)
    Q = _rows(Q, t.size, model.nq, "Q", where)
    speed = _check.scalar(speed, "speed", where=where, positive=True)
    road = model.road if road is None else road
    if road is not None and not callable(road):
        raise ModelError(f"{where}: road must be a function road(t) -> height (m) or None")
    zero = np.zeros(model.nq)
    kins = [rp.kinematics(model, q, zero) for q in Q]
    pts = rp.attachment_points(model)
    shapes, poses = {}, {}
    for j, b in enumerate(model.bodies):
        color = PALETTE[j % len(PALETTE)]
        own = []
        for p in pts[j]:
            rod = _rod(b.rho, p, 0.012, color)
            own += ([rod] if rod is not None else []) + [
                Shape("sphere", (0.018,), 0x555555, _homogeneous(np.eye(3), p))]
        if j == model.tire_body:
            own.append(Shape("cylinder", (model.tire_r, 0.16), 0x333333,
                             _homogeneous(_rot_x(np.pi / 2)[:3, :3], b.rho), opacity=0.75))
        shapes[b.name] = tuple(own)
        poses[b.name] = np.array([_homogeneous(_orthonormal(k.A[j]), k.r[j]) for k in kins])
    fixed = [b.s for b in model.bodies if b.parent < 0] + [c.pa for c in model.cuts if c.a < 0]
    fixed += [p for sd in model.springs for body, p in ((sd.a, sd.pa), (sd.b, sd.pb)) if body < 0]
    shapes["chassis"] = tuple(Shape("box", (0.04, 0.04, 0.04), 0x111111,
                                    _homogeneous(np.eye(3), p)) for p in fixed)
    poses["chassis"] = np.eye(4)
    for n, sd in enumerate(model.springs):
        ends = []
        for k in kins:
            xa = sd.pa if sd.a < 0 else k.r[sd.a] + k.A[sd.a] @ sd.pa
            xb = sd.pb if sd.b < 0 else k.r[sd.b] + k.A[sd.b] @ sd.pb
            ends.append((np.asarray(xa, float), np.asarray(xb, float)))
        L = float(np.linalg.norm(ends[0][1] - ends[0][0]))
        from .bodies import frame_with_z
        for part, (r, length, color) in enumerate(((0.03, 0.55 * L, 0x888888),
                                                   (0.011, 0.75 * L, 0xCCCCCC))):
            nm = f"spring {n} {'body' if part == 0 else 'rod'}"
            shapes[nm] = (Shape("cylinder", (r, length), color,
                                _homogeneous(np.eye(3), [0, 0, 0.5 * length])),)
            poses[nm] = np.array([_homogeneous(frame_with_z(b_ - a_ if part else a_ - b_),
                                               b_ if part == 0 else a_) for a_, b_ in ends])
    focus = tuple(shapes)
    if model.tire_body >= 0:
        wheel = kins[0].rc[model.tire_body]
        shapes["road"], poses["road"] = _road_strip(road, t, speed, wheel, where)
    return Recording(shapes, t, poses, title=model.name if title is None else title, view=view,
                     playback=playback, focus=focus)


def _road_strip(road, t: np.ndarray, speed: float, wheel: np.ndarray, where: str):
    """The road as a strip moving along -x at ``speed``: profile(s) = road(t0 + s / speed)."""
    T = float(t[-1] - t[0])
    s = np.linspace(-0.6, speed * T + 0.6, max(40, int(60 * (speed * T + 1.2))))
    z = np.zeros_like(s)
    if road is not None:
        for k, si in enumerate(s):
            when = float(t[0] + np.clip(si / speed, 0.0, T))
            z[k] = _check.scalar(_check.user_call(road, (when,), "road(t)", where=where),
                                 "road(t)", where=where)
    w, n = 0.15, s.size
    top_l, top_r = np.c_[s, np.full(n, -w), z], np.c_[s, np.full(n, w), z]
    bot_l, bot_r = np.c_[s, np.full(n, -w), z - 0.04], np.c_[s, np.full(n, w), z - 0.04]
    V = np.vstack([top_l, top_r, bot_l, bot_r])
    i = np.arange(n - 1)
    F = []
    for a, b in ((0, 1), (2, 0), (1, 3)):            # top, left side, right side
        F += [np.c_[a * n + i, b * n + i, a * n + i + 1],
              np.c_[b * n + i, b * n + i + 1, a * n + i + 1]]
    strip = Shape("mesh", (1.0, 1.0, 1.0), 0x8A8A8A, vertices=V, faces=np.vstack(F))
    marks = [Shape("box", (0.12, 0.02, 0.004), 0xFFFFFF,
                   _homogeneous(np.eye(3), [x, 0.0, float(np.interp(x, s, z)) + 0.002]))
             for x in np.arange(s[0] + 0.1, s[-1], 0.3)]
    P = np.repeat(np.eye(4)[None], t.size, axis=0)
    P[:, 0, 3] = wheel[0] - speed * (t - t[0])
    P[:, 1, 3] = wheel[1]
    return (strip, *marks), P
