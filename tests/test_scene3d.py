"""Tests of rfda_teach/scene3d.py: interactive 3-D recordings that work offline.

The four scenes of the book (Talos under the PD hold, Kane's eight-body tree, the quarter car over
the bump, a random spatial tree) are built from short trajectories (Talos: a kinematic motion
with the chapter's 121 frames, so that its size is the book's), checked as data (size under
``MAX_BYTES``, nothing fetched from the network, the notebook faces), and, without WebGL, the
still shown instead of the viewer.  The scenes as the reader gets them, embedded in the built
pages, are drawn, played and scrubbed in Chromium with software WebGL by
``tests/test_browser.py::test_page_renders_offline_in_chromium`` (one load per page).
"""
from __future__ import annotations

import base64
import functools
import html
import http.server
import io
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from rfda_teach import scene3d
from rfda_teach.errors import ModelError
from test_browser import chromium, gl_browser, playwright, remote_resources  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "_build" / "screenshots"

# a URL the browser would load by itself: an attribute src/href/action, CSS url(), @import
FETCHED = re.compile(r"""(?:\b(?:src|href|action)\s*=\s*["']?|url\(\s*["']?|@import\s+["'])"""
                     r"""\s*((?:https?:)?//[^"'\s)>]+)""", re.I)


# ----------------------------------------------------------------------------- the four scenes

def _talos():
    """Talos bolted down (the chapter's PD hold), 121 frames over 3 s of a kinematic motion."""
    interop = pytest.importorskip("rfda_teach.interop")
    pytest.importorskip("pinocchio")
    fixed = interop.example_robot("talos", floating_base=False)
    t = np.linspace(0.0, 3.0, 121)
    q_r = np.zeros(fixed.pin_model.nq)
    dq = 0.3 * np.random.default_rng(0).normal(size=q_r.size)
    Q = q_r + np.exp(-1.5 * t)[:, None] * np.cos(6.0 * t)[:, None] * dq
    return scene3d.from_robot(fixed, t, Q, title="Talos, bolted down, PD hold")


def _kane():
    """Kane's eight-body tree without gravity, pinned joints, as in kane_motion (0.3 s)."""
    from rfda_teach import kane
    sys0 = kane.eight_body(gravity=0.0)
    N = sys0.N
    x, y = sys0.x0.copy(), sys0.y0.copy()
    x[4 * N + 3:], y[3 * N + 3:], y[6:8] = 0.0, 0.0, 0.0
    S = [i for i in range(6 * N) if i < 3 * N + 3 and i not in (6, 7)]
    t, X, _ = kane.simulate(sys0, x, y, 0.3, t_eval=np.linspace(0, 0.3, 13), speeds=S,
                            rtol=1e-6, atol=1e-8)
    return scene3d.from_kane(sys0, t, X, title="Kane's eight-body tree")


def _car():
    """The quarter car driving onto the bump of refpoint_bump (0.15 s)."""
    from rfda_teach import refpoint as rp
    car = rp.quarter_car(road=rp.road_bump(height=0.05, start=0.0, duration=0.15))
    tr = rp.simulate(car, car.q0, np.zeros(car.nq), 0.15, "origin",
                     t_eval=np.linspace(0, 0.15, 16), rtol=1e-5, atol=1e-7)
    return scene3d.from_quarter_car(car, tr.t, tr.q, title="Quarter car over a bump")


def _tree():
    """A random spatial tree of 8 bodies (revolute and spherical joints) swinging (0.4 s)."""
    from rfda_teach import models, simulate
    tree = models.random_tree(8, kind="spatial", seed=1)
    traj = simulate.simulate(tree, models.random_state(tree, seed=0), 0.4, n_out=21,
                             rtol=1e-6, atol=1e-8)
    return scene3d.from_system(tree, traj.t, traj.y)


BUILDERS = {"talos": _talos, "kane": _kane, "car": _car, "tree": _tree}


@pytest.fixture(scope="module")
def recordings():
    return {name: build() for name, build in BUILDERS.items()}


@pytest.fixture(scope="module")
def pages(recordings):
    return {name: scene3d.to_html(rec) for name, rec in recordings.items()}


# ----------------------------------------------------------------------------- as data

@pytest.mark.parametrize("name", list(BUILDERS))
def test_book_scene_fits_and_fetches_nothing(name, recordings, pages):
    rec, page = recordings[name], pages[name]
    size = len(page.replace("&", "&amp;").replace('"', "&quot;").encode())
    assert size <= scene3d.MAX_BYTES, f"{name}: {size:,} bytes"
    assert size == scene3d.Scene(page, None, "", 1, 1, 0.0).nbytes
    assert page.count("viewer.handle_command_bytearray") == 1
    assert f"t = {rec.t[0]:.2f} s" in page
    assert not FETCHED.findall(page), FETCHED.findall(page)[:3]
    assert not remote_resources(page)
    assert "fetch(" not in page.split("</script>", 1)[1]      # our code decodes with atob


def test_talos_keeps_every_frame_and_every_mesh(recordings, pages):
    rec = recordings["talos"]
    assert rec.n_frames == 121 and len(rec.shapes) == 33
    meshes = {s.mesh_path for shapes in rec.shapes.values() for s in shapes if s.kind == "mesh"}
    assert len(meshes) == 25                  # every visual mesh file of talos_reduced.urdf,
    assert all(p.lower().endswith(".stl") for p in meshes)
    assert sum(len(s) for s in rec.shapes.values()) == 52     # and each of its 52 geometries
    assert len(pages["talos"]) < 3_500_000    # each file sent once, as indexed triangles


def test_collision_meshes_are_lighter():
    interop = pytest.importorskip("rfda_teach.interop")
    pytest.importorskip("pinocchio")
    ur5 = interop.example_robot("ur5")
    Q = np.zeros((2, ur5.pin_model.nq))
    visual = scene3d.from_robot(ur5, [0.0, 1.0], Q)
    light = scene3d.from_robot("ur5", [0.0, 1.0], Q, geometry="collision")
    assert scene3d.size_bytes(light, still=False) < scene3d.size_bytes(visual, still=False)


def test_long_recording_is_thinned_under_the_limit():
    t = np.linspace(0.0, 10.0, 20_001)
    P = np.repeat(np.eye(4)[None], t.size, axis=0)
    P[:, 0, 3] = np.sin(t)
    rec = scene3d.Recording({f"b{i}": (scene3d.Shape("sphere", (0.1,)),) for i in range(10)}, t,
                            {f"b{i}": P for i in range(10)})
    scene = scene3d.embed(rec, still=False, max_bytes=2_000_000)
    assert scene.nbytes <= 2_000_000 and 2 < scene.n_frames < t.size
    assert f'data-frames="{scene.n_frames}"' in scene._repr_mimebundle_()["text/html"]


def test_notebook_faces(recordings):
    scene = scene3d.embed(recordings["car"])
    bundle = scene._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/png", "text/plain"}
    frame = bundle["text/html"]
    assert frame.startswith('<iframe class="rfda-scene3d"') and "height:420px" in frame
    assert "width:100%" in frame and f'data-bytes="{scene.nbytes}"' in frame
    srcdoc = re.search(r'srcdoc="([^"]*)"', frame).group(1)
    assert html.unescape(srcdoc) == scene.page                   # escaped as meshcat does
    assert base64.b64decode(bundle["image/png"])[:4] == b"\x89PNG"
    assert "\n" not in bundle["text/plain"] and "Quarter car" in bundle["text/plain"]
    assert scene.n_frames == 16 and "9 bodies" in bundle["text/plain"]


def test_bad_input_is_refused_with_the_argument_named():
    box = (scene3d.Shape("box", (0.1, 0.1, 0.1)),)
    with pytest.raises(ModelError, match="kind='cone' is not known"):
        scene3d.Shape("cone", (1.0,))
    with pytest.raises(ModelError, match=r"size .* must be positive"):
        scene3d.Shape("sphere", (-1.0,))
    with pytest.raises(ModelError, match="offset is not a rigid pose"):
        scene3d.Shape("sphere", (1.0,), offset=2 * np.eye(4))
    with pytest.raises(ModelError, match="color"):
        scene3d.Shape("sphere", (1.0,), color="red")
    with pytest.raises(ModelError, match="mesh_path .* is not a file"):
        scene3d.Shape("mesh", (1, 1, 1), mesh_path="/nonexistent.stl")
    with pytest.raises(ModelError, match="faces must be integer indices"):
        scene3d.Shape("mesh", (1, 1, 1), vertices=np.zeros((3, 3)), faces=[[0, 1, 3]])
    with pytest.raises(ModelError, match=r"poses\['b'\] has shape \(3, 4, 4\); it must be 2x4x4"):
        scene3d.Recording({"b": box}, [0.0, 1.0], {"b": np.zeros((3, 4, 4))})
    P = np.repeat(np.eye(4)[None], 2, axis=0)
    P[1, 0, 3] = np.nan
    with pytest.raises(ModelError, match=r"poses\['b'\]\[1, 0, 3\] is nan"):
        scene3d.Recording({"b": box}, [0.0, 1.0], {"b": P})
    with pytest.raises(ModelError, match="no poses for"):
        scene3d.Recording({"b": box}, [0.0], {})
    with pytest.raises(ModelError, match="increase strictly"):
        scene3d.Recording({"b": box}, [1.0, 0.0], {"b": np.eye(4)})
    with pytest.raises(ModelError, match="without '/'"):
        scene3d.Recording({"a/b": box}, [0.0], {"a/b": np.eye(4)})
    with pytest.raises(ModelError, match="rec must be a Recording"):
        scene3d.to_html({"b": box})
    from rfda_teach import kane, models
    tree = models.random_tree(3, kind="spatial", seed=4)
    with pytest.raises(ModelError, match=r"scene3d.from_system: Y has shape \(2, 5\)"):
        scene3d.from_system(tree, [0.0, 1.0], np.zeros((2, 5)))
    sys8 = kane.eight_body()
    X = np.array([sys8.x0, sys8.x0])
    X[1, 3] = np.inf
    with pytest.raises(ModelError, match=r"scene3d.from_kane: X\[1, 3\] is inf"):
        scene3d.from_kane(sys8, [0.0, 1.0], X)


def test_robot_configurations_are_checked():
    interop = pytest.importorskip("rfda_teach.interop")
    pytest.importorskip("pinocchio")
    solo = interop.example_robot("solo12")
    q = np.zeros(solo.pin_model.nq)
    with pytest.raises(ModelError, match=r"Q\[0, 3:7\], the quaternion of joint 'root_joint'"):
        scene3d.from_robot(solo, [0.0], [q])
    with pytest.raises(ModelError, match="Q has shape"):
        scene3d.from_robot(solo, [0.0, 1.0], [q])


# ----------------------------------------------------------------------------- in Chromium

@pytest.fixture(scope="module")
def browser(gl_browser):
    """Chromium with software WebGL, shared with test_browser (its fixture ``gl_browser``)."""
    return gl_browser


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory, pages):
    """The scenes as files on http://127.0.0.1:<port>/."""
    root = tmp_path_factory.mktemp("scene3d")
    for name, page in pages.items():
        (root / f"{name}.html").write_text(page, encoding="utf-8")
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _image(data_url: str) -> np.ndarray:
    from PIL import Image
    raw = base64.b64decode(data_url.split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(raw)).convert("RGB"), dtype=float) / 255.0


def _capture(ctx, bodies: bool = True) -> np.ndarray:
    """The WebGL canvas as pixels, with the bodies shown or hidden (background, grid, axes)."""
    return _image(ctx.evaluate("""(show) => {
        const node = viewer.scene_tree.find(["meshcat"]).object, was = node.visible;
        node.visible = show; const url = viewer.capture_image(); node.visible = was;
        viewer.set_dirty(); return url; }""", bodies))


def _changed(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of pixels whose colour differs by more than 0.1 in a channel."""
    return float(np.mean(np.abs(a - b).max(axis=2) > 0.1))


def _ready(ctx):
    ctx.wait_for_function("window.viewer && viewer.animator && viewer.animator.duration > 0",
                          timeout=30_000)


def test_without_webgl_the_still_is_shown(server, browser):
    tab = browser.new_page(viewport={"width": 800, "height": 420})
    tab.add_init_script("""(() => { const get = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
            return /webgl/.test(kind) ? null : get.call(this, kind, ...rest); }; })();""")
    try:
        tab.goto(f"{server}/tree.html", wait_until="load", timeout=60_000)
        still = tab.locator("#rfda-still")
        assert still.is_visible() and still.evaluate("img => img.naturalWidth") > 100
        assert not tab.locator("#rfda-bar").is_visible()
    finally:
        tab.close()


def test_a_paused_scene_rewrites_nothing(server, browser):
    """Paused, the play bar stays as it is: no frame is drawn for a clock that did not change
    (its text rewritten on every animation frame kept the tab drawing 20 to 60 times a second)."""
    tab = browser.new_page(viewport={"width": 800, "height": 420})
    try:
        tab.goto(f"{server}/tree.html", wait_until="load", timeout=60_000)
        _ready(tab)
        tab.evaluate("() => { if (viewer.animator.playing) document.getElementById('rfda-play').click(); }")
        writes = tab.evaluate("""() => new Promise(done => {
            let n = 0; const bar = document.getElementById('rfda-bar');
            const seen = new MutationObserver(m => { n += m.length; });
            seen.observe(bar, {subtree: true, childList: true, characterData: true, attributes: true});
            setTimeout(() => { seen.disconnect(); done(n); }, 500); })""")
    finally:
        tab.close()
    assert writes == 0, f"the paused scene's bar was rewritten {writes} times in 0.5 s"


def test_unique_rows_is_numpys_unique():
    """The STL reader's merge of identical vertices gives numpy's np.unique(axis=0) arrays
    exactly, on its fast path and where -0.0 or NaN hands the rows to numpy."""
    rng = np.random.default_rng(3)
    X = rng.integers(-3, 4, size=(500, 3)).astype(np.float32) / 4
    with_neg_zero = X.copy()
    with_neg_zero[7] = (-0.0, 0.25, 0.0)
    with_nan = X.copy()
    with_nan[9, 1] = np.nan
    for A in (X, with_neg_zero, with_nan, X[:1], X[:0]):
        V, inv = scene3d._unique_rows(A)
        V0, inv0 = np.unique(A, axis=0, return_inverse=True)
        assert V.dtype == V0.dtype and V.tobytes() == V0.tobytes()
        assert np.array_equal(inv, inv0.reshape(-1))
    assert len(scene3d._unique_rows(X)[0]) < len(X)       # duplicates were merged
