"""How a record describes itself: the one-line ``repr`` and the notebook table.

Every model record (:class:`~rfda_teach.system.System`, :class:`~rfda_teach.kane.KaneSystem`,
:class:`~rfda_teach.refpoint.Model`, :class:`~rfda_teach.loops.LoopMechanism`,
:class:`~rfda_teach.loops.LoopSeries`) prints one line and shows, in a notebook, that line above a
folded table (IPython's ``_repr_html_``); every result record (``RFDAResult``, ``DAEResult``,
the trajectories, ...) prints one line of sizes and the few scalars a reader wants, never a whole
array.  The three helpers here are the pieces those methods share.

Examples
--------
>>> from rfda_teach import models
>>> sys = models.figure1_tree()
>>> count_by_kind(jt.type for jt in sys.joints)
'13 revolute2d'
>>> html_table(repr(sys), ("body",), [(i,) for i in range(sys.n)], "bodies").count("<tr>")
14
"""

from __future__ import annotations

import html

import numpy as np

__all__ = ["count_by_kind", "html_table", "samples"]


def count_by_kind(kinds) -> str:
    """How many of each kind, in the order the kinds first appear: the joints of a model's one-line repr
    (e.g. :meth:`rfda_teach.system.System.__repr__`).

    Examples
    --------
    >>> count_by_kind(["revolute", "revolute", "prismatic"])
    '2 revolute + 1 prismatic'
    >>> count_by_kind([])
    ''
    """
    counts: dict = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    return " + ".join(f"{n} {k}" for k, n in counts.items())


def html_table(line: str, headers, rows, summary: str) -> str:
    """A record in a notebook (IPython's ``_repr_html_``): its one-line repr ``line``, then a folded table
    (``<details>`` whose ``<summary>`` reads ``summary``) with one ``<tr>`` for the headers and one per row.
    Every cell is ``str()``-ed and HTML-escaped, so names such as ``'<arm>'`` show as typed.

    Examples
    --------
    >>> t = html_table("Pair 'a&b'", ("body", "name"), [(0, "<arm>")], "bodies")
    >>> print(t.replace("<tr>", "\\n<tr>"))
    <p><code>Pair &#x27;a&amp;b&#x27;</code></p><details><summary>bodies</summary><table>
    <tr><th>body</th><th>name</th></tr>
    <tr><td>0</td><td>&lt;arm&gt;</td></tr></table></details>
    """
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return (f"<p><code>{html.escape(line)}</code></p><details><summary>{html.escape(summary)}"
            f"</summary><table><tr>{head}</tr>{body}</table></details>")


def samples(t) -> str:
    """The time axis of a trajectory in a few words: how many samples, first and last time (seconds).

    Examples
    --------
    >>> import numpy as np
    >>> samples(np.linspace(0.0, 2.0, 201))
    '201 samples, t = 0 … 2 s'
    >>> samples([0.5])
    '1 sample, t = 0.5 s'
    """
    t = np.ravel(np.asarray(t, dtype=float))
    if t.size == 0:
        return "0 samples"
    if t.size == 1:
        return f"1 sample, t = {t[0]:.4g} s"
    return f"{t.size} samples, t = {t[0]:.4g} … {t[-1]:.4g} s"
