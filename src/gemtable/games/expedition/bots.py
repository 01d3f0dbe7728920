"""Bots for the expedition.  Each reads only its seat's view.

* ``random`` — deeper or camp, at random;
* ``cautious`` — walks out once it carries a set number of gems (default 8);
* ``odds`` — computes the exact chance that the next card collapses the cave and
  walks out when the expected loss outweighs the expected gain;
* ``montecarlo`` — samples orders of the unseen cards and compares walking out
  now with going on for one to a few more cards;
* threshold bots, named by their rule rather than registered one by one:
  ``threshold=N`` (or ``gems=N``) walks out at N gems carried, ``cards=K`` once K
  cards of the cave are turned, ``hazards=H`` once H hazards lie on the path; joined
  with ``+`` they walk out at the first rule met (``gems=10+hazards=2``).  The
  batch simulator (:mod:`gemtable.games.expedition.batch`) plays exactly these policies.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gemtable.bots import register_bot
from gemtable.games.expedition.state import CAMP, DEEPER

Move = str


class RandomBot:
    name = "random"

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        return moves[0] if len(moves) == 1 else rng.choice(list(moves))


class CautiousBot:
    """Goes deeper until it carries ``threshold`` gems, then walks out."""

    name = "cautious"

    def __init__(self, threshold: int = 8) -> None:
        self.threshold = threshold

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        return CAMP if view.carried >= self.threshold else DEEPER


@dataclass(frozen=True)
class Threshold:
    """A walk-out rule: leave at the first of these that holds (None: that rule is off)."""

    gems: int | None = None
    """Gems carried."""
    cards: int | None = None
    """Cards of this cave turned so far."""
    hazards: int | None = None
    """Hazards lying on this cave's path."""

    @property
    def name(self) -> str:
        parts = [
            f"{key}={value}"
            for key, value in (("gems", self.gems), ("cards", self.cards), ("hazards", self.hazards))
            if value is not None
        ]
        if parts == [f"gems={self.gems}"]:
            return f"threshold={self.gems}"
        return "+".join(parts)


_RULE = re.compile(r"(threshold|gems|cards|hazards)=(\d{1,3})")


def parse_threshold(name: str) -> Threshold | None:
    """The rule named ``name`` (``threshold=8``, ``cards=6``, ``gems=10+hazards=2``), or None."""
    found: dict[str, int] = {}
    for part in name.split("+"):
        match = _RULE.fullmatch(part.strip())
        if match is None:
            return None
        key = "gems" if match[1] == "threshold" else match[1]
        if key in found:
            return None
        found[key] = int(match[2])
    return Threshold(**found) if found else None


class ThresholdBot:
    """Walks out at the first rule of its :class:`Threshold` that holds."""

    def __init__(self, rule: Threshold, name: str | None = None) -> None:
        self.rule = rule
        self.name = name or rule.name
        self._gems = rule.gems if rule.gems is not None else 1 << 30
        self._cards = rule.cards if rule.cards is not None else 1 << 30
        self._hazards = rule.hazards

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        if view.carried >= self._gems or view.cards_turned >= self._cards:
            return CAMP
        if self._hazards is not None and sum(view.hazards_seen) >= self._hazards:
            return CAMP
        return DEEPER


def bot_from_name(name: str) -> ThresholdBot | None:
    """A threshold bot for a name such as ``threshold=8`` (None for any other name)."""
    rule = parse_threshold(name)
    return ThresholdBot(rule, name) if rule is not None else None


def take_now(view: Any) -> int:
    """What walking out now would bring if it walked out alone: carried, path gems, relics."""
    return int(view.carried + view.path_gems + view.relic_worth(view.relics_on_path))


class OddsBot:
    """Weighs the exact chance of a collapse against the expected gain of one more card.

    Expected loss of going deeper: the chance that the next card collapses the
    cave times everything it would take by walking out now (what it carries,
    the path gems and the relics, as if it walked out alone).  Expected gain:
    the mean share of the next card over all unseen cards, a relic counted at
    its worth to whoever walks out alone, split between the explorers inside.
    """

    name = "odds"

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        unseen: list[int] = view.unseen()
        if not unseen:
            return CAMP
        seen: list[bool] = view.hazards_seen
        inside = max(1, len(view.inside))
        deadly = 0
        gain = 0.0
        relic = view.relic_worth(view.relics_on_path + 1) - view.relic_worth(view.relics_on_path)
        for card in unseen:
            if card > 0:
                gain += card // inside
            elif card == 0:
                gain += relic / inside
            elif seen[-1 - card]:
                deadly += 1
        chance = deadly / len(unseen)
        expected_gain = gain / len(unseen)
        expected_loss = chance * take_now(view)
        return CAMP if expected_loss > expected_gain else DEEPER


class MonteCarloBot:
    """Samples the unseen cards and plays out "walk out after k more cards" for each k.

    For every sample order of the unseen cards it follows the cave as if the
    explorers inside all stay, and scores walking out after 0, 1, … ``horizon``
    more cards: what it carries plus its even share of the path (gems and relics
    alike), or nothing on a collapse.  It goes deeper when some
    k >= 1 beats walking out now on average.  Cost is samples x horizon, so it
    decides in well under 50 ms at eight players (see ``gemtable bench bots``).
    """

    name = "montecarlo"

    def __init__(self, samples: int = 300, horizon: int = 6) -> None:
        self.samples = samples
        self.horizon = horizon

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        unseen: list[int] = view.unseen()
        if not unseen:
            return CAMP
        inside = max(1, len(view.inside))
        relic_worth = view.relic_worth(1)
        path_now = float(view.path_gems + view.relic_worth(view.relics_on_path))
        now = view.carried + path_now / inside
        horizon = min(self.horizon, len(unseen))
        totals = [0.0] * (horizon + 1)
        base_seen = list(view.hazards_seen)
        for _ in range(self.samples):
            order = rng.sample(unseen, horizon)
            seen = list(base_seen)
            carried = float(view.carried)
            path = path_now
            for k, card in enumerate(order, start=1):
                if card > 0:
                    carried += card // inside
                    path += card % inside
                elif card == 0:
                    path += relic_worth
                elif seen[-1 - card]:
                    break
                else:
                    seen[-1 - card] = True
                totals[k] += carried + path / inside
        best_later = max(totals[1:]) / self.samples if horizon else 0.0
        return DEEPER if best_later > now else CAMP


def register() -> None:
    register_bot("expedition", "random", RandomBot)
    register_bot("expedition", "cautious", CautiousBot)
    register_bot("expedition", "odds", OddsBot)
    register_bot("expedition", "montecarlo", MonteCarloBot)
