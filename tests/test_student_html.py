"""The student HTML book: ``python -m rfda_teach.editions --html``, the same book with sphinx-exercise's
``hide_solutions`` (issue 20, item 2).

It reuses the public build's execution cache, so it waits for that build (``build_book``) and runs
after it, on whichever worker is free (its own xdist group; ``tests/conftest.py`` puts it after the
unit tests).  It has a lock of its own: it writes only ``_build/student_html`` and may run beside the
PDF's LaTeX build.
"""
import re

import pytest

from bookbuild import ROOT, build_book
from test_book import NOTEBOOKS

pytestmark = pytest.mark.xdist_group("student_html")


@pytest.fixture(scope="module")
def build():
    return build_book()             # the shared build (cached in this worker)


def test_student_html_book_holds_no_solution(build):
    """``python -m rfda_teach.editions --html``: the same book with sphinx-exercise's
    ``hide_solutions``; the public book keeps its solution dropdowns."""
    import html as html_lib

    import nbformat

    from bookbuild import _build_lock
    from rfda_teach import editions

    assert build.returncode == 0, build.log[-3000:]
    with _build_lock(".student_html.lock"):
        html = editions.build_student_html(ROOT)
    shipped = sorted(p.relative_to(html).as_posix() for p in html.rglob("*.ipynb"))
    assert not shipped, f"a source notebook (it holds the solutions) in the student book: {shipped[:3]}"
    public = (build.html / "book" / "dae.html").read_text(encoding="utf-8")
    assert "Solution to" in public
    for notebook in NOTEBOOKS:
        page = (html / "book" / notebook.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        assert "Solution to" not in page, f"{notebook}: a solution block in the student book"
        assert "download" not in page.lower() or ".ipynb" not in page, f"{notebook}: a download link"
        nb = nbformat.read(ROOT / "book" / notebook, as_version=4)
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        lines = [s for s in editions.solution_lines(nb)
                 if s in code       # a solution cell's code, or a sentence of prose (not a formula):
                 or len(re.findall(r"\b[a-z]{3,}\b", re.sub(r"\\[A-Za-z]+|\$[^$]*\$", " ", s))) >= 6]
        text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", page)).split())
        leaked = [s for s in lines if " ".join(s.split()) in text]
        assert not leaked, f"{notebook}: solution text in the student book: {leaked[0]!r}"
