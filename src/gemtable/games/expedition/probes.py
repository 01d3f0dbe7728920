"""What the load, soak and fuzz tools need of the expedition (:class:`gemtable.games.api.Probes`): a person's
move, what a decision is (a cave and the cards on its path), what a reveal shows of a seat's choice, and what
must hold of every view and every game (no chest shown before the end; no gem created or lost)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gemtable.games.api import Decision, GameState, Move
from gemtable.games.expedition.moves import CAMP, DEEPER
from gemtable.games.expedition.state import ExpeditionState

NODE_MOVE = "honest_move.mjs"
"""The same move in JavaScript, for the benchmark's Node generator (``gemtable.bench.node``)."""


def honest_move(view: Any, moves: Sequence[Move], rng: random.Random, eager: bool) -> Move:
    """Deeper four times in five while the path is short, about half the time once it holds five cards or more;
    ``eager``: deeper whenever it may (caves last longest)."""
    if DEEPER not in moves:
        return moves[0]
    if eager:
        return DEEPER
    path = len(view.get("path") or []) if isinstance(view, dict) else 0
    return DEEPER if rng.random() < (0.8 if path < 5 else 0.45) else CAMP


def decision(view: Any) -> Decision:
    """The cave and the cards on its path: one card is turned after every reveal."""
    return (int(view.get("cave") or 0), len(view.get("path") or []))


def taken(view: Any, seat: int) -> Move | None:
    """The reveal right after a decision says who went deeper and who walked out."""
    reveal = view.get("reveal") if isinstance(view, dict) else None
    if not isinstance(reveal, dict):
        return None
    if seat in (reveal.get("deeper") or []):
        return DEEPER
    if seat in (reveal.get("leavers") or []):
        return CAMP
    return None


def view_problems(view: Any, seat: int | None, over: bool) -> list[str]:
    """Nobody's chest before the end but the viewer's own; no negative counts on the path or in hands; what might
    have been only in a seat's own view, once its cave is over."""
    if not isinstance(view, dict):
        return ["the expedition's view is not an object"]
    out = []
    for player in view.get("players") or []:
        mine = seat is not None and player.get("seat") == seat
        if not over and not mine and (player.get("chest") is not None or player.get("chest_by_cave") is not None):
            out.append(f"seat {player.get('seat')}'s chest shows before the end")
        if "carried" in player and (not isinstance(player["carried"], int) or player["carried"] < 0):
            out.append("a negative carried count")
    if any(not isinstance(card.get("gems"), int) or card["gems"] < 0 for card in view.get("path") or []):
        out.append("negative gems on the path")
    if view.get("hindsight") is not None and (seat is None or view.get("phase") not in ("roster", "over")):
        out.append("what might have been, in a cave under way or in no seat's view")  # (hindsight.py)
    return out


def invariants(state: GameState) -> tuple[list[str], int]:
    """Every gem revealed is banked, carried, lying on the path, lost in a collapse or left behind when the cave
    closed: none appear or vanish, at any moment of the game."""
    if not isinstance(state, ExpeditionState):
        return [f"not a game of the expedition: {type(state).__name__}"], 0
    kept = sum(state.chest) + sum(state.carried) + sum(state.path_gems) + state.lost + state.returned
    if kept == state.revealed:
        return [], 0
    return [f"{state.revealed} gems revealed, but {kept} banked, carried, lost or left on the path"], abs(
        kept - state.revealed
    )
