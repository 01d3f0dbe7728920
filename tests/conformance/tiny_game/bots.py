"""Pick's one bot: a uniformly random pick."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gemtable.bots import register_bot
from tests.conformance.tiny_game import Pick


class RandomPick:
    name = "random"

    def choose(self, view: Any, moves: Sequence[str], rng: random.Random) -> str:
        return rng.choice(list(moves))


def register() -> None:
    register_bot(Pick.name, "random", RandomPick)
