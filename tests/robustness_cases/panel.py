"""Bad-input cases for rfda_teach.panel (format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from rfda_teach import panel  # noqa: E402
from rfda_teach.errors import ModelError  # noqa: E402

from robustness_cases import Case  # noqa: E402

_S = panel.Slider("a", 0.0, 1.0, 0.5, 0.0)
_P = panel.Panel(lambda a=0.0: f"a = {a}", (_S,))


def _raises(a=0.0):
    raise KeyError("oops")


CASES = [
    Case("panel.Slider-outside", lambda: panel.Slider("a", 0.0, 1.0, 0.1, 2.0), ModelError,
         "value 2.0 is outside"),
    Case("panel.Slider-step", lambda: panel.Slider("a", 0.0, 1.0, -0.1, 0.5), ModelError, "step"),
    Case("panel.Slider-nan", lambda: panel.Slider("a", float("nan"), 1.0, 0.1, 0.5), ModelError, "min"),
    Case("panel.Slider-static", lambda: panel.Slider("a", 0.0, 1.0, 0.1, 0.5, static=(3.0,)),
         ModelError, "static value 3.0"),
    Case("panel.Slider-static-str", lambda: panel.Slider("a", 0.0, 1.0, 0.1, 0.5, static="ab"),
         ModelError, "not a sequence of numbers"),
    Case("panel.Slider-name", lambda: panel.Slider(3, 0.0, 1.0, 0.1, 0.5), ModelError, "name"),
    Case("panel.Choice-value", lambda: panel.Choice("c", ("x", "y"), "z"), ModelError, "'z' is not one"),
    Case("panel.Choice-empty", lambda: panel.Choice("c", (), None), ModelError, "non-empty"),
    Case("panel.Panel-fn", lambda: panel.Panel(3, (_S,)), ModelError, "fn must be callable"),
    Case("panel.Panel-controls", lambda: panel.Panel(str, ("a",)), ModelError, "controls"),
    Case("panel.Panel-names", lambda: panel.Panel(str, (_S, _S)), ModelError, "share a name"),
    Case("panel.frame-raises", lambda: panel.frame(panel.Panel(_raises, (_S,))), ModelError,
         "raised KeyError"),
    Case("panel.frame-returns", lambda: panel.frame(panel.Panel(lambda a=0: 3, (_S,))), ModelError,
         "returned int"),
    Case("panel.frame-panel", lambda: panel.frame("p"), ModelError, "panel must be a Panel"),
    Case("panel.static_html-size", lambda: panel.static_html(panel.Panel(
        lambda **k: "", tuple(panel.Slider(n, 0.0, 1.0, 0.1, 0.0, static=tuple(range(2)))
                              for n in "abcdefgh"))), ModelError, "more than MAX_FRAMES"),
    Case("panel.grid_size-panel", lambda: panel.grid_size(None), ModelError, "panel must be a Panel"),
    Case("panel.widget-panel", lambda: panel.widget([]), ModelError, "panel must be a Panel"),
    Case("panel.show-panel", lambda: panel.show(_S), ModelError, "panel must be a Panel"),
]

COVERED: list = [f"panel.{n}" for n in ("Slider", "Choice", "Panel", "frame", "static_html", "grid_size",
                                         "widget", "show")]
EXEMPT: dict = {"panel.Frame": "plain result record returned by frame"}
