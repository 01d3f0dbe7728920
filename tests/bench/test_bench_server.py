"""Smoke tests of ``gemtable bench server``: tiny sizes, real server processes, no timing assertions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gemtable.bench.load import Target, households, quantile, source_address, summary_ms
from gemtable.bench.server import GENERATOR_BOUND, _ratio
from gemtable.cli import main
from gemtable.server.limits import Limits
from tests.server.harness import ServerProcess

RUN_KEYS = {
    "tables",
    "connections",
    "reveals_per_second",
    "latency_ms",
    "server_cpu_percent",
    "server_rss_mb",
    "rss_per_table_kb",
    "errors",
    "error_codes",
    "deadline_reveals",
    "client_cpu_percent",
    "client_loop_lag_ms",
    "other_cpu_percent",
    "server_cpu_ms_per_reveal",
    "server_cpu_us_per_message",
    "messages_per_reveal",
    "generator_bound",
}


def bench(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code = main(
        [
            "bench",
            "server",
            "--tables",
            "2",
            "--players",
            "3",
            "--pace",
            "instant",
            "--seconds",
            "3",
            "--warmup",
            "1",
            "--pause",
            "0.5",
            "--no-pin",
            "--json",
            *extra,
        ]
    )
    out = capsys.readouterr().out
    result = json.loads(out)
    assert code == 0, result
    return dict(result)


def check_run(run: dict[str, Any], tables: int = 2, players: int = 3) -> None:
    assert set(run) >= RUN_KEYS
    assert run["tables"] == tables
    assert run["connections"] == tables * players
    assert run["errors"] == 0, run["error_codes"]
    assert run["reveals_per_second"] > 0
    latency = run["latency_ms"]
    assert set(latency) >= {"p50", "p99", "max"}
    assert latency["samples"] > 0
    assert latency["p50"] <= latency["p99"] <= latency["max"]


def test_bench_server_starts_its_own_server_and_measures_reveals(capsys: pytest.CaptureFixture[str]) -> None:
    result = bench(capsys)
    assert set(result["runs"]) == {"instant"}
    run = result["runs"]["instant"]
    check_run(run)
    assert run["server_cpu_percent"] is not None
    assert run["server_rss_mb"] is not None
    assert result["server"]["started_by_bench"] is True


def test_bench_server_baseline_runs_the_same_phones_against_the_minimal_room_server(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = bench(capsys, "--baseline")
    assert result["server"]["kind"] == "gemtable"
    base = result["baseline"]
    assert base["server"]["kind"] == "baseline (websockets alone)"
    check_run(result["runs"]["instant"])
    check_run(base["runs"]["instant"])  # the same phones held the same conversation with it
    ours, theirs, ratio = result["runs"]["instant"], base["runs"]["instant"], result["ratio"]["instant"]
    # Two tiny tables for three seconds: the bare server's CPU may be under one clock tick (0): then no ratio.
    cost = theirs["server_cpu_ms_per_reveal"]
    assert ratio["server_cpu_per_reveal"] == (round(ours["server_cpu_ms_per_reveal"] / cost, 3) if cost else None)
    if ours["generator_bound"] or theirs["generator_bound"]:  # two tables: not expected, but never a ratio then
        assert ratio["reveals_per_second"] is None and "load generator" in ratio["reveals_per_second_refused"]
    else:
        assert ratio["reveals_per_second"] == round(ours["reveals_per_second"] / theirs["reveals_per_second"], 3)
        assert ratio["reveals_per_second_refused"] is None


def _run(reveals_per_second: float, cpu_ms: float, generator: float) -> dict[str, Any]:
    return {
        "reveals_per_second": reveals_per_second,
        "server_cpu_ms_per_reveal": cpu_ms,
        "server_cpu_us_per_message": cpu_ms * 1000 / 36,
        "latency_ms": {"p50": 1.0, "p99": 2.0},
        "server_cpu_percent": reveals_per_second * cpu_ms / 10,
        "rss_per_table_kb": 300.0,
        "client_cpu_percent": generator,
        "generator_bound": generator > GENERATOR_BOUND,
    }


def test_a_generator_bound_run_gives_no_ratio_of_reveals_but_still_one_of_cpu_per_reveal() -> None:
    """The issue's own figures: a Python generator at 96-100 % of its core against the bare server."""
    ratio = _ratio(_run(450.0, 1.67, 60.0), _run(520.0, 0.6, 98.0))
    assert ratio["reveals_per_second"] is None
    assert "baseline run" in ratio["reveals_per_second_refused"]
    assert ratio["server_cpu_per_reveal"] == round(1.67 / 0.6, 3)
    fair = _ratio(_run(450.0, 1.67, 60.0), _run(900.0, 0.6, 70.0))
    assert fair["reveals_per_second"] == 0.5 and fair["reveals_per_second_refused"] is None


def test_the_p50_ratio_the_busy_shares_predict_is_reported_beside_the_measured_one() -> None:
    """ρ / (1 − ρ) of each server's busy share of its core: the ratio a queue's law predicts for the p50s."""
    ratio = _ratio(_run(300.0, 2.2, 30.0), _run(300.0, 1.5, 30.0))  # 66 % and 45 % of a core
    assert ratio["latency_p50_queue"] == round((0.66 / 0.34) / (0.45 / 0.55), 3)
    assert _ratio(_run(300.0, 1.5, 30.0), _run(300.0, 1.5, 30.0))["latency_p50_queue"] == 1.0
    saturated = _ratio(_run(500.0, 2.2, 30.0), _run(500.0, 1.5, 30.0))  # 110 %: no queue's law of one core
    assert saturated["latency_p50_queue"] is None and saturated["latency_p50"] == 1.0
    light = _ratio(_run(100.0, 2.2, 30.0), _run(100.0, 1.5, 30.0))  # 22 % and 15 %: the queue is not what counts
    assert light["latency_p50_queue"] is None and light["server_cpu_per_reveal"] == round(2.2 / 1.5, 3)


def test_bench_server_against_a_running_server_finds_its_process(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "data").start()
    try:
        result = bench(capsys, "--url", server.base)
    finally:
        server.stop()
    assert server.proc is not None
    assert result["server"]["pids"] == [server.proc.pid]
    check_run(result["runs"]["instant"])


def test_only_loopback_targets_and_sources() -> None:
    assert Target.parse("http://127.0.0.1:8000").ws == "ws://127.0.0.1:8000/ws"
    assert Target.parse("localhost:9").host == "127.0.0.1"
    for url in ("http://10.0.0.1:8000", "http://example.org", "https://127.0.0.1:1"):
        with pytest.raises(ValueError):
            Target.parse(url)
    addresses = {source_address(150, i) for i in range(2000)}
    assert len(addresses) == 2000
    assert all(a.startswith("127.150.") and not a.endswith((".0", ".255")) for a in addresses)


def test_bad_sizes_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "server", "--players", "9"]) == 2
    assert main(["bench", "server", "--url", "http://192.168.1.2:8000"]) == 2
    assert "loopback" in capsys.readouterr().err


def test_quantiles() -> None:
    values = [float(v) for v in range(1, 101)]
    assert quantile(values, 0.5) == 50.0
    assert quantile(values, 0.99) == 99.0
    assert quantile([3.0], 0.99) == 3.0
    assert summary_ms([]) == {"p50": None, "p99": None, "max": None, "samples": 0}


def test_the_node_generator_plays_the_same_phones_against_both_servers(capsys: pytest.CaptureFixture[str]) -> None:
    """tools/loadgen (Node's ws client): the same conversation and the same figures as the Python phones."""
    result = bench(capsys, "--baseline", "--generator", "node")
    assert result["generator"].startswith("node")
    check_run(result["runs"]["instant"])
    check_run(result["baseline"]["runs"]["instant"])
    assert result["runs"]["instant"]["client_cpu_percent"] > 0  # the Node process's own CPU, measured by itself
    cost = result["baseline"]["runs"]["instant"]["server_cpu_ms_per_reveal"]
    assert (result["ratio"]["instant"]["server_cpu_per_reveal"] is None) == (not cost)


def test_eight_phones_at_a_table_come_from_two_households_under_the_default_limits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A table of 8 is more people than one address may bring (``Limits.people_per_address``, 6): its phones
    come from two loopback addresses, so both generators seat all 8 against the server's default limits."""
    assert households(150, 3, 8, Limits()) == [source_address(150, 3), source_address(150, 3, 1)]
    assert households(150, 3, 6, Limits()) == [source_address(150, 3)]
    assert source_address(150, 3, 1) == "127.206.0.4"
    for generator in ("python", "node"):
        result = bench(capsys, "--tables", "1", "--players", "8", "--generator", generator)
        check_run(result["runs"]["instant"], tables=1, players=8)
