"""Many expedition games at once, vectorised with numpy (``pip install 'gemtable[lab]'``).

For the policies it can express — the threshold bots of :mod:`gemtable.games.expedition.bots`:
walk out at N gems carried, after K cards of the cave, once H hazards lie on the path,
or the first of several — it plays the same rules as the engine, every seat of every
game walking into every cave (as :func:`gemtable.play.play_bots` does).

The games of a batch move in step: cave 1 of every game, one card a step, then cave 2,
and so on; a game whose cave has ended drops out of the arrays until the next cave.

**Randomness.**  The engine draws lazily: each card turned is ``pile[int(u * len(pile))]``
swapped with the last card and popped, ``u`` the next ``random()`` of the game's
``random.Random(seed)``.  The batch does the very same step with its own ``u``:

* :class:`Uniforms` with a numpy ``Generator`` (the default): fast, its own stream, so a
  game of the batch is not the engine's game of the same number, only one from the same
  distribution;
* :func:`engine_uniforms`: the exact stream of ``random.Random(seed)`` for each game
  (slow to make: a Python loop), with which every game's scores equal the engine's on
  the same seeds; the comparison test (``tests/lab/test_batch.py``) uses it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gemtable.games.expedition.bots import Threshold
from gemtable.games.expedition.rules import ExpeditionRules

IntArray = npt.NDArray[Any]
"""Integer arrays of several widths (numpy's own types for each width would crowd the code)."""
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

NEVER = 1 << 20
"""A threshold that is never reached: a rule that is off."""


class Uniforms:
    """Where a batch's ``u`` come from: one per card turned, per game, in order."""

    def __init__(self, games: int, rng: np.random.Generator | None = None, table: FloatArray | None = None) -> None:
        self.rng = rng
        self.table = table
        self.used = np.zeros(games, dtype=np.int64)

    def next(self, games: IntArray) -> npt.NDArray[np.floating[Any]]:
        """The next ``u`` of each game in ``games`` (indices into the batch)."""
        if self.table is None:
            assert self.rng is not None
            return self.rng.random(len(games), dtype=np.float32)  # its own stream: float32 is plenty
        used = self.used[games]
        if used.size and int(used.max()) >= self.table.shape[1]:
            raise ValueError("the table of uniforms is too short for these games")
        self.used[games] = used + 1
        return self.table[games, used]


def engine_uniforms(seeds: Sequence[int], draws: int) -> Uniforms:
    """The first ``draws`` values of ``random.Random(seed).random()`` for each seed: the engine's stream."""
    table = np.empty((len(seeds), draws), dtype=np.float64)
    for row, seed in enumerate(seeds):
        rand = random.Random(seed).random
        table[row] = [rand() for _ in range(draws)]
    return Uniforms(len(seeds), table=table)


def max_draws(rules: ExpeditionRules) -> int:
    """The most cards a whole game can turn: every cave turning its whole deck."""
    return rules.caves * (len(rules.base_deck()) + rules.caves)


@dataclass(frozen=True)
class Policies:
    """Each seat's walk-out rule, as arrays of shape (games, players)."""

    gems: IntArray
    cards: IntArray
    hazards: IntArray

    @classmethod
    def of(cls, rules: Sequence[Threshold], seats: IntArray) -> Policies:
        """``seats[g, p]`` is the index in ``rules`` of the rule seat ``p`` of game ``g`` plays."""

        def column(values: list[int | None]) -> IntArray:
            table = np.array([NEVER if v is None else v for v in values], dtype=np.int64)
            return table[seats]

        return cls(
            column([r.gems for r in rules]),
            column([r.cards for r in rules]),
            column([r.hazards for r in rules]),
        )


def _relic_table(rules: ExpeditionRules) -> IntArray:
    """``table[k]``: the worth of the first ``k`` relics carried out, together."""
    most = rules.caves + 2
    values = [rules.relic_value(n) for n in range(most)]
    return np.concatenate([[0], np.cumsum(values)]).astype(np.int64)


def _pile(rules: ExpeditionRules, removed_key: int, relics: int, width: int) -> tuple[list[int], int]:
    """A cave's cards in the engine's order (padded to ``width``) and their count."""
    cards = list(rules.treasures)
    for kind in range(5):
        cards += [-1 - kind] * (rules.hazard_copies - (removed_key >> (3 * kind)) % 8)
    cards += [0] * relics
    return cards + [0] * (width - len(cards)), len(cards)


def play(rules: ExpeditionRules, policies: Policies, uniforms: Uniforms) -> IntArray:
    """Play one game per row of ``policies``; the scores, shape (games, players)."""
    games, players = policies.gems.shape
    treasures = np.array(rules.treasures, dtype=np.int16)
    n_treasures = len(treasures)
    copies = rules.hazard_copies
    tail = 5 * copies + rules.caves  # hazards then relics, after the treasures
    width = n_treasures + tail
    relic_table = _relic_table(rules)
    pooled = rules.path_split == "pooled"
    small = np.int32  # gems and counters: small numbers, small arrays, fast passes

    # Per-seat arrays are laid out (players, games): a seat's row is contiguous.
    chest = np.zeros((games, players), dtype=np.int64)
    removed = np.zeros((games, 5), dtype=np.int16)
    relics_in_deck = np.zeros(games, dtype=small)
    relics_out = np.zeros(games, dtype=np.int64)
    hazard_bit = np.zeros(5 + 100, dtype=small)  # card + 5 -> the bit of its hazard kind (0: not a hazard)
    hazard_bit[:5] = [16, 8, 4, 2, 1]  # cards -5 (rockfall) ... -1 (snakes)
    all_gems = np.ascontiguousarray(policies.gems.T.clip(max=NEVER)).astype(small)
    all_cards = np.ascontiguousarray(policies.cards.T.clip(max=NEVER)).astype(small)
    all_hazards = np.ascontiguousarray(policies.hazards.T.clip(max=NEVER)).astype(small)
    use_cards = bool((all_cards < NEVER).any())  # a rule no seat uses costs nothing
    use_hazards = bool((all_hazards < NEVER).any())
    for _cave in range(rules.caves):
        if rules.relics:
            relics_in_deck += 1
        # The cave's pile in the engine's order: treasures, each kind's copies left, the relics.
        # Games share few decks (removals x relics), so each distinct one is built once.
        key = removed.astype(np.int64) @ np.array([1, 8, 64, 512, 4096]) * 64 + relics_in_deck
        distinct, which = np.unique(key, return_inverse=True)
        decks = [_pile(rules, int(k) // 64, int(k) % 64, width) for k in distinct]
        pile = np.array([d for d, _ in decks], dtype=np.int16)[which.ravel()]
        size = np.array([n for _, n in decks], dtype=np.int64)[which.ravel()]

        # The games of this cave; a game whose cave has ended stays in the arrays, masked
        # (nobody inside), until enough have ended to make compacting the arrays worth it.
        g = np.arange(games)
        inside = np.ones((players, games), dtype=bool)
        carried = np.zeros((players, games), dtype=small)
        count_inside = np.full(games, players, dtype=small)
        gems_thr, cards_thr, hazards_thr = all_gems, all_cards, all_hazards
        loose = np.zeros(games, dtype=small) if pooled else np.zeros((games, width), dtype=small)
        relics_on_path = np.zeros(games, dtype=small)
        seen = np.zeros(games, dtype=small)  # a bit per hazard kind
        hazards_seen = np.zeros(games, dtype=small)
        turned = np.zeros(games, dtype=small)
        bank = np.zeros((players, games), dtype=small)  # what each seat banked in this cave
        drawn_relics = np.zeros(games, dtype=small)
        collapsed = np.full(games, -1, dtype=np.int64)  # the kind that collapsed the cave
        ended: list[tuple[IntArray, IntArray, IntArray, IntArray]] = []  # games whose cave ended
        base = np.arange(games) * width  # each game's first card in the flat pile
        flat = pile.reshape(-1)
        live = games
        while live:
            active = count_inside > 0
            if live < 0.6 * g.size:  # compact: drop the games whose cave has ended
                keep, gone = np.flatnonzero(active), np.flatnonzero(~active)  # indices: one pass each
                ended.append((g.take(gone), bank.take(gone, axis=1), drawn_relics.take(gone), collapsed.take(gone)))
                bank, drawn_relics, collapsed = bank.take(keep, axis=1), drawn_relics.take(keep), collapsed.take(keep)
                g, size, inside, carried = (
                    g.take(keep),
                    size.take(keep),
                    inside.take(keep, axis=1),
                    carried.take(keep, axis=1),
                )
                loose = loose.take(keep, axis=0)
                relics_on_path, seen, count_inside = relics_on_path.take(keep), seen.take(keep), count_inside.take(keep)
                hazards_seen, turned = hazards_seen.take(keep), turned.take(keep)
                gems_thr = gems_thr.take(keep, axis=1)
                if use_cards:
                    cards_thr = cards_thr.take(keep, axis=1)
                if use_hazards:
                    hazards_thr = hazards_thr.take(keep, axis=1)
                base = g * width  # the pile is never compacted: rows stay where they are
                active = np.ones(g.size, dtype=bool)
            # The deck ran out with explorers inside: they bank what they carry.
            empty = active & (size == 0)
            if empty.any():
                bank[:, empty] += carried[:, empty]
                inside[:, empty] = False
                count_inside[empty] = 0
                active &= ~empty
                live = int(active.sum())
                if not live:
                    break
            # Turn a card: one Fisher-Yates step, as the engine does.
            if uniforms.table is None or live == g.size:
                u = uniforms.next(g)
            else:  # the engine's stream: only the games still in the cave draw
                u = np.zeros(g.size)
                u[active] = uniforms.next(g[active])
            last = np.maximum(size - 1, 0)
            index = (u * size).astype(np.int64)
            np.minimum(index, last, out=index)
            index += base
            card = flat.take(index)
            flat[index] = flat.take(base + last)
            size -= active
            treasure = np.maximum(card, 0).astype(small)
            # Integer division is slow in numpy; a float32 division of numbers this small is exact.
            share = (treasure / np.maximum(count_inside, 1).astype(np.float32)).astype(small)
            carried += share * inside
            rest = (treasure - share * count_inside) * active
            if pooled:
                loose += rest
            else:
                loose[np.arange(g.size), np.minimum(turned, width - 1)] += rest
            turned += 1
            relic = active & (card == 0)
            if relic.any():
                drawn_relics += relic
                relics_on_path += relic
            hazard = active & (card < 0)
            bit = hazard_bit.take(card + 5) * hazard
            collapse = (seen & bit) != 0
            seen |= bit
            hazards_seen += hazard & ~collapse
            if collapse.any():
                collapsed[collapse] = -1 - card[collapse]
                inside &= ~collapse  # everything carried is lost
                count_inside *= ~collapse
            # Every explorer inside decides; a collapse has left nobody to decide.
            wants = carried >= gems_thr
            if use_cards:
                wants |= turned >= cards_thr
            if use_hazards:
                wants |= hazards_seen >= hazards_thr
            leave = inside & wants
            leavers = leave.sum(axis=0, dtype=small)
            walking = leavers > 0
            if walking.any():
                each_count = np.maximum(leavers, 1)
                if pooled:
                    path_share = (loose / each_count.astype(np.float32)).astype(small)
                    loose -= path_share * leavers
                else:
                    taken = loose // each_count[:, None]
                    taken[~walking] = 0
                    path_share = taken.sum(axis=1, dtype=small)
                    loose -= taken * leavers[:, None]
                gain = (carried + path_share) * leave
                lone = (leavers == 1) & (relics_on_path > 0)
                if lone.any():
                    out = relics_out[g[lone]]
                    worth = relic_table[out + relics_on_path[lone]] - relic_table[out]
                    gain[:, lone] += (worth * leave[:, lone]).astype(small)
                    relics_out[g[lone]] = out + relics_on_path[lone]
                    relics_on_path[lone] = 0
                bank += gain
                carried *= ~leave
                inside &= ~leave
                count_inside -= leavers
            live = int(np.count_nonzero(count_inside))
        ended.append((g, bank, drawn_relics, collapsed))
        # The cave is over in every game: bank, relics drawn, hazards removed.
        done = np.concatenate([e[0] for e in ended])
        chest[done] += np.concatenate([e[1] for e in ended], axis=1).T
        relics_in_deck[done] = np.maximum(0, relics_in_deck[done] - np.concatenate([e[2] for e in ended]))
        kinds = np.concatenate([e[3] for e in ended])
        hit = kinds >= 0
        cg, ck = done[hit], kinds[hit]
        removed[cg, ck] += np.minimum(rules.collapse_removes, copies - removed[cg, ck]).astype(np.int16)
    return chest


def winners(scores: IntArray) -> BoolArray:
    """Which seats won (the highest score; a tie is shared)."""
    result: BoolArray = scores == scores.max(axis=1, keepdims=True)
    return result


def bench_batch(rules: ExpeditionRules, players: int, threshold: int, seconds: float, batch: int = 20_000) -> float:
    """Games per CPU second of the batch (one core): ``players`` seats walking out at ``threshold`` gems.

    The best of the batches played in about ``seconds`` of wall-clock time.
    """
    rng = np.random.default_rng(1)
    rule = [Threshold(gems=threshold)]
    policies = Policies.of(rule, np.zeros((batch, players), dtype=np.int64))
    play(rules, Policies.of(rule, np.zeros((1000, players), dtype=np.int64)), Uniforms(1000, rng))  # warm up
    best = 0.0
    deadline = time.perf_counter() + seconds
    while True:
        started = time.process_time()
        play(rules, policies, Uniforms(batch, rng))
        best = max(best, batch / max(time.process_time() - started, 1e-9))
        if time.perf_counter() >= deadline:
            return best


# --- tournaments ------------------------------------------------------------------------------

BATCH = 20_000
"""Games per numpy batch."""


def rule_of(name: str) -> Threshold:
    """The walk-out rule a bot name stands for; :class:`GameError` for a bot the batch cannot play."""
    from gemtable.games.api import GameError
    from gemtable.games.expedition.bots import parse_threshold

    if name == "cautious":
        return Threshold(gems=8)
    rule = parse_threshold(name)
    if rule is None:
        raise GameError(
            f"the batch mode plays threshold bots (cautious, threshold=N, cards=K, hazards=H), not {name!r}"
        )
    return rule


def play_tournament(tournament: Any, start: int, progress: Any = None) -> Any:
    """Games ``start`` … ``start + tournament.games - 1`` of a tournament, in numpy batches.

    Each batch draws its seating (player count, then the bots as the engine's seating does)
    and its cards from ``numpy.random.default_rng([seed, first game of the batch])``: the
    same figures for the same seed, but not the engine's games of the same numbers.
    """
    from gemtable.games.expedition.rules import ExpeditionRules
    from gemtable.lab.tournament import BotTally, Results

    rules = (
        tournament.rules
        if isinstance(tournament.rules, ExpeditionRules)
        else ExpeditionRules.from_json(tournament.rules)
    )
    names: list[str] = list(tournament.bots)
    policy = [rule_of(name) for name in names]
    count = len(names)
    results = Results()
    wins_total: IntArray = np.zeros(count, dtype=np.int64)
    seats_total: IntArray = np.zeros(count, dtype=np.int64)
    points_total: IntArray = np.zeros(count, dtype=np.int64)
    squares_total: IntArray = np.zeros(count, dtype=np.int64)
    histogram: dict[int, IntArray] = {}
    met: IntArray = np.zeros(count * count, dtype=np.int64)
    won: IntArray = np.zeros(count * count, dtype=np.int64)
    tied: IntArray = np.zeros(count * count, dtype=np.int64)
    stop = start + tournament.games
    for first in range(start, stop, BATCH):
        size = min(BATCH, stop - first)
        rng = np.random.default_rng([tournament.seed, first])
        players = rng.integers(tournament.min_players, tournament.max_players + 1, size=size)
        for p in np.unique(players):
            n = int((players == p).sum())
            full, rest = divmod(int(p), count)  # as the engine's seating: whole rounds, then a random choice
            chosen = np.argsort(rng.random((n, count)), axis=1)[:, :rest]
            seats = np.concatenate([np.tile(np.arange(count), (n, full)), chosen], axis=1)
            order = np.argsort(rng.random((n, int(p))), axis=1)
            seats = np.take_along_axis(seats, order, axis=1)
            scores = play(rules, Policies.of(policy, seats), Uniforms(n, rng))
            won_seat = winners(scores)
            flat_seats, flat_scores = seats.ravel(), scores.ravel()
            seats_total += np.bincount(flat_seats, minlength=count)
            wins_total += np.bincount(flat_seats, weights=won_seat.ravel(), minlength=count).astype(np.int64)
            points_total += np.bincount(flat_seats, weights=flat_scores, minlength=count).astype(np.int64)
            squares_total += np.bincount(
                flat_seats, weights=flat_scores.astype(np.float64) ** 2, minlength=count
            ).astype(np.int64)
            for bot in np.unique(flat_seats):
                counts = np.bincount(flat_scores[flat_seats == bot])
                old = histogram.get(int(bot))
                if old is not None and len(old) > len(counts):
                    counts = np.pad(counts, (0, len(old) - len(counts)))
                elif old is not None:
                    old = np.pad(old, (0, len(counts) - len(old)))
                histogram[int(bot)] = counts if old is None else counts + old
            for i in range(int(p)):
                for j in range(int(p)):
                    if i == j:
                        continue
                    a, b = seats[:, i], seats[:, j]
                    other = a != b
                    cell = (a * count + b)[other]
                    met += np.bincount(cell, minlength=count * count)
                    won += np.bincount(
                        cell, weights=(scores[:, i] > scores[:, j])[other], minlength=count * count
                    ).astype(np.int64)
                    tied += np.bincount(
                        cell, weights=(scores[:, i] == scores[:, j])[other], minlength=count * count
                    ).astype(np.int64)
        if progress is not None:
            progress(size)
    results.games = tournament.games
    for bot, name in enumerate(names):
        if not seats_total[bot]:
            continue
        hist = histogram.get(bot, np.zeros(0, dtype=np.int64))
        results.tallies[name] = BotTally(
            seats=int(seats_total[bot]),
            wins=int(wins_total[bot]),
            points=int(points_total[bot]),
            squares=int(squares_total[bot]),
            scores={int(score): int(c) for score, c in enumerate(hist) if c},
        )
    for row in range(count):
        for col in range(count):
            cell = row * count + col
            if met[cell]:
                results.meetings.setdefault(names[row], {})[names[col]] = [
                    int(met[cell]),
                    int(won[cell]),
                    int(tied[cell]),
                ]
    return results
