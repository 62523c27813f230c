"""Widget panels with a kernel and without one: one description, two faces.

A :class:`Panel` names a function and its controls (:class:`Slider`, :class:`Choice`).

* **Live** (JupyterLab, a running kernel): :func:`show` displays an ``ipywidgets.interactive``
  panel that calls the function on every move, as the notebooks always did.
* **Static** (the rendered book, no kernel): while the book is built (:data:`STATIC_ENV` is set by
  ``rfda_teach._bookext``), :func:`show` also runs the function over each control's *static grid*
  and writes every output (figure as PNG, printed text) into the page with the controls as plain
  HTML; ``_static/rfda_panel.js``, shipped with the book, shows the output of the current setting
  when a slider moves.  Nothing is computed in JavaScript and nothing is fetched: the page holds
  the package's own results.  The PDF shows the default setting's output.

The function returns what it shows: a matplotlib figure, a string, or a tuple (figure, string).

Examples
--------
>>> p = Panel(lambda a=1.0: f"twice a is {2 * a:.1f}",
...           (Slider("a", 0.0, 2.0, 0.5, 1.0, label=r"a"),))
>>> frame(p, a=1.5).text
'twice a is 3.0'
>>> grid_size(p)
5
"""
from __future__ import annotations

import base64
import html
import io
import itertools
import json
import os
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import _check
from .errors import ModelError

__all__ = ["Slider", "Choice", "Panel", "Frame", "frame", "grid_size", "static_html", "widget",
           "show", "STATIC_ENV", "MAX_FRAMES"]

#: the environment variable that asks :func:`show` for the static face (set during the book build)
STATIC_ENV = "RFDA_TEACH_STATIC_PANELS"

#: the most settings a static grid may hold (the page carries one output per setting)
MAX_FRAMES = 200

_WHERE = "panel"


@dataclass(frozen=True)
class Slider:
    """A number between ``min`` and ``max`` in steps of ``step``, starting at ``value``.

    ``label`` is TeX (typeset in the book, shown as text in JupyterLab).  ``static`` is the grid
    the rendered book precomputes (``value`` is added to it); by default every step when the range
    holds at most 9, else 5 values spread over the range.  A single value fixes the control in the rendered book.

    Examples
    --------
    >>> Slider("q2", -3.0, 3.0, 0.5, 1.0).grid()
    (-3.0, -1.5, 0.0, 1.0, 1.5, 3.0)
    """

    name: str
    min: float
    max: float
    step: float
    value: float
    label: str = ""
    static: tuple = ()

    def __post_init__(self):
        where = f"{_WHERE}.Slider({self.name!r})"
        try:
            static = np.asarray(self.static, float).ravel()
        except (TypeError, ValueError) as exc:
            raise ModelError(f"{where}: static={self.static!r} is not a sequence of numbers; "
                             "give the values the rendered book precomputes, e.g. (0.0, 0.5)") from exc
        object.__setattr__(self, "static", tuple(static.tolist()))
        _check.instance(self.name, str, "name", where=where)
        lo, hi = (_check.scalar(v, w, where=where) for v, w in ((self.min, "min"), (self.max, "max")))
        _check.scalar(self.step, "step", where=where, positive=True)
        v = _check.scalar(self.value, "value", where=where)
        if not lo <= v <= hi:
            raise ModelError(f"{where}: value {v} is outside [min, max] = [{lo}, {hi}]; "
                             "start the slider inside its range")
        for s in self.static:
            if not lo <= _check.scalar(s, "a static value", where=where) <= hi:
                raise ModelError(f"{where}: static value {s} is outside [{lo}, {hi}]")

    def grid(self) -> tuple:
        """The static grid, sorted, ``value`` included."""
        n = int(round((self.max - self.min) / self.step)) + 1
        vals = self.static if len(self.static) else tuple(np.round(np.linspace(self.min, self.max, n if n <= 9 else 5), 12))
        return tuple(sorted({float(x) for x in vals} | {float(self.value)}))

    def text(self, x) -> str:
        digits = max(0, -int(np.floor(np.log10(self.step)))) if self.step < 1 else 0
        return f"{x:.{digits}f}"


@dataclass(frozen=True)
class Choice:
    """One of ``options`` (any values; shown by ``str``), starting at ``value``.

    Examples
    --------
    >>> Choice("form", ("lubich", "featherstone"), "lubich").grid()
    ('lubich', 'featherstone')
    """

    name: str
    options: tuple
    value: object
    label: str = ""

    def __post_init__(self):
        where = f"{_WHERE}.Choice({self.name!r})"
        _check.instance(self.name, str, "name", where=where)
        if not self.options or self.value not in self.options:
            raise ModelError(f"{where}: value {self.value!r} is not one of the options "
                             f"{self.options!r}; give a non-empty tuple that contains it")

    def grid(self) -> tuple:
        return tuple(self.options)

    def text(self, x) -> str:
        return ", ".join(map(str, x)) if isinstance(x, (tuple, list)) else str(x)


@dataclass(frozen=True)
class Panel:
    """A function and its controls; ``manual=True`` computes on a button (slow outputs).

    ``fn(**values)`` is called with one keyword per control and returns a figure, a string or a
    tuple (figure, string).
    """

    fn: Callable
    controls: tuple
    manual: bool = False
    caption: str = ""

    def __post_init__(self):
        where = f"{_WHERE}.Panel"
        if not callable(self.fn):
            raise ModelError(f"{where}: fn must be callable, got {type(self.fn).__name__}")
        if not self.controls or not all(isinstance(c, (Slider, Choice)) for c in self.controls):
            raise ModelError(f"{where}: controls must be a non-empty tuple of Slider and Choice")
        names = [c.name for c in self.controls]
        if len(set(names)) != len(names):
            raise ModelError(f"{where}: two controls share a name in {names}; names must differ")


@dataclass(frozen=True)
class Frame:
    """One output of a panel: the PNG of its figure (or None) and its printed text."""

    text: str
    png: bytes | None = field(default=None, repr=False)


def _defaults(panel: Panel) -> dict:
    return {c.name: c.value for c in panel.controls}


def frame(panel: Panel, **values) -> Frame:
    """Run the panel's function at one setting (the defaults for controls not given) and keep
    what it returns as a :class:`Frame`.

    Examples
    --------
    >>> p = Panel(lambda n=1: "x" * n, (Choice("n", (1, 2, 3), 1),))
    >>> frame(p, n=3).text
    'xxx'
    """
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    _check.instance(panel, Panel, "panel", where=f"{_WHERE}.frame")
    kw = {**_defaults(panel), **values}
    out = _check.user_call(lambda: panel.fn(**kw), (), "the panel's function",
                           where=f"{_WHERE}.frame({kw})")
    fig, text = (out if isinstance(out, tuple) else
                 (out, "") if isinstance(out, Figure) else (None, out))
    if not isinstance(text, str) or (fig is not None and not isinstance(fig, Figure)):
        raise ModelError(f"{_WHERE}.frame: the panel's function returned {type(out).__name__}; "
                         "return a matplotlib Figure, a str or a tuple (Figure, str)")
    png = None
    if fig is not None:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
        plt.close(fig)
        png = buf.getvalue()
    return Frame(text, png)


def grid_size(panel: Panel) -> int:
    """How many settings the static grid holds (the product of the controls' grids)."""
    _check.instance(panel, Panel, "panel", where=f"{_WHERE}.grid_size")
    return int(np.prod([len(c.grid()) for c in panel.controls]))


def _control_html(c, k: int) -> str:
    label = (f'<span class="math notranslate nohighlight">\\({html.escape(c.label)}\\)</span>'
             if c.label else html.escape(c.name))
    grid = c.grid()
    start = grid.index(c.value)
    texts = json.dumps([c.text(x) for x in grid])
    fixed = len(grid) == 1
    title = (' title="fixed in the rendered book; run the notebook to move it"' if fixed else "")
    if isinstance(c, Choice):
        opts = "".join(f'<option value="{i}"{" selected" if i == start else ""}>'
                       f"{html.escape(c.text(x))}</option>" for i, x in enumerate(grid))
        ctl = f'<select data-k="{k}"{title}{" disabled" if fixed else ""}>{opts}</select>'
    else:
        ctl = (f'<input type="range" data-k="{k}" min="0" max="{len(grid) - 1}" step="1" '
               f'value="{start}" data-texts=\'{html.escape(texts)}\'{title}'
               f'{" disabled" if fixed else ""}>'
               f'<output>{html.escape(c.text(c.value))}</output>')
    return f'<label class="rfda-panel-control">{label} {ctl}</label>'


def _frame_html(key: str, f: Frame, shown: bool) -> str:
    img = ("" if f.png is None else
           f'<img alt="panel output" src="data:image/png;base64,'
           f'{base64.b64encode(f.png).decode()}">')
    pre = f"<pre>{html.escape(f.text)}</pre>" if f.text else ""
    return (f'<div class="rfda-panel-frame" data-key="{key}"{"" if shown else " hidden"}>'
            f"{img}{pre}</div>")


def static_html(panel: Panel) -> str:
    """The static face: controls as HTML and one precomputed output per setting of the grid.

    Examples
    --------
    >>> p = Panel(lambda a=0.0: f"a = {a:.1f}", (Slider("a", 0.0, 1.0, 0.5, 0.0),))
    >>> html_text = static_html(p)
    >>> html_text.count('class="rfda-panel-frame"'), 'a = 0.5' in html_text
    (3, True)
    """
    return _static(panel)[0]


def _static(panel: Panel) -> tuple:
    _check.instance(panel, Panel, "panel", where=f"{_WHERE}.static_html")
    n = grid_size(panel)
    if n > MAX_FRAMES:
        sizes = {c.name: len(c.grid()) for c in panel.controls}
        raise ModelError(f"{_WHERE}.static_html: the static grid holds {n} settings ({sizes}), "
                         f"more than MAX_FRAMES={MAX_FRAMES}; give some controls a shorter "
                         "static= grid (a single value fixes a control in the rendered book)")
    grids = [c.grid() for c in panel.controls]
    start = tuple(g.index(c.value) for g, c in zip(grids, panel.controls))
    frames, first = [], None
    for idx in itertools.product(*(range(len(g)) for g in grids)):
        kw = {c.name: g[i] for c, g, i in zip(panel.controls, grids, idx)}
        key = ",".join(map(str, idx))
        f = frame(panel, **kw)
        first = f if idx == start else first
        frames.append(_frame_html(key, f, idx == start))
    controls = "".join(_control_html(c, k) for k, c in enumerate(panel.controls))
    note = (f"Precomputed for {n} settings; run the notebook (JupyterLab) for every value."
            if n > 1 else "")
    cap = f'<p class="rfda-panel-caption">{html.escape(panel.caption)}</p>' if panel.caption else ""
    return (f'<div class="rfda-panel">{cap}<form class="rfda-panel-controls">{controls}</form>'
            f'{"".join(frames)}<p class="rfda-panel-note">{note}</p></div>', first)


def widget(panel: Panel):
    """The live face: an ``ipywidgets.interactive`` over the same controls and function.

    Examples
    --------
    >>> p = Panel(lambda a=0.0: f"a = {a}", (Slider("a", 0.0, 1.0, 0.5, 0.0),))
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):   # no front end: the output goes to stdout
    ...     live = widget(p)
    >>> type(live).__name__
    'interactive'
    """
    import ipywidgets as w
    from IPython.display import display

    _check.instance(panel, Panel, "panel", where=f"{_WHERE}.widget")
    ctls = {}
    for c in panel.controls:
        desc = f"${c.label}$" if c.label else c.name          # JupyterLab typesets $...$
        if isinstance(c, Choice):
            ctls[c.name] = w.Dropdown(options=[(c.text(x), x) for x in c.options], value=c.value,
                                      description=desc)
        else:
            ctls[c.name] = w.FloatSlider(value=c.value, min=c.min, max=c.max, step=c.step,
                                         description=desc, readout_format=".2f")

    def run(**kw):
        f = panel.fn(**kw)
        fig, text = f if isinstance(f, tuple) else (None, f) if isinstance(f, str) else (f, "")
        if fig is not None:
            import matplotlib.pyplot as plt
            display(fig)
            plt.close(fig)
        if text:
            print(text)

    opts = {"manual": True, "manual_name": "compute"} if panel.manual else {}
    return w.interactive(run, opts, **ctls)


def _bundle(panel: Panel) -> dict:
    """The MIME bundle of :func:`show`: the live widget, plus the static face in the book build
    (HTML for the page, the default setting's PNG for the PDF)."""
    data = dict(widget(panel)._repr_mimebundle_() or {})
    data["text/plain"] = "(a panel of controls: run the cell in JupyterLab to move them)"
    if os.environ.get(STATIC_ENV):                   # the book build: the static face too
        data["text/html"], first = _static(panel)
        data["text/plain"] = first.text or data["text/plain"]
        if first.png is not None:
            data["image/png"] = base64.b64encode(first.png).decode()
    return data


def show(panel: Panel) -> None:
    """Display the panel: live in a kernel, precomputed in the rendered book (module docstring).

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):   # no front end: the output goes to stdout
    ...     show(Panel(lambda a=0.0: f"a = {a}", (Slider("a", 0.0, 1.0, 0.5, 0.0),)))
    """
    from IPython.display import display

    _check.instance(panel, Panel, "panel", where=f"{_WHERE}.show")
    display(_bundle(panel), raw=True)     # computed here: an error fails the cell, and the build
