"""Every checker names the typical mistakes (issue 21, item 5).

For every checker of :data:`rfda_teach.exercises.CHECKERS` (those that chapters add later
included: the list is read at collection time), the registry
:data:`rfda_teach.exercises.slips.SLIPS` holds at least one *slip*, a wrong student function
that makes one typical mistake, with the fragment of the hint the checker must answer it with.
For each slip the checker fails, its one line contains that fragment, it never says the generic
"re-derive", and it shows none of the numbers of the reference answer of the failing case.
"""

import re
import sys

import numpy as np
import pytest

from rfda_teach import exercises as ex
from rfda_teach.exercises.slips import SLIPS

#: checkers whose cases need an optional extra (their slips are skipped without it)
NEEDS = {"check_free_flyer_ydot": "pinocchio"}

_SLIP_IDS = [(f"check_{name}", k) for name in sorted(ex.CHECKERS)
             for k in range(len(SLIPS.get(f"check_{name}", ())))]


@pytest.mark.parametrize("name", sorted(ex.CHECKERS))
def test_every_checker_registers_a_slip(name):
    assert SLIPS.get(f"check_{name}"), f"check_{name} registers no typical slip (rfda_teach.exercises.slips)"


def test_every_slip_belongs_to_a_checker():
    assert set(SLIPS) <= {f"check_{n}" for n in ex.CHECKERS}, set(SLIPS) - {f"check_{n}" for n in ex.CHECKERS}


@pytest.fixture
def spy(monkeypatch):
    """Record the cases every checker hands to ``run_cases`` (each chapter module imported the
    harness's name, so each module's global is replaced)."""
    original = ex.run_cases
    seen = []

    def recording(name, student_fn, cases, **kw):
        cases = list(cases)
        seen.append(cases)
        return original(name, student_fn, cases, **kw)

    for mod_name, mod in list(sys.modules.items()):
        if mod_name.startswith("rfda_teach.exercises") and getattr(mod, "run_cases", None) is original:
            monkeypatch.setattr(mod, "run_cases", recording)
    return seen


def _digits(text: str) -> int:
    mantissa = text.split("e")[0]
    return len(re.sub(r"[^0-9]", "", mantissa).lstrip("0"))


def _leaked(reference, message: str) -> list:
    """The entries of ``reference`` (3+ significant digits, not integers) that ``message`` shows."""
    parts = reference if isinstance(reference, tuple) else (reference,)
    out = []
    for part in parts:
        for x in np.ravel(np.asarray(part, dtype=float)):
            if not np.isfinite(x) or abs(x - round(x)) < 1e-9:
                continue
            for fmt in (".3g", ".4g", ".6g", ".3f", ".2f"):
                text = format(abs(x), fmt)
                if _digits(text) >= 3 and text in message and text not in out:
                    out.append(text)
    return out


@pytest.mark.parametrize("checker,k", _SLIP_IDS, ids=[f"{c}-{SLIPS[c][k].name}" for c, k in _SLIP_IDS])
def test_slip_gets_its_hint(checker, k, spy, capsys):
    if checker in NEEDS:
        pytest.importorskip(NEEDS[checker])
    s = SLIPS[checker][k]
    r = getattr(ex, checker)(s.wrong)
    out = capsys.readouterr().out
    assert not r.passed and r.implemented, out
    assert out.count("\n") == 1 and out.startswith(f"{checker}: not yet, case "), out
    assert s.hint in r.message, f"{s.name!r}: expected the hint {s.hint!r} in {r.message!r}"
    assert "re-derive" not in r.message, r.message
    assert "numbers differ" not in r.message, r.message
    assert spy, "the checker did not go through run_cases"
    failing = spy[-1][r.n_cases]
    assert not _leaked(failing.expected, r.message), (r.message, _leaked(failing.expected, r.message))


def test_the_leak_check_sees_a_leak():
    assert _leaked(np.array([[0.123456, 1.0]]), "got 0.123 here") == ["0.123"]
    assert _leaked((np.array([2.0, -0.5]),), "case 2 of 40: 0.5") == []


def test_the_slips_doctest_leaves_the_registry_clean():
    assert "check_demo" not in SLIPS
