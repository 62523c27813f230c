"""The typical slips every checker must name: one registry, fed to the checkers by a test.

A *slip* is a wrong student function that makes one typical mistake (a transpose whose result
is symmetric, body instead of world components, swapped gains, scalar-last quaternions, a
reversed product order, ...), together with a fragment of the hint the checker must answer it
with.  A chapter registers its slips next to its checker::

    @slip("check_crba", "B I B^T instead of B^T I B", hint="B^T")
    def _crba_transposed(*args):
        ...   # the student's function with that one mistake

``tests/test_exercises_slips.py`` runs every checker of :data:`rfda_teach.exercises.CHECKERS`
on each of its registered slips and asserts that the check fails, that its message contains
the registered hint fragment, and that it does not say the generic "re-derive": the most
typical mistakes are named, never answered with "numbers differ".  Every checker registers at
least one slip.

Examples
--------
>>> from rfda_teach.exercises.slips import SLIPS, slip
>>> @slip("check_demo", "a sign", hint="sign")
... def _neg(x):
...     return -x
>>> [s.name for s in SLIPS["check_demo"]]
['a sign']
>>> del SLIPS["check_demo"]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import ModelError

__all__ = ["Slip", "SLIPS", "slip"]


@dataclass(frozen=True)
class Slip:
    """One typical mistake: what it is, a student function that makes it, the hint it must get."""

    checker: str
    name: str
    wrong: Callable
    hint: str


#: checker name (``"check_crba"``) -> its registered slips, in registration order
SLIPS: dict[str, list[Slip]] = {}


def slip(checker: str, name: str, *, hint: str) -> Callable:
    """Register the decorated function as a student solution that makes the slip ``name``;
    ``checker`` must answer it with a message containing ``hint``."""
    if not (isinstance(checker, str) and checker.startswith("check_")):
        raise ModelError(f"exercises.slips.slip: checker must be a checker's name such as 'check_crba', "
                         f"got {checker!r}")
    if not (isinstance(hint, str) and hint):
        raise ModelError(f"exercises.slips.slip: {checker} / {name!r}: hint must be a non-empty fragment "
                         "of the message the checker prints for this slip")

    def register(fn: Callable) -> Callable:
        SLIPS.setdefault(checker, []).append(Slip(checker, name, fn, hint))
        return fn

    return register
