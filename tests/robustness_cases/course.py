"""Bad-input cases for course (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

from rfda_teach import course
from rfda_teach.errors import ModelError

from robustness_cases import Case

CASES = [
    Case("course.prose_words-bytes", lambda: course.prose_words(b"x"), ModelError, "md must be"),
    Case("course.chapter_load-missing", lambda: course.chapter_load("/no/such/chapter"), ModelError,
         "no chapter at"),
    Case("course.chapter_load-sections", lambda: course.chapter_load("book/dae", sections=3), ModelError,
         "sections must be"),
    Case("course.chapter_load-nosection", lambda: course.chapter_load("book/dae", sections=("Nope", "Nope")),
         ModelError, "no '## ' section"),
    Case("course.chapter_loads-notoc", lambda: course.chapter_loads("/"), ModelError, "no _toc.yml"),
    Case("course.exercise_labels-notoc", lambda: course.exercise_labels("/"), ModelError, "no _toc.yml"),
    Case("course.load_table-notoc", lambda: course.load_table("/"), ModelError, "no _toc.yml"),
    Case("course.plan_loads-chapter", lambda: course.plan_loads(
        "### A 6-week module\n\n| week | read | exercises |\n| --- | --- | --- |\n| 1 | {doc}`nowhere` | |\n"),
         ModelError, "not a chapter"),
    Case("course.update_page-notoc", lambda: course.update_page("/"), ModelError, "no _toc.yml"),
]

COVERED = ["course.prose_words", "course.chapter_load", "course.chapter_loads", "course.exercise_labels",
           "course.load_table", "course.plan_loads", "course.update_page"]

EXEMPT: dict = {"course.ChapterLoad": "plain result record returned by chapter_load"}
