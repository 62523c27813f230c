"""Sphinx extension for the book: author-year labels in the reference list; exercise labels in the PDF.

The text cites author-year ("Deepak and Ghosal [2008]", ``bibtex_reference_style:
author_year``); pybtex's built-in styles label the list alphabetically ([DG08]) or by number.
This registers a pybtex formatting style ``authoryear`` (the ``unsrt`` formatting, sorted by
author, year and title) whose labels are "Deepak and Ghosal 2008", "Lubich et al. 1992",
so the list and the text use one style.  Enabled in ``_config.yml``
(``sphinx.extra_extensions``) with ``bibtex_default_style: authoryear``.

>>> from pybtex.database import Entry, Person
>>> e = Entry("article", fields={"year": "2008"},
...           persons={"author": [Person("Deepak, S. R."), Person("Ghosal, A.")]})
>>> next(AuthorYearLabelStyle().format_labels([e]))
'Deepak and Ghosal 2008'
"""
from __future__ import annotations

from pybtex.style.formatting.unsrt import Style as _Unsrt
from pybtex.style.labels import BaseLabelStyle


class AuthorYearLabelStyle(BaseLabelStyle):
    """Label "Last 2008", "Last and Other 2008", "Last et al. 2008" (a, b for duplicates)."""

    def label(self, entry) -> str:
        persons = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [" ".join(p.last_names) or " ".join(p.first_names) for p in persons]
        names = [n.replace("{", "").replace("}", "") for n in names]
        if not names:
            who = entry.fields.get("key", entry.key)
        elif len(names) == 1:
            who = names[0]
        elif len(names) == 2:
            who = f"{names[0]} and {names[1]}"
        else:
            who = f"{names[0]} et al."
        return f"{who} {entry.fields.get('year', 'n.d.')}"

    def format_labels(self, sorted_entries):
        labels = [self.label(e) for e in sorted_entries]
        seen: dict[str, int] = {}
        for label in labels:
            if labels.count(label) > 1:
                seen[label] = seen.get(label, 0) + 1
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            else:
                yield label


class AuthorYearStyle(_Unsrt):
    default_label_style = "authoryear"
    default_sorting_style = "author_year_title"


def _exercise_latex_label(visit):
    """sphinx-exercise labels an exercise ``exercise:<label>`` in LaTeX, which its own
    same-page references use; a ``{ref}`` from another page points at Sphinx's
    ``<docname>:<label>``, which was never written (an undefined reference in the PDF).
    Write that label too."""
    def visit_with_label(self, node):
        from sphinx.writers.latex import LaTeXTranslator

        label = node.attributes.get("label")
        entry = getattr(self.builder.env, "sphinx_exercise_registry", {}).get(label)
        if isinstance(self, LaTeXTranslator) and label and entry and entry.get("docname"):
            # before the admonition opens: its next argument is the title
            self.body.append(r"\phantomsection\label{\detokenize{%s:%s}}" % (entry["docname"], label))
        visit(self, node)
    return visit_with_label


def _remove_tagged_cells(app, doctree):
    """Drop from the page every notebook cell carrying one of the tags in ``rfda_remove_cell_tags``
    (the student HTML book: its ``solution`` code cells).  The notebooks stay unchanged, so their
    executions come from the shared cache; myst-nb marks a cell's tags as ``tag_<tag>`` classes."""
    from docutils import nodes

    drop = {f"tag_{t}" for t in app.config.rfda_remove_cell_tags}
    if not drop:
        return
    for node in list(doctree.findall(nodes.container)):
        if "cell" in node["classes"] and drop & set(node["classes"]) and node.parent is not None:
            node.parent.remove(node)


def _numref_domain():
    """The standard domain, with each ``{numref}`` target looked up in a doctree unpickled once.

    Sphinx's ``StandardDomain._resolve_numref_xref`` reads only the target node (its type and
    ids, for the figure or section number) but unpickles the target's whole document for every
    reference (``env.get_doctree``): the book's 178 numrefs unpickled notebook doctrees 178 times
    when resolving references, in every builder.  This class hands the same method an ``env``
    whose ``get_doctree`` returns one unpickled copy per document, kept for reading only (the
    copy never leaves this lookup); everything else is Sphinx's code, so the result is the same."""
    from sphinx.domains.std import StandardDomain

    class _ReadOnlyDoctrees:
        def __init__(self, env, cache):
            self._env, self._cache = env, cache

        def __getattr__(self, name):
            return getattr(self._env, name)

        def get_doctree(self, docname):
            if docname not in self._cache:
                self._cache[docname] = self._env.get_doctree(docname)
            return self._cache[docname]

    class NumrefStandardDomain(StandardDomain):
        _numref_doctrees: dict | None = None

        def _resolve_numref_xref(self, env, fromdocname, builder, typ, target, node, contnode):
            if self._numref_doctrees is None:
                self._numref_doctrees = {}
            return super()._resolve_numref_xref(_ReadOnlyDoctrees(env, self._numref_doctrees),
                                                fromdocname, builder, typ, target, node, contnode)

        def clear_numref_doctrees(self, *args):
            self._numref_doctrees = None

    return NumrefStandardDomain


def _clear_numref_doctrees(app, *args):
    """Forget the unpickled numref targets once documents may be read again or the build ends."""
    clear = getattr(app.env.get_domain("std"), "clear_numref_doctrees", None)
    if clear is not None:
        clear()


def setup(app):
    import os

    import pybtex.plugin

    from .panel import STATIC_ENV

    # the kernels that execute the chapters inherit it: each panel.show also writes its static face
    os.environ[STATIC_ENV] = "1"
    from sphinx_exercise import nodes as ex_nodes

    for node, visit, depart in ((ex_nodes.exercise_node, ex_nodes.visit_exercise_node, ex_nodes.depart_exercise_node),
                                (ex_nodes.exercise_enumerable_node, ex_nodes.visit_exercise_enumerable_node,
                                 ex_nodes.depart_exercise_enumerable_node)):
        app.add_node(node, override=True, latex=(_exercise_latex_label(visit), depart))

    app.add_config_value("rfda_remove_cell_tags", [], "env")
    app.connect("doctree-read", _remove_tagged_cells)
    app.add_domain(_numref_domain(), override=True)
    app.connect("env-before-read-docs", _clear_numref_doctrees)
    app.connect("build-finished", _clear_numref_doctrees)
    pybtex.plugin.register_plugin("pybtex.style.labels", "authoryear", AuthorYearLabelStyle)
    pybtex.plugin.register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
