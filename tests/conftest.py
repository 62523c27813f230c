import os

# One BLAS thread per process: the test command runs two pytest-xdist workers on two cores, each
# starting notebook kernels and Chromium; multithreaded BLAS in every one of them oversubscribes
# the cores (a notebook that runs in 12 s alone took 129 s inside the build).  Set before numpy
# is imported anywhere; kernels and subprocesses inherit it.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=100, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=15, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def rel(a, b):
    """Relative difference |a - b| / max(|b|, tiny), norm-wise."""
    import numpy as np
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300))


# ----------------------------------------------------------------------------- numba, compiled once
# rfda_teach.fastpath is compiled by numba on first use (about 35 s of CPU) and cached on disk.  In a
# fresh clone every process that reaches it first (two workers' doctests, the notebook kernels of
# the book build and of the student edition) would compile it again.  The controller starts one
# compilation in the background at the start of the session, and the tests that need the compiled
# path run after the other unit tests, when the cache is there; the kernels meet it in place too.
_NUMBA_TESTS = ("rfda_teach/fastpath.py", "rfda_teach/interop.py", "tests/test_fastpath.py",
                "tests/test_interop.py")
_WARM_UP = """
from rfda_teach import fastpath, models
if fastpath.available():
    sys = models.random_tree(4, kind="spatial", seed=0)
    st = models.random_state(sys, seed=0)
    fastpath.joint_accelerations(fastpath.compile_model(sys), st.y, st.yd)
    try:
        from rfda_teach import interop
        robot = interop.example_robot("ur5")
    except Exception:
        robot = None                      # no Pinocchio: the end-to-end path is not tested either
    if robot is not None:
        q, v, tau = interop.random_state(robot, seed=0)
        interop.forward_dynamics(robot, q, v, tau, form="fast")
"""


def pytest_sessionstart(session):
    """On the controller (or a run without xdist): start the kernel server (below) and compile the
    fast path in a background process."""
    import importlib.util
    import subprocess
    import sys
    from pathlib import Path

    _start_fork_server(session)
    if hasattr(session.config, "workerinput") or importlib.util.find_spec("numba") is None:
        return
    root = Path(__file__).resolve().parents[1]
    if list((root / "rfda_teach" / "__pycache__").glob("fastpath._pin_fd_packed-*.nbi")):
        return                                # compiled by an earlier run
    session.config._rfda_warm_up = subprocess.Popen(
        [sys.executable, "-c", _WARM_UP], cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pytest_sessionfinish(session):
    proc = getattr(session.config, "_rfda_warm_up", None)
    if proc is not None and proc.poll() is None:
        proc.kill()


# ----------------------------------------------------------------------------- forked kernels
# The book build's and nbval's notebook kernels are forked from one process that has imported
# ipykernel, numpy, scipy, sympy, matplotlib and rfda_teach (tests/forkkernel.py): 1 to 1.5 s of CPU
# less per kernel (the 34 student notebooks under nbval: 112 s of CPU with ordinary kernels, 77 s
# forked; in two fresh-clone runs back to back the kernels took 266 and 205 s).  The controller starts the server and puts
# its kernel spec first on JUPYTER_PATH before the workers start, so that they, the book build and
# nbval inherit it; RFDA_FORK_KERNELS=0 keeps ordinary kernels.  JupyterLab (tests/test_jupyterlab.py)
# always starts an ordinary kernel, as in class.
FORK_DIR_ENV = "RFDA_FORK_KERNEL_DIR"


def _start_fork_server(session):
    """On the controller (or a run without xdist): start the server, put its spec on JUPYTER_PATH."""
    import sys
    import tempfile

    if hasattr(session.config, "workerinput") or os.environ.get("RFDA_FORK_KERNELS", "1") == "0":
        return
    if not sys.platform.startswith("linux") or os.environ.get(FORK_DIR_ENV):
        return
    sys.path.insert(0, os.path.dirname(__file__))
    import forkkernel
    sys.path.pop(0)
    directory = tempfile.mkdtemp(prefix="rfk-", dir="/tmp")    # a socket's path: under 108 bytes
    sock = os.path.join(directory, "server.sock")
    forkkernel.install(directory, sock)
    try:
        proc = forkkernel.start(sock, os.path.join(directory, "server.log"))
    except RuntimeError as e:                 # ordinary kernels then; say why
        import shutil
        shutil.rmtree(directory, ignore_errors=True)
        print(f"forked kernels off: {e}", file=sys.stderr)
        return
    session.config._rfda_fork_server = (proc, directory)
    os.environ[FORK_DIR_ENV] = directory
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (directory, os.environ.get("JUPYTER_PATH")) if p)


def pytest_unconfigure(config):
    import shutil
    import subprocess

    server = getattr(config, "_rfda_fork_server", None)
    if server is None:
        return
    proc, directory = server
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(directory, ignore_errors=True)


def ordinary_kernel_env(env: dict) -> dict:
    """``env`` without the forked kernels' spec on JUPYTER_PATH (for JupyterLab: as in class)."""
    env = dict(env)
    directory = env.pop(FORK_DIR_ENV, None)
    if directory:
        rest = [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != directory]
        if rest:
            env["JUPYTER_PATH"] = os.pathsep.join(rest)
        else:
            env.pop("JUPYTER_PATH", None)
    return env


# The order in which the two workers take the tests (pyproject: --dist loadgroup
# --no-loadscope-reorder, so xdist hands out the work units in this order, each to the first free
# worker).  First the two long units that need nothing built: the book (xdist group "book": the
# build, the checks of its HTML, then the PDF, typeset as soon as the build is done, on the same
# worker) and the editions with JupyterLab; then nbval over the student edition in chunks, the unit
# tests, the tests of the compiled path (by then its background compilation is done); last what
# else reads the built book: the student HTML book, then the pages in Chromium, one test at a
# time, so that both workers finish together.  (The PDF as a unit of its own went, as the second
# unit, to either worker: on the one that did not build, it waited for the build.)
_AFTER_BUILD = ("tests/test_browser.py", "tests/test_scene3d.py")


def _group(item) -> str:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return ""
    return mark.args[0] if mark.args else mark.kwargs.get("name", "default")


def _rank(item) -> int:
    group, path = _group(item), item.nodeid
    order = {"book": 0, "editions": 1, "student_html": 7}
    if group in order:
        return order[group]
    if group.startswith("nbval"):
        return 3
    if path.startswith(_AFTER_BUILD):
        return 8
    if path.startswith(_NUMBA_TESTS):
        return 5
    return 4


def pytest_collection_modifyitems(session, config, items):
    """Order the tests as above (a stable sort: the same order in every worker)."""
    items.sort(key=_rank)


# ----------------------------------------------------------------------------- the time budget
# RFDA_TEST_TIMELINE=<file> python -m pytest appends, per test, "<worker> <start> <end> <node id>"
# (seconds since the epoch), written by the xdist workers: which worker ran what when, to see where
# the 8 minutes go.
_STARTED: dict = {}


def pytest_runtest_logstart(nodeid, location):
    if os.environ.get("RFDA_TEST_TIMELINE") and os.environ.get("PYTEST_XDIST_WORKER"):
        import time
        _STARTED[nodeid] = time.time()


def pytest_runtest_logfinish(nodeid, location):
    path = os.environ.get("RFDA_TEST_TIMELINE")
    if path and nodeid in _STARTED:
        import time
        with open(path, "a") as fh:
            fh.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')} {_STARTED.pop(nodeid):.2f} "
                     f"{time.time():.2f} {nodeid}\n")


def sprung(system, seed, *, n_springs=3, damping=True, stiffness=(1.0, 50.0)):
    """``system`` with ``n_springs`` random spring-dampers (rfda_teach.forces.SpringDamper) between random
    bodies or a body and the ground, at random points; undamped (c = 0) unless ``damping``."""
    import dataclasses

    import numpy as np

    from rfda_teach.bodies import ndim
    from rfda_teach.forces import SpringDamper
    rng = np.random.default_rng(seed)
    d, n = ndim(system.kind), system.n
    els = []
    for _ in range(n_springs):
        a = int(rng.integers(0, n))
        b = int(rng.integers(-1, n - 1))
        b = b + 1 if b >= a else b                       # b != a, may be the ground
        els.append(SpringDamper(a, b, point_a=rng.normal(scale=0.5, size=d), point_b=rng.normal(scale=0.5, size=d),
                                k=float(rng.uniform(*stiffness)), c=float(rng.uniform(0.1, 3.0)) if damping else 0.0,
                                L0=float(rng.uniform(0.0, 1.0))))
    return dataclasses.replace(system, forces=tuple(els))
