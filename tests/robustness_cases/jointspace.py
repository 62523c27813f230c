"""Bad-input cases for jointspace (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

import numpy as np

from rfda_teach import jointspace as js, models
from rfda_teach.bodies import Body
from rfda_teach.errors import ModelError
from rfda_teach.joints import Joint
from rfda_teach.system import System

from robustness_cases import Case

_ARM = models.chain(2)
_SPH = models.random_tree(2, kind="spatial", seed=1)          # free + spherical joints
_Z2 = [0.0, 0.0]
_CUSTOM = System((-1,), (Body("planar", 1.0, 0.1),),
                 (Joint("custom", kind="planar", Phi=[[1.0, 0, 0], [0, 1.0, 0]], Psi=[[0, 0, 1.0]]),))


def _bad_quat():
    q = js.neutral_q(_SPH)
    q[3] = 3.0
    return q


CASES = [
    Case("jointspace.forward_dynamics-qd-overflow",
         lambda: js.forward_dynamics(_ARM, _Z2, [1e160, 1e160], _Z2), ModelError,
         r"forward_dynamics: qd is too large"),
    Case("jointspace.rnea-system", lambda: js.rnea("arm", _Z2, _Z2, _Z2), ModelError, "system"),
    Case("jointspace.rnea-q-len", lambda: js.rnea(_ARM, [0.0], _Z2, _Z2), ModelError, "q has 1"),
    Case("jointspace.rnea-q-nan", lambda: js.rnea(_ARM, [0.0, np.nan], _Z2, _Z2), ModelError, r"q\[1\]"),
    Case("jointspace.rnea-q-str", lambda: js.rnea(_ARM, "ab", _Z2, _Z2), ModelError, "q"),
    Case("jointspace.rnea-q-joint", lambda: js.rnea(_ARM, [[0.0], [0.0, 1.0]], _Z2, _Z2), ModelError, r"q\[1\]"),
    Case("jointspace.rnea-qd", lambda: js.rnea(_ARM, _Z2, [0.0], _Z2), ModelError, "qd"),
    Case("jointspace.rnea-qdd", lambda: js.rnea(_ARM, _Z2, _Z2, None), ModelError, "qdd"),
    Case("jointspace.rnea-qdd-inf", lambda: js.rnea(_ARM, _Z2, _Z2, [np.inf, 0.0]), ModelError, "qdd"),
    Case("jointspace.rnea-fext", lambda: js.rnea(_ARM, _Z2, _Z2, _Z2, f_ext=[1.0]), ModelError, "f_ext"),
    Case("jointspace.rnea-custom", lambda: js.rnea(_CUSTOM, [0.0], [0.0], [0.0]), ModelError, "custom joint"),
    Case("jointspace.crba-none", lambda: js.crba(_ARM, None), ModelError, "q"),
    Case("jointspace.crba-quat", lambda: js.crba(_SPH, _bad_quat()), ModelError, r"q\[0\].*norm"),
    Case("jointspace.crba-system", lambda: js.crba(None, _Z2), ModelError, "system"),
    Case("jointspace.forward_dynamics-tau", lambda: js.forward_dynamics(_ARM, _Z2, _Z2, [1.0]), ModelError, "tau"),
    Case("jointspace.forward_dynamics-tau2d",
         lambda: js.forward_dynamics(_ARM, _Z2, _Z2, [[1.0, 2.0]]), ModelError, "tau"),
    Case("jointspace.forward_dynamics-qd-nan",
         lambda: js.forward_dynamics(_ARM, _Z2, [np.nan, 0.0], _Z2), ModelError, "qd"),
    Case("jointspace.solve-terms", lambda: js.solve(_ARM, None), ModelError, "terms"),
    Case("jointspace.solve-system", lambda: js.solve("arm", None), ModelError, "system"),
    Case("jointspace.inverse_dynamics-terms", lambda: js.inverse_dynamics(_ARM, (1, 2), _Z2), ModelError, "terms"),
    Case("jointspace.mass_matrix-terms", lambda: js.mass_matrix(_ARM, "tr"), ModelError, "terms"),
    Case("jointspace.velocity_map-terms", lambda: js.velocity_map(_ARM, 3), ModelError, "terms"),
    Case("jointspace.split_q-dict", lambda: js.split_q(_ARM, {"q": 1}), ModelError, "q"),
    Case("jointspace.split_q-system", lambda: js.split_q([1, 2], _Z2), ModelError, "system"),
    Case("jointspace.neutral_q-system", lambda: js.neutral_q(None), ModelError, "system"),
    Case("jointspace.neutral_q-custom", lambda: js.neutral_q(_CUSTOM), ModelError, "custom joint"),
    Case("jointspace.count_multiplications-method",
         lambda: js.count_multiplications(_ARM, "aba"), ModelError, "method"),
    Case("jointspace.count_multiplications-empty",
         lambda: js.count_multiplications(_ARM, ()), ModelError, "method"),
    Case("jointspace.count_multiplications-bystep",
         lambda: js.count_multiplications(_ARM, "crba", by_step=1), ModelError, "by_step"),
    Case("jointspace.count_multiplications-state",
         lambda: js.count_multiplications(_ARM, "crba", state=(np.zeros(6), np.zeros(5))), ModelError, "state"),
]

try:                                                          # needs the optional extra "robots"
    from rfda_teach import interop as _interop
    _interop.require_pinocchio()
    _UR5 = _interop.example_robot("ur5")
    _Q, _V, _ = _interop.random_state(_UR5, seed=0)
    CASES += [
        Case("jointspace.pinocchio_maps-robot", lambda: js.pinocchio_maps(_ARM, _Z2, _Z2), ModelError, "robot"),
        Case("jointspace.pinocchio_maps-q", lambda: js.pinocchio_maps(_UR5, _Q[:3], _V), ModelError, r"\bq\b"),
        Case("jointspace.pinocchio_maps-v", lambda: js.pinocchio_maps(_UR5, _Q, None), ModelError, r"\bv\b"),
        Case("jointspace.pinocchio_maps-a", lambda: js.pinocchio_maps(_UR5, _Q, _V, [np.nan] * 6), ModelError,
             r"\ba\["),
    ]
except ModelError:                                            # pragma: no cover - without Pinocchio
    pass

COVERED = [f"jointspace.{n}" for n in ("rnea", "crba", "forward_dynamics", "solve", "inverse_dynamics",
                                       "mass_matrix", "velocity_map", "split_q", "neutral_q",
                                       "count_multiplications", "pinocchio_maps")]

EXEMPT: dict = {
    "jointspace.JointSpaceResult": "plain result record returned by jointspace.solve",
    "jointspace.PinocchioMaps": "plain result record returned by jointspace.pinocchio_maps",
}
