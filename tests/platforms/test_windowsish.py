"""gemtable on a Python that looks like Windows' to it (``windowsish/sitecustomize.py``): no POSIX-only
module, ``sys.platform == "win32"``, no ``SIGALRM``/``setitimer``/``SIGKILL``, no CPU affinity, processes
started with ``spawn``, and any text file opened without an explicit encoding an error.

The server serves and plays a whole game, a second server on the same data folder is refused, a
simulation on spawned workers gives exactly today's results, a user bot is stopped at its time limit by
the portable watchdog (and one stuck in C code is ended by the parent), and a record replays."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import SHORT, play_until_over

ROOT = Path(__file__).resolve().parents[2]
WINDOWSISH = Path(__file__).resolve().parent / "windowsish"
EXAMPLES = ROOT / "examples" / "bots"


def windowsish_env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(WINDOWSISH), os.environ.get("PYTHONPATH", "")) if p)
    return {"PYTHONPATH": path, "PYTHONWARNDEFAULTENCODING": "1"}


def gemtable(*args: str, windowsish: bool = True, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **(windowsish_env() if windowsish else {})}
    return subprocess.run(
        [sys.executable, "-m", "gemtable", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


def python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={**os.environ, **windowsish_env()}
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_test_really_plays_windows() -> None:
    shown = python(
        "import multiprocessing, gemtable.machine as m, gemtable.lab.userbot as u\n"
        "import importlib\n"
        "try:\n"
        "    exec('import fcntl', {'__name__': 'gemtable.x'})\n"
        "    hidden = 'no'\n"
        "except ImportError:\n"
        "    hidden = 'yes'\n"
        "print(multiprocessing.get_start_method(), m.sys.platform, type(u._clock()).__name__, hidden,"
        " m.raise_open_files())"
    )
    assert shown == "spawn win32 _Watchdog yes None"


def test_every_module_of_the_package_imports_without_a_posix_only_module() -> None:
    shown = python(
        "import importlib, pkgutil, gemtable\n"
        "names = [m.name for m in pkgutil.walk_packages(gemtable.__path__, 'gemtable.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "print(len(names))"
    )
    assert int(shown) > 60  # every module, the server's, the lab's and the benchmarks' included


def test_the_server_serves_and_plays_a_whole_game_as_on_windows(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data")
    server.env = windowsish_env()
    server.start()
    try:
        for path in ("/", "/api/games", "/static/js/phone.js", "/rules"):
            status, _ = server.get(path)
            assert status == 200, path
        code = server.create_table(script=SHORT, seconds=5, pause=0.5)

        async def scenario() -> dict[str, Any]:
            ann, bob = [await Client.open(server.ws) for _ in range(2)]
            await ann.join(code, "Ann")
            await bob.join(code, "Bob")
            await ann.until(lambda s: len(s["people"]) == 2)
            await ann.start()
            final = await play_until_over([ann, bob], "camp")
            for client in (ann, bob):
                await client.close()
            return final

        final = asyncio.run(asyncio.wait_for(scenario(), 120))
        assert final["phase"] == "results" and sum(final["state"]["scores"]) > 0
        status, record = server.get(f"/api/tables/{code}/games/1")
        assert status == 200
        (tmp_path / "record.json").write_text(json.dumps(record), "utf-8")
        replayed = gemtable("replay", str(tmp_path / "record.json"))
        assert replayed.returncode == 0 and "matches the recorded result" in replayed.stdout, replayed.stderr

        second = subprocess.run(
            [*server.command(), "--port", "0"],  # the same data folder, another port
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, **windowsish_env()},
        )
        assert second.returncode != 0
        assert f"another gemtable is already serving {server.data}" in second.stderr
        assert "open http" not in second.stdout
    finally:
        server.stop()
    log = server.log_tail(100_000)
    assert "open files: this system has no per-process limit to raise" in log  # the Windows branch ran
    assert "Traceback" not in log and "EncodingWarning" not in log


def test_a_simulation_on_spawned_workers_gives_todays_results() -> None:
    args = (
        "simulate",
        "--bots",
        "cautious,odds,threshold=9",
        "--games",
        "1500",
        "--seed",
        "11",
        "--players",
        "3-6",
        "--jobs",
        "2",
        "--json",
    )
    today = gemtable(*args, windowsish=False)
    spawned = gemtable(*args)
    assert today.returncode == 0 and spawned.returncode == 0, spawned.stderr
    assert json.loads(spawned.stdout) == json.loads(today.stdout)
    mine = ("simulate", "--bot", str(EXAMPLES / "greedy_relics.py"), "--bots", "cautious", "--games", "60")
    today = gemtable(*mine, "--seed", "4", "--jobs", "2", "--json", windowsish=False)
    spawned = gemtable(*mine, "--seed", "4", "--jobs", "2", "--json")
    assert json.loads(spawned.stdout) == json.loads(today.stdout), spawned.stderr


def _bot(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body, "utf-8")
    return str(path)


def test_a_slow_bot_is_stopped_by_the_watchdog_and_shown_where_it_was(tmp_path: Path) -> None:
    path = _bot(
        tmp_path,
        "slow",
        "import time\ndef choose(view, moves, rng):\n    while view.cave >= 2:\n        time.sleep(0.05)\n"
        "    return 'deeper'\n",
    )
    result = gemtable("simulate", "--bot", path, "--bots", "cautious", "--games", "20", "--time-limit", "0.3")
    assert result.returncode == 1
    assert "bot 'slow' took longer than 0.3 s to decide" in result.stderr
    assert f'File "{path}", line 4, in choose' in result.stderr
    assert "gemtable/" not in result.stderr  # only the bot's own frames


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bot_stuck_in_c_code_is_ended_by_the_parent_and_named(tmp_path: Path, jobs: str) -> None:
    path = _bot(
        tmp_path,
        "stuck",
        "def choose(view, moves, rng):\n    if view.cave >= 2:\n        sum(range(10 ** 13))\n    return 'deeper'\n",
    )
    result = gemtable(
        "simulate", "--bot", path, "--bots", "cautious", "--games", "20", "--time-limit", "0.2", "--jobs", jobs
    )
    assert result.returncode == 1
    assert "bot 'stuck' did not answer within 0.2 s and could not be interrupted" in result.stderr
