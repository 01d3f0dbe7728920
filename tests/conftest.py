"""The order the suite runs in: the longest modules first.

``scripts/test`` runs the suite in several processes with ``--dist loadscope``: a module's tests stay in one
process (the browser tests' Chromium and server are per module), and each process takes the next module when it
is done.  Started in collection order, the browser modules (``tests/web``, last alphabetically) all ran together
at the end, four Chromiums at once on two cores, and the longest of them finished last.  Here the modules are
handed out longest first (each one's seconds in the gate under coverage with six processes, from pytest's
``--junitxml``), a browser module and another in turn (so about half the processes run a browser module at a
time: three of the gate's six), so that the long ones overlap the short and none is left running alone at the
end.  A module not listed goes after these, in collection order (every browser module is listed, a short one
too); the figures need only be roughly right.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

COST = {
    "tests/web/test_webkit.py": 246,
    "tests/web/test_a11y.py": 166,
    "tests/web/test_stage_matrix.py": 159,
    "tests/security/test_secrecy_wire.py": 108,
    "tests/web/test_reflow.py": 100,
    "tests/web/test_stage.py": 88,
    "tests/security/test_limits.py": 77,
    "tests/web/test_installed_wheel.py": 70,
    "tests/lab/test_userbot.py": 70,
    "tests/cluster/test_cluster.py": 59,
    "tests/bench/test_bench_server.py": 54,
    "tests/web/test_host.py": 50,
    "tests/web/test_hold.py": 47,
    "tests/web/test_night.py": 44,
    "tests/platforms/test_windowsish.py": 44,
    "tests/conformance/test_conformance.py": 43,
    "tests/server/test_host.py": 42,
    "tests/cluster/test_redis_auth.py": 42,
    "tests/security/test_fuzz_ws.py": 41,
    "tests/web/test_room.py": 41,
    "tests/web/test_recap.py": 38,
    "tests/web/test_booty_spots.py": 37,
    "tests/web/test_rough_edges.py": 37,
    "tests/tools/test_soak_smoke.py": 36,
    "tests/web/test_booty.py": 36,
    "tests/web/test_moments.py": 36,
    "tests/web/test_booty_tv.py": 34,
    "tests/server/test_table_life.py": 28,
    "tests/web/test_pages.py": 25,
    "tests/table/test_table_properties.py": 24,
    "tests/web/test_play.py": 24,
    "tests/test_cli.py": 23,
    "tests/security/test_slowloris.py": 22,
    "tests/web/test_decision_clock.py": 22,
    "tests/security/test_cheating.py": 21,
    "tests/games/expedition/test_batch.py": 20,
    "tests/server/test_nobody_stuck.py": 19,
    "tests/conformance/test_tiny_game_web.py": 18,
    "tests/security/test_secrecy_hindsight.py": 17,
    "tests/tools/test_pairs.py": 17,
    "tests/bench/test_bench_cluster.py": 17,
    "tests/web/test_lobby.py": 16,
    "tests/server/test_compact_log.py": 16,
    "tests/server/test_beat.py": 15,
    "tests/server/test_keepalive.py": 14,
    "tests/lab/test_report.py": 14,
    "tests/web/test_switch.py": 14,
    "tests/web/test_assets.py": 13,
    "tests/web/test_reconnect.py": 12,
    "tests/web/test_beat.py": 11,
    "tests/web/test_delta.py": 11,
    "tests/web/test_audience.py": 10,
    "tests/web/test_tv_pairing.py": 9,
    "tests/web/test_tv_remote.py": 8,
    "tests/web/test_night_kept.py": 8,
    "tests/web/test_address.py": 7,
    "tests/web/test_remove_absent.py": 7,
    "tests/web/test_replay.py": 6,
    "tests/web/test_refused_token.py": 5,
    "tests/web/test_cross_site.py": 4,
}
BROWSER_ELSEWHERE = {"tests/conformance/test_tiny_game_web.py", "tests/lab/test_report.py"}
"""Modules outside ``tests/web`` that run a browser too."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Longest modules first, a browser module and another in turn (browsers side by side on two cores slow each
    other down; a module that waits on clocks and sockets beside one does not); a module's tests keep their
    order."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    by_cost = sorted(modules, key=lambda module: -COST.get(module, 0))  # (stable: unlisted ones as collected)
    browsers = [m for m in by_cost if m in COST and (m.startswith("tests/web/") or m in BROWSER_ELSEWHERE)]
    others = [m for m in by_cost if m not in browsers]
    order: list[str] = []
    while browsers or others:
        order += [queue.pop(0) for queue in (browsers, others) if queue]
    items[:] = [item for module in order for item in modules[module]]


UNMEASURED = {
    "tests/table/test_table_properties.py",
    "tests/games/expedition/test_properties.py",
    "tests/games/expedition/test_hindsight_properties.py",
    "tests/games/booty/test_booty_properties.py",
    "tests/games/test_snapshot.py",
    "tests/security/test_fuzz_ws.py",
    "tests/security/test_fuzz_http.py",
    "tests/security/test_limits.py",
    "tests/tools/test_soak_smoke.py",
}
"""Modules whose work is repetition (property tests and random walks, the fuzz, the soak, thousands of connections,
whose server's memory is measured: the tracer's own data grew it past the test's bound): under the gate's
coverage.py they run unmeasured, with the processes they start.  The code they run again and again is measured by
the rest of the suite; measured, they cost the gate about twice their processor time (``docs/testing.md``).  The
coverage floor is met without them.  (Not the benchmarks', the simulator's or the lab's tests: theirs are the only
tests of that code.)"""


@pytest.fixture(scope="module", autouse=True)
def _unmeasured(request: pytest.FixtureRequest) -> Iterator[None]:
    """In an ``UNMEASURED`` module under coverage.py: no measuring in this process, nor in the servers and tools its
    fixtures and tests start (before any other of the module's fixtures: an autouse fixture comes first in its
    scope)."""
    module = request.node.nodeid.split("::", 1)[0]
    try:
        import coverage
    except ImportError:  # (the suite without coverage.py)
        yield
        return
    cov = coverage.Coverage.current()
    if module not in UNMEASURED or cov is None:
        yield
        return
    saved = {k: os.environ.pop(k) for k in ("COVERAGE_PROCESS_CONFIG", "COVERAGE_PROCESS_START") if k in os.environ}
    cov.stop()
    try:
        yield
    finally:
        cov.start()
        os.environ.update(saved)
