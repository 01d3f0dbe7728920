"""Turn-based tables (Booty Hunter), a host who goes away, bots' names, names with tabs."""

from __future__ import annotations

from typing import Any

from gemtable.table import PLAYING, RESULTS, Status, Table, clean_name
from gemtable.table.table import ABSENT_GRACE, TURN_GRACE
from tests.table._helpers import assert_rebuilds, join, seat_table, started

BAG = {"bag": [1, 5, 9, 13, 17, 21, 25, 29, 33], "first": 0}


def booty(turn_clock: bool, **kwargs: Any) -> tuple[Table, list[int]]:
    table, people = seat_table(3, game="booty", turn_clock=turn_clock, seconds=60.0, script=BAG, **kwargs)
    table.start(people[0], 1, 0.0)
    table.tick(0.0)
    return table, people


def acting(table: Table) -> int:
    assert table.play.game is not None
    (seat,) = table.play.game.to_act()
    return seat


def test_with_the_turn_clock_on_silence_plays_the_default_move_at_the_deadline() -> None:
    table, _ = booty(turn_clock=True)
    assert table.moment.deadline == 60.0
    table.tick(59.9)
    assert table.play.game is not None and table.play.game.scores() is not None
    placed = table.play.game.view(None).to_json()["placements"]
    table.tick(60.0)
    assert table.play.game.view(None).to_json()["placements"] == placed + 1
    assert_rebuilds(table, 60.0)


def test_with_the_turn_clock_off_a_connected_player_is_waited_for() -> None:
    table, _ = booty(turn_clock=False)
    assert table.moment.deadline is None
    table.tick(10_000.0)
    assert table.play.game is not None and table.play.game.view(None).to_json()["placements"] == 0
    assert table.next_wakeup() is None


def test_with_the_turn_clock_off_a_gone_phone_is_waited_for_thirty_seconds() -> None:
    table, people = booty(turn_clock=False)
    seat = acting(table)
    pid = next(p for p in people if table.people[p].seat == seat)
    table.disconnect(pid, 5.0)
    assert table.next_wakeup() == 5.0 + TURN_GRACE
    table.tick(5.0 + TURN_GRACE - 0.1)
    assert table.play.game is not None and table.play.game.view(None).to_json()["placements"] == 0
    table.tick(5.0 + TURN_GRACE)
    assert table.play.game.view(None).to_json()["placements"] == 1
    assert_rebuilds(table, 5.0 + TURN_GRACE)


def test_a_newcomer_in_a_freed_booty_chair_plays_on_with_its_colour_at_once() -> None:
    table, people = booty(turn_clock=False)
    leaver = people[1]
    chair = table.people[leaver].chair
    table.leave(leaver, 1.0)
    newcomer = join(table, "Zed", 2.0)
    person = table.people[newcomer]
    assert person.chair == chair and person.seat == chair and person.status == Status.SEATED
    assert table.people[leaver].seat is None
    assert_rebuilds(table, 2.0)


def test_a_bot_put_in_a_freed_booty_chair_plays_at_once() -> None:
    table, people = booty(turn_clock=False)
    table.leave(people[2], 1.0)
    table.add_bot(people[0], "random", 1.5)
    bot = max(table.people)
    assert table.people[bot].seat == table.people[bot].chair
    # The game runs to the end with two people answering and the bot playing its colour.
    now = 2.0
    while table.moment.phase != RESULTS and now < 2000:
        now += 1.0
        table.tick(now)
        if table.moment.phase == PLAYING and table.play.game is not None:
            seat = acting(table)
            for pid in people[:2]:
                if table.people[pid].seat == seat:
                    table.choose(pid, table.play.game.default_move(seat), now)
    assert table.moment.phase == RESULTS


def test_an_absent_host_hands_the_role_to_someone_present_after_the_grace() -> None:
    table, (ann, bob, cy) = started(3, seconds=2.0, pause=1.0)
    table.disconnect(ann, 0.5)
    now = 0.5
    while table.people[ann].status != Status.AWAY and now < 100:
        now += 0.5
        table.tick(now)
    assert table.people[ann].status == Status.AWAY
    assert table.host_role.holder == ann  # away for a cave is not absent yet: the role waits for the absence grace
    while table.host_role.holder == ann and now < 0.5 + ABSENT_GRACE + 1:
        now += 0.5
        table.tick(now)
    assert table.host_role.holder in (bob, cy) and now == 0.5 + ABSENT_GRACE


def test_bots_get_distinct_names() -> None:
    table, (ann,) = seat_table(1)
    for _ in range(3):
        table.add_bot(ann, "cautious", 0.0)
    names = [p.name for p in table.people.values() if p.is_bot]
    assert names == ["Ada", "Bruno", "Chloé"]


def test_seven_bots_of_one_strategy_are_seven_names_and_a_taken_name_is_skipped() -> None:
    table, (ann,) = seat_table(["Bruno"])
    for _ in range(7):
        table.add_bot(ann, "cautious", 0.0)
    names = [p.name for p in table.people.values() if p.is_bot]
    assert len(set(names)) == 7 and "Bruno" not in names
    assert all(p.bot == "cautious" for p in table.people.values() if p.is_bot)
    assert_rebuilds(table, 0.0)


def test_a_tab_or_newline_in_a_name_becomes_a_space() -> None:
    assert clean_name("Ann\tLee") == "Ann Lee"
    assert clean_name(" Ann\n\nLee\r\n ") == "Ann Lee"


def test_a_finished_game_record_carries_the_final_view_and_the_bots() -> None:
    table, (ann, bob) = seat_table(2)
    table.add_bot(ann, "odds", 0.0)
    table.start(ann, 3, 0.0)
    now = 0.0
    while table.moment.phase != RESULTS and now < 5000:
        now += 1.0
        table.tick(now)
        for pid in (ann, bob):
            seat = table.people[pid].seat
            if table.moment.phase == PLAYING and table.play.game is not None and seat in table.play.game.to_act():
                table.choose(pid, "camp", now)
    record = table.log.records[1]
    assert record["final"]["scores"] == record["scores"]
    assert list(record["bots"].values()) == ["odds"]
