"""A tiny soak: a few tables of every game play for about twenty seconds through a real server that is killed
half way; every finished game must replay to its record, with no error and no gem lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools.__main__ import main


def test_a_tiny_soak_survives_drops_and_a_kill(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["soak", "--minutes", "0.33", "--tables", "4", "--players", "3-4", "--drop-every", "10", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0, result["problems"]
    assert result["games"] > 0
    assert result["errors"] == 0, result["error_codes"]
    assert result["lost_gems"] == 0 and result["wrong_moves"] == 0
    assert result["choices_checked"] > 0
    assert result["restart"] == "kill" and result["restart_seconds"] is not None
    assert result["reconnects"] >= result["phones"]  # everyone came back after the kill
    assert {"start", "end", "max"} <= set(result["memory_mb"]) and result["latency_ms"]["p99"] is not None
    # Every game the server hosts is soaked, and reported on its own.
    assert set(result["by_game"]) == {"expedition", "booty"}
    for game, tally in result["by_game"].items():
        assert tally["tables"] == 2 and tally["games"] > 0, (game, tally)
        assert tally["choices_checked"] > 0 and tally["wrong_moves"] == 0 and tally["lost_gems"] == 0, (game, tally)
    assert sum(t["games"] for t in result["by_game"].values()) == result["games"]


def test_bad_soak_sizes_are_refused() -> None:
    assert main(["soak", "--players", "9"]) == 2
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
