"""Properties over random games (hypothesis, kept small so the suite stays fast)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gemtable.games import replay
from gemtable.games.booty import Board, BootyHunter, BootyState
from gemtable.games.booty.board import PlacedTile, neighbour
from gemtable.games.booty.scoring import MODES, totals
from gemtable.games.booty.tiles import SIDES, opposite
from tests.games.booty.booty_boards import play_randomly

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=12, deadline=None)


def random_game(seed: int, choices: int, scoring: int = 1) -> BootyState:
    return play_randomly(BootyHunter.new({"scoring": scoring}, 3, seed), random.Random(choices))


def shared_edges_match(board: Board) -> bool:
    for placed in board.in_order():
        for side in SIDES:
            other = board.at(neighbour(placed.placement.cell, side))
            if other is not None and not placed.slices[side].matches(other.slices[opposite(side)]):
                return False
    return True


@FEW
@given(seed=SEEDS, choices=SEEDS)
def test_every_placement_matches_on_every_shared_edge(seed: int, choices: int) -> None:
    state = BootyHunter.new({}, 3, seed)
    state.start_round([0, 1, 2])
    rng = random.Random(choices)
    while not state.is_over():
        (seat,) = state.to_act()
        before = len(state.board)
        state.apply(seat, rng.choice(list(state.legal_moves(seat))))
        laid = state.board.in_order()[-1]
        assert len(state.board) == before + 1
        assert before == 0 or any(state.board.at(neighbour(laid.placement.cell, side)) for side in SIDES)
        assert shared_edges_match(state.board)
    assert state.placements + len(state.set_aside) + state.bag_size == 38
    assert state.placements == 36 or state.bag_size == 0


def rebuilt(tiles: list[PlacedTile], rng: random.Random) -> Board:
    """The same tiles laid again in another order that the rules allow: grow from a random tile."""
    by_cell = {placed.placement.cell: placed for placed in tiles}
    start = rng.choice(tiles)
    board = Board().with_tile(start.tile, start.placement)
    while len(board) < len(tiles):
        frontier = [by_cell[cell] for cell in board.open_cells() if cell in by_cell and cell not in board]
        chosen = rng.choice(frontier)
        board.check(chosen.tile, chosen.placement)
        board = board.with_tile(chosen.tile, chosen.placement)
    return board


@FEW
@given(seed=SEEDS, choices=SEEDS, order=SEEDS)
def test_scoring_does_not_depend_on_the_order_tiles_went_down(seed: int, choices: int, order: int) -> None:
    state = random_game(seed, choices)
    again = rebuilt(state.board.in_order(), random.Random(order))
    diamonds = {(d.cell, d.side) for d in state.board.diamonds()}
    assert {(d.cell, d.side) for d in again.diamonds()} == diamonds
    for mode in MODES:
        assert totals(again, mode) == totals(state.board, mode)


@FEW
@given(seed=SEEDS, choices=SEEDS, scoring=st.sampled_from(MODES))
def test_a_record_replays_to_the_same_board_and_scores(seed: int, choices: int, scoring: int) -> None:
    state = random_game(seed, choices, scoring)
    again = replay(state.record())
    assert isinstance(again, BootyState)
    assert again.board.in_order() == state.board.in_order()
    assert again.scores() == state.scores() and again.winners() == state.winners()
    assert again.set_aside == state.set_aside


@FEW
@given(seed=SEEDS, choices=SEEDS)
def test_mode_two_never_scores_more_than_mode_one(seed: int, choices: int) -> None:
    board = random_game(seed, choices).board
    assert all(two <= one for one, two in zip(totals(board, 1), totals(board, 2), strict=True))
    assert len(board.diamonds()) <= 30
