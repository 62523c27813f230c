"""rfda_teach/exercises/questions.py: every registered question, its reference and its slips."""
from __future__ import annotations

import numpy as np
import pytest

from bookbuild import ROOT
from rfda_teach import course
from rfda_teach.exercises import check_question
from rfda_teach.exercises.questions import QUESTIONS, reference_answer

LABELS = sorted(k for k in QUESTIONS if not k.startswith("ex-doc-"))


def test_every_question_belongs_to_an_exercise_of_the_book():
    assert LABELS, "no question registered"
    missing = sorted(set(LABELS) - set(course.exercise_labels(ROOT)))
    assert not missing, f"questions whose label is no exercise of the book: {missing}"


@pytest.mark.parametrize("label", LABELS)
def test_reference_is_right_and_the_unanswered_stub_is_not(label, capsys):
    ref = reference_answer(label)
    assert np.all(np.isfinite(np.asarray(ref, dtype=float)))
    assert check_question(label, ref).passed
    r = check_question(label, None)
    assert not r.passed and not r.implemented
    out = capsys.readouterr().out
    assert "right" in out and "not answered yet" in out


@pytest.mark.parametrize("label", LABELS)
def test_each_slip_is_wrong_and_gets_its_own_hint(label, capsys):
    q = QUESTIONS[label]
    ref = reference_answer(label)
    for wrong, hint in q.slips:
        w = wrong(ref)
        assert not check_question(label, w).passed, f"slip {hint!r} equals the answer"
        line = capsys.readouterr().out
        assert hint in line, f"slip {hint!r}: printed {line!r}"
        assert str(ref) not in line.replace(hint, "")


@pytest.mark.parametrize("label", LABELS)
def test_the_answer_is_never_printed(label, capsys):
    ref = reference_answer(label)
    for wrong in (np.asarray(ref, dtype=float) + 0.37, "abc", np.zeros(7)):
        check_question(label, wrong)
    out = capsys.readouterr().out
    shown = {repr(ref), str(ref)} if np.size(ref) > 1 or len(str(ref)) > 2 else set()
    assert not any(s in out for s in shown), out

