"""Short-answer questions of the book: the reference lives here, never in the notebook.

A chapter's check cell for a question with a numerical answer is two lines::

    answer = None          # the student writes the answer here
    check_question("ex-dae-count", answer)

The expected answer is computed by the package (a function registered with
:func:`question` in the chapter's module ``rfda_teach/exercises/<chapter>.py``), so the
student edition of a notebook holds no expected value and no reference computation.  The
check prints ``right``, ``not answered yet`` or ``not yet`` with a hint; when the answer is one
of the registered typical slips, the hint names that slip.  The expected value is never
printed.

Examples
--------
>>> from rfda_teach.exercises.questions import question, check_question
>>> @question("ex-doc-demo", hint="count the nodes",
...           slips=[(lambda ref: ref - 1, "the root counts too")])
... def _demo():
...     return 3
>>> check_question("ex-doc-demo", None).passed
check_question ex-doc-demo: not answered yet (write your answer above and run this cell again)
False
>>> check_question("ex-doc-demo", 2).passed
check_question ex-doc-demo: not yet. Hint: the root counts too
False
>>> check_question("ex-doc-demo", 3).passed
check_question ex-doc-demo: right
True
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..errors import ModelError
from .checking import CheckResult

__all__ = ["Question", "QUESTIONS", "question", "check_question", "reference_answer"]


@dataclass(frozen=True)
class Question:
    """One registered question: its exercise label, the function that computes the reference
    answer from the package, the general hint, and typical slips ``(wrong(ref), hint)``."""

    label: str
    reference: Callable[[], Any]
    hint: str
    slips: tuple = ()
    rtol: float = 1e-9
    atol: float = 1e-9
    up_to_sign: bool = False


#: exercise label -> :class:`Question` (filled by the chapter modules at import)
QUESTIONS: dict[str, Question] = {}


def question(label: str, *, hint: str, slips=(), rtol: float = 1e-9, atol: float = 1e-9,
             up_to_sign: bool = False) -> Callable:
    """Register the decorated function as the reference answer of exercise ``label``.

    ``slips`` is a sequence of ``(wrong, hint)``: ``wrong(reference)`` is a typical wrong
    answer, and a student answer equal to it gets ``hint``.  See the module's example.
    """
    def register(fn: Callable[[], Any]) -> Callable[[], Any]:
        QUESTIONS[label] = Question(label, functools.cache(fn), hint, tuple(slips), rtol, atol,
                                    up_to_sign)
        return fn
    return register


def reference_answer(label: str):
    """The expected answer of a registered question (for the instructor and the tests).

    >>> from rfda_teach.exercises.questions import QUESTIONS
    >>> sorted(QUESTIONS) == sorted(set(QUESTIONS))
    True
    """
    return _lookup(label).reference()


def _lookup(label: str) -> Question:
    if not isinstance(label, str) or label not in QUESTIONS:
        known = ", ".join(sorted(k for k in QUESTIONS if not k.startswith("ex-doc-")))
        raise ModelError(f"exercises.check_question: no question labelled {label!r}; "
                         f"the label is the exercise's, one of: {known}")
    return QUESTIONS[label]


def _numbers(x):
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return None
    return a


def _equal(a: np.ndarray, e: np.ndarray, q: Question) -> bool:
    if a.shape != e.shape or not np.all(np.isfinite(a)):
        return False
    ok = np.allclose(a, e, rtol=q.rtol, atol=q.atol)
    return bool(ok or (q.up_to_sign and np.allclose(a, -e, rtol=q.rtol, atol=q.atol)))


def check_question(label: str, answer) -> CheckResult:
    """Print whether ``answer`` is the answer of exercise ``label`` (never the answer itself).

    ``None`` (the unanswered stub) prints "not answered yet".  Numbers, tuples and arrays are
    compared with ``numpy.allclose`` at the question's tolerance; a typical slip gets its own
    hint, any other wrong answer the question's general hint.
    """
    q = _lookup(label)
    name = f"check_question {label}"

    def done(passed: bool, line: str, implemented: bool = True) -> CheckResult:
        print(f"{name}: {line}")
        return CheckResult(name, passed, 1 if implemented else 0, implemented, f"{name}: {line}")

    if answer is None:
        return done(False, "not answered yet (write your answer above and run this cell again)", False)
    a = _numbers(answer)
    if a is None:
        return done(False, f"not yet: the answer should be numbers. Hint: {q.hint}")
    e = np.asarray(q.reference(), dtype=float)
    if a.shape != e.shape:
        return done(False, f"not yet: your answer has shape {a.shape}; a different shape is expected "
                           f"(see the comment above the answer). Hint: {q.hint}")
    if _equal(a, e, q):
        return done(True, "right")
    for wrong, hint in q.slips:
        w = _numbers(wrong(q.reference()))
        if w is not None and _equal(a, w.reshape(e.shape) if w.size == e.size else w, q):
            return done(False, f"not yet. Hint: {hint}")
    return done(False, f"not yet. Hint: {q.hint}")
