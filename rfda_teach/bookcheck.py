"""Small helpers for the book's notebooks: tables and animations that fit every output.

``html_table`` renders a table as HTML, so a wide table wraps in the rendered book instead of
scrolling sideways, and as Markdown for the PDF; ``offline_animation`` shows matplotlib's player
without a CDN, and a still frame in the PDF.  (A short question's check cell calls
:func:`rfda_teach.exercises.check_question`, whose reference lives in the package.)
"""
from __future__ import annotations

import html
from dataclasses import dataclass



@dataclass(frozen=True)
class Table:
    """A table with two faces: HTML (the rendered book and JupyterLab: it wraps to the text width)
    and Markdown (the PDF: the LaTeX builder cannot typeset HTML and would print the object's repr)."""

    data: str
    markdown: str

    def _repr_html_(self) -> str:
        return self.data

    def _repr_markdown_(self) -> str:
        return self.markdown


#: Unicode sub- and superscript letters spelled out for the PDF's text font, which lacks them
_SCRIPTS = str.maketrans({"ₖ": "_k", "ⱼ": "_j", "ᵢ": "_i", "ₙ": "_n", "ₘ": "_m", "ₚ": "_p", "ᵀ": "^T"})


def _md_cell(v) -> str:
    """A table cell's text, with Markdown's and MyST's active characters escaped (plain text)."""
    text = str(v).replace("\n", " ").translate(_SCRIPTS)
    return "".join("\\" + ch if ch in "\\*_|$`<>[]~{}" else ch for ch in text)


def html_table(header, rows, *, caption: str = "") -> Table:
    """A table that wraps to the text width of the rendered book, and typesets in the PDF.

    >>> t = html_table(["a", "b"], [[1, 2.5]])
    >>> t.data.count("<td>")
    2
    >>> print(t.markdown)
    | a | b |
    | --- | --- |
    | 1 | 2.5 |
    """
    def cells(tag, values):
        return "".join(f"<{tag}>{html.escape(str(v))}</{tag}>" for v in values)

    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    data = (f'<table class="table">{cap}<thead><tr>{cells("th", header)}</tr></thead>'
            f"<tbody>{body}</tbody></table>")
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(_md_cell(v) for v in r) + " |" for r in rows]
    if caption:
        lines = [f"*{_md_cell(caption)}*", ""] + lines
    return Table(data, "\n".join(lines))


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


@dataclass(frozen=True)
class Animation:
    """An animation with two faces: matplotlib's JavaScript player, offline (the rendered book and
    JupyterLab), and a still of its last frame (the PDF, where a script cannot run)."""

    html: str
    png: bytes

    def _repr_html_(self) -> str:
        return self.html

    def _repr_png_(self) -> bytes:
        return self.png

    def __repr__(self) -> str:
        # the text face (a console, nbconvert to text): one line, not the player's 0.3-0.7 MB of
        # HTML that the dataclass repr printed (and every notebook stored as its text/plain)
        return f"<animation: an offline player of {len(self.html) / 1e3:.0f} kB and a still of its last frame>"


def offline_animation(anim, fig) -> Animation:
    """Display object of a matplotlib animation for every output of the book: the player of
    :func:`offline_jshtml` and a PNG still of the figure after the last frame.  The figure is
    closed afterwards (no second, static copy under the player).

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from matplotlib.animation import FuncAnimation
    >>> fig, ax = plt.subplots()
    >>> line, = ax.plot([0, 1], [0, 0])
    >>> anim = FuncAnimation(fig, lambda i: line.set_ydata([0, i]) or (line,), frames=3)
    >>> a = offline_animation(anim, fig)
    >>> a.png[:4] == b"\\x89PNG" and "<script" in a.html
    True
    >>> repr(a).startswith("<animation: an offline player of")
    True
    """
    import io

    import matplotlib.pyplot as plt

    # matplotlib draws every frame twice while it records: once for the screen (draw_idle, which
    # Agg carries out at once) and once into the saved image; only the second is kept, so the first
    # is skipped while recording (the frames are the same, at half the cost)
    canvas = fig.canvas
    canvas.draw_idle = lambda *args, **kwargs: None
    try:
        html_text = offline_jshtml(anim)
    finally:
        del canvas.draw_idle                      # the class's own method again
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return Animation(html_text, buf.getvalue())


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
