"""What the load, soak and fuzz tools need of Booty Hunter (:class:`gemtable.games.api.Probes`): a person's
placement, what a decision is (a turn: the tiles placed so far), what the board shows of the last turn, and
what must hold of every view and every game (no tile appears or vanishes)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gemtable.games.api import Decision, GameState, Move
from gemtable.games.booty.rules import PLAYERS
from gemtable.games.booty.state import BootyState
from gemtable.games.booty.tiles import TILE_IDS


def honest_move(view: Any, moves: Sequence[Move], rng: random.Random, eager: bool) -> Move:
    """A legal placement, picked at random (a game lasts its tiles whatever is placed where)."""
    return rng.choice(list(moves))


def decision(view: Any) -> Decision:
    """A turn: one tile is placed at each."""
    return (int(view.get("placements") or 0),)


def taken(view: Any, seat: int) -> Move | None:
    """The last tile on the board, when ``seat`` placed it: the turn has passed from it to the next seat."""
    turn, board = view.get("turn"), view.get("board") or []
    if not isinstance(turn, int) or not board or (turn - 1) % PLAYERS != seat:
        return None
    last = max(board, key=lambda tile: tile.get("order", -1))
    return f"{last['x']},{last['y']},{last['rotation']}"


def view_problems(view: Any, seat: int | None, over: bool) -> list[str]:
    """The board and the bag add up, and only the seat to act has moves."""
    if not isinstance(view, dict):
        return ["Booty Hunter's view is not an object"]
    out = []
    placed, bag = view.get("placements"), view.get("bag")
    if placed != len(view.get("board") or []):
        out.append(f"{placed} placements, but {len(view.get('board') or [])} tiles on the board")
    if not isinstance(bag, int) or bag < 0:
        out.append(f"the bag holds {bag!r} tiles")
    if view.get("moves") and view.get("turn") != seat:
        out.append("a seat not to act is shown moves")
    if over != bool(view.get("over")):
        out.append("the game's end and the table's disagree")
    return out


def invariants(state: GameState) -> tuple[list[str], int]:
    """Every tile of the box is in the bag, on the board, set aside or drawn (or, in a game the host ended, drawn
    and never placed): none appear or vanish."""
    if not isinstance(state, BootyState):
        return [f"not a game of Booty Hunter: {type(state).__name__}"], 0
    drawn = state.drawn is not None or state.unplaced is not None
    held = state.bag_size + state.placements + len(state.set_aside) + drawn
    if held == len(TILE_IDS):
        return [], 0
    return [f"{len(TILE_IDS)} tiles in the box, but {held} in the bag, on the board, set aside or drawn"], abs(
        held - len(TILE_IDS)
    )
