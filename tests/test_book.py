"""The book builds with jupyter-book 1.x, warnings as errors, every notebook executed."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_book_builds_without_warnings(tmp_path):
    cmd = [sys.executable, "-c", "import sys; from jupyter_book.cli.main import main; sys.exit(main())", "build", str(ROOT), "-W", "-n", "--keep-going",
           "--path-output", str(tmp_path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    html = tmp_path / "_build" / "html"
    pages = list(html.rglob("*.html"))
    assert (html / "book" / "dae.html").exists()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "Traceback (most recent call last)" not in text, page
        assert not re.search(r"&lt;[\w.]+ object at 0x[0-9a-f]+&gt;", text), page


def test_every_toc_entry_exists_and_every_notebook_asserts():
    toc = (ROOT / "_toc.yml").read_text()
    files = re.findall(r"file:\s*(\S+)", toc) + re.findall(r"root:\s*(\S+)", toc)
    for f in files:
        assert (ROOT / (f + ".md")).exists() or (ROOT / (f + ".ipynb")).exists(), f
    for nb in (ROOT / "book").glob("*.ipynb"):
        assert "assert " in nb.read_text(), f"{nb.name} makes no checked claim"
