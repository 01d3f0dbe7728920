"""Bots that can sit in an empty chair.

A bot sees exactly what its seat's view shows (``state.view(seat)``), the legal
moves, and a random generator of its own; nothing else.  Bots are found by game
and name in one registry, so the table and the simulator never branch on either.

The games' registry is the one name table: each game's manifest names the module
holding its bots (``Manifest.bots``), whose ``register()`` registers them here the
first time the game's bots are asked for; the bot that stands in for a person whose
phone stays gone (``Manifest.stand_in``); and the function that makes a bot from a
name that is its own rule (``Manifest.named_bots``), if the game has one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gemtable.games import GameError, Move, find_manifest, game_part


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


PERSON_NAMES: tuple[str, ...] = (
    "Ada",
    "Bruno",
    "Chloé",
    "Dario",
    "Eszter",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Kenji",
    "Lena",
    "Mateo",
    "Nora",
    "Oskar",
    "Priya",
)
"""Human-ish names a table gives its bots (in order, skipping names taken), so that seven bots of one
strategy are seven people on the screen; the strategy is shown beside the name.  A game's manifest may give
its own (``bot_people``)."""


def bot_person_names(game: str) -> tuple[str, ...]:
    try:
        return find_manifest(game).bot_people or PERSON_NAMES
    except GameError:
        return PERSON_NAMES


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


def stand_in(game: str) -> Bot:
    """A new bot of the kind that plays for a person whose phone stays gone (the manifest's ``stand_in``)."""
    return make_bot(game, find_manifest(game).stand_in)


def _named_bot(game: str, name: str) -> Bot | None:
    """A bot whose name is its rule (``threshold=8``), by the function the game's manifest names."""
    try:
        manifest = find_manifest(game)
    except GameError:
        return None
    if manifest.named_bots is None:
        return None
    bot: Bot | None = game_part(manifest, manifest.named_bots)(name)
    return bot


def _load_builtin(game: str) -> None:
    """Import the bots that ``game``'s manifest names, once; nothing for a game nobody registered."""
    if game in _loaded:
        return
    try:
        manifest = find_manifest(game)
    except GameError:
        return
    _loaded.add(game)
    game_part(manifest, manifest.bots).register()
