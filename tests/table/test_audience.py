"""The audience plays (``table/audience.py``): watchers predict at every decision, locked at the reveal, scored
when known, kept for the night by person, replayed exactly, and never part of a game's record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import PLAYING, RESULTS, REVEAL, Table, TableError, table_view
from gemtable.table.audience import MAX_CHANGES, standings

from ._helpers import NAMES, assert_rebuilds, check_all, choose, join, rebuilt, run_clock, started

# Cave 1: a treasure, a first spider (no collapse), a second spider (the collapse); cave 2: treasures.
SCRIPT = [["1", "spiders", "spiders"], ["4", "4", "4", "4"]]


def crowd(**kwargs: Any) -> tuple[Table, list[int], list[int]]:
    """Eight players in a game (the first cave open) and two watchers in the queue (Ivy, Jo)."""
    table, players = started(NAMES[:8], script=SCRIPT, **kwargs)
    watchers = [join(table, name, 0.0) for name in NAMES[8:10]]
    return table, players, watchers


def key(table: Table) -> str:
    question = table_view(table, table.queue()[0].id, 0.0)["me"]["audience"]["open"]
    assert question is not None
    return str(question["key"])


def reveal(table: Table, players: list[int], leavers: set[int], now: float) -> None:
    for pid in players:
        if table.moment.phase == PLAYING and table.people[pid].seat in table.play.game.to_act():  # type: ignore[union-attr]
            choose(table, pid, CAMP if pid in leavers else DEEPER, now)


def seat(table: Table, pid: int) -> int:
    found = table.people[pid].seat
    assert found is not None
    return found


def test_predictions_are_locked_at_the_reveal_and_scored_when_known() -> None:
    table, players, (ivy, jo) = crowd()
    ann, bob = players[0], players[1]
    first = key(table)
    table.predict(ivy, first, 1.0, out=[seat(table, ann)], collapse=False)
    table.predict(jo, first, 1.0, out=[seat(table, ann), seat(table, bob)], collapse=True)
    view = table_view(table, ivy, 1.0)["me"]["audience"]
    assert view["mine"] == {"out": [0], "collapse": False, "leader": None}
    assert view["score"] == 0 and view["changes_left"] == MAX_CHANGES
    assert table_view(table, None, 1.0)["audience"] is None, "nothing is shown of a prediction before the reveal"
    reveal(table, players, {ann}, 2.0)  # Ann walks out; the next card is the first spider: no collapse
    assert key(table) != first
    # Ivy: Ann (right) and no collapse (right): 2.  Jo: Ann right, Bob wrong: 0; the collapse wrong: 0.
    assert table.audience.scores == {ivy: 2, jo: 0}
    shared = table_view(table, None, 2.0)["audience"]
    assert shared["last"] == {"key": first, "watchers": 2, "out": {"0": 2, "1": 1}, "collapse": {"yes": 1, "no": 1}}
    assert shared["standings"] == [{"id": ivy, "name": "Ivy", "points": 2, "rank": 1}]
    assert table_view(table, ivy, 2.0)["me"]["audience"]["result"] == {
        "key": first,
        "points": 2,
        "out": 1,
        "collapse": 1,
    }
    with pytest.raises(TableError) as refused:
        table.predict(jo, first, 2.5, collapse=True)
    assert refused.value.code == "locked"
    second = key(table)
    table.predict(jo, second, 3.0, collapse=True)
    reveal(table, players, set(), 4.0)  # everyone goes on; the second spider collapses the cave
    assert table.audience.scores == {ivy: 2, jo: 1}
    check_all(table, 4.0)


def test_the_reveal_locks_during_the_beat_and_the_collapse_is_scored_at_the_next_card() -> None:
    table, players, (ivy, _jo) = crowd(beat=2.0)
    first = key(table)
    table.predict(ivy, first, 1.0, collapse=True)
    reveal(table, players, set(), 1.0)
    assert table.moment.phase == REVEAL
    with pytest.raises(TableError) as refused:
        table.predict(ivy, first, 1.5, collapse=False)
    assert refused.value.code == "locked"
    assert table.audience.scores == {}, "the collapse is not known until the next card"
    table.tick(3.0)  # the beat ends: the first spider, no collapse
    assert table.audience.scores == {ivy: 0}
    assert_rebuilds(table, 3.0)


def test_refusals_say_what_is_wrong_and_change_nothing() -> None:
    table, players, (ivy, jo) = crowd()
    first = key(table)
    before = table.log.events
    cases: list[tuple[int, object, dict[str, object], str]] = [
        (players[0], first, {"collapse": True}, "not-watching"),
        (ivy, first, {}, "bad-prediction"),
        (ivy, first, {"out": []}, "bad-prediction"),
        (ivy, first, {"out": [42]}, "bad-prediction"),
        (ivy, first, {"out": [0, 0]}, "bad-prediction"),
        (ivy, first, {"out": "0"}, "bad-prediction"),
        (ivy, first, {"out": [True]}, "bad-prediction"),
        (ivy, first, {"collapse": "yes"}, "bad-prediction"),
        (ivy, first, {"leader": 1}, "bad-prediction"),
        (ivy, "1/9.9", {"collapse": True}, "locked"),
        (ivy, None, {"collapse": True}, "locked"),
    ]
    for pid, asked, parts, code in cases:
        with pytest.raises(TableError) as refused:
            table.predict(pid, asked, 1.0, **parts)
        assert refused.value.code == code, (parts, refused.value.message)
    with pytest.raises(TableError) as unknown:
        table.predict(999, first, 1.0, collapse=True)
    assert unknown.value.code == "unknown-person"
    assert table.log.events == before
    for _ in range(MAX_CHANGES + 1):
        table.predict(jo, first, 1.0, collapse=True)
    with pytest.raises(TableError) as bounded:
        table.predict(jo, first, 1.0, collapse=False)
    assert bounded.value.code == "too-many-changes"
    choose(table, players[0], CAMP, 1.5)
    reveal(table, players, {players[0]}, 2.0)
    with pytest.raises(TableError) as walked:
        table.predict(ivy, key(table), 2.0, out=[0])
    assert walked.value.code == "bad-prediction", "Ann is no longer in the cave"


def test_nothing_to_predict_outside_a_game() -> None:
    table, players, (ivy, _jo) = crowd()
    table.end(players[0], 1.0)
    assert table.moment.phase == RESULTS
    with pytest.raises(TableError) as refused:
        table.predict(ivy, "1/1.1", 1.0, collapse=True)
    assert refused.value.code == "no-question"


def test_a_watcher_who_takes_a_freed_chair_keeps_their_points() -> None:
    table, players, (ivy, jo) = crowd()
    table.predict(ivy, key(table), 1.0, out=[seat(table, players[7])])
    reveal(table, players, {players[7]}, 2.0)
    assert table.audience.scores[ivy] == 1
    table.leave(players[6], 2.5)  # Gus leaves: Ivy, first in the queue, takes his chair for the next cave
    assert table.people[ivy].chair is not None
    mine = table_view(table, ivy, 2.5)["me"]["audience"]
    assert mine["score"] == 1 and mine["rank"] == 1 and mine["open"] is not None, "no seat in this cave: she watches"
    now = run_clock(table, 3.0, lambda t: t.people[ivy].seat is not None)  # the next cave: she walks in
    mine = table_view(table, ivy, now)["me"]["audience"]
    assert mine["score"] == 1 and mine["open"] is None
    with pytest.raises(TableError) as refused:
        table.predict(ivy, "1/2.1", now, collapse=True)
    assert refused.value.code == "not-watching"
    assert [row["name"] for row in standings(table.audience, table)] == ["Ivy"]
    now = run_clock(table, now, lambda t: t.moment.phase == RESULTS)
    table.start(players[0], 9, now)
    table.tick(now)
    assert table_view(table, ivy, now)["me"]["audience"]["score"] == 1, "the points are the night's"
    assert table_view(table, jo, now)["audience"]["standings"][0]["name"] == "Ivy"
    assert_rebuilds(table, now)


def test_ties_share_a_rank_and_the_first_to_reach_it_is_listed_first() -> None:
    table, players, watchers = crowd()
    extra = join(table, "Kim", 0.0)
    ivy, jo = watchers
    first = key(table)
    table.predict(jo, first, 1.0, collapse=False)
    table.predict(ivy, first, 1.0, collapse=False)
    table.predict(extra, first, 1.0, collapse=True)
    reveal(table, players, set(), 2.0)
    rows = standings(table.audience, table)
    assert [(r["name"], r["points"], r["rank"]) for r in rows] == [("Ivy", 1, 1), ("Jo", 1, 1)]


def test_a_rebuilt_table_has_the_same_standings_and_the_record_is_the_same_without_predictions() -> None:
    def play(predict: bool) -> tuple[Table, str]:
        table, players, (ivy, jo) = crowd()
        for leavers in ({players[0]}, set()):
            if predict:
                asked = key(table)
                table.predict(ivy, asked, 1.0, out=[1], collapse=False)
                table.predict(jo, asked, 1.0, collapse=True)
            reveal(table, players, leavers, 2.0)
        run_clock(table, 2.0, lambda t: t.moment.phase == RESULTS)
        return table, json.dumps(table.log.records[1], sort_keys=True)

    with_calls, record = play(True)
    without, plain = play(False)
    assert record == plain, "predictions never change a game's record"
    assert with_calls.audience.scores and not without.audience.scores
    copy_ = rebuilt(with_calls)
    assert standings(copy_.audience, copy_) == standings(with_calls.audience, with_calls)
    assert copy_.audience.results == with_calls.audience.results


def test_booty_hunter_asks_once_who_leads_after_the_count() -> None:
    table, players = started(["Ann", "Bob", "Cy"], game="booty")
    watcher = join(table, "Dee", 0.0)
    table.people[watcher]  # (three chairs: Dee is the fourth, watching)
    assert table.people[watcher].chair is None
    question = table_view(table, watcher, 0.0)["me"]["audience"]["open"]
    assert question == {"key": "1/leader", "leader": [0, 1, 2], "once": True}
    table.predict(watcher, "1/leader", 1.0, leader=1)
    with pytest.raises(TableError) as again:
        table.predict(watcher, "1/leader", 1.0, leader=2)
    assert again.value.code == "already-predicted"
    winners = table.play.game.winners  # type: ignore[union-attr]
    table.end(players[0], 2.0)  # the count as the board stands
    scored = table.audience.scores[watcher]
    assert scored == int(1 in winners())
    shown = table_view(table, None, 2.0)["audience"]
    assert shown["last"] == {"key": "1/leader", "watchers": 1, "leader": {"1": 1}}
    assert_rebuilds(table, 2.0)
