"""The host switches the game at the same table between games (``settings`` with ``game``): same code, same
people (and their looks), the lobby of the new game; bots leave (each game has its own); people beyond the new
game's chairs watch, in the order they came; the records of the games played stay."""

from __future__ import annotations

import pytest

from gemtable.games.expedition import CAMP
from gemtable.table import LOBBY, RESULTS, Status, TableError, table_view

from ._helpers import choose, rebuilt, run_clock, started


def test_the_host_switches_from_the_expedition_to_booty_hunter_and_back() -> None:
    table, pids = started(5, seconds=5.0, script=[["1", "snakes", "snakes"]] * 5)
    ann, bob, cy, dee, eve = pids
    table.add_bot(ann, "cautious", 0.5)
    looks = {pid: table.people[pid].look for pid in pids}
    with pytest.raises(TableError) as refused:
        table.change_settings(ann, {"game": "booty"}, 1.0)
    assert refused.value.code == "in-game"
    for pid in pids:
        choose(table, pid, CAMP, 1.0)
    now = run_clock(table, 1.0, lambda t: t.phase == RESULTS)
    with pytest.raises(TableError):
        table.change_settings(ann, {"game": "chess"}, now)
    table.change_settings(ann, {"game": "booty"}, now + 1)
    assert table.settings.game == "booty" and table.kind.name == "booty" and table.phase == LOBBY
    assert table.game is None and table.play.number == 1 and table.log.finished == [1]
    assert table.settings.seconds == table.manifest.clock.default and table.settings.script is None
    # Three chairs: Ann, Bob and Cy keep theirs; Dee and Eve watch, in the order they came; the bot left.
    assert [table.people[pid].chair for pid in (ann, bob, cy)] == [0, 1, 2]
    assert [p.id for p in table.queue()] == [dee, eve]
    assert all(p.status == Status.GONE for p in table.people.values() if p.is_bot)
    assert {pid: table.people[pid].look for pid in pids} == looks
    view = table_view(table, dee, now + 2)
    assert view["game"] == "booty" and view["chairs"] == 3 and view["me"]["chair"] is None
    # A restart rebuilds the same table: the switch is an event.
    again = rebuilt(table)
    assert again.kind.name == "booty" and [p.id for p in again.queue()] == [dee, eve]
    # Booty Hunter is played at the same table, and back to the expedition, the watchers sit down again.
    table.start(ann, 3, now + 3)
    table.tick(now + 3)
    assert table.in_game() and table.play.number == 2
    table.end(ann, now + 4)
    table.change_settings(ann, {"game": "expedition", "seconds": 15}, now + 5)
    assert table.kind.name == "expedition" and table.settings.seconds == 15.0
    assert sorted(table.people[pid].chair or 0 for pid in pids) == [0, 1, 2, 3, 4]
    assert table.log.finished == [1, 2]
