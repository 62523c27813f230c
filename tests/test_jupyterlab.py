"""The student edition as a class sees it: JupyterLab with jupyterlab-myst, in headless Chromium, offline.

A JupyterLab server on 127.0.0.1 (no token, its own settings and workspace folders under a
temporary directory) serves ``_build/student``; headless Chromium (every other host
unresolvable) opens each chapter through Playwright (which drives Debian's Chromium and downloads no browser), waits
until jupyterlab-myst has rendered every markdown cell (windowing off, so every cell is in the
DOM), and reads the text on the screen.  It fails on

* a markdown cell that MyST did not render (the notebook's markdown cells all rendered);
* raw MyST in a rendered cell: ``{doc}``, ``{ref}``, ``{cite}``, ``{term}``, ``{exercise}``,
  ``{solution}`` or a ```` ``` ```` fence;
* automatic equation numbers "(1)", "(2)" beside the papers' numbers (numbering is off);
* any line of solution text of the source notebook anywhere in the page (editors included).

Screenshots of each chapter's top and of its exercises land in ``_build/screenshots/jupyterlab/``.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from bookbuild import ROOT, toc_notebooks
from conftest import ordinary_kernel_env
from rfda_teach import editions as ed
from test_browser import browser, chromium_binary, playwright  # noqa: F401  (shared Playwright fixtures)

pytestmark = pytest.mark.xdist_group("editions")

SHOTS = ROOT / "_build" / "screenshots" / "jupyterlab"
# one chapter, the one with most MyST (roles, citations, exercise blocks, tagged equations, figures);
# the static checks of tests/test_editions.py cover every chapter's text, and a JupyterLab start
# plus one chapter is what the 8-minute budget of the test command affords
CHAPTERS = ["kane"]
assert set(CHAPTERS) <= {n[:-6] for n in toc_notebooks()}

# JupyterLab user settings: every cell attached to the DOM (no windowing), no news or update
# checks over the network
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False},
}

RAW_MYST = re.compile(r"\{(?:doc|ref|cite(?::[tp])?|term|eq|numref|exercise|solution)\}|```")
AUTO_NUMBER = re.compile(r"^\(\d+[a-z]?\)$")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chromium():
    exe = chromium_binary()
    if exe is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install -y chromium-headless-shell "
                    "chromium; .ci/run does this as root)")
    return exe


@pytest.fixture(scope="module")
def lab():
    """JupyterLab serving a fresh student edition on http://127.0.0.1:<port>/."""
    tmp = Path(tempfile.mkdtemp(prefix="rfda-lab-"))
    editions = ed.write_editions(ROOT, tmp / "editions")     # a folder of its own: no lock needed
    for rel, value in SETTINGS.items():
        (tmp / "settings" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / "settings" / rel).write_text(json.dumps(value))
    port = _free_port()
    env = dict(ordinary_kernel_env(os.environ), JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.port_retries=0",
           f"--ServerApp.root_dir={editions.student}", "--allow-root"]
    log = open(tmp / "lab.log", "w")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(url + "/lab", timeout=2)
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start: " + (tmp / "lab.log").read_text()[-2000:])
        if proc.poll() is not None:
            pytest.fail("JupyterLab exited: " + (tmp / "lab.log").read_text()[-2000:])
        SHOTS.mkdir(parents=True, exist_ok=True)
        yield url, editions
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _written_numbers(nb) -> set[str]:
    """The equation numbers the source writes inside display math (``\\tag{49}``, ``\\qquad(1)``):
    the papers' numbers, which stay; any other "(n)" beside an equation is MyST's own numbering."""
    out = set()
    for c in nb.cells:
        if c.cell_type != "markdown":
            continue
        for block in re.findall(r"\$\$(.*?)\$\$|\\begin\{((?:equation|align|gather|multline)\*?)\}(.*?)\\end\{\2\}",
                                c.source, flags=re.S):
            text = block[0] + " " + block[2]
            out |= {f"({t})" for t in re.findall(r"\\tag\{([^}]*)\}", text)}
            out |= {f"({t})" for t in re.findall(r"\((\d+[a-z]?)\)", text)}
    return out


def _solution_lines(name: str) -> list[str]:
    import nbformat

    return ed.solution_lines(nbformat.read(ROOT / "book" / f"{name}.ipynb", as_version=4))


# every markdown cell rendered, by jupyterlab-myst
ALL_RENDERED = """() => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-MarkdownCell')];
  return cells.length > 0 && cells.every(c => c.classList.contains('jp-mod-rendered') && c.querySelector('.myst'));
}"""


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_student_chapter_renders_in_jupyterlab(lab, browser, chapter):
    url, editions = lab
    import nbformat

    nb = nbformat.read(editions.student / f"{chapter}.ipynb", as_version=4)
    n_md = sum(c.cell_type == "markdown" for c in nb.cells)
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    try:
        # a workspace of its own, reset: only this notebook is open
        page.goto(f"{url}/lab/workspaces/{chapter}/tree/{chapter}.ipynb?reset")
        page.wait_for_function(ALL_RENDERED, timeout=90_000)
        n_cells = page.evaluate("document.querySelectorAll('.jp-Notebook .jp-MarkdownCell').length")
        myst = page.evaluate("[...document.querySelectorAll('.jp-Notebook .jp-MarkdownCell .myst')]"
                             ".map(e => e.innerText).join('\\n')")
        shown = page.evaluate("document.body.innerText")
        page.screenshot(path=str(SHOTS / f"{chapter}.png"))
        # and the exercises, where the solutions were: the student sees question, stub, check
        heading = page.locator(".jp-MarkdownCell .myst h2", has_text="Exercises").first
        if heading.count():
            heading.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"{chapter}_exercises.png"))
    finally:
        page.close()
    assert n_cells == n_md, f"{n_cells} markdown cells on the screen, {n_md} in the notebook"
    tags = _written_numbers(nb)
    numbers = [ln.strip() for ln in myst.splitlines() if AUTO_NUMBER.match(ln.strip()) and ln.strip() not in tags]
    assert not numbers, f"automatic equation numbers {numbers[:5]} (numbering should be off)"
    flat = " ".join(myst.split())
    m = RAW_MYST.search(flat)
    assert m is None, f"raw MyST on the screen: ...{flat[max(m.start() - 80, 0):m.end() + 80]}..."
    shown = " ".join(shown.split())
    leaked = [s for s in _solution_lines(chapter) if " ".join(s.split()) in shown]
    assert not leaked, f"solution text on the screen: {leaked[0]!r}"
