"""The host runs the night (issue 19), at the table's level: pause and resume, the start's countdown, remove
and ban anyone, a stand-in host who cannot take the table over, the cap per address, handing the role on,
ending a game, changing the settings between games, bots that step in, and the notices that say it all.

Every story is also rebuilt from its log (``check_all``): what the host did is in the events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gemtable.games import GameRecord, replay
from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import LOBBY, PAUSE, PLAYING, RESULTS, Status, Table, TableError, table_view
from gemtable.table.table import BOT_DELAY, GRACE, RESUME_FLOOR

from ._helpers import LONG_CAVE, check_all, choose, join, new_table, rebuilt, run_clock, seat_table, started, token

BAG = {"bag": [1, 5, 9, 13, 17, 21, 25, 29, 33], "first": 0}


def kinds(table: Table) -> list[str]:
    return [n["kind"] for n in table.news.recent]


def view(table: Table, pid: int | None, now: float) -> dict[str, Any]:
    shown: dict[str, Any] = table_view(table, pid, now)
    return shown


def refused(code: str, call: Any, *args: Any) -> None:
    with pytest.raises(TableError) as err:
        call(*args)
    assert err.value.code == code and err.value.message


# --- pause and resume --------------------------------------------------------------------------------


def test_a_paused_table_holds_no_reveal_for_three_times_its_clock_and_resumes_with_the_time_it_had() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.add_bot(ann, "cautious", 0.0)  # a bot waits too (it would choose the moment a card turns)
    choose(table, bob, DEEPER, 1.0)
    decision = table.moment.decision
    table.pause(ann, 4.0)  # 6 s were left
    assert table.hold.paused is not None and table.moment.deadline is None and table.next_wakeup() is None
    table.pause(ann, 4.5)  # again: harmless, nothing logged
    assert [e["type"] for e in table.log.outbox].count("paused") == 1
    for now in (5.0, 20.0, 34.0):  # three times the clock
        table.tick(now)
        assert table.moment.decision == decision and table.moment.phase == PLAYING
    # Choices made before the pause stay secret and changeable; new ones may be made.
    choose(table, bob, CAMP, 20.0)
    choose(table, cy, CAMP, 21.0)
    assert table.play.pending == {table.people[bob].seat: CAMP, table.people[cy].seat: CAMP}
    for pid in (None, cy):
        assert view(table, pid, 21.0)["me"] is None or view(table, pid, 21.0)["me"]["choice"] == CAMP
    assert all(p["chosen"] in (True, False) for p in view(table, cy, 21.0)["people"])
    shown = view(table, None, 30.0)
    assert (
        shown["paused"] == {"by": ann, "name": "Ann", "remaining_ms": 6000, "silent": False}
        and shown["remaining_ms"] is None
    )
    check_all(table, 34.0)
    # A restart (the table rebuilt from its log) is still paused, with the same time left.
    again = Table.rebuild(json.loads(json.dumps(table.log.outbox)), 40.0)
    assert again.hold.paused == table.hold.paused and again.next_wakeup() is None
    table.resume(ann, 40.0)
    assert table.moment.deadline == 46.0  # the 6 s it had left
    table.tick(45.9)
    assert table.moment.decision == decision
    table.tick(46.0)
    assert table.moment.decision > decision  # Ann's silence counted at the deadline, as always
    check_all(table, 46.0)


def test_a_decision_resumed_with_little_time_left_gets_a_few_seconds() -> None:
    table, (ann, _, _) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.pause(ann, 9.5)
    table.resume(ann, 100.0)
    assert table.moment.deadline == 100.0 + RESUME_FLOOR
    table.resume(ann, 101.0)  # not paused: harmless
    assert [e["type"] for e in table.log.outbox].count("resumed") == 1


def test_the_pause_between_caves_stops_too() -> None:
    table, (ann, _bob, _cy) = started(3, seconds=10.0, pause=6.0, script=[["17", "fire", "fire"]] * 5)
    now = run_clock(table, 0.0, lambda t: t.moment.phase == PAUSE)
    assert table.moment.deadline is not None
    left = table.moment.deadline - (now + 1.0)
    table.pause(ann, now + 1.0)
    table.tick(now + 100.0)
    assert table.moment.phase == PAUSE and table.play.game is not None and table.play.rounds == 1
    table.resume(ann, now + 200.0)
    assert table.moment.deadline == now + 200.0 + max(left, RESUME_FLOOR)
    check_all(table, now + 200.0)


def test_only_the_host_pauses_and_only_a_game() -> None:
    table, (ann, bob) = seat_table(2)
    refused("no-game", table.pause, ann, 0.0)
    refused("not-host", table.pause, bob, 0.0)
    table.start(ann, 1, 0.0)
    refused("not-host", table.pause, bob, 0.0)
    refused("not-host", table.resume, bob, 0.0)
    refused("not-host", table.end, bob, 0.0)


def test_a_paused_turn_based_game_refuses_a_turn_and_its_bots_wait() -> None:
    table, (ann, bob, cy) = started(3, game="booty", script=BAG, seconds=60.0)
    seat = next(iter(table.play.game.to_act())) if table.play.game else None
    mover = next(p for p in (ann, bob, cy) if table.people[p].seat == seat)
    table.pause(ann, 1.0)
    game = table.play.game
    assert game is not None and seat is not None
    refused("paused", table.choose, mover, game.default_move(seat), 2.0, table.moment.decision)
    table.leave(mover if mover != ann else bob, 2.0)  # a bot would stand in at once: not while paused
    table.tick(500.0)
    assert game.view(None).to_json()["placements"] == 0
    table.resume(ann, 500.0)
    check_all(table, 500.0)


def test_a_host_who_drops_while_paused_is_replaced_and_the_new_host_resumes() -> None:
    table, (ann, bob, _cy) = started(3, seconds=10.0, script=[LONG_CAVE] * 5)
    table.pause(ann, 1.0)
    table.disconnect(ann, 1.0)
    assert table.next_wakeup() == 1.0 + table.settings.absent_grace  # the only thing a paused table waits for
    table.tick(1.0 + table.settings.absent_grace)
    assert table.host_role.holder == bob and table.hold.paused is not None
    table.resume(bob, 70.0)
    assert table.hold.paused is None and table.moment.deadline == 70.0 + 9.0
    check_all(table, 70.0)


# --- the start's countdown -----------------------------------------------------------------------------


def test_a_start_counts_down_on_every_screen_and_the_host_may_cancel_it() -> None:
    table, (ann, bob) = seat_table(2, countdown=5.0)
    table.start(ann, 1, 10.0)
    assert table.moment.phase == LOBBY and table.hold.countdown is not None and table.next_wakeup() == 15.0
    assert view(table, bob, 12.0)["countdown"] == {"by": ann, "name": "Ann", "remaining_ms": 3000}
    table.start(ann, 2, 11.0)  # again: harmless
    refused("not-host", table.cancel_start, bob, 12.0)
    refused("starting", table.change_settings, ann, {"seconds": 20}, 12.0)
    table.cancel_start(ann, 12.0)
    assert table.hold.countdown is None and table.next_wakeup() is None
    table.tick(20.0)
    assert table.moment.phase == LOBBY and "cancelled" in kinds(table)
    # Started again, it survives a restart and begins at its end.
    table.start(ann, 3, 30.0)
    copy = rebuilt(table)
    for t in (table, copy):
        t.tick(34.9)
        assert t.moment.phase == LOBBY
        t.tick(35.0)
        assert t.moment.phase == PLAYING and t.play.seed == 3
    check_all(table, 35.0)


def test_a_countdown_that_ends_with_too_few_players_is_cancelled() -> None:
    table, (ann, bob) = seat_table(2, countdown=5.0)
    table.start(ann, 1, 0.0)
    table.leave(bob, 2.0)
    table.tick(5.0)
    assert table.moment.phase == LOBBY and table.hold.countdown is None
    assert table.news.recent[-1]["kind"] == "cancelled" and table.news.recent[-1]["reason"] == "too-few"
    check_all(table, 5.0)


def test_play_again_is_refused_while_too_few_players_are_seated() -> None:
    table, (ann, _bob, cy) = started(3, game="booty", script=BAG)
    table.end(ann, 1.0)
    assert table.moment.phase == RESULTS
    table.leave(cy, 2.0)
    refused("too-few", table.start, ann, 9, 3.0)


# --- remove anyone, ban ----------------------------------------------------------------------------


def test_a_connected_player_removed_in_a_cave_walks_out_with_what_they_carry() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, script=[["17", *LONG_CAVE]] * 5)
    seat = table.people[bob].seat
    assert seat is not None and table.play.game is not None
    carried = table.play.game.view(None).to_json()["players"][seat]["carried"]
    assert carried == 5
    table.remove(ann, bob, 1.0)
    assert table.people[bob].status == Status.GONE and table.people[bob].left_reason == "removed"
    assert table.by_token(token("Bob")) is None and table.door.removed[token("Bob")] == "Ann"
    choose(table, ann, DEEPER, 2.0)
    choose(table, cy, DEEPER, 2.0)  # the reveal: Bob's silence counted as camp when he was removed
    state = table.play.game.view(None).to_json()
    assert state["players"][seat]["status"] != "inside"
    assert seat in state["reveal"]["leavers"] and state["reveal"]["banked"][state["reveal"]["leavers"].index(seat)] == 5
    news = [n for n in table.news.recent if n["kind"] == "left"]
    assert news[-1] | {"id": 0} == {
        "id": 0,
        "kind": "left",
        "person": bob,
        "name": "Bob",
        "seat": seat,
        "reason": "removed",
        "by": "Ann",
        "game": 1,
        "round": 1,
        "move": 1,
    }
    check_all(table, 2.0)


def test_a_booty_player_removed_or_leaving_is_played_by_a_bot_at_its_pace_not_the_turn_clock() -> None:
    for how in ("leave", "remove"):
        table, (ann, bob, cy) = started(3, game="booty", script=BAG, seconds=60.0)
        game = table.play.game
        assert game is not None
        bob_seat = table.people[bob].seat
        while bob_seat not in game.to_act():  # play until it is Bob's turn
            seat = next(iter(game.to_act()))
            pid = next(p for p in (ann, cy) if table.people[p].seat == seat)
            table.choose(pid, game.default_move(seat), table.moment.opened_at + 2.0, table.moment.decision)
        opened = table.moment.opened_at
        if how == "leave":
            table.leave(bob, opened + 3.0)
        else:
            table.remove(ann, bob, opened + 3.0)
        entry = next(p for p in view(table, ann, opened + 3.0)["people"] if p["id"] == bob)
        assert entry["bot_plays"] is True and entry["left"] == how.replace("leave", "left").replace("remove", "removed")
        assert table.next_wakeup() == opened + 3.0 + BOT_DELAY  # not the 60 s turn clock
        table.tick(opened + 3.0 + BOT_DELAY)
        assert bob_seat not in game.to_act() and table.log.outbox[-1]["bot"] is True
        stand = [n for n in table.news.recent if n["kind"] == "stand_in"]
        entry = next(p for p in view(table, ann, opened + 5.0)["people"] if p["id"] == bob)
        assert entry["bot_plays"] and entry["bot_since"] == stand[-1]["move"]
        assert stand and stand[-1]["person"] == bob and stand[-1]["seat"] == bob_seat
        assert table.play.stand_ins[bob_seat] == [[stand[-1]["move"], None]]
        table.end(ann, opened + 10.0)
        record = table.log.records[table.play.number]
        assert record["left"][str(bob_seat)]["reason"] == ("left" if how == "leave" else "removed")
        assert record["stand_ins"] == {str(bob_seat): [[stand[-1]["move"], None]]}
        assert record["ended"]["by"] == "Ann" and record["inputs"][-1] == ["end"]
        assert any(n["kind"] == "stand_in" for n in record["history"])
        again = replay(GameRecord.from_json(json.loads(json.dumps(record))))
        assert again.is_over() and again.scores() == record["scores"]
        check_all(table, opened + 10.0)


def test_a_banned_person_cannot_come_back_with_their_token_or_from_their_address_until_lifted() -> None:
    table = new_table()
    ann = table.join("Ann", token("Ann"), 0.0, origin="house-a", per_address=6).id
    bob = table.join("Bob", token("Bob"), 0.0, origin="house-b", per_address=6).id
    for pid in (ann, bob):
        table.connect(pid, 0.0)
    table.remove(ann, bob, 1.0, ban=True)
    assert table.banned(token=token("Bob")) and table.banned(origin="house-b")
    refused("banned", table.join, "Bobby", token("Bobby"), 2.0, "house-b", 6)
    assert table.join("Cy", token("Cy"), 2.0, origin="house-c").status != Status.GONE  # another address
    bans = view(table, ann, 2.0)["me"]["bans"]
    assert bans == [{"id": 1, "name": "Bob"}]
    cy = max(table.people)
    assert view(table, cy, 2.0)["me"]["bans"] == []  # the host's list alone
    text = json.dumps([view(table, pid, 2.0) for pid in (None, ann, cy)])
    assert "house-b" not in text and token("Bob") not in text
    refused("not-host", table.unban, cy, 1, 3.0)
    refused("not-found", table.unban, ann, 7, 3.0)
    table.unban(ann, 1, 3.0)
    assert not table.banned(origin="house-b")
    table.join("Bob", token("Bob2"), 4.0, origin="house-b")
    check_all(table, 4.0)


def test_one_address_brings_at_most_the_cap_of_people_and_the_rest_of_the_room_joins() -> None:
    table = new_table()
    for i in range(4):
        table.join(f"P{i}", token(f"P{i}"), 0.0, origin="one-house", per_address=4)
    refused("address-full", table.join, "P4", token("P4"), 0.0, "one-house", 4)
    table.join("Neighbour", token("N"), 0.0, origin="next-door", per_address=4)
    table.join("Loopback", token("L"), 0.0, origin="", per_address=4)  # not counted (a local proxy: the server says)
    first = min(table.people)
    table.connect(first, 0.0)
    table.remove(first, first + 1, 1.0)  # one of them goes: there is room for one more
    table.join("P4", token("P4"), 2.0, origin="one-house", per_address=4)
    check_all(table, 2.0)


def test_a_stand_in_host_cannot_remove_the_host_and_the_role_comes_back() -> None:
    table, (ann, bob, cy) = seat_table(3)
    table.disconnect(ann, 0.0)
    table.tick(table.settings.absent_grace)
    assert table.host_role.holder == bob and table.host_role.owner == ann
    refused("first-host", table.remove, bob, ann, 61.0)
    refused("first-host", table.remove, bob, ann, 61.0, True)
    table.remove(bob, cy, 61.0)  # anyone else, yes
    table.connect(ann, 70.0)
    assert table.host_role.holder == ann
    assert table.news.recent[-1]["kind"] == "host" and table.news.recent[-1]["reason"] == "back"
    check_all(table, 70.0)


def test_handing_the_host_role_on() -> None:
    table, (ann, bob, cy) = seat_table(3)
    table.add_bot(ann, "random", 0.0)
    bot = max(table.people)
    refused("is-bot", table.hand_host, ann, bot, 1.0)
    refused("not-found", table.hand_host, ann, 99, 1.0)
    table.disconnect(cy, 1.0)
    refused("offline", table.hand_host, ann, cy, 1.0)
    table.hand_host(ann, bob, 2.0)  # the owner hands it on for good
    assert table.host_role.holder == bob and table.host_role.owner == bob
    table.connect(ann, 3.0)
    assert table.host_role.holder == bob  # it does not come back: Ann gave it away
    table.remove(bob, ann, 4.0)  # and Bob may remove her
    check_all(table, 4.0)


def test_a_stand_in_host_hands_on_only_the_stand_in_role() -> None:
    table, (ann, bob, cy) = seat_table(3)
    table.disconnect(ann, 0.0)
    table.tick(table.settings.absent_grace)
    table.hand_host(bob, cy, 61.0)
    assert table.host_role.holder == cy and table.host_role.owner == ann
    refused("first-host", table.remove, cy, ann, 62.0)
    table.connect(ann, 63.0)
    assert table.host_role.holder == ann


def test_the_host_leaving_for_good_hands_the_role_over_for_good() -> None:
    table, (ann, bob, _cy) = seat_table(3)
    table.leave(ann, 1.0)
    assert table.host_role.holder == bob and table.host_role.owner == bob


# --- end now, settings ------------------------------------------------------------------------------


def test_the_host_ends_a_game_now_and_its_record_says_so_and_replays() -> None:
    table, (ann, bob, _cy) = started(3, seconds=10.0, script=[["17", *LONG_CAVE]] * 5)
    choose(table, bob, CAMP, 1.0)  # a secret choice, dropped: never revealed
    table.end(ann, 2.0)
    assert table.moment.phase == RESULTS and table.play.game is not None and table.play.game.is_over()
    record = table.log.records[1]
    assert record["ended"] == {"by": "Ann", "move": 1} and record["inputs"][-1] == ["end"]
    assert record["scores"] == [0, 0, 0]  # the carried gems were never banked
    assert CAMP not in json.dumps(record["inputs"])
    again = replay(GameRecord.from_json(json.loads(json.dumps(record))))
    assert again.scores() == record["scores"] and again.is_over()
    assert view(table, None, 2.0)["ended"] == {"by": "Ann", "move": 1}
    refused("no-game", table.end, ann, 3.0)
    check_all(table, 3.0)


def test_the_host_changes_the_settings_between_games_only() -> None:
    table, (ann, bob, _) = seat_table(3)  # the classic preset needs three explorers
    refused("not-host", table.change_settings, bob, {"seconds": 30}, 0.0)
    table.change_settings(ann, {"seconds": 30, "preset": "classic", "options": {"relics": True}}, 1.0)
    assert table.settings.seconds == 30.0 and table.settings.preset == "classic" and table.settings.rules["relics"]
    for bad in (
        {"seconds": 0},
        {"seconds": "10"},
        {"preset": "nope"},
        {"options": {"caves": 99}},
        {"game": "chess"},  # (another game is a change: test_switch_game.py; an unknown one is not)
        {"game": 3},
        {"turn_clock": "yes"},
        [1],
    ):
        refused("bad-settings", table.change_settings, ann, bad, 2.0)
    events = table.log.events
    table.change_settings(ann, {"seconds": 30}, 3.0)  # no change: nothing logged
    assert table.log.events == events
    table.start(ann, 1, 4.0)
    refused("in-game", table.change_settings, ann, {"seconds": 10}, 5.0)
    assert table.moment.deadline == 4.0 + 30.0
    assert rebuilt(table).settings == table.settings
    check_all(table, 5.0)


# --- bots that step in, and nobody left in the dark ------------------------------------------------


def test_in_the_lobby_a_bot_gives_its_chair_to_a_waiting_person_at_once() -> None:
    table, pids = seat_table(7)
    table.add_bot(pids[0], "cautious", 0.0)
    bot = max(table.people)
    kim = join(table, "Kim", 1.0)
    assert table.people[kim].chair == 7 and bot not in table.people
    notice = table.news.recent[-1]
    assert notice["kind"] == "gave_chair" and notice["name"] == table.news.recent[-1]["name"]
    assert (notice["to"], notice["to_person"], notice["person"]) == ("Kim", kim, bot)
    assert view(table, kim, 1.0)["me"]["news"][-1]["kind"] == "gave_chair"  # it is about Kim too
    check_all(table, 1.0)


def test_an_absent_phone_walked_out_is_tagged_so_and_told_when_it_comes_back() -> None:
    table, (ann, bob, cy) = started(3, seconds=10.0, pause=2.0, script=[["17", *LONG_CAVE]] * 5)
    table.disconnect(cy, 0.5)
    choose(table, ann, DEEPER, 1.0)
    choose(table, bob, DEEPER, 1.0)
    table.tick(0.5 + GRACE)  # cy no longer holds the reveal up: sent to camp, tagged offline
    cy_seat = table.people[cy].seat
    moves = [e for e in table.log.outbox if e["type"] == "moves"][-1]
    assert moves["offline"] == [cy_seat] and "timed_out" not in moves
    assert view(table, None, 6.0)["offline"] == [cy_seat]
    notice = table.news.recent[-1]
    assert notice["kind"] == "timed_out" and notice["offline"] == [cy_seat] and notice["people"] == [cy]
    # Silent but connected at the deadline: tagged by the clock, not as offline.
    now = table.moment.opened_at + 10.0
    table.tick(now)
    last = [e for e in table.log.outbox if e["type"] == "moves"][-1]
    seats = [table.people[ann].seat, table.people[bob].seat]
    assert None not in seats and last["timed_out"] == sorted(s for s in seats if s is not None)
    assert "offline" not in last
    # Cy comes back: their view says what happened while the phone was gone.
    table.connect(cy, now + 1)
    mine = view(table, cy, now + 1)["me"]["news"]
    assert any(n["kind"] == "timed_out" and cy in n["people"] and n["offline"] == [cy_seat] for n in mine)
    check_all(table, now + 1)


def test_every_seat_of_a_record_is_named_with_who_left() -> None:
    table, (ann, _bob, cy) = started(3, seconds=10.0, script=[["17", *LONG_CAVE]] * 5)
    table.leave(cy, 1.0)
    table.end(ann, 2.0)
    record = table.log.records[1]
    seat = str(table.people[cy].seat)
    assert record["names"][seat] == "Cy" and record["left"][seat] == {
        "name": "Cy",
        "reason": "left",
        "move": 1,
        "round": 1,
    }
    assert [n["kind"] for n in record["history"]] == ["left", "ended"]


def test_in_a_game_a_bot_gives_its_chair_at_the_next_cave_and_the_record_says_so() -> None:
    table, pids = started(7, seconds=10.0, pause=1.0, script=[["17", "fire", "fire"]] * 5)
    table.add_bot(pids[0], "cautious", 0.0)  # the eighth chair, mid-game: it walks in at the next cave
    bot = max(table.people)
    kim = join(table, "Kim", 1.0)  # every chair taken: Kim waits in the queue during the cave
    assert table.people[kim].chair is None
    now = run_clock(table, 1.0, lambda t: t.play.rounds == 2)  # the cave collapses; the next one opens
    assert table.people[kim].chair is not None and bot not in [
        p.id for p in table.people.values() if p.chair is not None
    ]
    gave = [n for n in table.news.game if n["kind"] == "gave_chair"]
    assert gave and gave[-1]["to"] == "Kim" and gave[-1]["round"] == 1
    table.end(pids[0], now)
    assert any(n["kind"] == "gave_chair" and n["to"] == "Kim" for n in table.log.records[1]["history"])
    check_all(table, now)
