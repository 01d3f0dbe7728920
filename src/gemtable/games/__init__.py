"""The games gemtable can host, found by name in one registry.

A built-in game is a folder of this package with a ``manifest.py``: the registry finds the folders, so it names
no game (adding one touches nothing outside its folder).  More games come from ``GEMTABLE_GAMES``."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import os
import pkgutil
import threading
from typing import Any, cast

from gemtable.games.api import (
    JSON,
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

BUILTIN: tuple[str, ...] = tuple(
    f"{__name__}.{folder.name}.manifest"
    for folder in sorted(pkgutil.iter_modules(__path__), key=lambda folder: folder.name)
    if folder.ispkg and importlib.util.find_spec(f"{__name__}.{folder.name}.manifest") is not None
)
"""The modules of the built-in games' manifests (each has a ``MANIFEST``): every folder here that has one, by
name.  The game whose manifest says ``default`` comes first."""

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
    other = next((m for m in MANIFESTS.values() if m.default and manifest.default and m.name != manifest.name), None)
    if other is not None:
        raise GameError(f"{manifest.name} and {other.name} both say they are the default game")
    return MANIFESTS.setdefault(manifest.name, manifest)


def manifests() -> list[Manifest]:
    """Every registered game's manifest: the default game first, then the other built-in ones, then those of
    ``GEMTABLE_GAMES``."""
    modules = [*BUILTIN, *(m.strip() for m in os.environ.get(EXTRA, "").split(",") if m.strip())]
    with _loading:
        for module in modules:
            if module not in _loaded:
                _loaded.add(module)
                found = getattr(importlib.import_module(module), "MANIFEST", None)
                if not isinstance(found, Manifest):
                    raise GameError(f"{module} has no MANIFEST")
                register(found, module.rpartition(".")[0])
        return sorted(MANIFESTS.values(), key=lambda manifest: not manifest.default)


def find_manifest(name: str) -> Manifest:
    """The manifest of the game called ``name``; :class:`GameError` when there is none."""
    known = manifests()
    try:
        return MANIFESTS[name]
    except KeyError:
        raise GameError(f"unknown game {name!r}; known: {', '.join(m.name for m in known)}") from None


def game_part(manifest: Manifest, ref: str) -> Any:
    """What a manifest names by module (``".bots"``, ``".report:print_report"``): the module, or its attribute."""
    module, attribute = manifest.module(ref)
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


def find_game(name: str) -> type[Game]:
    """The game called ``name``; :class:`GameError` when there is none."""
    return find_manifest(name).game


def game_names() -> list[str]:
    """Every game, the built-in ones first."""
    return [manifest.name for manifest in manifests()]


def default_game() -> str:
    """The game a table plays when nobody says which: the one whose manifest says so (else the first)."""
    return manifests()[0].name


def replay(record: GameRecord) -> GameState:
    """Rebuild a game from its record by applying every input in order (``["end"]``: ended early).

    A record can come from anywhere: whatever in it cannot be replayed (a malformed input, rules of the wrong
    shape) is a :class:`BadRecord` naming the input, never another exception."""
    state = _new(record)
    for step, item in enumerate(record.inputs):
        _apply(state, step, item)
    return state


def replay_steps(record: GameRecord, simultaneous: bool, finished: bool = False) -> list[JSON]:
    """The game of ``record`` step by step, as a replay shows it: one step for every round's start
    (``{"round": [seats]}``), every decision (``{"moves": {seat: move}}``: a simultaneous game's whole reveal, or
    one move of a game of turns) and the host's early end (``{"end": true}``), each with ``input`` (the index of its
    last input in the record) and ``view`` (a spectator's view just after it, as the wire carries it).  A
    simultaneous decision closes when a seat that has moved is asked again, or nobody is: its reveal is done.

    Spectators' views only, but from start to end: it is for finished games, whose decks are no secret any more.
    Whatever in the record does not replay is a :class:`BadRecord`, as in :func:`replay`; with ``finished``, so
    are inputs that do not finish the game."""
    state = _new(record)
    view = state.view(None)
    steps: list[JSON] = []
    moves: dict[str, Move] = {}
    for index, item in enumerate(record.inputs):
        _apply(state, index, item)
        if item == ["end"]:
            step: JSON = {"end": True}
        elif _is_roster(item):
            step = {"round": list(item[1])}
        else:
            moves[str(item[0])] = item[1]
            asked = state.to_act()
            if simultaneous and asked and not any(str(seat) in moves for seat in asked) and not state.is_over():
                continue  # the decision is still open: more seats to move before its reveal
            step, moves = {"moves": moves}, {}
        steps.append({**step, "input": index, "view": view.to_json()})
    if finished and not state.is_over():
        raise BadRecord(f"its {len(record.inputs)} inputs do not finish the game")
    return steps


def _new(record: GameRecord) -> GameState:
    """The game of ``record`` before its first input."""
    game = find_game(record.game)
    try:
        return game.new(record.rules, record.seats, record.seed, record.script)
    except GameError as exc:
        raise BadRecord(f"its rules or script do not make a game: {exc}") from exc
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise BadRecord(f"its rules or script do not make a game ({type(exc).__name__})") from exc


def _apply(state: GameState, step: int, item: object) -> None:
    """One input of a record applied (see :func:`replay`)."""
    try:
        if item == ["end"]:
            state.end()
        elif _is_roster(item):
            state.start_round(list(cast(list[int], cast(list[object], item)[1])))
        elif _is_move(item):
            seat, move = cast(list[Any], item)
            state.apply(seat, move)
        else:
            raise BadRecord(f"input {step} is neither a round nor a move: {_short(item)}")
    except BadRecord:
        raise
    except GameError as exc:
        raise BadRecord(f"input {step} ({_short(item)}) does not replay: {exc}") from exc
    except (TypeError, ValueError, KeyError, IndexError) as exc:
        raise BadRecord(f"input {step} ({_short(item)}) does not replay ({type(exc).__name__})") from exc


def _is_roster(item: object) -> bool:
    """``["round", [seat, ...]]``."""
    return (
        isinstance(item, list)
        and len(item) == 2
        and item[0] == "round"
        and isinstance(item[1], list)
        and all(isinstance(seat, int) and not isinstance(seat, bool) for seat in item[1])
    )


def _is_move(item: object) -> bool:
    """``[seat, move]``."""
    return (
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], int)
        and not isinstance(item[0], bool)
        and isinstance(item[1], str)
    )


def _short(item: object) -> str:
    """An input as a reason can quote it: on one line, never more than 60 characters."""
    text = repr(item)
    return text if len(text) <= 60 else text[:57] + "..."


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
    "game_part",
    "manifests",
    "register",
    "replay",
    "replay_steps",
]
