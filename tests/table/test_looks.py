"""A person keeps their colour and mark (``Person.look``) across the games of a table, however the seats of
the next game are dealt; a newcomer takes the first look nobody at the table has."""

from __future__ import annotations

from gemtable.games.expedition import CAMP
from gemtable.table import RESULTS, table_view

from ._helpers import choose, join, rebuilt, run_clock, started


def test_a_person_keeps_their_look_across_games_and_a_newcomer_takes_a_free_one() -> None:
    table, (ann, bob, cy) = started(3, seconds=5.0, script=[["1", "snakes", "snakes"]] * 5, hold_silent=False)
    looks = {pid: table.people[pid].look for pid in (ann, bob, cy)}
    assert sorted(look or 0 for look in looks.values()) == [0, 1, 2] and None not in looks.values()
    seats = {pid: table.people[pid].seat for pid in (ann, bob, cy)}
    assert all(looks[pid] == seats[pid] for pid in looks)  # the first game: each look is the seat's own
    view = table_view(table, ann, 1.0)
    assert {p["id"]: p["look"] for p in view["people"]} == looks
    for pid in (ann, bob, cy):
        choose(table, pid, CAMP, 1.0)
    now = run_clock(table, 1.0, lambda t: t.moment.phase == RESULTS)
    record = table.log.records[1]
    assert record["looks"] == {str(seats[pid]): looks[pid] for pid in looks}
    # Ann leaves: the next game deals the seats again (Bob's is 0 now), and Bob and Cy keep their looks.
    table.leave(ann, now + 1)
    table.start(bob, 8, now + 3)
    table.tick(now + 3)
    assert table.people[bob].seat == 0 and table.people[bob].look == looks[bob] == 1
    assert table.people[cy].seat == 1 and table.people[cy].look == looks[cy] == 2
    # Dee comes in the middle of it: she takes Ann's free look.
    dee = join(table, "Dee", now + 4)
    assert table.people[dee].look == looks[ann] == 0
    # A restart deals the same looks (they come from the events).
    again = rebuilt(table)
    assert {pid: p.look for pid, p in again.people.items()} == {pid: p.look for pid, p in table.people.items()}
