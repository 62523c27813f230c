"""The forked notebook kernels of the test command (tests/forkkernel.py): they run code as an ordinary
kernel does, in the client's directory and environment, with figures; they can be interrupted; and
no kernel outlives its launcher or the server."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel server forks (Linux)")

import forkkernel  # noqa: E402  (tests/ is on sys.path: pytest's rootdir conftest)


def _gone(pid: int) -> bool:
    """True once ``pid`` is neither running nor a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _wait(predicate, seconds=15.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


class Server:
    """A kernel server of its own in a short temporary folder (a Unix socket path has < 108 bytes)."""

    def __init__(self, sock_name="server.sock"):
        self.dir = tempfile.mkdtemp(prefix="rfk-", dir="/tmp")
        self.sock = os.path.join(self.dir, sock_name)
        forkkernel.install(self.dir, self.sock)
        self.proc = forkkernel.start(self.sock, os.path.join(self.dir, "log"))

    def kernel(self, **kw):
        """A started KernelManager and a ready client for this server's ``python3`` spec."""
        from jupyter_client import KernelManager
        from jupyter_client.kernelspec import KernelSpecManager

        km = KernelManager(kernel_name="python3",
                           kernel_spec_manager=KernelSpecManager(kernel_dirs=[os.path.join(self.dir, "kernels")]))
        km.start_kernel(**kw)
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=90)
        return km, kc

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def run(kc, code, timeout=60):
    """Execute ``code``; return (reply content, stdout text, output messages)."""
    out, msgs = [], []

    def hook(msg):
        msgs.append(msg)
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
    reply = kc.execute_interactive(code, output_hook=hook, timeout=timeout)
    return reply["content"], "".join(out), msgs


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.close()


def test_a_forked_kernel_runs_code_where_and_as_the_client_asked(server, tmp_path):
    km, kc = server.kernel(cwd=str(tmp_path), env=dict(os.environ, RFDA_PROBE="probe-value"))
    try:
        code = ("import os, sys\n"
                "print(os.getcwd()); print(os.environ.get('RFDA_PROBE')); print('sympy' in sys.modules)\n"
                "print(os.getppid()); print(any(p.rstrip('/').endswith('tests') for p in sys.path))\n"
                "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0]); plt.show()")
        reply, out, msgs = run(kc, code)
        assert reply["status"] == "ok", reply
        cwd, probe, preloaded, ppid, tests_on_path = out.split()
        assert os.path.samefile(cwd, tmp_path)
        assert probe == "probe-value"
        assert preloaded == "True"               # forked from the server, which imported sympy
        assert int(ppid) == server.proc.pid
        assert tests_on_path == "False"          # the server's script folder is not the kernel's path
        assert any("image/png" in m["content"].get("data", {}) for m in msgs if m["msg_type"] == "display_data")
        reply, _, _ = run(kc, "1/0")
        assert reply["status"] == "error" and reply["ename"] == "ZeroDivisionError"
    finally:
        kc.stop_channels()
        km.shutdown_kernel()
    assert km.provisioner is None or not km.is_alive()


def test_an_interrupt_reaches_the_forked_kernel(server):
    km, kc = server.kernel()
    try:
        # stop_on_error=False: the kernel then takes the next request at once (with True it aborts
        # what arrives within its abort window, a matter of timing), as nbclient and nbval ask it to
        msg_id = kc.execute("import time; print('asleep', flush=True); time.sleep(120)", stop_on_error=False)
        while True:                              # interrupt the sleep, not the kernel's way into it
            msg = kc.get_iopub_msg(timeout=60)
            if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
                break
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != msg_id:      # e.g. the kernel_info reply of the start
            reply = kc.get_shell_msg(timeout=30)
        reply = reply["content"]
        assert reply["status"] == "error" and reply["ename"] == "KeyboardInterrupt", reply
        reply, out, _ = run(kc, "print(6 * 7)")
        assert out.strip() == "42"               # the kernel lives on after the interrupt
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_killed_launcher_takes_its_kernel_with_it(server):
    km, kc = server.kernel()
    _, out, _ = run(kc, "import os; print(os.getpid())")
    pid = int(out)
    launcher = km.provisioner.process
    assert launcher.pid != pid
    kc.stop_channels()
    km.shutdown_kernel(now=True)                 # jupyter_client kills the launcher's process group
    assert _wait(lambda: launcher.poll() is not None)
    assert _wait(lambda: _gone(pid)), f"kernel {pid} outlived its launcher"


def test_without_a_server_the_launcher_starts_an_ordinary_kernel():
    s = Server()
    s.close()                                    # the spec points at a socket nobody serves
    forkkernel.install(s.dir, s.sock)
    try:
        km, kc = s.kernel()
        try:
            reply, out, _ = run(kc, "import os, sys; print('sympy' in sys.modules, os.getpid())")
            assert reply["status"] == "ok"
            preloaded, pid = out.split()
            assert preloaded == "False"
            assert int(pid) == km.provisioner.process.pid   # the launcher became the kernel (exec)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    finally:
        shutil.rmtree(s.dir, ignore_errors=True)


def test_a_stopped_server_stops_its_kernels_and_removes_its_socket():
    s = Server()
    try:
        km, kc = s.kernel()
        _, out, _ = run(kc, "import os; print(os.getpid())")
        pid = int(out)
        kc.stop_channels()
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(timeout=15) == 0, open(os.path.join(s.dir, "log")).read()
        assert _wait(lambda: _gone(pid)), f"kernel {pid} outlived the server"
        assert not os.path.exists(s.sock)
        assert _wait(lambda: not km.is_alive())  # and the launcher, told nothing, exits too
        km.cleanup_resources()
    finally:
        s.close()
