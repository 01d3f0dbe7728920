"""Turns, drawing, setting aside, the end, errors, rules and records."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gemtable.games import find_game, find_manifest, replay
from gemtable.games.api import BadRules, GameRecord, IllegalMove, NotYourTurn, UnknownSeat
from gemtable.games.booty import BootyHunter, BootyState
from gemtable.games.booty.state import SetAside
from gemtable.games.booty.tiles import TILES

ALL_GEMS = [tile.id for tile in TILES.values() if tile.gem_halves == 4]
NO_GEM = [tile.id for tile in TILES.values() if tile.gem_halves == 0]
ONE_GEM = [tile.id for tile in TILES.values() if tile.gem_halves == 1]


def started(seed: int = 1, script: Any = None, scoring: int = 1) -> BootyState:
    state = BootyHunter.new({"scoring": scoring}, 3, seed, script)
    state.start_round([0, 1, 2])
    return state


def play_defaults(state: BootyState) -> BootyState:
    while not state.is_over():
        (seat,) = state.to_act()
        state.apply(seat, state.default_move(seat))
    return state


def snapshot(state: BootyState) -> str:
    return json.dumps(
        [
            state.record().to_json(),
            state.view(None).to_json(),
            [state.view(seat).to_json() for seat in range(3)],
            [list(state.legal_moves(seat)) for seat in range(3)],
            state.bag_size,
            state.draws,
        ]
    )


# --- the game in the registry -----------------------------------------------------------


def test_the_registry_finds_booty_hunter() -> None:
    found: object = find_game("booty")
    assert found is BootyHunter
    assert (BootyHunter.title, BootyHunter.min_seats, BootyHunter.max_seats) == ("Booty Hunter", 3, 3)


def test_presets_and_host_options() -> None:
    assert [preset.name for preset in find_manifest("booty").presets] == ["every-area", "largest-area"]
    assert BootyHunter.rules_json("every-area", {}) == {
        "preset": "every-area",
        "scoring": 1,
        "touching": "scores",
        "tie": "share",
    }
    assert BootyHunter.rules_json("largest-area", {})["scoring"] == 2
    assert BootyHunter.rules_json("every-area", {"scoring": 2})["scoring"] == 2


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("nope", {}),
        ("every-area", {"scoring": 3}),
        ("every-area", {"scoring": "1"}),
        ("every-area", {"x": 1}),
        ("every-area", {"touching": "maybe"}),
        ("largest-area", {"tie": 1}),
    ],
)
def test_bad_rules_are_refused(preset: str, options: dict[str, Any]) -> None:
    with pytest.raises(BadRules):
        BootyHunter.rules_json(preset, options)


@pytest.mark.parametrize(
    ("rules", "seats", "script"),
    [
        ({}, 2, None),
        ({}, 4, None),
        ([], 3, None),
        ({"scoring": True}, 3, None),
        ({}, 3, [1, 1]),
        ({}, 3, [999]),
        ({}, 3, "1,2"),
        ({}, 3, {"bag": [1], "first": 3}),
        ({}, 3, {"bag": [1], "extra": 0}),
    ],
)
def test_a_game_needs_three_seats_good_rules_and_a_sound_script(rules: Any, seats: int, script: Any) -> None:
    with pytest.raises(BadRules):
        BootyHunter.new(rules, seats, 1, script)


# --- roster and turns -----------------------------------------------------------------------


def test_nobody_acts_before_the_roster() -> None:
    state = BootyHunter.new({}, 3, 5)
    assert state.needs_roster()
    assert state.to_act() == frozenset()
    with pytest.raises(NotYourTurn):
        state.apply(0, "0,0,0")


@pytest.mark.parametrize("seats", [[0, 1], [0, 1, 1, 2], [1, 2, 3], [0, 1, 2, 3]])
def test_the_roster_is_all_three_seats(seats: list[int]) -> None:
    state = BootyHunter.new({}, 3, 5)
    with pytest.raises(IllegalMove):
        state.start_round(seats)
    assert state.needs_roster() and state.record().inputs == []


def test_the_roster_comes_once() -> None:
    state = started()
    assert not state.needs_roster()
    with pytest.raises(IllegalMove):
        state.start_round([0, 1, 2])


def test_a_random_seat_starts_and_turns_follow_seat_order() -> None:
    starters = set()
    for seed in range(12):
        state = started(seed)
        (first,) = state.to_act()
        starters.add(first)
        state.apply(first, state.default_move(first))
        assert state.to_act() == {(first + 1) % 3}
    assert starters == {0, 1, 2}


def test_the_first_tile_goes_on_the_origin() -> None:
    state = started(script={"bag": [1, 2, 3], "first": 2})
    assert state.to_act() == {2}
    assert state.legal_moves(2) == ["0,0,0", "0,0,1", "0,0,2", "0,0,3"]
    assert state.legal_moves(0) == []


def test_rounds_count_placements_by_three() -> None:
    state = started(7)
    rounds = []
    while not state.is_over():
        rounds.append(state.round)
        (seat,) = state.to_act()
        state.apply(seat, state.default_move(seat))
    assert rounds == [1 + n // 3 for n in range(36)]
    assert state.round == 12


# --- drawing, setting aside, the end --------------------------------------------------------


def test_a_tile_that_fits_nowhere_is_set_aside_and_the_same_seat_draws_again() -> None:
    state = started(script={"bag": [ALL_GEMS[0], NO_GEM[0], ONE_GEM[0], *ONE_GEM[1:4]], "first": 0})
    state.apply(0, "0,0,0")
    # Four gem halves face every open cell: a tile without a gem half fits nowhere.
    assert state.set_aside == [SetAside(TILES[NO_GEM[0]], 1, 1)]
    assert state.to_act() == {1}
    assert state.drawn == TILES[ONE_GEM[0]]
    assert (state.draws, state.bag_size) == (3, 3)
    public = state.view(None).to_json()
    assert public["set_aside"] == [{"tile": TILES[NO_GEM[0]].to_json(), "seat": 1, "placements": 1}]
    assert public["drawn"]["id"] == ONE_GEM[0]


def test_the_game_ends_when_the_bag_runs_out() -> None:
    state = started(script={"bag": [ALL_GEMS[0], NO_GEM[0]], "first": 1})
    state.apply(1, "0,0,2")
    assert state.is_over()
    assert state.to_act() == frozenset()
    assert [item.tile.id for item in state.set_aside] == [NO_GEM[0]]
    assert state.scores() == [0, 0, 0]
    assert state.winners() == [0, 1, 2]


def test_the_game_ends_after_36_placements_with_two_tiles_left_in_the_bag() -> None:
    state = play_defaults(started(3))
    assert state.set_aside == []
    assert (state.placements, state.bag_size, state.draws) == (36, 2, 36)
    assert state.is_over() and state.to_act() == frozenset()
    assert all(state.legal_moves(seat) == [] for seat in range(3))
    with pytest.raises(IllegalMove, match="over"):
        state.apply(0, "0,0,0")
    assert state.winners() == [seat for seat, score in enumerate(state.scores()) if score == max(state.scores())]


def test_silence_places_the_first_legal_placement_in_reading_order() -> None:
    state = started(11)
    for _ in range(5):
        (seat,) = state.to_act()
        move = state.default_move(seat)
        assert move == state.legal_moves(seat)[0]
        state.apply(seat, move)
    (seat,) = state.to_act()
    with pytest.raises(NotYourTurn):
        state.default_move((seat + 1) % 3)


def test_apply_joint_takes_the_one_seat_to_act() -> None:
    state = started(2)
    (seat,) = state.to_act()
    with pytest.raises(IllegalMove):
        state.apply_joint({})
    with pytest.raises(NotYourTurn):
        state.apply_joint({(seat + 1) % 3: "0,0,0"})
    state.apply_joint({seat: "0,0,0"})
    assert state.placements == 1


# --- errors leave the state untouched --------------------------------------------------------


def test_illegal_moves_raise_and_leave_the_state_untouched() -> None:
    state = started(4)
    for _ in range(4):
        (seat,) = state.to_act()
        state.apply(seat, state.default_move(seat))
    (seat,) = state.to_act()
    placed = state.board.in_order()[0].placement
    legal = set(state.legal_moves(seat))
    mismatch = next(
        f"{x},{y},{r}"
        for x, y in state.board.open_cells()
        for r in range(4)
        if f"{x},{y},{r}" not in legal and any(f"{x},{y},{q}" in legal for q in range(4))
    )
    before = snapshot(state)
    attempts: list[tuple[int, str, type[Exception]]] = [
        ((seat + 1) % 3, state.default_move(seat), NotYourTurn),
        (3, state.default_move(seat), UnknownSeat),
        (-1, state.default_move(seat), UnknownSeat),
        (seat, "bad", IllegalMove),
        (seat, "1,2", IllegalMove),
        (seat, "0,0,7", IllegalMove),
        (seat, f"{placed.x},{placed.y},0", IllegalMove),
        (seat, "40,40,0", IllegalMove),
        (seat, mismatch, IllegalMove),
    ]
    for who, move, error in attempts:
        with pytest.raises(error):
            state.apply(who, move)
        assert snapshot(state) == before, (who, move)


def test_an_unknown_seat_is_refused_everywhere() -> None:
    state = started()
    for call in (state.legal_moves, state.default_move, state.view):
        with pytest.raises(UnknownSeat):
            call(5)


# --- records ---------------------------------------------------------------------------------


def test_the_record_replays_to_the_same_game() -> None:
    state = play_defaults(started(9, scoring=2))
    record = state.record()
    assert record.inputs[0] == ["round", [0, 1, 2]]
    assert len(record.inputs) == 37
    assert record.scores == state.scores() and record.winners == state.winners()
    again = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert isinstance(again, BootyState)
    assert again.view(None).to_json() == state.view(None).to_json()
    assert again.scores() == state.scores()


def test_the_same_seed_shuffles_the_same_bag() -> None:
    one, two = started(21), started(21)
    assert one.drawn == two.drawn and one.to_act() == two.to_act()
    assert snapshot(one) == snapshot(two)
