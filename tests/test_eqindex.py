"""The equation index (book/equation_index.md): up to date, every tagged equation tested, no bare citation.

DESIGN.md, Notation: "Equation tags name their paper: ``# D&G eq. (43)``, ``# C&A eq. (60)``,
``# K&Y eq. (28)``, ``# Kane eq. (38)``; the book's equation index page is built from them."
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rfda_teach import eqindex
from rfda_teach.errors import ModelError, RFDAError

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "run `python -m rfda_teach.eqindex --write` from the repository root and commit the page"

#: tagged equations that no test can check, with the reason (none today: write the test instead)
UNTESTABLE: dict = {}


@pytest.fixture(scope="module")
def cites():
    return eqindex.package_citations(ROOT)


def test_the_committed_page_is_what_the_generator_writes():
    page = ROOT / "book" / "equation_index.md"
    assert page.exists(), f"book/equation_index.md is missing: {REGENERATE}"
    assert page.read_text(encoding="utf-8") == eqindex.index_page(ROOT), f"the equation index is stale: {REGENERATE}"


def test_the_page_is_in_the_reference_part_of_the_toc():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    reference = toc[toc.index("caption: Reference"):]
    assert "file: book/equation_index" in reference


def test_no_citation_in_the_package_lacks_its_paper(cites):
    bare = [f"{c.path}:{c.line}: {c.text!r} (in {c.where})" for c in cites if c.paper is None]
    assert not bare, ("equation citations without their paper; write `D&G eq. (N)`, `Kane eq. (N)`, "
                      "`K&Y eq. (N)` or `C&A eq. (N)`:\n" + "\n".join(bare))


def test_every_tagged_equation_has_a_test(cites):
    tests = eqindex.checking_tests(ROOT, cites)
    tested = {k for k, v in tests.items() if v}
    untested = sorted({(c.paper, c.equation) for c in cites if c.paper} - tested - set(UNTESTABLE))
    where = {k: sorted({c.where for c in cites if (c.paper, c.equation) == k}) for k in untested}
    assert not untested, ("tagged equations that no test checks (call the function from its mirror test "
                          "module, or cite the tagged equation in the test that checks it):\n"
                          + "\n".join(f"{p} eq. ({e}): {', '.join(where[(p, e)])}" for p, e in untested))
    gone = [k for k in UNTESTABLE if tests.get(k)]
    assert not gone, f"equations in UNTESTABLE that now have a test (remove them): {gone}"


def test_all_four_papers_have_equations_in_the_index(cites):
    counts = {p: len({c.equation for c in cites if c.paper == p}) for p in eqindex.PAPERS}
    assert all(n >= 20 for n in counts.values()), counts


SYNTHETIC = '''"""Module text: D&G eq. (8)-(10) and the notes' eq. 3."""
import numpy as np

MESSAGE = "eq. (7) in a string literal is what the code prints, not a citation"


class Solver:
    """Kane eq. 9, 42 and C&A eq. (36)/(66)."""

    def step(self):
        """One step.

        >>> Solver().step()          # K&Y eq. (24)
        'eq. (5) in the expected output'
        >>> s = "# D&G eq. (60) inside a string"
        """
        x = 1   # eq. (8), 2nd line; RBDA eq. (7.3) is another book
        return "eq. (5) in the expected output"


def f():
    # C&A eq. 26-27, 34-35 and eq. (55), (51) and (53)
    pass
'''


def test_the_parser_on_a_small_source():
    got = [(c.paper, c.equation, c.where, c.line) for c in eqindex.citations_in_source(SYNTHETIC, module="m")]
    assert got == [
        ("D&G", "8", "m", 1), ("D&G", "9", "m", 1), ("D&G", "10", "m", 1), (None, "3", "m", 1),
        ("Kane", "9", "m.Solver", 8), ("Kane", "42", "m.Solver", 8),
        ("C&A", "36", "m.Solver", 8), ("C&A", "66", "m.Solver", 8),
        ("K&Y", "24", "m.Solver.step", 13),
        (None, "8", "m.Solver.step", 17),
        ("C&A", "26", "m.f", 22), ("C&A", "27", "m.f", 22), ("C&A", "34", "m.f", 22), ("C&A", "35", "m.f", 22),
        (None, "55", "m.f", 22), (None, "51", "m.f", 22), (None, "53", "m.f", 22),
    ]


def test_equation_numbers_and_named_papers():
    assert eqindex.equations("(9)–(12)") == ["9", "10", "11", "12"]
    assert eqindex.equations("1-3, 59") == ["1", "2", "3", "59"]
    assert eqindex.equations("(3a)") == ["3a"]
    line = "as in eq. (24) of Kang & Yoon, not Kane's eq. (24)"
    assert eqindex.named_paper(line, line.index("eq.")) == "K&Y"
    assert eqindex.named_paper(line, line.rindex("eq.")) == "Kane"
    assert eqindex.named_paper("the D&G eq. (7) and eq. (3)", 20) is None   # a tag names its own citation


def _tiny_repo(tmp_path: Path) -> Path:
    (tmp_path / "_toc.yml").write_text("root: book/intro\n")
    (tmp_path / "rfda_teach").mkdir()
    (tmp_path / "rfda_teach" / "__init__.py").write_text("")
    (tmp_path / "rfda_teach" / "dae.py").write_text(
        'def forward_dynamics():\n    """Solve D&G eq. (7)."""\n    return _solve()\n\n\n'
        'def _solve():\n    return 1                     # D&G eq. (6)\n')
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_dae.py").write_text(
        "from rfda_teach import dae\n\n\ndef test_fd():\n    assert dae.forward_dynamics() == 1\n")
    (tmp_path / "book").mkdir()
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "The DAE, eq. (7)."}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "book" / "dae.ipynb").write_text(json.dumps(nb))
    return tmp_path


def test_write_check_and_the_command_line_on_a_tiny_repository(tmp_path, capsys):
    root = _tiny_repo(tmp_path)
    assert eqindex.stale_page(root)
    assert eqindex.main(["--check", str(root)]) == 1
    assert eqindex.main(["--write", str(root)]) == 0
    assert not eqindex.stale_page(root) and eqindex.main(["--check", str(root)]) == 0
    page = (root / "book" / "equation_index.md").read_text()
    assert ("**(7)**\n: code `dae.forward_dynamics`\n: tests `test_dae.py::test_fd`\n"
            ": taught in {doc}`dae`\n") in page
    assert "**(6)**\n: code `dae._solve`\n: tests `test_dae.py::test_fd`\n: taught in —\n" in page     # through its public caller
    assert "0 equations cited." in page                                  # Kane, K&Y, C&A
    (root / "rfda_teach" / "dae.py").write_text((root / "rfda_teach" / "dae.py").read_text() + "# D&G eq. (3)\n")
    assert eqindex.stale_page(root) and eqindex.main(["--check", str(root)]) == 1
    assert "out of date" in capsys.readouterr().out


def test_bad_input_says_what_where_and_what_to_do(tmp_path):
    with pytest.raises(ModelError, match=r"no rfda_teach/ package .* pass the repository's top folder"):
        eqindex.index_page(tmp_path / "nowhere")
    with pytest.raises(ModelError, match=r"bad\.py is not valid Python \(line 1"):
        eqindex.citations_in_source("def (:\n", module="bad", path="rfda_teach/bad.py")
    with pytest.raises(ModelError, match="unknown option"):
        eqindex.main(["--frobnicate"])
    assert issubclass(ModelError, RFDAError)
