"""What the load, soak and fuzz tools need of Pick (``gemtable.games.api.Probes``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gemtable.games.api import Decision, GameState, Move
from tests.conformance.tiny_game import MOVES, PickState


def honest_move(view: Any, moves: Sequence[Move], rng: random.Random, eager: bool) -> Move:
    return rng.choice(list(moves))


def decision(view: Any) -> Decision:
    """A round: both pick once in each."""
    return (len(view.get("history") or []),)


def taken(view: Any, seat: int) -> Move | None:
    history = view.get("history") or []
    return str(history[-1][seat]) if history else None


def view_problems(view: Any, seat: int | None, over: bool) -> list[str]:
    if not isinstance(view, dict):
        return ["Pick's view is not an object"]
    out = []
    if seat is None and view.get("mine") is not None:
        out.append("a spectator sees a pick")
    if over != bool(view.get("over")):
        out.append("the game's end and the table's disagree")
    return out


def invariants(state: GameState) -> tuple[list[str], int]:
    if not isinstance(state, PickState):
        return [f"not a game of Pick: {type(state).__name__}"], 0
    out = [] if len(state.history) <= state.rounds else ["more rounds than the rules allow"]
    return out + [f"an unknown pick in {picks}" for picks in state.history if set(picks) - set(MOVES)], 0
