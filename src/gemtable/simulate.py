"""A tournament between bots: many games, statistics per bot.

Game ``i`` of a run is fully determined by the run's seed and ``i``: its player
count, which bot sits in which seat, the deck and the bots' randomness.  So a
run gives the same figures whatever the number of worker processes.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from gemtable.games.api import JSON
from gemtable.play import play_bots


@dataclass(frozen=True)
class Tournament:
    """What to play: the game, its rules, the bots, how many games at how many players."""

    game: str
    rules: JSON
    bots: tuple[str, ...]
    games: int
    min_players: int
    max_players: int
    seed: int

    def seating(self, index: int) -> tuple[int, list[str]]:
        """Game ``index``: its seed and the bot in each seat."""
        rng = random.Random(self.seed * 1_000_003 + index)
        players = rng.randint(self.min_players, self.max_players)
        offset = rng.randrange(len(self.bots))
        seats = [self.bots[(offset + i) % len(self.bots)] for i in range(players)]
        rng.shuffle(seats)
        return rng.getrandbits(48), seats


@dataclass
class BotTally:
    """One bot's figures: seats played, wins (a shared win counts), points."""

    seats: int = 0
    wins: int = 0
    points: int = 0

    def add(self, other: BotTally) -> None:
        self.seats += other.seats
        self.wins += other.wins
        self.points += other.points


@dataclass
class Results:
    games: int = 0
    tallies: dict[str, BotTally] = field(default_factory=dict)

    def add(self, other: Results) -> None:
        self.games += other.games
        for name, tally in other.tallies.items():
            self.tallies.setdefault(name, BotTally()).add(tally)

    def to_json(self, tournament: Tournament) -> JSON:
        return {
            "game": tournament.game,
            "games": self.games,
            "seed": tournament.seed,
            "players": [tournament.min_players, tournament.max_players],
            "bots": {
                name: {
                    "seats": t.seats,
                    "win_rate": round(t.wins / t.seats, 4) if t.seats else 0.0,
                    "mean_score": round(t.points / t.seats, 3) if t.seats else 0.0,
                }
                for name, t in sorted(self.tallies.items())
            },
        }


def play_range(tournament: Tournament, start: int, stop: int) -> Results:
    """Play games ``start`` to ``stop - 1`` of a tournament."""
    results = Results()
    for index in range(start, stop):
        seed, seats = tournament.seating(index)
        state = play_bots(tournament.game, tournament.rules, seats, seed)
        scores, winners = state.scores(), set(state.winners())
        for seat, name in enumerate(seats):
            tally = results.tallies.setdefault(name, BotTally())
            tally.seats += 1
            tally.points += scores[seat]
            tally.wins += seat in winners
        results.games += 1
    return results


def chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(total, start + size)


def run(
    tournament: Tournament,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Results:
    """Play the whole tournament on ``jobs`` processes (default: every core)."""
    jobs = jobs or os.cpu_count() or 1
    results = Results()
    size = max(1, min(500, tournament.games // (jobs * 8) or 1))
    parts = list(chunks(tournament.games, size))
    if jobs == 1 or len(parts) == 1:
        for start, stop in parts:
            results.add(play_range(tournament, start, stop))
            if progress:
                progress(stop - start)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_range, tournament, start, stop) for start, stop in parts]
        for future in futures:
            part = future.result()
            results.add(part)
            if progress:
                progress(part.games)
    return results


def check_bots(game: str, bots: Sequence[str]) -> None:
    """Raise :class:`GameError` for an unknown bot before any process starts."""
    from gemtable.bots import make_bot

    for name in bots:
        make_bot(game, name)
