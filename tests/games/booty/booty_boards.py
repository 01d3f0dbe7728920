"""Hand-built tiles and boards for the Booty Hunter tests.

A tile is written as its slices N, E, S, W: ``G`` for a gem half, ``c:p`` for
land of colour ``c`` worth ``p`` points, e.g. ``"G 0:2 1:1 0:3"``.
"""

from __future__ import annotations

import random

from gemtable.games.booty.board import Board, Placement
from gemtable.games.booty.state import BootyState
from gemtable.games.booty.tiles import GEM, Slice, Tile


def piece(spec: str) -> Slice:
    if spec == "G":
        return GEM
    colour, points = spec.split(":")
    return Slice(int(colour), int(points))


def tile(spec: str, tile_id: int = 0) -> Tile:
    n, e, s, w = (piece(part) for part in spec.split())
    return Tile(tile_id, 0, (n, e, s, w))


def board(*placed: tuple[int, int, str]) -> Board:
    """Tiles placed unturned at ``(x, y)`` in the order given, each checked against the rules."""
    result = Board()
    for number, (x, y, spec) in enumerate(placed):
        laid, where = tile(spec, number), Placement(x, y, 0)
        result.check(laid, where)
        result = result.with_tile(laid, where)
    return result


def play_randomly(state: BootyState, rng: random.Random) -> BootyState:
    """Start the game if needed and play it out with uniformly random legal placements."""
    if state.needs_roster():
        state.start_round([0, 1, 2])
    while not state.is_over():
        (seat,) = state.to_act()
        state.apply(seat, rng.choice(list(state.legal_moves(seat))))
    return state
