"""After the fifth cave: the results stand, the host starts a new game, and every game keeps its record."""

from __future__ import annotations

from typing import Any

import pytest

from gemtable.games import GameRecord, replay
from gemtable.games.expedition import DEEPER
from gemtable.table import LOBBY, PLAYING, RESULTS, Status, TableError, table_view

from ._helpers import check_all, choose, finish_game, inside, join, seat_table, started, status


def test_the_results_stand_after_the_fifth_cave() -> None:
    table, (ann, bob, _cy) = started(3, seed=11)
    end = finish_game(table, 0.0)
    assert table.moment.phase == RESULTS and table.play.game is not None and table.play.game.is_over()
    view = table_view(table, bob, end)
    assert view["results"] == [1]
    assert view["state"]["scores"] is not None and view["state"]["winners"] is not None
    # At the end every chest is shown to everyone.
    assert all(p["chest"] is not None for p in table_view(table, None, end)["state"]["players"])
    assert view["me"]["moves"] == [] and view["remaining_ms"] is None
    with pytest.raises(TableError) as err:
        choose(table, ann, DEEPER, end + 1)
    assert err.value.code == "no-decision"
    assert table.next_wakeup() is None
    check_all(table, end)


def test_only_the_host_starts_and_never_during_a_game() -> None:
    table, (ann, bob) = started(2)
    with pytest.raises(TableError) as err:
        table.start(ann, 2, 1.0)
    assert err.value.code == "in-game"
    end = finish_game(table, 1.0)
    with pytest.raises(TableError) as not_host:
        table.start(bob, 2, end + 1)
    assert not_host.value.code == "not-host"
    events = table.log.events
    table.start(ann, 2, end + 1)
    assert table.log.events > events and table.play.number == 2 and table.moment.phase == PLAYING


def test_a_game_needs_two_players() -> None:
    table, (ann,) = seat_table(1)
    with pytest.raises(TableError) as err:
        table.start(ann, 1, 0.0)
    assert err.value.code == "too-few"
    assert table.moment.phase == LOBBY and table.log.events == 3  # created, joined, seated


def test_a_preset_that_needs_three_refuses_two_and_changes_nothing() -> None:
    table, (ann, _bob) = seat_table(2, preset="classic")
    before = list(table.log.outbox)
    with pytest.raises(TableError) as err:
        table.start(ann, 1, 0.0)
    assert err.value.code == "too-few"
    assert table.log.outbox == before and table.log.events == len(before)
    assert table.moment.phase == LOBBY and table.play.game is None and table.play.number == 0
    table.add_bot(ann, "odds", 1.0)
    table.start(ann, 1, 2.0)
    assert table.moment.phase == PLAYING and len(inside(table)) == 3
    check_all(table, 2.0)


def test_away_players_do_not_count_towards_a_new_game() -> None:
    table, (ann, bob) = started(2)
    table.disconnect(bob, 0.5)
    end = finish_game(table, 0.5)
    assert status(table, bob) == Status.AWAY
    with pytest.raises(TableError) as err:
        table.start(ann, 3, end + 1)
    assert err.value.code == "too-few"
    table.connect(bob, end + 2)
    assert status(table, bob) == Status.SEATED
    table.start(ann, 3, end + 3)
    assert inside(table) == {ann, bob}


def test_a_new_game_seats_everyone_waiting_included() -> None:
    table, (ann, bob, cy) = started(3, seed=4)
    dee = join(table, "Dee", 1.0)  # arrives during the first game
    assert status(table, dee) == Status.WAITING
    table.leave(bob, 2.0)  # bob's chair (1) is free for the rest of the game
    end = finish_game(table, 2.0)
    # At the results the late arrival is simply seated.
    assert status(table, dee) == Status.SEATED
    eve = join(table, "Eve", end + 1)  # arrives at the results: seated too
    assert status(table, eve) == Status.SEATED and table.people[eve].chair == 1
    table.start(ann, 99, end + 2)
    table.tick(end + 2)
    assert table.play.number == 2 and table.moment.phase == PLAYING
    assert inside(table) == {ann, cy, dee, eve}
    # Seats are handed out afresh, in chair order.
    by_chair = sorted((table.people[p].chair or 0, table.people[p].seat) for p in (ann, cy, dee, eve))
    assert [seat for _, seat in by_chair] == [0, 1, 2, 3]
    assert bob not in table.people  # bob left before this game: forgotten (his name is in game 1's record)
    assert bob not in {p["id"] for p in table_view(table, None, end + 2)["people"]}
    game: Any = table.play.game
    assert game.cave == 1
    assert all(game.chest[s] == 0 for s in range(game.seats))
    check_all(table, end + 2)


def test_records_are_kept_per_game_and_replay_in_the_engine() -> None:
    table, (ann, _bob, cy) = started(3, seed=21)
    end = finish_game(table, 0.0)
    table.leave(cy, end + 1)
    dee = join(table, "Dee", end + 2)
    table.start(ann, 22, end + 3)
    end2 = finish_game(table, end + 3)
    assert sorted(table.log.records) == [1, 2]
    assert table_view(table, dee, end2)["results"] == [1, 2]
    first, second = table.log.records[1], table.log.records[2]
    assert (first["number"], first["seed"], first["table"]) == (1, 21, "TEST")
    assert (second["number"], second["seed"]) == (2, 22)
    assert first["names"] == {"0": "Ann", "1": "Bob", "2": "Cy"}
    assert second["names"] == {"0": "Ann", "1": "Bob", "2": "Dee"}
    for record in (first, second):
        game = replay(GameRecord.from_json(record))
        assert game.is_over()
        assert game.scores() == record["scores"]
        assert game.winners() == record["winners"]
        assert game.record().inputs == record["inputs"]
    # The first record did not change when the second game was played.
    assert table.log.records[1] == first
    check_all(table, end2)


def test_a_record_replays_with_away_players_and_late_arrivals() -> None:
    table, (ann, _bob, cy) = started(3, seed=5)
    table.disconnect(cy, 0.1)
    join(table, "Dee", 3.0)
    table.add_bot(ann, "cautious", 3.5)
    end = finish_game(table, 3.0)
    record = table.log.records[1]
    assert set(record["names"].values()) == {"Ann", "Bob", "Cy", "Dee", "Ada"}
    rounds = [item[1] for item in record["inputs"] if item[0] == "round"]
    assert len(rounds) == 5
    assert len(rounds[0]) == 3 and len(rounds[1]) == 5  # Dee and the bot walk into cave 2
    assert max(len(r) for r in rounds[2:]) == 4  # cy, gone for the whole of cave 2, sits out
    game = replay(GameRecord.from_json(record))
    assert game.scores() == record["scores"]
    check_all(table, end)


def test_booty_plays_to_the_end_with_silent_players_and_replays() -> None:
    table, _pids = started(3, game="booty", seconds=2.0)
    assert table.moment.phase == PLAYING and table.play.game is not None and not table.manifest.simultaneous
    assert len(table.play.game.to_act()) == 1
    end = finish_game(table, 0.0)
    record = table.log.records[1]
    game = replay(GameRecord.from_json(record))
    assert game.scores() == record["scores"]
    check_all(table, end)


def test_booty_bots_play_at_bot_pace() -> None:
    table, (ann, _bob) = seat_table(2, game="booty")
    table.add_bot(ann, "greedy" if "greedy" in _booty_bots() else _booty_bots()[0], 0.0)
    table.start(ann, 1, 0.0)
    table.tick(0.0)
    end = finish_game(table, 0.0)
    assert table.moment.phase == RESULTS
    check_all(table, end)


def _booty_bots() -> list[str]:
    from gemtable.bots import bot_names

    return bot_names("booty")
