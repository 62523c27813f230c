"""Every page of the built book, opened in headless Chromium with no network.

What `jupyter-book build -W` cannot see happens in the browser: a MathJax error node
(``\\tag`` inside ``split``), equations left as raw TeX because MathJax could not be
loaded from a CDN, a widget that has no kernel.  This test serves ``_build/html`` from a
local HTTP server on 127.0.0.1, drives Debian's ``chromium-headless-shell`` (or ``chromium``)
through Playwright (one browser, and one context whose cache the pages share, as a reader's
browser does; Playwright downloads nothing) with every other host made unresolvable, waits
until MathJax has finished and the fonts have loaded (the probe below writes its report),
reads the final DOM and checks it.  It also writes a screenshot of
every page to ``_build/screenshots/`` for a human to look at.

Chromium comes from Debian (``apt-get install -y chromium-headless-shell chromium``: the shell,
the same engine without a window, loads a page in 30 % less CPU than ``chromium --headless``;
``chromium`` plays the 3-D scenes, see :func:`chromium_binary`; ``.ci/run`` installs both when
they are missing).  Set ``CHROMIUM=/path/to/chrome`` to use another binary.  The test is skipped,
with that reason, only when no Chromium binary can be found.
"""
from __future__ import annotations

import functools
import html
import http.server
import io
import os
import re
import shutil
import threading
from html.parser import HTMLParser

import pytest

from bookbuild import ROOT, build_book

# no xdist group: the book is built once per run (bookbuild.build_book); these tests run last,
# on both workers (tests/conftest.py)

SHOTS = ROOT / "_build" / "screenshots"

# every page in the table of contents, as built: book/dae.ipynb -> book/dae.html
PAGES = re.findall(r"(?:file|root):\s*(\S+)", (ROOT / "_toc.yml").read_text())

# Pages whose notebooks are still being fixed by their owners (issue 12, items 2 and 6): the
# test runs them and reports what it sees, but expects the failure.  Delete an entry when its
# chapter passes.
_JS = ("matplotlib's to_jshtml() links Font Awesome from a CDN (use "
       "rfda_teach.bookcheck.offline_jshtml) and a widget cell's output is not hidden "
       "(tag it remove-output; keep the labelled static counterpart)")
KNOWN_DEFECTS: dict[str, str] = {}

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--hide-scrollbars", "--mute-audio",
    # no network: every host but the local server is unresolvable
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--proxy-server=direct://", "--proxy-bypass-list=*",
]

# text that must never be visible on a page
FORBIDDEN = {
    "raw TeX left untypeset": re.compile(r"\\\(|\\\[|\$\$|\\begin\{"),
    "Python traceback": re.compile(r"Traceback \(most recent call last\)"),
    "object repr": re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>"),
    "widget placeholder": re.compile(
        r"Loading widget|Error displaying widget|Widget Javascript not detected"
        r"|\b(?:interactive|VBox|HBox|IntSlider|FloatSlider|Dropdown|Play|Button|Output"
        r"|ToggleButtons|Checkbox|SelectionSlider)\((?:children|value|description|layout)="),
}


def chromium_binary(webgl: bool = False) -> str | None:
    """The Chromium that loads the pages: Debian's headless shell first (a third less CPU per page
    than ``chromium --headless``).  With ``webgl``, the one that plays the 3-D scenes: the full
    ``chromium`` first, since the shell draws a software-WebGL scene at 60 frames a second where
    ``chromium`` paces it to about 20, and played the humanoid's scene in 2.4 times the CPU."""
    names = ["chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"]
    if webgl:
        names = names[1:] + names[:1]
    for name in [os.environ.get("CHROMIUM")] + names:
        if name and shutil.which(name):
            return shutil.which(name)
    return None


# Appended to every page the test server sends: once MathJax (and _static/fit_math.js) have
# run, it lists the display equations still wider than the text column in a <pre>.  It also turns
# off MathJax's assistive MathML for the test (it runs before the deferred tex-chtml.js): that
# hidden copy of every equation, for screen readers, is neither drawn nor measured, and writing
# it took a fifth of a page's load (readers keep it).
PROBE = b"""<script>
if (window.MathJax && MathJax.options) {
  MathJax.options.menuOptions = {settings: {assistiveMml: false}};
}
window.addEventListener('load', function () {
  function done() { setTimeout(function () {
    var out = [];
    document.querySelectorAll('mjx-container[display="true"]').forEach(function (c, i) {
      var m = c.querySelector('mjx-math'); if (!m || !c.parentElement) return;
      var box = c.parentElement.getBoundingClientRect().width, w = m.getBoundingClientRect().width;
      if (w > box + 1) out.push(i + ' (' + Math.round(w) + ' px in ' + Math.round(box) + ')');
    });
    var pre = document.createElement('pre'); pre.id = 'rfda-overflow';
    pre.textContent = out.join(', '); document.body.appendChild(pre);
  }, 50); }
  function fonts() { document.body.getBoundingClientRect(); return document.fonts.ready; }
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    MathJax.startup.promise.then(fonts).then(done);
  } else done();
});
</script></body>"""
OVERFLOW = re.compile(r'<pre id="rfda-overflow"[^>]*>(.*?)</pre>', re.S)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if path.endswith(".html") and os.path.isfile(path):
            with open(path, "rb") as fh:
                data = fh.read()
            end = data.rfind(b"</body>")          # the page's own: a scene's srcdoc holds one too
            data = data[:end] + PROBE + data[end + len(b"</body>"):]
            self.send_response(200)
            self.send_header("Content-type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            return io.BytesIO(data)
        return super().send_head()


@pytest.fixture(scope="module")
def server():
    """The built book on http://127.0.0.1:<port>/ (built once per session)."""
    build = build_book()
    assert build.returncode == 0, "the book did not build (see test_book.py):\n" + build.log[-3000:]
    handler = functools.partial(_Quiet, directory=str(build.html))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def chromium():
    exe = chromium_binary()
    if exe is None:
        pytest.skip("Chromium is not installed and could not be installed "
                    "(Debian: apt-get install -y chromium-headless-shell chromium; .ci/run does this as root)")
    return exe


@pytest.fixture(scope="module")
def playwright(chromium):
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (requirements.txt)")
    with sync_api.sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def browser(chromium, playwright):
    """One headless Chromium for every page (Playwright drives Debian's binary)."""
    b = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
    yield b
    b.close()


@pytest.fixture(scope="module")
def reader(browser):
    """One browser context for every page, as a reader's browser has: the pages share its HTTP
    cache, so MathJax, the theme's scripts and the fonts are fetched and compiled once, not on every
    page (12 and 18 % less CPU over twelve pages than a fresh context per page, in two A/B pairs)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 2400})
    yield ctx
    ctx.close()


# WebGL in software (SwiftShader through ANGLE), for the 3-D scenes: no GPU on a CI machine
GL_FLAGS = [f for f in CHROMIUM_FLAGS if f != "--disable-gpu"] + [
    "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"]


@pytest.fixture(scope="module")
def gl_browser(chromium, playwright):
    b = playwright.chromium.launch(executable_path=chromium_binary(webgl=True), args=GL_FLAGS)
    yield b
    b.close()


class PageText(HTMLParser):
    """The text a reader sees, split in two, and counts of MathJax and widget nodes.

    ``prose`` is the text outside code (no ``pre``/``code``, no code-cell input): raw TeX
    there means MathJax did not typeset it.  ``shown`` adds the code cells' outputs: a
    traceback, an object repr or a widget's text fallback there is a defect too.
    """

    SKIP = {"script", "style", "textarea", "noscript", "template", "mjx-container",
            "mjx-assistive-mml", "svg", "math", "title", "head"}
    CODE = {"pre", "code", "kbd", "samp"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "param", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []
        self.prose: list[str] = []
        self.shown: list[str] = []
        self.counts = {"mjx-container": 0, "mjx-merror": 0, "math-source": 0, "widget-view": 0}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag in self.counts:
            self.counts[tag] += 1
        if "math" in classes and tag in ("span", "div"):
            self.counts["math-source"] += 1
        if tag == "script" and "widget-view" in (a.get("type") or ""):
            self.counts["widget-view"] += 1
        if tag in self.VOID:
            return
        kind = ("skip" if tag in self.SKIP else "input" if "cell_input" in classes
                else "code" if tag in self.CODE else "")
        self.stack.append((tag, kind))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        kinds = {k for _, k in self.stack}
        if "skip" in kinds or "input" in kinds:
            return
        self.shown.append(data)
        if "code" not in kinds:
            self.prose.append(data)

    @staticmethod
    def _join(chunks):
        return " ".join(" ".join(chunks).split())


def check_dom(dom: str) -> list[str]:
    """The problems a reader would see on this page (empty when there are none)."""
    p = PageText()
    p.feed(dom)
    prose, shown = p._join(p.prose), p._join(p.shown)
    problems = []
    if p.counts["mjx-merror"]:
        problems.append(f"{p.counts['mjx-merror']} MathJax error node(s) (mjx-merror)")
    if p.counts["math-source"] and p.counts["mjx-container"] < p.counts["math-source"]:
        problems.append(f"{p.counts['math-source']} equations but {p.counts['mjx-container']} "
                        "typeset by MathJax (was MathJax loaded?)")
    if p.counts["widget-view"]:
        problems.append(f"{p.counts['widget-view']} ipywidget view(s) with no kernel behind them")
    for what, rx in FORBIDDEN.items():
        text = prose if what == "raw TeX left untypeset" else shown
        m = rx.search(text)
        if m:
            s = max(m.start() - 60, 0)
            problems.append(f"{what}: ...{text[s:m.end() + 60]}...")
    return problems


REMOTE = re.compile(r"<(?:script|link|img|iframe|source)\b[^>]*?\b(?:src|href)=[\"']"
                    r"((?:https?:)?//[^\"']+)", re.I)


def remote_resources(text: str) -> list[str]:
    """URLs a page would load from the network (scripts, styles, images, fonts)."""
    urls = []
    for m in REMOTE.finditer(text):
        tag = m.group(0)
        if tag.lower().startswith("<link") and not re.search(
                r"rel=[\"'](?:stylesheet|preload|modulepreload|icon)", tag, re.I):
            continue                                  # <link rel="canonical"> etc. load nothing
        urls.append(m.group(1))
    return urls


def test_no_page_loads_anything_from_the_network():
    """Static check of every built HTML page (search, index, ...): everything is local."""
    build = build_book()
    assert build.returncode == 0, build.log[-3000:]
    remote = {}
    for page in sorted(build.html.rglob("*.html")):
        name = page.relative_to(build.html).with_suffix("").as_posix()
        if name in KNOWN_DEFECTS:
            continue                                  # reported by the per-page test below
        for url in remote_resources(page.read_text(encoding="utf-8")):
            remote.setdefault(url, []).append(name)
    assert not remote, "pages load from the network: " + "; ".join(
        f"{url} ({len(pages)} pages, e.g. {pages[0]})" for url, pages in remote.items())


@pytest.mark.parametrize("page", [
    pytest.param(p, marks=pytest.mark.xfail(reason=KNOWN_DEFECTS[p], strict=False))
    if p in KNOWN_DEFECTS else p for p in PAGES])
def test_page_renders_offline_in_chromium(page, server, request):
    """The page as a reader sees it, in one load: typeset, nothing from the network, no defect in
    the DOM, a screenshot; on a page with panels every control moved (``_move_panels``), on a page
    with a 3-D scene the scene drawn and played (``_play_scene``, in Chromium with software WebGL)."""
    url = f"{server}/{page}.html"
    shot = SHOTS / (page.replace("/", "_") + ".png")
    shot.unlink(missing_ok=True)
    tab = request.getfixturevalue("reader").new_page()
    requested: list[str] = []
    errors: list[str] = []
    tab.on("request", lambda r: requested.append(r.url))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    try:
        tab.goto(url, wait_until="load", timeout=60_000)
        try:     # the probe writes its report once MathJax has typeset the page
            tab.wait_for_selector("#rfda-overflow", state="attached", timeout=60_000)
        except Exception:  # noqa: BLE001 - reported below as "the probe did not run"
            pass
        # two animation frames: the last layout (fit_math.js's rescaling) is painted before the
        # screenshot (a fixed 200 ms wait here: 8 s of waiting over the 41 pages)
        tab.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        dom = tab.content()
        tab.screenshot(path=str(shot))
        if page in PANEL_PAGES:
            _move_panels(tab, page)
        if page in SCENE_PAGES:
            _play_scene(tab, page, request.getfixturevalue("gl_browser"), requested)
    finally:
        tab.close()
    assert "<body" in dom, f"Chromium returned no DOM for {url}"
    wide = OVERFLOW.search(dom)
    dom = OVERFLOW.sub("", dom).replace(PROBE.decode()[:-len("</body>")], "")
    problems = check_dom(dom)
    if wide is None:
        problems.append("the overflow probe did not run (MathJax did not finish?)")
    elif wide.group(1).strip():
        problems.append("display equations wider than the text column at 1280 px (split them): "
                        + html.unescape(wide.group(1)))
    problems += [f"loads {u} from the network" for u in remote_resources(dom)
                 if not u.startswith(server)]
    problems += [f"requested {u} from the network" for u in requested
                 if not (u.startswith(server) or u.startswith(("data:", "blob:", "about:")))]
    # jupyter-book writes the (disabled) thebe configuration twice on every page: its second
    # `const THEBE_JS_URL` fails; it concerns nothing on the page
    problems += [f"JavaScript error: {e}" for e in errors if "THEBE_JS_URL" not in e]
    assert not problems, f"{page}: " + " | ".join(problems)


def test_a_mathjax_error_on_a_page_is_seen(server, browser):
    """The check above finds a TeX error as the book's MathJax draws it (``mjx-merror``)."""
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        tab.goto(f"{server}/book/notation.html", wait_until="load", timeout=60_000)
        tab.wait_for_selector("#rfda-overflow", state="attached", timeout=60_000)
        clean = check_dom(OVERFLOW.sub("", tab.content()))
        tab.evaluate(r"""async () => { const d = document.createElement('div');
            d.className = 'math'; d.textContent = '\\(\\frac{1}\\)';
            document.querySelector('main').appendChild(d); await MathJax.typesetPromise([d]); }""")
        broken = check_dom(OVERFLOW.sub("", tab.content()))
    finally:
        tab.close()
    assert clean == []
    assert any("MathJax error" in p for p in broken), broken


# the pages with a panel of sliders (rfda_teach.panel); the test below checks the list is complete
PANEL_PAGES = ["book/jointspace", "book/methods", "book/seeing", "book/kane_motion",
               "book/refpoint", "book/closed_loops_acs_gcl"]

# what the page shows of one panel: the visible frames' keys, images and texts, the controls'
# read-outs, and how many labels are typeset
_PANEL_STATE = """(p) => {
  const vis = [...p.querySelectorAll('.rfda-panel-frame')].filter(f => !f.hidden);
  return {keys: vis.map(f => f.dataset.key),
          img: vis.map(f => (f.querySelector('img') || {}).src || '').join(''),
          text: vis.map(f => (f.querySelector('pre') || {}).textContent || '').join(''),
          outputs: [...p.querySelectorAll('output')].map(o => o.textContent),
          labels: p.querySelectorAll('.rfda-panel-control .math').length,
          typeset: p.querySelectorAll('.rfda-panel-control mjx-container').length,
          raw: p.querySelector('.rfda-panel-controls').textContent.includes('\\\\(')};
}"""


def _pages_with(marker: str) -> list:
    """The built chapters whose HTML holds ``marker`` (the lists above must not go stale)."""
    build = build_book()
    assert build.returncode == 0, build.log[-3000:]
    return sorted(p.relative_to(build.html).with_suffix("").as_posix()
                  for p in build.html.joinpath("book").glob("*.html")
                  if marker in p.read_text(encoding="utf-8"))


def test_every_panel_page_is_listed():
    assert _pages_with('class="rfda-panel"') == sorted(PANEL_PAGES)


def _move_panels(tab, page: str) -> None:
    """Each enabled control of each panel, moved as a reader would (arrow key, drop-down): the
    figure or the printed values change, one output stays shown, the labels stay typeset, and the
    control goes back."""
    moved = []
    panels = tab.locator(".rfda-panel")
    assert panels.count() >= 1, f"{page}: no panel"
    for i in range(panels.count()):
        p = panels.nth(i)
        p.scroll_into_view_if_needed()
        controls = p.locator("[data-k]:not([disabled])")
        assert controls.count() >= 1, f"{page}: panel {i} has no control to move"
        for k in range(controls.count()):
            c = controls.nth(k)
            before = p.evaluate(_PANEL_STATE)
            start = c.input_value()
            if c.evaluate("e => e.tagName") == "SELECT":
                n = c.locator("option").count()
                c.select_option(index=(int(start) + 1) % n)
            else:
                c.focus()
                key = "ArrowLeft" if start == c.get_attribute("max") else "ArrowRight"
                c.press(key)
            after = p.evaluate(_PANEL_STATE)
            what = f"{page}: panel {i}, control {k}"
            assert len(after["keys"]) == 1, f"{what}: {len(after['keys'])} outputs shown"
            assert after["keys"] != before["keys"], f"{what}: the control did not move"
            assert (after["img"], after["text"]) != (before["img"], before["text"]), \
                f"{what}: neither the figure nor the printed values changed"
            if c.evaluate("e => e.tagName") == "INPUT":
                assert after["outputs"] != before["outputs"], f"{what}: read-out unchanged"
            assert after["typeset"] == after["labels"] and not after["raw"], \
                f"{what}: labels not typeset ({after['typeset']} of {after['labels']})"
            if c.evaluate("e => e.tagName") == "SELECT":      # back to the default setting
                c.select_option(index=int(start))
            else:
                c.press("ArrowRight" if key == "ArrowLeft" else "ArrowLeft")
            assert p.evaluate(_PANEL_STATE)["keys"] == before["keys"], f"{what}: no way back"
            moved.append(what)
        p.screenshot(path=str(SHOTS / f"panel_{page.split('/')[-1]}_{i}.png"))
    assert moved, f"{page}: no control was moved"


# the pages with a 3-D scene (rfda_teach.scene3d), one scene each
SCENE_PAGES = ["book/humanoid", "book/kane_motion", "book/refpoint_bump", "book/recursion"]


def test_every_scene_page_is_listed():
    assert _pages_with('class="rfda-scene3d"') == sorted(SCENE_PAGES)


def _play_scene(tab, page: str, gl_browser, requested: list) -> None:
    """The page's scene, played in Chromium with software WebGL: the iframe's document (its
    ``srcdoc``, everything inline) opened at the iframe's size in a tab of ``gl_browser``, so that
    only the scene, not the whole page, is drawn by the software GPU (a page of equations composited
    by SwiftShader took twice as long to load).  The bodies are drawn (the canvas differs from the
    same view with them hidden), *play* advances the time, the slider dragged to the end shows the
    last frame and its time."""
    frame_el = tab.locator("iframe.rfda-scene3d")
    assert frame_el.count() == 1, f"{page}: {frame_el.count()} scenes"
    size = int(frame_el.get_attribute("data-bytes") or 0)
    assert 0 < size < 5_000_000, f"{page}: scene of {size} bytes"
    width, height = frame_el.evaluate("e => [e.clientWidth, e.clientHeight]")
    assert width > 300 and height > 200, f"{page}: the scene is {width} x {height} px in the page"
    srcdoc = frame_el.get_attribute("srcdoc")
    gl = gl_browser.new_page(viewport={"width": width, "height": height})
    gl.on("request", lambda r: requested.append(r.url))
    try:
        gl.set_content(srcdoc, wait_until="load", timeout=60_000)
        _scene_plays(gl, page)
    finally:
        gl.close()


def _scene_plays(inner, page: str) -> None:
    """The checks of :func:`_play_scene` in the tab ``inner`` that shows the scene alone."""
    from test_scene3d import _capture, _changed, _ready
    _ready(inner)
    first = _capture(inner)
    seen = _changed(first, _capture(inner, bodies=False))
    assert seen > 0.005, f"{page}: the bodies cover only {seen:.2%} of the canvas"
    inner.click("#rfda-play")
    inner.wait_for_timeout(500)
    playing, t = inner.evaluate("[viewer.animator.playing, viewer.animator.time]")
    assert playing and t > 0, f"{page}: the animation does not play"
    assert _changed(first, _capture(inner)) > 0.001, f"{page}: nothing moved while playing"
    inner.screenshot(path=str(SHOTS / f"scene3d_page_{page.split('/')[-1]}.png"))
    inner.click("#rfda-play")                          # pause, then drag the slider to the end
    inner.evaluate("""() => { const s = document.getElementById('rfda-time');
        s.value = s.max; s.dispatchEvent(new Event('input')); }""")
    playing, t, duration, clock = inner.evaluate(
        "[viewer.animator.playing, viewer.animator.time, viewer.animator.duration, "
        "document.getElementById('rfda-clock').textContent]")
    assert not playing and abs(t - duration) < 1e-6, f"{page}: the slider's end is not the last frame"
    assert clock.startswith("t = ") and clock.endswith(" s"), f"{page}: clock reads {clock!r}"
