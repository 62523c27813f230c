"""Bad-input cases for rfda_teach.compare (the capstone's registry of formulations), the capstone's
mechanism compare.five_bar_arm, jointspace.absolute_accelerations and interop.to_pinocchio
(see tests/robustness_cases/__init__.py for the format)."""
from __future__ import annotations

import numpy as np

from rfda_teach import compare, interop, jointspace, models
from rfda_teach.errors import ConstraintViolationError, ModelError
from rfda_teach.system import terms

from robustness_cases import Case

_CLOSED = compare.five_bar_arm()
_CST = compare.five_bar_arm_state(_CLOSED, seed=0)
_OPEN = compare.five_bar_arm(cut=False)
_OST = compare.five_bar_arm_state(_OPEN, seed=0)
_TREE = models.random_tree(3, kind="spatial", seed=0)       # spherical and free joints
_TST = models.random_state(_TREE, seed=0)
_BAD = _CST._replace(yd=_CST.yd + 1.0)                      # velocities that open the loop

CASES = [
    Case("compare-accelerations-name", lambda: compare.accelerations("aba", _OPEN, _OST), ModelError,
         "unknown formulation 'aba'"),
    Case("compare-accelerations-tree-only", lambda: compare.accelerations("lubich", _CLOSED, _CST), ModelError,
         "lubich needs a tree"),
    Case("compare-accelerations-closed-only", lambda: compare.accelerations("multipliers", _OPEN, _OST),
         ModelError, "multipliers needs cut joints"),
    Case("compare-accelerations-kind", lambda: compare.accelerations("pinocchio", _OPEN, _OST), ModelError,
         "pinocchio takes spatial bodies"),
    Case("compare-accelerations-joint", lambda: compare.accelerations("pinocchio", _TREE, _TST), ModelError,
         "free joint"),
    Case("compare-accelerations-state", lambda: compare.accelerations("eq7", _CLOSED, _BAD),
         ConstraintViolationError, "violate"),
    Case("compare-refusal-system", lambda: compare.refusal("eq7", "five-bar"), ModelError, "system"),
    Case("compare-applicable-system", lambda: compare.applicable(None), ModelError, "system"),
    Case("compare-count-name", lambda: compare.count_multiplications(3, _OPEN), ModelError, "unknown formulation"),
    Case("compare-count-closed-nostate", lambda: compare.count_multiplications("multipliers", _CLOSED),
         ModelError, "needs a state"),
    Case("compare-run-system", lambda: compare.run("x", _OST), ModelError, "system"),
    Case("compare-run-state", lambda: compare.run(_OPEN, None), ModelError, "state"),
    Case("compare-run-names", lambda: compare.run(_OPEN, _OST, names=["kaneX"]), ModelError, "unknown formulation"),
    Case("compare-timings-repeat", lambda: compare.timings(_OPEN, _OST, repeat=0), ModelError, "repeat"),
    Case("compare-relative-shape", lambda: compare.relative_difference([1.0], [1.0, 2.0]), ModelError, "shapes"),
    Case("compare-reference-dps", lambda: compare.reference_accelerations(_OPEN, _OST, dps=5), ModelError, "dps"),
    Case("compare-sweep-ratio", lambda: compare.mass_ratio_sweep((1.0, -2.0)), ModelError, "mass ratio"),
    Case("compare-sweep-kind", lambda: compare.mass_ratio_sweep(kinds=("cubic",)), ModelError, "kind"),
    Case("compare-multipliers-form", lambda: compare.multiplier_accelerations(_CLOSED, _CST, form="x"), ModelError,
         "form"),
    Case("compare-multipliers-system", lambda: compare.multiplier_accelerations(None, _CST), ModelError, "system"),
    Case("compare-multiplier_terms-form", lambda: compare.multiplier_terms(_CLOSED, _CST, form=1), ModelError,
         "form"),
    Case("compare-state-system", lambda: compare.five_bar_arm_state(models.chain(3)), ModelError,
         "not a compare.five_bar_arm"),
    Case("compare-state-seed", lambda: compare.five_bar_arm_state(_OPEN, seed=-1), ModelError, "seed"),
    Case("compare-joint-coordinates-joint", lambda: compare.joint_coordinates(_TREE, _TST), ModelError,
         "free joint"),
    Case("compare-pinocchio-planar", lambda: compare.pinocchio_accelerations(_OPEN, _OST), ModelError, "planar"),
    Case("compare-mujoco-closed", lambda: compare.mujoco_accelerations(compare.five_bar_arm("spatial"), _CST),
         ModelError, "cut joints"),
    Case("compare-five_bar_arm-kind", lambda: compare.five_bar_arm("cubic"), ModelError, "kind"),
    Case("compare-five_bar_arm-ratio", lambda: compare.five_bar_arm(mass_ratio=0.0), ModelError, "mass_ratio"),
    Case("compare-five_bar_arm-sleeve", lambda: compare.five_bar_arm(sleeve=False), ModelError, "sleeve=False"),
    Case("compare-five_bar_arm-cut", lambda: compare.five_bar_arm(cut=1), ModelError, "cut"),
    Case("jointspace-absolute_accelerations-qdd",
         lambda: jointspace.absolute_accelerations(_OPEN, terms(_OPEN, _OST), np.zeros(2)), ModelError, "qdd"),
    Case("jointspace-absolute_accelerations-cuts",
         lambda: jointspace.absolute_accelerations(_CLOSED, terms(_CLOSED, _CST), np.zeros(6)), ModelError,
         "cut joint"),
    Case("interop-to_pinocchio-planar", lambda: interop.to_pinocchio(_OPEN), ModelError, "planar"),
    Case("interop-to_pinocchio-joint", lambda: interop.to_pinocchio(_TREE), ModelError, "revolute and prismatic"),
]

COVERED = [f"compare.{n}" for n in ("refusal", "applicable", "accelerations", "count_multiplications", "run",
                                    "timings", "relative_difference", "reference_accelerations",
                                    "mass_ratio_sweep", "multiplier_accelerations", "multiplier_terms", "five_bar_arm_state",
                                    "joint_coordinates", "pinocchio_accelerations", "mujoco_accelerations")]
COVERED += ["compare.five_bar_arm", "jointspace.absolute_accelerations", "interop.to_pinocchio"]
EXEMPT: dict = {"compare.MultiplierTerms": "plain result record returned by compare.multiplier_terms",
                "compare.Formulation": "a plain record of the registry (name, paper, function)",
                "compare.Comparison": "plain result record returned by compare.run",
                "compare.SweepResult": "plain result record returned by compare.mass_ratio_sweep"}
