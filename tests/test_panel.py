"""rfda_teach.panel: one description, a live widget and a precomputed static face."""
from __future__ import annotations

import base64
import json
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from rfda_teach import panel, viz  # noqa: E402
from rfda_teach.errors import ModelError  # noqa: E402

from bookbuild import ROOT  # noqa: E402


def _fig_and_text(a=0.0, kind="x"):
    fig, ax = plt.subplots(figsize=(2, 1))
    ax.plot([0, 1], [0, a])
    return fig, f"{kind}: a = {a:.1f}"


P = panel.Panel(_fig_and_text, (panel.Slider("a", 0.0, 1.0, 0.5, 0.5, label=r"\alpha"),
                                 panel.Choice("kind", ("x", "y"), "y")))


def test_grid_contains_the_default_and_is_sorted():
    import numpy as np
    assert panel.Slider("q", -1.0, 1.0, 0.5, 0.0, static=np.array([1.0, -1.0])).grid() == (-1.0, 0.0, 1.0)
    s = panel.Slider("q", -1.0, 1.0, 0.05, 0.3, static=(1.0, -1.0))
    assert s.grid() == (-1.0, 0.3, 1.0)
    assert panel.Slider("q", 0.0, 1.0, 0.25, 0.0).grid() == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert len(panel.Slider("q", 0.0, 1.0, 0.01, 0.0).grid()) == 5


def test_frame_keeps_the_figure_as_png_and_the_text():
    f = panel.frame(P, a=1.0, kind="x")
    assert f.text == "x: a = 1.0"
    assert f.png.startswith(b"\x89PNG")
    assert panel.frame(panel.Panel(lambda a=0.0: "t", P.controls[:1])).png is None


def test_static_html_has_one_frame_per_setting_and_shows_the_default():
    h = panel.static_html(P)
    keys = re.findall(r'class="rfda-panel-frame" data-key="([\d,]+)"( hidden)?', h)
    assert [k for k, _ in keys] == ["0,0", "0,1", "1,0", "1,1", "2,0", "2,1"]
    shown = [k for k, hidden in keys if not hidden]
    assert shown == ["1,1"]                                  # a = 0.5, kind = "y"
    assert "y: a = 0.5" in h and "x: a = 1.0" in h
    assert h.count("data:image/png;base64,") == 6
    texts = json.loads(re.search(r"data-texts='([^']*)'", h).group(1).replace("&quot;", '"'))
    assert texts == ["0.0", "0.5", "1.0"]
    assert r'<span class="math notranslate nohighlight">\(\alpha\)</span>' in h   # MathJax typesets it


def test_a_fixed_control_is_disabled_in_the_static_face():
    p = panel.Panel(lambda a=0.0, b=1.0: f"{a}{b}", (panel.Slider("a", 0.0, 1.0, 0.5, 0.0),
                                                   panel.Slider("b", 0.0, 2.0, 0.5, 1.0, static=(1.0,))))
    h = panel.static_html(p)
    assert panel.grid_size(p) == 3 and h.count("disabled") == 1 and "fixed in the rendered book" in h


def test_the_bundle_has_the_static_face_only_in_the_book_build(monkeypatch):
    monkeypatch.delenv(panel.STATIC_ENV, raising=False)
    live = panel._bundle(P)
    assert "application/vnd.jupyter.widget-view+json" in live
    assert "text/html" not in live and "image/png" not in live
    monkeypatch.setenv(panel.STATIC_ENV, "1")
    both = panel._bundle(P)
    assert "application/vnd.jupyter.widget-view+json" in both
    assert 'class="rfda-panel"' in both["text/html"]
    assert base64.b64decode(both["image/png"]).startswith(b"\x89PNG")    # the PDF's still
    assert both["text/plain"] == "y: a = 0.5"


def test_the_live_widget_has_one_control_per_description_and_a_button_when_manual():
    import ipywidgets as w
    live = panel.widget(panel.Panel(_fig_and_text, P.controls, manual=True))
    kinds = [type(c).__name__ for c in live.children]
    assert kinds[:2] == ["FloatSlider", "Dropdown"] and "Button" in kinds
    assert live.children[0].description == r"$\alpha$"
    assert isinstance(live, w.interactive)


def test_methods_panel_static_grid_reaches_a_singular_C_c_and_C_f():
    p = viz.methods_panel()
    h = panel.static_html(p)
    assert h.count('class="rfda-panel-frame"') == 54
    assert "refused: C_c must be a non-singular" in h and "refused: C_f" in h


def test_no_notebook_builds_a_widget_by_hand():
    """Every widget of the book goes through panel.show, so it also has its static face."""
    for nb in sorted((ROOT / "book").glob("*.ipynb")):
        src = "".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"]
                      if c["cell_type"] == "code")
        assert "ipywidgets" not in src, f"{nb.name} builds an ipywidgets panel; use rfda_teach.panel"


def test_a_panel_that_fails_names_the_setting():
    bad = panel.Panel(lambda a=0.0: "x" if a < 1 else 1 / 0, (panel.Slider("a", 0.0, 1.0, 0.5, 0.0),))
    with pytest.raises(ModelError, match=r"panel.frame\(\{'a': 1.0\}\).*ZeroDivisionError"):
        panel.static_html(bad)
