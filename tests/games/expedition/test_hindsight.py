"""What might have been, cave by cave, on scripted decks: each kind of answer, the card that goes back into the
deck never named, a player's own answer in their own view alone; and the awards with their ties."""

from __future__ import annotations

from typing import Any

from gemtable.games.expedition import card_name, rules_for
from gemtable.games.expedition.hindsight import CaveEnd, awards, what_might_have_been
from gemtable.games.expedition.state import ExpeditionState

from ._helpers import new_game, replayed, step

TWO_CAVES = rules_for("table", {"caves": 2})


def told(state: ExpeditionState, seat: int) -> Any:
    return state.view(seat).to_json()["hindsight"]


def test_each_walk_out_is_told_what_the_next_card_would_have_done() -> None:
    state = new_game([["5", "spiders", "9", "4", "spiders"], ["3"]], seats=4, rules=TWO_CAVES)
    step(state, 0)  # Ann walks out with 1 (5 shared by four); the next card was the first spiders
    assert told(state, 0) is None  # nothing while the cave is under way
    step(state, 1)  # Bob walks out; the 9 is shared by Cy, Dan and (had he stayed) him: 3 each
    step(state)  # the 4
    step(state, 2)  # Cy walks out; the second spiders buries Dan
    assert state.phase == "roster"
    assert told(state, 0) == {"kind": "hazard", "card": "spiders"}
    assert told(state, 1) == {"kind": "treasure", "card": "9", "gems": 3}
    assert told(state, 2) == {"kind": "collapse", "card": "spiders", "gems": state.banked[2], "relics": 0}
    assert state.banked[2] == 1 + 4 + 2 + 1  # what Cy carried out (and the 9's odd gem): what staying would cost
    assert told(state, 3) == {"kind": "rode"}
    assert state.view(None).to_json()["hindsight"] is None  # a spectator is told nobody's
    _, own = state.views_split([0, 1, None])
    assert [own[s]["hindsight"] for s in (0, 1, None)] == [told(state, 0), told(state, 1), None]


def test_the_card_after_everyone_walked_out_is_told_only_when_nothing_follows() -> None:
    state = new_game([["5", "7", "11"], ["3", "relic", "9", "mummies"]], seats=2, rules=TWO_CAVES)
    step(state, 1)
    step(state, 0)  # Ann walks out last of all: the 11 goes back into the deck for cave 2
    assert told(state, 0) == {"kind": "kept"}
    assert "11" not in str(state.view(0).to_json()["hindsight"])
    assert told(state, 1) == {"kind": "treasure", "card": "7", "gems": 3}
    state.start_round([0, 1])
    step(state)
    step(state, 0, 1)  # both walk out at the relic, in the last cave: the 9 is named (nothing follows)
    assert state.is_over()
    assert told(state, 0) == told(state, 1) == {"kind": "treasure", "card": "9", "gems": 9}
    assert state.view(None).to_json()["hindsight"] is None


def test_a_host_ending_the_game_makes_the_next_card_tellable() -> None:
    state = new_game([["5", "7", "11"]], seats=3, rules=TWO_CAVES)
    state.hold_reveals()
    state.apply_joint({0: "camp", 1: "deeper", 2: "deeper"})
    state.end()  # during the held reveal: the 7 was never turned, and nothing follows now
    assert told(state, 0) == {"kind": "treasure", "card": "7", "gems": 2}
    assert told(state, 1) == {"kind": "rode"}


def test_a_random_decks_last_card_is_the_one_the_next_draw_would_turn() -> None:
    rules = rules_for("table", {"caves": 1})
    for seed in range(20):
        state = new_game(seats=2, rules=rules, seed=seed)
        while state.phase == "choose" and len(state.path) < 3:
            step(state)
        if state.is_over():
            continue
        step(state, 0, 1)
        card = told(state, 0)
        other = new_game(seats=2, rules=rules, seed=seed)  # the same game, but Ann stays one card more
        while len(other.path) < 3:
            step(other)
        step(other, 1)
        assert card is not None and card["card"] == card_name(other.path[3]), seed
        assert state.record().to_json() == replayed(state.record()).record().to_json()


def cave(number: int, **fields: object) -> CaveEnd:
    base: dict[str, object] = {
        "number": number, "path": (), "explorers": (0, 1, 2), "left_at": {}, "banked": {}, "relics": {}, "lost": {},
        "collapsed_by": None, "path_left": 0, "next_card": None, "has_next": False, "kept": False,
    }  # fmt: skip
    return CaveEnd(**{**base, **fields})  # type: ignore[arg-type]


def test_the_awards_and_their_ties() -> None:
    caves = [
        cave(1, path=(5, 7, 9), left_at={0: 1, 1: 3, 2: 3}, banked={0: 4, 1: 8, 2: 8}, path_left=2),
        cave(2, path=(9, -1, -1), left_at={2: 2}, banked={2: 8}, relics={}, lost={0: 3, 1: 3}, collapsed_by=-1),
        cave(3, path=(11, 0), left_at={0: 2, 1: 2, 2: 1}, banked={0: 4, 1: 4, 2: 3}, relics={}, path_left=2),
    ]
    got = awards(caves)
    # 8 three times: cave 1's two at the 3rd card beat cave 2's at the 2nd; seat 1 before seat 2.
    assert got["boldest"] == {"seat": 1, "cave": 1, "gems": 8, "relics": 0, "card": 3}
    # Last out: seat 1 in caves 1 and 3, seat 2 in caves 1 and 2 (banked 16 against 12).
    assert got["last_out"] == {"seat": 2, "caves": 2}
    assert got["left_behind"] == {"cave": 1, "gems": 2}  # a tie: the earlier cave
    assert got["unluckiest"] == {"seat": 0, "cave": 2, "gems": 3}  # a tie: the lower seat
    assert awards([]) == {"boldest": None, "last_out": None, "left_behind": None, "unluckiest": None}
    assert what_might_have_been(caves[0], 7) is None  # not in the cave


def test_the_awards_are_in_every_view_at_the_end_and_in_none_before() -> None:
    state = new_game([["5", "spiders", "spiders"], ["4", "7"]], seats=2, rules=TWO_CAVES)
    step(state)
    assert state.view(None).to_json()["awards"] is None
    step(state)  # the collapse
    assert state.view(0).to_json()["awards"] is None
    state.start_round([0, 1])
    step(state, 0)
    step(state, 1)
    assert state.is_over()
    final = state.view(None).to_json()["awards"]
    assert final == state.view(1).to_json()["awards"]
    assert final["unluckiest"] == {"seat": 0, "cave": 1, "gems": 2}
    assert final["boldest"] == {"seat": 1, "cave": 2, "gems": 9, "relics": 0, "card": 2}
    assert final["last_out"] == {"seat": 1, "caves": 1}
    assert final["left_behind"] == {"cave": 1, "gems": 1}  # the 5's odd gem, buried
