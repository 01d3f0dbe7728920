"""A tiny soak: a few tables play for about twenty seconds through a real server that is killed half way;
every finished game must replay to its record, with no error and no gem lost."""

from __future__ import annotations

import json

import pytest

from gemtable.cli import main


def test_a_tiny_soak_survives_drops_and_a_kill(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["bench", "soak", "--minutes", "0.33", "--tables", "4", "--players", "3-4", "--drop-every", "10", "--json"]
    )
    result = json.loads(capsys.readouterr().out)
    assert code == 0, result["problems"]
    assert result["games"] > 0
    assert result["errors"] == 0, result["error_codes"]
    assert result["lost_gems"] == 0 and result["wrong_moves"] == 0
    assert result["choices_checked"] > 0
    assert result["restart"] == "kill" and result["restart_seconds"] is not None
    assert result["reconnects"] >= result["phones"]  # everyone came back after the kill
    assert {"start", "end", "max"} <= set(result["memory_mb"]) and result["latency_ms"]["p99"] is not None


def test_bad_soak_sizes_are_refused() -> None:
    assert main(["bench", "soak", "--players", "9"]) == 2
    assert main(["bench", "soak", "--url", "http://192.168.1.2:8000"]) == 2
