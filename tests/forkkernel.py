"""Notebook kernels forked from one parent that has imported the book's libraries already.

The test command starts 69 notebook kernels (the book build executes the 34 notebooks, nbval the 34
student notebooks, JupyterLab one).  A kernel started the usual way spends about 2 s of CPU
before the first line of a notebook runs: ipykernel and IPython (0.56 s), then the notebook's first
cell, numpy, sympy, matplotlib.pyplot, scipy and rfda_teach (about 1.7 s).  Here one *server*
process imports them once (and ``gc.freeze()``s them), and each kernel is a ``fork`` of
it: the child has them in memory, and runs ipykernel exactly as ``python -m ipykernel_launcher``
would.  The notebooks still import what they use (the import finds the module in place), run in a
fresh namespace and a fresh kernel each; nothing else about them changes.  Measured: the 34 student
notebooks under nbval took 112 s of CPU with ordinary kernels and 77 s forked; in two fresh-clone
runs of the test command back to back, the kernels took 266 and 205 s (README, Timings).

How a kernel is started.  ``install(dir)`` writes a kernel spec named ``python3`` into
``dir/kernels``; with ``dir`` first on ``JUPYTER_PATH`` it stands in for ipykernel's own spec for
the book build's and nbval's kernels (``tests/conftest.py`` does that for the test command only;
a reader's ``jupyter lab`` or ``jupyter-book build`` never sees it).  Its command line is this file
in *launch* mode, which needs only the standard library (``python -I -S``: about 15 ms): the
launcher sends its working directory, environment, arguments and its standard streams (as file
descriptors) to the server over a Unix socket; the server forks; the child takes the launcher's
directory, environment and streams and becomes the kernel.  The launcher then stands in for the
kernel towards jupyter_client: it passes on every signal (an interrupt is SIGINT to the launcher's
process group), and exits with the kernel's exit status.

Nothing can hang or leak a process:
- the launcher falls back to an ordinary kernel (``exec python -m ipykernel_launcher``) when the
  server cannot be reached;
- when the launcher dies (jupyter_client kills it after a shutdown timeout), the server sees its
  socket close and kills the kernel;
- the server dies with the process that started it, and its kernels with the server
  (``PR_SET_PDEATHSIG``), and it kills them all on SIGTERM.

Run ``RFDA_FORK_KERNELS=0 python -m pytest`` for ordinary kernels throughout.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import sys

# what the notebooks import in their first cell (every notebook imports numpy and rfda_teach,
# 27 of 34 matplotlib.pyplot, 16 sympy, 18 scipy); matplotlib's inline backend is *not* imported
# here: on import it hooks itself into the running IPython shell, which exists only in the child
PRELOAD = ("ipykernel.kernelapp", "IPython.display", "numpy", "scipy.linalg", "scipy.integrate",
           "scipy.optimize", "sympy", "matplotlib.pyplot", "rfda_teach")
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)
_PR_SET_PDEATHSIG = 1


def _die_with_parent(sig: int) -> None:
    """Ask Linux to send ``sig`` to this process when its parent exits (no-op elsewhere)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        pass


# ----------------------------------------------------------------------------- the launcher
def launch(socket_path: str, args: list[str]) -> None:
    """Ask the server for a kernel with ``args`` (``-f <connection file>``); wait for it and exit
    with its status.  Falls back to an ordinary kernel when the server is not there."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        s.connect(socket_path)
        request = json.dumps({"args": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        socket.send_fds(s, [request], [0, 1, 2])
        reply = s.recv(64)
    except OSError:
        reply = b""
    if not reply.startswith(b"pid "):
        s.close()
        os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *args])
    pid = int(reply.split()[1])

    def relay(signum, frame):
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass
    for sig in _SIGNALS:
        signal.signal(sig, relay)
    status = s.recv(64)                       # "exit <code>" when the kernel ends; b"" if the server died
    os._exit(int(status.split()[1]) if status.startswith(b"exit ") else 1)


# ----------------------------------------------------------------------------- the server
def serve(socket_path: str) -> None:
    """Import PRELOAD, then fork a kernel for every launcher that connects, until SIGTERM."""
    import importlib
    import selectors
    import traceback

    _die_with_parent(signal.SIGTERM)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]   # not the kernels' path
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")  # as ipykernel sets it
    stopping = []

    def stop(signum, frame):
        stopping.append(signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(socket_path)                # bound first: a launcher that comes early waits for the imports
    listener.listen(128)
    for name in PRELOAD:
        if stopping:
            break
        try:
            importlib.import_module(name)
        except Exception:                     # the kernel will import it and report the error itself
            traceback.print_exc()
    import gc
    gc.collect()
    gc.freeze()         # the imported objects: out of every kernel's garbage collections (and copies)
    kernels: dict[int, socket.socket] = {}    # kernel pid -> its launcher's connection
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ)
    try:
        while not stopping:
            for key, _ in sel.select(timeout=0.05):
                if key.fileobj is listener:
                    conn, _ = listener.accept()
                    pid = _spawn(conn, listener, kernels, sel)
                    if pid:
                        kernels[pid] = conn
                        sel.register(conn, selectors.EVENT_READ, pid)
                else:                         # the launcher went away: its kernel goes too
                    _kill(key.data)
                    sel.unregister(key.fileobj)
            _reap(kernels, sel)
    finally:
        for pid in list(kernels):
            _kill(pid)
        try:
            os.unlink(socket_path)
        except OSError:
            pass


def _spawn(conn, listener, kernels, sel) -> int:
    """Read a launcher's request from ``conn`` and fork its kernel; the kernel's pid, or 0."""
    try:
        msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        request = json.loads(msg)
    except (OSError, ValueError):
        conn.close()
        return 0
    pid = os.fork()
    if pid == 0:                              # the child: become the kernel
        code = 1
        try:
            sel.close()
            listener.close()
            for other in kernels.values():
                other.close()
            conn.close()
            _die_with_parent(signal.SIGKILL)
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, signal.SIG_DFL if sig == signal.SIGTERM else signal.default_int_handler)
            for target, fd in zip((0, 1, 2), fds):
                os.dup2(fd, target)
                os.close(fd)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            # ipykernel reads JPY_PARENT_PID when it is imported, i.e. in the server: pass it on
            parent = request["env"].get("JPY_PARENT_PID", "")
            extra = [f"--IPKernelApp.parent_handle={int(parent)}"] if parent.isdigit() else []
            sys.argv = ["ipykernel_launcher", *request["args"], *extra]
            from ipykernel import kernelapp
            kernelapp.launch_new_instance()
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
        finally:                              # exit as the interpreter would, never into the server's loop
            try:
                import atexit
                atexit._run_exitfuncs()       # what an ordinary kernel runs on exit (IPython's history)
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    for fd in fds:
        os.close(fd)
    try:
        conn.send(f"pid {pid}".encode())
    except OSError:
        _kill(pid)
    return pid


def _reap(kernels, sel) -> None:
    """Tell each finished kernel's launcher its exit status."""
    while kernels:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = kernels.pop(pid, None)
        if conn is None:
            continue
        try:
            sel.unregister(conn)
        except (KeyError, ValueError):
            pass
        try:
            conn.send(f"exit {os.waitstatus_to_exitcode(status)}".encode())
        except OSError:
            pass
        conn.close()


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# ----------------------------------------------------------------------------- set-up
def install(directory: str, socket_path: str) -> str:
    """Write the ``python3`` kernel spec that launches forked kernels into ``directory/kernels``;
    return ``directory`` (to be put first on ``JUPYTER_PATH``)."""
    spec = os.path.join(directory, "kernels", "python3")
    os.makedirs(spec, exist_ok=True)
    argv = [sys.executable, "-I", "-S", os.path.abspath(__file__), "launch", socket_path,
            "-f", "{connection_file}"]
    with open(os.path.join(spec, "kernel.json"), "w") as fh:
        json.dump({"argv": argv, "display_name": "Python 3 (ipykernel, forked)", "language": "python",
                   "metadata": {"debugger": True}}, fh)
    return directory


def start(socket_path: str, log_path: str, timeout: float = 10.0):
    """Start the server (``python forkkernel.py serve``) and wait until it listens on its socket
    (its imports follow; a launcher that connects meanwhile waits for them).  Returns the
    ``Popen``; raises ``RuntimeError`` (after killing it) when it does not listen in ``timeout``."""
    import subprocess
    import time

    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "serve", socket_path],
                                stdout=subprocess.DEVNULL, stderr=log)
    end = time.monotonic() + timeout
    while not os.path.exists(socket_path):
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            with open(log_path) as fh:
                raise RuntimeError(f"the kernel server did not start: {fh.read()[-2000:]}")
        time.sleep(0.01)
    return proc


if __name__ == "__main__":
    mode, path, *rest = sys.argv[1:]
    if mode == "launch":
        launch(path, rest)
    elif mode == "serve":
        serve(path)
    else:
        sys.exit(f"forkkernel.py: unknown mode {mode!r} (launch or serve)")
