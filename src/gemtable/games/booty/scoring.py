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

The seed leaves two points open; each is a table option (:class:`Counting`), today's
reading the default:

* ``touching`` — a diamond touching another diamond (one of its touching slices is a
  gem half of a formed diamond): ``"scores"`` (the default: its land areas score as usual; the gem half
  adds nothing) or ``"void"`` (that diamond scores nothing at all);
* ``tie`` — in mode 2, two or more touching areas of the same greatest size:
  ``"share"`` (the default: they all score) or ``"none"`` (none of them scores).

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
TOUCHING: tuple[str, ...] = ("scores", "void")
TIES: tuple[str, ...] = ("share", "none")


@dataclass(frozen=True, slots=True)
class Counting:
    """How a table counts: the mode, and its readings of the two open points."""

    mode: int = EVERY_AREA
    touching: str = "scores"
    """A diamond touching another diamond: ``scores`` as usual, or is ``void``."""
    tie: str = "share"
    """Mode 2, a tie for the greatest size: the tied areas all score (``share``) or ``none`` does."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown scoring mode {self.mode!r}")
        if self.touching not in TOUCHING:
            raise ValueError(f"touching must be one of {', '.join(TOUCHING)}")
        if self.tie not in TIES:
            raise ValueError(f"tie must be one of {', '.join(TIES)}")


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


def count(board: Board, mode: int | Counting = EVERY_AREA) -> Count:
    """Score every diamond of ``board`` under ``mode`` (a mode number, or a whole :class:`Counting`)."""
    how = mode if isinstance(mode, Counting) else Counting(mode)
    by_slice = areas(board)
    diamonds = board.diamonds()
    gems = {ref for diamond in diamonds for ref in _halves(diamond)} if how.touching == "void" else set()
    return Count(how.mode, tuple(_count_diamond(diamond, by_slice, how, gems) for diamond in diamonds))


def _halves(diamond: Diamond) -> tuple[SliceRef, SliceRef]:
    """The two gem halves a diamond is made of."""
    (x, y), (ox, oy) = diamond.cell, diamond.other_cell
    return (x, y, diamond.side), (ox, oy, opposite(diamond.side))


def _count_diamond(
    diamond: Diamond, by_slice: dict[SliceRef, Area], how: Counting, other_gems: set[SliceRef]
) -> DiamondCount:
    touching: list[Area] = []
    gem_halves = 0
    for ref in diamond.touching():
        area = by_slice.get(ref)
        if area is None:
            gem_halves += 1
        elif not any(area is seen for seen in touching):
            touching.append(area)
    largest = max((area.size for area in touching), default=0)
    tied = sum(1 for area in touching if area.size == largest) > 1
    if any(ref in other_gems for ref in diamond.touching()):  # touches another diamond, read as void
        scoring: tuple[bool, ...] = tuple(False for _ in touching)
    elif how.mode == EVERY_AREA:
        scoring = tuple(True for _ in touching)
    else:
        scoring = tuple(area.size == largest and not (tied and how.tie == "none") for area in touching)
    return DiamondCount(diamond, tuple(touching), scoring, gem_halves)


def totals(board: Board, mode: int | Counting = EVERY_AREA) -> list[int]:
    """What each seat would score if the game ended with ``board``."""
    return count(board, mode).totals


def slice_name(ref: SliceRef) -> list[int | str]:
    """A slice as JSON: ``[x, y, "N"]``."""
    return [ref[0], ref[1], SIDE_NAMES[ref[2]]]


__all__ = [
    "EVERY_AREA",
    "LARGEST_AREA",
    "MODES",
    "TIES",
    "TOUCHING",
    "Area",
    "Count",
    "Counting",
    "DiamondCount",
    "areas",
    "count",
    "slice_name",
    "totals",
]
