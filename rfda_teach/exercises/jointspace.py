"""Questions and checkers of the book's ``jointspace`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers)."""

from __future__ import annotations

from .questions import question  # noqa: F401  (registers the chapter's questions)

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}
