"""The table's clock: deadlines, silence, early reveals, changing a choice, pauses, bots and wake-ups."""

from __future__ import annotations

from typing import Any

import pytest

from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import LOBBY, PAUSE, PLAYING, RESULTS, Table, TableError, table_view
from gemtable.table.table import BOT_DELAY, GRACE

from ._helpers import (
    LONG_CAVE,
    check_all,
    choose,
    choose_all,
    finish_game,
    inside,
    join,
    seat_table,
    started,
)

SCRIPT = [LONG_CAVE] * 5


def engine(table: Table) -> Any:
    assert table.play.game is not None
    return table.play.game


def test_the_first_deadline_is_the_start_plus_the_seconds() -> None:
    table, _ = started(3, now=10.0, seconds=7.0)
    assert table.moment.phase == PLAYING
    assert table.moment.deadline == 17.0
    assert table.next_wakeup() == 17.0
    assert table_view(table, None, 12.5)["remaining_ms"] == 4500
    assert table_view(table, None, 20.0)["remaining_ms"] == 0


def test_each_deadline_is_the_reveal_plus_the_seconds() -> None:
    table, (ann, bob, cy) = started(3, now=0.0, seconds=7.0, script=SCRIPT)
    choose_all(table, {ann: DEEPER, bob: DEEPER, cy: DEEPER}, 3.25)
    assert table.moment.phase == PLAYING
    assert table.moment.deadline == 10.25
    assert table.moment.opened_at == 3.25
    check_all(table, 3.25)


def test_silence_counts_as_camp_at_the_deadline() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose(table, ann, DEEPER, 1.0)
    decision = table.moment.decision
    table.tick(9.99)
    assert table.moment.decision == decision and table.moment.phase == PLAYING
    assert table_view(table, None, 9.99)["state"]["reveal"] is None
    table.tick(10.0)
    reveal = table_view(table, None, 10.0)["state"]["reveal"]
    seats = {pid: table.people[pid].seat for pid in (ann, bob, cy)}
    assert reveal["deeper"] == [seats[ann]]
    assert reveal["leavers"] == sorted(seat for seat in (seats[bob], seats[cy]) if seat is not None)
    assert inside(table) == {ann}
    assert table.moment.deadline == 20.0
    check_all(table, 10.0)


def test_the_view_names_the_seats_the_clock_moved_only_after_the_reveal() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose(table, ann, DEEPER, 1.0)
    choose(table, bob, CAMP, 2.0)
    assert table_view(table, None, 9.0)["timed_out"] == []  # nothing is revealed yet
    table.tick(10.0)
    seats = {pid: table.people[pid].seat for pid in (ann, bob, cy)}
    for pid in (None, ann, bob, cy):
        assert table_view(table, pid, 10.0)["timed_out"] == [seats[cy]]  # Bob chose camp himself
    choose(table, ann, DEEPER, 11.0)  # the next reveal: nobody was late
    assert table_view(table, None, 11.0)["timed_out"] == []
    check_all(table, 11.0)


def test_everyone_silent_ends_the_cave_at_the_deadline() -> None:
    table, _ = started(3, seconds=10.0, pause=6.0, script=SCRIPT)
    table.tick(10.0)
    assert table.moment.phase == PAUSE
    assert table.moment.deadline == 16.0
    reveal = table_view(table, None, 10.0)["state"]["reveal"]
    assert reveal["deeper"] == [] and len(reveal["leavers"]) == 3


def test_the_reveal_comes_as_soon_as_everyone_has_chosen() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose(table, ann, DEEPER, 1.0)
    choose(table, bob, CAMP, 2.0)
    decision = table.moment.decision
    assert table.play.pending
    choose(table, cy, DEEPER, 3.0)
    assert table.moment.decision == decision + 1
    assert table.play.pending == {}
    assert inside(table) == {ann, cy}
    assert table.moment.deadline == 13.0


def test_who_has_chosen_is_public_but_not_what() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose(table, ann, DEEPER, 1.0)
    for viewer in (ann, bob, cy, None):
        view = table_view(table, viewer, 1.0)
        chosen = {p["id"]: p["chosen"] for p in view["people"]}
        assert chosen == {ann: True, bob: False, cy: False}
        assert all(p["to_act"] for p in view["people"])
        if viewer is not None:
            assert view["me"]["choice"] == (DEEPER if viewer == ann else None)
    check_all(table, 1.0)


def test_a_choice_can_change_until_the_reveal() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose(table, ann, DEEPER, 1.0)
    choose(table, ann, CAMP, 2.0)
    choose(table, ann, DEEPER, 3.0)
    events = table.log.events
    choose(table, ann, DEEPER, 3.5)  # the same choice again: nothing new to say
    assert table.log.events == events
    assert table_view(table, ann, 4.0)["me"]["choice"] == DEEPER
    choose(table, bob, CAMP, 4.0)
    choose(table, ann, CAMP, 5.0)  # still open: cy has not chosen
    choose(table, cy, DEEPER, 6.0)
    reveal = table_view(table, None, 6.0)["state"]["reveal"]
    assert table.people[ann].seat in reveal["leavers"]
    assert inside(table) == {cy}
    # The answer to the revealed decision is too late.
    with pytest.raises(TableError) as err:
        table.choose(cy, CAMP, 6.5, table.moment.decision - 1)
    assert err.value.code == "stale"
    check_all(table, 6.5)


def test_a_choice_outside_a_decision_is_refused() -> None:
    table, (ann, bob) = seat_table(2)
    with pytest.raises(TableError) as err:
        table.choose(ann, DEEPER, 1.0)
    assert err.value.code == "no-decision"
    table.start(ann, 1, 1.0)
    with pytest.raises(TableError) as bad:
        table.choose(bob, "sideways", 1.0)
    assert bad.value.code == "illegal-move"
    with pytest.raises(TableError) as bad_type:
        table.choose(bob, ["deeper"], 1.0)  # type: ignore[arg-type]
    assert bad_type.value.code == "illegal-move"


def test_a_disconnected_player_holds_the_reveal_only_for_the_grace() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    table.disconnect(cy, 1.0)
    choose(table, ann, DEEPER, 2.0)
    choose(table, bob, DEEPER, 2.0)
    assert table.play.pending and table.moment.phase == PLAYING  # within the grace: cy might be back
    assert table.next_wakeup() == 1.0 + GRACE
    table.tick(1.0 + GRACE - 0.01)
    assert table.play.pending
    table.tick(1.0 + GRACE)
    assert not table.play.pending
    reveal = table_view(table, None, 6.0)["state"]["reveal"]
    assert reveal["leavers"] == [table.people[cy].seat]  # silence is camp
    assert table.moment.deadline == 1.0 + GRACE + 10.0
    check_all(table, 1.0 + GRACE)


def test_a_disconnected_player_past_the_grace_does_not_hold_a_reveal() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    table.disconnect(cy, 0.5)
    table.tick(7.0)
    choose(table, ann, DEEPER, 7.0)
    assert table.play.pending  # bob still to choose, and he is connected
    choose(table, bob, DEEPER, 8.0)
    assert not table.play.pending and inside(table) == {ann, bob}


def test_a_disconnected_player_who_has_chosen_holds_nothing() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose(table, cy, DEEPER, 0.5)
    table.disconnect(cy, 1.0)
    choose_all(table, {ann: DEEPER, bob: DEEPER}, 1.5)
    assert not table.play.pending and inside(table) == {ann, bob, cy}


def test_coming_back_within_the_grace_holds_the_reveal_again() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    table.disconnect(cy, 1.0)
    table.connect(cy, 3.0)
    choose_all(table, {ann: DEEPER, bob: DEEPER}, 4.0)
    table.tick(9.0)
    assert table.play.pending  # cy is connected: the deadline decides
    table.tick(10.0)
    assert not table.play.pending


def test_the_pause_between_caves_and_the_next_cave() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, pause=4.0, script=SCRIPT)
    assert table.play.game is not None
    choose_all(table, {ann: CAMP, bob: CAMP, cy: CAMP}, 3.0)
    assert table.moment.phase == PAUSE
    assert table.moment.deadline == 7.0 and table.next_wakeup() == 7.0
    view = table_view(table, bob, 5.0)
    assert view["phase"] == PAUSE and view["remaining_ms"] == 2000
    assert view["me"]["moves"] == []
    with pytest.raises(TableError) as err:
        choose(table, ann, DEEPER, 5.0)
    assert err.value.code == "no-decision"
    table.tick(6.99)
    assert table.moment.phase == PAUSE and engine(table).cave == 1
    table.tick(7.0)
    assert table.moment.phase == PLAYING and engine(table).cave == 2
    assert table.moment.opened_at == 7.0 and table.moment.deadline == 17.0
    assert inside(table) == {ann, bob, cy}
    check_all(table, 7.0)


def test_a_late_tick_opens_the_cave_when_it_runs() -> None:
    table, _ = started(2, pause=4.0, script=SCRIPT)
    table.tick(10.0)
    assert table.moment.phase == PAUSE and table.moment.deadline == 14.0
    table.tick(30.0)  # the server was busy: the cave opens now, with a full decision ahead
    assert table.moment.phase == PLAYING and table.moment.deadline == 40.0


def test_bots_choose_at_once() -> None:
    table, (ann, _bob) = seat_table(2, script=SCRIPT)
    table.add_bot(ann, "cautious", 0.0)
    table.add_bot(ann, "random", 0.0)
    table.start(ann, 3, 1.0)
    bots = [p for p in table.people.values() if p.is_bot]
    assert table.next_wakeup() == 1.0  # the bots' turn is now
    table.tick(1.0)
    assert {table.people[b.id].seat for b in bots} <= set(table.play.pending)
    assert table.log.events == len(table.log.outbox)
    view = table_view(table, ann, 1.0)
    assert all(p["chosen"] for p in view["people"] if p["bot"])
    assert table.next_wakeup() == 11.0
    check_all(table, 1.0)


def test_people_and_bots_reveal_as_soon_as_the_people_have_chosen() -> None:
    table, (ann, bob) = seat_table(2, script=SCRIPT)
    table.add_bot(ann, "cautious", 0.0)
    table.start(ann, 3, 1.0)
    table.tick(1.0)
    choose_all(table, {ann: DEEPER, bob: DEEPER}, 1.2)
    assert not table.play.pending and table.moment.opened_at == 1.2


def test_bots_alone_in_a_cave_go_at_bot_pace() -> None:
    table, (ann, bob) = seat_table(2, script=SCRIPT)
    table.add_bot(ann, "cautious", 0.0)  # goes deeper until it carries 8 gems
    table.start(ann, 3, 1.0)
    table.tick(1.0)
    choose_all(table, {ann: CAMP, bob: CAMP}, 2.0)
    table.tick(2.0)  # the bot chooses at once, but is alone: the reveal waits
    assert table.moment.phase == PLAYING and inside(table) == {3}
    assert table.play.pending and table.next_wakeup() == 2.0 + BOT_DELAY
    table.tick(2.0 + BOT_DELAY - 0.01)
    assert table.play.pending
    decision = table.moment.decision
    table.tick(2.0 + BOT_DELAY)
    assert table.moment.decision == decision + 1 and table.moment.opened_at == 2.0 + BOT_DELAY
    # Every reveal after that is one BOT_DELAY apart, until the bot walks out.
    times = []
    now = 2.0 + BOT_DELAY
    while table.moment.phase == PLAYING:
        wake = table.next_wakeup()
        assert wake is not None
        now = wake
        table.tick(now)
        times.append(now)
    assert table.moment.phase == PAUSE
    steps = [round(b - a, 9) for a, b in zip([2.0 + BOT_DELAY, *times], times, strict=False)]
    assert steps and all(step == BOT_DELAY for step in steps)
    check_all(table, now)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_game_ends_when_everyone_stays_silent(n: int) -> None:
    table, _ = started(n, seconds=10.0, pause=6.0)
    assert table.play.game is not None
    end = finish_game(table, 0.0)
    assert table.moment.phase == RESULTS
    assert engine(table).cave == 5
    # Everyone camps at every first deadline: five caves of one decision, four pauses.
    assert end == 5 * 10.0 + 4 * 6.0
    assert table.moment.deadline is None and table.next_wakeup() is None
    check_all(table, end)


def test_next_wakeup_is_nothing_in_the_lobby_and_at_the_results() -> None:
    table, (ann, _bob) = seat_table(2)
    assert table.moment.phase == LOBBY and table.next_wakeup() is None
    table.add_bot(ann, "odds", 0.0)
    assert table.next_wakeup() is None
    table.tick(100.0)
    assert table.log.events == len(table.log.outbox) and table.moment.phase == LOBBY


def test_next_wakeup_is_the_earliest_thing_to_do() -> None:
    table, (_ann, bob, cy) = started(3, seconds=10.0, script=SCRIPT)
    assert table.next_wakeup() == 10.0
    table.disconnect(cy, 2.0)
    assert table.next_wakeup() == 2.0 + GRACE
    table.disconnect(bob, 1.0)
    assert table.next_wakeup() == 1.0 + GRACE
    table.connect(bob, 3.0)
    assert table.next_wakeup() == 2.0 + GRACE


def test_after_a_tick_nothing_is_due_until_the_next_wakeup() -> None:
    """Whatever ``next_wakeup`` says is in the future once the clock has caught up, so a server
    that sleeps until then never spins; and ticking before it changes nothing."""
    table, (ann, bob, cy) = started(3, seconds=10.0, script=SCRIPT)
    table.disconnect(cy, 1.0)
    choose(table, ann, DEEPER, 1.5)
    now = 1.0 + GRACE + 0.5  # past cy's grace: cy holds nothing, bob still does
    table.tick(now)
    assert table.play.pending == {table.people[ann].seat: DEEPER}
    wake = table.next_wakeup()
    assert wake is not None and wake > now
    assert wake == 10.0
    events = table.log.events
    table.tick((now + wake) / 2)
    assert table.log.events == events
    choose(table, bob, DEEPER, 8.0)  # bob chooses: cy, past the grace, is silent
    assert not table.play.pending
    assert inside(table) == {ann, bob}


def test_a_player_who_never_connects_is_silent_only_at_the_deadline() -> None:
    table, _ = seat_table(["Ann", "Bob"], script=SCRIPT)
    cy = join(table, "Cy", 0.0, connect=False)
    table.start(table.host_role.holder or 0, 1, 0.0)
    ann, bob = sorted(p for p in table.people if p != cy)
    choose_all(table, {ann: DEEPER, bob: DEEPER}, 1.0)
    table.tick(9.0)
    assert table.play.pending
    table.tick(10.0)
    assert not table.play.pending
