"""`make run`'s supervisor (``greatgame.runall``): Ctrl-C or a SIGTERM stops the web server,
the worker and beat within seconds, cleanly, and one of them stopping stops the others.

`make run` used to send SIGTERM to each process group: the worker's pool processes died with
it (logged as an ERROR), and one killed while reading a task kept the pool's queue lock, so the
worker, after "Restoring N unacknowledged message(s)", waited for that lock forever and only
kill -9 ended it. The supervisor sends SIGINT, which the pool processes ignore."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from greatgame import runall

ROOT = Path(__file__).resolve().parent.parent

APP = """
import os
from celery import Celery

folder = os.environ["TEST_BROKER_DIR"]
app = Celery("stopapp")
app.conf.broker_url = "filesystem://"
app.conf.broker_transport = "greatgame.broker:Transport"
app.conf.broker_transport_options = {
    "data_folder_in": folder + "/queue",
    "data_folder_out": folder + "/queue",
    "processed_folder": folder + "/processed",
    "control_folder": folder + "/control",
}
app.conf.broker_connection_retry_on_startup = True


@app.task
def work(n):
    return n
"""

SEND = """
import datetime, sys
from stopapp import work

later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=7)
for n in range(int(sys.argv[1])):
    work.apply_async((n,), eta=later)  # held unacknowledged by the worker, like deadlines
    work.delay(n)
"""


def test_split() -> None:
    assert runall.split(["--", "a", "b", "--", "c"]) == [["a", "b"], ["c"]]
    with pytest.raises(SystemExit):
        runall.split(["a"])


def test_announce_option() -> None:
    assert runall.options(["--announce", "http://x/", "hi", "--", "a"]) == (
        ("http://x/", "hi"),
        ["--", "a"],
    )
    assert runall.options(["--", "a"]) == (None, ["--", "a"])
    with pytest.raises(SystemExit):
        runall.options(["--announce", "http://x/", "--", "a"])


def test_the_banner_is_printed_again_once_the_server_answers(tmp_path) -> None:
    """``make run`` prints the address and the sign-ins before the three start; their start-up
    lines pushed it off the screen, so it comes again once the web server answers."""
    port = _free_port()
    # The "web server" answers only after a second, as runserver does after its checks.
    web = [sys.executable, "-c", f"import time; time.sleep(1); {SERVE.format(port=port)}"]
    url = f"http://127.0.0.1:{port}/healthz?only=web"
    argv = [sys.executable, "-m", "greatgame.runall", "--announce", url, "BANNER-LINE", "--", *web]
    supervisor = subprocess.Popen(
        argv, cwd=ROOT, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 30
        line = ""
        while "BANNER-LINE" not in line:
            assert time.monotonic() < deadline, "the banner never came"
            line = supervisor.stderr.readline()
            assert line or supervisor.poll() is None, "the supervisor stopped"
    finally:
        os.killpg(supervisor.pid, signal.SIGINT)
        _wait(supervisor, 30)


def test_no_banner_while_nothing_answers() -> None:
    stop = threading.Event()
    url = f"http://127.0.0.1:{_free_port()}/"
    started = time.monotonic()
    assert not runall.announce(url, "never", stop, wait=1.0)
    assert time.monotonic() - started < 10


SERVE = (
    "import http.server; "
    "http.server.HTTPServer(('127.0.0.1', {port}), http.server.BaseHTTPRequestHandler)"
    ".serve_forever()"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _supervisor(*commands: list[str], grace: float = 20, env=None) -> subprocess.Popen:
    argv = [sys.executable, "-m", "greatgame.runall"]
    for command in commands:
        argv += ["--", *command]
    env = {**(env or os.environ), "RUNALL_GRACE": str(grace)}
    return subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True)


def _descendants(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    children = [int(child) for child in found.stdout.split()]
    return children + [grandchild for child in children for grandchild in _descendants(child)]


def _wait(process: subprocess.Popen, seconds: float) -> float:
    start = time.monotonic()
    try:
        process.wait(timeout=seconds)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return time.monotonic() - start


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_busy_worker_on_the_embedded_broker_stops_cleanly(tmp_path, signum) -> None:
    (tmp_path / "stopapp.py").write_text(textwrap.dedent(APP))
    (tmp_path / "send.py").write_text(textwrap.dedent(SEND))
    env = {**os.environ, "TEST_BROKER_DIR": str(tmp_path / "broker")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    for sub in ("queue", "processed", "control"):
        (tmp_path / "broker" / sub).mkdir(parents=True)
    subprocess.run([sys.executable, "send.py", "40"], cwd=tmp_path, env=env, check=True)
    log = tmp_path / "worker.log"
    worker = [sys.executable, "-m", "celery", "-A", "stopapp", "worker", "--loglevel=info"]
    worker += ["--concurrency=2", f"--logfile={log}", "--without-gossip", "--without-mingle"]
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    supervisor = _supervisor(worker, sleeper, env=env)
    deadline = time.monotonic() + 60
    while "ready." not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline and supervisor.poll() is None, "worker never ready"
        time.sleep(0.2)
    # more work arrives while it stops: pool processes are busy reading tasks
    sender = subprocess.Popen([sys.executable, "send.py", "150"], cwd=tmp_path, env=env)
    time.sleep(0.5)
    started = _descendants(supervisor.pid)  # the worker, its pool processes and the sleeper
    assert len(started) >= 4
    supervisor.send_signal(signum)
    took = _wait(supervisor, 30)
    sender.wait(timeout=60)
    text = log.read_text()
    assert supervisor.returncode == 0, text[-3000:]
    assert took < 15, f"took {took:.1f} s\n{text[-3000:]}"
    assert all(_gone(pid) for pid in started)
    assert "Restoring" in text  # the held messages were put back
    assert "exited with 'signal" not in text, text[-3000:]  # no pool process was killed
    assert "ERROR" not in text, text[-3000:]


def test_one_stopping_stops_the_others() -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    supervisor = _supervisor(sleeper, [sys.executable, "-c", "raise SystemExit(3)"])
    assert _wait(supervisor, 20) < 15
    assert supervisor.returncode == 3


def test_one_that_will_not_stop_is_killed() -> None:
    stubborn = [sys.executable, "-c", "import signal, time\n"]
    stubborn[-1] += "signal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(600)"
    supervisor = _supervisor(stubborn, grace=1)
    time.sleep(1)
    supervisor.send_signal(signal.SIGTERM)
    assert _wait(supervisor, 20) < 10
    assert supervisor.returncode == 1
