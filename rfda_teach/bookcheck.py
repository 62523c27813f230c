"""Small helpers for the book's notebooks: answer checks and tables that fit the page.

``check_answer`` is what an exercise's visible check cell calls: it says right or wrong and
gives a hint, and never prints the expected answer.  ``html_table`` renders a table as HTML,
so a wide table wraps in the rendered book instead of scrolling sideways.
"""
from __future__ import annotations

import html

import numpy as np


def check_answer(answer, expected, *, hint: str, rtol: float = 1e-9, atol: float = 1e-9,
                 up_to_sign: bool = False) -> bool:
    """Print whether ``answer`` matches ``expected`` (never ``expected`` itself).

    ``answer`` None (the stub) prints "not answered yet".  Numbers, tuples and arrays are
    compared with ``numpy.allclose``; a wrong shape is reported as such.  Returns True only
    for a right answer.

    >>> check_answer(None, 3, hint="count the nodes")
    not answered yet: fill in your answer above and run this cell again
    False
    >>> check_answer(3, 3, hint="count the nodes")
    right
    True
    >>> check_answer(4, 3, hint="count the nodes")
    not yet. Hint: count the nodes
    False
    """
    if answer is None:
        print("not answered yet: fill in your answer above and run this cell again")
        return False
    try:
        a = np.asarray(answer, dtype=float)
        e = np.asarray(expected, dtype=float)
    except (TypeError, ValueError):
        print(f"not yet: the answer should be numbers. Hint: {hint}")
        return False
    if a.shape != e.shape:
        print(f"not yet: the answer has shape {a.shape}, a different shape is expected. "
              f"Hint: {hint}")
        return False
    ok = np.allclose(a, e, rtol=rtol, atol=atol)
    if not ok and up_to_sign:
        ok = np.allclose(a, -e, rtol=rtol, atol=atol)
    print("right" if ok else f"not yet. Hint: {hint}")
    return bool(ok)


def html_table(header, rows, *, caption: str = ""):
    """An ``IPython.display.HTML`` table: it wraps to the text width of the rendered book.

    >>> html_table(["a", "b"], [[1, 2.5]]).data.count("<td>")
    2
    """
    from IPython.display import HTML

    def cells(tag, values):
        return "".join(f"<{tag}>{html.escape(str(v))}</{tag}>" for v in values)

    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return HTML(f'<table class="table">{cap}<thead><tr>{cells("th", header)}</tr></thead>'
                f"<tbody>{body}</tbody></table>")


_FA_ICONS = {"fa-minus": "&minus;", "fa-fast-backward": "&#x23EE;", "fa-step-backward": "&#x23F4;&#x2759;",
             "fa-play fa-flip-horizontal": "&#x25C0;", "fa-pause": "&#x23F8;", "fa-play": "&#x25B6;",
             "fa-step-forward": "&#x2759;&#x23F5;", "fa-fast-forward": "&#x23ED;", "fa-plus": "+"}


def offline_jshtml(anim) -> str:
    """``anim.to_jshtml()`` without the icon font matplotlib loads from a CDN.

    matplotlib's JavaScript animation links Font Awesome from the network for its
    play/pause buttons; the book must render offline, so the link is dropped and each
    icon is replaced by a plain Unicode symbol.
    """
    import re

    text = anim.to_jshtml()
    text = re.sub(r'<link rel="stylesheet"\s+href="https?://[^"]*font-awesome[^"]*">', "", text)
    for cls, symbol in sorted(_FA_ICONS.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(f'<i class="fa {cls}"></i>', symbol)
    return text


def latex_lines(lhs: str, expr, *, terms_per_line: int = 2) -> str:
    """LaTeX of ``lhs = expr`` with the sum broken after every ``terms_per_line`` terms, as an
    ``aligned`` block: MathJax 3 does not break lines, and a long sympy result would run out of
    the text column.  Pass the result to ``IPython.display.Math``.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> print(latex_lines("f", x**2 - 3*x*y + y + 1, terms_per_line=2))
    \\begin{aligned}f &= x^{2} - 3 x y\\\\ &\\quad + y + 1\\end{aligned}
    """
    import sympy as sp

    from . import _check
    from .errors import ModelError

    if not isinstance(lhs, str):
        raise ModelError(f"bookcheck.latex_lines: lhs must be a LaTeX string such as r'\\boldsymbol G_k', "
                         f"got {type(lhs).__name__}")
    n = _check.positive_int(terms_per_line, "terms_per_line", where="bookcheck.latex_lines")
    terms = sp.sympify(expr).as_ordered_terms()
    parts = []
    for i, t in enumerate(terms):
        s = sp.latex(t)
        if i == 0:
            parts.append(s)
        else:
            parts.append(f"- {s[1:].lstrip()}" if s.startswith("-") else f"+ {s}")
    lines = [" ".join(parts[i:i + n]) for i in range(0, len(parts), n)]
    return (r"\begin{aligned}" + lhs + " &= " + lines[0]
            + "".join(r"\\ &\quad " + ln for ln in lines[1:]) + r"\end{aligned}")
