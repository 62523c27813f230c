"""Questions and checkers of the book's ``refpoint`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

The chapter's first checker lives in :mod:`rfda_teach.exercises` itself; later ones live here.
"""

from __future__ import annotations

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}
