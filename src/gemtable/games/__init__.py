"""The games gemtable can host, found by name in one registry."""

from __future__ import annotations

import dataclasses
import importlib
import os
import threading

from gemtable.games.api import (
    BadRecord,
    Game,
    GameError,
    GameRecord,
    GameState,
    IllegalMove,
    Move,
    NotYourTurn,
    SeatView,
    UnknownSeat,
)
from gemtable.games.manifest import Manifest

MANIFESTS: dict[str, Manifest] = {}
"""Games registered so far, by name: each game's manifest (see :mod:`gemtable.games.manifest`)."""

BUILTIN: tuple[str, ...] = ("gemtable.games.expedition.manifest", "gemtable.games.booty.manifest")
"""The modules of the built-in games' manifests (each has a ``MANIFEST``); the first is the default game."""

EXTRA = "GEMTABLE_GAMES"
"""An environment variable naming more manifest modules, comma-separated (a test-only game, a game of
your own); the server process reads it like every other process."""

_loaded: set[str] = set()
_loading = threading.RLock()
"""Held while manifest modules load: a thread asking for the games waits for them instead of finding none."""


def register(manifest: Manifest, package: str = "") -> Manifest:
    """Add a game to the registry; registering the same name twice keeps the first.  ``package``: the game's
    folder (the package of its manifest's module), unless the manifest names it."""
    if package and not manifest.package:
        manifest = dataclasses.replace(manifest, package=package)
    return MANIFESTS.setdefault(manifest.name, manifest)


def manifests() -> list[Manifest]:
    """Every registered game's manifest, the built-in ones first (the first is the default)."""
    modules = [*BUILTIN, *(m.strip() for m in os.environ.get(EXTRA, "").split(",") if m.strip())]
    with _loading:
        for module in modules:
            if module not in _loaded:
                _loaded.add(module)
                found = getattr(importlib.import_module(module), "MANIFEST", None)
                if not isinstance(found, Manifest):
                    raise GameError(f"{module} has no MANIFEST")
                register(found, module.rpartition(".")[0])
        return list(MANIFESTS.values())


def find_manifest(name: str) -> Manifest:
    """The manifest of the game called ``name``; :class:`GameError` when there is none."""
    known = manifests()
    try:
        return MANIFESTS[name]
    except KeyError:
        raise GameError(f"unknown game {name!r}; known: {', '.join(m.name for m in known)}") from None


def find_game(name: str) -> type[Game]:
    """The game called ``name``; :class:`GameError` when there is none."""
    return find_manifest(name).game


def game_names() -> list[str]:
    """Every game, the built-in ones first."""
    return [manifest.name for manifest in manifests()]


def default_game() -> str:
    """The game a table plays when nobody says which: the first registered."""
    return manifests()[0].name


def replay(record: GameRecord) -> GameState:
    """Rebuild a game from its record by applying every input in order."""
    game = find_game(record.game)
    state = game.new(record.rules, record.seats, record.seed, record.script)
    for step, item in enumerate(record.inputs):
        try:
            if isinstance(item, list) and len(item) == 2 and item[0] == "round":
                state.start_round([int(s) for s in item[1]])
            elif isinstance(item, list) and len(item) == 2:
                state.apply(int(item[0]), str(item[1]))
            else:
                raise BadRecord(f"input {step} is neither a round nor a move: {item!r}")
        except GameError as exc:
            raise BadRecord(f"input {step} ({item!r}) does not replay: {exc}") from exc
    return state


__all__ = [
    "MANIFESTS",
    "BadRecord",
    "Game",
    "GameError",
    "GameRecord",
    "GameState",
    "IllegalMove",
    "Manifest",
    "Move",
    "NotYourTurn",
    "SeatView",
    "UnknownSeat",
    "default_game",
    "find_game",
    "find_manifest",
    "game_names",
    "manifests",
    "register",
    "replay",
]
