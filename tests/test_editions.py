"""The student and instructor editions (rfda_teach/editions.py), and nbval over the student edition.

The README's test command writes both editions to ``_build/student`` and ``_build/instructor``
(the ``editions`` fixture) and runs every student notebook under nbval (lax): the unsolved
notebooks a class receives are known to run, every stub saying "not implemented yet".  The
static tests fail when solution text, an expected value or a reference computation reaches
the student edition.
"""
from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from bookbuild import ROOT, _build_lock, toc_notebooks
from conftest import FORK_DIR_ENV
from rfda_teach import editions as ed
from rfda_teach.exercises.questions import QUESTIONS, reference_answer

pytestmark = pytest.mark.xdist_group("editions")

SOURCES = [ROOT / "book" / n for n in toc_notebooks()]


@pytest.fixture(scope="session")
def editions(tmp_path_factory):
    """Both editions, written to a folder of this test run's own (or ``$RFDA_EDITIONS_OUT``):
    what the tests read cannot be rewritten under them by another run sharing ``_build``."""
    out = os.environ.get("RFDA_EDITIONS_OUT") or tmp_path_factory.mktemp("editions")
    return ed.write_editions(ROOT, out)


def test_the_editions_are_written_to_build():
    """The README's test command leaves both editions in ``_build/student`` and ``_build/instructor``."""
    with _build_lock(".editions.lock"):       # not the book build's lock: no wait for the build
        e = ed.write_editions(ROOT)
    assert e.student == ROOT / "_build" / "student" and (e.student / "dae.ipynb").exists()
    assert (e.instructor / "solutions.ipynb").exists()


def _student(editions, name):
    return nbformat.read(editions.student / name, as_version=4)


def _text(nb) -> str:
    return "\n".join(c.source for c in nb.cells)


def test_every_solution_block_is_a_tagged_cell_of_its_own():
    """One marking: a {solution} directive lives alone in a markdown cell tagged 'solution'."""
    for path in SOURCES:
        nb = nbformat.read(path, as_version=4)
        for i, c in enumerate(nb.cells):
            if c.cell_type != "markdown":
                continue
            blocks = ed.solution_blocks(c.source)
            if ed.SOLUTION_TAG in c.metadata.get("tags", []):
                assert len(blocks) == 1, f"{path.name} cell {i}: a 'solution' cell holds {len(blocks)} blocks"
                assert not ed.directives(c.source, "exercise"), f"{path.name} cell {i}: exercise in a solution cell"
            else:
                assert not blocks, f"{path.name} cell {i}: a {{solution}} block without the 'solution' tag"


def test_untagged_solution_is_refused():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("```{solution} ex-a\n42\n```")])
    with pytest.raises(ed.ModelError, match="no 'solution' tag"):
        ed.student_notebook(nb, name="x.ipynb")


def test_editions_are_written(editions):
    assert editions.notebooks == len(SOURCES)
    assert editions.solution_blocks >= 100
    assert sorted(p.name for p in editions.student.glob("*.ipynb")) == sorted(p.name for p in SOURCES)
    assert (editions.instructor / "solutions.ipynb").exists()
    assert (editions.student / "notation.md").exists() and (editions.student / "figures").is_dir()
    print(f"stripped {editions.solution_cells} solution cells ({editions.solution_blocks} solution blocks, "
          f"{editions.code_cells} code cells) from {editions.notebooks} notebooks")


def _solution_lines(path: Path) -> list[str]:
    return ed.solution_lines(nbformat.read(path, as_version=4))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_student_edition_holds_no_solution(editions, path):
    nb = _student(editions, path.name)
    text = _text(nb)
    tagged = [i for i, c in enumerate(nb.cells) if ed.SOLUTION_TAG in c.metadata.get("tags", [])]
    assert not tagged, f"cells {tagged} are tagged 'solution'"
    assert not any(ed.solution_blocks(c.source) for c in nb.cells if c.cell_type == "markdown")
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code"), "outputs left in"
    leaked = [s for s in _solution_lines(path) if s in text]
    assert not leaked, f"solution text in the student edition: {leaked[0]!r}"
    # an expected answer or a reference solution kept in the notebook (it belongs in rfda_teach.exercises)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    names = re.findall(r"\b(expected\w*|\w*_solution|solution_\w*|reference_answer)\b", code)
    assert not names, f"reference names in the student edition: {sorted(set(names))}"
    assert "check_answer(" not in code, "check_answer takes the expected value: use check_question(label, answer)"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_question_cells_hold_no_expected_value(editions, path):
    """A question's check cell names the label only; the answer is not written next to it."""
    nb = _student(editions, path.name)
    for c in nb.cells:
        for label in re.findall(r"check_question\(\s*[\"']([\w-]+)[\"']", c.source):
            assert label in QUESTIONS, f"check_question({label!r}): no such question"
            ref = reference_answer(label)
            forms = {repr(ref), str(ref)}
            if isinstance(ref, (tuple, list)):
                forms.add(", ".join(map(str, ref)))
            forms = {f for f in forms if len(f) >= 3}
            shown = [f for f in forms if f in c.source]
            assert not shown, f"{label}: the check cell shows the expected value {shown[0]}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_implementation_stubs_stay_unsolved(editions, path):
    """Every function a checker is called on is, in the student edition, a stub."""
    nb = _student(editions, path.name)
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        for fn in re.findall(r"\bcheck_\w+\((my_\w+)", c.source):
            m = re.search(rf"^def {fn}\(.*?(?=^\S|\Z)", c.source, flags=re.S | re.M)
            if m is None:
                continue                       # defined in an earlier cell
            body = m.group(0)
            assert "raise NotImplementedError" in body or re.search(r"return None\s*$", body, re.M), \
                f"{fn} is not a stub in the student edition"


def test_solutions_index_holds_every_solution(editions):
    index = nbformat.read(editions.instructor / "solutions.ipynb", as_version=4)
    text = _text(index)
    labels = set()
    for path in SOURCES:
        nb = nbformat.read(path, as_version=4)
        for c in nb.cells:
            if c.cell_type == "markdown":
                labels |= {lab.split()[0] for lab, _ in ed.solution_blocks(c.source) if lab}
    missing = [lab for lab in sorted(labels) if f"### {lab}:" not in text]
    assert not missing, f"solutions missing from the index: {missing}"


def test_citations_read_author_year_in_jupyterlab(editions):
    text = _text(_student(editions, "dae.ipynb"))
    assert "{cite" not in text
    assert "Deepak and Ghosal (2008)" in text
    assert _student(editions, "dae.ipynb").cells[0].source.startswith(ed.FRONT_MATTER)


# nbval runs over the student notebooks in N_CHUNKS pytest runs (one start-up per chunk, not per
# notebook), each chunk an xdist group of its own, so the two workers share them
N_CHUNKS = 6
CHUNKS = [[p.name for p in SOURCES][k::N_CHUNKS] for k in range(N_CHUNKS)]


def _nbval_kernel() -> list[str]:
    """nbval's kernel: the forked ``python3`` kernel when the test command serves one
    (tests/conftest.py, tests/forkkernel.py), else a kernel of this Python."""
    if os.environ.get(FORK_DIR_ENV):
        return ["--nbval-kernel-name", "python3"]
    return ["--nbval-current-env"]


@functools.lru_cache(maxsize=None)
def _nbval_chunk(student: Path, k: int):
    """nbval (lax) over chunk ``k`` of the student notebooks in one pytest run; its JUnit report
    gives each cell's outcome, read per notebook below."""
    import xml.etree.ElementTree as ET

    report = student / f"nbval-report-{k}.xml"
    names = CHUNKS[k]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
                           "-p", "no:hypothesispytest", "-p", "no:xdist",
                           "--nbval-lax", *_nbval_kernel(), f"--junitxml={report}", *names],
                          cwd=student, capture_output=True, text=True, timeout=1200)
    cells: dict[str, list[tuple[str, str]]] = {n: [] for n in names}
    if report.exists():
        for case in ET.parse(report).iter("testcase"):
            cls = case.get("classname") or ""          # "<dotted folders>.<name>.ipynb"
            key = cls[:-len(".ipynb")].split(".")[-1] + ".ipynb" if cls.endswith(".ipynb") else None
            bad = case.find("failure") if case.find("failure") is not None else case.find("error")
            if key in cells:
                cells[key].append((case.get("name"), "" if bad is None else (bad.get("message") or "")[:2000]))
    return proc, cells


@pytest.mark.parametrize("k, name", [
    pytest.param(k, name, marks=pytest.mark.xdist_group(f"nbval{k}"), id=name[:-6])
    for k, chunk in enumerate(CHUNKS) for name in chunk])
def test_student_notebook_runs_under_nbval(editions, k, name):
    """nbval (lax) over the unsolved notebook a student receives: every cell runs."""
    proc, cells = _nbval_chunk(editions.student, k)
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert cells[name], f"nbval reported no cell of {name}:\n{tail}"
    failed = [(cell, msg) for cell, msg in cells[name] if msg]
    assert not failed, f"{name}: {len(failed)} cell(s) failed, first {failed[0][0]}: {failed[0][1]}"
    print(f"{name}: nbval {len(cells[name])} cells passed")


@pytest.mark.parametrize("k", [pytest.param(k, marks=pytest.mark.xdist_group(f"nbval{k}"))
                               for k in range(N_CHUNKS)])
def test_student_nbval_run_passed_as_a_whole(editions, k):
    proc, cells = _nbval_chunk(editions.student, k)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert all(cells.values()), f"no cell reported for {[n for n, c in cells.items() if not c]}"


def test_every_notebook_is_in_one_nbval_chunk():
    assert sorted(n for c in CHUNKS for n in c) == sorted(p.name for p in SOURCES)


def test_source_notebooks_are_valid_json():
    for path in SOURCES:
        json.loads(path.read_text())
