"""Properties over random interleavings of everything that can happen at a table.

A sequence of abstract actions (join, leave, add or remove a bot, remove or ban anyone, lift a ban,
start (a countdown) or cancel it, pause, resume, end the game, hand the host role on, change the
settings, give someone extra time, choose — valid or not, by the right person or not, for the current
decision or a stale one —, connect, disconnect, let time pass) is played on a table, as the server
would: every command at the current time, then ``tick(now)``.  After every step:

* a refused command (``TableError``) left the table exactly as it was;
* no view shows a token, another seat's pending choice, or (before the end) another chest;
* no two people share a chair, and there are at most as many chairs as the game has;
* the table rebuilt from its events is the same table;
* the expedition conserves its gems;
* once the clock has caught up, ``next_wakeup`` is in the future (nothing is overdue);
* a step made only of secret choices (what the server tells as a ``chosen`` message, protocol version 2)
  changes every viewer's view exactly as ``apply_choices`` says, and nothing else of it.

At the end, with everyone connected and silent, the clock alone finishes the game.
Sequences come from Hypothesis (which shrinks a failure to a short story) and
from seeded random walks (longer ones).
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gemtable.games import GameRecord, replay
from gemtable.games.expedition import CAMP, DEEPER
from gemtable.table import LOBBY, PAUSE, PLAYING, RESULTS, Status, Table, TableError
from gemtable.table.view import apply_choices, choices_only, table_view

from ._helpers import check_all, new_table, run_clock, snapshot, token

Action = tuple[Any, ...]

NAME_POOL = [
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu",
    "ann", " BOB ", "", "x" * 30, "cautious", "Zoë\u200b",
]  # fmt: skip
BOTS = ["cautious", "odds", "random", "random", "montecarlo", "nobody"]
MOVES = [DEEPER, CAMP, DEEPER, CAMP, "sideways", "", None]
STALE = [None, "current", "current", "previous", "next"]
STEPS = [0.0, 0.3, 1.0, 1.0, 2.5, 4.0, 5.0, 6.0, 11.0, 20.0, 61.0]
SETTINGS = [{"seconds": 5}, {"seconds": 30, "pause": 2}, {"preset": "classic"}, {"seconds": 0}, {"caves": 2}, None]
UNKNOWN = 999


class Story:
    """One table, driven by abstract actions, checked after every step."""

    def __init__(
        self, game: str = "expedition", check_every: int = 1, careful: bool = True, countdown: float = 0.0
    ) -> None:
        self.table: Table = new_table(game=game, seconds=10.0, pause=6.0, countdown=countdown)
        self.now = 0.0
        self.check_every = check_every
        self.careful = careful
        self.steps = 0
        self.refused = 0
        self.done = 0
        self.seed = 0
        self.chosen_steps = 0

    # --- resolving abstract actions -------------------------------------------------------

    def who(self, index: int, among: list[int] | None = None) -> int:
        people = sorted(self.table.people) if among is None else among
        if not people or index % (len(people) + 1) == len(people):
            return UNKNOWN
        return people[index % (len(people) + 1)]

    def inside(self) -> list[int]:
        table = self.table
        game = table.play.game
        if game is None or table.moment.phase != PLAYING:
            return []
        return sorted(p.id for p in table.people.values() if p.seat is not None and p.seat in game.to_act())

    def command(self, action: Action) -> Any:
        """The command an action stands for, as a function of the time."""
        table = self.table
        kind = action[0]
        if kind == "join":
            name = NAME_POOL[action[1] % len(NAME_POOL)]

            def join(now: float) -> None:
                person = table.join(name, token(f"{name}#{len(table.people)}"), now)
                table.connect(person.id, now)

            return join
        if kind == "leave":
            pid = self.who(action[1])
            return lambda now: table.leave(pid, now)
        if kind == "add_bot":
            pid, bot = self.who(action[1]), action[2]
            return lambda now: table.add_bot(pid, bot, now)
        if kind == "remove_bot":
            pid, chair = self.who(action[1]), action[2]
            return lambda now: table.remove_bot(pid, chair, now)
        if kind == "remove":
            pid, target = self.who(action[1]), self.who(action[2])
            ban = len(action) > 3 and bool(action[3])
            return lambda now: table.remove(pid, target, now, ban)
        if kind == "unban":
            pid, ban = self.who(action[1]), action[2]
            return lambda now: table.unban(pid, ban, now)
        if kind == "host":
            pid, target = self.who(action[1]), self.who(action[2])
            return lambda now: table.hand_host(pid, target, now)
        if kind in ("pause", "resume", "end", "cancel"):
            pid = self.who(action[1])
            do = {"pause": table.pause, "resume": table.resume, "end": table.end, "cancel": table.cancel_start}[kind]
            return lambda now: do(pid, now)
        if kind == "extra_time":
            pid, target, factor = self.who(action[1]), self.who(action[2]), action[3]
            return lambda now: table.extra_time(pid, target, factor, now)
        if kind == "settings":
            pid, changes = self.who(action[1]), SETTINGS[action[2] % len(SETTINGS)]
            return lambda now: table.change_settings(pid, changes, now)
        if kind == "start":
            pid = self.who(action[1])
            self.seed += 1
            seed = self.seed
            return lambda now: table.start(pid, seed, now)
        if kind == "choose":
            _, index, move, stale, aim = action
            pid = self.who(index, self.inside() if aim else None)
            decision = {
                None: None,
                "current": table.moment.decision,
                "previous": table.moment.decision - 1,
                "next": table.moment.decision + 1,
            }[stale]
            return lambda now: table.choose(pid, move, now, decision)
        if kind == "connect":
            pid = self.who(action[1])
            return lambda now: table.connect(pid, now)
        if kind == "disconnect":
            pid = self.who(action[1])
            return lambda now: table.disconnect(pid, now)
        raise AssertionError(kind)

    # --- playing and checking -------------------------------------------------------------

    def play(self, action: Action) -> None:
        table = self.table
        watch = self._before_choices()
        if action[0] == "tick":
            self.now += action[1]
        else:
            run = self.command(action)
            before = snapshot(table, self.now) if self.careful else None
            size = len(table.log.outbox)
            try:
                run(self.now)
                self.done += 1
            except TableError:
                self.refused += 1
                assert len(table.log.outbox) == size, f"{action} was refused but logged events"
                if self.careful:
                    assert snapshot(table, self.now) == before, f"{action} was refused but changed the table"
        table.tick(self.now)
        self._check_choices(watch)
        wake = table.next_wakeup()
        assert wake is None or wake > self.now, f"overdue after a tick at {self.now}: {wake} ({table.moment.phase})"
        self.steps += 1
        if self.steps % self.check_every == 0:
            check_all(table, self.now)

    def _before_choices(self) -> tuple[int, dict[int, str], frozenset[int], dict[int | None, Any]] | None:
        """What a ``chosen`` message is checked against: the views before a step of a game in play."""
        table = self.table
        if table.moment.phase != PLAYING:
            return None
        views = {pid: table_view(table, pid, self.now) for pid in [*table.people, None]}
        return len(table.log.outbox), dict(table.play.pending), frozenset(table.runtime.connected), views

    def _check_choices(self, watch: tuple[int, dict[int, str], frozenset[int], dict[int | None, Any]] | None) -> None:
        if watch is None:
            return
        table = self.table
        size, pending, connected, views = watch
        events = table.log.outbox[size:]
        choices = choices_only(table, pending, events) if connected == frozenset(table.runtime.connected) else None
        if choices is None:
            return
        self.chosen_steps += 1
        for pid, before in views.items():
            after = table_view(table, pid, self.now)
            told = apply_choices(before, choices.newly, choices.choice(table, pid))
            assert {**told, "remaining_ms": 0} == {**after, "remaining_ms": 0}, (pid, events)

    def finish(self) -> None:
        """Everyone comes back and stays silent (the host resumes a paused game): the clock alone ends it."""
        table = self.table
        for person in list(table.people.values()):
            if person.status != Status.GONE and not person.is_bot:
                table.connect(person.id, self.now)
        table.tick(self.now)
        if table.hold.paused is not None:
            assert table.next_wakeup() is None or table.host_role.holder is not None, "paused, and only time passes"
            if table.host_role.holder is None:  # nobody is here to resume it: it stays paused, as it should
                check_all(table, self.now)
                return
            table.resume(table.host_role.holder, self.now)
            table.tick(self.now)
        self._no_endless_clocks()

        def stalled(t: Table) -> bool:
            return t.moment.phase == PAUSE and t.moment.deadline is None

        if table.moment.phase in (PLAYING, PAUSE):
            self.now = run_clock(table, self.now, lambda t: t.moment.phase == RESULTS or stalled(t))
        if stalled(table):  # nobody is left to walk into the next cave
            assert not any(p.chair is not None for p in table.people.values()), "a stalled table with players"
        else:
            assert table.moment.phase in (LOBBY, RESULTS)
        check_all(table, self.now)
        for record in table.log.records.values():
            game = replay(GameRecord.from_json(record))
            assert game.is_over() and game.scores() == record["scores"]

    def _no_endless_clocks(self) -> None:
        """The host takes everyone's extra time back, and whoever has no clock in the open decision answers with
        their default move: a silent person with no clock would hold the table for good (as they should)."""
        table = self.table
        for person in list(table.people.values()):
            if person.extra_time != 1 and table.host_role.holder is not None:
                table.extra_time(table.host_role.holder, person.id, 1, self.now)
        game = table.play.game
        for seat in [seat for seat, end in table.play.overtime.items() if end is None]:
            at_seat = table.person_at_seat(seat)
            if at_seat is not None and game is not None and seat not in table.play.pending:
                with contextlib.suppress(TableError):  # (their turn is not theirs to take: it holds nobody)
                    table.choose(at_seat.id, game.default_move(seat), self.now, table.moment.decision)
        table.tick(self.now)


def run_story(
    actions: list[Action], game: str = "expedition", check_every: int = 1, careful: bool = True, countdown: float = 0.0
) -> Story:
    story = Story(game, check_every, careful, countdown)
    for name in (0, 1, 2):  # Ann (the host), Bob and Cy are there from the start
        story.play(("join", name))
    for action in actions:
        story.play(action)
    story.finish()
    return story


# --- hypothesis -------------------------------------------------------------------------------

WHO = st.integers(0, 14)
ACTION = st.one_of(
    st.tuples(st.just("join"), st.integers(0, len(NAME_POOL) - 1)),
    st.tuples(st.just("leave"), WHO),
    st.tuples(st.just("add_bot"), WHO, st.sampled_from(BOTS[:-2] + BOTS[-1:])),
    st.tuples(st.just("remove_bot"), WHO, st.integers(-1, 8)),
    st.tuples(st.just("remove"), WHO, WHO, st.booleans()),
    st.tuples(st.just("unban"), WHO, st.integers(0, 3)),
    st.tuples(st.just("host"), WHO, WHO),
    st.tuples(st.sampled_from(["pause", "resume", "end", "cancel"]), WHO),
    st.tuples(st.just("settings"), WHO, st.integers(0, len(SETTINGS) - 1)),
    st.tuples(st.just("extra_time"), WHO, WHO, st.sampled_from([0, 1, 2, 3, 2, 0, 4, True, "2", 1.5])),
    st.tuples(st.just("start"), st.integers(0, 3)),
    st.tuples(st.just("choose"), WHO, st.sampled_from(MOVES), st.sampled_from(STALE), st.booleans()),
    st.tuples(st.just("choose"), WHO, st.sampled_from(MOVES), st.sampled_from(STALE), st.just(True)),
    st.tuples(st.just("connect"), WHO),
    st.tuples(st.just("disconnect"), WHO),
    st.tuples(st.just("tick"), st.sampled_from(STEPS)),
    st.tuples(st.just("tick"), st.sampled_from(STEPS)),
)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.lists(ACTION, min_size=10, max_size=60))
def test_any_story_keeps_the_table_sound(actions: list[Action]) -> None:
    run_story(actions)


@FAST
@given(st.lists(ACTION, min_size=10, max_size=60))
def test_any_story_with_a_start_countdown_keeps_the_table_sound(actions: list[Action]) -> None:
    run_story(actions, countdown=2.0)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTION, min_size=10, max_size=40))
def test_any_story_keeps_a_booty_table_sound(actions: list[Action]) -> None:
    run_story(actions, game="booty")


# --- seeded random walks ----------------------------------------------------------------------

WEIGHTS = {
    "join": 6,
    "leave": 3,
    "add_bot": 4,
    "remove_bot": 1,
    "remove": 2,
    "start": 3,
    "choose": 14,
    "connect": 3,
    "disconnect": 3,
    "tick": 12,
}
HOST_WEIGHTS = {**WEIGHTS, "unban": 2, "host": 1, "pause": 1, "resume": 1, "end": 1, "cancel": 1, "settings": 1}
"""Walks where the host also bans, lifts bans, pauses, resumes, ends games, cancels starts, hands the role on
and changes the settings (``host_walks``)."""


def random_action(rng: random.Random, montecarlo: bool, host: bool = False) -> Action:
    weights = HOST_WEIGHTS if host else WEIGHTS
    kind = rng.choices(list(weights), weights=list(weights.values()))[0]
    who = rng.randrange(15)
    if kind == "join":
        return (kind, rng.randrange(len(NAME_POOL)))
    if kind == "add_bot":
        bots = BOTS if montecarlo else [b for b in BOTS if b != "montecarlo"]
        return (kind, who, rng.choice(bots))
    if kind == "remove_bot":
        return (kind, who, rng.randrange(-1, 9))
    if kind == "remove":
        return (kind, who, rng.randrange(15), host and rng.random() < 0.3)
    if kind == "unban":
        return (kind, 0 if rng.random() < 0.5 else who, rng.randrange(4))
    if kind == "host":
        return (kind, who, rng.randrange(15))
    if kind == "settings":
        return (kind, who, rng.randrange(len(SETTINGS)))
    if kind == "start":
        return (kind, rng.randrange(4))
    if kind == "choose":
        return (kind, who, rng.choice(MOVES), rng.choice(STALE), rng.random() < 0.8)
    if kind == "tick":
        return (kind, rng.choice(STEPS))
    return (kind, who)


@pytest.mark.parametrize("seed", range(12))
def test_random_walks_keep_the_table_sound(seed: int) -> None:
    rng = random.Random(seed)
    actions = [random_action(rng, montecarlo=seed % 4 == 0) for _ in range(150)]
    story = run_story(actions, check_every=3)
    assert story.done > 0 and story.refused > 0


def test_random_walks_reach_the_interesting_places() -> None:
    """The walks are not all refusals: they play games, fill the table and empty it again.  (Sixteen walks:
    since the host may remove people who are connected, and bots give their chairs to the queue at once in
    the lobby, twelve of them came one game short of twelve.)"""
    kinds: set[str] = set()
    games = chosen = 0
    for seed in range(16):
        rng = random.Random(seed)
        actions = [random_action(rng, montecarlo=False) for _ in range(150)]
        story = run_story(actions, check_every=10**9, careful=False)
        kinds |= {event["type"] for event in story.table.log.outbox}
        games += story.table.play.number
        chosen += story.chosen_steps
    assert {"game", "round", "chose", "moves", "left", "bot", "seated", "away", "back"} <= kinds
    assert games >= 12
    print(f"{chosen} steps made only of secret choices")
    assert chosen >= 24  # and many steps were told as a chosen message (and checked against the views)


@pytest.mark.parametrize("seed", range(6))
def test_random_walks_with_a_busy_host_keep_the_table_sound(seed: int) -> None:
    rng = random.Random(1000 + seed)
    actions = [random_action(rng, montecarlo=False, host=True) for _ in range(150)]
    story = run_story(actions, check_every=3, countdown=2.0)
    assert story.done > 0 and story.refused > 0


def test_random_walks_with_a_busy_host_reach_the_interesting_places() -> None:
    """A host who pauses, bans, ends games and counts down: the walks get there, and still play games."""
    kinds: set[str] = set()
    games = 0
    for seed in range(12):
        rng = random.Random(1000 + seed)
        actions = [random_action(rng, montecarlo=False, host=True) for _ in range(150)]
        story = run_story(actions, check_every=10**9, careful=False, countdown=2.0)
        kinds |= {event["type"] for event in story.table.log.outbox}
        games += story.table.play.number
    assert {"countdown", "game", "paused", "ended", "banned", "unbanned", "settings", "host"} <= kinds
    assert games >= 8


@pytest.mark.parametrize("game", ["expedition", "booty"])
def test_random_walks_with_extra_time_keep_the_table_sound(game: str) -> None:
    """The host gives people ×2, ×3 or no clock (and takes it back) as games go: the decisions that wait for
    someone with extra time after the table's clock ended lock, rebuild and end like any other."""
    overtime = 0
    for seed in range(3):
        rng = random.Random(2000 + seed)
        actions: list[Action] = []
        for _ in range(120):
            if rng.random() < 0.08:
                actions.append(("extra_time", 0, rng.randrange(15), rng.choice([0, 2, 3, 1])))
            else:
                actions.append(random_action(rng, montecarlo=False, host=seed % 2 == 0))
        story = run_story(actions, game=game, check_every=3)
        overtime += sum(1 for event in story.table.log.outbox if event["type"] == "overtime")
    assert overtime > 0
