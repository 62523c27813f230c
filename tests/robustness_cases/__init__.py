"""Bad-input case tables for tests/test_robustness.py, one file per area.

Each module defines ``CASES``: a list of ``Case(id, call, error, match)`` where
``call`` is a zero-argument callable that passes one bad input to one public
function, ``error`` the RFDAError subclass it must raise and ``match`` a regex
the message must contain (at least the argument's name).  ``COVERED`` lists the
public names (``"module.name"``) that the table exercises, and ``EXEMPT`` maps
public names that take no user input (constants, plain records) to the reason.
"""
from __future__ import annotations

from typing import Callable, NamedTuple


class Case(NamedTuple):
    id: str
    call: Callable
    error: type
    match: str
