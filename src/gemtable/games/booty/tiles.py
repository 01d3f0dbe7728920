"""Slices, tiles and the box's tile set.

A tile is a square cut along both diagonals into four triangular slices, listed
clockwise from the top: north, east, south, west (sides 0 to 3).  A slice is
either *land* of a player colour (0, 1 or 2; seat ``i`` owns colour ``i``) worth
1 to 3 points, or a colourless *gem half*.

Turning a tile a quarter turn clockwise moves its north slice to the east, so a
tile placed with rotation ``r`` shows on side ``d`` the slice it prints on side
``d - r``.

The set lives in ``tiles.json`` next to this module: a constant of the game, read
once when the module is imported (the only file the rules ever read).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from gemtable.games.api import JSON

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
SIDES: tuple[int, ...] = (NORTH, EAST, SOUTH, WEST)
SIDE_NAMES: tuple[str, ...] = ("N", "E", "S", "W")
COLOURS: tuple[int, ...] = (0, 1, 2)


def opposite(side: int) -> int:
    """The side facing ``side`` across an edge (north faces south)."""
    return (side + 2) % 4


def beside(side: int) -> tuple[int, int]:
    """The two slices of the same tile that share an edge with ``side``'s slice."""
    return ((side + 3) % 4, (side + 1) % 4)


@dataclass(frozen=True, slots=True)
class Slice:
    """One triangle of a tile: land (``colour`` 0-2, ``points`` 1-3) or a gem half (``colour`` None)."""

    colour: int | None
    points: int = 0

    @property
    def is_gem(self) -> bool:
        return self.colour is None

    def matches(self, other: Slice) -> bool:
        """Whether the two may face each other across an edge: same colour, or gem against gem."""
        return self.colour == other.colour

    def to_json(self) -> JSON:
        if self.colour is None:
            return {"kind": "gem"}
        return {"kind": "land", "colour": self.colour, "points": self.points}

    @classmethod
    def from_json(cls, data: JSON) -> Slice:
        if data == {"kind": "gem"}:
            return GEM
        colour, points = data["colour"], data["points"]
        if data["kind"] != "land" or colour not in COLOURS or points not in (1, 2, 3):
            raise ValueError(f"not a slice: {data!r}")
        return cls(colour, points)


GEM = Slice(None)


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile as printed, before any rotation."""

    id: int
    design: int
    """Tiles of one design differ only by colour (0 for the two all-gem tiles)."""
    slices: tuple[Slice, Slice, Slice, Slice]

    def turned(self, rotation: int) -> tuple[Slice, Slice, Slice, Slice]:
        """The slices on sides N, E, S, W after ``rotation`` quarter turns clockwise."""
        s = self.slices
        r = rotation % 4
        return (s[-r % 4], s[(1 - r) % 4], s[(2 - r) % 4], s[(3 - r) % 4])

    @property
    def gem_halves(self) -> int:
        return sum(1 for piece in self.slices if piece.is_gem)

    def to_json(self) -> JSON:
        return {"id": self.id, "design": self.design, "slices": [piece.to_json() for piece in self.slices]}

    @classmethod
    def from_json(cls, data: JSON) -> Tile:
        pieces = tuple(Slice.from_json(piece) for piece in data["slices"])
        if len(pieces) != 4:
            raise ValueError(f"tile {data.get('id')!r} needs four slices")
        return cls(int(data["id"]), int(data["design"]), (pieces[0], pieces[1], pieces[2], pieces[3]))


def _load_tiles() -> dict[int, Tile]:
    text = resources.files(__package__ or "gemtable.games.booty").joinpath("tiles.json").read_text("utf-8")
    tiles = [Tile.from_json(item) for item in json.loads(text)["tiles"]]
    return {tile.id: tile for tile in tiles}


TILES: dict[int, Tile] = _load_tiles()
"""The box: every tile by id."""

TILE_IDS: tuple[int, ...] = tuple(sorted(TILES))


__all__ = [
    "COLOURS",
    "EAST",
    "GEM",
    "NORTH",
    "SIDES",
    "SIDE_NAMES",
    "SOUTH",
    "TILES",
    "TILE_IDS",
    "WEST",
    "Slice",
    "Tile",
    "beside",
    "opposite",
]
