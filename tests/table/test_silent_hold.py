"""A decision nobody answered holds instead of revealing by silence (``Settings.hold_silent``): the table's
reading of "silence means camp" for a group that has not noticed the game began (docs/expedition.md)."""

from __future__ import annotations

import pytest

from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PLAYING, TableError, table_view

from ._helpers import LONG_CAVE, choose, rebuilt, run_clock, started

BAG = {"bag": [1, 5, 9, 13, 17, 21, 25, 29, 33], "first": 0}


def test_a_cave_nobody_answers_holds_and_asks_and_any_player_lifts_it_with_the_whole_clock() -> None:
    table, (_ann, bob, _cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5, hold_silent=True)
    decision = table.moment.decision
    now = run_clock(table, 0.0, lambda t: t.hold.paused is not None)
    assert now == 10.0 and table.moment.phase == PLAYING and table.moment.decision == decision  # nothing revealed
    assert table.hold.paused is not None and table.hold.paused.silent and table.play.game is not None
    assert table.play.game.view(None).to_json()["reveal"] is None
    shown = table_view(table, bob, now + 1)
    assert shown["paused"] == {"by": 0, "name": "", "remaining_ms": 10000, "silent": True}
    assert shown["news"][-1]["kind"] == "silent"
    assert table.next_wakeup() is None  # held: no clock runs
    # A restart keeps the hold (it is an event in the log).
    again = rebuilt(table)
    assert again.hold.paused == table.hold.paused and again.play.held == decision
    # Bob, not the host, answers "we're here": the decision gets its whole clock again.
    table.resume(bob, 30.0)
    assert table.hold.paused is None and table.moment.deadline == 40.0
    # Still nobody answers: one hold per decision, then silence is camp as the seed says.
    now = run_clock(table, 30.0, lambda t: t.moment.decision != decision)
    assert now == 40.0 and table.play.game is not None
    assert sorted(table.play.game.view(None).to_json()["reveal"]["leavers"]) == [0, 1, 2]


def test_a_tap_answers_the_hold_and_one_answering_player_means_no_hold() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5, hold_silent=True)
    run_clock(table, 0.0, lambda t: t.hold.paused is not None)
    choose(table, cy, DEEPER, 12.0)  # a choice lifts the hold
    assert table.hold.paused is None and table.moment.deadline == 22.0 and table.play.pending == {2: DEEPER}
    choose(table, ann, DEEPER, 13.0)
    choose(table, bob, DEEPER, 13.0)
    # The next decision: only Ann answers; Bob and Cy are silent among answering players: camp.
    run_clock(table, 12.0, lambda t: t.moment.decision > 1 and t.moment.phase == PLAYING and not t.play.pending)
    decision = table.moment.decision
    choose(table, ann, DEEPER, table.moment.opened_at + 1)
    run_clock(table, table.moment.opened_at + 1, lambda t: t.moment.decision != decision)
    assert table.hold.paused is None and table.play.game is not None
    assert table.play.game.view(None).to_json()["reveal"]["leavers"] == [1, 2]


def test_phones_that_are_gone_hold_nobody_up_and_a_watcher_cannot_lift_a_hold() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5, hold_silent=True)
    for pid in (ann, bob, cy):
        table.disconnect(pid, 1.0)
    decision = table.moment.decision
    run_clock(table, 1.0, lambda t: t.moment.decision != decision)  # every phone gone: the clock decides
    assert table.hold.paused is None
    other, _ = started(8, seconds=10.0, script=[LONG_CAVE] * 5, hold_silent=True)
    watcher = other.join("Wat", "wat-token", 1.0)  # the ninth: every chair taken, in the queue
    other.connect(watcher.id, 1.0)
    assert watcher.chair is None
    run_clock(other, 1.0, lambda t: t.hold.paused is not None)
    with pytest.raises(TableError) as refused:
        other.resume(watcher.id, 11.0)
    assert refused.value.code == "not-host"
    assert other.hold.paused is not None


def test_a_turn_nobody_takes_holds_once_in_a_turn_based_game() -> None:
    table, (ann, _bob, _cy) = started(3, game="booty", script=BAG, seconds=10.0, hold_silent=True)
    # Nobody plays: the first two turns are played by the clock (one silent player among others who may yet
    # answer); the third, a whole round without an answer, holds.
    now = run_clock(table, 0.0, lambda t: t.hold.paused is not None)
    assert now == 30.0 and table.play.moves_made == 2 and table.hold.paused is not None and table.hold.paused.silent
    table.resume(ann, 40.0)  # not their turn, but a player: they may say the table is here
    assert table.moment.deadline == 50.0
    run_clock(table, 40.0, lambda t: t.play.moves_made > 2)  # still silent: the clock plays it this time
    assert table.hold.paused is None


def test_the_hold_is_off_for_a_table_that_says_so() -> None:
    table, _ = started(3, seconds=10.0, script=[LONG_CAVE] * 5, hold_silent=False)
    decision = table.moment.decision
    now = run_clock(table, 0.0, lambda t: t.moment.decision != decision)
    assert now == 10.0 and table.hold.paused is None


def test_a_choice_that_lifts_the_hold_is_logged_after_the_lift() -> None:
    table, (ann, _bob, _cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5, hold_silent=True)
    run_clock(table, 0.0, lambda t: t.hold.paused is not None)
    choose(table, ann, CAMP, 11.0)
    kinds = [e["type"] for e in table.log.outbox][-3:]
    assert kinds == ["paused", "resumed", "chose"]
    assert rebuilt(table).play.pending == table.play.pending
