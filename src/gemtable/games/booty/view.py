"""What one seat (or a spectator) may see of a game of Booty Hunter.

This is the one place where secrets are hidden.  Everything on the table is
public: the board, the diamonds, the tile just drawn (it is shown as soon as it
is drawn), the tiles set aside, whose turn it is and how many tiles are left in
the bag.  The one secret is the order of the bag, which no view carries.

The acting seat's view also lists its legal placements.  Scores are shown only
once the game is over, with the count diamond by diamond (``scoring``), so that a
page can flip the markers from white to black one at a time.

A view is a live, read-only window onto the state (a table may keep one view per
seat for the whole game).  Boards never change once built, so a bot can try a
placement (:meth:`BootyView.scores_after`) without touching the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gemtable.games.api import JSON, IllegalMove
from gemtable.games.booty.board import Board, Diamond, PlacedTile, Placement
from gemtable.games.booty.rules import PLACEMENTS, PLAYERS, ROUNDS
from gemtable.games.booty.scoring import Area, Count, DiamondCount, slice_name, totals
from gemtable.games.booty.tiles import Tile

if TYPE_CHECKING:
    from gemtable.games.booty.state import BootyState, SetAside


class BootyView:
    """A seat's window onto the game (``seat`` None: a spectator's)."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: BootyState, seat: int | None) -> None:
        self._state = state
        self.seat = seat

    @property
    def mode(self) -> int:
        """The table's scoring mode: 1 every area, 2 largest area."""
        return self._state.rules.scoring

    @property
    def board(self) -> Board:
        return self._state.board

    @property
    def turn(self) -> int | None:
        return self._state.turn

    @property
    def drawn(self) -> Tile | None:
        return self._state.drawn

    @property
    def moves(self) -> tuple[Placement, ...]:
        """Legal placements of the drawn tile; empty unless this seat is to act."""
        state = self._state
        return state.placements_open if self.seat is not None and self.seat == state.turn else ()

    @property
    def set_aside(self) -> tuple[SetAside, ...]:
        return tuple(self._state.set_aside)

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def placements(self) -> int:
        return self._state.placements

    @property
    def bag_size(self) -> int:
        return self._state.bag_size

    @property
    def over(self) -> bool:
        return self._state.over

    @property
    def final(self) -> Count | None:
        """The count under the table's mode, once the game is over."""
        return self._state.count() if self._state.over else None

    def snapshot(self) -> BootyView:
        """A copy of this view, detached from the state: the same API over a copy of the table and
        nothing of the bag but its size.  It is what a user bot in its own process is sent
        (:mod:`gemtable.lab.userbot`)."""
        return BootyView(_Seen(self._state), self.seat)  # type: ignore[arg-type]

    # --- for bots ----------------------------------------------------------------------

    def standing(self) -> list[int]:
        """What each seat would score if the game ended now (public: the board is on the table)."""
        return totals(self.board, self._state.rules.counting)

    def scores_after(self, move: str) -> list[int]:
        """What each seat would score if the drawn tile went at ``move`` and the game ended then."""
        if self.drawn is None:
            raise IllegalMove("no tile is drawn")
        placement = Placement.parse(move)
        self.board.check(self.drawn, placement)
        return totals(self.board.with_tile(self.drawn, placement), self._state.rules.counting)

    # --- for the wire -----------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": "booty",
            "seat": self.seat,
            "scoring_mode": self.mode,
            "touching": self._state.rules.touching,
            "tie": self._state.rules.tie,
            "colours": list(range(PLAYERS)),
            "turn": self.turn,
            "round": self.round,
            "rounds": ROUNDS,
            "placements": self.placements,
            "max_placements": PLACEMENTS,
            "bag": self.bag_size,
            "drawn": None if self.drawn is None else self.drawn.to_json(),
            "moves": [placement.text() for placement in self.moves],
            "board": [_placed_json(placed) for placed in self.board.in_order()],
            "diamonds": [_diamond_json(i, diamond, self.over) for i, diamond in _numbered(self.board)],
            "set_aside": [item.to_json() for item in self.set_aside],
            "over": self.over,
            "scores": None if self.final is None else self.final.totals,
            "winners": None if self.final is None else _winners(self.final.totals),
            "scoring": _scoring_json(self.final),
        }


class _Seen:
    """The table as everyone sees it, copied: the fields a view reads, and only those (a whitelist).
    The bag's order and the generator stay behind; boards never change, so they are shared."""

    __slots__ = (
        "_count", "bag_size", "board", "drawn", "over", "placements", "placements_open", "round", "rules",
        "set_aside", "turn",
    )  # fmt: skip

    def __init__(self, state: BootyState) -> None:
        self.rules, self.board, self.drawn, self.turn = state.rules, state.board, state.drawn, state.turn
        self.placements_open, self.set_aside = tuple(state.placements_open), tuple(state.set_aside)
        self.round, self.placements, self.bag_size = state.round, state.placements, state.bag_size
        self.over = state.over
        self._count = state.count() if state.over else None

    def count(self) -> Count:
        assert self._count is not None
        return self._count


def _numbered(board: Board) -> list[tuple[int, Diamond]]:
    return list(enumerate(board.diamonds()))


def _scoring_json(final: Count | None) -> JSON:
    """The count diamond by diamond, in the order the markers are flipped; empty during play."""
    if final is None:
        return []
    return [_diamond_count_json(number, each) for number, each in enumerate(final.diamonds)]


def _placed_json(placed: PlacedTile) -> JSON:
    return {
        "x": placed.placement.x,
        "y": placed.placement.y,
        "rotation": placed.placement.rotation,
        "tile": placed.tile.id,
        "order": placed.order,
        "slices": [piece.to_json() for piece in placed.slices],
    }


def _diamond_json(number: int, diamond: Diamond, scored: bool) -> JSON:
    other = diamond.other_cell
    return {
        "id": number,
        "x": diamond.cell[0],
        "y": diamond.cell[1],
        "side": diamond.side_name,
        "cells": [list(diamond.cell), list(other)],
        "formed": diamond.formed,
        "marker": "black" if scored else "white",
    }


def _area_json(area: Area, scores: bool) -> JSON:
    return {
        "owner": area.owner,
        "size": area.size,
        "value": area.value,
        "scores": scores,
        "slices": [slice_name(ref) for ref in area.slices],
    }


def _diamond_count_json(number: int, each: DiamondCount) -> JSON:
    return {
        "diamond": number,
        "areas": [_area_json(area, scores) for area, scores in zip(each.areas, each.scoring, strict=True)],
        "gem_halves": each.gem_halves,
        "points": list(each.points),
    }


def _winners(scores: list[int]) -> list[int]:
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


__all__ = ["BootyView"]
