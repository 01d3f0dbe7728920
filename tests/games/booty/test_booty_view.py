"""What a seat and a spectator see."""

from __future__ import annotations

import random

from gemtable.games.api import SeatView
from gemtable.games.booty import BootyHunter, BootyState
from gemtable.games.booty.scoring import totals
from tests.games.booty.booty_boards import play_randomly

KEYS = {
    "game",
    "seat",
    "scoring_mode",
    "touching",
    "tie",
    "colours",
    "turn",
    "round",
    "rounds",
    "placements",
    "max_placements",
    "bag",
    "drawn",
    "moves",
    "board",
    "diamonds",
    "set_aside",
    "over",
    "scores",
    "winners",
    "scoring",
}


def started(seed: int) -> BootyState:
    state = BootyHunter.new({}, 3, seed)
    state.start_round([0, 1, 2])
    return state


def test_views_carry_the_public_table_and_only_the_acting_seat_gets_moves() -> None:
    state = started(8)
    for _ in range(7):
        (seat,) = state.to_act()
        state.apply(seat, state.default_move(seat))
    (seat,) = state.to_act()
    mine, other, spectator = state.view(seat), state.view((seat + 1) % 3), state.view(None)
    assert isinstance(mine, SeatView)
    data = mine.to_json()
    assert set(data) == KEYS
    assert data["moves"] == list(state.legal_moves(seat))
    assert other.to_json()["moves"] == [] == spectator.to_json()["moves"]
    for view in (other, spectator):
        shown = view.to_json()
        assert {key: value for key, value in shown.items() if key not in ("seat", "moves")} == {
            key: value for key, value in data.items() if key not in ("seat", "moves")
        }
    assert state.drawn is not None and data["drawn"]["id"] == state.drawn.id
    assert data["bag"] == state.bag_size and data["turn"] == seat and data["colours"] == [0, 1, 2]
    assert data["scores"] is None and data["winners"] is None and data["scoring"] == []
    assert all(diamond["marker"] == "white" for diamond in data["diamonds"])
    assert len(data["board"]) == 7 and data["board"][0]["x"] == 0 and data["board"][0]["y"] == 0


def test_no_view_carries_the_order_of_the_bag() -> None:
    state = started(8)
    text = str(state.view(None).to_json()) + str(state.view(0).to_json())
    assert "_bag" not in text
    assert not hasattr(state.view(0), "bag")


def test_a_view_is_a_live_window() -> None:
    state = started(12)
    views = [state.view(seat) for seat in range(3)]
    (seat,) = state.to_act()
    state.apply(seat, state.default_move(seat))
    (nxt,) = state.to_act()
    assert views[nxt].moves and views[nxt].drawn == state.drawn
    assert views[seat].moves == ()
    assert views[seat].placements == 1


def test_the_end_shows_scores_black_markers_and_the_count_diamond_by_diamond() -> None:
    state = play_randomly(BootyHunter.new({"scoring": 2}, 3, 31), random.Random(31))
    data = state.view(None).to_json()
    assert data["over"] and data["turn"] is None and data["drawn"] is None
    assert data["scores"] == state.scores() == totals(state.board, 2)
    assert data["winners"] == state.winners()
    assert [each["diamond"] for each in data["scoring"]] == [d["id"] for d in data["diamonds"]]
    assert all(diamond["marker"] == "black" for diamond in data["diamonds"])
    summed = [sum(each["points"][seat] for each in data["scoring"]) for seat in range(3)]
    assert summed == data["scores"]
    for each in data["scoring"]:
        sizes = [area["size"] for area in each["areas"]]
        for area in each["areas"]:
            assert area["size"] == len(area["slices"])
            assert area["scores"] == (area["size"] == max(sizes))
        assert len(each["areas"]) + each["gem_halves"] <= 4


def test_bots_can_weigh_a_placement_from_the_view() -> None:
    state = started(5)
    for _ in range(10):
        (seat,) = state.to_act()
        state.apply(seat, state.default_move(seat))
    (seat,) = state.to_act()
    view = state.view(seat)
    assert view.standing() == state.scores()
    move = view.moves[-1].text()
    expected = view.scores_after(move)
    state.apply(seat, move)
    assert state.scores() == expected
