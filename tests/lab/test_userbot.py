"""Your own bot from the command line: it plays, and when it breaks the report is about its own code.

Every test runs the real ``gemtable`` command: user bots play in real worker processes,
under the real timers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.platforms.test_windowsish import windowsish_env

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"


ROOMY = "60"
"""Seconds a bot may take a decision in the tests that are not about the time limit: the default second is the
product's, and a machine starved by the whole suite once stopped the Booty Hunter example at it (its decisions
take milliseconds alone)."""


def gemtable(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    if args[:1] == ("simulate",) and "--time-limit" not in args:
        args = (*args, "--time-limit", ROOMY)
    return subprocess.run(
        [sys.executable, "-m", "gemtable", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def bot_file(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return str(path)


def test_an_example_bot_file_plays_a_tournament_the_same_on_one_or_two_workers() -> None:
    args = (
        "simulate",
        "--bot",
        str(EXAMPLES / "greedy_relics.py"),
        "--bots",
        "cautious,odds",
        "--games",
        "60",
        "--seed",
        "3",
        "--json",
    )
    first = gemtable(*args)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert set(data["bots"]) == {"cautious", "odds", "greedy_relics"} and data["games"] == 60
    mine = data["bots"]["greedy_relics"]
    assert mine["seats"] > 0 and mine["win_rate_ci95"][0] <= mine["win_rate"] <= mine["win_rate_ci95"][1]
    assert data["head_to_head"]["greedy_relics"]["cautious"]["meetings"] > 0
    assert json.loads(gemtable(*args, "--jobs", "1").stdout) == data


def test_a_booty_bot_plays_booty_hunter() -> None:
    result = gemtable("simulate", "booty", "--bot", str(EXAMPLES / "booty_corner.py"), "--games", "6", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "booty" and set(data["bots"]) == {"greedy", "random", "booty_corner"}


def test_a_module_function_bot_with_one_argument(tmp_path: Path) -> None:
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "__init__.py").write_text("")
    (tmp_path / "mybots" / "simple.py").write_text(
        "def leave_at_five(view):\n    return 'camp' if view.carried >= 5 else 'deeper'\n"
    )
    result = gemtable(
        "simulate",
        "--bot",
        "mybots.simple:leave_at_five",
        "--bots",
        "cautious",
        "--games",
        "30",
        "--json",
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["bots"]["leave_at_five"]["seats"] > 0


def test_an_exception_is_reported_with_the_bots_own_traceback(tmp_path: Path) -> None:
    path = bot_file(
        tmp_path,
        "broken",
        (
            "def helper(view):\n"
            "    return view.carried // (len(view.inside) - len(view.inside))\n"
            "\n"
            "def choose(view, moves, rng):\n"
            "    if view.cave >= 2:\n"
            "        return helper(view)\n"
            "    return 'deeper'\n"
        ),
    )
    result = gemtable("simulate", "--bot", path, "--bots", "cautious", "--games", "20")
    assert result.returncode == 1
    err = result.stderr
    assert "bot 'broken' raised an exception (game" in err and "ZeroDivisionError" in err
    assert f'File "{path}", line 6, in choose' in err and f'File "{path}", line 2, in helper' in err
    assert "gemtable/" not in err and "play.py" not in err and "concurrent" not in err  # only the bot's frames


def test_a_slow_bot_is_stopped_at_its_time_limit_and_shown_where_it_was(tmp_path: Path) -> None:
    path = bot_file(
        tmp_path,
        "slow",
        (
            "import time\n"
            "def choose(view, moves, rng):\n"
            "    while view.cave >= 2:\n"
            "        time.sleep(0.05)\n"
            "    return 'deeper'\n"
        ),
    )
    started = time.monotonic()
    result = gemtable("simulate", "--bot", path, "--bots", "cautious", "--games", "20", "--time-limit", "0.3")
    assert time.monotonic() - started < 120  # stopped, not waited on (the loop never ends by itself)
    assert result.returncode == 1
    assert "bot 'slow' took longer than 0.3 s to decide" in result.stderr
    assert f'File "{path}", line 4, in choose' in result.stderr


def test_a_bot_stuck_inside_c_code_is_killed_and_named(tmp_path: Path) -> None:
    path = bot_file(
        tmp_path,
        "stuck",
        (
            "def choose(view, moves, rng):\n"
            "    if view.cave >= 2:\n"
            "        sum(range(10 ** 13))  # one C call: no Python signal handler runs until it returns\n"
            "    return 'deeper'\n"
        ),
    )
    result = gemtable(
        "simulate", "--bot", path, "--bots", "cautious", "--games", "20", "--time-limit", "0.2", "--jobs", "1"
    )
    assert result.returncode == 1
    assert "bot 'stuck' did not answer within 0.2 s and could not be interrupted" in result.stderr


def test_two_workers_stuck_in_c_code_under_a_sigterm_handler_are_both_ended(tmp_path: Path) -> None:
    """When the overseer kills one stuck worker, the pool asks the other to end with SIGTERM; a worker stuck in C
    code with a Python SIGTERM handler (its bot's, or coverage.py's) never acts on it.  The overseer goes on
    watching until every worker has ended, so the run ends with the bot named instead of waiting for ever."""
    path = bot_file(
        tmp_path,
        "stubborn",
        (
            "import signal, sys\n"
            "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # runs only between bytecodes\n"
            "def choose(view, moves, rng):\n"
            "    if view.cave >= 2:\n"
            "        sum(range(10 ** 13))\n"
            "    return 'deeper'\n"
        ),
    )
    result = gemtable(  # spawned workers, as on Windows and macOS (where it hung 2 runs of 3)
        *("simulate", "--bot", path, "--bots", "cautious", "--games", "20", "--time-limit", "0.2", "--jobs", "2"),
        env=windowsish_env(),
    )
    assert result.returncode == 1, result.stderr
    assert "bot 'stubborn' did not answer within 0.2 s and could not be interrupted" in result.stderr


def test_an_illegal_move_and_a_broken_file_are_clear_errors(tmp_path: Path) -> None:
    illegal = bot_file(tmp_path, "runaway", "def choose(view):\n    return 'run away'\n")
    result = gemtable("simulate", "--bot", illegal, "--bots", "cautious", "--games", "5")
    assert result.returncode == 1
    assert "bot 'runaway' returned 'run away'" in result.stderr and "'deeper', 'camp'" in result.stderr
    syntax = bot_file(tmp_path, "typo", "def choose(view:\n    return 1\n")
    result = gemtable("simulate", "--bot", syntax, "--bots", "cautious", "--games", "5")
    assert result.returncode == 1 and "could not be loaded" in result.stderr and "SyntaxError" in result.stderr
    assert "importlib" not in result.stderr
    missing = gemtable("simulate", "--bot", str(tmp_path / "nothing.py"), "--games", "5")
    assert missing.returncode == 2 and "no bot file" in missing.stderr
    clash = bot_file(tmp_path, "cautious", "def choose(view):\n    return 'camp'\n")
    result = gemtable("simulate", "--bot", clash, "--bots", "cautious", "--games", "5")
    assert result.returncode == 2 and "two bots are called 'cautious'" in result.stderr


HONEST = "def choose(view, moves, rng):\n    return 'camp' if view.carried >= 8 else 'deeper'\n"

CHEAT = """import copy, gc, os

def choose(view, moves, rng):
    state = getattr(view, "_state", None)
    try:
        state.chest[view.seat] += 100  # its own score, written
        state.relic_points[view.seat] += 100
    except Exception:
        pass
    try:  # the next card, read through the deck's generator
        pile, draw = state.pile, copy.deepcopy(state.rng).random()
        card = pile[int(draw * len(pile))]
        return "camp" if card < 0 and state.hazards_seen[-1 - card] else "deeper"
    except Exception:
        pass
    with open(os.environ["GEMTABLE_TEST_SEEN"], "a") as out:  # what lives in the bot's process
        games = [type(o).__name__ for o in gc.get_objects() if type(o).__name__ in ("ExpeditionState", "Tournament")]
        out.write(f"{os.getpid()} {sorted(set(games))}\\n")
    return "camp" if view.carried >= 8 else "deeper"
"""


def test_a_bot_is_sent_a_copy_of_its_view_and_cannot_peek_or_write_its_score(tmp_path: Path) -> None:
    """Issue 43, finding 4: a bot that reaches behind its view finds a copy of what its seat may know, in a
    process that never held the game: it plays exactly as the honest bot it falls back to (on 91ef538 it read
    the next card and wrote itself 100 points a decision)."""
    seen = tmp_path / "seen.txt"
    args = ("--bots", "cautious,odds", "--games", "40", "--seed", "5", "--json", "--jobs", "2")
    honest = gemtable("simulate", "--bot", bot_file(tmp_path, "bot", HONEST), *args)
    (tmp_path / "cheat").mkdir()
    cheat = gemtable(
        "simulate", "--bot", bot_file(tmp_path / "cheat", "bot", CHEAT), *args, env={"GEMTABLE_TEST_SEEN": str(seen)}
    )
    assert honest.returncode == 0 and cheat.returncode == 0, cheat.stderr
    assert json.loads(cheat.stdout) == json.loads(honest.stdout)
    lines = seen.read_text().splitlines()
    assert lines and {line.split(" ", 1)[1] for line in lines} == {"[]"}  # no game, no tournament in its process
    assert len({line.split()[0] for line in lines}) == 2  # one process of its own in each of the two workers
