"""Bots for Booty Hunter.  They see only their seat's view (the board is public).

* ``random`` — a legal placement picked uniformly with the bot's own generator.
* ``greedy`` — the placement after which its own score, counted as the board
  would stand if the game ended then (under the table's scoring mode), is
  highest; ties are broken with the bot's generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from gemtable.bots import Bot, register_bot
from gemtable.games.api import Move

NAME = "booty"


class RandomBot:
    """Any legal placement, uniformly."""

    name = "random"

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        return rng.choice(list(moves))


class GreedyBot:
    """The placement that raises its own score the most, as the board would stand."""

    name = "greedy"

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        seat = view.seat
        gains = {move: view.scores_after(move)[seat] for move in moves}
        best = max(gains.values())
        return rng.choice([move for move in moves if gains[move] == best])


FACTORIES: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def register() -> None:
    for name, factory in FACTORIES.items():
        register_bot(NAME, name, factory)


__all__ = ["FACTORIES", "GreedyBot", "RandomBot", "register"]
