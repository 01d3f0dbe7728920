"""The ready check (``Settings.ready_check``): the host's start (and Play again) waits for every seated player to
say they are ready (bots are); the countdown begins once all are, or when the host starts anyway; the TV and the
phones see who is not ready yet."""

from __future__ import annotations

import pytest

from gemtable.table import LOBBY, PLAYING, TableError, table_view

from ._helpers import rebuilt, seat_table


def test_the_start_waits_for_everyone_ready_and_the_host_may_insist() -> None:
    table, (ann, bob, cy) = seat_table(3, countdown=5.0)
    table.settings.ready_check = True
    table.add_bot(ann, "cautious", 0.0)
    table.start(ann, 7, 2.0)  # the host who starts is ready
    assert table.hold.countdown is None and table.hold.readying is not None and table.moment.phase == LOBBY
    view = table_view(table, None, 2.5)
    assert view["readying"] == {"by": ann, "name": "Ann"}
    assert {p["name"]: p["ready"] for p in view["people"]} == {"Ann": True, "Bob": False, "Cy": False, "Ada": True}
    table.ready(bob, True, 3.0)
    table.tick(3.0)
    assert table.hold.countdown is None  # Cy still not ready
    assert rebuilt(table).hold.readying == table.hold.readying  # a restart keeps the check
    table.ready(cy, True, 4.0)
    table.tick(4.0)
    assert table.hold.countdown is not None and table.hold.countdown.ends == 9.0 and table.hold.readying is None
    table.tick(9.0)
    assert table.moment.phase == PLAYING and table.play.seed == 7
    assert not any(p.ready for p in table.people.values())  # a new game: ready again next time


def test_the_host_starts_anyway_or_cancels_and_refusals_are_clear() -> None:
    table, (ann, bob) = seat_table(2, countdown=0.0)
    table.settings.ready_check = True
    table.start(ann, 3, 1.0)
    assert table.hold.readying is not None
    table.cancel_start(ann, 2.0)
    assert table.hold.readying is None and table.moment.phase == LOBBY
    table.start(ann, 4, 3.0)
    table.start(ann, 5, 4.0)  # again: anyway (the seed the check was made with)
    assert table.moment.phase == PLAYING and table.play.seed == 4
    for bad, code in (
        (lambda: table.ready(bob, True, 5.0), "in-game"),
        (lambda: table.ready(bob, "yes", 5.0), "bad-request"),
    ):
        with pytest.raises(TableError) as refused:
            bad()
        assert refused.value.code == code


def test_without_the_check_a_start_counts_down_at_once() -> None:
    table, (ann, _bob) = seat_table(2, countdown=5.0)
    table.start(ann, 3, 1.0)
    assert table.hold.countdown is not None and table.hold.readying is None
