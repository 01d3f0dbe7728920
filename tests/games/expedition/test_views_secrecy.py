"""What a seat's view shows: its own chest only until the end, never the deck order, never a pending choice."""

from __future__ import annotations

import copy
import json
import random

import pytest

from gemtable.games.expedition import CAMP, DEEPER, Expedition
from gemtable.games.expedition.state import ExpeditionState

from ._helpers import CLASSIC, TABLE, drive, new_game, step, views_json


def check_chests(state: ExpeditionState) -> None:
    over = state.is_over()
    for seat in [*range(state.seats), None]:
        view = state.view(seat).to_json()
        assert json.loads(json.dumps(view)) == view
        assert view["seat"] == seat
        for player in view["players"]:
            other = player["seat"]
            if over or other == seat:
                assert player["chest"] == state.chest[other]
                assert player["chest_by_cave"] == [scores[other] for scores in state.chest_by_cave]
            else:
                assert player["chest"] is None and player["chest_by_cave"] is None
        if over:
            assert view["scores"] == state.scores() and view["winners"] == state.winners()
        else:
            assert view["scores"] is None and view["winners"] is None


@pytest.mark.parametrize(("seats", "rules", "seed"), [(2, TABLE, 1), (5, CLASSIC, 2), (8, TABLE, 3)])
def test_only_the_own_chest_until_the_game_is_over(seats: int, rules: object, seed: int) -> None:
    state = Expedition.new(rules, seats, seed)
    check_chests(state)
    drive(state, random.Random(seed), after=check_chests)
    assert state.is_over() and any(state.chest)


def test_all_chests_are_shown_at_the_end() -> None:
    state = new_game([["7"], ["9"]], seats=2, rules=TABLE.__class__.from_json({"caves": 2}))
    step(state, 0)  # seat 0 banks 3 + 1; seat 1 goes on and the script runs out: 3
    assert state.view(1).to_json()["players"][0]["chest"] is None
    state.start_round([0, 1])
    step(state, 1)  # seat 1 banks 4 + 1; seat 0 goes on and the script runs out: 4
    assert state.is_over()
    for seat in (0, 1, None):
        view = state.view(seat).to_json()
        assert [player["chest"] for player in view["players"]] == state.chest == [8, 8]
        assert [player["chest_by_cave"] for player in view["players"]] == [[4, 8], [3, 8]]
        assert view["winners"] == [0, 1]


def test_the_deck_order_is_not_in_any_view() -> None:
    # Same cards turned, same choices; the unseen rest in two different orders.
    head = ["4", "snakes", "9", "relic", "2"]
    rest = ["1", "3", "5", "5", "7", "7", "11", "11", "13", "14", "15", "17"]
    rest += ["snakes", "snakes", "spiders", "mummies", "fire", "rockfall"]
    mixed = rest[:]
    random.Random(5).shuffle(mixed)
    one = new_game([head + rest], seats=3)
    two = new_game([head + mixed], seats=3)
    for leavers in [(), (), (1,), ()]:
        assert views_json(one) == views_json(two)
        assert one.view(0).unseen() == two.view(0).unseen()
        step(one, *leavers)
        step(two, *leavers)
    assert views_json(one) == views_json(two)
    assert "script" not in views_json(one)


def test_an_unscripted_deck_order_is_not_in_any_view() -> None:
    for seed in range(10):
        state = new_game(seats=4, seed=seed)
        step(state)
        if state.phase != "choose":
            continue
        other = copy.deepcopy(state)
        random.Random(seed).shuffle(other.pile)
        assert other.pile != state.pile or len(state.pile) < 2
        assert views_json(other) == views_json(state)


@pytest.mark.parametrize("seed", range(4))
def test_a_pending_choice_is_in_no_view(seed: int) -> None:
    rng = random.Random(seed)
    state = Expedition.new(TABLE, 6, seed)
    while not state.is_over():
        if state.needs_roster():
            state.start_round(range(6))
            continue
        order = sorted(state.to_act())
        rng.shuffle(order)
        for seat in order[:-1]:
            before = views_json(state)
            state.apply(seat, rng.choice([DEEPER, CAMP, CAMP]))
            assert views_json(state) == before
        state.apply(order[-1], rng.choice([DEEPER, CAMP]))


def test_choices_are_public_once_revealed() -> None:
    state = new_game([["5", "7", "9"]], seats=3)
    assert state.view(0).to_json()["reveal"] is None
    state.apply(2, CAMP)
    state.apply(0, DEEPER)
    state.apply(1, DEEPER)
    for seat in (0, 1, 2, None):
        reveal = state.view(seat).to_json()["reveal"]
        assert reveal["deeper"] == [0, 1] and reveal["leavers"] == [2]
        assert reveal["banked"] == [1] and reveal["path_share"] == 2
