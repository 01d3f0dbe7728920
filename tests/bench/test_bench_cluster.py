"""Smoke test of ``gemtable bench server --nodes``: a real redis-server and real node processes."""

from __future__ import annotations

import pytest

from tests.bench.test_bench_server import bench, check_run

pytestmark = pytest.mark.redis


def test_the_cluster_benchmark_spreads_phones_over_nodes_and_times_a_takeover(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = bench(capsys, "--nodes", "2", "--kill", "--tables", "4")
    assert result["nodes"] == 2
    assert result["server"]["store"] == "redis, 2 nodes" and len(result["server"]["pids"]) == 2
    check_run(result["runs"]["instant"], tables=4)
    takeover = result["takeover"]
    assert takeover["tables_of_the_dead_node"] >= 1
    assert takeover["taken_over"] == takeover["tables_of_the_dead_node"]
    assert takeover["seconds_p50"] <= takeover["seconds_max"]
