"""The book's Sphinx extension (rfda_teach/_bookext.py): numbered references resolved with each
target page unpickled once per build, and the same output as Sphinx's own resolution."""
from __future__ import annotations

import collections

import pytest

sphinx_app = pytest.importorskip("sphinx.application")

PAGES = {
    "index.rst": "Book\n====\n\n.. toctree::\n\n   a\n   b\n",
    "a.rst": "A\n=\n\n.. _fig-a:\n\n.. figure:: x.png\n\n   The first figure.\n",
    "b.rst": "B\n=\n\n" + "".join(f"See :numref:`fig-a` ({i}).\n\n" for i in range(3)),
}


def _build(tmp_path, extensions):
    """Build the three pages to HTML; return page b and how often each page was unpickled."""
    from sphinx.environment import BuildEnvironment

    src = tmp_path / "src"
    src.mkdir(parents=True)
    for name, text in PAGES.items():
        (src / name).write_text(text)
    (src / "x.png").write_bytes(b"")
    (src / "conf.py").write_text(f"extensions = {extensions!r}\nnumfig = True\n")
    loads = collections.Counter()
    original = BuildEnvironment.get_doctree

    def counted(self, docname):
        loads[docname] += 1
        return original(self, docname)

    BuildEnvironment.get_doctree = counted
    try:
        app = sphinx_app.Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"),
                                "html", status=None, warning=None, freshenv=True)
        app.build()
    finally:
        BuildEnvironment.get_doctree = original
    return (tmp_path / "out" / "b.html").read_text(encoding="utf-8"), loads


def test_numbered_references_load_their_page_once(tmp_path):
    plain, plain_loads = _build(tmp_path / "plain", [])
    kept, kept_loads = _build(tmp_path / "kept", ["rfda_teach._bookext"])
    assert plain.count("Fig. 1") == kept.count("Fig. 1") == 3
    assert plain_loads["a"] - kept_loads["a"] == 2       # three references, one unpickling
