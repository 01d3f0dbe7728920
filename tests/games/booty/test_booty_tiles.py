"""The tile set, checked from the data file against the reading's constraints."""

from __future__ import annotations

import json
from importlib import resources

from gemtable.games.booty.tiles import TILES, Slice, Tile

RAW = json.loads(resources.files("gemtable.games.booty").joinpath("tiles.json").read_text("utf-8"))


def shifted(tile: Tile, shift: int) -> tuple[Slice, ...]:
    return tuple(
        piece if piece.colour is None else Slice((piece.colour + shift) % 3, piece.points) for piece in tile.slices
    )


def test_the_box_holds_38_tiles_with_distinct_ids() -> None:
    ids = [item["id"] for item in RAW["tiles"]]
    assert len(ids) == 38 == len(set(ids)) == len(TILES)


def test_two_tiles_are_four_gem_halves() -> None:
    all_gems = [tile for tile in TILES.values() if tile.gem_halves == 4]
    assert len(all_gems) == 2
    assert all(tile.design == 0 for tile in all_gems)


def test_the_other_36_are_12_designs_each_once_in_every_colour_rotation() -> None:
    others = [tile for tile in TILES.values() if tile.gem_halves < 4]
    printed = [tile.slices for tile in others]
    assert len(printed) == 36 == len(set(printed))
    for tile in others:
        rotations = {shifted(tile, shift) for shift in range(3)}
        assert len(rotations) == 3, f"tile {tile.id} looks the same in another colour"
        assert rotations <= set(printed)
        same_design = {other.slices for other in others if other.design == tile.design}
        assert same_design == rotations
    assert len({tile.design for tile in others}) == 12


def test_no_game_can_need_more_than_30_diamond_markers() -> None:
    halves = sum(tile.gem_halves for tile in TILES.values())
    assert halves <= 60


def test_land_is_worth_one_to_three_points_and_every_colour_is_alike() -> None:
    lands = [piece for tile in TILES.values() for piece in tile.slices if not piece.is_gem]
    assert {piece.points for piece in lands} <= {1, 2, 3}
    per_colour = [sum(p.points for p in lands if p.colour == colour) for colour in range(3)]
    assert per_colour[0] == per_colour[1] == per_colour[2]


def test_turning_a_tile_moves_its_north_slice_east() -> None:
    tile = next(iter(TILES.values()))
    assert tile.turned(0) == tile.slices
    assert tile.turned(1)[1] == tile.slices[0]
    assert tile.turned(2) == (tile.slices[2], tile.slices[3], tile.slices[0], tile.slices[1])
    assert tile.turned(3)[3] == tile.slices[0]


def test_tiles_round_trip_through_json() -> None:
    for tile in TILES.values():
        assert Tile.from_json(tile.to_json()) == tile
