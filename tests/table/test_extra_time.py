"""Per-person extra time (``extra_time.py``): the host gives one person ×2, ×3 or no clock per decision; the others
keep theirs.  When the table's clock ends, the others' silence is locked and the reveal waits for the people with
extra time (their choice, or their own clock); a pause keeps everyone's time left; a phone that is gone holds
nobody up; nobody but that person and the host is shown it; and a table rebuilt from its log is the same table."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gemtable.games import GameRecord, replay
from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PLAYING, RESULTS, Table, TableError, table_view
from gemtable.table.decisions import GRACE
from tools.oracles import view_problems

from ._helpers import LONG_CAVE, check_all, choose, finish_game, join, rebuilt, run_clock, seat_table, started

BAG = {"bag": [1, 5, 9, 13, 17, 21, 25, 29, 33], "first": 0}


def given(factors: dict[int, int], n: int = 3, **kwargs: Any) -> tuple[Table, list[int]]:
    """A table whose first decision is open, the host (the first) having given ``factors`` (by index) in the lobby."""
    table, pids = seat_table(n, **kwargs)
    for index, factor in factors.items():
        table.extra_time(pids[0], pids[index], factor, 0.0)
    table.start(pids[0], 7, 0.0)
    table.tick(0.0)
    return table, pids


def reveal(table: Table) -> Any:
    """What the last reveal showed everyone."""
    assert table.play.game is not None
    return table.play.game.view(None).to_json()["reveal"]


def opened(table: Table, now: float) -> float:
    """Run the clock to the next open decision (the next card after the reveal's pause); returns the time."""
    decision = table.moment.decision
    return run_clock(table, now, lambda t: t.moment.decision != decision and t.moment.phase == PLAYING)


def test_twice_the_clock_the_others_locked_at_theirs_and_the_reveal_waits_for_the_slow_one() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.extra_time(ann, bob, 2, 0.5)  # from the next decision: this one keeps its clocks
    assert table.people[bob].extra_time == 2 and table.play.overtime == {}
    now = opened(table, 0.5)
    start = table.moment.opened_at
    assert table.play.overtime == {1: start + 20.0} and table.moment.deadline == start + 10.0
    choose(table, ann, DEEPER, start + 2)
    decision = table.moment.decision
    # The table's clock ends: Bob (×2) is still choosing; Cy's silence is locked, Ann's choice stands.
    now = run_clock(table, start + 2, lambda t: t.play.locked)
    assert now == start + 10.0 and table.moment.decision == decision and table.moment.phase == PLAYING
    assert table.log.outbox[-1] == {"type": "overtime", "at": start + 10.0}
    with pytest.raises(TableError) as late:
        choose(table, cy, CAMP, start + 11)
    assert late.value.code == "stale"
    with pytest.raises(TableError):
        choose(table, ann, CAMP, start + 11)  # a choice made is locked too
    # Only Bob and the host are told; the clock everyone else sees has run out.
    assert table_view(table, bob, start + 12)["me"]["more_time"] == {"factor": 2, "own": True}
    assert table_view(table, bob, start + 12)["remaining_ms"] == 8000  # Bob's clock is his own
    assert table_view(table, ann, start + 12)["me"]["extra_time"] == {str(bob): 2}
    for viewer in (cy, None):
        shown = table_view(table, viewer, start + 12)
        assert shown["remaining_ms"] == 0 and '"factor"' not in json.dumps(shown)
        assert shown["me"] is None or (shown["me"]["more_time"] is None and shown["me"]["extra_time"] == {})
    assert table_view(table, cy, start + 12)["me"]["moves"] == []  # (Cy's phone offers no move that would be refused)
    assert table_view(table, bob, start + 12)["me"]["moves"] != []
    assert table.next_wakeup() == start + 20.0
    check_all(table, start + 12)  # (a rebuild is the same table: the lock is an event)
    choose(table, bob, DEEPER, start + 15)  # Bob chooses: the reveal, Cy timed out
    assert table.moment.decision != decision
    assert sorted(reveal(table)["deeper"]) == [0, 1]
    assert table.log.outbox[-1]["timed_out"] == [2] and table.log.outbox[-1]["at"] == start + 15
    check_all(table, start + 15)


def test_a_slow_one_silent_to_the_end_times_out_at_their_own_clock() -> None:
    table, (ann, bob, _cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.extra_time(ann, bob, 3, 0.0)
    start = opened(table, 0.0)
    choose(table, ann, DEEPER, start + 1)
    decision = table.moment.decision
    now = run_clock(table, start + 1, lambda t: t.moment.decision != decision)
    assert now == start + 30.0
    assert table.log.outbox[-1]["timed_out"] == [1, 2]


def test_no_clock_waits_for_them_and_nobody_else_is_held_past_their_clock() -> None:
    table, (ann, _bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.extra_time(ann, cy, 0, 0.0)
    start = opened(table, 0.0)
    assert table.play.overtime == {2: None}
    assert table_view(table, cy, start + 1)["me"]["more_time"] == {"factor": 0, "own": True}
    assert (
        table_view(table, cy, start + 1)["remaining_ms"] is None and table_view(table, ann, start + 1)["remaining_ms"]
    )
    choose(table, ann, DEEPER, start + 1)
    decision = table.moment.decision
    run_clock(table, start + 1, lambda t: t.play.locked)
    assert table.next_wakeup() is None  # nothing to do but wait for Cy
    table.tick(start + 500)
    assert table.moment.decision == decision
    choose(table, cy, DEEPER, start + 600)
    assert table.moment.decision != decision and table.log.outbox[-1]["timed_out"] == [1]
    check_all(table, start + 600)


def test_everyone_chose_in_time_reveals_at_once_and_the_change_counts_from_the_next_decision() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.extra_time(ann, bob, 2, 0.0)
    start = opened(table, 0.0)
    decision = table.moment.decision
    for pid in (ann, bob, cy):
        choose(table, pid, DEEPER, start + 1)
    assert table.moment.decision != decision  # no lock, no wait: nobody was still choosing
    assert not any(e["type"] == "overtime" for e in table.log.outbox)
    # The host takes the extra time back in the middle of a decision: this one keeps its clocks.
    start = opened(table, start + 1)
    table.extra_time(ann, bob, 1, start + 1)
    assert table.play.overtime == {1: start + 20.0}
    choose(table, ann, DEEPER, start + 2)
    choose(table, cy, DEEPER, start + 2)
    run_clock(table, start + 2, lambda t: t.play.locked)
    start = opened(table, start + 2)
    assert table.play.overtime == {} and table_view(table, bob, start)["me"]["more_time"] is None


def test_a_gone_phone_holds_nobody_up_extra_time_or_not() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.extra_time(ann, bob, 3, 0.0)
    start = opened(table, 0.0)
    table.disconnect(bob, start + 4.0)  # gone before the clock ends, for longer than the grace: as today
    choose(table, ann, DEEPER, start + 5)
    choose(table, cy, DEEPER, start + 5)
    decision = table.moment.decision
    now = run_clock(table, start + 5, lambda t: t.moment.decision != decision)
    assert now == start + 4.0 + GRACE and table.log.outbox[-1]["offline"] == [1]
    # Gone once the others' clock ended: the grace, not the extra time.
    table.connect(bob, now)
    start = opened(table, now)
    choose(table, ann, DEEPER, start + 1)
    choose(table, cy, DEEPER, start + 1)
    run_clock(table, start + 1, lambda t: t.play.locked)
    table.disconnect(bob, start + 12.0)
    decision = table.moment.decision
    now = run_clock(table, start + 12.0, lambda t: t.moment.decision != decision)
    assert now == start + 12.0 + GRACE
    assert table.log.outbox[-1]["timed_out"] == [1] and table.log.outbox[-1]["offline"] == [1]


def test_a_pause_keeps_each_clock_and_the_lock() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.extra_time(ann, bob, 2, 0.0)
    start = opened(table, 0.0)
    table.pause(ann, start + 4)  # before the table's clock ends: 6 s left for the others, 16 s for Bob
    assert table_view(table, bob, start + 5)["paused"]["remaining_ms"] == 16000
    assert table_view(table, cy, start + 5)["paused"]["remaining_ms"] == 6000
    assert rebuilt(table).hold.paused == table.hold.paused
    table.resume(ann, start + 50)
    assert table.moment.deadline == start + 56 and table.play.overtime == {1: start + 66}
    choose(table, ann, DEEPER, start + 51)
    run_clock(table, start + 51, lambda t: t.play.locked)
    table.pause(ann, start + 60)  # after: the others stay locked, Bob keeps his 6 s
    choose(table, bob, CAMP, start + 61)  # (a secret choice may be made while paused)
    choose(table, bob, DEEPER, start + 62)
    with pytest.raises(TableError):
        choose(table, cy, DEEPER, start + 62)
    assert table.hold.paused is not None and table.hold.paused.overtime == {1: 6.0} and table.play.locked
    for viewer in (None, cy, bob):  # paused, no clock runs: each stands at what it had left
        assert not view_problems(json.loads(json.dumps(table_view(table, viewer, start + 62))))
    assert table_view(table, cy, start + 62)["remaining_ms"] is None
    assert table_view(table, bob, start + 62)["paused"]["remaining_ms"] == 6000
    check_all(table, start + 62)
    table.resume(ann, start + 100)  # everyone with extra time has chosen: the reveal, at once
    assert table.log.outbox[-1]["type"] == "moves" and table.log.outbox[-1]["at"] == start + 100
    assert sorted(reveal(table)["deeper"]) == [0, 1]


def test_the_last_call_follows_the_slow_ones_last_choice_and_ends_with_their_clock() -> None:
    table, (ann, bob, _cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5, last_call=1.0)
    table.extra_time(ann, bob, 2, 0.0)
    start = opened(table, 0.0)
    choose(table, ann, DEEPER, start + 1)
    run_clock(table, start + 1, lambda t: t.play.locked)
    decision = table.moment.decision
    choose(table, bob, CAMP, start + 15)
    assert table.moment.decision == decision and table.next_wakeup() == start + 16
    choose(table, bob, DEEPER, start + 15.5)  # a slip, changed in the call
    assert table.next_wakeup() == start + 16.5
    now = run_clock(table, start + 15.5, lambda t: t.moment.decision != decision)
    assert now == start + 16.5 and sorted(reveal(table)["deeper"]) == [0, 1]
    start = opened(table, now)
    run_clock(table, start, lambda t: t.play.locked)
    decision = table.moment.decision
    choose(table, bob, DEEPER, start + 19.8)
    now = run_clock(table, start + 19.8, lambda t: t.moment.decision != decision)
    assert now == start + 20.0  # the call ends with Bob's own clock


def test_a_decision_nobody_answered_holds_at_the_reveal_and_gives_everyone_their_whole_clocks() -> None:
    table, (_ann, _bob, cy) = given({1: 2}, seconds=10.0, script=[LONG_CAVE] * 5, hold_silent=True)
    now = run_clock(table, 0.0, lambda t: t.hold.paused is not None)
    assert now == 20.0 and table.log.outbox[-2]["type"] == "overtime"  # the hold comes at the reveal
    assert table.hold.paused is not None and table.hold.paused.silent and table.hold.paused.overtime == {1: 20.0}
    assert rebuilt(table).hold.paused == table.hold.paused
    table.resume(cy, 30.0)  # (any player lifts a hold)
    assert not table.play.locked and table.moment.deadline == 40.0 and table.play.overtime == {1: 50.0}
    choose(table, cy, DEEPER, 35.0)  # Cy's silence is open again: the whole clock is back
    check_all(table, 35.0)


def test_the_clock_off_has_no_own_clocks() -> None:
    table, (_ann, bob, _cy) = given({1: 3}, seconds=10.0, script=[LONG_CAVE] * 5, turn_clock=False)
    assert table.play.overtime == {} and table.moment.deadline is None
    assert table_view(table, bob, 30.0)["me"]["more_time"] == {"factor": 3, "own": False}


def test_a_turn_of_booty_hunter_gets_its_players_own_clock() -> None:
    table, (ann, _bob, cy) = started(3, game="booty", script=BAG, seconds=10.0)
    table.extra_time(ann, ann, 2, 0.0)  # the host may give themself more time too
    table.extra_time(ann, cy, 0, 0.0)
    # Ann's first turn opened before: 10 s.  Bob's: 10 s; Cy's: no clock; Ann's next: 20 s.
    now = run_clock(table, 0.0, lambda t: t.play.moves_made == 2)
    assert now == 20.0 and table.play.overtime == {2: None}
    assert table.next_wakeup() == 30.0
    now = run_clock(table, now, lambda t: t.play.locked)
    assert now == 30.0 and table.next_wakeup() is None  # Cy has all the time they need
    assert table_view(table, ann, now)["remaining_ms"] == 0
    game = table.play.game
    assert game is not None
    table.choose(cy, game.legal_moves(2)[0], 75.0, table.moment.decision)
    assert table.play.moves_made == 3 and table.play.overtime == {0: 75.0 + 20.0}
    now = run_clock(table, 75.0, lambda t: t.play.moves_made == 4)
    assert now == 95.0 and table.log.outbox[-1]["missed"] == [0]
    assert [e["type"] for e in table.log.outbox[-2:]] == ["overtime", "moves"]
    check_all(table, now)


def test_the_host_alone_gives_it_to_someone_here_and_a_refusal_changes_nothing() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    before = len(table.log.outbox)
    cases: list[tuple[int, object, object, str]] = [
        (bob, cy, 2, "not-host"),
        (999, cy, 2, "unknown-person"),
        (ann, 999, 2, "not-found"),
        (ann, "2", 2, "not-found"),
        (ann, True, 2, "not-found"),
        (ann, None, 2, "not-found"),
        (ann, bob, 4, "bad-request"),
        (ann, bob, -1, "bad-request"),
        (ann, bob, True, "bad-request"),
        (ann, bob, 2.0, "bad-request"),
        (ann, bob, "2", "bad-request"),
        (ann, bob, None, "bad-request"),
    ]
    for pid, target, factor, code in cases:
        with pytest.raises(TableError) as refused:
            table.extra_time(pid, target, factor, 1.0)
        assert refused.value.code == code, (target, factor)
    assert len(table.log.outbox) == before
    table.extra_time(ann, bob, 1, 1.0)  # as everyone already: nothing to log
    assert len(table.log.outbox) == before


def test_a_bot_needs_none_and_a_watcher_may_have_it() -> None:
    table, (ann, _bob) = started(2, seconds=10.0, script=[LONG_CAVE] * 5)
    table.add_bot(ann, "cautious", 0.5)
    bot = max(table.people)
    with pytest.raises(TableError) as refused:
        table.extra_time(ann, bot, 2, 1.0)
    assert refused.value.code == "is-bot"


def test_it_lasts_across_games_and_leaves_with_the_person() -> None:
    table, (ann, bob, _cy) = started(3, seconds=2.0, script=[["1", "fire", "fire"]] * 5)
    table.extra_time(ann, bob, 2, 0.0)
    end = finish_game(table, 0.0)
    table.start(ann, 8, end + 1)
    table.tick(end + 1)
    assert table.moment.phase == PLAYING and table.people[bob].extra_time == 2
    assert table.play.overtime == {table.people[bob].seat: end + 1 + 4.0}
    end = finish_game(table, end + 1)
    record = table.log.records[2]
    game = replay(GameRecord.from_json(json.loads(json.dumps(record))))  # the record replays exactly
    assert game.is_over() and game.scores() == record["scores"] and game.record().inputs == record["inputs"]
    assert "extra_time" not in json.dumps(record) and "overtime" not in json.dumps(record)
    table.leave(bob, end + 2)
    assert table_view(table, ann, end + 3)["me"]["extra_time"] == {}
    dee = join(table, "Bob", end + 4)  # the same name, a new person: as everyone
    assert table.people[dee].extra_time == 1
    assert table.moment.phase == RESULTS
    check_all(table, end + 4)


def test_a_record_with_extra_time_rebuilds_and_replays_to_the_same_end() -> None:
    table, (ann, bob, cy) = given({1: 2, 2: 0}, seconds=10.0, script=[["2", "1", "fire", "fire"]] * 5)
    late = {ann: 1.0, bob: 14.0, cy: 30.0}  # Ann in time, Bob past the others' clock, Cy far past it
    moves = [DEEPER, DEEPER, CAMP]
    now, turn = 0.0, 0
    while table.moment.phase != RESULTS:
        game = table.play.game
        assert game is not None
        if table.moment.phase == PLAYING and table.hold.paused is None:
            waiting = [p for p in (ann, bob, cy) if table.people[p].seat in game.to_act()]
            waiting = [p for p in waiting if table.people[p].seat not in table.play.pending]
            if waiting:
                pid = min(waiting, key=late.__getitem__)
                at = max(now, table.moment.opened_at + late[pid])
                if (wake := table.next_wakeup()) is None or wake > at:
                    now = at
                    choose(table, pid, moves[turn % 3], now)
                    turn += 1
                    continue
        wake = table.next_wakeup()
        assert wake is not None
        now = max(now, wake)
        table.tick(now)
    kinds = [e["type"] for e in table.log.outbox]
    assert "overtime" in kinds and turn > 6
    assert rebuilt(table).log.records == table.log.records
    record = table.log.records[1]
    game = replay(GameRecord.from_json(json.loads(json.dumps(record))))
    assert game.scores() == record["scores"] and game.winners() == record["winners"]
    check_all(table, now)
