"""The last call (``Settings.last_call``): after the last choice of a simultaneous decision the reveal waits a
moment, during which anyone may still change their choice; a change starts it again; the records are unchanged
by it (a reveal holds the choices as they stood)."""

from __future__ import annotations

import json

from gemtable.games import GameRecord, replay
from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PLAYING, RESULTS, table_view

from ._helpers import LONG_CAVE, choose, rebuilt, run_clock, started


def test_the_last_choice_can_be_changed_until_the_last_call_ends() -> None:
    table, (ann, bob) = started(2, seconds=10.0, script=[LONG_CAVE] * 5, last_call=1.0)
    decision = table.moment.decision
    choose(table, ann, DEEPER, 2.0)
    choose(table, bob, CAMP, 3.0)  # the last choice: a slip
    assert table.moment.decision == decision and table.moment.phase == PLAYING  # not revealed yet
    assert table.next_wakeup() == 4.0
    assert all(p["chosen"] for p in table_view(table, ann, 3.5)["people"] if p["to_act"])
    choose(table, bob, DEEPER, 3.6)  # changed in time: the call starts again
    assert table.next_wakeup() == 4.6
    table.tick(4.0)
    assert table.moment.decision == decision  # still the call
    # A restart in the middle of the call keeps it (it is computed from the events' times).
    assert rebuilt(table).next_wakeup() == 4.6
    now = run_clock(table, 4.0, lambda t: t.moment.decision != decision)
    assert now == 4.6 and table.play.game is not None
    reveal = table.play.game.view(None).to_json()["reveal"]
    assert reveal["leavers"] == [] and sorted(reveal["deeper"]) == [0, 1]


def test_the_deadline_ends_a_last_call_and_none_without_people_or_setting() -> None:
    table, (ann, bob) = started(2, seconds=10.0, script=[LONG_CAVE] * 5, last_call=3.0)
    decision = table.moment.decision
    choose(table, ann, CAMP, 8.0)
    choose(table, bob, CAMP, 9.5)
    now = run_clock(table, 9.5, lambda t: t.moment.decision != decision)
    assert now == 10.0  # the decision's clock does not grow
    other, (cy, dee) = started(2, seconds=10.0, script=[LONG_CAVE] * 5)  # no last call set: at once
    decision = other.moment.decision
    choose(other, cy, DEEPER, 1.0)
    choose(other, dee, DEEPER, 2.0)
    assert other.moment.decision != decision


def test_a_game_with_last_calls_changed_minds_and_holds_replays_from_its_record() -> None:
    """A whole game at a table with the last call and the silent hold: every third decision nobody answers (the
    table holds it, a player lifts it), the others are answered with the last chooser's slip changed within the
    call. The table rebuilt from its log has the same records, and the record replays to the same end."""
    table, pids = started(3, seconds=10.0, script=[["2", "1", "fire", "fire"]] * 5, last_call=1.0, hold_silent=True)
    now, holds, slips, silent = 0.0, 0, 0, set()
    while table.moment.phase != RESULTS:
        game = table.play.game
        assert game is not None
        if table.hold.paused is not None:  # held: somebody says "we're here" a little later
            holds += 1
            now += 3.0
            table.resume(pids[1], now)
            continue
        seats = {table.people[p].seat: p for p in pids}
        waiting = [seats[s] for s in sorted(game.to_act()) if s in seats and s not in table.play.pending]
        if (
            table.moment.phase == PLAYING
            and waiting
            and table.moment.decision % 3 == 0
            and table.moment.decision not in silent
        ):
            silent.add(table.moment.decision)  # nobody answers this one: it holds (once), then silence is camp
            decision = table.moment.decision
            now = run_clock(table, now, lambda t, d=decision: t.hold.paused is not None or t.moment.decision != d)
            continue
        if table.moment.phase == PLAYING and waiting and table.moment.decision not in silent:
            for pid in waiting[:-1]:
                now += 0.5
                choose(table, pid, DEEPER, now)
            now += 0.5
            choose(table, waiting[-1], CAMP, now)  # the last choice, a slip...
            if table.play.pending:  # (the call is on: the decision waits)
                now += 0.5
                choose(table, waiting[-1], DEEPER, now)  # ...changed within the call
                slips += 1
            continue
        wake = table.next_wakeup()
        assert wake is not None
        now = max(now, wake)
        table.tick(now)
    assert holds >= 2 and slips >= 3, (holds, slips)
    assert len(table.log.records) == 1 and rebuilt(table).log.records == table.log.records
    for record in table.log.records.values():
        game = replay(GameRecord.from_json(json.loads(json.dumps(record))))
        assert game.scores() == record["scores"] and game.winners() == record["winners"]
