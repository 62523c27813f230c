"""The measured load of each chapter, for the course plans of ``book/how_to_use.md``.

A chapter's load is what a student has to get through: its **prose** (words of the markdown,
counted exactly as ``../shared/tools/prose_words.py`` counts them), its **code** (the lines of the
code cells a student reads and runs) and its **exercises** by kind.  From these,
:func:`chapter_load` estimates the time in minutes at the stated rates below.

The rates are our assumption for a graduate student *studying* (not skimming) a technical text,
stated so that an instructor can replace them:

* :data:`PROSE_WPM` = 60 words a minute.  Adults read non-fiction silently at about 240 words a
  minute on average (Brysbaert 2019, *J. Memory and Language* 109, 104047); reading in order to
  learn is slower, about 140–200 (Carver 1992, *J. Reading* 36(2), 84–95).  Our count leaves out
  the displayed equations and counts an inline formula as one word, so the time per counted word
  has to cover following the derivations too; we take a quarter of the average rate.
* :data:`SECONDS_PER_CODE_LINE` = 5 s for each non-blank line of a code cell the student sees:
  read it, run the cell and compare its output with the text (about 12 lines a minute).
* :data:`EXERCISE_MINUTES`: 10 min for a concept question (a short answer), 30 min for a
  derivation on paper, 40 min for an implementation exercise (write a function until its check
  cell passes) and 30 min for a "find the misprint" exercise (a derivation with a computation).

Each chapter marks the kind of its exercises by a ``### Concept``, ``### Derivation``,
``### Implementation`` or ``### Find the misprint`` heading above the ``{exercise}`` blocks, or
in the exercise's title ("Concept: ...", "... (concept)"); an exercise marked neither way gets
its kind from its label (``-impl`` implementation, ``-concept`` concept, ``-derive``
derivation, ``-misprint`` misprint) and is otherwise counted as a derivation.

Command line (from the repository root): ``python -m rfda_teach.course`` prints the table
"measured load per chapter" of ``book/how_to_use.md`` and the weekly loads of its course plans;
``python -m rfda_teach.course --write`` writes both into the page (run it after a chapter
changes).

Examples
--------
>>> import json, pathlib, tempfile
>>> nb = {"cells": [
...     {"cell_type": "markdown", "metadata": {}, "source": "# A chapter\\n\\nSome words and $x$."},
...     {"cell_type": "code", "metadata": {}, "source": "x = 1\\n\\nprint(x)"},
...     {"cell_type": "markdown", "metadata": {},
...      "source": "### Concept\\n\\n```{exercise} Why?\\n:label: ex-a\\n\\nSay.\\n```"}],
...     "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "ch.ipynb").write_text(json.dumps(nb))
>>> load = chapter_load(d / "ch.ipynb")
>>> load.prose_words, load.code_lines, load.exercises
(6, 2, (('ex-a', 'concept'),))
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .editions import directives
from .errors import ModelError

__all__ = ["PROSE_WPM", "SECONDS_PER_CODE_LINE", "EXERCISE_MINUTES", "KINDS", "ChapterLoad", "prose_words",
           "chapter_load", "chapter_loads", "exercise_labels", "load_table", "plan_loads", "update_page"]

#: prose words read a minute (our assumption; see the module text)
PROSE_WPM = 50
#: seconds to read and run one non-blank line of a visible code cell (our assumption)
SECONDS_PER_CODE_LINE = 6
#: minutes for one exercise of each kind (our assumption)
EXERCISE_MINUTES = {"concept": 10, "derivation": 30, "implementation": 40, "misprint": 30}
#: the kinds of exercise, in the order the chapters give them
KINDS = tuple(EXERCISE_MINUTES)
#: code cells with one of these tags are not shown to the student, and not counted
HIDDEN_TAGS = {"remove-cell", "solution"}


def prose_words(md: str) -> int:
    """Prose words of a markdown text, counted as ``../shared/tools/prose_words.py`` counts them.

    Display math (``$$...$$``, ``\\begin...\\end``), fenced blocks and directive option lines
    (``:label: ...``) are left out; an inline formula ``$...$`` is one word.

    Parameters
    ----------
    md : str
        Markdown text (the markdown cells of a notebook joined by newlines, or a page).

    Returns
    -------
    int
        The number of words.

    Examples
    --------
    >>> prose_words("The mass $m_i$ of body $i$.\\n\\n$$\\nM = m I\\n$$\\n")
    6
    """
    if not isinstance(md, str):
        raise ModelError(f"course.prose_words: md must be a markdown string, got {type(md).__name__}")
    t = re.sub(r"\$\$.*?\$\$|```.*?```|\\begin\{.*?\\end\{[^}]*\}", " ", md, flags=re.S)
    t = re.sub(r"\$[^$\n]+\$", " formula ", t)
    t = re.sub(r"^\s*:[a-z-]+:.*$", " ", t, flags=re.M)
    return len(re.findall(r"[A-Za-z][A-Za-z'-]+", t))


@dataclass(frozen=True)
class ChapterLoad:
    """The measured load of one chapter.

    Attributes
    ----------
    path : str
        The chapter as ``_toc.yml`` names it (``book/rotations``), or the file given.
    prose_words : int
        Words of prose (:func:`prose_words` of the markdown).
    code_lines : int
        Non-blank lines of the code cells not tagged ``remove-cell`` or ``solution`` (0 for a
        ``.md`` page: its fenced blocks are shown, not run).
    exercises : tuple of (str, str)
        ``(label, kind)`` of every ``{exercise}``, kind one of :data:`KINDS`.

    Examples
    --------
    >>> load = ChapterLoad("book/x", 600, 120, (("ex-a", "concept"), ("ex-b", "implementation")))
    >>> load.reading_minutes, load.exercise_minutes, load.count("concept"), round(load.hours, 2)
    (24.0, 50, 1, 1.23)
    """

    path: str
    prose_words: int
    code_lines: int
    exercises: tuple = ()

    @property
    def reading_minutes(self) -> float:
        """Minutes to study the prose and read and run the code, at the module's rates."""
        return self.prose_words / PROSE_WPM + self.code_lines * SECONDS_PER_CODE_LINE / 60

    @property
    def exercise_minutes(self) -> int:
        """Minutes for every exercise of the chapter, at :data:`EXERCISE_MINUTES`."""
        return sum(EXERCISE_MINUTES[kind] for _, kind in self.exercises)

    @property
    def minutes(self) -> float:
        """Reading plus exercises, in minutes."""
        return self.reading_minutes + self.exercise_minutes

    @property
    def hours(self) -> float:
        """Reading plus exercises, in hours."""
        return self.minutes / 60

    def count(self, kind: str) -> int:
        """The number of exercises of one kind (``"concept"``, ``"derivation"``, ...)."""
        if kind not in EXERCISE_MINUTES:
            raise ModelError(f"ChapterLoad.count: kind must be one of {KINDS}, got {kind!r}")
        return sum(1 for _, k in self.exercises if k == kind)


def _kind_of_text(text: str) -> str | None:
    t = text.lower()
    for key, kind in (("misprint", "misprint"), ("implement", "implementation"), ("concept", "concept"),
                      ("deriv", "derivation")):
        if key in t:
            return kind
    return None


def _kind_of_label(label: str) -> str | None:
    for key, kind in (("-impl", "implementation"), ("-misprint", "misprint"), ("-concept", "concept"),
                      ("-deriv", "derivation")):
        if key in label:
            return kind
    return None


_HEADING = re.compile(r"^(#{1,6})\s+(.*)$", re.M)


def _exercises(cells: list[str]) -> list[tuple[str, str]]:
    """``(label, kind)`` of the ``{exercise}`` blocks of markdown texts read in order."""
    out, heading = [], None
    for text in cells:
        blocks = directives(text, "exercise")
        spans, start = [], 0
        for title, body in blocks:
            at = text.find(body, start) if body else -1
            at = at if at >= 0 else text.find("{exercise}", start)
            spans.append((at, at + len(body)))
            start = max(start, at + 1)
        events = [(m.start(), "h", m) for m in _HEADING.finditer(text)
                  if not any(a <= m.start() < b for a, b in spans)]
        events += [(a, "x", blk) for (a, _), blk in zip(spans, blocks)]
        for _, what, item in sorted(events, key=lambda e: (e[0], e[1])):
            if what == "h":
                level, words = len(item.group(1)), item.group(2)
                if level <= 2:
                    heading = None
                elif level == 3:
                    heading = _kind_of_text(words)
                continue
            title, body = item
            m = re.search(r"^\s*:label:\s*(\S+)", body, flags=re.M)
            label = m.group(1) if m else ""
            kind = (heading or _kind_of_text(title.split(":")[0] if ":" in title else "")
                    or (_kind_of_text(m2.group(1)) if (m2 := re.search(r"\(([^()]*)\)\s*$", title)) else None)
                    or _kind_of_label(label) or ("implementation" if title.lower().startswith("implement")
                                                 else "derivation"))
            out.append((label, kind))
    return out


def _source(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def chapter_load(path, *, name: str | None = None, sections=None) -> ChapterLoad:
    """Measure one chapter: prose words, code lines and exercises by kind.

    Parameters
    ----------
    path : str or Path
        A notebook (``.ipynb``) or a MyST page (``.md``); without a suffix, the notebook if it
        exists, else the page (as ``_toc.yml`` names chapters).
    name : str, optional
        The name to store in :attr:`ChapterLoad.path` (default: ``path`` as given).
    sections : (str, str), optional
        Only the ``## `` sections from the one whose title starts with the first string to the
        one whose title starts with the second, both included (the part of a chapter assigned in
        one week); the text before the first section goes with the first.  Default: all.

    Returns
    -------
    ChapterLoad
        Frozen; its ``reading_minutes``, ``exercise_minutes`` and ``hours`` use the module's rates.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "page.md").write_text("# Page\\n\\nTwo words.\\n\\n```python\\nx = 1\\n```\\n")
    >>> load = chapter_load(d / "page")
    >>> load.prose_words, load.code_lines, load.exercises
    (3, 0, ())
    >>> _ = (d / "two.md").write_text("# T\\n\\n## One\\n\\nAll we need.\\n\\n## Two\\n\\nNone of this here.\\n")
    >>> [chapter_load(d / "two.md", sections=s).prose_words for s in [("One", "One"), ("Two", "Two")]]
    [4, 5]
    """
    p = Path(path)
    if p.suffix not in (".ipynb", ".md"):
        p = next((q for q in (p.with_name(p.name + ".ipynb"), p.with_name(p.name + ".md")) if q.exists()),
                 p.with_name(p.name + ".ipynb"))
    if not p.exists():
        raise ModelError(f"course.chapter_load: no chapter at {p}; give a notebook, a .md page, or the "
                         f"path as _toc.yml names it (book/rotations)")
    if p.suffix == ".md":   # a page's fenced blocks are shown, not run
        items = [("markdown", p.read_text(encoding="utf-8"))]
    else:
        items = [(c["cell_type"], _source(c)) for c in json.loads(p.read_text(encoding="utf-8"))["cells"]
                 if c["cell_type"] == "markdown"
                 or (c["cell_type"] == "code" and not HIDDEN_TAGS & set(c.get("metadata", {}).get("tags", [])))]
    if sections is not None:
        items = _select_sections(items, sections, p)
    md_cells = [text for kind, text in items if kind == "markdown"]
    code = [text for kind, text in items if kind == "code"]
    return ChapterLoad(path=str(path) if name is None else name,
                       prose_words=prose_words("\n".join(md_cells)),
                       code_lines=sum(1 for body in code for ln in body.splitlines() if ln.strip()),
                       exercises=tuple(_exercises(md_cells)))


def _split_sections(items):
    """``[(title, [(cell kind, text), ...]), ...]``: the cells cut at every ``## `` heading
    (outside fences); the part before the first heading has the title ``""``."""
    out = [("", [])]
    for kind, text in items:
        if kind != "markdown":
            out[-1][1].append((kind, text))
            continue
        chunk, fence = [], None
        for line in text.splitlines(keepends=True):
            m = re.match(r"^\s*(`{3,}|:{3,})", line)
            if m and fence is None:
                fence = m.group(1)
            elif m and fence is not None and line.strip() == fence:
                fence = None
            if fence is None and line.startswith("## "):
                if chunk:
                    out[-1][1].append(("markdown", "".join(chunk)))
                out.append((line[3:].strip(), []))
                chunk = []
            chunk.append(line)
        if chunk:
            out[-1][1].append(("markdown", "".join(chunk)))
    return out


def _select_sections(items, sections, p):
    try:
        first, last = sections
    except (TypeError, ValueError):
        raise ModelError(f"course.chapter_load: sections must be (first, last) headings, got {sections!r}") from None
    parts = _split_sections(items)
    titles = [t for t, _ in parts]

    def find(prefix):
        hits = [i for i, t in enumerate(titles) if i and t.lower().startswith(prefix.strip().lower())]
        if not hits:
            raise ModelError(f"course.chapter_load: {p.name} has no '## ' section starting with {prefix!r}; "
                             f"its sections are {titles[1:]}")
        return hits[0]

    i, j = find(first), find(last)
    if j < i:
        raise ModelError(f"course.chapter_load: in {p.name}, section {last!r} comes before {first!r}")
    if i == 1:
        i = 0   # the title, objectives and prerequisites go with the first section
    return [item for _, cells in parts[i:j + 1] for item in cells]


def _toc_files(root: Path) -> list[tuple[str, str]]:
    """``(part caption, file)`` of every chapter and section of ``_toc.yml``, in order."""
    import yaml

    toc_path = root / "_toc.yml"
    if not toc_path.exists():
        raise ModelError(f"course: {root} has no _toc.yml; pass the repository's top folder")
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    out = []

    def walk(entries, caption):
        for e in entries or []:
            if "file" in e:
                out.append((caption, e["file"]))
            walk(e.get("sections"), caption)

    for part in toc.get("parts", []):
        walk(part.get("chapters"), part.get("caption", ""))
    walk(toc.get("chapters"), "")
    return out


def chapter_loads(root=".") -> dict[str, ChapterLoad]:
    """:func:`chapter_load` of every chapter (and optional section) of ``_toc.yml``, in its order.

    Parameters
    ----------
    root : str or Path
        The repository's top folder (the one holding ``_toc.yml``).

    Returns
    -------
    dict of str to ChapterLoad
        Keyed by the chapter's file name without folder, e.g. ``"rotations"``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "_toc.yml").write_text("root: intro\\nparts:\\n  - caption: P\\n    chapters:\\n      - file: a\\n")
    >>> _ = (d / "a.md").write_text("Three short words.")
    >>> chapter_loads(d)["a"].prose_words
    3
    """
    root = Path(root)
    return {Path(f).name: chapter_load(root / f, name=f) for _, f in _toc_files(root)}


def exercise_labels(root=".") -> dict[str, str]:
    """Every ``:label:`` of an ``{exercise}`` of the book's chapters, with its kind.

    Parameters
    ----------
    root : str or Path
        The repository's top folder (the one holding ``_toc.yml``).

    Returns
    -------
    dict of str to str
        ``{label: kind}``, kind one of :data:`KINDS`.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "_toc.yml").write_text("root: intro\\nparts:\\n  - caption: P\\n    chapters:\\n      - file: a\\n")
    >>> _ = (d / "a.md").write_text("### Implementation\\n\\n```{exercise} Do\\n:label: ex-do\\n\\nIt.\\n```\\n")
    >>> exercise_labels(d)
    {'ex-do': 'implementation'}
    """
    return {label: kind for load in chapter_loads(root).values() for label, kind in load.exercises if label}


def load_table(root=".") -> str:
    """The markdown table "measured load per chapter" of ``book/how_to_use.md``.

    One row per chapter of ``_toc.yml``'s parts before the Reference part (and per Reference page
    that sets exercises, such as the errata): prose words, code
    lines, exercises as concept / derivation / implementation / misprint, and the estimated hours
    of reading, of exercises and in all.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "_toc.yml").write_text("root: intro\\nparts:\\n  - caption: P\\n    chapters:\\n      - file: a\\n")
    >>> _ = (d / "a.md").write_text("Three short words.")
    >>> print(load_table(d).splitlines()[-1])
    | `a` | 3 | 0 | 0 / 0 / 0 / 0 | 0.0 | 0.0 | 0.0 |
    """
    root = Path(root)
    loads = chapter_loads(root)
    rows = ["| chapter | prose words | code lines | exercises C / D / I / M | reading h | exercises h | total h |",
            "| --- | ---: | ---: | :---: | ---: | ---: | ---: |"]
    for caption, f in _toc_files(root):
        ld = loads[Path(f).name]
        if caption.lower().rstrip(".").endswith("reference") and not ld.exercises:
            continue
        kinds = " / ".join(str(ld.count(k)) for k in KINDS)
        rows.append(f"| `{Path(f).name}` | {ld.prose_words} | {ld.code_lines} | {kinds} | "
                    f"{ld.reading_minutes / 60:.1f} | {ld.exercise_minutes / 60:.1f} | {ld.hours:.1f} |")
    return "\n".join(rows)


_READ = re.compile(r"\{doc\}`([\w/-]+)`(?:,? sections? \*(.+?)\*(?: to \*(.+?)\*)?)?|(this page)")
_REF = re.compile(r"\{ref\}`(?:[^`<]*<)?([\w-]+)>?`")


def plan_loads(md: str, root=".") -> dict[str, list[tuple[str, float, float]]]:
    """The load of every week of the course plans of a page, from the measured chapters.

    A plan is a ``### `` heading followed by a table whose first column is ``week``; each row
    names its reading by ``{doc}`chapter``` (optionally ``, sections *First* to *Last*``, the
    ``## `` sections of :func:`chapter_load`; "this page" is ``how_to_use``) and its exercises by
    ``{ref}`label```.  Rows without either (a project week) are left out.

    Parameters
    ----------
    md : str
        The page (``book/how_to_use.md``).
    root : str or Path
        The repository's top folder.

    Returns
    -------
    dict of str to list of (str, float, float)
        ``{plan heading: [(week, reading hours, exercise hours), ...]}``.

    Raises
    ------
    ModelError
        When a label is not an exercise of the book, or a chapter or section does not exist.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "_toc.yml").write_text("root: intro\\nparts:\\n  - caption: P\\n    chapters:\\n      - file: a\\n")
    >>> _ = (d / "a.md").write_text("### Concept\\n\\n```{exercise} Why\\n:label: ex-why\\n\\nSay.\\n```\\n")
    >>> page = "### Plan\\n\\n| week | read | exercises |\\n| --- | --- | --- |\\n| 1 | {doc}`a` | {ref}`ex-why` |\\n"
    >>> [(week, round(r, 3), round(e, 3)) for week, r, e in plan_loads(page, d)["Plan"]]
    [('1', 0.0, 0.167)]
    """
    root = Path(root)
    kinds = exercise_labels(root)
    paths = {Path(f).name: f for _, f in _toc_files(root)}
    out, plan, in_table = {}, None, False
    for line in md.splitlines():
        if line.startswith("### "):
            plan, in_table = line[4:].strip(), False
            continue
        cols = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cols is None:
            in_table = False
            continue
        if cols[0].lower() == "week":
            in_table = plan is not None
            out.setdefault(plan, [])
            continue
        if not in_table or set(cols[0]) <= set("-: "):
            continue
        reading = exercises = 0.0
        found = False
        for name, first, last, here in _READ.findall(" ".join(cols[1:2])):
            name = "how_to_use" if here else name
            if name not in paths:
                raise ModelError(f"course.plan_loads: week {cols[0]} of {plan!r} reads {name!r}, not a chapter of _toc.yml")
            ld = chapter_load(root / paths[name], name=paths[name], sections=(first, last or first) if first else None)
            reading += ld.reading_minutes / 60
            found = True
        for label in _REF.findall(" ".join(cols[2:3])):
            if label not in kinds:
                raise ModelError(f"course.plan_loads: week {cols[0]} of {plan!r} assigns {label!r}, which is not "
                                 f"the :label: of an exercise of the book")
            exercises += EXERCISE_MINUTES[kinds[label]] / 60
            found = True
        if found:
            out[plan].append((cols[0], reading, exercises))
    return {k: v for k, v in out.items() if v}


def update_page(root=".") -> Path:
    """Re-generate, in ``book/how_to_use.md``, the table of chapter loads and the hours column
    (``reading + exercises = total``) of every plan row, from the chapters as they are now.

    Returns the page's path.  ``python -m rfda_teach.course --write`` calls it.
    """
    root = Path(root)
    page = root / "book" / "how_to_use.md"
    if not page.exists():
        raise ModelError(f"course.update_page: {root} has no book/how_to_use.md and no _toc.yml; "
                         "pass the repository's top folder")
    for _ in range(3):   # the page is a chapter too: its own word count moves with the table
        s = page.read_text(encoding="utf-8")
        i = s.index("| chapter | prose words |")
        j = s.index("\n\n", i)
        s = s[:i] + load_table(root) + s[j:]
        weeks = {plan: iter(rows) for plan, rows in plan_loads(s, root).items()}
        out, plan = [], None
        for line in s.split("\n"):
            if line.startswith("### "):
                plan = line[4:].strip()
            m = re.search(r"\| [0-9.]+ \+ [0-9.]+ = [0-9.]+ \|$", line)
            if m:
                _, r, e = next(weeks[plan])
                line = line[:m.start()] + f"| {r:.1f} + {e:.1f} = {r + e:.1f} |"
            out.append(line)
        page.write_text("\n".join(out), encoding="utf-8")
    return page


def main(argv=None) -> None:
    """``python -m rfda_teach.course [ROOT]``: print the table of chapter loads and the weekly
    loads of the course plans of ``book/how_to_use.md``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    write = "--write" in argv
    argv = [a for a in argv if a != "--write"]
    root = Path(argv[0] if argv else ".")
    if write:
        print(f"rewrote {update_page(root)}")
    print(load_table(root))
    page = root / "book" / "how_to_use.md"
    if page.exists():
        for plan, weeks in plan_loads(page.read_text(encoding="utf-8"), root).items():
            print(f"\n{plan}: week, reading + exercises = hours")
            for week, r, e in weeks:
                print(f"  {week:>5s}  {r:.1f} + {e:.1f} = {r + e:.1f}")


if __name__ == "__main__":
    main()
