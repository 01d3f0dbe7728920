"""Bots that can sit in an empty chair.

A bot sees exactly what its seat's view shows (``state.view(seat)``), the legal
moves, and a random generator of its own; nothing else.  Bots are found by game
and name in one registry, so the table and the simulator never branch on either.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gemtable.games import GameError, Move


class Bot(Protocol):
    """A strategy for one seat."""

    name: str

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        """One of ``moves``, decided from ``view`` alone."""
        ...


BotFactory = Callable[[], Bot]
BOTS: dict[str, dict[str, BotFactory]] = {}

BUILTIN: dict[str, str] = {"expedition": "gemtable.bots.expedition", "booty": "gemtable.bots.booty"}
"""Modules holding the built-in bots of each game, imported when first needed.
Each has a ``register()`` that registers its bots."""


def register_bot(game: str, name: str, factory: BotFactory) -> None:
    BOTS.setdefault(game, {})[name] = factory


BOT_PERSON_NAMES: dict[str, tuple[str, ...]] = {
    "expedition": ("Ada", "Bruno", "Chloé", "Dario", "Eszter", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kenji",
                   "Lena", "Mateo", "Nora", "Oskar", "Priya"),
    "booty": ("Anne Bonny", "Barbarossa", "Calico Jack", "Grace", "Kidd", "Mary Read", "Morgan", "Zheng Yi"),
}
"""Human-ish names a table gives its bots (in order, skipping names taken), so that seven bots of one
strategy are seven people on the screen; the strategy is shown beside the name."""


def bot_person_names(game: str) -> tuple[str, ...]:
    return BOT_PERSON_NAMES.get(game, BOT_PERSON_NAMES["expedition"])


def bot_names(game: str) -> list[str]:
    _load_builtin(game)
    return sorted(BOTS.get(game, {}))


def make_bot(game: str, name: str) -> Bot:
    """A new bot called ``name`` for ``game``; :class:`GameError` when there is none."""
    _load_builtin(game)
    factory = BOTS.get(game, {}).get(name)
    if factory is not None:
        return factory()
    named = _named_bot(game, name)
    if named is not None:
        return named
    known = ", ".join(bot_names(game)) or "none"
    raise GameError(f"no bot {name!r} for {game!r}; known: {known}")


def _named_bot(game: str, name: str) -> Bot | None:
    """A bot whose name is its rule (``threshold=8``): the game's bot module's ``bot_from_name``."""
    if game not in BUILTIN:
        return None
    hook = getattr(importlib.import_module(BUILTIN[game]), "bot_from_name", None)
    bot: Bot | None = hook(name) if hook is not None else None
    return bot


def _load_builtin(game: str) -> None:
    if game in BOTS or game not in BUILTIN:
        return
    importlib.import_module(BUILTIN[game]).register()
