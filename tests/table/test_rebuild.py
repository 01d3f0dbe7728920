"""A table rebuilt from its events is the same table: views, deadlines, pending choices, records."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import pytest

from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PAUSE, PLAYING, RESULTS, Table, TableError, table_view
from gemtable.table.table import GRACE

from ._helpers import (
    LONG_CAVE,
    assert_rebuilds,
    choose,
    finish_game,
    join,
    log,
    rebuilt,
    seat_table,
    snapshot,
    started,
)

SCRIPT = [["17", *LONG_CAVE]] * 5


def test_every_kind_of_event_rebuilds() -> None:
    """One long story through every event the table logs, rebuilt after each step."""
    table, pids = seat_table(8, script=SCRIPT)
    ann, bob, cy, hal = pids[0], pids[1], pids[2], pids[7]
    steps: list[tuple[float, Callable[[Table, float], Any]]] = [
        (0.5, lambda t, now: join(t, "Ivy", now)),  # a watcher
        (0.6, lambda t, now: t.leave(pids[6], now)),  # Ivy takes Gus's chair
        (0.7, lambda t, now: t.start(ann, 77, now)),
        (0.7, lambda t, now: t.tick(now)),
        (1.0, lambda t, now: join(t, "Jo", now)),  # watches
        (1.0, lambda t, now: t.disconnect(hal, now)),
        (2.0, lambda t, now: choose(t, ann, DEEPER, now)),
        (2.5, lambda t, now: choose(t, bob, CAMP, now)),
        (2.6, lambda t, now: choose(t, bob, DEEPER, now)),
        (3.0, lambda t, now: t.leave(cy, now)),  # camp at once; Jo takes the chair, waiting
        (10.7, lambda t, now: t.tick(now)),  # the deadline: silence is camp
        (11.0, lambda t, now: choose(t, ann, CAMP, now)),
        (11.0, lambda t, now: choose(t, bob, CAMP, now)),
        (30.0, lambda t, now: t.tick(now)),  # the cave ends; the pause runs; cave 2 opens
        (30.0, lambda t, now: t.tick(now + 10.0)),
        (45.0, lambda t, now: t.tick(now)),
        (60.0, lambda t, now: t.tick(now)),  # Hal gone for the whole of cave 2: away, unseated?
        (61.0, lambda t, now: t.connect(hal, now)),  # back
        (61.5, lambda t, now: t.leave(pids[4], now)),  # a chair frees, nobody queues for it
        (62.0, lambda t, now: t.add_bot(ann, "random", now)),  # the bot waits for the next cave
        (63.0, lambda t, now: t.tick(now)),
        (64.0, lambda t, now: t.remove_bot(ann, 4, now)),
        (65.0, lambda t, now: t.tick(now)),
    ]
    assert_rebuilds(table, 0.0)
    for now, step in steps:
        step(table, now)
        assert_rebuilds(table, now)
    end = finish_game(table, 65.0)
    assert_rebuilds(table, end)
    table.start(ann, 78, end + 1)
    table.tick(end + 1)
    assert_rebuilds(table, end + 1)
    kinds = {event["type"] for event in table.log.outbox}
    assert {"created", "joined", "seated", "left", "bot", "game", "round", "chose", "moves", "away", "back"} <= kinds


def test_a_rebuilt_decision_keeps_its_deadline_and_pending_choices() -> None:
    table, (ann, bob, cy) = started(3, now=100.0, seconds=9.0, script=SCRIPT)
    choose(table, ann, DEEPER, 103.0)
    choose(table, bob, CAMP, 104.0)
    copy_ = rebuilt(table)
    assert copy_.moment.deadline == table.moment.deadline == 109.0
    assert copy_.play.pending == table.play.pending and len(copy_.play.pending) == 2
    assert copy_.moment.decision == table.moment.decision and copy_.moment.opened_at == table.moment.opened_at
    for viewer in (ann, bob, cy, None):
        assert table_view(copy_, viewer, 105.5) == table_view(table, viewer, 105.5)
        assert table_view(copy_, viewer, 105.5)["remaining_ms"] == 3500
    # And both go on the same way.
    for t in (copy_, table):
        choose(t, cy, DEEPER, 106.0)
    assert snapshot(copy_, 106.0) == snapshot(table, 106.0)


def test_after_a_restart_everyone_counts_as_disconnected_since_the_restart() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=SCRIPT)
    choose(table, ann, DEEPER, 1.0)
    choose(table, bob, DEEPER, 1.0)
    restarted = Table.rebuild(log(table), now=2.0)
    assert restarted.runtime.connected == set()
    deadline = restarted.moment.deadline
    assert deadline is not None and deadline > 2.0 + GRACE
    # Every phone is gone, so nobody is held up by cy's silence: the clock decides, not the grace.
    restarted.tick(2.0 + GRACE)
    assert restarted.play.pending
    # A phone that comes back after the grace finds the others no longer waiting for cy.
    restarted.connect(ann, 2.0 + GRACE + 0.5)
    restarted.tick(2.0 + GRACE + 0.5)
    assert not restarted.play.pending
    seats = {pid: table.people[pid].seat for pid in (ann, bob, cy)}
    reveals = [e["moves"] for e in restarted.log.outbox if e["type"] == "moves"]
    assert reveals[0] == {str(seats[ann]): DEEPER, str(seats[bob]): DEEPER, str(seats[cy]): CAMP}


def test_after_a_restart_with_no_phone_back_the_deadline_reveals() -> None:
    table, (ann, bob, _cy) = started(3, seconds=10.0, script=SCRIPT)
    choose(table, ann, DEEPER, 1.0)
    restarted = Table.rebuild(log(table), now=2.0)
    deadline = restarted.moment.deadline
    assert deadline is not None
    restarted.tick(deadline - 0.01)
    assert restarted.play.pending
    restarted.tick(deadline)
    reveals = [e["moves"] for e in restarted.log.outbox if e["type"] == "moves"]
    assert reveals and reveals[0][str(table.people[ann].seat)] == DEEPER
    assert reveals[0][str(table.people[bob].seat)] == CAMP


def test_a_restart_in_the_pause_keeps_the_pause() -> None:
    table, _ = started(2, seconds=10.0, pause=6.0, script=SCRIPT)
    table.tick(10.0)
    assert table.moment.phase == PAUSE and table.moment.deadline == 16.0
    restarted = Table.rebuild(log(table), now=12.0)
    assert restarted.moment.phase == PAUSE and restarted.moment.deadline == 16.0
    assert restarted.next_wakeup() == 16.0


def test_a_rebuilt_table_keeps_its_results() -> None:
    table, (ann, _bob) = started(2, seed=3)
    end = finish_game(table, 0.0)
    copy_ = Table.rebuild(log(table), now=end + 100)
    assert copy_.moment.phase == RESULTS
    assert copy_.log.records == table.log.records
    copy_.start(ann, 4, end + 101)
    assert copy_.play.number == 2


def drive(table: Table, rng: random.Random, now: float) -> float:
    """A few random things happen, the same way on any table given the same ``rng``."""
    for _ in range(rng.randrange(1, 4)):
        people = sorted(p.id for p in table.people.values() if not p.is_bot)
        who = rng.choice(people)
        roll = rng.random()
        if roll < 0.5 and table.moment.phase == PLAYING:
            move = rng.choice([DEEPER, CAMP])
            with contextlib.suppress(TableError):  # not everyone is inside
                choose(table, who, move, now)
        elif roll < 0.6:
            table.disconnect(who, now)
        elif roll < 0.75:
            table.connect(who, now)
    now += rng.choice([0.2, 1.0, 3.0, 6.0])
    table.tick(now)
    return now


@pytest.mark.parametrize("seed", range(4))
def test_a_rebuilt_table_goes_on_exactly_as_the_original(seed: int) -> None:
    """Rebuilt halfway, then driven the same way, the copy logs the very same events, bots
    included: what a bot does is decided by the log, not by the history of one process."""
    table, pids = seat_table(3)
    table.add_bot(pids[0], "random", 0.0)
    table.add_bot(pids[0], "montecarlo" if seed == 0 else "odds", 0.0)
    table.start(pids[0], 1000 + seed, 0.0)
    table.tick(0.0)
    rng = random.Random(seed)
    now = 0.0
    for _ in range(15):
        now = drive(table, rng, now)
    copy_ = rebuilt(table)
    start = len(table.log.outbox)
    state = rng.getstate()
    now_a = now_b = now
    for _ in range(40):
        now_a = drive(table, rng, now_a)
    rng.setstate(state)
    for _ in range(40):
        now_b = drive(copy_, rng, now_b)
    assert copy_.log.outbox == table.log.outbox[start:]  # a rebuilt table's outbox holds only what is new
    assert snapshot(copy_, now_a) == snapshot(table, now_a)


def test_a_log_starts_with_the_creation() -> None:
    table, _ = seat_table(2)
    with pytest.raises(ValueError, match="starts with its creation"):
        Table.rebuild(log(table)[1:])
