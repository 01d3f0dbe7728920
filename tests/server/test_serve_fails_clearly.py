"""``gemtable serve`` says where to find it only once it is listening, and when it cannot start it says so
in one plain sentence first, with a non-zero exit: a busy port, a data folder another server holds, a
folder it cannot write."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.server.harness import free_port


def serve(*args: str) -> list[str]:
    return [sys.executable, "-m", "gemtable", "serve", "--host", "127.0.0.1", "--no-qr", *args]


def fails(*args: str) -> tuple[int, str, str]:
    done = subprocess.run(serve(*args), capture_output=True, text=True, timeout=60, env=os.environ.copy())
    return done.returncode, done.stdout, done.stderr


def fails_on_a_free_port(*args: str) -> tuple[int, str, str]:
    """``fails`` on a free port: one that another test takes meanwhile is not what is tested, so another is tried."""
    for _ in range(5):
        code, out, err = fails("--port", str(free_port()), *args)
        if "is already in use" not in err:
            break
    return code, out, err


def first_server(data: Path) -> tuple[int, subprocess.Popen[str], str]:
    """A server on a free port (another is tried if a test takes it meanwhile), and its line with its address."""
    for _ in range(5):
        port = free_port()
        proc = subprocess.Popen(
            serve("--port", str(port), "--data", str(data)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        assert proc.stdout is not None
        started = time.monotonic()
        line = proc.stdout.readline()
        while line and f":{port}/" not in line and time.monotonic() - started < 30:
            line = proc.stdout.readline()
        if line or proc.wait(20) == 0 or "is already in use" not in (proc.stderr.read() if proc.stderr else ""):
            return port, proc, line
    return port, proc, line


def test_a_busy_port_is_one_sentence_before_anything_else(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, out, err = fails("--port", str(port), "--data", str(tmp_path / "data"))
    assert code != 0
    assert out == ""  # no "gemtable is running", no address, no QR code
    assert err.strip().splitlines() == [
        f"gemtable: port {port} is already in use on this machine (is another gemtable running?): "
        "stop that program, or choose another port with --port"
    ]


def test_a_data_folder_that_cannot_be_written_is_one_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", "utf-8")
    code, out, err = fails_on_a_free_port("--data", str(blocker / "data"))
    assert code != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"gemtable: cannot write to the data folder {blocker / 'data'} (")
    assert lines[0].endswith("): choose another with --data")


def test_the_address_is_printed_once_the_server_listens_and_a_second_server_on_its_folder_is_refused(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    port, first, line = first_server(data)
    try:
        assert f":{port}/" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:  # at once, no retry
            assert answer.status == 200
        code, out, err = fails_on_a_free_port("--data", str(data))
        assert code != 0 and out == ""
        assert err.strip().splitlines() == [f"gemtable: another gemtable is already serving {data}"]
    finally:
        first.terminate()
        first.wait(20)
