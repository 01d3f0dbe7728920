"""The reveal's beat: every screen shows everyone's choice on its own before the next card, in the table's clock.

A reveal puts the table in the ``reveal`` phase for the settings' ``beat`` seconds: the game's view holds the
reveal (who walked out, what they banked, the path's split, a relic) and not the next card, nobody is asked
anything, a late choice is refused as stale; then the next card is turned.  The beat's end is a deadline computed
from the events' times, so a table rebuilt in the middle of one ends it when the original would have.  A game's
record, its replay and the simulator are the same with or without beats.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from gemtable.games import GameRecord, IllegalMove, find_game, replay
from gemtable.games.api import Beats
from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PAUSE, PLAYING, RESULTS, REVEAL, Table, TableError, table_view
from gemtable.table.settings import BEAT, new_settings, revised

from ._helpers import check_all, choose, rebuilt, run_clock, seat_table, started

SCRIPT = [["5", "relic", "7", "3", "9", "11"], ["4", "4", "4"]]


def state(table: Table, now: float) -> dict[str, Any]:
    view: dict[str, Any] = table_view(table, None, now)["state"]
    return view


def reveal(table: Table, moves: dict[int, str], now: float) -> None:
    for pid, move in moves.items():
        choose(table, pid, move, now)


def test_a_reveal_is_shown_on_its_own_for_the_beat_then_the_next_card_turns() -> None:
    table, (ann, bob, cy) = started(3, beat=2.0, script=SCRIPT)
    assert len(state(table, 0.0)["path"]) == 1
    choose(table, ann, DEEPER, 1.0)
    choose(table, bob, DEEPER, 1.0)  # the relic next
    reveal(table, {cy: DEEPER}, 1.5)
    assert table.moment.phase == REVEAL and table.moment.deadline == 3.5 and table.next_wakeup() == 3.5
    assert len(state(table, 1.5)["path"]) == 1, "the next card waits for the beat"
    table.tick(3.4)
    assert table.moment.phase == REVEAL
    table.tick(3.5)
    assert table.moment.phase == PLAYING and [c["card"] for c in state(table, 3.5)["path"]] == ["5", "relic"]
    decision = table.moment.decision
    choose(table, ann, CAMP, 4.0)  # Ann walks out alone: the relic and her share of the path are hers
    reveal(table, {bob: DEEPER, cy: DEEPER}, 4.0)
    seen = state(table, 4.0)
    assert table.moment.phase == REVEAL and [c["card"] for c in seen["path"]] == ["5", "relic-taken"]
    assert seen["reveal"]["leavers"] == [0] and seen["reveal"]["deeper"] == [1, 2]
    assert seen["reveal"]["banked"] == [1] and seen["reveal"]["path_share"] == 2 and seen["reveal"]["relics"] == [5]
    assert seen["players"][0]["status"] == "camp" and seen["players"][0]["banked"] == 3
    view = table_view(table, bob, 4.5)
    assert view["me"]["moves"] == [] and not any(p["to_act"] for p in view["people"])
    assert view["remaining_ms"] == 1500 and view["settings"]["beat"] == 2.0
    with pytest.raises(TableError) as refused:
        table.choose(bob, CAMP, 4.5, decision)
    assert refused.value.code == "stale"
    check_all(table, 4.5)
    table.tick(6.0)
    assert (
        table.moment.phase == PLAYING and table.moment.decision == decision + 1 and len(state(table, 6.0)["path"]) == 3
    )


def test_a_table_restarted_in_the_middle_of_a_beat_ends_it_when_it_would_have() -> None:
    table, (ann, bob, cy) = started(3, beat=2.0, script=SCRIPT)
    reveal(table, {ann: DEEPER, bob: CAMP, cy: DEEPER}, 1.0)
    assert table.moment.phase == REVEAL
    again = rebuilt(table)
    assert again.moment.phase == REVEAL and again.moment.deadline == 3.0 and again.next_wakeup() == 3.0
    check_all(table, 2.0)
    again.tick(2.9)
    assert again.moment.phase == REVEAL
    again.tick(3.0)
    table.tick(3.0)
    assert again.moment.phase == PLAYING and state(again, 3.0) == state(table, 3.0)


def test_a_beat_paused_keeps_what_it_had_left_and_ends_at_once_if_the_host_ends_the_game() -> None:
    table, (ann, bob, cy) = started(3, beat=2.0, script=SCRIPT)
    reveal(table, {ann: DEEPER, bob: DEEPER, cy: DEEPER}, 1.0)
    table.pause(ann, 2.5)
    table.tick(10.0)
    assert table.moment.phase == REVEAL and table.next_wakeup() is None
    table.resume(ann, 20.0)
    assert table.moment.deadline == 20.5, "the beat's rest, without the floor a decision gets"
    check_all(table, 20.0)
    table.end(ann, 20.1)
    assert table.moment.phase == RESULTS
    assert (
        replay(GameRecord.from_json(json.loads(json.dumps(table.log.records[1])))).scores()
        == table.log.records[1]["scores"]
    )


def test_no_beat_after_a_reveal_that_ends_the_cave_nor_with_the_beat_at_zero() -> None:
    table, (ann, bob) = started(2, beat=2.0, script=SCRIPT)
    reveal(table, {ann: CAMP, bob: CAMP}, 1.0)
    assert table.moment.phase == PAUSE, "everyone walked out: the pause between caves shows the reveal"
    flat, (ann, bob) = started(2, beat=0.0, script=SCRIPT)
    reveal(flat, {ann: DEEPER, bob: DEEPER}, 1.0)
    assert flat.moment.phase == PLAYING and len(state(flat, 1.0)["path"]) == 2


def test_a_game_played_with_beats_has_the_record_of_the_same_game_without() -> None:
    def play(beat: float) -> Any:
        table, pids = started(3, beat=beat, script=SCRIPT)
        now = 0.0
        moves = [[DEEPER] * 3, [CAMP, DEEPER, DEEPER], [DEEPER, DEEPER], [CAMP, CAMP]]
        for round_ in moves:
            inside = [pid for pid in pids if table.people[pid].seat in table.play.game.to_act()]  # type: ignore[union-attr]
            now += 1.0
            for pid, move in zip(inside, round_, strict=True):
                choose(table, pid, move, now)
            now = run_clock(table, now, lambda t: t.moment.phase != REVEAL)
        now = run_clock(table, now, lambda t: t.moment.phase == RESULTS)
        return table.log.records[1]

    with_beats, without = play(2.0), play(0.0)
    assert with_beats["inputs"] == without["inputs"] and with_beats["scores"] == without["scores"]


def test_the_beat_is_a_setting_from_zero_to_ten_seconds_the_host_changes_between_games() -> None:
    assert new_settings({"game": "expedition"}).beat == BEAT == 2.0
    assert new_settings({"game": "expedition", "beat": 0}).beat == 0.0
    for bad in (-1, 10.5, "2", True, None):
        with pytest.raises(TableError) as refused:
            new_settings({"game": "expedition", "beat": bad})
        assert refused.value.code == "bad-request"
    table, (ann, _bob) = seat_table(2, beat=2.0)
    table.change_settings(ann, {"beat": 5}, 1.0)
    assert table.settings.beat == 5.0 and rebuilt(table).settings.beat == 5.0
    with pytest.raises(TableError):
        revised(table.settings, {"beat": 11})
    table.start(ann, 1, 2.0)
    with pytest.raises(TableError) as refused:
        table.change_settings(ann, {"beat": 1}, 3.0)
    assert refused.value.code == "in-game"


def test_the_engine_holds_a_reveal_only_when_asked_and_a_replay_never_does() -> None:
    game = find_game("expedition")
    rules = game.rules_json("table", {})
    state_ = game.new(rules, 3, 1, SCRIPT)
    assert isinstance(state_, Beats) and not state_.held()
    with pytest.raises(IllegalMove):
        state_.go_on()
    state_.hold_reveals()
    state_.start_round([0, 1, 2])
    state_.apply_joint({0: DEEPER, 1: DEEPER, 2: DEEPER})
    assert state_.held() and state_.to_act() == frozenset() and state_.legal_moves(0) == ()
    with pytest.raises(IllegalMove):
        state_.apply(0, DEEPER)
    with pytest.raises(IllegalMove):
        state_.start_round([0])
    state_.go_on()
    assert (
        not state_.held() and state_.to_act() == frozenset({0, 1, 2}) and len(state_.view(None).to_json()["path"]) == 2
    )
    again = replay(state_.record())
    assert isinstance(again, Beats) and not again.held()
    assert again.view(None).to_json() == state_.view(None).to_json()


def test_beats_tells_the_games_that_hold_their_reveals() -> None:
    """``games.api.beats`` (the table's check, asked once per class) agrees with the Protocol's own
    ``isinstance``: the expedition holds its reveals, Booty Hunter (turn by turn) does not."""
    from gemtable.games.api import beats

    for name, preset, holds in (("expedition", "table", True), ("booty", "every-area", False)):
        game = find_game(name)
        state_ = game.new(game.rules_json(preset, {}), game.seats_per_game, 7)
        assert isinstance(state_, Beats) is holds
        found: object = beats(state_)
        assert (found is state_) is holds and (found is None) is not holds
