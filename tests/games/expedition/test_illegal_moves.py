"""Illegal inputs raise a narrow error and leave the state exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gemtable.games.api import GameError, IllegalMove, NotYourTurn, UnknownSeat
from gemtable.games.expedition import CAMP, DEEPER, Expedition
from gemtable.games.expedition.state import ExpeditionState

from ._helpers import TABLE, new_game, snapshot, step

NOT_SEATS: list[Any] = [-1, 3, 99, "0", None, 1.5, 1.0, True, False]


def refused(state: ExpeditionState, error: type[GameError], action: Callable[[], object]) -> None:
    """``action`` raises exactly ``error`` (or a subclass) and changes nothing."""
    before = snapshot(state)
    with pytest.raises(error):
        action()
    assert snapshot(state) == before


def test_a_seat_that_is_not_inside_may_not_choose() -> None:
    state = new_game([["5", "7", "9"]], seats=3, roster=[0, 1])
    refused(state, NotYourTurn, lambda: state.apply(2, DEEPER))  # never walked in
    step(state, 0)
    refused(state, NotYourTurn, lambda: state.apply(0, DEEPER))  # walked out at the last reveal
    refused(state, NotYourTurn, lambda: state.apply(0, CAMP))
    assert state.legal_moves(0) == () and state.legal_moves(2) == ()


def test_a_second_choice_is_refused() -> None:
    state = new_game([["5", "7"]], seats=3)
    state.apply(0, CAMP)
    refused(state, IllegalMove, lambda: state.apply(0, CAMP))
    refused(state, IllegalMove, lambda: state.apply(0, DEEPER))
    # Nor may a joint choice overwrite a choice already made.
    refused(state, IllegalMove, lambda: state.apply_joint({0: DEEPER, 1: DEEPER, 2: DEEPER}))
    refused(state, IllegalMove, lambda: state.apply_joint({0: CAMP, 1: DEEPER, 2: DEEPER}))
    state.apply_joint({1: DEEPER, 2: DEEPER})
    assert state.chest[0] > 0 and state.inside == [1, 2]


def test_no_choice_before_the_first_cave_between_caves_or_after_the_game() -> None:
    state = Expedition.new(TABLE, 2, 0, [["4", "snakes", "snakes"], ["4"]])
    refused(state, IllegalMove, lambda: state.apply(0, DEEPER))
    refused(state, IllegalMove, lambda: state.apply_joint({0: DEEPER, 1: DEEPER}))
    state.start_round([0, 1])
    step(state)
    step(state)  # the second snakes: the cave collapses at the reveal
    assert state.needs_roster()
    refused(state, IllegalMove, lambda: state.apply(0, DEEPER))
    refused(state, IllegalMove, lambda: state.apply(1, CAMP))
    refused(state, IllegalMove, lambda: state.apply_joint({0: CAMP, 1: CAMP}))
    game = Expedition.new(TABLE.__class__.from_json({"caves": 1}), 2, 0, [["4"]])
    game.start_round([0, 1])
    step(game, 0, 1)
    assert game.is_over()
    refused(game, IllegalMove, lambda: game.apply(0, CAMP))
    refused(game, IllegalMove, lambda: game.apply_joint({0: CAMP}))
    refused(game, IllegalMove, lambda: game.start_round([0, 1]))
    assert game.to_act() == frozenset() and game.legal_moves(0) == ()


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_an_unknown_seat_is_refused(seat: Any) -> None:
    state = new_game([["5", "7"]], seats=3)
    refused(state, UnknownSeat, lambda: state.apply(seat, DEEPER))
    if not (type(seat) in (bool, float) and seat in state.inside):  # legal_moves(True) answers as seat 1
        refused(state, UnknownSeat, lambda: state.legal_moves(seat))
    if seat is not None:  # None is a spectator's view
        refused(state, UnknownSeat, lambda: state.view(seat))
    refused(state, IllegalMove, lambda: state.apply_joint({seat: DEEPER, 0: DEEPER, 1: DEEPER}))


@pytest.mark.parametrize("move", ["Deeper", "CAMP", "", "stay", "deeper ", None, 1, ["camp"]], ids=repr)
def test_a_bad_move_is_refused(move: Any) -> None:
    state = new_game([["5", "7"]], seats=3)
    state.apply(2, DEEPER)
    refused(state, IllegalMove, lambda: state.apply(0, move))
    refused(state, IllegalMove, lambda: state.apply_joint({0: move, 1: DEEPER}))
    state.apply(0, CAMP)
    state.apply(1, CAMP)
    assert state.chest[:2] == [2, 2]


def test_a_joint_choice_names_exactly_the_seats_still_to_choose() -> None:
    state = new_game([["5", "7"]], seats=3, roster=[0, 1])
    refused(state, IllegalMove, lambda: state.apply_joint({0: DEEPER}))
    refused(state, IllegalMove, lambda: state.apply_joint({0: DEEPER, 1: DEEPER, 2: DEEPER}))
    refused(state, IllegalMove, lambda: state.apply_joint({}))
    state.apply(0, DEEPER)
    refused(state, IllegalMove, lambda: state.apply_joint({}))
    refused(state, IllegalMove, lambda: state.apply_joint({1: DEEPER, 2: DEEPER}))
    state.apply_joint({1: DEEPER})
    assert len(state.path) == 2


@pytest.mark.parametrize(
    ("roster", "error"),
    [
        ([0, 0], IllegalMove),
        ([0, 1, 1], IllegalMove),
        ([0], IllegalMove),  # fewer than the two the first cave needs
        ([], IllegalMove),
        ([0, 3], UnknownSeat),
        ([-1, 0], UnknownSeat),
        (["0", "1"], UnknownSeat),
        ([0, 1.0], UnknownSeat),
        ([0, True], UnknownSeat),
        ([0, None], UnknownSeat),
    ],
    ids=repr,
)
def test_a_bad_roster_is_refused(roster: list[Any], error: type[GameError]) -> None:
    state = Expedition.new(TABLE, 3, 0)
    refused(state, error, lambda: state.start_round(roster))
    state.start_round([0, 1])
    assert state.inside == [0, 1]


def test_no_roster_while_a_cave_is_under_way() -> None:
    state = new_game(seats=3)
    refused(state, IllegalMove, lambda: state.start_round([0, 1, 2]))
    refused(state, IllegalMove, lambda: state.start_round([2]))


def test_too_many_explorers_are_refused() -> None:
    state = Expedition.new(TABLE, 10, 0)
    refused(state, IllegalMove, lambda: state.start_round(range(9)))
    state.start_round(range(2, 10))
    assert len(state.inside) == 8


def test_the_errors_are_game_errors() -> None:
    assert issubclass(NotYourTurn, IllegalMove) and issubclass(UnknownSeat, IllegalMove)
    assert issubclass(IllegalMove, GameError)
