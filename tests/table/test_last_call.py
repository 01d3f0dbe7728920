"""The last call (``Settings.last_call``): after the last choice of a simultaneous decision the reveal waits a
moment, during which anyone may still change their choice; a change starts it again; the records are unchanged
by it (a reveal holds the choices as they stood)."""

from __future__ import annotations

from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PLAYING, table_view

from ._helpers import LONG_CAVE, choose, rebuilt, run_clock, started


def test_the_last_choice_can_be_changed_until_the_last_call_ends() -> None:
    table, (ann, bob) = started(2, seconds=10.0, script=[LONG_CAVE] * 5, last_call=1.0)
    decision = table.decision
    choose(table, ann, DEEPER, 2.0)
    choose(table, bob, CAMP, 3.0)  # the last choice: a slip
    assert table.decision == decision and table.phase == PLAYING  # not revealed yet
    assert table.next_wakeup() == 4.0
    assert all(p["chosen"] for p in table_view(table, ann, 3.5)["people"] if p["to_act"])
    choose(table, bob, DEEPER, 3.6)  # changed in time: the call starts again
    assert table.next_wakeup() == 4.6
    table.tick(4.0)
    assert table.decision == decision  # still the call
    # A restart in the middle of the call keeps it (it is computed from the events' times).
    assert rebuilt(table).next_wakeup() == 4.6
    now = run_clock(table, 4.0, lambda t: t.decision != decision)
    assert now == 4.6 and table.game is not None
    reveal = table.game.view(None).to_json()["reveal"]
    assert reveal["leavers"] == [] and sorted(reveal["deeper"]) == [0, 1]


def test_the_deadline_ends_a_last_call_and_none_without_people_or_setting() -> None:
    table, (ann, bob) = started(2, seconds=10.0, script=[LONG_CAVE] * 5, last_call=3.0)
    decision = table.decision
    choose(table, ann, CAMP, 8.0)
    choose(table, bob, CAMP, 9.5)
    now = run_clock(table, 9.5, lambda t: t.decision != decision)
    assert now == 10.0  # the decision's clock does not grow
    other, (cy, dee) = started(2, seconds=10.0, script=[LONG_CAVE] * 5)  # no last call set: at once
    decision = other.decision
    choose(other, cy, DEEPER, 1.0)
    choose(other, dee, DEEPER, 2.0)
    assert other.decision != decision
