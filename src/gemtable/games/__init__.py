"""The games gemtable can host, found by name in one registry."""

from __future__ import annotations

import importlib

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

GAMES: dict[str, type[Game]] = {}
"""Games registered so far, by name."""

BUILTIN: dict[str, str] = {
    "expedition": "gemtable.games.expedition:Expedition",
    "booty": "gemtable.games.booty:BootyHunter",
}
"""Where the built-in games live; each is imported the first time it is asked for."""


def register(game: type[Game]) -> type[Game]:
    GAMES[game.name] = game
    return game


def find_game(name: str) -> type[Game]:
    """The game called ``name``; :class:`GameError` when there is none."""
    if name not in GAMES and name in BUILTIN:
        module, attr = BUILTIN[name].split(":")
        register(getattr(importlib.import_module(module), attr))
    try:
        return GAMES[name]
    except KeyError:
        raise GameError(f"unknown game {name!r}; known: {', '.join(game_names())}") from None


def game_names() -> list[str]:
    """Every game, the built-in ones first (the expedition is the default)."""
    return [*BUILTIN, *sorted(set(GAMES) - set(BUILTIN))]


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
    "GAMES",
    "BadRecord",
    "Game",
    "GameError",
    "GameRecord",
    "GameState",
    "IllegalMove",
    "Move",
    "NotYourTurn",
    "SeatView",
    "UnknownSeat",
    "find_game",
    "game_names",
    "register",
    "replay",
]
