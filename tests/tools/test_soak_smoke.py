"""A tiny soak: a few tables of every game play for about fifteen seconds through a real server that is killed
half way, switching games between games and holding silent decisions, the phones beyond a game's chairs
predicting as its audience; every finished game must replay to its record, with no error and no gem lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools.__main__ import main
from tools.soak import _Me, _Notice, _played_for, _View


def test_a_tiny_soak_survives_drops_a_kill_switches_and_holds(capsys: pytest.CaptureFixture[str]) -> None:
    # Four phones a table (a table that plays Booty Hunter after the expedition has a watcher of it, who predicts).
    # Quick thumbs and a 4 s clock (a silent decision holds after it), every expedition game with one: the tables
    # finish a game and switch to the next within the time, in about 30 s in all.
    code = main(
        [
            "soak",
            "--minutes",
            "0.25",
            "--tables",
            "4",
            "--players",
            "4-4",
            "--drop-every",
            "10",
            "--think",
            "0.05-0.2",
            "--seconds",
            "4",
            "--pause",
            "0.5",
            "--quiet",
            "1",
            "--json",
        ]
    )
    result = json.loads(capsys.readouterr().out)
    print(
        f"\nsoak: {result['games']} games, {result['switches']} switches, {result['quiet']} silent decisions, "
        f"{result['holds']} holds, {result['drops']} drops, {result['predicted']} predictions "
        f"in {result['seconds']} s"
    )
    assert code == 0, result["problems"]
    assert result["games"] > 0
    assert result["errors"] == 0, result["error_codes"]
    assert result["lost_gems"] == 0 and result["wrong_moves"] == 0
    assert result["choices_checked"] > 0
    assert result["restart"] == "kill" and result["restart_seconds"] is not None
    assert result["reconnects"] >= result["phones"]  # everyone came back after the kill
    assert {"start", "end", "max"} <= set(result["memory_mb"]) and result["latency_ms"]["p99"] is not None
    # The tables switched games (same code, same phones) and the games after a switch replay too; silent
    # decisions were held, and the hosts' phones lifted the holds.
    assert result["switches"] >= 1 and result["holds"] >= 1 and result["quiet"] >= result["holds"], result
    # Every game the server hosts is soaked, and reported on its own (by the game each record is of).
    assert set(result["by_game"]) == {"expedition", "booty"}
    for game, tally in result["by_game"].items():
        assert tally["tables"] >= 2 and tally["games"] > 0, (game, tally)
        assert tally["choices_checked"] > 0 and tally["wrong_moves"] == 0 and tally["lost_gems"] == 0, (game, tally)
    assert sum(t["games"] for t in result["by_game"].values()) == result["games"]
    # The phones beyond a game's chairs (Booty Hunter's three) and those that came during an expedition's first
    # cave watched and predicted (issue 42): who leads the count, who walks out and whether the cave collapses. No
    # error came of it, and the tables the server shows are the tables their logs rebuild, predictions and points
    # included.
    assert result["late_arrivals"] >= 1, result
    assert result["predicted"].get("cave", 0) > 0, result  # (Booty Hunter's, when a table's watcher met a game)
    assert sum(t["tables"] for t in result["by_game"].values()) > result["tables"]  # a table played both games


def test_bad_soak_sizes_are_refused() -> None:
    assert main(["soak", "--players", "9"]) == 2
    assert main(["soak", "--quiet", "2"]) == 2
    assert main(["soak", "--url", "http://192.168.1.2:8000"]) == 2


def test_the_tools_run_from_the_repository_as_documented() -> None:
    """``python -m tools soak`` and ``python -m tools fuzz``, from the repository (the tools are not installed)."""
    root = Path(__file__).resolve().parents[2]
    for tool in ("soak", "fuzz"):
        done = subprocess.run(
            [sys.executable, "-m", "tools", tool, "--help"], cwd=root, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert f"python -m tools {tool}" in done.stdout
    done = subprocess.run([sys.executable, "-m", "tools"], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "soak" in done.stdout and "fuzz" in done.stdout


def test_a_choice_the_table_played_for_is_told_apart_from_a_wrong_one() -> None:
    """A phone's choice lost with its connection (or sent after the clock): the table plays the seat's turn for it
    and says so (``missed``, ``timed_out``, ``stand_in``), and only a notice newer than the choice counts."""
    missed = _Notice(id=41, kind="missed", seat=2)
    timed_out = _Notice(id=42, kind="timed_out", seats=[0, 3])
    view = _View(news=[_Notice(id=40, kind="away", seat=2), missed, timed_out])
    assert _played_for(view, 2, since=40) and _played_for(view, 3, since=40)
    assert not _played_for(view, 2, since=41)  # the table played for seat 2 before the choice was sent
    assert not _played_for(view, 1, since=0) and not _played_for(view, None, since=0)
    kept = _View(news=[], me=_Me(news=[_Notice(id=50, kind="stand_in", seat=1)]))  # (the phone's own notices)
    assert _played_for(kept, 1, since=49) and not _played_for(kept, 1, since=50)
