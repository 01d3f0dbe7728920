"""Preset ``classic`` (seed 000) and every option of the typed rules object."""

from __future__ import annotations

from collections import Counter

import pytest

from gemtable.games import find_manifest
from gemtable.games.api import BadRules, IllegalMove
from gemtable.games.expedition import Expedition, ExpeditionRules, rules_for
from gemtable.games.expedition.rules import HOST_OPTIONS, PRESETS

from ._helpers import CLASSIC, TABLE, TREASURES, deck_of, names, new_game, path_names, step


def test_the_presets() -> None:
    assert [preset.name for preset in find_manifest("expedition").presets] == ["table", "classic"]
    assert set(PRESETS) == {"table", "classic"}
    with pytest.raises(BadRules):
        rules_for("advanced")
    with pytest.raises(BadRules):
        Expedition.rules_json("advanced", {})


def test_classic_preset_is_classic_diamant() -> None:
    assert CLASSIC.preset == "classic"
    assert (CLASSIC.min_players, CLASSIC.max_players) == (3, 8)
    assert CLASSIC.relics is False
    assert CLASSIC.path_split == "per_card"
    assert CLASSIC.gem_display == "rubies"
    assert CLASSIC.treasures == TREASURES and CLASSIC.hazard_copies == 3 and CLASSIC.caves == 5
    assert CLASSIC.collapse_removes == 1, "one copy of the collapsing trap leaves the game"


def test_classic_needs_three_to_eight_players() -> None:
    with pytest.raises(IllegalMove):
        Expedition.new(CLASSIC, 3, 0).start_round([0, 1])
    with pytest.raises(IllegalMove):
        Expedition.new(CLASSIC, 9, 0).start_round(range(9))
    for players in (3, 8):
        state = Expedition.new(CLASSIC, players, 0)
        state.start_round(range(players))
        assert state.inside == list(range(players))


def test_classic_plays_without_relics_unless_switched_on() -> None:
    state = new_game(seats=3, rules=CLASSIC, seed=4)
    for cave in range(5):
        if cave:
            state.start_round([0, 1, 2])
        assert names(state.cave_deck()) == deck_of(CLASSIC, relics=0, removed=names(state.removed))
        assert state.relics_in_deck == 0 and state.view(0).to_json()["relics_in_deck"] == 0
        while state.phase == "choose":
            step(state)
    with_relics = rules_for("classic", {"relics": True})
    assert with_relics.relics and with_relics.path_split == "per_card"
    state = new_game([["1"], ["2"]], seats=3, rules=with_relics)
    assert names(state.cave_deck())["relic"] == 1
    step(state, 0, 1, 2)
    state.start_round([0, 1, 2])
    assert names(state.cave_deck())["relic"] == 2


def test_relics_can_be_switched_off_at_the_table() -> None:
    rules = rules_for("table", {"relics": False})
    state = new_game(seats=2, rules=rules, seed=1)
    assert names(state.cave_deck()) == deck_of(rules, relics=0)
    assert len(state.cave_deck()) == 30


@pytest.mark.parametrize(
    ("rules", "first_share", "path_left", "last_chest"),
    [
        (TABLE, 1, [0, 0, 0], 12),  # pooled: 2 loose gems between two leavers, one each
        (rules_for("table", {"path_split": "per_card"}), 0, [1, 1, 0], 14),
        (CLASSIC, 0, [1, 1, 0], 14),  # per card: one gem on each card does not divide by two
    ],
    ids=["pooled", "per_card_option", "classic"],
)
def test_path_split(rules: ExpeditionRules, first_share: int, path_left: list[int], last_chest: int) -> None:
    state = new_game([["7", "4", "9"]], seats=3, rules=rules)
    step(state)
    assert state.carried == [3, 3, 3] and state.path_gems == [1, 1]
    step(state, 0, 1)
    assert state.chest[:2] == [3 + first_share] * 2
    assert state.path_gems == path_left
    assert state.view(2).to_json()["reveal"]["path_share"] == first_share
    step(state, 2)
    assert state.chest[2] == last_chest
    assert state.revealed == sum(state.chest) + state.returned


def test_per_card_split_divides_each_card_on_its_own() -> None:
    rules = rules_for("table", {"path_split": "per_card"})
    state = new_game([["11", "5", "1", "2"]], seats=4, rules=rules)  # 3, 1 and 1 loose gems
    step(state)
    step(state)
    assert state.path_gems == [3, 1, 1]
    step(state, 0, 1, 2)  # three leavers: only the card with 3 divides
    assert state.chest[:3] == [3 + 1] * 3
    assert state.path_gems == [0, 1, 1, 0]
    assert [card["gems"] for card in state.view(3).to_json()["path"]] == [0, 1, 1, 0]


def test_gem_display() -> None:
    assert TABLE.gem_display == "gems"
    assert CLASSIC.gem_display == "rubies"
    assert rules_for("table", {"gem_display": "rubies"}).gem_display == "rubies"
    assert rules_for("classic", {"gem_display": "gems"}).gem_display == "gems"
    state = new_game(seats=3, rules=CLASSIC)
    assert state.view(0).to_json()["rules"]["gem_display"] == "rubies"
    with pytest.raises(BadRules):
        rules_for("table", {"gem_display": "diamonds"})


def test_player_range_option() -> None:
    rules = ExpeditionRules.from_json({"min_players": 4, "max_players": 5})
    with pytest.raises(IllegalMove):
        Expedition.new(rules, 5, 0).start_round([0, 1, 2])
    with pytest.raises(IllegalMove):
        Expedition.new(rules, 6, 0).start_round(range(6))
    for players in (4, 5):
        Expedition.new(rules, players, 0).start_round(range(players))
    for bad in ({"min_players": 0}, {"max_players": 9}, {"min_players": 5, "max_players": 4}):
        with pytest.raises(BadRules):
            ExpeditionRules.from_json(bad)
    with pytest.raises(BadRules, match="unknown rules option"):
        rules_for("table", {"min_players": 3})  # not a host's choice


def test_later_caves_may_be_walked_by_fewer_than_the_minimum() -> None:
    # The minimum guards the first cave; later, players may be away (the table decides).
    state = new_game([["3"], ["3"], []], seats=3, rules=CLASSIC)
    step(state, 0, 1, 2)
    state.start_round([2])
    assert state.inside == [2]
    step(state, 2)
    with pytest.raises(IllegalMove):
        state.start_round([])


def test_relic_values_option() -> None:
    rules = ExpeditionRules.from_json({"relic_values": [1, 2, 3]})
    assert rules.relic_values == (1, 2, 3)
    assert [rules.relic_value(n) for n in range(6)] == [1, 2, 3, 3, 3, 3]
    script = [["1"], ["relic", "relic", "3"], ["relic", "2"], ["relic", "2"]]
    state = new_game(script, seats=2, rules=rules)
    step(state, 0, 1)
    state.start_round([0, 1])
    step(state)
    step(state, 0)
    assert state.relics_held[0] == [1, 2]
    step(state, 1)
    for _ in range(2):
        state.start_round([0, 1])
        step(state, 1)
        step(state, 0)
    assert state.relics_held == [[1, 2], [3, 3]]
    for bad in ([], [-1, 5], ["5"], 5):
        with pytest.raises(BadRules):
            ExpeditionRules.from_json({"relic_values": bad})


@pytest.mark.parametrize("copies", [0, 1, 2])
def test_copies_removed_on_a_collapse(copies: int) -> None:
    rules = rules_for("table", {"collapse_removes": copies})
    state = new_game([["6", "fire", "fire"], ["1"]], seats=2, rules=rules)
    step(state)
    step(state)
    assert state.collapsed_by is not None and state.lost == 6
    assert names(state.removed) == Counter({"fire": copies})
    assert Counter(names(state.deck))["fire"] == 3 - copies
    state.start_round([0, 1])
    assert names(state.cave_deck()) == deck_of(rules, relics=2, removed=Counter({"fire": copies}))


def test_copies_removed_on_a_collapse_must_make_sense() -> None:
    with pytest.raises(BadRules):
        rules_for("table", {"collapse_removes": 3})
    with pytest.raises(BadRules):
        rules_for("table", {"collapse_removes": -1})
    with pytest.raises(BadRules):
        ExpeditionRules.from_json({"hazard_copies": 1, "collapse_removes": 2})


def test_caves_option() -> None:
    rules = rules_for("table", {"caves": 2})
    state = new_game([["3"], ["3"]], seats=2, rules=rules)
    step(state, 0, 1)
    assert not state.is_over()
    state.start_round([0, 1])
    step(state, 0, 1)
    assert state.is_over()
    with pytest.raises(BadRules):
        rules_for("table", {"caves": 0})


def test_show_odds_option() -> None:
    state = new_game([["snakes", "4"]], seats=2)
    assert state.view(0).to_json()["collapse_chance"] == round(2 / 30, 4)
    assert path_names(state) == ["snakes"]
    hidden = new_game([["snakes"]], seats=2, rules=rules_for("table", {"show_odds": False}))
    assert "collapse_chance" not in hidden.view(0).to_json()


def test_bad_options_are_refused() -> None:
    for options in (
        {"relics": "yes"},
        {"relics": 1},
        {"collapse_removes": "1"},
        {"collapse_removes": True},
        {"path_split": 3},
        {"path_split": "per_leaver"},
        {"caves": 21},
        {"colour": "red"},
    ):
        with pytest.raises(BadRules):
            rules_for("table", options)
    with pytest.raises(BadRules):
        ExpeditionRules.from_json(["table"])
    with pytest.raises(BadRules):
        ExpeditionRules.from_json({"treasures": [0, 5]})


def test_host_options_are_the_documented_ones() -> None:
    assert {"relics", "path_split", "collapse_removes", "gem_display", "caves"} <= HOST_OPTIONS


@pytest.mark.parametrize(
    "rules",
    [
        TABLE,
        CLASSIC,
        rules_for("classic", {"relics": True, "collapse_removes": 2}),
        rules_for("table", {"path_split": "per_card", "collapse_removes": 0, "show_odds": False}),
        ExpeditionRules.from_json({"min_players": 3, "max_players": 6, "relic_values": [2, 4]}),
    ],
)
def test_rules_survive_json_and_new_takes_either(rules: ExpeditionRules) -> None:
    data = rules.to_json()
    assert ExpeditionRules.from_json(data) == rules
    players = max(3, rules.min_players)
    from_json = new_game([["5", "relic"]], seats=players, rules=data)
    from_object = new_game([["5", "relic"]], seats=players, rules=rules)
    assert from_json.rules == rules
    assert from_json.view(0).to_json() == from_object.view(0).to_json()
    assert Expedition.rules_json(rules.preset, {}) == PRESETS[rules.preset].to_json()
