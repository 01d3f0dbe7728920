"""Bots that can sit in an empty chair.

A bot sees exactly what its seat's view shows (``state.view(seat)``), the legal
moves, and a random generator of its own; nothing else.  Bots are found by game
and name in one registry, so the table and the simulator never branch on either.

The games' registry is the one name table: each game's manifest names the module
holding its bots (``Manifest.bots``), whose ``register()`` registers them here the
first time the game's bots are asked for.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gemtable.games import GameError, Move, find_manifest


class Bot(Protocol):
    """A strategy for one seat."""

    name: str

    def choose(self, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        """One of ``moves``, decided from ``view`` alone."""
        ...


BotFactory = Callable[[], Bot]
BOTS: dict[str, dict[str, BotFactory]] = {}

_loaded: set[str] = set()


def register_bot(game: str, name: str, factory: BotFactory) -> None:
    BOTS.setdefault(game, {})[name] = factory


def bot_names(game: str) -> list[str]:
    _load_builtin(game)
    return sorted(BOTS.get(game, {}))


def make_bot(game: str, name: str) -> Bot:
    """A new bot called ``name`` for ``game``; :class:`GameError` when there is none."""
    _load_builtin(game)
    try:
        return BOTS[game][name]()
    except KeyError:
        known = ", ".join(bot_names(game)) or "none"
        raise GameError(f"no bot {name!r} for {game!r}; known: {known}") from None


def _load_builtin(game: str) -> None:
    """Import the bots that ``game``'s manifest names, once; nothing for a game nobody registered."""
    if game in _loaded:
        return
    try:
        module = find_manifest(game).bots
    except GameError:
        return
    _loaded.add(game)
    importlib.import_module(module).register()
