"""Where a tile may go: matching edges, no lone tile, no corner-only touch."""

from __future__ import annotations

import pytest

from gemtable.games.api import IllegalMove
from gemtable.games.booty.board import Board, Placement
from tests.games.booty.booty_boards import board, tile

START = board((0, 0, "G 0:1 1:2 2:3"))


def test_the_first_tile_goes_on_the_origin_in_any_rotation() -> None:
    first = tile("G 0:1 1:2 2:3")
    assert Board().placements(first) == [Placement(0, 0, r) for r in range(4)]
    with pytest.raises(IllegalMove, match="0,0"):
        Board().check(first, Placement(3, 1, 0))


def test_every_shared_edge_must_match() -> None:
    # East of the start shows colour 0; the newcomer's west must be colour 0 too.
    newcomer = tile("1:1 2:1 G 0:2")
    START.check(newcomer, Placement(1, 0, 0))
    with pytest.raises(IllegalMove, match="W edge shows a gem half against colour 0 land"):
        START.check(newcomer, Placement(1, 0, 1))
    assert Placement(1, 0, 1) not in START.placements(newcomer)


def test_land_matches_by_colour_whatever_the_points() -> None:
    START.check(tile("1:1 2:1 G 0:3"), Placement(1, 0, 0))


def test_gem_half_faces_only_a_gem_half() -> None:
    above = tile("1:1 1:1 G 1:1")
    START.check(above, Placement(0, -1, 0))
    with pytest.raises(IllegalMove, match="gem half"):
        START.check(above, Placement(0, -1, 2))


def test_a_tile_may_not_stand_alone_or_touch_only_at_a_corner() -> None:
    anything = tile("G G G G")
    with pytest.raises(IllegalMove, match="corner"):
        START.check(anything, Placement(1, 1, 0))
    with pytest.raises(IllegalMove, match="share an edge"):
        START.check(anything, Placement(3, 0, 0))
    assert all(abs(p.x) + abs(p.y) == 1 for p in START.placements(anything))


def test_a_taken_cell_is_taken() -> None:
    with pytest.raises(IllegalMove, match="already taken"):
        START.check(tile("G G G G"), Placement(0, 0, 0))


def test_a_tile_between_two_must_match_both() -> None:
    # Hand-placed, unchecked: two tiles with a gap between them.
    pair = Board().with_tile(tile("1:1 0:1 1:1 1:1"), Placement(0, 0, 0))
    pair = pair.with_tile(tile("1:1 1:1 1:1 2:1"), Placement(2, 0, 0))
    middle = tile("1:1 2:1 1:1 0:1")
    pair.check(middle, Placement(1, 0, 0))
    turned = tile("1:1 0:1 1:1 2:1")
    with pytest.raises(IllegalMove):
        pair.check(turned, Placement(1, 0, 0))
    assert [p.rotation for p in pair.placements(turned) if p.cell == (1, 0)] == [2]


def test_placements_come_in_reading_order() -> None:
    cells = [p.cell for p in START.placements(tile("G G G G"))]
    assert cells == sorted(cells, key=lambda c: (c[1], c[0]))


@pytest.mark.parametrize("text", ["", "1,2", "1,2,4", "a,b,c", "1, 2, 3", "1,2,3,4", "1.0,2,3", "+1,2,3"])
def test_a_move_that_is_not_x_y_rotation_is_refused(text: str) -> None:
    with pytest.raises(IllegalMove, match="not a placement"):
        Placement.parse(text)


def test_moves_parse_and_format_in_pairs() -> None:
    assert Placement.parse("3,-1,2") == Placement(3, -1, 2)
    assert Placement(3, -1, 2).text() == "3,-1,2"
