"""Benchmarks of the pure engine: whole games per second, and bot decision times."""

from __future__ import annotations

import platform
import random
import statistics
import time

from gemtable.bots import make_bot
from gemtable.games import default_game, find_manifest
from gemtable.games.api import JSON
from gemtable.play import play_bots

GAME = default_game()
"""The game benchmarked: the default one (the first registered)."""


def engine(seconds: float = 3.0, players: int = 5, bot: str = "cautious") -> JSON:
    """Whole games per second on one core, every seat played by ``bot``."""
    rules = find_manifest(GAME).rules_json(None, {})
    bots = [bot] * players
    for seed in range(50):  # warm up
        play_bots(GAME, rules, bots, seed)
    games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            play_bots(GAME, rules, bots, games)
            games += 1
    elapsed = time.perf_counter() - started
    return {
        "games_per_second": round(games / elapsed),
        "games": games,
        "seconds": round(elapsed, 3),
        "players": players,
        "bot": bot,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def decisions(bot: str = "montecarlo", players: int = 8, games: int = 20, seed: int = 1) -> JSON:
    """How long ``bot`` takes to decide, seat 0 of ``players``, the others cautious."""
    manifest = find_manifest(GAME)
    game, rules = manifest.game, manifest.rules_json(None, {})
    times: list[float] = []
    rng = random.Random(seed)
    for index in range(games):
        state = game.new(rules, players, seed + index)
        timed = make_bot(GAME, bot)
        others = make_bot(GAME, "cautious")
        views = [state.view(seat) for seat in range(players)]
        while not state.is_over():
            if state.needs_roster():
                state.start_round(range(players))
                continue
            moves = {}
            for seat in state.to_act():
                legal = state.legal_moves(seat)
                if seat == 0:
                    started = time.perf_counter()
                    moves[seat] = timed.choose(views[seat], legal, rng)
                    times.append(time.perf_counter() - started)
                else:
                    moves[seat] = others.choose(views[seat], legal, rng)
            state.apply_joint(moves)
    times.sort()
    return {
        "bot": bot,
        "players": players,
        "decisions": len(times),
        "p50_ms": round(statistics.median(times) * 1000, 3),
        "p99_ms": round(times[int(len(times) * 0.99) - 1] * 1000, 3),
        "max_ms": round(times[-1] * 1000, 3),
    }
