"""The course pack's PDF: ``jupyter-book build . --builder pdflatex`` (XeLaTeX, Debian's TeX Live).

The build reuses the execution cache of the HTML build (tests/bookbuild.py), so no notebook runs
twice.  The test fails on a LaTeX error, an undefined reference, a character missing from a
font (it would silently vanish from the page), an output the PDF cannot show (an HTML-only
repr such as ``<IPython.core.display.HTML object>``, a widget's text fallback), or a page count
far from a whole book.  Skipped, saying why, only when ``xelatex`` is not installed
(``.ci/run`` installs TeX Live with apt-get).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from bookbuild import ROOT, _build_lock, build_book

pytestmark = pytest.mark.xdist_group("book")   # right after the build, on its worker (its cache)

LATEX = ROOT / "_build" / "latex"
PDF = LATEX / "rfda_teach.pdf"

# text that means an output was not translated for the PDF
PLACEHOLDERS = re.compile(r"IPython\.core\.display\.\w+ object|object at 0x[0-9a-f]+|Loading widget"
                          r"|\b(?:interactive|VBox|HBox|IntSlider|FloatSlider)\((?:children|value)=")


@pytest.fixture(scope="module")
def pdf_build():
    if shutil.which("xelatex") is None or shutil.which("latexmk") is None:
        pytest.skip("XeLaTeX/latexmk not installed (Debian: texlive-xetex texlive-latex-extra "
                    "texlive-fonts-extra latexmk xindy; .ci/run installs them as root)")
    html = build_book()                       # executes the notebooks once, into the shared cache
    assert html.returncode == 0, html.log[-3000:]
    cmd = [sys.executable, "-c", "import sys; from jupyter_book.cli.main import main; sys.exit(main())",
           "build", str(ROOT), "--builder", "pdflatex"]
    # LATEXMKOPTS=-xelatex (the README's command; Sphinx's advice "for faster builds"): latexmk runs
    # xelatex --no-pdf and converts once with xdvipdfmx, instead of writing the PDF on every pass
    env = {**os.environ, "LATEXMKOPTS": "-xelatex"}
    with _build_lock():
        shutil.rmtree(LATEX, ignore_errors=True)   # a stale .aux can break a rerun
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1200, env=env)
    return proc


def test_pdf_builds(pdf_build):
    assert pdf_build.returncode == 0, pdf_build.stdout[-4000:] + pdf_build.stderr[-3000:]
    assert PDF.exists() and PDF.stat().st_size > 500_000
    log = (LATEX / "rfda_teach.log").read_text(errors="replace")
    # xelatex --no-pdf (LATEXMKOPTS=-xelatex) writes the pages to the .xdv that xdvipdfmx converts
    m = re.search(r"Output written on rfda_teach\.(?:pdf|xdv) \((\d+) pages", log)
    assert m, "no page count in the LaTeX log"
    pages = int(m.group(1))
    assert 200 < pages < 1000, f"{pages} pages"
    print(f"course pack: {PDF} ({pages} pages, {PDF.stat().st_size / 1e6:.1f} MB)")


def test_pdf_has_no_undefined_reference_or_missing_glyph(pdf_build):
    log = (LATEX / "rfda_teach.log").read_text(errors="replace")
    assert not re.search(r"^! ", log, flags=re.M), "a LaTeX error"
    undefined = sorted(set(re.findall(r"Reference `([^']+)' on page \d+ undefined", log)))
    assert not undefined, f"undefined references in the PDF: {undefined[:10]}"
    missing = sorted(set(re.findall(r"Missing character: There is no (\S+)", log)))
    assert not missing, f"characters missing from the fonts (they vanish from the page): {missing}"


def test_pdf_shows_no_html_only_placeholder(pdf_build):
    tex = (LATEX / "rfda_teach.tex").read_text(errors="replace")
    hits = [tex[max(m.start() - 200, 0):m.end()] for m in PLACEHOLDERS.finditer(tex)]
    assert not hits, f"{len(hits)} outputs the PDF cannot show, e.g. ...{hits[0][-300:]}"
    assert tex.count(r"\sphinxincludegraphics") > 40, "figures missing from the PDF"
    assert not re.search(r"^\\?\| .* \| .* \|$", tex, flags=re.M), "a Markdown table left as text (pipes)"
