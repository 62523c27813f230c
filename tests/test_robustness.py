"""Every public entry point refuses bad input with an RFDAError subclass whose message names the argument.

The cases live in ``tests/robustness_cases/<area>.py`` (one table per area of the package);
this module runs them all and checks that every name in every module's ``__all__`` is
covered by some table or exempted with a reason.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import re
import warnings

import pytest

import rfda_teach
from rfda_teach import errors

from robustness_cases import Case  # noqa: F401  (re-exported for the tables)

_AREAS = [m.name for m in pkgutil.iter_modules([os.path.join(os.path.dirname(__file__), "robustness_cases")])]
_TABLES = [importlib.import_module(f"robustness_cases.{a}") for a in _AREAS]
CASES = [c for t in _TABLES for c in t.CASES]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_raises_rfda_error(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(case.error) as info:
            case.call()
    assert isinstance(info.value, errors.RFDAError)
    assert re.search(case.match, str(info.value)), f"message {str(info.value)!r} does not match {case.match!r}"


def _public_names():
    out = []
    for m in pkgutil.iter_modules(rfda_teach.__path__):
        if m.name.startswith("_"):
            continue
        mod = importlib.import_module(f"rfda_teach.{m.name}")
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if callable(obj) or isinstance(obj, type):
                out.append(f"{m.name}.{name}")
    return out


def test_every_public_callable_is_covered_or_exempt():
    covered = set().union(*(set(t.COVERED) for t in _TABLES))
    exempt = {}
    for t in _TABLES:
        exempt.update(t.EXEMPT)
    missing = [n for n in _public_names() if n not in covered and n not in exempt]
    assert not missing, f"public names with no bad-input case and no exemption: {missing}"


def test_case_ids_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
