"""The host switches the game at the same table between games (``settings`` with ``game``): same code, same
people (and their looks), the lobby of the new game; bots leave (each game has its own); people beyond the new
game's chairs watch, in the order they came; the records of the games played stay."""

from __future__ import annotations

from typing import Any

import pytest

from gemtable.games import GameRecord, replay
from gemtable.games.expedition import CAMP
from gemtable.table import LOBBY, RESULTS, Status, TableError, table_view
from tools.oracles import record_problems

from ._helpers import assert_rebuilds, check_all, choose, finish_game, rebuilt, run_clock, started


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
    now = run_clock(table, 1.0, lambda t: t.moment.phase == RESULTS)
    with pytest.raises(TableError):
        table.change_settings(ann, {"game": "chess"}, now)
    table.change_settings(ann, {"game": "booty"}, now + 1)
    assert table.settings.game == "booty" and table.kind.name == "booty" and table.moment.phase == LOBBY
    assert table.play.game is None and table.play.number == 1 and table.log.finished == [1]
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


def _replays(record: dict[str, Any]) -> None:
    """A game's record replays to its recorded scores and winners, with nothing of the game lost (the checks the
    soak and the fuzzer make, ``tools/oracles.py``)."""
    assert replay(GameRecord.from_json(record)).scores() == record["scores"]
    assert record_problems(record) == ([], 0)


def test_booty_a_bot_added_mid_game_takes_the_free_colour_at_once_and_the_record_replays() -> None:
    table, (ann, bob, _cy) = started(3, game="booty", seconds=30.0)
    seat = table.people[bob].seat
    assert seat is not None
    now = run_clock(table, 0.0, lambda t: t.play.moves_made >= 2)
    table.leave(bob, now)  # his colour: a stand-in bot plays it
    assert table.people[bob].chair is None and table.decisions.bot_plays_for(table.people[bob])
    assert table_view(table, ann, now)["chairs"] - len([p for p in table.chairs() if p is not None]) == 1
    table.add_bot(ann, "greedy", now + 0.5)  # the free chair, mid-game: the bot takes Bob's colour at once
    bot = table.people[max(table.people)]
    assert bot.is_bot and bot.chair == seat and bot.seat == seat and bot.status == Status.SEATED
    took = [n for n in table.news.game if n["kind"] == "took_seat"]
    assert took and took[-1]["name"] == bot.name and took[-1]["was"] == "Bob"
    assert_rebuilds(table, now + 0.5)
    end = finish_game(table, now + 0.5)
    record = table.log.records[1]
    assert record["names"][str(seat)] == bot.name and record["bots"][str(seat)] == "greedy"
    _replays(record)
    check_all(table, end)


def test_a_table_that_switched_games_with_bots_added_mid_game_replays_every_record_and_rebuilds() -> None:
    """Expedition (a bot walks in at cave 2) → Booty Hunter (a bot takes a colour mid-game) → the expedition
    again: every game's record replays, and the table rebuilt from its log is the same table at every step."""
    table, pids = started(
        3, seconds=5.0, pause=1.0, options={"caves": 2}, script=[["5", "7", "spiders", "spiders"]] * 2
    )
    ann, bob, _cy = pids
    table.add_bot(ann, "cautious", 0.5)  # walks in at cave 2
    bot = table.people[max(table.people)]
    assert bot.status == Status.WAITING and bot.seat is None
    now = run_clock(table, 0.5, lambda t: t.play.rounds == 2)
    assert bot.seat is not None
    assert_rebuilds(table, now)
    now = finish_game(table, now)
    rounds = [item[1] for item in table.log.records[1]["inputs"] if item[0] == "round"]
    assert bot.seat not in rounds[0] and bot.seat in rounds[1]
    table.change_settings(ann, {"game": "booty"}, now + 1)
    assert_rebuilds(table, now + 1)
    table.start(ann, 5, now + 1)
    table.tick(now + 1)
    now = run_clock(table, now + 1, lambda t: t.play.moves_made >= 1)
    table.leave(bob, now)
    table.add_bot(ann, "greedy", now)  # Bob's colour, at once
    assert_rebuilds(table, now)
    now = finish_game(table, now)
    table.change_settings(ann, {"game": "expedition", "options": {"caves": 1}}, now + 1)
    table.add_bot(ann, "odds", now + 1)
    table.start(ann, 6, now + 2)
    table.tick(now + 2)
    table.add_bot(ann, "random", now + 3)  # mid-game again
    now = finish_game(table, now + 3)
    assert table.log.finished == [1, 2, 3]
    assert [table.log.records[n]["game"] for n in (1, 2, 3)] == ["expedition", "booty", "expedition"]
    for number in (1, 2, 3):
        _replays(table.log.records[number])
    check_all(table, now)
