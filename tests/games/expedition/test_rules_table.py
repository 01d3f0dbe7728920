"""The rules of the table (preset ``table``, seed 002), one scenario per rule point, on scripted decks."""

from __future__ import annotations

from collections import Counter

import pytest

from gemtable.games import find_game, find_manifest
from gemtable.games.api import BadRules, IllegalMove
from gemtable.games.expedition import CAMP, DEEPER, Expedition, ExpeditionRules
from gemtable.games.expedition.state import MAX_SEATS

from ._helpers import TABLE, TREASURES, deck_of, names, new_game, path_names, step


def test_the_table_preset_is_the_default() -> None:
    assert find_game("expedition") is Expedition
    assert find_manifest("expedition").preset(None).name == "table"
    assert ExpeditionRules() == TABLE
    assert TABLE.treasures == TREASURES
    assert (TABLE.hazard_copies, TABLE.relics, TABLE.path_split, TABLE.collapse_removes) == (3, True, "pooled", 1)


def test_rule_1_two_to_eight_explorers_five_caves_everyone_walks_in_together() -> None:
    assert (Expedition.min_seats, Expedition.max_seats) == (2, 8)
    assert (TABLE.min_players, TABLE.max_players, TABLE.caves) == (2, 8, 5)
    # A game may seat more players over its life than chairs (MAX_SEATS), but at
    # most eight walk into a cave, and at least two into the first.
    with pytest.raises(BadRules):
        Expedition.new(TABLE, MAX_SEATS + 1, 0)
    crowd = Expedition.new(TABLE, 9, 0)
    with pytest.raises(IllegalMove):
        crowd.start_round(range(9))
    alone = Expedition.new(TABLE, 2, 0)
    with pytest.raises(IllegalMove):
        alone.start_round([0])
    for seats in (2, 8):
        state = Expedition.new(TABLE, seats, 7)
        for cave in range(1, 6):
            assert state.needs_roster() and not state.is_over()
            state.start_round(range(seats))
            assert state.cave == cave
            assert state.inside == list(range(seats))
            assert state.to_act() == frozenset(range(seats))
            statuses = [player["status"] for player in state.view(0).to_json()["players"]]
            assert statuses == ["inside"] * seats
            state.apply_joint(dict.fromkeys(range(seats), CAMP))
        assert state.is_over() and not state.needs_roster()
        assert len(state.chest_by_cave) == 5
        with pytest.raises(IllegalMove):
            state.start_round(range(seats))


def test_rule_2_the_deck_of_the_first_cave() -> None:
    for seed in range(5):
        state = new_game(seats=4, seed=seed)
        expected = deck_of(TABLE, relics=1)
        assert sum(expected.values()) == 15 + 15 + 1
        assert names(state.cave_deck()) == expected
        assert names(state.pile) + names(state.path) == expected


def test_rule_2_a_relic_joins_every_cave_and_unrevealed_relics_stay() -> None:
    script = [
        ["3", "snakes", "relic", "snakes"],  # the relic is revealed (and lost), snakes collapse
        ["5"],  # the new relic is never revealed
        ["relic"],  # one of the two relics is revealed, left on the path
        ["4"],
        ["4"],
    ]
    state = new_game(script, seats=2)
    assert names(state.cave_deck()) == deck_of(TABLE, relics=1)
    step(state)
    step(state)
    step(state)
    assert state.collapsed_by is not None and state.needs_roster()
    removed = Counter({"snakes": 1})

    state.start_round([0, 1])
    assert names(state.cave_deck()) == deck_of(TABLE, relics=1, removed=removed)
    step(state, 0, 1)

    state.start_round([0, 1])
    assert names(state.cave_deck()) == deck_of(TABLE, relics=2, removed=removed)
    step(state, 0, 1)  # two leavers: the relic stays on the path and is gone for good

    state.start_round([0, 1])
    assert names(state.cave_deck()) == deck_of(TABLE, relics=2, removed=removed)
    assert names(state.pile) + names(state.path) == deck_of(TABLE, relics=2, removed=removed)


def test_rule_2_the_whole_deck_is_shuffled_for_every_cave() -> None:
    firsts: Counter[str] = Counter()
    seen_relics = 0
    for seed in range(200):
        state = new_game(seats=2, seed=seed)
        firsts[path_names(state)[0]] += 1
        step(state, 0, 1)  # the first card is treasure or hazard or relic: it goes back into the deck
        state.start_round([0, 1])
        assert state.removed == []
        # Every card turned in cave 1 is back; a revealed relic is not (it was left on the path).
        relics = 1 if firsts["relic"] > seen_relics else 2
        seen_relics = firsts["relic"]
        assert names(state.pile) + names(state.path) == deck_of(TABLE, relics=relics)
    # Every kind of card comes first in some cave: the order is random, not fixed.
    assert len(firsts) >= 15
    assert max(firsts.values()) < 40


def test_rule_3_a_card_is_turned_then_everyone_inside_decides_in_secret() -> None:
    state = new_game([["7", "3", "snakes"]], seats=3)
    # The first decision comes after the first card.
    assert path_names(state) == ["7"]
    assert state.phase == "choose"
    assert state.to_act() == frozenset({0, 1, 2})
    assert all(state.legal_moves(seat) == (DEEPER, CAMP) for seat in range(3))
    # Choices are collected without anything happening until the last one.
    state.apply(1, DEEPER)
    state.apply(0, CAMP)
    assert path_names(state) == ["7"]
    assert state.chest == [0, 0, 0] and state.carried == [2, 2, 2]
    assert state.to_act() == frozenset({2})
    assert state.legal_moves(0) == () and state.legal_moves(1) == ()
    state.apply(2, DEEPER)
    # The reveal: seat 0 walks out, the next card is turned for those still inside.
    assert state.chest == [3, 0, 0]
    assert path_names(state) == ["7", "3"]
    assert state.inside == [1, 2]
    assert state.to_act() == frozenset({1, 2})
    assert state.legal_moves(0) == ()


def test_rule_4_treasure_is_split_evenly_between_those_inside_rest_on_the_path() -> None:
    state = new_game([["7", "11", "13", "14"]], seats=3)
    assert state.carried == [2, 2, 2] and state.path_gems == [1]
    step(state)
    assert state.carried == [5, 5, 5] and state.path_gems == [1, 2]
    step(state, 0)  # seat 0 banks 5 and the 3 loose gems; 13 is split between two
    assert state.chest[0] == 8
    assert state.carried == [0, 11, 11] and state.path_gems == [0, 0, 1]
    step(state, 1)  # seat 1 takes the loose gem; 14 goes whole to the last explorer
    assert state.chest[:2] == [8, 12]
    assert state.carried == [0, 0, 25] and state.path_gems == [0, 0, 0, 0]
    assert state.revealed == 7 + 11 + 13 + 14


def test_rule_5_a_hazard_warns_once_and_the_second_of_its_kind_collapses_the_cave() -> None:
    script = [["5", "snakes", "spiders", "9", "snakes"], ["snakes", "snakes"], ["1"]]
    state = new_game(script, seats=3)
    assert state.carried == [1, 1, 1] and state.path_gems == [2]
    step(state)
    assert path_names(state) == ["5", "snakes"]
    assert state.view(0).to_json()["danger"] == ["snakes"]
    assert state.carried == [1, 1, 1] and state.phase == "choose"
    step(state)  # a different kind: a second warning
    assert state.view(0).to_json()["danger"] == ["snakes", "spiders"]
    assert state.phase == "choose"
    step(state, 0)  # seat 0 banks 1 + 2; 9 is split between two
    assert state.chest == [3, 0, 0] and state.carried == [0, 5, 5] and state.path_gems == [0, 0, 0, 1]
    step(state)  # the second snakes
    assert state.phase == "roster" and state.inside == [] and state.to_act() == frozenset()
    assert state.carried == [0, 0, 0]
    assert state.lost == 10
    assert state.chest == [3, 0, 0], "what was banked is safe for good"
    assert state.returned == 1
    view = state.view(1).to_json()
    assert view["collapsed_by"] == "snakes"
    assert view["removed"] == ["snakes"]
    assert Counter(names(state.deck))["snakes"] == 2
    assert all(Counter(names(state.deck))[kind] == 3 for kind in ("spiders", "mummies", "fire", "rockfall"))
    # The next cave holds two snakes; a second collapse by snakes leaves one.
    state.start_round([0, 1, 2])
    assert names(state.cave_deck())["snakes"] == 2
    step(state)
    assert state.phase == "roster" and state.removed == [-1, -1]
    state.start_round([0, 1, 2])
    assert names(state.cave_deck())["snakes"] == 1
    assert names(state.cave_deck()) == deck_of(TABLE, relics=3, removed=Counter({"snakes": 2}))


def test_rule_6_a_relic_stays_on_the_path() -> None:
    state = new_game([["relic", "4", "9"]], seats=2)
    assert path_names(state) == ["relic"]
    assert state.carried == [0, 0] and state.path_gems == [0]
    assert state.relics_held == [[], []] and state.relics_revealed == 1 and state.relics_in_deck == 0
    step(state)
    step(state)
    assert path_names(state) == ["relic", "4", "9"]
    assert state.carried == [6, 6] and state.path_gems == [0, 0, 1]
    assert state.view(0).relics_on_path == 1
    assert state.view(0).to_json()["path"][0] == {"card": "relic", "gems": 0}


def test_rule_7_leavers_bank_and_share_the_loose_gems_of_the_whole_path() -> None:
    state = new_game([["5", "7", "9"]], seats=3)
    step(state)
    assert state.carried == [3, 3, 3] and sum(state.path_gems) == 3
    step(state, 0, 1)  # 3 loose gems between two leavers: one each, one stays
    assert state.chest == [4, 4, 0]
    assert sum(state.path_gems) == 1 + 0
    reveal = state.view(2).to_json()["reveal"]
    assert reveal == {"deeper": [2], "leavers": [0, 1], "banked": [3, 3], "path_share": 1, "relics": [], "lost": []}
    assert state.carried == [0, 0, 12]  # the 9 went whole to the last explorer
    step(state, 2)  # the later leaver takes the remainder
    assert state.chest == [4, 4, 13]
    assert state.returned == 0 and state.revealed == 21


def test_rule_7_only_a_lone_leaver_takes_the_relics() -> None:
    # Cave 1 leaves its relic in the deck, so cave 2 holds two.
    state = new_game([["2"], ["relic", "6", "relic", "4"]], seats=3)
    step(state, 0, 1, 2)
    state.start_round([0, 1, 2])
    step(state)
    step(state, 0, 1)  # two leavers: the relic stays on the path; a second relic is turned
    assert state.relics_held == [[], [], []] and state.chest == [2, 2, 0]
    assert path_names(state) == ["relic", "6", "relic"] and state.view(0).relics_on_path == 2
    step(state, 2)  # one leaver, even the last one: every relic on the path is hers
    assert state.relics_held == [[], [], [5, 5]]
    assert path_names(state) == ["relic-taken", "6", "relic-taken"]
    assert state.scores() == [2, 2, 2 + 10]
    assert state.relics_out == 2 and state.relics_left == 0


def test_rule_7_a_lone_leaver_takes_the_relics_while_others_go_on() -> None:
    state = new_game([["relic", "3", "snakes"]], seats=3)
    step(state, 1)
    assert state.relics_held == [[], [5], []]
    assert state.view(0).to_json()["reveal"]["relics"] == [5]
    assert path_names(state) == ["relic-taken", "3"]
    step(state, 0, 2)  # two leavers now: no relic left anyway
    assert state.relics_held == [[], [5], []]


def test_rule_7_relics_carried_out_are_worth_5_5_5_then_10_10() -> None:
    script = [["1"], ["relic", "relic", "3"], ["relic", "2"], ["relic", "2"], ["relic", "2"]]
    state = new_game(script, seats=2)
    assert state.view(0).to_json()["next_relic_value"] == 5
    step(state, 0, 1)  # cave 1: the relic is never revealed
    state.start_round([0, 1])
    step(state)
    step(state, 0)  # two relics at once
    assert state.relics_held == [[5, 5], []]
    step(state, 1)
    state.start_round([0, 1])
    step(state, 1)
    step(state, 0)
    assert state.view(0).to_json()["next_relic_value"] == 10
    state.start_round([0, 1])
    step(state, 0)
    step(state, 1)
    state.start_round([0, 1])
    step(state, 1)
    step(state, 0)
    assert state.is_over()
    assert state.relics_held == [[5, 5, 10], [5, 10]]
    assert state.chest == [4, 5]
    assert state.scores() == [24, 20]
    assert state.winners() == [0]


def test_rule_8_a_cave_ends_when_empty_path_gems_return_relics_are_gone() -> None:
    state = new_game([["relic", "5", "snakes"], ["4"], ["4"]], seats=2)
    step(state)
    assert state.carried == [2, 2] and sum(state.path_gems) == 1
    step(state, 0, 1)  # everyone out, with a card still to come
    assert state.phase == "roster" and state.cave == 1
    assert state.chest == [2, 2]
    assert state.returned == 1 and state.path_gems == [0, 0]
    assert state.relics_left == 1 and state.relics_in_deck == 0
    state.start_round([0, 1])
    assert names(state.cave_deck())["relic"] == 1, "only the new relic: the one left on the path is gone"
    step(state, 0, 1)
    state.start_round([0, 1])
    assert names(state.cave_deck())["relic"] == 2


def test_rule_8_a_collapse_ends_the_cave_and_returns_the_path() -> None:
    state = new_game([["9", "fire", "relic", "fire"]], seats=2)
    step(state)
    step(state)
    step(state)
    assert state.phase == "roster"
    assert state.lost == 8 and state.returned == 1 and state.relics_left == 1
    assert state.revealed == state.lost + state.returned


def test_rule_9_score_is_banked_gems_plus_relics_and_ties_share_the_win() -> None:
    state = new_game([["7"]] * 5, seats=3, roster=[0, 1])
    for cave in range(5):
        if cave:
            state.start_round([0, 1])
        step(state, 0, 1)
    assert state.is_over()
    assert state.scores() == [15, 15]  # the seats that played: seat 2 never walked in
    assert state.winners() == [0, 1], "a tie is shared; a seat that never played does not win"
    assert state.record().winners == [0, 1]
    final = state.view(2).to_json()
    assert final["scores"] == [15, 15] and final["winners"] == [0, 1]


def test_rule_9_relics_count_in_the_score() -> None:
    state = new_game([["7", "relic"]] + [["7"]] * 4, seats=2)
    step(state)
    step(state, 0)  # seat 0 alone: 3 carried, 1 loose gem and the relic; seat 1's script runs out
    assert state.chest == [4, 3] and state.relics_held == [[5], []]
    for _ in range(4):
        state.start_round([0, 1])
        step(state, 0, 1)
    assert state.chest == [16, 15]
    assert state.scores() == [21, 15]
    assert state.winners() == [0]


def test_rule_10_silence_counts_as_camp() -> None:
    state = new_game([["8", "4"]], seats=2)
    assert [state.default_move(seat) for seat in range(2)] == [CAMP, CAMP]
    state.apply(0, state.default_move(0))
    state.apply(1, DEEPER)
    assert state.chest == [4, 0], "the default walks out with everything carried"
    assert state.inside == [1]
    assert state.default_move(1) == CAMP


def test_rule_11_a_script_that_runs_out_walks_everyone_out_with_what_they_carry() -> None:
    state = new_game([["5", "3"], ["4"]], seats=2)
    step(state)
    assert state.carried == [3, 3] and sum(state.path_gems) == 2
    step(state)  # no card left: out with what they carry; the loose gems go back
    assert state.phase == "roster"
    assert state.chest == [3, 3]
    assert state.returned == 2
    assert state.view(0).to_json()["deck_ran_out"] is True
    state.start_round([0, 1])
    assert state.view(0).to_json()["deck_ran_out"] is False


def test_rule_11_an_unscripted_deck_can_only_run_out_under_odd_rules() -> None:
    for seed in range(30):
        state = Expedition.new(TABLE, 3, seed)
        while not state.is_over():
            if state.needs_roster():
                state.start_round([0, 1, 2])
            else:
                step(state)
                if state.needs_roster() or state.is_over():
                    assert state.collapsed_by is not None and not state.deck_ran_out
    one_copy = ExpeditionRules.from_json({"hazard_copies": 1, "relics": False, "collapse_removes": 0})
    state = Expedition.new(one_copy, 2, 3)
    state.start_round([0, 1])
    while state.phase == "choose":
        step(state)
    assert state.deck_ran_out and len(state.path) == 20
    assert state.chest[0] == state.chest[1] == sum(c // 2 for c in TREASURES)
    assert state.returned == sum(c % 2 for c in TREASURES)


def test_a_collapse_says_who_lost_what_in_the_view() -> None:
    state = new_game([["5", "spiders", "7", "spiders"]], seats=3)
    step(state)  # everyone goes deeper: the spiders
    step(state, 0)  # seat 0 walks out; 1 and 2 find the 7 and carry 1 + 3 each
    step(state)  # the second spiders: they lose what they carry
    reveal = state.view(None).to_json()["reveal"]
    assert reveal["deeper"] == [1, 2] and reveal["lost"] == [4, 4]
