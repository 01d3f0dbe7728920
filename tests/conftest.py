"""The order the suite runs in: the longest modules first.

``scripts/test`` runs the suite in several processes with ``--dist loadscope``: a module's tests stay in one
process (the browser tests' Chromium and server are per module), and each process takes the next module when it
is done.  Started in collection order, the browser modules (``tests/web``, last alphabetically) all ran together
at the end, four Chromiums at once on two cores, and the longest of them finished last.  Here the modules are
handed out longest first (each one's seconds in the gate, measured under coverage with four processes), a browser
module and another in turn (so about half the processes run a browser module at a time: three of the gate's six),
so that the long ones overlap the short and none is left running alone at the end.  A
module not listed goes after these, in collection order; the figures need only be roughly right.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

COST = {
    "tests/web/test_stage_matrix.py": 160,
    "tests/web/test_a11y.py": 120,
    "tests/web/test_webkit.py": 228,
    "tests/web/test_stage.py": 100,
    "tests/web/test_hold.py": 80,
    "tests/web/test_night.py": 65,
    "tests/security/test_limits.py": 110,
    "tests/security/test_secrecy_wire.py": 60,
    "tests/web/test_reflow.py": 104,
    "tests/web/test_installed_wheel.py": 95,
    "tests/security/test_fuzz_ws.py": 74,
    "tests/web/test_host.py": 73,
    "tests/web/test_booty.py": 66,
    "tests/web/test_rough_edges.py": 65,
    "tests/web/test_booty_spots.py": 48,
    "tests/web/test_room.py": 48,
    "tests/web/test_play.py": 46,
    "tests/security/test_cheating.py": 45,
    "tests/web/test_moments.py": 44,
    "tests/cluster/test_cluster.py": 43,
    "tests/web/test_tv_pairing.py": 43,
    "tests/bench/test_bench_server.py": 41,
    "tests/security/test_origin.py": 39,
    "tests/web/test_recap.py": 38,
    "tests/tools/test_soak_smoke.py": 32,
    "tests/web/test_decision_clock.py": 36,
    "tests/server/test_host.py": 33,
    "tests/conformance/test_conformance.py": 33,
    "tests/cluster/test_redis_auth.py": 32,
    "tests/table/test_table_properties.py": 30,
    "tests/web/test_lobby.py": 29,
    "tests/web/test_pages.py": 28,
    "tests/server/test_table_life.py": 26,
    "tests/web/test_reconnect.py": 25,
    "tests/web/test_booty_tv.py": 21,
    "tests/web/test_switch.py": 20,
    "tests/security/test_slowloris.py": 19,
    "tests/web/test_tv_remote.py": 19,
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Longest modules first, a browser module and another in turn (browsers side by side on two cores slow each
    other down; a module that waits on clocks and sockets beside one does not); a module's tests keep their
    order."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    by_cost = sorted(modules, key=lambda module: -COST.get(module, 0))  # (stable: unlisted ones as collected)
    browsers = [m for m in by_cost if m.startswith("tests/web/") and m in COST]
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
