"""Bad-input cases for elimination (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

import numpy as np

from rfda_teach import elimination as el, models
from rfda_teach.errors import ModelError

from robustness_cases import Case

_SYS = models.chain(3)
_ST = models.random_state(_SYS, seed=0)

CASES = [
    Case("elimination.subtree_schur-system", lambda: el.subtree_schur("chain", _ST, 0), ModelError, "system"),
    Case("elimination.subtree_schur-j", lambda: el.subtree_schur(_SYS, _ST, 3), ModelError, "j is 3"),
    Case("elimination.subtree_schur-jneg", lambda: el.subtree_schur(_SYS, _ST, -1), ModelError, "j"),
    Case("elimination.subtree_schur-jfloat", lambda: el.subtree_schur(_SYS, _ST, 1.0), ModelError, "j"),
    Case("elimination.subtree_schur-state", lambda: el.subtree_schur(_SYS, None, 0), ModelError, "state"),
    Case("elimination.elimination_steps-system", lambda: el.elimination_steps(None), ModelError, "system"),
    Case("elimination.fill_in-system", lambda: el.fill_in([0, 1], [0, 1]), ModelError, "system"),
    Case("elimination.fill_in-order", lambda: el.fill_in(_SYS, None), ModelError, "order"),
    Case("elimination.fill_in-missing", lambda: el.fill_in(_SYS, [0, 1]), ModelError, "every node"),
    Case("elimination.fill_in-node", lambda: el.fill_in(_SYS, [0, 1, 7]), ModelError, "j is 7"),
    Case("elimination.draw_elimination_step-step", lambda: el.draw_elimination_step(_SYS, _ST, 9),
         ModelError, "step is 9"),
    Case("elimination.draw_elimination_step-system", lambda: el.draw_elimination_step(None, _ST, 0),
         ModelError, "system"),
    Case("elimination.draw_elimination_step-axes", lambda: el.draw_elimination_step(_SYS, _ST, 0, axes=[1]),
         ModelError, "axes"),
    Case("elimination.animate_elimination-interval",
         lambda: el.animate_elimination(_SYS, _ST, interval=0), ModelError, "interval"),
    Case("elimination.animate_elimination-state",
         lambda: el.animate_elimination(_SYS, (np.zeros(2), np.zeros(2)), interval=10), ModelError, "state|y"),
    Case("elimination.alternating_chain-n", lambda: el.alternating_chain(0, 1.0), ModelError, "n"),
    Case("elimination.alternating_chain-r", lambda: el.alternating_chain(3, -1.0), ModelError, "r"),
    Case("elimination.alternating_chain-rnan", lambda: el.alternating_chain(3, np.nan), ModelError, "r"),
    Case("elimination.mass_ratio_study-ratios", lambda: el.mass_ratio_study("x"), ModelError, "ratios"),
    Case("elimination.mass_ratio_study-neg", lambda: el.mass_ratio_study([1.0, -1.0]), ModelError, "ratios"),
    Case("elimination.mass_ratio_study-n", lambda: el.mass_ratio_study([1.0], n=1), ModelError, "n"),
    Case("elimination.mass_ratio_study-seed", lambda: el.mass_ratio_study([1.0], seed=-2), ModelError, "seed"),
]

COVERED = ["elimination.subtree_schur", "elimination.elimination_steps", "elimination.fill_in",
           "elimination.draw_elimination_step", "elimination.animate_elimination",
           "elimination.alternating_chain", "elimination.mass_ratio_study"]

EXEMPT: dict = {
    "elimination.Schur": "plain result record (M_hat, f_hat) returned by subtree_schur",
    "elimination.MassRatioStudy": "plain result record returned by mass_ratio_study",
}
