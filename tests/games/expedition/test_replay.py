"""Records and replays: ``replay(state.record())`` rebuilds the very same game."""

from __future__ import annotations

import dataclasses
import json

import pytest

from gemtable.games import GameRecord, replay
from gemtable.games.api import BadRecord, GameError
from gemtable.games.expedition import CAMP, DEEPER, Expedition
from gemtable.games.expedition.rules import rules_for

from ._helpers import CLASSIC, TABLE, new_game, path_names, replayed, snapshot, step, views_json


def round_trip(record: GameRecord) -> GameRecord:
    return GameRecord.from_json(json.loads(json.dumps(record.to_json())))


def test_the_record_lists_rosters_and_choices_in_seat_order() -> None:
    state = new_game([["5", "7", "snakes"]], seats=3, roster=[2, 0, 1])
    state.apply(2, DEEPER)
    state.apply(0, CAMP)
    state.apply(1, DEEPER)
    record = state.record()
    assert record.game == "expedition" and record.seats == 3 and record.seed == 0
    assert record.script == [["5", "7", "snakes"]]
    assert record.rules == TABLE.to_json()
    assert record.inputs == [["round", [0, 1, 2]], [0, CAMP], [1, DEEPER], [2, DEEPER]]
    assert record.scores is None and record.winners is None


def test_a_finished_scripted_game_replays_exactly() -> None:
    script = [["5", "relic", "7", "spiders", "spiders"], ["9", "3"], ["relic", "4"], ["1"], ["17", "fire"]]
    state = new_game(script, seats=3, rules=CLASSIC.__class__.from_json({**CLASSIC.to_json(), "relics": True}))
    step(state)
    step(state, 1)
    step(state)
    step(state)
    for leavers in [(0,), (1, 2), (0, 1, 2), (2,)]:
        state.start_round([0, 1, 2])
        while state.phase == "choose":
            step(state, *leavers)
            leavers = tuple(seat for seat in (0, 1, 2) if seat in state.inside)
    assert state.is_over()
    record = state.record()
    assert record.scores == state.scores() and record.winners == state.winners()
    for again in (replayed(record), replayed(round_trip(record))):
        assert again.scores() == state.scores() and again.winners() == state.winners()
        assert views_json(again) == views_json(state)
        assert snapshot(again) == snapshot(state)


def test_an_unscripted_game_replays_from_its_seed() -> None:
    state = new_game(seats=5, seed=1234)
    while not state.is_over():
        if state.needs_roster():
            state.start_round(range(5))
        else:
            step(state, *[seat for seat in state.inside if state.carried[seat] >= 6])
    record = state.record()
    assert record.script is None
    again = replayed(round_trip(record))
    assert snapshot(again) == snapshot(state)


def test_a_record_taken_while_choices_are_pending_leaves_them_out() -> None:
    state = new_game([["5", "7", "9"]], seats=3)
    step(state)
    state.apply(1, CAMP)
    record = state.record()
    assert record.inputs[-1] == [2, DEEPER]
    again = replayed(record)
    assert again.choices == {} and again.to_act() == frozenset({0, 1, 2})
    assert views_json(again) == views_json(state), "a pending choice is in no view"
    again.apply(1, CAMP)
    for game in (state, again):
        game.apply_joint({0: DEEPER, 2: CAMP})
    assert snapshot(again) == snapshot(state)


def test_a_record_that_does_not_replay_is_refused() -> None:
    state = new_game([["5", "7"]], seats=2)
    step(state)
    good = state.record().to_json()
    for inputs in (
        [*good["inputs"], [0, "jump"]],
        [*good["inputs"], [5, CAMP]],
        [*good["inputs"], ["round", [0, 1]]],
        [*good["inputs"], "deeper"],
        [*good["inputs"], [0, 1, 2]],
        [["round", [0]]],
    ):
        with pytest.raises(BadRecord):
            replay(GameRecord.from_json({**good, "inputs": inputs}))
    with pytest.raises(GameError):
        replay(GameRecord.from_json({**good, "game": "chess"}))
    for bad in (["expedition"], {"game": "expedition"}, {**good, "seats": "many"}, {**good, "inputs": {}}):
        with pytest.raises(BadRecord):
            GameRecord.from_json(bad)


def test_the_record_is_stable_after_the_game() -> None:
    state = Expedition.new(TABLE.__class__.from_json({"caves": 1}), 2, 9, [["3"]])
    state.start_round([0, 1])
    step(state, 0, 1)
    assert state.record() == state.record()
    assert state.record().to_json() == round_trip(state.record()).to_json()


def test_a_game_ended_during_a_held_reveal_replays_with_the_next_card_unturned() -> None:
    """The host ends the game in the reveal's beat, before the next card (a second Spiders, which would collapse
    the last cave and end the game by itself): the record says so (``["end", "held"]``) and replays to the same
    end, the card unturned — a record replays without beats, so the reveal before it is replayed held."""
    state = new_game([["5", "spiders", "spiders"]], seats=2, rules=rules_for("table", {"caves": 1}))
    state.hold_reveals()
    step(state)  # both go deeper: the reveal is held before the next card
    state.go_on()  # the beat is over: the Spiders
    step(state)  # deeper again: held before the second Spiders
    assert state.held() and path_names(state) == ["5", "spiders"]
    state.end()
    record = state.record()
    assert record.inputs[-1] == ["end", "held"]
    again = replayed(record)
    assert path_names(again) == ["5", "spiders"] and again.is_over()
    assert views_json(again) == views_json(state) and again.record() == record

    forged = dataclasses.replace(record, inputs=[*record.inputs[:-2], ["end", "held"]])  # no reveal before it
    with pytest.raises(BadRecord, match="ends a held reveal"):
        replay(forged)
