"""Joining a table: names, chairs, the queue, seat tokens and the host."""

from __future__ import annotations

import json

import pytest

from gemtable.table import LOBBY, Status, TableError, clean_name, table_view
from gemtable.table.table import NAME_MAX

from ._helpers import NAMES, check_all, join, new_table, seat_table, started, status, token

# --- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ann", "Ann"),
        ("  Ann  ", "Ann"),
        ("Ann   Lee", "Ann Lee"),
        ("\u00a0Ann\u3000", "Ann"),  # no-break and ideographic spaces are spaces too
        ("A\u200bnn", "Ann"),  # zero-width space: not printable
        ("Zoë 🐙", "Zoë 🐙"),
        ("x" * NAME_MAX, "x" * NAME_MAX),
        ("  " + "x" * NAME_MAX + "  ", "x" * NAME_MAX),  # trimmed before it is measured
    ],
)
def test_names_are_trimmed_and_cleaned(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "\x00\x01",
        "\u200b",
        "x" * (NAME_MAX + 1),
        None,
        42,
        ["Ann"],
        "An\x00n\x07",
        "\x1b[31mAnn",
        "a\u0007b",
    ],
)  # control characters: refused
def test_bad_names_are_refused(raw: object) -> None:
    with pytest.raises(TableError) as err:
        clean_name(raw)
    assert err.value.code == "bad-name"


def test_a_refused_name_changes_nothing() -> None:
    table, _ = seat_table(2)
    before = list(table.log.outbox)
    for raw in ["", "x" * 30, "ann", " BOB "]:
        with pytest.raises(TableError):
            table.join(raw, token(repr(raw)), 1.0)
    assert table.log.outbox == before and table.log.events == len(before)
    assert len(table.people) == 2


@pytest.mark.parametrize("other", ["ann", "ANN", " Ann ", "a\u200bnn", "\u0410nn"])
def test_names_are_unique_ignoring_case(other: str) -> None:
    table, _ = seat_table(["Ann"])
    with pytest.raises(TableError) as err:
        join(table, other, 1.0)
    assert err.value.code == "name-taken"


def test_unique_names_casefold() -> None:
    table, _ = seat_table(["Straße"])
    with pytest.raises(TableError):
        join(table, "STRASSE", 1.0)


def test_a_name_frees_up_when_its_owner_leaves() -> None:
    table, (ann, _bob) = seat_table(["Ann", "Bob"])
    table.leave(ann, 1.0)
    again = join(table, "ann", 2.0)
    assert again != ann and table.people[again].name == "ann"
    assert status(table, ann) == Status.GONE


def test_the_name_shown_is_the_cleaned_one() -> None:
    table = new_table()
    pid = join(table, "  Dee \t ")
    assert table.people[pid].name == "Dee"
    assert [p["name"] for p in table_view(table, None, 0.0)["people"]] == ["Dee"]


# --- chairs, waiting and watching ------------------------------------------------------------


def test_in_the_lobby_everyone_takes_a_chair_in_order() -> None:
    table, pids = seat_table(8)
    assert [table.people[pid].chair for pid in pids] == list(range(8))
    assert all(status(table, pid) == Status.SEATED for pid in pids)
    assert table.queue() == []
    check_all(table, 0.0)


def test_the_ninth_watches_in_a_queue() -> None:
    table, pids = seat_table(11)
    watchers = pids[8:]
    assert [status(table, pid) for pid in watchers] == [Status.WATCHING] * 3
    assert [p.id for p in table.queue()] == watchers
    assert all(table.people[pid].chair is None for pid in watchers)
    view = table_view(table, watchers[1], 0.0)
    assert view["queue"] == watchers
    assert view["me"]["queue_position"] == 2 and view["me"]["chair"] is None
    assert table_view(table, pids[0], 0.0)["me"]["queue_position"] is None
    check_all(table, 0.0)


def test_the_first_in_the_queue_takes_a_freed_chair() -> None:
    table, pids = seat_table(11)
    table.leave(pids[3], 5.0)
    assert table.people[pids[8]].chair == 3
    assert status(table, pids[8]) == Status.SEATED  # in the lobby: simply seated
    assert [p.id for p in table.queue()] == pids[9:]
    check_all(table, 5.0)


def test_the_queue_keeps_arrival_order_not_ids() -> None:
    table, pids = seat_table(8)
    late = [join(table, name, t) for name, t in (("Ivy", 3.0), ("Jo", 4.0), ("Kim", 5.0))]
    table.leave(pids[0], 6.0)
    table.leave(pids[1], 7.0)
    assert [table.people[pid].chair for pid in late[:2]] == [0, 1]
    assert [p.id for p in table.queue()] == [late[2]]


def test_arriving_late_takes_a_chair_marked_waiting() -> None:
    table, (ann, bob) = started(2)
    cy = join(table, "Cy", 3.0)
    assert status(table, cy) == Status.WAITING
    assert table.people[cy].chair == 2 and table.people[cy].seat is None
    # Everyone can see it; the late arrival has nothing to press.
    for viewer in (ann, bob, cy, None):
        entry = next(p for p in table_view(table, viewer, 3.0)["people"] if p["id"] == cy)
        assert entry["status"] == "waiting" and not entry["to_act"]
    assert table_view(table, cy, 3.0)["me"]["moves"] == []
    with pytest.raises(TableError) as err:
        table.choose(cy, "deeper", 3.0, table.moment.decision)
    assert err.value.code == "not-your-turn"
    check_all(table, 3.0)


def test_booty_has_exactly_three_chairs() -> None:
    table, pids = seat_table(4, game="booty")
    assert [table.people[pid].chair for pid in pids] == [0, 1, 2, None]
    assert status(table, pids[3]) == Status.WATCHING
    assert table_view(table, None, 0.0)["chairs"] == 3
    with pytest.raises(TableError) as err:
        table.add_bot(pids[0], "random", 1.0)
    assert err.value.code in ("no-chair", "unknown-bot")
    check_all(table, 0.0)


# --- tokens ----------------------------------------------------------------------------------


def test_a_seat_token_finds_its_person() -> None:
    table, pids = seat_table(3)
    for name, pid in zip(NAMES, pids, strict=False):
        person = table.by_token(token(name))
        assert person is not None and person.id == pid
    assert table.by_token(token("nobody")) is None
    assert table.by_token("") is None


def test_a_token_is_forgotten_when_its_person_leaves() -> None:
    table, (ann, _bob) = seat_table(2)
    table.leave(ann, 1.0)
    assert table.by_token(token("Ann")) is None


def test_bots_have_no_token() -> None:
    table, (ann, _bob) = seat_table(2)
    table.add_bot(ann, "cautious", 1.0)
    bot = next(p for p in table.people.values() if p.is_bot)
    assert bot.token is None
    assert table.by_token(None) is None  # type: ignore[arg-type]


def test_no_view_carries_a_token() -> None:
    table, _pids = started(3)
    join(table, "Dee", 1.0)
    for viewer in [None, *table.people]:
        text = json.dumps(table_view(table, viewer, 1.0))
        assert all(token(name) not in text for name in NAMES)


# --- the host --------------------------------------------------------------------------------


def test_the_first_to_join_hosts() -> None:
    table, (ann, bob) = seat_table(2)
    assert table.host_role.holder == ann
    assert table_view(table, ann, 0.0)["me"]["host"] is True
    assert table_view(table, bob, 0.0)["me"]["host"] is False
    assert table_view(table, None, 0.0)["host"] == ann


@pytest.mark.parametrize(
    "command",
    [
        lambda t, pid: t.start(pid, 1, 1.0),
        lambda t, pid: t.add_bot(pid, "random", 1.0),
        lambda t, pid: t.remove_bot(pid, 2, 1.0),
    ],
)
def test_only_the_host_starts_and_seats_bots(command: object) -> None:
    table, (ann, bob) = seat_table(2)
    table.add_bot(ann, "odds", 0.5)
    before = list(table.log.outbox)
    with pytest.raises(TableError) as err:
        command(table, bob)  # type: ignore[operator]
    assert err.value.code == "not-host"
    assert table.log.outbox == before
    with pytest.raises(TableError) as unknown:
        command(table, 99)  # type: ignore[operator]
    assert unknown.value.code == "unknown-person"


def test_the_host_hands_over_to_the_next_arrival() -> None:
    table, (ann, bob, cy) = seat_table(3)
    table.leave(ann, 1.0)
    assert table.host_role.holder == bob
    table.leave(bob, 2.0)
    assert table.host_role.holder == cy
    check_all(table, 2.0)


def test_the_host_never_passes_to_a_bot() -> None:
    table, (ann, bob) = seat_table(2)
    table.add_bot(ann, "random", 0.5)
    table.add_bot(ann, "cautious", 0.6)
    table.leave(bob, 1.0)
    table.leave(ann, 2.0)
    assert table.host_role.holder is None
    # The next person to arrive hosts the table.
    dee = join(table, "Dee", 3.0)
    assert table.host_role.holder == dee
    check_all(table, 3.0)


def test_the_host_passes_to_a_seated_person_before_a_watcher() -> None:
    table, pids = seat_table(9)
    watcher = pids[8]
    table.leave(pids[0], 1.0)  # the host leaves: the watcher takes the chair, Bob hosts
    assert table.host_role.holder == pids[1]
    assert table.people[watcher].chair == 0
    check_all(table, 1.0)


def test_the_host_passes_in_the_middle_of_a_game() -> None:
    table, (ann, bob, _cy) = started(3)
    table.leave(ann, 2.0)
    assert table.host_role.holder == bob
    assert table.moment.phase == "playing"
    check_all(table, 2.0)


def test_leaving_twice_or_as_a_stranger_is_refused() -> None:
    table, (ann, _bob) = seat_table(2)
    table.leave(ann, 1.0)
    with pytest.raises(TableError) as err:
        table.leave(ann, 2.0)
    assert err.value.code == "gone"
    with pytest.raises(TableError) as unknown:
        table.leave(42, 2.0)
    assert unknown.value.code == "unknown-person"


def test_a_new_table_is_an_empty_lobby() -> None:
    table = new_table()
    assert table.moment.phase == LOBBY and table.host_role.holder is None and table.people == {}
    view = table_view(table, None, 0.0)
    assert view["people"] == [] and view["me"] is None and view["state"] is None
    assert view["settings"]["seconds"] == 10.0
    assert table.next_wakeup() is None
