"""Intervals, the ranking's verdict, and the sequential run that plays until the ranking is significant."""

from __future__ import annotations

import json
import math
import subprocess
import sys

from gemtable.games.expedition import ExpeditionRules
from gemtable.lab import stats
from gemtable.lab.tournament import Tournament, run, run_until


def test_wilson_matches_known_values_and_stays_in_bounds() -> None:
    low, high = stats.wilson(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4) and math.isclose(high, 0.5962, abs_tol=1e-4)
    low, high = stats.wilson(0, 20)
    assert low == 0.0 and math.isclose(high, 0.1611, abs_tol=1e-4)
    low, high = stats.wilson(20, 20)
    assert math.isclose(low, 0.8389, abs_tol=1e-4) and high == 1.0
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_is_students_t() -> None:
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    mean, low, high = stats.mean_interval(sum(values), sum(v * v for v in values), len(values))
    sd = math.sqrt(sum((v - 5) ** 2 for v in values) / 7)
    assert mean == 5 and math.isclose(high - mean, 2.365 * sd / math.sqrt(8), rel_tol=1e-9)
    mean, low, high = stats.mean_interval(1000 * 3, 1000 * 9, 1000)
    assert low == high == mean == 3  # no spread, no width


def test_the_ranking_says_which_neighbours_are_apart() -> None:
    ranked = stats.ranking([("a", 600, 1000), ("b", 300, 1000), ("c", 290, 1000)])
    assert [r.name for r in ranked] == ["a", "b", "c"]
    assert [r.separated_from_next for r in ranked] == [True, False, None]
    assert not stats.significant(ranked)
    assert stats.significant(stats.ranking([("a", 600, 1000), ("b", 300, 1000)]))


def test_a_sequential_run_stops_when_significant_or_at_the_cap() -> None:
    rules = ExpeditionRules().to_json()
    apart = Tournament("expedition", rules, ("cautious", "random"), 0, 3, 5, 1)
    results, stopped = run_until(apart, lambda t, start: run(t, 1, None, start), 100, 6400)
    assert stopped.significant and results.games == stopped.games <= 6400
    assert "significant" in stopped.reason
    same = Tournament("expedition", rules, ("cautious", "threshold=8"), 0, 3, 5, 1)  # one strategy, two names
    rounds: list[tuple[int, int]] = []
    results, stopped = run_until(
        same, lambda t, start: run(t, 1, None, start), 50, 400, lambda played, size: rounds.append((played, size))
    )
    assert not stopped.significant and results.games == 400
    assert rounds == [(0, 50), (50, 50), (100, 100), (200, 200)]  # doubling up to the cap
    assert "NOT significant" in stopped.reason and "cautious / threshold=8" in stopped.reason


def test_a_sequential_run_keeps_to_its_time_budget() -> None:
    same = Tournament("expedition", ExpeditionRules().to_json(), ("cautious", "threshold=8"), 0, 3, 5, 1)
    results, stopped = run_until(same, lambda t, start: run(t, 1, None, start), 50, 10**6, seconds=1e-9)
    assert results.games == 5 and not stopped.significant and "budget" in stopped.reason  # the probe round only


def test_simulate_without_games_plays_until_the_ranking_is_significant() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gemtable", "simulate", "--bots", "cautious,random", "--players", "4", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["significant"] and data["stopped"]["significant"] and data["games"] == data["stopped"]["games"]
    ranked = data["ranking"]
    assert [r["bot"] for r in ranked] == ["cautious", "random"] and ranked[0]["separated_from_next"]
