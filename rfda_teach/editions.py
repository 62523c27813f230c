"""Student and instructor editions of the book's notebooks, from one source.

Solution material is marked in the source notebooks by the cell tag ``solution``: every
```` ```{solution} ```` block is a markdown cell of its own with that tag, and so is every code
cell that holds a solution or checks one (those cells also carry ``remove-cell``, so the
rendered book hides them).  Expected answers of short questions are not in the notebooks at all:
they live in :mod:`rfda_teach.exercises` (see :mod:`rfda_teach.exercises.questions`).

* The **student edition** (``_build/student/``) is every chapter of ``_toc.yml`` with the
  ``solution`` cells removed by nbconvert's ``TagRemovePreprocessor`` and every output cleared
  (``ClearOutputPreprocessor``); implementation stubs stay unsolved and each check cell says
  "not implemented yet" on them.  Writing it fails (:class:`~rfda_teach.errors.ModelError`)
  when a ``{solution}`` directive is found in a cell without the tag.
* The **instructor edition** (``_build/instructor/``) is every chapter in full, plus
  ``solutions.ipynb``: every exercise of the book, chapter by chapter, with its solution.

Both editions are for JupyterLab with ``jupyterlab-myst``: the first markdown cell of each
notebook gets MyST front matter that turns off automatic equation numbering (the text cites
the papers' numbers), and citations ``{cite:t}`key``` / ``{cite}`key``` are written as
author–year text, since JupyterLab has no bibliography.  The pages (``.md``), figures and
``references.bib`` are copied beside the notebooks so that ``{doc}`` links resolve.

Command line (the README's test command runs it through ``tests/test_editions.py``)::

    python -m rfda_teach.editions            # writes _build/student and _build/instructor
    python -m rfda_teach.editions --out DIR  # elsewhere
    python -m rfda_teach.editions --html     # and the student HTML book, _build/student_html

The student HTML book is the public book built with sphinx-exercise's ``hide_solutions``, its
``solution`` code cells removed (not only collapsed) and no download button; it shares the
public build's execution cache.

Examples
--------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[
...     nbformat.v4.new_markdown_cell("# Title"),
...     nbformat.v4.new_markdown_cell("```{solution} ex-a\\n42\\n```", metadata={"tags": ["solution"]}),
...     nbformat.v4.new_code_cell("answer = None")])
>>> [c.cell_type for c in student_notebook(nb).cells]
['markdown', 'code']
>>> student_notebook(nb).cells[0].source.splitlines()[:3]
['---', 'numbering: false', '---']
"""
from __future__ import annotations

import argparse
import copy
import functools
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .errors import ModelError

__all__ = ["SOLUTION_TAG", "directives", "solution_blocks", "solution_lines", "student_notebook", "instructor_notebook",
           "for_jupyterlab", "solutions_index", "toc_chapters", "write_editions", "Editions", "student_config",
           "build_student_html"]

#: the cell tag that marks solution material in the source notebooks
SOLUTION_TAG = "solution"

#: MyST front matter for JupyterLab: no automatic equation numbers beside the papers' numbers
FRONT_MATTER = "---\nnumbering: false\n---\n"


@functools.lru_cache(maxsize=1)
def _markdown_parser():
    """One parser for every text (building one took 0.9 ms; a parser keeps no state between texts)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.colon_fence import colon_fence_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    return MarkdownIt("commonmark").use(colon_fence_plugin).use(dollarmath_plugin).use(amsmath_plugin)


def _text(source, what: str, where: str) -> str:
    if not isinstance(source, str):
        raise ModelError(f"editions.{where}: {what} must be a markdown string, got {type(source).__name__}")
    return source


def _notebook(nb, where: str):
    """``nb`` must be an nbformat notebook (``nbformat.read(path, as_version=4)``)."""
    cells = getattr(nb, "cells", None)
    if not isinstance(cells, list) or not all(isinstance(c, dict) and "cell_type" in c for c in cells):
        raise ModelError(f"editions.{where}: nb must be a notebook read with nbformat.read(path, as_version=4), "
                         f"got {type(nb).__name__}")
    return nb


def directives(source: str, name: str) -> list[tuple[str, str]]:
    """``(argument, body)`` of every top-level MyST directive ``{name}`` in a markdown text,
    found by markdown-it's parser (backtick and colon fences).

    >>> directives("```{exercise} Title\\n:label: ex-a\\n\\nDo it.\\n```", "exercise")
    [('Title', ':label: ex-a\\n\\nDo it.\\n')]
    """
    source = _text(source, "source", "directives")
    if not isinstance(name, str) or not name.isidentifier():
        raise ModelError(f"editions.directives: name must be a directive name such as 'exercise', got {name!r}")
    return [(head[len(name) + 2:].strip(), body) for head, body in _fences(source)
            if head.startswith("{" + name + "}")]


@functools.lru_cache(maxsize=4096)
def _fences(source: str) -> tuple[tuple[str, str], ...]:
    """(info, content) of every top-level fence of a markdown text, parsed once per text: writing
    both editions asks about each cell several times (solution blocks, exercises, untagged blocks)."""
    return tuple((tok.info.strip(), tok.content) for tok in _markdown_parser().parse(source)
                 if tok.level == 0 and tok.type in ("fence", "colon_fence"))


def solution_blocks(source: str) -> list[tuple[str, str]]:
    """``(label, body)`` of every ``{solution}`` directive of a markdown text."""
    return directives(source, "solution")


def solution_lines(nb, *, min_length: int = 40) -> list[str]:
    """Distinctive lines of a notebook's ``solution`` cells: at least ``min_length`` characters,
    not a directive option, fence or import, and found in no other cell, not even inside a longer
    line (a stub's signature that the solution repeats is not solution text).  What must never reach the student edition.

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[
    ...     nbformat.v4.new_code_cell("def my_f(x):\\n    raise NotImplementedError"),
    ...     nbformat.v4.new_code_cell("def my_f(x):\\n    return x + 1  # the solution, written out",
    ...                               metadata={"tags": ["solution"]})])
    >>> solution_lines(nb, min_length=10)
    ['return x + 1  # the solution, written out']
    """
    _notebook(nb, "solution_lines")
    other = "\n".join(" ".join(c.source.split()) for c in nb.cells if SOLUTION_TAG not in _tags(c))
    out = []
    for c in nb.cells:
        if SOLUTION_TAG not in _tags(c):
            continue
        for ln in c.source.splitlines():
            s = ln.strip()
            if (len(s) >= min_length and " ".join(s.split()) not in other
                    and not s.startswith((":", "```", "import ", "from "))):
                out.append(s)
    return out


def _tags(cell) -> set:
    return set(cell.get("metadata", {}).get("tags", []))


def _untagged_solutions(nb, name: str) -> None:
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and SOLUTION_TAG not in _tags(cell) and solution_blocks(cell.source):
            raise ModelError(f"editions: {name}, cell {i} holds a {{solution}} block but has no "
                             f"'{SOLUTION_TAG}' tag; put the block in a markdown cell of its own "
                             f"tagged '{SOLUTION_TAG}'")


# ----------------------------------------------------------------------------- JupyterLab

_CITE = re.compile(r"\{cite(?::(t|p))?\}`([^`]+)`")


def _bib_labels(bib: Path) -> dict[str, tuple[str, str]]:
    """key -> (authors, year) from the book's BibTeX file, as the rendered book labels them."""
    from pybtex.database import parse_file

    from ._bookext import AuthorYearLabelStyle

    entries = parse_file(str(bib)).entries
    style = AuthorYearLabelStyle()
    out = {}
    for key, entry in entries.items():
        label = style.label(entry)
        who, _, year = label.rpartition(" ")
        out[key] = (who, year)
    return out


def _author_year(source: str, labels: dict) -> str:
    """``{cite:t}`a``` -> "A and B (2008)", ``{cite}`a,b``` -> "(A and B 2008; C 1999)"."""
    def one(m: re.Match) -> str:
        keys = [k.strip() for k in m.group(2).split(",")]
        found = [labels.get(k, (k, "")) for k in keys]
        if m.group(1) == "t":
            return "; ".join(f"{who} ({year})" if year else who for who, year in found)
        return "(" + "; ".join(f"{who} {year}".strip() for who, year in found) + ")"
    return _CITE.sub(one, source)


def for_jupyterlab(nb, labels: dict | None = None):
    """A copy of ``nb`` that reads well in JupyterLab with jupyterlab-myst: equation numbering
    off (front matter in the first markdown cell) and citations as author–year text."""
    nb = copy.deepcopy(_notebook(nb, "for_jupyterlab"))
    for cell in nb.cells:
        if cell.cell_type == "markdown" and labels is not None:
            cell.source = _author_year(cell.source, labels)
    first = next((c for c in nb.cells if c.cell_type == "markdown"), None)
    if first is not None and not first.source.startswith("---\n"):
        first.source = FRONT_MATTER + first.source
    return nb


# ----------------------------------------------------------------------------- editions

def student_notebook(nb, *, name: str = "notebook", labels: dict | None = None):
    """The student edition of one notebook: no ``solution`` cell, no output."""
    from nbconvert.preprocessors import ClearOutputPreprocessor, TagRemovePreprocessor

    _untagged_solutions(_notebook(nb, "student_notebook"), name)
    nb = copy.deepcopy(nb)
    remove = TagRemovePreprocessor(remove_cell_tags={SOLUTION_TAG}, enabled=True)
    nb, _ = remove.preprocess(nb, {})
    nb, _ = ClearOutputPreprocessor().preprocess(nb, {})
    return for_jupyterlab(nb, labels)


def instructor_notebook(nb, *, name: str = "notebook", labels: dict | None = None):
    """The instructor edition of one notebook: everything, solutions included."""
    _untagged_solutions(_notebook(nb, "instructor_notebook"), name)
    return for_jupyterlab(nb, labels)


_OPTION = re.compile(r"^:[\w-]+:.*\n?", flags=re.M)


def _exercises_in_order(nb) -> list[dict]:
    """The exercises of a chapter in order, each with its label, title, statement and the
    solution material that follows it: its ``{solution}`` blocks and the ``solution`` code cells
    up to the next exercise (a code cell belongs to the exercise above it)."""
    out: list[dict] = []
    by_label: dict[str, dict] = {}
    for cell in nb.cells:
        tags = _tags(cell)
        if cell.cell_type == "markdown":
            for title, body in directives(cell.source, "exercise"):
                m = re.search(r"^:label:\s*(\S+)", body, flags=re.M)
                label = m.group(1) if m else f"(unlabelled {len(out) + 1})"
                ex = {"label": label, "title": title, "statement": _OPTION.sub("", body).strip(),
                      "parts": []}
                out.append(ex)
                by_label[label] = ex
            if SOLUTION_TAG in tags:
                for label, body in solution_blocks(cell.source):
                    label = label.split()[0] if label else ""
                    target = by_label.get(label) or (out[-1] if out else None)
                    if target is not None:
                        target["parts"].append(("markdown", _OPTION.sub("", body).strip()))
        elif SOLUTION_TAG in tags and out:
            out[-1]["parts"].append(("code", cell.source.strip()))
    return out


def solutions_index(chapters: list[tuple[str, object]]):
    """One notebook holding every solution of the book: per chapter, each exercise (label, title
    and statement), then its solution text and the code that solves or checks it, shown as code
    blocks (they run inside their chapter, which defines the variables they use)."""
    import nbformat

    if not isinstance(chapters, (list, tuple)) or not all(
            isinstance(c, (list, tuple)) and len(c) == 2 and isinstance(c[0], str) for c in chapters):
        raise ModelError("editions.solutions_index: chapters must be a list of (name, notebook) pairs")
    for _, nb in chapters:
        _notebook(nb, "solutions_index")
    cells = [nbformat.v4.new_markdown_cell(
        FRONT_MATTER + "# Solutions (instructor edition)\n\nEvery exercise of the book with its "
        "solution, chapter by chapter, in the order of the book.  Code is shown as it stands in the "
        "chapter, where it runs (it uses the chapter's variables); where a solution says \"the hidden "
        "cell below\" or \"expand it\", that cell is the code shown after it.  The student edition "
        "(`_build/student/`) holds none of this.")]
    for stem, nb in chapters:
        exercises = _exercises_in_order(nb)
        if not exercises:
            continue
        cells.append(nbformat.v4.new_markdown_cell(f"## {stem}\n\nChapter notebook: [{stem}.ipynb]({stem}.ipynb)"))
        for ex in exercises:
            text = [f"### {ex['label']}: {ex['title']}", "", "**Exercise.** " + ex["statement"], ""]
            if not ex["parts"]:
                text.append("*No written solution: the check cell in the chapter is the answer key.*")
            for kind, body in ex["parts"]:
                if kind == "markdown":
                    text += ["**Solution.** " + body, ""]
                else:
                    text += ["**Code** (solution, or the book's check of it):", "", "```python", body, "```", ""]
            cells.append(nbformat.v4.new_markdown_cell("\n".join(text).rstrip() + "\n"))
    return nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}})


@dataclass(frozen=True)
class Editions:
    """What :func:`write_editions` wrote: the two folders and the counts it stripped."""

    student: Path
    instructor: Path
    notebooks: int
    solution_blocks: int     # {solution} directives removed from the student edition
    solution_cells: int      # cells tagged 'solution' removed (markdown and code)
    code_cells: int          # of those, code cells


def toc_chapters(root: Path) -> list[Path]:
    """The notebooks listed in ``_toc.yml``, in the book's order."""
    root = Path(root)
    if not (root / "_toc.yml").exists():
        raise ModelError(f"editions.toc_chapters: {root} has no _toc.yml; pass the repository's top folder")
    files = re.findall(r"(?:file|root):\s*(\S+)", (root / "_toc.yml").read_text())
    return [root / (f + ".ipynb") for f in files if (root / (f + ".ipynb")).exists()]


def _copy_pages(book: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for page in book.glob("*.md"):
        shutil.copy2(page, dest / page.name)
    for extra in ("references.bib",):
        if (book / extra).exists():
            shutil.copy2(book / extra, dest / extra)
    if (book / "figures").is_dir():
        shutil.copytree(book / "figures", dest / "figures", dirs_exist_ok=True)


def write_editions(root: str | Path = ".", out: str | Path | None = None) -> Editions:
    """Write ``<out>/student`` and ``<out>/instructor`` (default ``<root>/_build``)."""
    import nbformat

    if not isinstance(root, (str, Path)) or (out is not None and not isinstance(out, (str, Path))):
        raise ModelError("editions.write_editions: root and out must be folder paths (str or pathlib.Path)")
    root = Path(root).resolve()
    if not (root / "_toc.yml").exists():
        raise ModelError(f"editions.write_editions: {root} has no _toc.yml; pass the repository's top folder")
    out = Path(out).resolve() if out is not None else root / "_build"
    student, instructor = out / "student", out / "instructor"
    bib = root / "book" / "references.bib"
    labels = _bib_labels(bib) if bib.exists() else {}
    n_blocks = n_cells = n_code = 0
    chapters = []
    for d in (student, instructor):
        shutil.rmtree(d, ignore_errors=True)
        _copy_pages(root / "book", d)
    for path in toc_chapters(root):
        nb = nbformat.read(path, as_version=4)
        sol = [c for c in nb.cells if SOLUTION_TAG in _tags(c)]
        n_cells += len(sol)
        n_code += sum(c.cell_type == "code" for c in sol)
        n_blocks += sum(len(solution_blocks(c.source)) for c in sol if c.cell_type == "markdown")
        nbformat.write(student_notebook(nb, name=path.name, labels=labels), student / path.name)
        nbformat.write(instructor_notebook(nb, name=path.name, labels=labels), instructor / path.name)
        chapters.append((path.stem, nb))
    nbformat.write(for_jupyterlab(solutions_index(chapters), labels), instructor / "solutions.ipynb")
    return Editions(student, instructor, len(chapters), n_blocks, n_cells, n_code)


def student_config(root: str | Path = ".") -> dict:
    """``_config.yml`` for the student HTML book: sphinx-exercise's ``hide_solutions`` on, no
    download button and no copy of the sources in ``_sources/`` (the source notebooks hold the
    solutions), the execution cache shared with the public build (nothing runs twice)."""
    import yaml

    root = Path(root).resolve()
    if not (root / "_config.yml").exists():
        raise ModelError(f"editions.student_config: {root} has no _config.yml; pass the repository's top folder")
    cfg = yaml.safe_load((root / "_config.yml").read_text())
    cfg["title"] = cfg.get("title", "") + " (student edition)"
    cfg.setdefault("execute", {})["cache"] = str(root / "_build" / ".jupyter_cache")
    sphinx_cfg = cfg.setdefault("sphinx", {}).setdefault("config", {})
    sphinx_cfg["hide_solutions"] = True
    sphinx_cfg["rfda_remove_cell_tags"] = [SOLUTION_TAG]    # solution code cells: rfda_teach._bookext
    sphinx_cfg.setdefault("html_theme_options", {})["use_download_button"] = False
    sphinx_cfg["html_copy_source"] = False   # no _sources/: the source notebooks hold the solutions
    return cfg


def build_student_html(root: str | Path = ".", out: str | Path | None = None) -> Path:
    """Build the student HTML book (no solution anywhere) into ``<out>`` (default
    ``<root>/_build/student_html``) with ``jupyter-book build``; return the folder of its pages.

    The source is an unchanged copy of the book in ``<out>/src`` (so the shared execution cache
    serves every notebook: nothing runs again), built with :func:`student_config`, whose
    ``rfda_remove_cell_tags`` makes the book's Sphinx extension drop every cell tagged
    ``solution`` from the pages."""
    import subprocess
    import sys

    import yaml

    root = Path(root).resolve()
    cfg = student_config(root)
    out = Path(out).resolve() if out is not None else root / "_build" / "student_html"
    src = out / "src"
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(out / "_build" / "html", ignore_errors=True)   # no page or file of an earlier build
    shutil.copytree(root / "book", src / "book", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy2(root / "_toc.yml", src / "_toc.yml")
    (src / "_config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True))
    cmd = [sys.executable, "-c", "import sys; from jupyter_book.cli.main import main; sys.exit(main())",
           "build", str(src), "--path-output", str(out), "-W", "-n", "--keep-going",
           "--all"]          # a fresh Sphinx environment: a label moved between chapters leaves no stale copy
    proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ModelError("editions.build_student_html: jupyter-book failed:\n" + proc.stdout[-3000:]
                         + proc.stderr[-2000:])
    return out / "_build" / "html"


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m rfda_teach.editions", description=__doc__.split("\n")[0])
    p.add_argument("--root", default=".", help="the repository's top folder (with _toc.yml)")
    p.add_argument("--out", default=None, help="where to write student/ and instructor/ (default ROOT/_build)")
    p.add_argument("--html", action="store_true",
                   help="also build the student HTML book (solutions hidden) into OUT/student_html")
    a = p.parse_args(argv)
    e = write_editions(a.root, a.out)
    print(f"student edition: {e.student} ({e.notebooks} notebooks; removed {e.solution_cells} solution cells: "
          f"{e.solution_blocks} solution blocks, {e.code_cells} code cells)")
    print(f"instructor edition: {e.instructor} ({e.notebooks} notebooks + solutions.ipynb)")
    if a.html:
        out = Path(a.out).resolve() / "student_html" if a.out else None
        print(f"student HTML book: {build_student_html(a.root, out)}/index.html")


if __name__ == "__main__":
    main()
