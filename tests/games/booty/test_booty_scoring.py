"""Scoring on hand-built boards, in both modes."""

from __future__ import annotations

from gemtable.games.booty.scoring import EVERY_AREA, LARGEST_AREA, Counting, areas, count, totals
from gemtable.games.booty.state import BootyState
from tests.games.booty.booty_boards import board

# Two diamonds in a row; the middle tile's north (colour 0) and south (colour 2)
# slices each touch both diamonds.
ROW = board(
    (0, 0, "1:1 G 1:1 1:1"),
    (1, 0, "0:2 G 2:3 G"),
    (2, 0, "1:2 2:1 1:1 G"),
)


def test_an_area_touching_two_diamonds_scores_once_for_each() -> None:
    result = count(ROW, EVERY_AREA)
    assert len(result.diamonds) == 2
    middle_north = areas(ROW)[(1, 0, 0)]
    assert all(middle_north in each.areas for each in result.diamonds)
    assert [each.points for each in result.diamonds] == [(2, 3, 3), (2, 3, 3)]
    assert result.totals == [4, 6, 6]


def test_mode_two_scores_only_the_largest_touching_area() -> None:
    first = count(ROW, LARGEST_AREA).diamonds[0]
    # First diamond: colour 1's area of 3 slices beats two single slices.
    assert [(area.owner, area.size) for area in first.areas] == [(1, 3), (0, 1), (2, 1)]
    assert first.scoring == (True, False, False)
    assert first.points == (0, 3, 0)


def test_mode_two_lets_equal_sizes_all_score() -> None:
    second = count(ROW, LARGEST_AREA).diamonds[1]
    assert {area.size for area in second.areas} == {1}
    assert all(second.scoring)
    assert second.points == (2, 3, 3)
    assert totals(ROW, LARGEST_AREA) == [2, 6, 3]


def test_a_diamond_touching_a_diamond_adds_nothing() -> None:
    corner = board(
        (0, 0, "G G 1:2 0:1"),
        (1, 0, "2:1 0:3 0:1 G"),
        (0, -1, "0:2 0:1 G 2:2"),
    )
    east, north = count(corner, EVERY_AREA).diamonds
    assert east.gem_halves == north.gem_halves == 1
    assert east.points == (4, 2, 1)
    assert north.points == (4, 0, 2)
    assert totals(corner) == [8, 2, 3]


def test_an_area_touching_no_diamond_is_worth_nothing() -> None:
    apart = board(
        (0, 0, "0:3 0:3 0:3 0:3"),
        (1, 0, "1:1 1:1 2:1 0:2"),
        (1, 1, "2:1 G 2:2 2:3"),
        (2, 1, "1:1 1:1 1:1 G"),
    )
    big = areas(apart)[(0, 0, 0)]
    assert (big.owner, big.size, big.value) == (0, 5, 14)
    (diamond,) = count(apart).diamonds
    assert big not in diamond.areas
    assert [(area.owner, area.size, area.value) for area in diamond.areas] == [(2, 4, 7), (1, 3, 3)]
    assert totals(apart, EVERY_AREA) == [0, 3, 7]
    assert totals(apart, LARGEST_AREA) == [0, 0, 7]


def test_one_area_reaching_a_diamond_from_both_its_tiles_counts_once() -> None:
    ring = board(
        (0, 0, "0:1 G 0:2 0:3"),
        (1, 0, "0:1 0:1 2:2 G"),
        (0, -1, "1:1 0:1 0:1 1:2"),
        (1, -1, "1:1 1:1 0:2 0:1"),
    )
    (diamond,) = count(ring).diamonds
    loop = areas(ring)[(0, 0, 0)]
    assert (loop.size, loop.value) == (9, 13)
    assert areas(ring)[(1, 0, 0)] == loop
    assert [(area.owner, area.value) for area in diamond.areas] == [(0, 13), (2, 2)]
    assert totals(ring, EVERY_AREA) == [13, 0, 2]
    assert totals(ring, LARGEST_AREA) == [13, 0, 0]


def test_an_area_joins_slices_across_tile_edges_but_not_across_a_tile() -> None:
    # North and south of one tile are not neighbours; east between them is another colour.
    split = board((0, 0, "0:1 1:1 0:2 1:1"))
    assert areas(split)[(0, 0, 0)] != areas(split)[(0, 0, 2)]
    joined = board((0, 0, "0:1 1:1 0:2 0:1"))
    assert areas(joined)[(0, 0, 0)] == areas(joined)[(0, 0, 2)]


def test_a_gem_half_that_no_tile_faces_is_not_a_diamond() -> None:
    lone = board((0, 0, "G 1:1 1:1 1:1"), (0, 1, "1:1 1:2 1:3 G"))
    assert lone.diamonds() == ()
    assert count(lone).diamonds == ()
    assert totals(lone) == [0, 0, 0]


# Two diamonds touching each other: the first (between the first two tiles) touches the gem half the third
# tile's diamond holds, and the second touches the first's.
TOUCHING = board(
    (0, 0, "1:1 G 1:1 1:1"),
    (1, 0, "G 0:2 2:3 G"),
    (1, -1, "1:1 0:1 G 0:1"),
)


def test_by_default_a_diamond_touching_a_diamond_still_scores_its_land() -> None:
    assert len(TOUCHING.diamonds()) == 2
    assert count(TOUCHING, Counting(EVERY_AREA)).totals == count(TOUCHING).totals == [4, 3, 3]


def test_read_as_void_a_diamond_touching_a_diamond_scores_nothing_at_all() -> None:
    void = count(TOUCHING, Counting(EVERY_AREA, touching="void"))
    assert void.totals == [0, 0, 0]
    assert not any(any(each.scoring) for each in void.diamonds)
    # A diamond touching only land is untouched by the reading.
    assert count(ROW, Counting(EVERY_AREA, touching="void")).totals == totals(ROW, EVERY_AREA)


def test_a_tie_for_the_largest_area_shares_by_default_and_scores_nothing_read_as_none() -> None:
    assert totals(ROW, Counting(LARGEST_AREA, tie="share")) == [2, 6, 3]
    none = count(ROW, Counting(LARGEST_AREA, tie="none"))
    assert none.diamonds[0].points == (0, 3, 0)  # one largest area: the reading does not apply
    assert none.diamonds[1].points == (0, 0, 0)  # three single slices tie: nobody scores
    assert none.totals == [0, 3, 0]
    assert totals(ROW, Counting(EVERY_AREA, tie="none")) == totals(ROW, EVERY_AREA)  # mode 1 has no tie


def test_the_readings_are_table_options_with_todays_reading_the_default() -> None:
    from gemtable.games import find_manifest

    manifest = find_manifest("booty")
    assert manifest.option("touching").default == "scores" and manifest.option("tie").default == "share"
    rules = manifest.rules_json("largest-area", {"touching": "void", "tie": "none"})
    assert (rules["scoring"], rules["touching"], rules["tie"]) == (2, "void", "none")
    state = manifest.game.new(rules, 3, 1)
    assert isinstance(state, BootyState)
    assert state.rules.counting == Counting(LARGEST_AREA, "void", "none")
