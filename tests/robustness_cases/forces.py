"""Bad-input cases for forces (spring-dampers) and the force elements of system (format:
robustness_cases/__init__.py)."""
from __future__ import annotations

import dataclasses

import numpy as np

from rfda_teach import forces, models, system
from rfda_teach.errors import ConstraintViolationError, ModelError, TopologyError
from rfda_teach.forces import SpringDamper

from robustness_cases import Case

_T = models.chain(2)
_S = SpringDamper(0, -1, point_a=[0.5, 0.0], k=10.0, c=1.0, L0=0.5)
_Y = np.array([0.0, -0.5, 0.0])
_YS = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
_ON = dataclasses.replace(_T, forces=(SpringDamper(0, -1, point_a=[-0.5, 0.0], k=1.0, L0=0.3),))


def _coincident():
    st = models.random_state(_ON, seed=0)
    y = st.y.copy()
    y[:3] = [0.5, 0.0, 0.0]                         # point_a of body 0 on the ground's origin
    return system.terms(_ON, (y, st.yd), check=False)


CASES = [
    Case("forces.SpringDamper-k", lambda: SpringDamper(0, 1, k=-2.0), ModelError, r"k \(stiffness, N/m\) is -2.0"),
    Case("forces.SpringDamper-c-inf", lambda: SpringDamper(0, 1, c=float("inf")), ModelError, r"c \(damping"),
    Case("forces.SpringDamper-L0-str", lambda: SpringDamper(0, 1, L0="1"), ModelError, "L0 .* must be a real"),
    Case("forces.SpringDamper-same", lambda: SpringDamper(1, 1), ModelError, "both body 1"),
    Case("forces.SpringDamper-index", lambda: SpringDamper(-2, 0), ModelError, "a must be a body index"),
    Case("forces.SpringDamper-point", lambda: SpringDamper(0, 1, point_a=[0.0] * 4), ModelError, "point_a has 4"),
    Case("forces.SpringDamper-point-nan", lambda: SpringDamper(0, 1, point_b=[0.0, np.nan]), ModelError,
         r"point_b\[1\] is nan"),
    Case("forces.elongation-element", lambda: forces.elongation("s", "planar", _Y, _Y, None, None), ModelError,
         "element must be a SpringDamper"),
    Case("forces.elongation-ground", lambda: forces.elongation(_S, "planar", _Y, _Y, _Y, _Y), ModelError,
         "y_b must be None"),
    Case("forces.generalized_forces-kind", lambda: forces.generalized_forces(_S, "solid", _Y, _Y, None, None),
         ModelError, "kind"),
    Case("forces.generalized_forces-shape", lambda: forces.generalized_forces(_S, "planar", _Y[:2], _Y, None, None),
         ModelError, r"y_a has shape \(2,\)"),
    Case("forces.generalized_forces-dim", lambda: forces.generalized_forces(_S, "spatial", _YS, np.zeros(6), None,
                                                                           None), ModelError, "2-entry points"),
    Case("forces.potential-euler", lambda: forces.potential(SpringDamper(0, -1), "spatial", 2 * _YS, None),
         ModelError, r"y_a\[3:7\]"),
    Case("forces.potential-missing", lambda: forces.potential(_S, "planar", None, None), ModelError,
         "y_a must be the coordinates of body 0"),
    Case("system.System-forces-type", lambda: dataclasses.replace(_T, forces=[1]), ModelError,
         r"forces\[0\] is int, not a force element"),
    Case("system.System-forces-body", lambda: dataclasses.replace(_T, forces=(SpringDamper(0, 2),)), TopologyError,
         "bodies are 0..1"),
    Case("system.terms-coincident", _coincident, ConstraintViolationError, "its two points coincide"),
    Case("forces.Tyre-body", lambda: forces.Tyre(-1, k=1.0), ModelError, "body must be a body index"),
    Case("forces.Tyre-bool", lambda: forces.Tyre(True), ModelError, "body must be a body index"),
    Case("forces.Tyre-k", lambda: forces.Tyre(0, k=-1.0), ModelError, r"k \(stiffness, N/m\) is -1.0"),
    Case("forces.Tyre-radius-nan", lambda: forces.Tyre(0, radius=np.nan), ModelError, r"radius \(free radius"),
    Case("forces.Tyre-point", lambda: forces.Tyre(0, point=[0.0] * 4), ModelError, "point has 4 entries"),
    Case("forces.Tyre-road", lambda: forces.Tyre(0, road=0.1), ModelError, "road must be None"),
    Case("forces.Tyre-road-raises", lambda: forces.Tyre(0, road=lambda t: 1 / 0).height(0.0), ModelError,
         r"road\(t\)"),
    Case("forces.Tyre-road-str", lambda: forces.Tyre(0, road=lambda t: "up").height(0.0), ModelError, r"road\(0\)"),
    Case("forces.generalized_forces-tyre-ground", lambda: forces.generalized_forces(
        forces.Tyre(0), "planar", _Y, _Y, _Y, _Y), ModelError, "y_b must be None"),
    Case("forces.generalized_forces-t", lambda: forces.generalized_forces(forces.Tyre(0), "planar", _Y, _Y, None,
                                                                         None, t=np.inf), ModelError, "t is inf"),
    Case("forces.potential-t", lambda: forces.potential(forces.Tyre(0), "planar", _Y, None, t="0"), ModelError,
         "t must be a real"),
    Case("system.force_potential-t", lambda: system.force_potential(_ON, models.random_state(_ON, seed=0), t=np.nan),
         ModelError, "t is nan"),
    Case("system.System-forces-tyre-body", lambda: dataclasses.replace(_T, forces=(forces.Tyre(5),)), TopologyError,
         "bodies are 0..1"),
    Case("system.System-forces-tyre-dim", lambda: dataclasses.replace(_T, forces=(forces.Tyre(0, point=[0, 0, 1.0]),)),
         ModelError, "3-entry points"),
    Case("system.force_potential-state", lambda: system.force_potential(_ON, (np.zeros(5), np.zeros(6))),
         ModelError, r"state.y has shape \(5,\)"),
]

COVERED: list = ["forces.SpringDamper", "forces.Tyre", "forces.elongation", "forces.generalized_forces", "forces.potential",
                 "system.force_potential"]
EXEMPT: dict = {
    "forces.Elongation": "a plain record (NamedTuple) returned by forces.elongation; never built by users",
}
