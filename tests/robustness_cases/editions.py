"""Bad-input cases for editions and the short-answer questions (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

import nbformat

from rfda_teach import editions as ed
from rfda_teach import exercises as ex
from rfda_teach.errors import ModelError

from robustness_cases import Case

_UNTAGGED = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("```{solution} ex-a\n42\n```")])

CASES = [
    Case("editions.directives-bytes", lambda: ed.directives(b"x", "exercise"), ModelError, "source"),
    Case("editions.directives-name", lambda: ed.directives("x", "{exercise}"), ModelError, "name"),
    Case("editions.solution_blocks-none", lambda: ed.solution_blocks(None), ModelError, "source"),
    Case("editions.solution_lines-dict", lambda: ed.solution_lines({"cells": 3}), ModelError, "nb must be a notebook"),
    Case("editions.student_notebook-str", lambda: ed.student_notebook("dae.ipynb"), ModelError, "nb must be"),
    Case("editions.student_notebook-untagged", lambda: ed.student_notebook(_UNTAGGED, name="x.ipynb"),
         ModelError, "x.ipynb, cell 0 .* no 'solution' tag"),
    Case("editions.instructor_notebook-list", lambda: ed.instructor_notebook([]), ModelError, "nb must be"),
    Case("editions.solutions_index-str", lambda: ed.solutions_index("dae"), ModelError, "chapters"),
    Case("editions.solutions_index-nb", lambda: ed.solutions_index([("dae", 3)]), ModelError, "nb must be"),
    Case("editions.write_editions-notoc", lambda: ed.write_editions("/"), ModelError, "no _toc.yml"),
    Case("editions.write_editions-int", lambda: ed.write_editions(3), ModelError, "root and out"),
    Case("editions.for_jupyterlab-str", lambda: ed.for_jupyterlab("x"), ModelError, "nb must be"),
    Case("editions.toc_chapters-notoc", lambda: ed.toc_chapters("/"), ModelError, "_toc.yml"),
    Case("exercises.check_question-label", lambda: ex.check_question("ex-no-such", 1), ModelError,
         "no question labelled 'ex-no-such'"),
    Case("exercises.check_question-int", lambda: ex.check_question(3, 1), ModelError, "no question labelled 3"),
]

COVERED = ["editions.directives", "editions.solution_blocks", "editions.solution_lines", "editions.student_notebook",
           "editions.instructor_notebook", "editions.solutions_index", "editions.write_editions",
           "editions.for_jupyterlab", "editions.toc_chapters", "exercises.check_question"]

EXEMPT: dict = {
    "editions.Editions": "plain result record returned by write_editions",
}

CASES += [
    Case("editions.student_config-notoc", lambda: ed.student_config("/"), ModelError, "no _config.yml"),
    Case("editions.build_student_html-notoc", lambda: ed.build_student_html("/"), ModelError, "no _config.yml"),
]
COVERED += ["editions.student_config", "editions.build_student_html"]
