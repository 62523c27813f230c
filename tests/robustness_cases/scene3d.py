"""Bad-input cases for scene3d (see tests/robustness_cases/__init__.py for the format).

Models and robots are built inside the calls, so collecting the table costs nothing.
"""
from __future__ import annotations

import numpy as np

from rfda_teach import errors, scene3d

from robustness_cases import Case

ME = errors.ModelError


def _ball():
    return {"b": (scene3d.Shape("sphere", (0.1,)),)}


def _rec():
    return scene3d.Recording(_ball(), [0.0, 1.0], {"b": np.eye(4)})


def _robot():
    from rfda_teach import interop
    return interop.example_robot("ur5")


def _kane():
    from rfda_teach import kane
    return kane.eight_body()


def _car():
    from rfda_teach import refpoint
    return refpoint.quarter_car()


def _tree():
    from rfda_teach import models
    return models.random_tree(3, kind="spatial", seed=4)


CASES = [
    Case("scene3d.Shape: unknown kind", lambda: scene3d.Shape("cone", (1.0,)), ME, "kind"),
    Case("scene3d.Shape: size of the wrong length", lambda: scene3d.Shape("box", (1.0, 2.0)), ME,
         "size"),
    Case("scene3d.Shape: NaN size", lambda: scene3d.Shape("sphere", (np.nan,)), ME, r"size\[0\]"),
    Case("scene3d.Shape: colour", lambda: scene3d.Shape("sphere", (1.0,), color=-1), ME, "color"),
    Case("scene3d.Shape: offset not rigid",
         lambda: scene3d.Shape("sphere", (1.0,), offset=np.ones((4, 4))), ME, "offset"),
    Case("scene3d.Shape: opacity above 1",
         lambda: scene3d.Shape("sphere", (1.0,), opacity=2.0), ME, "opacity"),
    Case("scene3d.Shape: mesh without a file or arrays",
         lambda: scene3d.Shape("mesh", (1.0, 1.0, 1.0)), ME, "mesh_path"),
    Case("scene3d.Recording: shapes not a dict",
         lambda: scene3d.Recording([1], [0.0], {}), ME, "shapes"),
    Case("scene3d.Recording: poses of the wrong shape",
         lambda: scene3d.Recording(_ball(), [0.0, 1.0], {"b": np.zeros((3, 4, 4))}), ME,
         r"poses\['b'\]"),
    Case("scene3d.Recording: t decreasing",
         lambda: scene3d.Recording(_ball(), [1.0, 0.0], {"b": np.eye(4)}), ME, "t must"),
    Case("scene3d.Recording: focus on an unknown body",
         lambda: scene3d.Recording(_ball(), [0.0], {"b": np.eye(4)}, focus=("x",)), ME, "focus"),
    Case("scene3d.to_html: not a recording", lambda: scene3d.to_html({"b": 1}), ME, "rec"),
    Case("scene3d.to_html: max_bytes", lambda: scene3d.to_html(_rec(), max_bytes=0), ME,
         "max_bytes"),
    Case("scene3d.size_bytes: still not a flag", lambda: scene3d.size_bytes(_rec(), still=1), ME,
         "still"),
    Case("scene3d.still_png: frame out of range", lambda: scene3d.still_png(_rec(), 5), ME,
         "frame"),
    Case("scene3d.embed: height", lambda: scene3d.embed(_rec(), height=-3), ME, "height"),
    Case("scene3d.inertia_box: inertia not positive definite",
         lambda: scene3d.inertia_box(1.0, -np.eye(3)), ME, "J"),
    Case("scene3d.from_robot: unknown robot name",
         lambda: scene3d.from_robot("r2d2", [0.0], [[0.0]]), ME, "robot"),
    Case("scene3d.from_robot: Q of the wrong width",
         lambda: scene3d.from_robot(_robot(), [0.0], np.zeros((1, 2))), ME, "Q"),
    Case("scene3d.from_robot: unknown geometry",
         lambda: scene3d.from_robot(_robot(), [0.0], np.zeros((1, 6)), geometry="nice"), ME,
         "geometry"),
    Case("scene3d.from_system: not a System",
         lambda: scene3d.from_system(_kane(), [0.0], [[0.0]]), ME, "system"),
    Case("scene3d.from_system: Y with NaN",
         lambda: scene3d.from_system(_tree(), [0.0], np.full((1, 21), np.nan)), ME, r"Y\[0, 0\]"),
    Case("scene3d.from_kane: X of the wrong width",
         lambda: scene3d.from_kane(_kane(), [0.0], np.zeros((1, 3))), ME, "X"),
    Case("scene3d.from_kane: t not increasing",
         lambda: scene3d.from_kane(_kane(), [0.0, 0.0], np.zeros((2, 56))), ME, "t must"),
    Case("scene3d.from_quarter_car: not a refpoint model",
         lambda: scene3d.from_quarter_car(_tree(), [0.0], [[0.0]]), ME, "model"),
    Case("scene3d.from_quarter_car: road not callable",
         lambda: scene3d.from_quarter_car(_car(), [0.0], [_car().q0], road=3.0), ME, "road"),
    Case("scene3d.from_quarter_car: road raising",
         lambda: scene3d.from_quarter_car(_car(), [0.0], [_car().q0], road=lambda t: 1 / 0), ME,
         r"road\(t\)"),
    Case("scene3d.from_quarter_car: speed",
         lambda: scene3d.from_quarter_car(_car(), [0.0], [_car().q0], speed=0.0), ME, "speed"),
]

COVERED = ["scene3d.Shape", "scene3d.Recording", "scene3d.to_html", "scene3d.size_bytes",
           "scene3d.still_png", "scene3d.embed", "scene3d.inertia_box", "scene3d.from_robot",
           "scene3d.from_system", "scene3d.from_kane", "scene3d.from_quarter_car"]
EXEMPT = {
    "scene3d.Scene": "a plain record returned by scene3d.embed (its display methods take no input)",
}
