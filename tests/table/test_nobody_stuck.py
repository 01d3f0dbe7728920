"""Nobody waits on a flat battery: absent players in the lobby and at the results, the host role,
the host removing an absent person, a bot standing in for a Booty Hunter colour, and the crowd.

Time is an input: phones "close" by disconnecting at a time, and the clock is ticked past the grace.
"""

from __future__ import annotations

import pytest

from gemtable.games import GameRecord, replay
from gemtable.server import protocol
from gemtable.table import LOBBY, PAUSE, PLAYING, RESULTS, Status, Table, TableError, table_view
from gemtable.table.table import ABSENT_GRACE, BOT_DELAY, GRACE, MAX_WATCHERS, MISSED_TURNS

from ._helpers import (
    LONG_CAVE,
    assert_rebuilds,
    check_all,
    everyone_camps,
    finish_game,
    inside,
    join,
    rebuilt,
    run_clock,
    seat_table,
    started,
    status,
    token,
)

BAG = {"bag": [1, 5, 9, 13, 17, 21, 25, 29, 33, 2, 6, 10, 14, 18, 22], "first": 0}


def close_phones(table: Table, pids: list[int], now: float) -> None:
    for pid in pids:
        table.disconnect(pid, now)


# --- the lobby: a full table of closed phones -----------------------------------------------------


@pytest.mark.parametrize(("game", "chairs"), [("booty", 3), ("expedition", 8)])
def test_a_full_table_of_closed_phones_gives_a_chair_and_the_host_role_to_the_next_in_the_queue(
    game: str, chairs: int
) -> None:
    table, pids = seat_table(chairs, game=game)
    close_phones(table, pids, 10.0)
    zed = join(table, "Zed", 20.0)
    table.tick(20.0)
    assert status(table, zed) == Status.WATCHING and table.host_role.holder == pids[0]
    with pytest.raises(TableError) as err:
        table.start(zed, 1, 20.0)
    assert err.value.code == "not-host"
    # Both the chair and the role change hands exactly when the grace ends, and not before.
    assert table.next_wakeup() == 10.0 + ABSENT_GRACE
    table.tick(10.0 + ABSENT_GRACE - 0.1)
    assert status(table, zed) == Status.WATCHING and table.host_role.holder == pids[0]
    now = 10.0 + ABSENT_GRACE
    table.tick(now)
    assert table.host_role.holder == zed
    assert status(table, zed) == Status.SEATED
    # The first to join (the longest gone, lowest chair) gave the chair up: away, without a chair.
    assert table.people[zed].chair == 0
    assert status(table, pids[0]) == Status.AWAY and table.people[pids[0]].chair is None
    assert table.next_wakeup() is None  # nothing else to do: nobody else is waiting for a chair
    check_all(table, now)
    # The new host can start: the absent players still in their chairs play (silence, or a bot).
    table.start(zed, 5, now)
    table.tick(now)
    assert table.moment.phase == PLAYING and table.people[zed].seat is not None
    assert_rebuilds(table, now)


@pytest.mark.parametrize(("game", "chairs"), [("booty", 3), ("expedition", 8)])
def test_the_game_started_by_the_new_host_runs_to_the_end(game: str, chairs: int) -> None:
    table, pids = seat_table(chairs, game=game, turn_clock=False)
    close_phones(table, pids, 0.0)
    zed = join(table, "Zed", 1.0)
    table.tick(ABSENT_GRACE)
    table.start(zed, 3, ABSENT_GRACE)
    table.tick(ABSENT_GRACE)

    def zed_plays(t: Table) -> bool:
        if t.moment.phase == PLAYING and t.play.game is not None and t.people[zed].seat in t.play.game.to_act():
            seat = t.people[zed].seat
            assert seat is not None
            t.choose(zed, t.play.game.default_move(seat), now, t.moment.decision)
        return t.moment.phase == RESULTS

    now = ABSENT_GRACE
    for _ in range(2000):
        if zed_plays(table):
            break
        wake = table.next_wakeup()
        assert wake is not None, f"stuck in {table.moment.phase}"
        now = max(now, wake)
        table.tick(now)
    assert table.moment.phase == RESULTS
    check_all(table, now)


def test_an_absent_player_is_not_moved_while_nobody_waits_for_the_chair() -> None:
    table, (_ann, bob, _cy) = seat_table(3, game="booty")
    table.disconnect(bob, 0.0)
    table.tick(1000.0)
    assert status(table, bob) == Status.SEATED and table.people[bob].chair == 1
    assert table.next_wakeup() is None


def test_a_disconnected_watcher_does_not_take_an_absent_players_chair() -> None:
    table, pids = seat_table(3, game="booty")
    close_phones(table, pids[1:], 0.0)
    zed = join(table, "Zed", 1.0, connect=False)
    table.tick(ABSENT_GRACE + 1)
    assert status(table, zed) == Status.WATCHING
    table.connect(zed, ABSENT_GRACE + 2)
    table.tick(ABSENT_GRACE + 2)
    assert status(table, zed) == Status.SEATED and table.people[zed].chair == 1


def test_back_after_losing_the_chair_watches_at_the_back_of_the_queue_and_gets_the_host_role_back() -> None:
    table, pids = seat_table(3, game="booty")
    ann = pids[0]
    table.disconnect(ann, 0.0)
    zed = join(table, "Zed", 1.0)
    yan = join(table, "Yan", 2.0)
    table.tick(ABSENT_GRACE)
    assert (
        table.people[zed].chair == 0 and table.host_role.holder == pids[1]
    )  # a player in a chair takes the role first
    assert status(table, yan) == Status.WATCHING
    table.connect(ann, ABSENT_GRACE + 5)
    assert status(table, ann) == Status.WATCHING
    assert [p.id for p in table.queue()] == [yan, ann]
    assert table.host_role.holder == ann  # the first person is the host whenever they are here
    check_all(table, ABSENT_GRACE + 5)


def test_the_same_at_the_results() -> None:
    table, pids = started(3, game="booty", script=BAG, seconds=5.0)
    close_phones(table, pids[1:], 0.0)
    end = finish_game(table, 0.0)
    assert table.moment.phase == RESULTS
    zed = join(table, "Zed", end)
    now = run_clock(table, end, lambda t: status(t, zed) == Status.SEATED)
    assert now == ABSENT_GRACE and table.host_role.holder == pids[0]  # ann is here: she stays host
    table.start(pids[0], 2, now)
    assert table.play.number == 2
    check_all(table, now)


# --- the host --------------------------------------------------------------------------------------


def test_an_absent_host_hands_over_only_after_the_grace_whatever_the_phase() -> None:
    table, (ann, bob, _cy) = started(3, seconds=2.0, pause=1.0, script=[LONG_CAVE] * 5)
    table.disconnect(ann, 0.5)
    now = run_clock(table, 0.5, lambda t: t.host_role.holder != ann)
    assert now == 0.5 + ABSENT_GRACE and table.host_role.holder == bob
    assert status(table, ann) == Status.AWAY
    table.connect(ann, now + 1)
    assert table.host_role.holder == ann
    assert_rebuilds(table, now + 1)


def test_nobody_connected_keeps_the_host_where_it_is() -> None:
    table, pids = seat_table(3)
    close_phones(table, pids, 0.0)
    table.tick(10 * ABSENT_GRACE)
    assert table.host_role.holder == pids[0] and table.next_wakeup() is None


def test_a_leaving_host_hands_over_to_someone_connected() -> None:
    table, (ann, bob, cy) = seat_table(3)
    table.disconnect(bob, 0.0)
    table.leave(ann, 1.0)
    assert table.host_role.holder == cy  # bob is next in line but his phone is gone
    assert_rebuilds(table, 1.0)


def test_a_rebuild_does_not_move_the_host_and_the_grace_counts_from_the_restart() -> None:
    table, (ann, bob, cy) = started(3, seconds=20.0, pause=10.0, script=[LONG_CAVE] * 5)
    everyone_camps(table, 1.0)
    table.tick(1.0)
    assert table.moment.phase == PAUSE
    restart = 1.5
    copy = Table.rebuild(table.log.outbox, restart)  # every phone is gone after a restart
    assert copy.host_role.holder == ann
    copy.connect(bob, restart + 0.1)
    copy.connect(cy, restart + 0.1)
    # The caves go on; ann is marked away at the next pause, but she stays host until the grace is over.
    now = run_clock(copy, restart + 0.1, lambda t: t.host_role.holder != ann or t.moment.phase == RESULTS)
    assert now == restart + ABSENT_GRACE and copy.host_role.holder == bob
    copy.connect(ann, now + 1)
    assert copy.host_role.holder == ann
    # And a second restart keeps what the log says.
    again = Table.rebuild([*table.log.outbox, *copy.log.outbox], now + 2)
    assert again.host_role.holder == ann


def test_after_a_restart_the_host_who_comes_back_in_time_keeps_the_role() -> None:
    table, (ann, bob, cy) = started(3, seconds=2.0, pause=1.0, script=[LONG_CAVE] * 5)
    copy = Table.rebuild(table.log.outbox, 5.0)
    for pid in (bob, cy):
        copy.connect(pid, 5.0)
    copy.tick(5.0 + ABSENT_GRACE - 1)
    copy.connect(ann, 5.0 + ABSENT_GRACE - 1)
    copy.tick(5.0 + 10 * ABSENT_GRACE)
    assert copy.host_role.holder == ann


# --- removing an absent person ---------------------------------------------------------------------


def test_the_host_removes_an_absent_person_at_any_time() -> None:
    table, pids = seat_table(8)
    zed = join(table, "Zed", 0.0)
    table.disconnect(pids[3], 1.0)
    table.remove(pids[0], pids[3], 1.5)  # no grace needed
    assert status(table, pids[3]) == Status.GONE and pids[3] not in table.people  # a lobby watcher: forgotten
    assert table.people[zed].chair == 3
    assert table.by_token(token("Dee")) is None  # the removed phone must join again
    assert table.log.outbox[-2] == {"type": "left", "person": pids[3], "by": pids[0], "reason": "removed", "at": 1.5}
    check_all(table, 1.5)


@pytest.mark.parametrize(
    ("who", "target", "code"),
    [
        (1, 2, "not-host"),
        (0, 99, "not-found"),
        (0, "2", "not-found"),
        (0, True, "not-found"),
        (0, 0, "self"),
        (0, "bot", "is-bot"),
    ],
)
def test_removing_is_refused_clearly(who: int, target: object, code: str) -> None:
    table, pids = seat_table(3)
    table.add_bot(pids[0], "cautious", 0.0)
    bot = max(table.people)
    table.disconnect(pids[2], 0.0)
    table.tick(0.0)
    aim = {0: pids[0], 1: pids[1], "bot": bot}.get(target, target) if not isinstance(target, bool) else target
    events = table.log.events
    with pytest.raises(TableError) as err:
        table.remove(pids[who], aim, 1.0)
    assert err.value.code == code and err.value.message
    assert table.log.events == events


def test_removing_someone_twice_says_they_are_gone() -> None:
    table, pids = started(3, script=[LONG_CAVE] * 5)
    table.disconnect(pids[2], 0.5)
    table.remove(pids[0], pids[2], 1.0)  # mid-cave: silence counts as camp at once
    assert status(table, pids[2]) == Status.GONE and table.people[pids[2]].seat is not None  # kept for the results
    with pytest.raises(TableError) as err:
        table.remove(pids[0], pids[2], 2.0)
    assert err.value.code == "not-found"
    check_all(table, 2.0)


def test_removing_a_booty_player_mid_game_hands_the_colour_to_the_queue() -> None:
    table, pids = started(3, game="booty", script=BAG, turn_clock=False)
    zed = join(table, "Zed", 1.0)
    seat = table.people[pids[1]].seat
    table.disconnect(pids[1], 1.0)
    table.remove(pids[0], pids[1], 2.0)
    assert table.people[zed].seat == seat and status(table, zed) == Status.SEATED  # the colour plays on
    check_all(table, 2.0)


# --- Booty Hunter: a bot stands in for a colour whose phone stays gone ------------------------------


def booty_turns(table: Table) -> int:
    assert table.play.game is not None
    placements: int = table.play.game.view(None).to_json()["placements"]
    return placements


@pytest.mark.parametrize("turn_clock", [True, False])
def test_a_bot_plays_a_gone_colour_after_two_missed_turns_until_it_comes_back(turn_clock: bool) -> None:
    table, (ann, bob, cy) = started(3, game="booty", script=BAG, turn_clock=turn_clock, seconds=20.0)
    table.disconnect(bob, 0.0)
    bob_seat = table.people[bob].seat
    assert bob_seat is not None

    def bobs_turn(t: Table) -> bool:
        return t.play.game is not None and bob_seat in t.play.game.to_act()

    def others_play(t: Table, now: float) -> None:
        game = t.play.game
        assert game is not None
        for pid in (ann, cy):
            seat = t.people[pid].seat
            if t.moment.phase == PLAYING and seat in game.to_act():
                assert seat is not None
                t.choose(pid, game.default_move(seat), now, t.moment.decision)

    now = 0.0
    waits: list[float] = []
    for _ in range(MISSED_TURNS + 1):
        while not bobs_turn(table):
            others_play(table, now)
        opened = table.moment.opened_at
        view = table_view(table, ann, now)
        entry = next(p for p in view["people"] if p["id"] == bob)
        plays = entry["bot_plays"]
        now = run_clock(table, now, lambda t: not bobs_turn(t))
        waits.append(now - opened)
        assert plays == (len(waits) > MISSED_TURNS)
    slow = 20.0 if turn_clock else 30.0  # the deadline, or the turn grace with the clock off
    assert waits[:MISSED_TURNS] == [slow] * MISSED_TURNS
    assert waits[MISSED_TURNS] == BOT_DELAY  # the third turn: a bot plays bob's colour, at bot pace
    assert table.people[bob].missed == MISSED_TURNS + 1
    assert table.log.outbox[-1]["missed"] == [bob_seat]
    assert_rebuilds(table, now)
    # Bob is back: the flag goes, and his colour waits for him (and his own move resets the count).
    table.connect(bob, now)
    entry = next(p for p in table_view(table, ann, now)["people"] if p["id"] == bob)
    assert entry["bot_plays"] is False and entry["connected"] is True
    while not bobs_turn(table):
        others_play(table, now)
    game = table.play.game
    assert game is not None
    assert table.next_wakeup() in (None, table.moment.deadline)
    table.choose(bob, game.default_move(bob_seat), now + 1, table.moment.decision)
    assert table.people[bob].missed == 0
    check_all(table, now + 1)


def test_a_short_drop_does_not_hand_a_colour_that_missed_turns_to_the_bot() -> None:
    table, (_ann, bob, _cy) = started(3, game="booty", script=BAG, turn_clock=True, seconds=20.0)
    bob_seat = table.people[bob].seat
    now = 0.0
    for _ in range(MISSED_TURNS + 1):  # bob dozes, connected, through two turns: silence each time
        now = run_clock(table, now, lambda t: t.play.game is not None and bob_seat in t.play.game.to_act())
        if table.people[bob].missed == MISSED_TURNS:
            break
        now = run_clock(table, now, lambda t: t.play.game is not None and bob_seat not in t.play.game.to_act())
    assert table.people[bob].missed == MISSED_TURNS
    assert table.moment.deadline == now + 20.0
    table.disconnect(bob, now + 1.0)  # a blip: the bot waits for the grace before it stands in
    assert table.next_wakeup() == now + 1.0 + GRACE
    table.connect(bob, now + 3.0)
    assert table.next_wakeup() == table.moment.deadline  # back in time: his turn is his


# --- seats: a newcomer never inherits anyone's gems -------------------------------------------------


def test_a_watcher_seated_mid_cave_waits_in_camp_and_never_inherits_a_seat() -> None:
    """6 people and 2 bots seated and a watcher queued; a person leaves in the middle of a cave."""
    script = [["17", *LONG_CAVE]] * 5
    table, pids = seat_table(6, script=script)
    host = pids[0]
    table.add_bot(host, "cautious", 0.0)
    table.add_bot(host, "odds", 0.0)
    table.start(host, 5, 0.0)
    table.tick(0.0)
    bots = [p.id for p in table.people.values() if p.is_bot]
    bot_seats = {table.people[b].seat for b in bots}
    ivy = join(table, "Ivy", 0.5)
    assert status(table, ivy) == Status.WATCHING
    # Everyone (bots too) walked in and carries gems from the 17.
    game = table.play.game
    assert game is not None
    assert all(game.carried[table.people[b].seat] > 0 for b in bots)  # type: ignore[attr-defined]
    table.leave(pids[2], 1.0)
    table.tick(1.0)
    # The bots are still there, in their chairs and seats, and still inside the cave.
    assert all(status(table, b) == Status.SEATED and table.people[b].seat in bot_seats for b in bots)
    assert set(bots) <= inside(table)
    # Ivy sits in the freed chair, waiting in camp: no seat, no moves, nothing carried.
    me = table_view(table, ivy, 1.0)["me"]
    assert me["status"] == "waiting" and me["seat"] is None and me["moves"] == []
    assert table.people[ivy].chair == 2 and ivy not in inside(table)
    # At the next cave she walks in with a seat of her own, empty-handed.
    now = run_clock(table, 1.0, lambda t: t.moment.phase == PLAYING and ivy in inside(t))
    seat = table.people[ivy].seat
    assert seat is not None and seat not in bot_seats and seat != 2
    ann_seat = table.people[host].seat
    assert ann_seat is not None
    # Her own share of the new cave's first card (the same as ann's), and an empty chest.
    assert game.carried[seat] == game.carried[ann_seat] and game.chest[seat] == 0  # type: ignore[attr-defined]
    check_all(table, now)


def test_a_bot_giving_way_at_the_next_cave_leaves_its_gems_to_nobody() -> None:
    script = [["17", *LONG_CAVE]] * 5
    table, pids = seat_table(7, script=script)
    table.add_bot(pids[0], "cautious", 0.0)
    bot = max(table.people)
    table.start(pids[0], 5, 0.0)
    table.tick(0.0)
    bot_seat = table.people[bot].seat
    ivy = join(table, "Ivy", 0.5)
    now = run_clock(table, 0.5, lambda t: t.moment.phase == PLAYING and ivy in inside(t))
    game = table.play.game
    assert game is not None and bot_seat is not None
    seat = table.people[ivy].seat
    assert seat != bot_seat and game.chest[seat] == 0  # type: ignore[attr-defined]
    assert game.chest[bot_seat] >= 0  # type: ignore[attr-defined]
    check_all(table, now)


# --- the crowd ---------------------------------------------------------------------------------------


def state_bytes(table: Table, pid: int | None, now: float) -> int:
    return len(protocol.encode(protocol.State(table=table_view(table, pid, now))))


STATE_BOUND = 10_000
"""Bytes: the most a state message may weigh, whatever the crowd.  (Before the cap, 300 joins made every
state message about 45 KB, and each change sent it to every phone.)"""


def test_many_joins_and_leaves_keep_the_state_message_small() -> None:
    table, _pids = started(8, script=[LONG_CAVE] * 5)
    now = 1.0
    refused = 0
    for i in range(300):  # a crowd comes and goes; two in three stay and watch
        try:
            pid = join(table, f"{'x' * 20}{i:04d}", now)
        except TableError as exc:
            assert exc.code == "table-full"
            refused += 1
            continue
        if i % 3 == 0:
            table.leave(pid, now)
        now += 0.1
    assert refused > 200
    biggest = max(state_bytes(table, pid, now) for pid in [None, *table.people])
    assert biggest < STATE_BOUND, biggest
    view = table_view(table, None, now)
    assert view["queue_length"] == MAX_WATCHERS and len(view["queue"]) == 10
    assert len(table.people) <= 8 + MAX_WATCHERS
    watcher = table.queue()[-1].id
    mine = table_view(table, watcher, now)
    assert mine["me"]["queue_position"] == MAX_WATCHERS
    assert any(p["id"] == watcher for p in mine["people"])  # a viewer always sees themself
    check_all(table, now)


def test_a_join_past_the_chairs_and_the_queue_is_refused() -> None:
    table, pids = seat_table([f"P{i}" for i in range(8 + MAX_WATCHERS)])
    assert len(pids) == 8 + MAX_WATCHERS
    events = table.log.events
    with pytest.raises(TableError) as err:
        table.join("Late", token("Late"), 1.0)
    assert err.value.code == "table-full"
    assert table.log.events == events
    table.leave(max(table.people), 2.0)
    join(table, "Late", 3.0)  # a place freed


def test_watchers_who_left_are_forgotten_but_players_of_the_game_are_kept() -> None:
    table, pids = started(3, script=[LONG_CAVE] * 5)
    watchers = [join(table, n, 1.0) for n in ("W1", "W2")]
    for w in watchers:
        table.leave(w, 2.0)
    assert not set(watchers) & set(table.people)
    table.disconnect(pids[2], 2.0)
    table.remove(pids[0], pids[2], 3.0)
    assert pids[2] in table.people  # he played: his name stays for the results
    end = finish_game(table, 3.0)
    assert table.log.records[1]["names"][str(table.people[pids[2]].seat)] == "Cy"
    table.start(pids[0], 9, end + 1)
    assert pids[2] not in table.people  # a new game: his name is in game 1's record
    again = rebuilt(table)
    assert sorted(again.people) == sorted(table.people) and again.last_id == table.last_id
    new = join(table, "New", end + 2)
    assert new > max(watchers)  # ids are never reused


# --- scores: the seats that played -------------------------------------------------------------------


def test_a_three_player_record_lists_three_scores_and_replays_exactly() -> None:
    table, _ = started(3)
    end = finish_game(table, 0.0)
    record = table.log.records[1]
    assert len(record["scores"]) == 3 and len(record["final"]["scores"]) == 3
    assert table_view(table, None, end)["state"]["scores"] == record["scores"]
    game = replay(GameRecord.from_json(record))
    assert game.scores() == record["scores"]
    assert table.moment.phase == RESULTS and table.moment.phase != LOBBY
