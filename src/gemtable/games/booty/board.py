"""The table: where tiles lie, where a drawn tile may go, and the diamonds.

Cells are ``(x, y)`` with ``x`` growing to the east and ``y`` growing to the
south, as on a screen; the first tile of a game lies on ``(0, 0)``.

A :class:`Board` never changes once built: placing a tile gives a new board, so
a bot can try a placement without touching the game, and the state is left
untouched when a placement turns out to be illegal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from gemtable.games.api import IllegalMove
from gemtable.games.booty.tiles import EAST, SIDE_NAMES, SIDES, SOUTH, Slice, Tile, beside, opposite

Cell = tuple[int, int]
SliceRef = tuple[int, int, int]
"""One slice on the board: ``(x, y, side)``."""

STEPS: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The neighbouring cell across each side N, E, S, W."""

ORIGIN: Cell = (0, 0)

_MOVE = re.compile(r"(-?\d{1,4}),(-?\d{1,4}),([0-3])")


def neighbour(cell: Cell, side: int) -> Cell:
    dx, dy = STEPS[side]
    return (cell[0] + dx, cell[1] + dy)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a tile goes and how it is turned: the move ``"x,y,rotation"``."""

    x: int
    y: int
    rotation: int
    """Quarter turns clockwise, 0 to 3."""

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)

    def text(self) -> str:
        return f"{self.x},{self.y},{self.rotation}"

    @classmethod
    def parse(cls, text: str) -> Placement:
        """``"3,-1,2"`` → x 3, y -1, two quarter turns; :class:`IllegalMove` for anything else."""
        found = _MOVE.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise IllegalMove(f"{text!r} is not a placement; write x,y,rotation such as 3,-1,2")
        return cls(int(found[1]), int(found[2]), int(found[3]))


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile lying on the table."""

    tile: Tile
    placement: Placement
    order: int
    """0 for the first tile placed, 1 for the next, …"""
    slices: tuple[Slice, Slice, Slice, Slice]
    """What it shows on sides N, E, S, W once turned."""


@dataclass(frozen=True, slots=True)
class Diamond:
    """Two gem halves facing each other across the edge on side ``side`` (E or S) of ``cell``."""

    cell: Cell
    side: int
    formed: int
    """Order of the placement that formed it (0-based)."""

    @property
    def other_cell(self) -> Cell:
        return neighbour(self.cell, self.side)

    def touching(self) -> tuple[SliceRef, ...]:
        """The slices along its edges: the two others of each of its two tiles, in side order."""
        near, far = self.cell, self.other_cell
        return tuple(
            (cell[0], cell[1], side)
            for cell, gem in ((near, self.side), (far, opposite(self.side)))
            for side in sorted(beside(gem))
        )

    @property
    def side_name(self) -> str:
        return SIDE_NAMES[self.side]


class Board:
    """Tiles on the table by cell.  Immutable: :meth:`with_tile` returns a new board."""

    __slots__ = ("_diamonds", "_tiles")

    def __init__(self, tiles: Mapping[Cell, PlacedTile] | None = None) -> None:
        self._tiles: dict[Cell, PlacedTile] = dict(tiles or {})
        self._diamonds: tuple[Diamond, ...] | None = None

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, cell: object) -> bool:
        return cell in self._tiles

    def at(self, cell: Cell) -> PlacedTile | None:
        return self._tiles.get(cell)

    def slice_at(self, ref: SliceRef) -> Slice | None:
        placed = self._tiles.get((ref[0], ref[1]))
        return None if placed is None else placed.slices[ref[2]]

    def in_order(self) -> list[PlacedTile]:
        """The tiles in the order they were placed."""
        return sorted(self._tiles.values(), key=lambda placed: placed.order)

    def with_tile(self, tile: Tile, placement: Placement) -> Board:
        """The board with ``tile`` added, without checking that the rules allow it."""
        placed = PlacedTile(tile, placement, len(self._tiles), tile.turned(placement.rotation))
        tiles = dict(self._tiles)
        tiles[placement.cell] = placed
        return Board(tiles)

    # --- where a tile may go ---------------------------------------------------------------

    def open_cells(self) -> list[Cell]:
        """Empty cells sharing an edge with a placed tile, in reading order (by y, then x)."""
        if not self._tiles:
            return [ORIGIN]
        cells = {neighbour(cell, side) for cell in self._tiles for side in SIDES}
        return sorted((cell for cell in cells if cell not in self._tiles), key=lambda c: (c[1], c[0]))

    def fits(self, slices: tuple[Slice, ...], cell: Cell) -> bool:
        """Whether slices shown on N, E, S, W match every placed neighbour of an empty ``cell``."""
        for side in SIDES:
            other = self._tiles.get(neighbour(cell, side))
            if other is not None and not slices[side].matches(other.slices[opposite(side)]):
                return False
        return True

    def placements(self, tile: Tile) -> list[Placement]:
        """Every legal placement of ``tile``: cells in reading order, then rotations 0 to 3."""
        turns = [tile.turned(rotation) for rotation in range(4)]
        return [
            Placement(cell[0], cell[1], rotation)
            for cell in self.open_cells()
            for rotation in range(4)
            if self.fits(turns[rotation], cell)
        ]

    def check(self, tile: Tile, placement: Placement) -> None:
        """Raise :class:`IllegalMove` saying why ``tile`` may not go at ``placement``."""
        cell = placement.cell
        if not self._tiles:
            if cell != ORIGIN:
                raise IllegalMove("the first tile goes on 0,0")
            return
        if cell in self._tiles:
            raise IllegalMove(f"cell {cell[0]},{cell[1]} is already taken")
        if not any(neighbour(cell, side) in self._tiles for side in SIDES):
            raise IllegalMove("a tile must share an edge with a placed tile (a corner is not enough)")
        shown = tile.turned(placement.rotation)
        for side in SIDES:
            other = self._tiles.get(neighbour(cell, side))
            if other is not None and not shown[side].matches(other.slices[opposite(side)]):
                raise IllegalMove(
                    f"the {SIDE_NAMES[side]} edge shows {_describe(shown[side])} "
                    f"against {_describe(other.slices[opposite(side)])}"
                )

    # --- diamonds ----------------------------------------------------------------------------

    def diamonds(self) -> tuple[Diamond, ...]:
        """Every diamond on the table, in the order they formed."""
        if self._diamonds is None:
            self._diamonds = tuple(self._find_diamonds())
        return self._diamonds

    def _find_diamonds(self) -> Iterator[Diamond]:
        for placed in self.in_order():
            for side in SIDES:
                cell = neighbour(placed.placement.cell, side)
                other = self._tiles.get(cell)
                if other is None or other.order > placed.order:
                    continue
                if placed.slices[side].is_gem and other.slices[opposite(side)].is_gem:
                    yield _diamond_between(placed.placement.cell, side, placed.order)


def _diamond_between(cell: Cell, side: int, formed: int) -> Diamond:
    """The diamond on ``side`` of ``cell``, named from the west or north tile of the pair."""
    if side in (EAST, SOUTH):
        return Diamond(cell, side, formed)
    return Diamond(neighbour(cell, side), opposite(side), formed)


def _describe(piece: Slice) -> str:
    return "a gem half" if piece.colour is None else f"colour {piece.colour} land"


__all__ = ["ORIGIN", "Board", "Cell", "Diamond", "PlacedTile", "Placement", "SliceRef", "neighbour"]
