"""The equation index: which function implements which equation of which paper, which test checks it.

Every equation the package cites carries its paper in a tag (DESIGN.md, Notation): ``D&G``
(Deepak & Ghosal 2008), ``Kane`` (the Kane notes), ``K&Y`` (Kang & Yoon 2003) or ``C&A``
(Critchley & Anderson) directly before ``eq. (N)``; a range or a list keeps one tag,
``eq. (N)-(M)`` or ``eq. N, M``.  This module reads those tags and writes the book's
page ``book/equation_index.md``, one definition list per paper.  It reads, and never imports, the code:

* **where** (:func:`package_citations`): the comments and docstrings of ``rfda_teach/**/*.py``
  (not the other string literals, and not a doctest's expected output), each citation with the
  function or class around it (found with :mod:`ast`; a module-level citation names the module);
* **which tests** (:func:`checking_tests`): a test function of ``tests/test_*.py`` checks a cited
  function when it calls it by name (``rfda.forward_dynamics(...)`` or ``forward_dynamics(...)``)
  in the test module that mirrors the function's module (``tests/test_rfda.py`` for
  ``rfda_teach/rfda.py``, ``tests/test_exercises*.py`` for ``rfda_teach/exercises/``) or as
  ``<module>.<function>`` in any test module; a private helper is checked by the tests of the
  functions of its own module that call it; a module-level citation is checked by the mirror
  module's tests that cite the same equation; and any test whose docstring or comments carry
  the same tag (a comment ``# D&G eq. (N)``) checks that equation, and so does a test of the
  mirror module citing the same number bare (the mirror follows its module's paper); an exercise
  checker (``check_*``) is checked by the mirror tests that run every checker through
  ``exercises.CHECKERS``;
* **which chapter** (:func:`chapter_citations`): a notebook ``book/*.ipynb`` teaches an
  equation when one of its cells cites it.  Notebooks mostly write a bare ``eq. (N)``: the paper
  is the one named on the same line (a tag, or "Kang and Yoon's" before it), else the
  chapter's own paper from :data:`CHAPTER_PAPERS` (the chapters of Part I and the Foundations
  chapters built on Deepak & Ghosal's equations: D&G; ``kane*``: Kane; ``refpoint*``: K&Y;
  ``closed_loops*``: C&A); a bare citation in any other chapter is not counted.

Command line, from the repository root: ``python -m rfda_teach.eqindex --write`` regenerates the
page; ``python -m rfda_teach.eqindex --check`` exits with status 1 when the committed page
differs from what the code and tests give now (``tests/test_eqindex.py`` runs the same check).

Examples
--------
>>> src = '''
... def method_2(M, E, D):
...     \"\"\"Method 2, eq. (42)-(44).\"\"\"
...     A = solve(D.T @ M @ D, D.T @ M @ E)   # D&G eq. (42)
...     return E + D @ A                      # D&G eq. (43)
... '''
>>> for c in citations_in_source(src, module="coordinates"):
...     print(c.paper, c.equation, c.where, c.line)
None 42 coordinates.method_2 3
None 43 coordinates.method_2 3
None 44 coordinates.method_2 3
D&G 42 coordinates.method_2 4
D&G 43 coordinates.method_2 5
"""
from __future__ import annotations

import ast
import io
import json
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

from .errors import ModelError

__all__ = ["PAPERS", "PAPER_TITLES", "OTHER_SOURCES", "CHAPTER_PAPERS", "TESTS_SHOWN", "CITATION", "Citation",
           "equations", "named_paper", "citations_in_source", "package_citations", "checking_tests",
           "chapter_citations", "index_page", "write_page", "stale_page", "main"]

#: the four papers, by tag, in the order of the page's sections
PAPERS = ("D&G", "Kane", "K&Y", "C&A")
#: what each tag stands for (the papers are under ``../shared/papers/``; see the references page)
PAPER_TITLES = {
    "D&G": "Deepak & Ghosal (2008), the special coordinates of RFDA",
    "Kane": "the Kane notes, relative coordinates with Euler parameters (the eight-body tree)",
    "K&Y": "Kang & Yoon (2003), the analysis reference point",
    "C&A": "Critchley & Anderson, the generalized RCR (the five-bar)",
}
#: tags of other sources an equation may be cited from (left out of the index, never "untagged")
OTHER_SOURCES = ("RBDA", "Featherstone", "Haug", "Pinocchio")

#: tests named per equation on the page (the closest first; the rest are counted)
TESTS_SHOWN = 3

#: the paper of a chapter's bare ``eq. (N)``, by the notebook's name (a prefix ends in ``*``)
CHAPTER_PAPERS = {
    # Foundations chapters that derive Deepak & Ghosal's equations (6), (1)-(3), (7), (58)-(61)
    "rigid_body": "D&G", "joints": "D&G", "constrained": "D&G", "jointspace": "D&G",
    # Part I
    "dae": "D&G", "recursion*": "D&G", "elimination": "D&G", "featherstone": "D&G", "revolute_pair": "D&G",
    "methods": "D&G", "standard_forms": "D&G", "seeing*": "D&G", "general_tree*": "D&G",
    # Part II
    "kane*": "Kane", "refpoint*": "K&Y", "closed_loops*": "C&A",
}

_NUM_P = r"\(\d+(?:\.\d+)?[a-z]?\)"
_NUM_B = r"\d+(?:\.\d+)?[a-z]?(?!\w)"
_SEP = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*/\s*)"
_LIST_P = rf"{_NUM_P}(?:\s*[-–]\s*{_NUM_P})?(?:{_SEP}{_NUM_P}(?:\s*[-–]\s*{_NUM_P})?)*"
_LIST_B = rf"{_NUM_B}(?:\s*[-–]\s*{_NUM_B})?(?:{_SEP}{_NUM_B}(?:\s*[-–]\s*{_NUM_B})?)*"
_TAGS = "|".join(re.escape(t) for t in PAPERS + OTHER_SOURCES)
#: one citation: an optional tag, ``eq.``/``eqs.``/``Eq.``, then one number, a range or a list
CITATION = re.compile(rf"(?<![\w&])(?:(?P<tag>{_TAGS})(?:'s)?\s+)?(?P<kw>[Ee]qs?\.)\s*(?P<nums>{_LIST_P}|{_LIST_B})")

_NAMES = {   # a paper named in prose (a tag directly before "eq." names its own citation only)
    "D&G": r"\bD&G(?!\s+[Ee]qs?\.)|\bDeepak\b|\bGhosal\b",
    "Kane": r"\bKane\b(?!\s+[Ee]qs?\.)|\bthe notes\b|\bnotes'",
    "K&Y": r"\bK&Y(?!\s+[Ee]qs?\.)|\bKang\b|\bYoon\b",
    "C&A": r"\bC&A(?!\s+[Ee]qs?\.)|\bCritchley\b|\bAnderson\b",
}


@dataclass(frozen=True)
class Citation:
    """One equation cited at one place: ``paper`` is None for a bare ``eq. (N)`` (no tag).

    ``qualname`` names the innermost function or class around the citation ("" at module level);
    ``where`` is ``module.qualname`` (``coordinates.TreeCoordinates.Lambda``) or the module alone;
    ``text`` is the citation as written and ``line`` its line in ``path``.
    """
    paper: str | None
    equation: str
    module: str
    qualname: str
    path: str
    line: int
    text: str

    @property
    def where(self) -> str:
        return f"{self.module}.{self.qualname}" if self.qualname else self.module


def equations(nums: str) -> list[str]:
    """The equation numbers of a citation's number part: ``"(8)-(10)"`` gives 8, 9, 10.

    Ranges of whole numbers are expanded (at most 40 equations); a list keeps its order.

    Examples
    --------
    >>> equations("(8)-(10)"), equations("26-27, 34-35"), equations("(36)/(66)")
    (['8', '9', '10'], ['26', '27', '34', '35'], ['36', '66'])
    """
    if not isinstance(nums, str):
        raise ModelError(f"eqindex.equations: nums must be a str such as '(8)-(10)', got {type(nums).__name__}")
    out = []
    for item in re.finditer(r"\(?(\d+(?:\.\d+)?[a-z]?)\)?(?:\s*[-–]\s*\(?(\d+(?:\.\d+)?[a-z]?)\)?)?", nums):
        a, b = item.group(1), item.group(2)
        if b and a.isdigit() and b.isdigit() and 0 < int(b) - int(a) <= 40:
            out.extend(str(n) for n in range(int(a), int(b) + 1))
        else:
            out.extend([a] + ([b] if b else []))
    return out


def named_paper(text: str, pos: int) -> str | None:
    """The paper named in ``text`` nearest to position ``pos`` (before or after it), or None.

    A tag directly before ``eq.`` names its own citation, not the text around it.

    Examples
    --------
    >>> line = "Kang and Yoon's B_j1 of eq. (25) and Kane's [A]"
    >>> named_paper(line, line.index("eq.")), named_paper("the DAE of eq. (7)", 11)
    ('K&Y', None)
    """
    if not isinstance(text, str) or isinstance(pos, bool) or not isinstance(pos, int):
        raise ModelError("eqindex.named_paper: text must be a str and pos an int position in it, got "
                         f"{type(text).__name__} and {type(pos).__name__}")
    best = None
    for paper, pattern in _NAMES.items():
        for m in re.finditer(pattern, text):
            d = pos - m.end() if m.end() <= pos else m.start() - pos
            if best is None or abs(d) < best[0]:
                best = (abs(d), paper)
    return best[1] if best else None


# ----------------------------------------------------------------------------- reading the source

def _segments(source: str, tree: ast.Module) -> list[tuple[int, int, int, str]]:
    """``(line, col_from, col_to, kind)`` of the comment and docstring text of a module, lines from 1.

    A doctest's source lines contribute their comment only and its expected output nothing: that
    text is what the code prints, not a citation."""
    lines = source.splitlines()
    segs = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            segs.append((tok.start[0], tok.start[1], tok.end[1], "comment"))
    for node, _name in _defs(tree):
        body = node.body
        if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            continue
        c = body[0].value
        example: list[tuple[int, int, str]] = []          # (line, column of the code, code)
        output = False
        for ln in range(c.lineno, c.end_lineno + 1):
            text = lines[ln - 1]
            a = c.col_offset if ln == c.lineno else 0
            b = c.end_col_offset if ln == c.end_lineno else len(text)
            prompt = re.match(r"\s*(>>>|\.\.\.)( |$)", text[a:b])
            if prompt and (prompt.group(1) == ">>>" or example):
                example.append((ln, a + prompt.end(), text[a + prompt.end():b]))
                continue
            if example:
                segs += _example_comments(example)
                example, output = [], True
            if output and text[a:b].strip():
                continue                                        # expected output, up to a blank line
            output = False
            segs.append((ln, a, b, "docstring"))
        segs += _example_comments(example)
    return sorted(segs)


def _example_comments(example: list[tuple[int, int, str]]) -> list[tuple[int, int, int, str]]:
    """The comments of a doctest example's code (a ``#`` inside a string of the example is not one)."""
    code = "\n".join(t for _, _, t in example) + "\n"
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                ln, col, _ = example[tok.start[0] - 1]
                out.append((ln, col + tok.start[1], col + tok.end[1], "docstring"))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        for ln, col, t in example:                              # not complete code: a # after a blank
            hash_at = re.search(r"\s#", t)
            if hash_at:
                out.append((ln, col + hash_at.start() + 1, col + len(t), "docstring"))
    return out


def _defs(tree: ast.Module):
    """``(node, qualname)`` of the module and of every function and class in it, statements only."""
    out = [(tree, "")]

    def walk(stmts, prefix):
        for node in stmts:
            name = prefix
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}.{node.name}" if prefix else node.name
                out.append((node, name))
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    walk(inner, name)

    walk(tree.body, "")
    return out


def _owners(tree: ast.Module) -> list[tuple[int, int, str]]:
    """``(first line, last line, qualname)`` of every function and class, outer ones first."""
    return [(min([n.lineno] + [d.lineno for d in n.decorator_list]), n.end_lineno, name)
            for n, name in _defs(tree)[1:]]


def _parse(source, module: str, path: str) -> ast.Module:
    if not isinstance(source, str):
        raise ModelError(f"eqindex: the source of {path} must be a str (the text of a .py file), "
                         f"got {type(source).__name__}")
    if not isinstance(module, str) or not module:
        raise ModelError(f"eqindex: module must be a non-empty str such as 'coordinates', got {module!r}")
    try:
        return ast.parse(source)
    except SyntaxError as exc:
        raise ModelError(f"eqindex: {path} is not valid Python (line {exc.lineno}: {exc.msg}); "
                         "fix the file before indexing its equations") from None


def citations_in_source(source: str, *, module: str, path: str = "<string>") -> list[Citation]:
    """Every equation cited in the comments and docstrings of one module's source, in source order.

    ``module`` is the module's name inside the package (``"coordinates"``, ``"exercises.kane"``);
    a bare ``eq. (N)`` gives a :class:`Citation` with ``paper`` None, a citation of another
    source (``RBDA eq. (7.3)``) none.  Raises :class:`~rfda_teach.errors.ModelError` for a
    source that is not a str or not valid Python.

    Examples
    --------
    >>> src = "# K&Y eq. (24), (33)\\nclass A:\\n    def f(self):\\n        '''Kane eq. 9, 42.'''\\n"
    >>> [(c.paper, c.equation, c.where, c.line) for c in citations_in_source(src, module="m")]
    [('K&Y', '24', 'm', 1), ('K&Y', '33', 'm', 1), ('Kane', '9', 'm.A.f', 4), ('Kane', '42', 'm.A.f', 4)]
    """
    return _citations(source, _parse(source, module, path), module, path)


def _citations(source: str, tree: ast.Module, module: str, path: str) -> list[Citation]:
    """:func:`citations_in_source` of a source already parsed into ``tree``."""
    lines = source.splitlines()
    owners = _owners(tree)
    out = []
    for ln, a, b, _kind in _segments(source, tree):
        for m in CITATION.finditer(lines[ln - 1][a:b]):
            tag = m.group("tag")
            if tag in OTHER_SOURCES:
                continue
            inside = [o for o in owners if o[0] <= ln <= o[1]]
            qualname = inside[-1][2] if inside else ""
            for eq in equations(m.group("nums")):
                out.append(Citation(tag, eq, module, qualname, path, ln, m.group(0)))
    return out


def _root(root) -> Path:
    if isinstance(root, bool) or not isinstance(root, (str, Path)):
        raise ModelError(f"eqindex: root must be a path (str or pathlib.Path), got {type(root).__name__}")
    root = Path(root)
    if not (root / "rfda_teach").is_dir() or not (root / "_toc.yml").exists():
        raise ModelError(f"eqindex: {root} has no rfda_teach/ package and _toc.yml; pass the repository's "
                         "top folder (the one with _toc.yml), or run from there")
    return root


_CACHE: dict = {}


def _file_citations(path: Path, module: str, label: str) -> tuple[str, ast.Module | None, list[Citation]]:
    """(source, tree or None, citations) of one file, cached while the file is unchanged."""
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size, module, label)
    if key not in _CACHE:
        source = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            tree = None
        cites = _citations(source, tree, module, label) if tree is not None else []
        _CACHE[key] = (source, tree, cites)
    return _CACHE[key]


def _module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root / "rfda_teach").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "rfda_teach"


def package_citations(root=".") -> list[Citation]:
    """:func:`citations_in_source` over every module of ``<root>/rfda_teach``, modules in path order.

    Examples
    --------
    >>> cites = package_citations(".")
    >>> any(c.paper == "D&G" and c.equation == "7" and c.where.startswith("dae") for c in cites)
    True
    """
    root = _root(root)
    out = []
    for path in sorted((root / "rfda_teach").rglob("*.py")):
        label = path.relative_to(root).as_posix()
        source, tree, cites = _file_citations(path, _module_name(root, path), label)
        if tree is None:
            _parse(source, _module_name(root, path), label)         # raises, saying where
        out += cites
    return out


# ----------------------------------------------------------------------------- the tests

def _called_names(node: ast.AST) -> set[str]:
    """Names and attributes a piece of code uses (``f``, ``mod.f`` gives ``f`` and ``mod.f``)."""
    names = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, ast.Attribute):
            names.add(n.attr)
            if isinstance(n.value, ast.Name):
                names.add(f"{n.value.id}.{n.attr}")
    return names


def _signature(paths) -> tuple:
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)


def _test_functions(root: Path):
    """``(test file name, test name, names it uses, equations it cites)`` of every test."""
    paths = sorted((root / "tests").glob("test_*.py"))
    key = ("tests", _signature(paths))
    if key not in _CACHE:
        _CACHE[key] = _read_tests(paths)
    return _CACHE[key]


def _read_tests(paths):
    out = []
    for path in paths:
        _source, tree, found = _file_citations(path, path.stem, path.name)
        if tree is None:
            continue
        cites = {(c.paper, c.equation, c.line) for c in found}
        helpers = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("test")}
        helper_names: dict[str, set[str]] = {}                  # walked once per helper, not per test
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                used = _called_names(node)
                for h in used & set(helpers):                    # a module-level helper the test calls
                    if h not in helper_names:
                        helper_names[h] = _called_names(helpers[h])
                    used |= helper_names[h]
                eqs = {(p, e) for p, e, ln in cites if node.lineno <= ln <= node.end_lineno}
                out.append((path.name, node.name, used, eqs))
    return out


def _module_callers(root: Path) -> dict[str, dict[str, set[str]]]:
    """Per package module: function name -> the names of the module's functions that call it,
    directly or through others (so a private helper is reached from the public functions that use it)."""
    paths = sorted((root / "rfda_teach").rglob("*.py"))
    key = ("callers", str(root.resolve()), _signature(paths))
    if key not in _CACHE:
        _CACHE[key] = _read_callers(root, paths)
    return _CACHE[key]


def _read_callers(root: Path, paths) -> dict[str, dict[str, set[str]]]:
    out = {}
    for path in paths:
        _source, tree, _cites = _file_citations(path, _module_name(root, path), path.relative_to(root).as_posix())
        if tree is None:
            continue
        called_by: dict[str, set[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                called_by.setdefault(node.name, set())
                for used in _called_names(node):
                    called_by.setdefault(used, set()).add(node.name)
        callers = {}
        for f in {n.name for n in ast.walk(tree)
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}:
            seen, todo = {f}, [f]
            while todo:
                for g in called_by.get(todo.pop(), ()):
                    if g not in seen:
                        seen.add(g)
                        todo.append(g)
            callers[f] = seen
        out[_module_name(root, path)] = callers
    return out


def _mirrors(module: str) -> tuple[str, ...]:
    """The test files that mirror a package module (DESIGN.md: tests mirror modules)."""
    top = module.split(".")[0]
    if top == "exercises":
        return ("test_exercises.py", "test_exercises_slips.py", "test_questions.py")
    return (f"test_{top}.py",)


def checking_tests(root=".", citations=None) -> dict[tuple[str, str], list[str]]:
    """``{(paper, equation): ["test_file.py::test_name", ...]}``: the tests that check each tagged equation.

    See the module text for the rules.  The closest tests come first: those citing the equation,
    then those calling a function that cites it, then those reaching it through another function.
    ``citations`` defaults to :func:`package_citations`.

    Examples
    --------
    >>> links = checking_tests(".")
    >>> any("test_rfda.py::" in t for t in links[("D&G", "9")])
    True
    """
    root = _root(root)
    if citations is not None and (not isinstance(citations, (list, tuple))
                                  or not all(isinstance(c, Citation) for c in citations)):
        raise ModelError("eqindex.checking_tests: citations must be a list of Citation (from "
                         f"package_citations), got {type(citations).__name__}; or leave it out")
    cites = package_citations(root) if citations is None else citations
    tests = _test_functions(root)
    callers = _module_callers(root)
    by_code: dict[tuple[str, str], dict[str, int]] = {}        # (module, function) -> {test: strength}
    for mod, top_name in {(c.module, c.qualname.split(".")[0]) for c in cites if c.paper and c.qualname}:
        stem = mod.split(".")[-1]
        users = callers.get(mod, {}).get(top_name, {top_name})
        public = {u for u in users if not u.startswith("_")} or users
        dotted = {f"{stem}.{u}" for u in public}
        hits = by_code.setdefault((mod, top_name), {})
        mirrors = _mirrors(mod)
        for tfile, tname, used, _eqs in tests:
            mirror = tfile in mirrors
            if (mirror and top_name in used) or f"{stem}.{top_name}" in used:
                hits[f"{tfile}::{tname}"] = 1                   # it calls the citing function
            elif (mirror and used & public) or used & dotted or (
                    mirror and top_name.startswith("check_") and "CHECKERS" in used):
                hits[f"{tfile}::{tname}"] = 2                   # through a caller, or every checker
    citing: dict[tuple, list[tuple[str, str]]] = {}              # (paper or None, eq) -> tests citing it
    for tfile, tname, _used, eqs in tests:
        for e in eqs:
            citing.setdefault(e, []).append((tfile, tname))
    found: dict[tuple[str, str], dict[str, int]] = {}
    for c in cites:
        if not c.paper:
            continue
        key = (c.paper, c.equation)
        hits = found.setdefault(key, {})
        for name, strength in by_code.get((c.module, c.qualname.split(".")[0]), {}).items():
            hits[name] = min(strength, hits.get(name, 3))
        mirrors = _mirrors(c.module)
        for tfile, tname in citing.get(key, []) + [t for t in citing.get((None, c.equation), []) if t[0] in mirrors]:
            hits[f"{tfile}::{tname}"] = 0                       # the test cites the equation
    return {k: sorted(v, key=lambda t: (v[t], t)) for k, v in found.items()}


# ----------------------------------------------------------------------------- the chapters

def _chapter_paper(name: str) -> str | None:
    for pattern, paper in CHAPTER_PAPERS.items():
        if name == pattern or (pattern.endswith("*") and name.startswith(pattern[:-1])):
            return paper
    return None


def chapter_citations(root=".") -> dict[tuple[str, str], list[str]]:
    """``{(paper, equation): [notebook name, ...]}``: the chapters (``book/*.ipynb``) citing each equation.

    Examples
    --------
    >>> "dae" in chapter_citations(".")[("D&G", "7")]
    True
    """
    root = _root(root)
    found: dict[tuple[str, str], set[str]] = {}
    for path in sorted((root / "book").glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        except (ValueError, KeyError) as exc:
            raise ModelError(f"eqindex: {path} is not a notebook ({exc}); repair or remove it") from None
        default = _chapter_paper(path.stem)
        for cell in cells:
            src = cell.get("source", "")
            for line in ("".join(src) if isinstance(src, list) else src).splitlines():
                for m in CITATION.finditer(line):
                    tag = m.group("tag")
                    paper = tag or named_paper(line, m.start()) or default
                    if paper in PAPERS:
                        for eq in equations(m.group("nums")):
                            found.setdefault((paper, eq), set()).add(path.stem)
    return {k: sorted(v) for k, v in found.items()}


# ----------------------------------------------------------------------------- the page

def _eq_key(eq: str):
    m = re.match(r"(\d+)(.*)", eq)
    return (int(m.group(1)), m.group(2)) if m else (10 ** 6, eq)


def index_page(root=".") -> str:
    """The text of ``book/equation_index.md``: one definition list per paper, from the code, tests and notebooks.

    Examples
    --------
    >>> page = index_page(".")
    >>> page.splitlines()[0], "## D&G: " + PAPER_TITLES["D&G"] in page
    ('# Equation index', True)
    """
    root = _root(root)
    cites = package_citations(root)
    tests = checking_tests(root, cites)
    chapters = chapter_citations(root)
    out = ["# Equation index", "",
           "*Optional. Adds where each equation of the papers lives in the code and which tests",
           "check it; for readers of the code or of the papers (no chapter needs it).*", "",
           "Every equation of the four papers that the package `rfda_teach` cites, where it is",
           "implemented or used (`module.function` inside `rfda_teach`), the tests that check it and",
           "the chapters that teach it.  The code tags each citation with its paper (`D&G eq. (43)`,",
           "`Kane eq. (38)`, `K&Y eq. (28)`, `C&A eq. (60)`); the page is generated from those tags",
           "by `python -m rfda_teach.eqindex --write`, and `tests/test_eqindex.py` fails when it is",
           "out of date, when a tagged equation has no test, or when a citation has no tag.",
           "",
           "A test checks an equation when it calls a function that cites it (directly or through",
           "the module's private helpers) or cites the same tagged equation itself.  A chapter",
           "teaches it when one of its cells cites it; the chapters' own paper is read from the",
           "chapter (Part I: Deepak & Ghosal; `kane*`: Kane; `refpoint*`: Kang & Yoon;",
           "`closed_loops*`: Critchley & Anderson) unless the text names another.", ""]
    for paper in PAPERS:
        eqs = sorted({c.equation for c in cites if c.paper == paper}, key=_eq_key)
        out += [f"## {paper}: {PAPER_TITLES[paper]}", "",
                f"{len(eqs)} equations cited.", ""]
        if not eqs:
            continue
        for eq in eqs:          # a definition list, not a table: long names wrap in the text column
            here = [c for c in cites if c.paper == paper and c.equation == eq]
            where = sorted({c.where for c in here if c.qualname}) or sorted({c.where for c in here})
            tst = tests.get((paper, eq), [])
            shown = ", ".join(f"`{t}`" for t in tst[:TESTS_SHOWN]) or "—"
            if len(tst) > TESTS_SHOWN:
                shown += f" and {len(tst) - TESTS_SHOWN} more"
            chs = chapters.get((paper, eq), [])
            out += [f"**({eq})**",
                    f": code {', '.join(f'`{w}`' for w in where)}",
                    f": tests {shown}",
                    f": taught in {', '.join(f'{{doc}}`{c}`' for c in chs) or '—'}", ""]
    return "\n".join(out)


def write_page(root=".") -> Path:
    """Write :func:`index_page` to ``<root>/book/equation_index.md``; return the path."""
    root = _root(root)
    page = root / "book" / "equation_index.md"
    page.write_text(index_page(root), encoding="utf-8")
    return page


def stale_page(root=".") -> bool:
    """True when ``<root>/book/equation_index.md`` is missing or differs from :func:`index_page`.

    Examples
    --------
    >>> stale_page(".")            # the committed page is up to date
    False
    """
    root = _root(root)
    page = root / "book" / "equation_index.md"
    return not page.exists() or page.read_text(encoding="utf-8") != index_page(root)


def main(argv=None) -> int:
    """``python -m rfda_teach.eqindex [--write | --check] [ROOT]``: print, write or check the page."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not all(isinstance(a, str) for a in argv):
        raise ModelError(f"eqindex.main: argv must be a list of str, got {argv!r}")
    flags = {a for a in argv if a.startswith("--")}
    if flags - {"--write", "--check"}:
        raise ModelError(f"eqindex.main: unknown option(s) {sorted(flags - {'--write', '--check'})}; "
                         "use --write (regenerate book/equation_index.md) or --check (fail when it is stale)")
    rest = [a for a in argv if not a.startswith("--")]
    root = rest[0] if rest else "."
    if "--write" in flags:
        print(f"wrote {write_page(root)}")
        return 0
    if "--check" in flags:
        if stale_page(root):
            print("book/equation_index.md is out of date: run python -m rfda_teach.eqindex --write")
            return 1
        print("book/equation_index.md is up to date")
        return 0
    print(index_page(root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
