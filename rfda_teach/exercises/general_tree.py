"""Checkers for the exercises of the book's ``general_tree`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports them)."""

from __future__ import annotations

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}
