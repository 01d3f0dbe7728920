"""Away players, the queue for a chair, bots giving way, and people leaving in the middle of a cave."""

from __future__ import annotations

from typing import Any

from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PAUSE, PLAYING, RESULTS, Status, Table, table_view
from gemtable.table.table import GRACE

from ._helpers import (
    LONG_CAVE,
    check_all,
    choose,
    choose_all,
    everyone_camps,
    finish_game,
    inside,
    join,
    run_clock,
    seat_table,
    started,
    status,
)

SCRIPT = [["17", *LONG_CAVE]] * 5
"""Every cave opens with a 17: three explorers carry 5 gems each from the first card, eight carry 2."""


def chest(table: Table, pid: int) -> int:
    """``pid``'s chest, as their own view shows it."""
    view = table_view(table, pid, 0.0)
    seat = view["me"]["seat"]
    players = {p["seat"]: p for p in view["state"]["players"]}
    value: int = players[seat]["chest"]
    return value


def engine(table: Table) -> Any:
    assert table.play.game is not None
    return table.play.game


def camp_and_pause(table: Table, now: float) -> float:
    """Everyone connected inside camps at ``now``; the clock runs until the next cave opens."""
    everyone_camps(table, now)
    table.tick(now)
    now = run_clock(table, now, lambda t: t.moment.phase == PAUSE)  # a disconnected player may hold it a while
    assert table.moment.deadline is not None
    now = table.moment.deadline
    table.tick(now)
    return now


def test_disconnected_for_a_whole_cave_is_away_and_comes_back() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, pause=6.0, script=SCRIPT)
    cy_seat = table.people[cy].seat
    assert cy_seat is not None
    # Cave 1: cy's phone goes away in the middle of it; cy was there when it opened.
    table.disconnect(cy, 1.0)
    choose_all(table, {ann: CAMP, bob: CAMP}, 2.0)
    assert table.moment.phase == PLAYING  # within the grace, cy holds the reveal
    table.tick(1.0 + GRACE)
    assert table.moment.phase == PAUSE
    cy_gems = engine(table).chest[cy_seat]
    assert cy_gems == 5  # silence was camp: cy banked the gem carried
    table.tick(12.0)
    # Cave 2: cy is not away yet (seen in cave 1), walks in, and is silent all along.
    assert table.moment.phase == PLAYING and engine(table).cave == 2
    assert status(table, cy) == Status.SEATED and cy in inside(table)
    choose_all(table, {ann: CAMP, bob: CAMP}, 13.0)  # cy is past the grace: no waiting for cy
    assert table.moment.phase == PAUSE and table.moment.deadline == 19.0
    cy_gems = engine(table).chest[cy_seat]
    # Cave 3: disconnected for the whole of cave 2, cy is away and sits it out.
    table.tick(19.0)
    assert engine(table).cave == 3
    assert status(table, cy) == Status.AWAY
    assert table.people[cy].chair == 2  # nobody needs the chair: it stays cy's
    assert inside(table) == {ann, bob}
    for viewer in (ann, None):
        entry = next(p for p in table_view(table, viewer, 19.0)["people"] if p["id"] == cy)
        assert entry["status"] == "away" and not entry["connected"] and not entry["to_act"]
    assert engine(table).chest[cy_seat] == cy_gems  # the chest stays cy's
    check_all(table, 19.0)
    # Cy comes back in the middle of cave 3: waiting, with nothing to press, chest intact.
    table.connect(cy, 20.0)
    assert status(table, cy) == Status.WAITING
    assert table.people[cy].seat == cy_seat
    assert chest(table, cy) == cy_gems
    assert table_view(table, cy, 20.0)["me"]["moves"] == []
    check_all(table, 20.0)
    # Cave 4: cy walks in with the same seat.
    now = camp_and_pause(table, 21.0)
    assert engine(table).cave == 4
    assert status(table, cy) == Status.SEATED
    assert table.people[cy].seat == cy_seat and cy in inside(table)
    choose(table, cy, DEEPER, now + 1)
    check_all(table, now + 1)


def test_a_player_seen_during_the_cave_is_not_away() -> None:
    table, (_ann, _bob, cy) = started(3, script=SCRIPT)
    table.disconnect(cy, 0.5)
    table.connect(cy, 3.0)  # a blip: back within the cave
    table.disconnect(cy, 3.5)
    now = camp_and_pause(table, 4.0)
    assert status(table, cy) == Status.SEATED and cy in inside(table)
    # Nor is one who reconnects during the pause.
    table.tick(now + 10.0)
    assert table.moment.phase == PAUSE
    table.connect(cy, now + 12.0)
    table.tick(table.moment.deadline or 0.0)
    assert status(table, cy) == Status.SEATED and cy in inside(table)


def full_table_with_a_watcher() -> tuple[Table, list[int], float]:
    """Eight play, Ivy watches; Hal's phone is gone for the whole of cave 2: Ivy has his chair at cave 3."""
    table, pids = started(8, seconds=10.0, pause=6.0, script=SCRIPT)
    ivy = join(table, "Ivy", 0.5)
    assert status(table, ivy) == Status.WATCHING
    hal = pids[7]
    table.disconnect(hal, 1.0)
    now = camp_and_pause(table, 1.0 + GRACE)  # cave 2 opens
    assert status(table, hal) == Status.SEATED and hal in inside(table)
    assert status(table, ivy) == Status.WATCHING
    now = camp_and_pause(table, now + 1.0)  # cave 3 opens
    return table, [*pids, ivy], now


def test_an_away_players_chair_goes_to_the_first_watcher() -> None:
    table, pids, now = full_table_with_a_watcher()
    hal, ivy = pids[7], pids[8]
    hal_seat = 7
    assert table.people[hal].seat == hal_seat
    assert status(table, hal) == Status.AWAY and table.people[hal].chair is None
    # Ivy sits in Hal's chair and walks into this very cave, with a seat of her own.
    assert table.people[ivy].chair == 7
    assert status(table, ivy) == Status.SEATED and ivy in inside(table)
    assert table.people[ivy].seat not in (None, hal_seat)
    assert engine(table).chest[hal_seat] > 0
    check_all(table, now)


def test_an_away_player_back_at_a_full_table_watches_and_keeps_their_seat() -> None:
    table, pids, now = full_table_with_a_watcher()
    hal = pids[7]
    hal_gems = engine(table).chest[7]
    table.connect(hal, now + 1.0)
    assert status(table, hal) == Status.WATCHING
    assert [p.id for p in table.queue()] == [hal]
    view = table_view(table, hal, now + 1.0)
    assert view["me"]["queue_position"] == 1
    assert view["me"]["seat"] == 7 and chest(table, hal) == hal_gems
    check_all(table, now + 1.0)
    # A chair frees: Hal takes it, waits for the next cave and walks in with his old seat.
    bob = pids[1]
    table.leave(bob, now + 2.0)
    assert table.people[hal].chair == 1 and status(table, hal) == Status.WAITING
    assert hal not in inside(table)
    later = camp_and_pause(table, now + 3.0)
    assert status(table, hal) == Status.SEATED and hal in inside(table)
    assert table.people[hal].seat == 7
    assert engine(table).chest[7] == hal_gems
    check_all(table, later)


def test_an_away_player_back_at_a_table_with_a_free_chair_is_reseated() -> None:
    table, pids, now = full_table_with_a_watcher()
    hal = pids[7]
    table.leave(pids[2], now + 0.5)  # a chair frees while Hal is still away: the queue is empty
    assert table.queue() == [] and table.people[hal].chair is None
    table.connect(hal, now + 1.0)
    assert table.people[hal].chair == 2 and status(table, hal) == Status.WAITING
    camp_and_pause(table, now + 2.0)
    assert hal in inside(table) and table.people[hal].seat == 7


def test_an_away_player_keeps_their_chest_in_the_results() -> None:
    table, pids, now = full_table_with_a_watcher()
    hal = pids[7]
    hal_gems = engine(table).chest[7]
    end = finish_game(table, now)
    record = table.log.records[1]
    assert record["names"]["7"] == "Hal"
    assert record["scores"][7] == hal_gems
    assert status(table, hal) == Status.AWAY
    table.connect(hal, end + 1.0)
    assert status(table, hal) == Status.WATCHING  # his chair went to Ivy; he queues for the next one


def test_a_bot_gives_its_chair_to_a_watcher_at_the_next_cave() -> None:
    table, pids = seat_table(7, script=SCRIPT)
    host = pids[0]
    table.add_bot(host, "cautious", 0.0)
    bot = next(p.id for p in table.people.values() if p.is_bot)
    table.start(host, 5, 0.0)
    table.tick(0.0)
    ivy = join(table, "Ivy", 1.0)
    assert status(table, ivy) == Status.WATCHING
    # The bot plays on until the cave ends…
    assert bot in inside(table) and status(table, bot) == Status.SEATED
    bot_seat = table.people[bot].seat
    everyone_camps(table, 2.0)
    now = 2.0
    while table.moment.phase == PLAYING:  # the bot may go on alone, at its own pace
        now = table.next_wakeup() or now
        table.tick(now)
    assert status(table, ivy) == Status.WATCHING
    now = table.moment.deadline or now
    table.tick(now)
    # …and at the next cave it is gone and Ivy plays in its chair.
    assert status(table, bot) == Status.GONE and table.people[bot].chair is None
    assert table.people[ivy].chair == 7 and ivy in inside(table)
    assert table.people[ivy].seat != bot_seat
    # Its seat stays readable in the results.
    entry = next(p for p in table_view(table, None, now)["people"] if p["id"] == bot)
    assert entry["status"] == "gone" and entry["seat"] == bot_seat
    end = finish_game(table, now)
    assert table.log.records[1]["names"][str(bot_seat)] == table.people[bot].name != "cautious"
    check_all(table, end)


def test_bots_give_way_to_every_watcher_they_can() -> None:
    table, pids = seat_table(6, script=SCRIPT)
    host = pids[0]
    table.add_bot(host, "random", 0.0)
    table.add_bot(host, "odds", 0.0)
    table.start(host, 5, 0.0)
    table.tick(0.0)
    watchers = [join(table, name, 1.0 + i) for i, name in enumerate(["Ivy", "Jo", "Kim"])]
    now = 1.0
    while table.moment.phase != PAUSE:
        everyone_camps(table, now)
        now = table.next_wakeup() or now
        table.tick(now)
    table.tick(table.moment.deadline or now)
    assert [table.people[w].chair for w in watchers] == [7, 6, None]
    assert [status(table, w) for w in watchers] == [Status.SEATED, Status.SEATED, Status.WATCHING]
    assert not any(p.is_bot and p.chair is not None for p in table.people.values())
    check_all(table, now)


def test_leaving_in_the_middle_of_a_decision_counts_as_camp_at_once() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    bob_seat = table.people[bob].seat
    assert bob_seat is not None
    choose(table, ann, DEEPER, 1.0)
    table.leave(bob, 2.0)
    assert table.play.pending[bob_seat] == CAMP
    assert status(table, bob) == Status.GONE
    # Bob's seat still shows who has chosen; only cy holds the reveal now.
    choose(table, cy, DEEPER, 3.0)
    reveal = table_view(table, None, 3.0)["state"]["reveal"]
    assert reveal["leavers"] == [bob_seat]
    assert engine(table).chest[bob_seat] == 5 + 2  # his share, and the path for a lone leaver
    assert inside(table) == {ann, cy}
    check_all(table, 3.0)


def test_the_last_one_to_choose_leaving_reveals_at_once() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose_all(table, {ann: DEEPER, cy: DEEPER}, 1.0)
    decision = table.moment.decision
    table.leave(bob, 2.0)
    assert table.moment.decision == decision + 1 and table.moment.opened_at == 2.0
    assert inside(table) == {ann, cy}


def test_leaving_after_choosing_keeps_the_choice() -> None:
    """A player who chose deeper and then leaves the table is still inside this cave.  (Their
    choice stands; they will be silent, so camp, at the next decision.)"""
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    choose(table, bob, DEEPER, 1.0)
    table.leave(bob, 1.5)
    choose_all(table, {ann: CAMP, cy: CAMP}, 2.0)
    assert inside(table) == {bob}
    # Bob is gone: nobody waits for him, the cave goes on without any delay.
    table.tick(2.0)
    assert table.moment.phase == PAUSE


def test_removing_a_bot_in_the_middle_of_a_decision_counts_as_camp() -> None:
    table, (ann, _bob) = seat_table(2, script=SCRIPT)
    table.add_bot(ann, "cautious", 0.0)
    table.start(ann, 1, 0.0)  # no tick: the bot has not chosen yet
    bot = next(p for p in table.people.values() if p.is_bot)
    table.remove_bot(ann, 2, 1.0)
    assert table.play.pending[bot.seat or 0] == CAMP
    assert status(table, bot.id) == Status.GONE


def test_the_ninth_person_watches_until_a_chair_frees() -> None:
    table, pids = started(8, script=SCRIPT)
    ivy = join(table, "Ivy", 1.0)
    assert status(table, ivy) == Status.WATCHING
    view = table_view(table, ivy, 1.0)
    assert view["me"]["seat"] is None and view["me"]["moves"] == []
    assert view["queue"] == [ivy]
    assert view["state"] is not None  # watchers see the game as a spectator does
    assert all(p["chest"] is None for p in view["state"]["players"])
    end = finish_game(table, 1.0)  # everyone is connected: nobody is away, Ivy watches the whole game
    assert status(table, ivy) == Status.WATCHING
    # A new game: still no chair for Ivy, until someone leaves.
    table.start(pids[0], 9, end + 1)
    assert status(table, ivy) == Status.WATCHING
    table.leave(pids[4], end + 2)
    assert table.people[ivy].chair == 4 and status(table, ivy) == Status.WAITING
    check_all(table, end + 2)


def test_nobody_left_in_a_chair_stalls_the_game_until_someone_comes_back() -> None:
    table, (ann, bob) = started(2, script=SCRIPT)
    for pid in (ann, bob):
        table.disconnect(pid, 1.0)
    table.tick(10.0)  # cave 1 ends at its deadline
    assert table.moment.phase == PAUSE
    table.tick(16.0)  # cave 2: both were seen in cave 1
    table.tick(26.0)
    table.tick(32.0)  # both were gone for the whole of cave 2: nobody left to walk in
    assert status(table, ann) == Status.AWAY and status(table, bob) == Status.AWAY
    assert table.moment.phase == PAUSE and table.moment.deadline is None
    assert table.next_wakeup() is None
    events = table.log.events
    table.tick(100.0)
    assert table.log.events == events
    check_all(table, 100.0)
    table.connect(bob, 200.0)
    assert status(table, bob) == Status.WAITING
    table.tick(200.0)
    assert table.moment.phase == PLAYING and inside(table) == {bob}
    assert table.moment.deadline == 210.0
    end = finish_game(table, 200.0)
    assert table.moment.phase == RESULTS
    check_all(table, end)


def test_a_game_out_of_seats_waits_without_spinning() -> None:
    """A game has 16 seats (a seat keeps its chest all game long).  When everyone in a chair is
    new and the seats are used up, nobody can walk into the next cave: the table stalls, and its
    clock does not ask to be woken again and again."""
    table, first = started(8, script=SCRIPT)
    names = iter(f"P{i}" for i in range(100))
    now = 0.0

    def replace_everyone(now: float) -> list[int]:
        for pid in [p.id for p in table.people.values() if p.chair is not None]:
            table.leave(pid, now)
        return [join(table, next(names), now) for _ in range(8)]

    now = run_clock(table, now, lambda t: t.moment.phase == PAUSE)
    second = replace_everyone(now)  # seats 8 to 15 walk into cave 2
    now = run_clock(table, now, lambda t: t.moment.phase == PLAYING)
    assert sorted(table.people[pid].seat or 0 for pid in second) == list(range(8, 16))
    now = run_clock(table, now, lambda t: t.moment.phase == PAUSE)
    third = replace_everyone(now)  # no seat is left for any of them
    assert all(status(table, pid) == Status.WAITING for pid in third)
    assert table.moment.deadline is not None
    now = table.moment.deadline
    table.tick(now)
    assert table.moment.phase == PAUSE
    wake = table.next_wakeup()
    assert wake is None or wake > now
    events = table.log.events
    table.tick(1000.0)
    assert table.log.events == events
    check_all(table, 1000.0)
    assert first  # (the first eight left long ago)


def test_the_host_passes_to_someone_playing_rather_than_to_an_away_player() -> None:
    table, (ann, bob, cy) = started(3, script=SCRIPT)
    table.disconnect(bob, 0.5)  # bob (second to arrive) is gone for good
    now = camp_and_pause(table, 1.0)
    now = camp_and_pause(table, now + 1.0)
    assert status(table, bob) == Status.AWAY
    table.leave(ann, now + 1.0)
    assert table.host_role.holder == cy  # cy is here and playing: cy can start the next game
    end = finish_game(table, now + 1.0)
    table.add_bot(cy, "odds", end + 1)  # bob is still away: a bot makes two
    table.start(cy, 2, end + 1)
    assert table.play.number == 2 and status(table, bob) == Status.AWAY
    check_all(table, end + 1)
