"""Build the book once per test session; test_book.py and test_browser.py share the result.

The build is the README's first command run in the repository itself, so it writes
``_build/html`` and keeps myst-nb's execution cache in ``_build/.jupyter_cache``: a notebook
whose code did not change since the last build (for example the README's build command run
just before ``python -m pytest``) is not executed again, and every other notebook is
executed exactly once per test run.  A failing cell (a broken ``assert``) fails the build.

The cache knows only the notebooks' code, not the package they import: when a file of
``rfda_teach/`` is newer than a cached execution, the cache is dropped and every page is
rebuilt (``--all``), so a change to the package is checked against every chapter.

``RFDA_BOOK_PREBUILT=1`` skips the build and tests the ``_build/html`` already there (for
re-running the browser test alone).

Under pytest-xdist the first worker to need the book builds it; the other finds its outcome in
``_build/.build-result.json``, stamped with the test run's id (``PYTEST_XDIST_TESTRUNUID``), once
the build lock is free.  So the tests that read the built book (the browser, the PDF, the student
HTML book) are not tied to one worker: the test command runs them last, on whichever worker is
free (``tests/conftest.py``).
"""
from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
CACHE = ROOT / "_build" / ".jupyter_cache"
RESULT = ROOT / "_build" / ".build-result.json"     # the outcome, for the other workers of this run


def cache_is_current() -> bool:
    """True when every cached execution is newer than every file of ``rfda_teach/``."""
    if not CACHE.exists():
        return True
    from datetime import timezone

    from jupyter_cache import get_cache

    newest = max(p.stat().st_mtime for p in (ROOT / "rfda_teach").rglob("*.py"))
    records = get_cache(str(CACHE)).list_cache_records()
    return all(r.created.replace(tzinfo=timezone.utc).timestamp() > newest for r in records)


@dataclass(frozen=True)
class Build:
    returncode: int
    log: str
    seconds: float
    html: Path


def toc_notebooks() -> list[str]:
    """File names of the notebooks in ``_toc.yml`` (the chapters the build executes)."""
    import re

    files = re.findall(r"(?:file|root):\s*(\S+)", (ROOT / "_toc.yml").read_text())
    return sorted(Path(f).name + ".ipynb" for f in files if (ROOT / (f + ".ipynb")).exists())


@contextlib.contextmanager
def _build_lock(name: str = ".build.lock"):
    """One build at a time in this checkout (several test runs may share ``_build``).  Each folder of
    ``_build`` that runs write has its lock: ``.build.lock`` for the book's HTML, its execution cache and
    the PDF; ``.editions.lock`` for ``_build/student`` and ``_build/instructor`` (which must not wait
    for a book build)."""
    (ROOT / "_build").mkdir(exist_ok=True)
    with open(ROOT / "_build" / name, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@functools.lru_cache(maxsize=1)
def build_book() -> Build:
    """Run ``jupyter-book build . -W -n --keep-going`` once; return its outcome."""
    if os.environ.get("RFDA_BOOK_PREBUILT") and (HTML / "index.html").exists():
        return Build(0, "(prebuilt: RFDA_BOOK_PREBUILT set)", 0.0, HTML)
    cmd = [sys.executable, "-c",
           "import sys; from jupyter_book.cli.main import main; sys.exit(main())",
           "build", str(ROOT), "-W", "-n", "--keep-going"]
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    shared = _shared_result(run)
    if shared is not None:
        return shared         # built by another worker of this run (no wait for the lock the PDF holds)
    with _build_lock():
        shared = _shared_result(run)
        if shared is not None:
            return shared                            # built by another worker while this one waited
        if not cache_is_current():
            # outputs of an older package: drop them, and make Sphinx re-read every page
            # (an incremental build re-reads only changed sources and would execute nothing)
            shutil.rmtree(CACHE, ignore_errors=True)
            cmd = cmd + ["--all"]
        elif CACHE.exists() and set(toc_notebooks()) - set(notebook_execution_times()):
            cmd = cmd + ["--all"]                    # a chapter has no cached execution
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=ROOT)
        seconds = time.perf_counter() - t0
        build = Build(proc.returncode, proc.stdout[-6000:] + proc.stderr[-6000:], seconds, HTML)
        if run:                                      # written whole, then renamed: never read half
            tmp = RESULT.with_suffix(".tmp")
            tmp.write_text(json.dumps({"run": run, "returncode": build.returncode,
                                       "log": build.log, "seconds": build.seconds}))
            tmp.replace(RESULT)
    return build


def _shared_result(run: str | None) -> Build | None:
    """The outcome of this test run's build, when another worker has already made it."""
    if not run or not RESULT.exists():
        return None
    try:
        d = json.loads(RESULT.read_text())
    except ValueError:
        return None
    if d.get("run") != run:
        return None
    return Build(d["returncode"], d["log"], d["seconds"], HTML)


def notebook_execution_times() -> dict[str, float]:
    """Execution seconds of every notebook in the build's jupyter-cache, by file name."""
    from jupyter_cache import get_cache

    times = {}
    for rec in get_cache(str(CACHE)).list_cache_records():
        name = Path(rec.uri).name
        secs = (rec.data or {}).get("execution_seconds")
        if secs is not None:
            times[name] = float(secs)
    return times
