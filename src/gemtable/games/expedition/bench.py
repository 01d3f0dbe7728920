"""Benchmarks of the pure engine: whole games per second, and bot decision times.

``engine()`` measures, in one run and on one core, three ways of playing the same
expedition (the ``table`` preset, five players who walk out at 8 gems carried):

* **engine** — :func:`gemtable.play.play_bots` with five ``cautious`` bots: the
  game API exactly as the table uses it (``to_act``, ``legal_moves``, ``view``,
  ``apply_joint``, ``start_round``), a record of every input kept;
* **reference** — :func:`reference_game`, a plain Python loop of the same rules
  with five threshold players: no API, no views, no records.  It draws its
  cards from the same random stream as the engine, so it plays the *same*
  games (a test checks that its scores equal the engine's, seed by seed);
* **batch** — :mod:`gemtable.games.expedition.batch` (numpy, the ``lab`` extra), many games
  at once, when numpy is installed.

Machines here are shared and noisy, so only ratios taken in the same run mean much:
the three are measured in interleaved rounds and each figure is the best round.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from collections.abc import Callable

from gemtable.bots import make_bot
from gemtable.games import find_game
from gemtable.games.api import JSON
from gemtable.games.expedition import ExpeditionRules
from gemtable.play import play_bots

PUBLIC_FASTEST = 21_700
"""Games a second of the fastest public expedition simulator we know of (a Go program)."""


def reference_game(seed: int, players: int = 5, threshold: int = 8, rules: ExpeditionRules | None = None) -> list[int]:
    """One game of the expedition as a plain loop: every player walks out at ``threshold`` gems carried.

    The cards come from ``random.Random(seed)`` exactly as the engine draws them (one
    Fisher–Yates step per card turned), so the scores equal the engine's with
    ``cautious`` bots on the same seed.
    """
    rules = rules or ExpeditionRules()
    rand = random.Random(seed).random
    deck = rules.base_deck()
    relic_values = rules.relic_values
    pooled = rules.path_split == "pooled"
    chest = [0] * players
    relics_in_deck = relics_out = 0
    for _cave in range(rules.caves):
        if rules.relics:
            relics_in_deck += 1
        pile = deck + [0] * relics_in_deck
        inside = list(range(players))
        carried = [0] * players
        path: list[int] = []  # loose gems of each card (pooled: only the total matters)
        relics_on_path = 0
        seen = [False] * 5
        while inside:
            if not pile:  # the deck ran out: walk out with what they carry
                for p in inside:
                    chest[p] += carried[p]
                break
            index = int(rand() * len(pile))
            card = pile[index]
            pile[index] = pile[-1]
            pile.pop()
            if card > 0:
                share, rest = divmod(card, len(inside))
                for p in inside:
                    carried[p] += share
                path.append(rest)
            elif card == 0:
                relics_in_deck -= 1
                relics_on_path += 1
                path.append(0)
            elif seen[-1 - card]:
                for _ in range(rules.collapse_removes):
                    if card in deck:
                        deck.remove(card)
                break
            else:
                seen[-1 - card] = True
                path.append(0)
            leavers = [p for p in inside if carried[p] >= threshold]
            if not leavers:
                continue
            count = len(leavers)
            if pooled:
                share = sum(path) // count
                taking = share * count
                path = [sum(path) - taking]
            else:
                share = 0
                for i, lying in enumerate(path):
                    share += lying // count
                    path[i] = lying % count
            for p in leavers:
                chest[p] += carried[p] + share
                carried[p] = 0
            if count == 1 and relics_on_path:
                for _ in range(relics_on_path):
                    chest[leavers[0]] += relic_values[min(relics_out, len(relic_values) - 1)]
                    relics_out += 1
                relics_on_path = 0
            inside = [p for p in inside if p not in leavers]
    return chest


def _rate(play: Callable[[int], object], seconds: float, first: int) -> tuple[int, float, float]:
    """Games played by ``play(seed)`` for seeds ``first``, ``first + 1``, … in about ``seconds``:
    the count, the wall-clock seconds and the process's CPU seconds."""
    games = 0
    started, cpu = time.perf_counter(), time.process_time()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            play(first + games)
            games += 1
    return games, time.perf_counter() - started, time.process_time() - cpu


def engine(seconds: float = 3.0, players: int = 5, bot: str = "cautious", batch: bool = True) -> JSON:
    """Whole expedition games per second on one core: the engine, the plain-loop reference and the batch.

    ``seconds`` is the time given to the engine and to the reference each, in up to five
    interleaved rounds; each figure is its best round.  Rates are games per CPU second of
    this process (what one core does, whatever else the machine is running); the
    wall-clock rates are printed beside them.
    """
    rules = ExpeditionRules()
    bots = [bot] * players
    threshold = 8

    def play_engine(seed: int) -> object:
        return play_bots("expedition", rules, bots, seed)

    def play_reference(seed: int) -> object:
        return reference_game(seed, players, threshold, rules)

    for seed in range(50):  # warm up
        play_engine(seed)
        play_reference(seed)
    rounds = max(1, min(5, int(seconds)))
    best = {"engine": 0.0, "reference": 0.0}
    wall = {"engine": 0.0, "reference": 0.0}
    played = {"engine": 0, "reference": 0}
    for round_ in range(rounds):
        for name, play in (("engine", play_engine), ("reference", play_reference)):
            games, elapsed, cpu = _rate(play, seconds / rounds, round_ * 1_000_000)
            played[name] += games
            best[name] = max(best[name], games / max(cpu, 1e-9))
            wall[name] = max(wall[name], games / elapsed)
    result: JSON = {
        "engine": round(best["engine"]),
        "reference": round(best["reference"]),
        "ratio": round(best["engine"] / best["reference"], 3),
        "unit": "games per CPU second, one core, best of the rounds",
        "wall": {
            "engine": round(wall["engine"]),
            "reference": round(wall["reference"]),
            "ratio": round(wall["engine"] / wall["reference"], 3),
        },
        "games": played,
        "rounds": rounds,
        "seconds": seconds,
        "players": players,
        "bot": bot,
        "reference_threshold": threshold,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    result["why"] = _decision_costs(rules, players, bot, best["reference"])
    if batch:
        result.update(_batch_figures(rules, players, threshold, seconds, best["reference"]))
    return result


def _decision_costs(rules: ExpeditionRules, players: int, bot: str, reference: float) -> JSON:
    """Where the engine's time goes: bot decisions per game, and what the decision calls alone cost.

    Through the game API every explorer inside is asked after every card: the loop calls
    ``legal_moves`` and the bot's ``choose`` (which reads its view) for each.  The reference
    does the same decision as one comparison inline.
    """
    from gemtable.play import play_state

    calls = 0
    chooser = make_bot("expedition", bot).choose

    def counted(view: object, moves: object, rng: random.Random) -> str:
        nonlocal calls
        calls += 1
        return chooser(view, moves, rng)  # type: ignore[arg-type]

    sample = 300
    for seed in range(sample):
        state = find_game("expedition").new(rules, players, seed)
        play_state(state, [counted] * players, random.Random(seed))
    state = find_game("expedition").new(rules, players, 0)
    state.start_round(range(players))
    view, legal_moves, rng = state.view(0), state.legal_moves, random.Random(0)
    repeat = 50_000
    started = time.process_time()
    for _ in range(repeat):
        chooser(view, legal_moves(0), rng)
    per_call = (time.process_time() - started) / repeat
    per_game = calls / sample
    return {
        "decisions_per_game": round(per_game, 1),
        "microseconds_per_decision_call": round(per_call * 1e6, 3),
        "decision_calls_microseconds_per_game": round(per_game * per_call * 1e6, 1),
        "reference_microseconds_per_game": round(1e6 / reference, 1),
    }


def _batch_figures(rules: ExpeditionRules, players: int, threshold: int, seconds: float, reference: float) -> JSON:
    try:
        from gemtable.games.expedition.batch import bench_batch
    except ImportError:  # numpy is the lab extra's
        return {"batch": None, "batch_note": "numpy is not installed: pip install 'gemtable[lab]'"}
    rate = bench_batch(rules, players, threshold, seconds)
    return {
        "batch": round(rate),
        "batch_ratio_to_reference": round(rate / reference, 2),
        "batch_ratio_to_public_fastest": round(rate / PUBLIC_FASTEST, 2),
        "public_fastest": PUBLIC_FASTEST,
    }


def decisions(bot: str = "montecarlo", players: int = 8, games: int = 20, seed: int = 1) -> JSON:
    """How long ``bot`` takes to decide, seat 0 of ``players``, the others cautious."""
    game = find_game("expedition")
    times: list[float] = []
    rng = random.Random(seed)
    for index in range(games):
        state = game.new(ExpeditionRules(), players, seed + index)
        timed = make_bot("expedition", bot)
        others = make_bot("expedition", "cautious")
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
