"""The notices about each phone (``me.news``), found for a whole room at once (``News.about_each``)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from gemtable.games.expedition import DEEPER
from gemtable.table.news import MINE, News, about
from gemtable.table.view import encoded_views

from ._helpers import LONG_CAVE, check_encoded_views, choose_all, started

PEOPLE = st.integers(min_value=1, max_value=6)
NOTICE = st.fixed_dictionaries(
    {},
    optional={
        "person": PEOPLE,
        "to_person": PEOPLE,
        "people": st.lists(PEOPLE, max_size=3),
    },
)


def reference(news: News, pid: int) -> list[dict[str, Any]]:
    """The definition: the newest ``MINE`` notices about ``pid``, recent or of this game, each once."""
    mine = {id(n): n for n in (*news.recent, *news.game) if about(n, pid)}
    return sorted(mine.values(), key=lambda n: n["id"])[-MINE:]


@given(st.lists(st.tuples(NOTICE, st.booleans()), max_size=60), st.integers(min_value=0, max_value=5))
def test_the_notices_about_each_phone_are_the_ones_about_it(
    notices: list[tuple[dict[str, Any], bool]], new_game: int
) -> None:
    news = News()
    for number, (fields, in_game) in enumerate(notices, start=1):
        news.add({"id": number, "kind": "left", **fields}, in_game)
        if number == new_game:
            news.new_game()
    pids = range(1, 7)
    each = news.about_each(pids)
    assert set(each) == set(pids)
    for pid in pids:
        assert each[pid] == reference(news, pid)
        assert news.about(pid) == each[pid]
        ids = [n["id"] for n in each[pid]]
        assert ids == sorted(set(ids)), "in order, each notice once"


def test_a_broadcast_with_many_notices_gives_each_phone_its_own() -> None:
    """A game with notices about several people (silent turns the clock played, someone leaving): every
    phone's ``me.news`` in the broadcast's views is its own, as in its own view."""
    table, pids = started(5, script=[LONG_CAVE] * 5)
    now = 0.0
    for turn in range(8):
        game = table.play.game
        acting = game.to_act() if game is not None and table.moment.phase == "playing" else frozenset()
        speaking = [pid for pid in pids[: 2 + turn % 3] if table.person(pid).seat in acting]
        choose_all(table, dict.fromkeys(speaking, DEEPER), now + 1.0)
        now += 11.0  # the others stay silent: the clock plays for them
        table.tick(now)
        check_encoded_views(table, now)
    table.leave(pids[1], now)
    check_encoded_views(table, now)
    views = encoded_views(table, pids, now)
    told = {pid: [n["id"] for n in msgspec.json.decode(views[pid])["me"]["news"]] for pid in pids}
    assert sum(1 for ids in told.values() if ids) >= 2, told
    assert len({tuple(ids) for ids in told.values()}) >= 2, "each phone is told of itself, not the same list"
