"""The expedition's decision clock, switched off or made long (issue 23 §3, WCAG 2.2.1): with no clock a card
waits for everyone whose phone is here, and a phone gone for the absence grace counts as walking back to camp
(nobody waits on a flat battery)."""

from __future__ import annotations

from gemtable.games import find_manifest
from gemtable.games.expedition import DEEPER
from gemtable.table import PLAYING, table_view
from gemtable.table.settings import ABSENT_GRACE, SECONDS, revised
from gemtable.table.table import GRACE

from ._helpers import LONG_CAVE, assert_rebuilds, check_all, choose, choose_all, started

SCRIPT = [LONG_CAVE] * 5


def test_with_no_clock_a_card_waits_for_everyone_connected_however_long() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT, turn_clock=False)
    assert table.moment.phase == PLAYING and table.moment.deadline is None
    assert table_view(table, ann, 5.0)["remaining_ms"] is None
    choose_all(table, {ann: DEEPER, bob: DEEPER}, 2.0)
    decision = table.moment.decision
    for now in (10.0, 100.0, 10_000.0):  # ten seconds, then a thousand times that: cy is here, thinking
        table.tick(now)
        assert table.moment.decision == decision and table.play.pending
    assert table.next_wakeup() is None  # nothing is due: only cy's choice moves the game
    choose(table, cy, DEEPER, 10_001.0)
    assert table.moment.decision == decision + 1 and table.moment.deadline is None
    check_all(table, 10_001.0)
    assert_rebuilds(table, 10_001.0)


def test_with_no_clock_a_gone_phone_holds_the_card_for_the_absence_grace_then_walks_out() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT, turn_clock=False)
    table.disconnect(cy, 1.0)
    choose_all(table, {ann: DEEPER, bob: DEEPER}, 2.0)
    assert table.next_wakeup() == 1.0 + ABSENT_GRACE
    table.tick(1.0 + GRACE + 1.0)  # past the clock's short grace: with no clock a locked phone still holds
    assert table.play.pending
    table.tick(1.0 + ABSENT_GRACE)
    assert not table.play.pending
    reveal = table_view(table, ann, 1.0 + ABSENT_GRACE)["state"]["reveal"]
    assert reveal["leavers"] == [table.people[cy].seat]  # silence is camp, with what cy carried
    assert table.moment.deadline is None
    check_all(table, 1.0 + ABSENT_GRACE)


def test_with_no_clock_a_phone_back_within_the_grace_holds_the_card_again() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT, turn_clock=False)
    table.disconnect(cy, 1.0)
    table.connect(cy, 30.0)
    choose_all(table, {ann: DEEPER, bob: DEEPER}, 31.0)
    table.tick(1.0 + ABSENT_GRACE + 100.0)
    assert table.play.pending  # cy is here again: the card waits
    choose(table, cy, DEEPER, 200.0)
    assert not table.play.pending


def test_the_clock_on_is_unchanged_and_a_long_clock_is_ten_times_the_default() -> None:
    table, _ = started(3, script=SCRIPT)
    assert table.moment.deadline == 10.0
    clock = find_manifest("expedition").clock
    assert max(clock.choices) >= 10 * clock.default and max(clock.choices) <= SECONDS[1]
    table, _ = started(3, script=SCRIPT, seconds=float(max(clock.choices)))
    assert table.moment.deadline == 100.0


def test_the_host_switches_the_clock_off_between_games() -> None:
    table, _ = started(3, script=SCRIPT)
    off = revised(table.settings, {"turn_clock": False})
    assert off.turn_clock is False and off.seconds == table.settings.seconds
