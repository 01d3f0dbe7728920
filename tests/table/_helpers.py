"""Shared helpers of the table tests: tables, people, snapshots, rebuilds and invariants.

Nothing here touches a server or a socket: a table is driven by calling its
commands and its clock (``tick(now)``) with explicit times.  The table's outbox
is never taken, so ``table.log.outbox`` is the table's whole log, from ``created`` on.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from typing import Any

import msgspec

from gemtable.games import find_game, find_manifest
from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import RESULTS, Settings, Status, Table, table_view
from gemtable.table.view import PERSON_KEYS, encoded_views

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]

LONG_CAVE = ["1"] * 40
"""A scripted cave of one-gem treasures: it ends only when everyone walks out."""


def make_settings(
    game: str = "expedition",
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    *,
    seconds: float = 10.0,
    pause: float = 6.0,
    turn_clock: bool = True,
    script: list[list[str]] | None = None,
    countdown: float = 0.0,
    beat: float = 0.0,
    hold_silent: bool = False,
    last_call: float = 0.0,
) -> Settings:
    """A table's settings; the start's countdown, the reveal's beat, the hold of a decision nobody answered and
    the last call are off unless a test sets them (``test_host.py``, ``test_beat.py``, ``test_silent_hold.py``,
    ``test_last_call.py``)."""
    kind = find_game(game)
    preset = preset or find_manifest(game).preset(None).name
    options = options or {}
    return Settings(
        game,
        preset,
        options,
        kind.rules_json(preset, options),
        seconds,
        pause,
        turn_clock,
        script,
        countdown=countdown,
        beat=beat,
        hold_silent=hold_silent,
        last_call=last_call,
    )


def new_table(code: str = "TEST", now: float = 0.0, **kwargs: Any) -> Table:
    return Table.create(code, make_settings(**kwargs), now)


def token(name: str) -> str:
    """The (hashed) seat token a test gives ``name``: what the server would store."""
    return hashlib.sha256(f"seat-token-of-{name}".encode()).hexdigest()


def join(table: Table, name: str, now: float = 0.0, connect: bool = True) -> int:
    """``name`` joins (and, as the server does, connects); returns their id."""
    person = table.join(name, token(name), now)
    if connect:
        table.connect(person.id, now)
    return person.id


def seat_table(names: list[str] | int, now: float = 0.0, **kwargs: Any) -> tuple[Table, list[int]]:
    """A table where ``names`` (or the first n of NAMES) joined and are connected."""
    if isinstance(names, int):
        names = NAMES[:names]
    table = new_table(now=now, **kwargs)
    return table, [join(table, name, now) for name in names]


def started(names: list[str] | int = 3, now: float = 0.0, seed: int = 7, **kwargs: Any) -> tuple[Table, list[int]]:
    """A table whose first cave is open (the host, the first of ``names``, started it at ``now``)."""
    table, pids = seat_table(names, now, **kwargs)
    table.start(pids[0], seed, now)
    table.tick(now)
    return table, pids


def status(table: Table, pid: int) -> Status:
    """A person's status; someone who left and was forgotten (a watcher, or a bot that never played) is gone."""
    person = table.people.get(pid)
    return Status.GONE if person is None else person.status


def choose(table: Table, pid: int, move: str, now: float) -> None:
    """``pid`` answers the decision open now."""
    table.choose(pid, move, now, table.moment.decision)


def choose_all(table: Table, moves: dict[int, str], now: float) -> None:
    for pid, move in moves.items():
        choose(table, pid, move, now)


def everyone_camps(table: Table, now: float) -> None:
    """Every person inside the cave whose phone is connected chooses camp."""
    game = table.play.game
    assert game is not None
    for seat in sorted(game.to_act()):
        if table.moment.phase != "playing":
            return
        person = table.person_at_seat(seat)
        connected = person is not None and person.id in table.runtime.connected
        if person is not None and connected and not person.is_bot and seat not in table.play.pending:
            choose(table, person.id, CAMP, now)


def inside(table: Table) -> set[int]:
    """The ids of the people (and bots) asked to choose now."""
    game = table.play.game
    if game is None or table.moment.phase != "playing":
        return set()
    return {p.id for p in table.people.values() if p.seat is not None and p.seat in game.to_act()}


def run_clock(table: Table, now: float, until: Any, limit: int = 5000) -> float:
    """Tick at every wake-up the table asks for until ``until(table)``; returns the time reached."""
    for _ in range(limit):
        if until(table):
            return now
        wake = table.next_wakeup()
        assert wake is not None, f"the clock has nothing to do in phase {table.moment.phase}"
        now = max(now, wake)
        table.tick(now)
    raise AssertionError("the clock never got there")


def finish_game(table: Table, now: float) -> float:
    """Everyone silent: tick until the results stand."""
    return run_clock(table, now, lambda t: t.moment.phase == RESULTS)


# --- logs, snapshots, rebuilds --------------------------------------------------------------


def log(table: Table) -> list[dict[str, Any]]:
    """The table's whole log, through JSON as the store keeps it."""
    events: list[dict[str, Any]] = json.loads(json.dumps(table.log.outbox))
    assert len(events) == table.log.events
    return events


def rebuilt(table: Table) -> Table:
    """The table rebuilt from its log, told the same things about connections as the original."""
    copy_ = Table.rebuild(log(table))
    copy_.runtime = copy.deepcopy(table.runtime)
    return copy_


def viewers(table: Table) -> list[int | None]:
    return [None, *sorted(table.people)]


def snapshot(table: Table, now: float) -> dict[str, Any]:
    """Everything anyone can observe of a table, and the state its clock runs on."""
    game = table.play.game
    return {
        "views": {str(pid): table_view(table, pid, now) for pid in viewers(table)},
        "events": table.log.events,
        "moment": dataclasses.asdict(table.moment),  # (copies: a snapshot stays as it was)
        "host_role": dataclasses.asdict(table.host_role),
        "hold": dataclasses.asdict(table.hold),
        "last_id": table.last_id,
        "pending": dict(table.play.pending),
        "game_number": table.play.number,
        "seed": table.play.seed,
        "records": copy.deepcopy(table.log.records),
        "people": [dataclasses.asdict(p) for p in sorted(table.people.values(), key=lambda p: p.id)],
        "game": None if game is None else game.record().to_json(),
        "engine": None if game is None else game.view(None).to_json(),
        "next_wakeup": table.next_wakeup(),
    }


def assert_rebuilds(table: Table, now: float) -> None:
    """A table rebuilt from its events is the same table, deadlines and pending choices included."""
    assert snapshot(rebuilt(table), now) == snapshot(table, now)


# --- invariants ------------------------------------------------------------------------------


def check_conservation(table: Table) -> None:
    """No gem is created or destroyed by the expedition the table plays."""
    game: Any = table.play.game
    if game is None or table.kind.name != "expedition":
        return
    assert game.revealed == (sum(game.carried) + sum(game.chest) + sum(game.path_gems) + game.lost + game.returned)


def check_secrecy(table: Table, now: float) -> None:
    """No view shows a token, another seat's pending choice, or (before the end) another seat's chest."""
    tokens = [p.token for p in table.people.values() if p.token]
    over = table.play.game is not None and table.play.game.is_over()
    for pid in viewers(table):
        view = table_view(table, pid, now)
        text = json.dumps(view)
        for secret in tokens:
            assert secret not in text
        assert all(set(entry) == PERSON_KEYS for entry in view["people"])
        me = view["me"]
        my_seat = None if me is None else me["seat"]
        if me is not None:
            assert me["choice"] == (table.play.pending.get(my_seat) if my_seat is not None else None)
        state = view["state"]
        if state is not None and table.kind.name == "expedition" and not over:
            for player in state["players"]:
                if player["seat"] != my_seat:
                    assert player["chest"] is None and player["chest_by_cave"] is None
        # Non-interference: flipping someone else's pending choice changes nothing this viewer sees.
        for seat, move in list(table.play.pending.items()):
            if seat == my_seat:
                continue
            table.play.pending[seat] = CAMP if move == DEEPER else DEEPER
            try:
                assert table_view(table, pid, now) == view
            finally:
                table.play.pending[seat] = move


def check_chairs(table: Table) -> None:
    """Chairs hold one person each, at most the game's number of them; watchers only wait for a full table."""
    taken = [p.chair for p in table.people.values() if p.chair is not None]
    assert len(taken) == len(set(taken)) <= table.kind.max_seats
    assert all(0 <= chair < table.kind.max_seats for chair in taken)
    for person in table.people.values():
        if person.status in (Status.WATCHING, Status.GONE):
            assert person.chair is None
        if person.status in (Status.SEATED, Status.WAITING):
            assert person.chair is not None
        if person.is_bot:
            assert person.status == Status.GONE or person.chair is not None
    if table.queue():
        assert len(taken) == table.kind.max_seats, "someone watches while a chair is free"
    if table.kind.seats_per_game != table.kind.max_seats:
        seats = [p.seat for p in table.people.values() if p.seat is not None]
        assert len(seats) == len(set(seats)), "two people share a seat of the game"
    if table.host_role.holder is not None:
        host = table.people[table.host_role.holder]
        assert host.status != Status.GONE and not host.is_bot


def check_all(table: Table, now: float) -> None:
    check_chairs(table)
    check_conservation(table)
    check_secrecy(table, now)
    check_encoded_views(table, now)
    assert_rebuilds(table, now)


def check_encoded_views(table: Table, now: float) -> None:
    """The server's views, built once for everyone and encoded by parts, are each viewer's
    :func:`table_view` exactly (as JSON), for everyone at the table, and for an onlooker."""
    viewers: list[int | None] = [*table.people, None]
    encoded = encoded_views(table, viewers, now)
    for pid in viewers:
        assert msgspec.json.decode(encoded[pid]) == json.loads(json.dumps(table_view(table, pid, now)))
