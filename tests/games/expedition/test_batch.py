"""The batch simulator and the benchmark's reference play the engine's games: the same scores, seed by seed.

The batch consumes the engine's random stream (``engine_uniforms``: one ``random()`` of
``random.Random(seed)`` per card turned, one Fisher-Yates step each), so every game of the
comparison is the engine's game of the same seed, with the same bots in the same seats.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from gemtable.games.expedition import ExpeditionRules, rules_for
from gemtable.games.expedition.batch import (
    Policies,
    Uniforms,
    engine_uniforms,
    max_draws,
    play,
    play_tournament,
    winners,
)
from gemtable.games.expedition.bench import reference_game
from gemtable.games.expedition.bots import parse_threshold
from gemtable.lab.tournament import Tournament
from gemtable.play import play_bots

BOTS = ["threshold=4", "cautious", "cards=5", "hazards=2", "gems=10+hazards=1", "threshold=100", "cards=3+gems=6"]
RULES = {
    "table": ExpeditionRules(),
    "classic": rules_for("classic"),
    "two-removed-eight-caves": rules_for("table", {"collapse_removes": 2, "caves": 8}),
    "no-relics": rules_for("table", {"relics": False}),
}


def _policy(name: str) -> Any:
    return parse_threshold("threshold=8" if name == "cautious" else name)


@pytest.mark.parametrize("preset", sorted(RULES))
@pytest.mark.parametrize("players", [3, 5, 8])
def test_the_batch_plays_the_engines_games_on_the_same_seeds(preset: str, players: int) -> None:
    rules = RULES[preset]
    games = 120
    seats = np.array([[(game + 3 * seat) % len(BOTS) for seat in range(players)] for game in range(games)])
    seeds = [10_000 + 7 * game for game in range(games)]
    scores = play(rules, Policies.of([_policy(name) for name in BOTS], seats), engine_uniforms(seeds, max_draws(rules)))
    won = winners(scores)
    for game in range(games):
        state = play_bots("expedition", rules, [BOTS[i] for i in seats[game]], seeds[game])
        assert list(scores[game]) == state.scores(), f"game {game} (seed {seeds[game]})"
        assert [s for s in range(players) if won[game, s]] == state.winners()


def test_the_reference_loop_plays_the_engines_games() -> None:
    for preset, rules in RULES.items():
        for seed in range(150):
            players = 3 + seed % 6
            state = play_bots("expedition", rules, ["cautious"] * players, seed)
            assert reference_game(seed, players, 8, rules) == state.scores(), (preset, seed)


def test_a_batch_tournament_is_reproducible_and_counts_every_seat() -> None:
    tournament = Tournament(
        "expedition", ExpeditionRules().to_json(), ("cautious", "threshold=12", "cards=6"), 3000, 2, 8, 5
    )
    first = play_tournament(tournament, 0)
    assert first.to_json(tournament) == play_tournament(tournament, 0).to_json(tournament)
    seats = sum(t.seats for t in first.tallies.values())
    assert first.games == 3000 and 2 * 3000 <= seats <= 8 * 3000
    for tally in first.tallies.values():
        assert sum(tally.scores.values()) == tally.seats and 0 < tally.wins < tally.seats
    assert play_tournament(tournament, 3000).to_json(tournament) != first.to_json(tournament)


def test_uniforms_of_its_own_cover_the_batch() -> None:
    rules = ExpeditionRules()
    seats = np.zeros((500, 4), dtype=np.int64)
    scores = play(rules, Policies.of([_policy("cautious")], seats), Uniforms(500, np.random.default_rng(3)))
    assert scores.shape == (500, 4) and scores.min() >= 0 and scores.max() > 0


def test_simulate_batch_from_the_command_line() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "gemtable",
            "simulate",
            "--batch",
            "--bots",
            "cautious,threshold=12",
            "--sweep",
            "cards=4..6",
            "--games",
            "20000",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["mode"] == "batch" and data["games"] == 20000
    assert set(data["bots"]) == {"cautious", "threshold=12", "cards=4", "cards=5", "cards=6"}
    refused = subprocess.run(
        [sys.executable, "-m", "gemtable", "simulate", "--batch", "--bots", "odds", "--games", "10"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "threshold bots" in refused.stderr
