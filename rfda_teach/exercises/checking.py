"""The machinery every checker shares: the case record, the harness that runs a student's function, the result.

A checker (``check_<name>(student_fn, *, n_cases=N_CASES, seed=SEED)``, in
:mod:`rfda_teach.exercises` or in a chapter's module ``rfda_teach/exercises/<chapter>.py``)
validates its arguments with :func:`options`, builds a list of :class:`Case` records
(arguments, a description of them by shape and kind, the reference answer from the package,
typical wrong answers with their hints) and returns ``run_cases("check_<name>", student_fn,
cases)``.  :func:`run_cases` calls the student's function on each case under :data:`TIME_LIMIT`
seconds, adds the generic hints (transposed, sign, factor 2 or 1/2) and the stub handling, prints
one line and returns a :class:`CheckResult`.  :func:`lubich_joints` is a source of random cases
several chapters draw from.

Nothing here depends on a chapter: this module imports no other module of
:mod:`rfda_teach.exercises`, which re-exports its public names (``exercises.Case``,
``exercises.run_cases``, ...).

Examples
--------
>>> import numpy as np
>>> from rfda_teach.exercises.checking import Case, options, run_cases
>>> def check_double(student_fn, *, n_cases=3, seed=0):
...     n_cases, seed = options("check_double", student_fn, n_cases, seed)
...     rng = np.random.default_rng(seed)
...     cases = []
...     for k in range(n_cases):
...         A = rng.normal(size=(2, 2))
...         cases.append(Case((A,), f"A: random 2x2 matrix, case {k}", 2 * A,
...                           wrong=((A, "missing factor 2?"),)))
...     return run_cases("check_double", student_fn, cases)
>>> check_double(lambda A: 2 * A).passed
check_double: passed on 3 cases
True
>>> check_double(lambda A: A).passed
check_double: not yet, case 1 of 3 (A: random 2x2 matrix, case 0): missing factor 2?
False
"""

from __future__ import annotations

import contextlib
import signal
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from .. import _check, models
from ..errors import ModelError

__all__ = ["CheckResult", "Case", "StudentHint", "run_cases", "options", "lubich_joints",
           "N_CASES", "SEED", "RTOL", "TIME_LIMIT", "MAX_CASES"]

#: default number of random cases per checker
N_CASES = 40

#: default seed of every checker (the cases are the same on every run)
SEED = 2026

#: relative tolerance of the comparison with the reference
RTOL = 1e-8

#: seconds a student's function may take on one case (an endless loop is reported, not waited for)
TIME_LIMIT = 10.0
#: the most cases a checker runs (n_cases above this is refused: it would run for hours)
MAX_CASES = 10_000


class _TooSlow(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Interrupt the block after ``seconds`` with :class:`_TooSlow` (SIGALRM: Unix, main thread,
    which is where a notebook's cells run); elsewhere the block runs without a limit."""
    usable = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def on_alarm(signum, frame):
        raise _TooSlow

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass(frozen=True)
class CheckResult:
    """What a checker found: ``passed``, the number of cases run, and the line it printed."""

    name: str
    passed: bool
    n_cases: int
    implemented: bool = True
    message: str = field(default="", repr=False)

    def __bool__(self) -> bool:
        return self.passed

    def _ipython_display_(self) -> None:
        """In a notebook the checker has already printed its one line; a check cell that ends
        with the call shows nothing more (no repr of this record)."""


@dataclass(frozen=True)
class Case:
    """One test case: arguments for the student's function, a description of them (shapes,
    kinds; never values), the reference answer, and typical wrong answers with their hints.

    ``expected`` is an array or a tuple of arrays (a function returning several results);
    ``wrong`` is a sequence of (wrong answer, hint) pairs, tried in order.
    """

    args: tuple
    describe: str
    expected: object
    wrong: tuple = ()
    #: property checks ``(is_wrong(got), hint)`` tried after ``wrong``: ``got`` is the student's
    #: answer as a tuple of arrays, ``is_wrong`` says whether it breaks a property the answer
    #: must have (symmetric, idempotent, ...); it never compares with ``expected``
    props: tuple = ()


class StudentHint(Exception):
    """Raised inside a student's call (by a checker's wrapper, e.g. when the function calls
    ``numpy.linalg.inv`` where the text says not to invert): :func:`run_cases` reports the
    message as the hint of that case."""


# ----------------------------------------------------------------------------- the harness

def _callable(student_fn, where: str) -> Callable:
    if not callable(student_fn):
        raise ModelError(f"exercises.{where}: student_fn must be a function (the one you wrote, passed without "
                         f"calling it, e.g. {where}(my_function)), got {type(student_fn).__name__}")
    return student_fn


def options(name: str, student_fn, n_cases, seed) -> tuple:
    """The checker's arguments validated: a callable, n_cases >= 1 and an integer seed >= 0."""
    _callable(student_fn, name)
    n_cases = _check.positive_int(n_cases, "n_cases", where=f"exercises.{name}", maximum=MAX_CASES)
    seed = _check.positive_int(seed, "seed", where=f"exercises.{name}", minimum=0)
    return n_cases, seed


def _as_parts(x, n_parts: int):
    """The student's answer as a tuple of float arrays (None when it is not numbers)."""
    parts = (x,) if n_parts == 1 else x
    if n_parts > 1 and (not isinstance(parts, (tuple, list)) or len(parts) != n_parts):
        return None
    out = []
    for p in parts:
        try:
            a = np.asarray(p)
            a = np.asarray(a.real if np.iscomplexobj(a) else a, dtype=float)   # imaginary parts all zero
        except (TypeError, ValueError):
            return None
        out.append(a)
    return tuple(out)


def _has_imaginary_part(x) -> bool:
    """True when the student's answer (an array or a tuple of them) holds a complex number whose
    imaginary part is not zero (numpy would drop it with only a ComplexWarning)."""
    parts = x if isinstance(x, (tuple, list)) else (x,)
    for p in parts:
        try:
            a = np.asarray(p)
        except (TypeError, ValueError):
            continue
        if np.iscomplexobj(a) and np.any(np.imag(a) != 0):
            return True
        if a.dtype == object and any(isinstance(v, complex) and v.imag != 0 for v in a.flat):
            return True
    return False


def _close(a: tuple, b: tuple, rtol: float) -> bool:
    for x, y in zip(a, b):
        if x.shape != y.shape or not np.all(np.isfinite(x)):
            return False
        scale = max(1.0, float(np.abs(y).max(initial=0.0)))
        if not np.allclose(x, y, rtol=rtol, atol=rtol * scale):
            return False
    return True


def _generic_wrong(expected: tuple) -> list:
    """Mistakes worth a hint in any exercise: a transposed matrix, a wrong sign, a factor 2 or 1/2."""
    out = []
    if len(expected) == 1 and expected[0].ndim == 2:
        out.append(((expected[0].T,), "transposed? check which index is the row"))
    out.append((tuple(-e for e in expected), "wrong sign?"))
    out.append((tuple(2.0 * e for e in expected), "missing factor 1/2?"))
    out.append((tuple(0.5 * e for e in expected), "a factor 1/2 too many?"))
    return out


def _diagnose(got: tuple, case: Case, expected: tuple, rtol: float) -> str:
    n = len(expected)
    specific = [(_as_parts(w, n), h) for w, h in case.wrong]
    for wrong, hint in specific:
        if wrong is not None and _close(got, wrong, rtol):
            return hint
    shapes_ok = all(g.shape == e.shape and np.all(np.isfinite(g)) for g, e in zip(got, expected))
    for is_wrong, hint in (case.props if shapes_ok else ()):
        if is_wrong(got):
            return hint
    for wrong, hint in _generic_wrong(expected):
        if wrong is not None and _close(got, wrong, rtol):
            return hint
    for i, (g, e) in enumerate(zip(got, expected)):
        what = "your result" if n == 1 else f"result {i + 1} of {n}"
        if g.shape != e.shape:
            if g.ndim == 2 and g.shape == e.shape[::-1]:
                return f"{what} has shape {g.shape}, the transpose of the shape {e.shape} it should have: transposed?"
            return f"{what} has shape {g.shape}; it should have shape {e.shape}"
        if not np.all(np.isfinite(g)):
            return f"{what} contains NaN or inf"
    if n > 1:
        bad = [str(i + 1) for i, (g, e) in enumerate(zip(got, expected)) if not _close((g,), (e,), rtol)]
        return f"result {' and '.join(bad)} of {n} differ from the reference; re-derive step by step"
    return "the numbers differ from the reference; re-derive the formula step by step"


def run_cases(name: str, student_fn, cases: Iterable[Case], *, rtol: float = RTOL) -> CheckResult:
    """Run ``student_fn(*case.args)`` on every case, print one line, return a :class:`CheckResult`.

    The printed line never contains the reference answer: a failure names the case by its
    description (shapes, kinds) and gives a hint.

    Examples
    --------
    >>> import numpy as np
    >>> cases = [Case((np.eye(2) * k,), f"A: 2x2 matrix, case {k}", 2 * np.eye(2) * k) for k in (1, 2)]
    >>> run_cases("check_double", lambda A: 2 * A, cases).passed
    check_double: passed on 2 cases
    True
    >>> run_cases("check_double", lambda A: -2 * A, cases).passed
    check_double: not yet, case 1 of 2 (A: 2x2 matrix, case 1): wrong sign?
    False
    """
    if not isinstance(name, str):
        raise ModelError(f"exercises.run_cases: name must be a str such as 'check_double', got {type(name).__name__}")
    fn = _callable(student_fn, name)
    if cases is None or isinstance(cases, (str, bytes, dict)) or not hasattr(cases, "__iter__"):
        raise ModelError(f"exercises.run_cases: cases must be a list of exercises.Case, got {type(cases).__name__}")
    cases = list(cases)
    bad = [i for i, c in enumerate(cases) if not isinstance(c, Case)]
    if bad or not cases:
        raise ModelError("exercises.run_cases: cases must be a non-empty list of exercises.Case"
                         + (f"; entry {bad[0]} is a {type(cases[bad[0]]).__name__}" if bad else ", got none"))
    rtol = _check.scalar(rtol, "rtol", where="exercises.run_cases", positive=True)
    total = len(cases)

    def done(passed: bool, line: str, implemented: bool = True, n: int = total) -> CheckResult:
        print(f"{name}: {line}")
        return CheckResult(name, passed, n, implemented, f"{name}: {line}")

    for i, case in enumerate(cases):
        expected = case.expected if isinstance(case.expected, tuple) else (case.expected,)
        expected = tuple(np.asarray(e, dtype=float) for e in expected)
        args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in case.args)
        try:
            with _time_limit(TIME_LIMIT):
                out = fn(*args)
        except _TooSlow:
            return done(False, f"not yet, case {i + 1} of {total} ({case.describe}): your function took longer "
                               f"than {TIME_LIMIT:g} s and was stopped (an endless loop?)", n=i)
        except NotImplementedError:
            return done(False, "not implemented yet (fill in the function and run this cell again)", False, 0)
        except StudentHint as hint:
            return done(False, f"not yet, case {i + 1} of {total} ({case.describe}): {hint}", n=i)
        except Exception as exc:   # noqa: BLE001 - a student's bug is reported, not raised
            return done(False, f"not yet, case {i + 1} of {total} ({case.describe}): your function raised "
                               f"{type(exc).__name__}: {exc}", n=i)
        if out is None:
            if i == 0:
                return done(False, "not implemented yet (fill in the function and run this cell again)",
                            False, 0)
            return done(False, f"not yet, case {i + 1} of {total} ({case.describe}): your function "
                               "returned None; return the result", n=i)
        if _has_imaginary_part(out):
            return done(False, f"not yet, case {i + 1} of {total} ({case.describe}): your result has complex "
                               "entries with a non-zero imaginary part; the answer is real (a square root or "
                               "a logarithm of a negative number?)", n=i)
        got = _as_parts(out, len(expected))
        if got is None:
            what = "an array" if len(expected) == 1 else f"a tuple of {len(expected)} arrays"
            return done(False, f"not yet, case {i + 1} of {total} ({case.describe}): return {what} of "
                               "numbers", n=i)
        if not _close(got, expected, rtol):
            return done(False, f"not yet, case {i + 1} of {total} ({case.describe}): "
                               f"{_diagnose(got, case, expected, rtol)}", n=i)
    return done(True, f"passed on {total} cases")


# ----------------------------------------------------------------------------- random inputs several chapters share

def lubich_joints(seed: int):
    """(kind, system, terms, Lubich result, k, parent j) for every non-root joint with constraint
    rows of random 5-body trees, planar and spatial in turn, seeds from ``seed`` on (no end): the cases of
    ``check_lubich_contribution``, ``check_lubich_step2`` and ``check_featherstone_step``."""
    from .. import rfda
    from ..system import terms
    s = seed
    while True:
        kind = "planar" if s % 2 == 0 else "spatial"
        sys = models.random_tree(5, kind=kind, seed=s)
        st = models.random_state(sys, seed=s)
        s += 1
        tr, res = terms(sys, st), rfda.forward_dynamics(sys, st, form="lubich")
        for k, j in enumerate(sys.parents):
            if j >= 0 and tr.joint[k].G.shape[0]:
                yield kind, sys, tr, res, k, j
