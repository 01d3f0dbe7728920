"""A tournament between bots: many games, statistics per bot, head to head.

Game ``i`` of a run is fully determined by the run's seed and ``i``: its player
count, which bot sits in which seat, the deck and the bots' randomness.  So a
run gives the same figures whatever the number of worker processes.

Bots are built-in names (``cautious``, ``threshold=10`` …) or user bots
(:mod:`gemtable.lab.userbot`), each of which runs in a process of its own, sent a copy
of its seat's view at each decision, under a time limit.

How many games: a fixed number (``games``), or :func:`run_until`, which plays in
rounds that double until the ranking by win rate is significant (neighbours'
95 % intervals apart, see :mod:`gemtable.lab.stats`) or a cap is reached.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from gemtable.games import find_game
from gemtable.games.api import JSON, GameError
from gemtable.lab import stats
from gemtable.lab.userbot import BotProcess, UserBotSpec
from gemtable.play import play_state


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
    user: tuple[UserBotSpec, ...] = ()
    """User bots; each is in ``bots`` under its ``name``."""
    time_limit: float = 1.0
    """Seconds a user bot may take for one decision."""

    def seating(self, index: int) -> tuple[int, list[str]]:
        """Game ``index``: its seed and the bot in each seat.

        Every bot sits ``players // len(bots)`` times, and the rest of the seats go to a
        uniformly random choice of distinct bots: so each bot meets each other bot equally
        often, and a win rate is never a matter of which bots it happened to sit beside.
        """
        rng = random.Random(self.seed * 1_000_003 + index)
        players = rng.randint(self.min_players, self.max_players)
        full, rest = divmod(players, len(self.bots))
        seats = [*self.bots * full, *rng.sample(self.bots, rest)]
        rng.shuffle(seats)
        return rng.getrandbits(48), seats


@dataclass
class BotTally:
    """One bot's figures: seats played, wins (a shared win counts), points, and each score's count."""

    seats: int = 0
    wins: int = 0
    points: int = 0
    squares: int = 0
    scores: dict[int, int] = field(default_factory=dict)

    def add(self, other: BotTally) -> None:
        self.seats += other.seats
        self.wins += other.wins
        self.points += other.points
        self.squares += other.squares
        for score, count in other.scores.items():
            self.scores[score] = self.scores.get(score, 0) + count

    def record(self, score: int, won: bool) -> None:
        self.seats += 1
        self.wins += won
        self.points += score
        self.squares += score * score
        self.scores[score] = self.scores.get(score, 0) + 1

    def to_json(self) -> JSON:
        low, high = stats.wilson(self.wins, self.seats)
        mean, mean_low, mean_high = stats.mean_interval(self.points, self.squares, self.seats)
        return {
            "seats": self.seats,
            "wins": self.wins,
            "win_rate": round(self.wins / self.seats, 4) if self.seats else 0.0,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(mean, 3),
            "mean_score_ci95": [round(mean_low, 3), round(mean_high, 3)],
        }


@dataclass
class Results:
    games: int = 0
    tallies: dict[str, BotTally] = field(default_factory=dict)
    meetings: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    """``meetings[a][b]``: [games in which a seat of ``a`` met a seat of ``b``, times ``a`` scored
    more, ties] — counted per pair of seats."""

    def add(self, other: Results) -> None:
        self.games += other.games
        for name, tally in other.tallies.items():
            self.tallies.setdefault(name, BotTally()).add(tally)
        for a, row in other.meetings.items():
            mine = self.meetings.setdefault(a, {})
            for b, (met, won, tied) in row.items():
                cell = mine.setdefault(b, [0, 0, 0])
                cell[0] += met
                cell[1] += won
                cell[2] += tied

    def record_game(self, seats: Sequence[str], scores: Sequence[int], winners: set[int]) -> None:
        for seat, name in enumerate(seats):
            self.tallies.setdefault(name, BotTally()).record(scores[seat], seat in winners)
        for i, a in enumerate(seats):
            for j in range(len(seats)):
                b = seats[j]
                if a == b:
                    continue
                cell = self.meetings.setdefault(a, {}).setdefault(b, [0, 0, 0])
                cell[0] += 1
                cell[1] += scores[i] > scores[j]
                cell[2] += scores[i] == scores[j]
        self.games += 1

    def ranking(self) -> list[stats.Ranked]:
        return stats.ranking([(name, t.wins, t.seats) for name, t in self.tallies.items()])

    def head_to_head(self) -> dict[str, dict[str, JSON]]:
        """For each pair: the share of meetings ``a`` outscored ``b`` (a tie counts half), with its interval."""
        table: dict[str, dict[str, JSON]] = {}
        for a, row in sorted(self.meetings.items()):
            for b, (met, won, tied) in sorted(row.items()):
                share = won + tied / 2
                low, high = stats.wilson(share, met)
                table.setdefault(a, {})[b] = {
                    "meetings": met,
                    "share": round(share / met, 4) if met else 0.0,
                    "ci95": [round(low, 4), round(high, 4)],
                }
        return table

    def to_json(self, tournament: Tournament) -> JSON:
        ranked = self.ranking()
        return {
            "game": tournament.game,
            "games": self.games,
            "seed": tournament.seed,
            "players": [tournament.min_players, tournament.max_players],
            "bots": {name: t.to_json() for name, t in sorted(self.tallies.items())},
            "ranking": [
                {"bot": r.name, "win_rate": round(r.rate, 4), "separated_from_next": r.separated_from_next}
                for r in ranked
            ],
            "significant": stats.significant(ranked),
            "head_to_head": self.head_to_head(),
        }


# --- playing, in this process or in workers -------------------------------------------------

_USER_BOTS: dict[tuple[str, float], BotProcess] = {}
"""The user bots' processes started by this process, kept for its next games."""


def _user_bot(tournament: Tournament, name: str) -> BotProcess | None:
    for spec in tournament.user:
        if spec.name == name:
            key = (spec.spec, tournament.time_limit)
            if key not in _USER_BOTS:
                if not _USER_BOTS:  # before multiprocessing's exit joins its children (a bot may ignore SIGTERM)
                    multiprocessing.util.Finalize(None, end_user_bots, exitpriority=100)
                _USER_BOTS[key] = BotProcess(spec, tournament.time_limit)
            return _USER_BOTS[key]
    return None


def end_user_bots() -> None:
    """End the user bots' processes this process started."""
    while _USER_BOTS:
        _USER_BOTS.popitem()[1].end()


def play_range(tournament: Tournament, start: int, stop: int) -> Results:
    """Play games ``start`` to ``stop - 1`` of a tournament (a failing user bot has every user bot's
    process ended before :class:`BotFailure` is raised)."""
    from gemtable.bots import make_bot

    results = Results()
    game = find_game(tournament.game)
    try:
        for index in range(start, stop):
            seed, seats = tournament.seating(index)
            choosers = []
            for seat, name in enumerate(seats):
                user = _user_bot(tournament, name) if tournament.user else None
                if user is not None:
                    choosers.append(_placed(user, f" (game {index}, seat {seat})"))
                else:
                    choosers.append(make_bot(tournament.game, name).choose)
            state = play_state(game.new(tournament.rules, len(seats), seed), choosers, random.Random(~seed))
            results.record_game(seats, state.scores(), set(state.winners()))
    except BaseException:
        end_user_bots()
        raise
    return results


def _placed(bot: BotProcess, where: str) -> Callable[[Any, Sequence[str], random.Random], str]:
    """``bot.choose``, with its reports naming the game and seat being decided."""

    def choose(view: Any, moves: Sequence[str], rng: random.Random) -> str:
        bot.where = where
        return bot.choose(view, moves, rng)

    return choose


def chunks(start: int, stop: int, size: int) -> Iterator[tuple[int, int]]:
    for first in range(start, stop, size):
        yield first, min(stop, first + size)


def run(
    tournament: Tournament,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
) -> Results:
    """Play games ``start`` … ``start + tournament.games - 1`` on ``jobs`` processes (default: every core).

    A user bot plays in a process of its own, started by the process that plays its games;
    a failing bot raises :class:`BotFailure`.
    """
    jobs = jobs or os.cpu_count() or 1
    results = Results()
    stop = start + tournament.games
    size = max(1, min(500, tournament.games // (jobs * 8) or 1))
    parts = list(chunks(start, stop, size))
    if jobs == 1 or len(parts) == 1:
        try:
            for first, last in parts:
                results.add(play_range(tournament, first, last))
                if progress:
                    progress(last - first)
        finally:
            end_user_bots()
        return results
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(parts)), mp_context=multiprocessing.get_context())
    try:
        futures = [pool.submit(play_range, tournament, first, last) for first, last in parts]
        for future in futures:
            part = future.result()
            results.add(part)
            if progress:
                progress(part.games)
    except BrokenProcessPool:
        raise GameError("a worker process died") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results


Runner = Callable[[Tournament, int], Results]
"""Plays ``tournament.games`` games from the given index."""


@dataclass(frozen=True)
class Stopped:
    """Why a sequential run stopped."""

    significant: bool
    games: int
    reason: str


def run_until(
    tournament: Tournament,
    runner: Runner,
    first: int,
    cap: int,
    on_round: Callable[[int, int], None] | None = None,
    seconds: float | None = None,
) -> tuple[Results, Stopped]:
    """Play ``first`` games, then double the total, until the ranking is significant or a cap is reached.

    Caps: ``cap`` games, and, with ``seconds``, a time budget: the first round is then a
    tenth of ``first`` (a probe of the pace), a round that the pace so far says would end
    past the budget is shortened to fit, and none starts once it is spent.
    ``on_round(played, next_round)`` is told before every round.
    """
    results = Results()
    played = 0
    goal = max(1, min(first, cap))
    size = max(1, goal // 10) if seconds is not None else goal  # with a budget, a probe round gives the pace
    started = time.perf_counter()
    while True:
        if on_round:
            on_round(played, size)
        results.add(runner(replace(tournament, games=size), played))
        played += size
        ranked = results.ranking()
        if stats.significant(ranked):
            return results, Stopped(
                True,
                played,
                f"The ranking is significant after {played:,} games: every neighbour's 95 % interval is apart",
            )
        size = min(max(played, goal - played), cap - played)
        why = "the cap"
        if seconds is not None and size > 0:
            elapsed = time.perf_counter() - started
            size = min(size, int((seconds - elapsed) * played / elapsed))
            why = f"the cap, or the {seconds:g} s budget"
        if size <= 0:
            close = [f"{r.name} / {ranked[i + 1].name}" for i, r in enumerate(ranked) if r.separated_from_next is False]
            return results, Stopped(
                False,
                played,
                f"NOT significant after {played:,} games ({why}): the 95 % "
                f"intervals of {', '.join(close)} overlap, so their order may be chance",
            )


def check_bots(game: str, bots: Sequence[str], user: Sequence[UserBotSpec] = ()) -> None:
    """Raise :class:`GameError` for an unknown bot before any process starts."""
    from gemtable.bots import make_bot

    names = {spec.name for spec in user}
    for name in bots:
        if name not in names:
            make_bot(game, name)
