"""The count at the end: areas, and what each diamond is worth to whom.

An *area* is a largest set of land slices of one colour joined through shared
edges: slice to slice inside a tile (north touches east and west, …) and across
a tile edge.  Its size is its number of slices, its value the sum of their
points, and it belongs to the seat of its colour.

A diamond touches the two other slices of each of its two tiles.  Each touching
area is counted once per diamond, however many of its slices touch it; a
touching gem half adds nothing (a diamond touching a diamond is worth no points).

* Mode 1 (:data:`EVERY_AREA`): every touching area scores its value.
* Mode 2 (:data:`LARGEST_AREA`): only the touching area(s) of the greatest size
  score their value; equal sizes all score.

Diamonds are counted in the order they formed, so that a page can flip their
markers from white to black one at a time as the players would at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from gemtable.games.booty.board import Board, Diamond, SliceRef, neighbour
from gemtable.games.booty.tiles import SIDE_NAMES, SIDES, beside, opposite

EVERY_AREA = 1
LARGEST_AREA = 2
MODES: tuple[int, ...] = (EVERY_AREA, LARGEST_AREA)
PLAYERS = 3


@dataclass(frozen=True, slots=True)
class Area:
    """A connected piece of one colour's land."""

    owner: int
    slices: tuple[SliceRef, ...]
    """Sorted, so that equal areas compare equal whatever order the tiles went down in."""
    value: int

    @property
    def size(self) -> int:
        return len(self.slices)


@dataclass(frozen=True, slots=True)
class DiamondCount:
    """One diamond's share of the count."""

    diamond: Diamond
    areas: tuple[Area, ...]
    """The touching areas, each once, in the order of the touching slices."""
    scoring: tuple[bool, ...]
    """For each of ``areas``, whether it scores under the mode played."""
    gem_halves: int
    """Touching slices that are gem halves (worth nothing)."""

    @property
    def points(self) -> tuple[int, ...]:
        """What each seat scores for this diamond."""
        totals = [0] * PLAYERS
        for area, scores in zip(self.areas, self.scoring, strict=True):
            if scores:
                totals[area.owner] += area.value
        return tuple(totals)


@dataclass(frozen=True, slots=True)
class Count:
    """The whole count of a board under one mode."""

    mode: int
    diamonds: tuple[DiamondCount, ...]

    @property
    def totals(self) -> list[int]:
        totals = [0] * PLAYERS
        for each in self.diamonds:
            for seat, points in enumerate(each.points):
                totals[seat] += points
        return totals


def areas(board: Board) -> dict[SliceRef, Area]:
    """The area of every land slice on the board."""
    found: dict[SliceRef, Area] = {}
    for placed in board.in_order():
        x, y = placed.placement.cell
        for side in SIDES:
            start = (x, y, side)
            if start not in found and not placed.slices[side].is_gem:
                area = _flood(board, start)
                for ref in area.slices:
                    found[ref] = area
    return found


def _flood(board: Board, start: SliceRef) -> Area:
    """The area holding the land slice ``start``."""
    colour = _colour(board, start)
    seen = {start}
    todo = [start]
    while todo:
        for ref in _joined(todo.pop()):
            if ref not in seen and _colour(board, ref) == colour:
                seen.add(ref)
                todo.append(ref)
    value = sum(_points(board, ref) for ref in seen)
    assert colour is not None
    return Area(colour, tuple(sorted(seen)), value)


def _joined(ref: SliceRef) -> tuple[SliceRef, SliceRef, SliceRef]:
    """The slices sharing an edge with ``ref``: two in its tile, one across the tile edge."""
    x, y, side = ref
    left, right = beside(side)
    ox, oy = neighbour((x, y), side)
    return ((x, y, left), (x, y, right), (ox, oy, opposite(side)))


def _colour(board: Board, ref: SliceRef) -> int | None:
    piece = board.slice_at(ref)
    return None if piece is None else piece.colour


def _points(board: Board, ref: SliceRef) -> int:
    piece = board.slice_at(ref)
    return 0 if piece is None else piece.points


def count(board: Board, mode: int = EVERY_AREA) -> Count:
    """Score every diamond of ``board`` under ``mode``."""
    if mode not in MODES:
        raise ValueError(f"unknown scoring mode {mode!r}")
    by_slice = areas(board)
    return Count(mode, tuple(_count_diamond(board, diamond, by_slice, mode) for diamond in board.diamonds()))


def _count_diamond(board: Board, diamond: Diamond, by_slice: dict[SliceRef, Area], mode: int) -> DiamondCount:
    touching: list[Area] = []
    gem_halves = 0
    for ref in diamond.touching():
        area = by_slice.get(ref)
        if area is None:
            gem_halves += 1
        elif not any(area is seen for seen in touching):
            touching.append(area)
    largest = max((area.size for area in touching), default=0)
    scoring = tuple(mode == EVERY_AREA or area.size == largest for area in touching)
    return DiamondCount(diamond, tuple(touching), scoring, gem_halves)


def totals(board: Board, mode: int = EVERY_AREA) -> list[int]:
    """What each seat would score if the game ended with ``board``."""
    return count(board, mode).totals


def slice_name(ref: SliceRef) -> list[int | str]:
    """A slice as JSON: ``[x, y, "N"]``."""
    return [ref[0], ref[1], SIDE_NAMES[ref[2]]]


__all__ = [
    "EVERY_AREA",
    "LARGEST_AREA",
    "MODES",
    "Area",
    "Count",
    "DiamondCount",
    "areas",
    "count",
    "slice_name",
    "totals",
]
