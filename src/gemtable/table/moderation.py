"""What the host does at a table: seat and remove bots, remove and ban people, lift a ban, hand the host's role
on, give someone more time, pause and resume, end a game early, change the settings, start a game (its countdown)
and cancel it; and
the handlers of the events these emit.  Each command checks that the host asks (``host_only``), then whether
it may, and refuses with a :class:`TableError` before anything changes, like every command of the table.

They are functions of the table (``Table.pause = moderation.pause`` …): the table's state is the table's, and
this module is the one place its moderation is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import gemtable.table.extra_time as extra
from gemtable.bots import bot_names, bot_person_names
from gemtable.games import GameError, find_manifest
from gemtable.table.decisions import Simultaneous, Turns
from gemtable.table.errors import TableError
from gemtable.table.names import name_taken
from gemtable.table.people import Person, Status
from gemtable.table.phases import LOBBY, RESULTS, REVEAL
from gemtable.table.play import Play
from gemtable.table.settings import Settings, revised

if TYPE_CHECKING:
    from gemtable.table.table import Table

Event = dict[str, Any]

RESUME_FLOOR = 5.0
"""Seconds a decision gets at least when the host resumes a paused table: it gets back the time it had
left, but never less than this, so that nobody is surprised by a reveal the instant the game goes on."""


@dataclass(frozen=True)
class Paused:
    """A paused game: who paused it, when, and the time its decision (or the pause between rounds) had
    left then (None: it had no clock)."""

    by: int
    name: str
    at: float
    remaining: float | None
    silent: bool = False
    """Nobody answered the decision (``Settings.hold_silent``): any player may lift it, not only the host."""
    overtime: dict[int, float | None] = field(default_factory=dict)
    """The time left then on each own clock of the decision (extra time, ``extra_time.py``), by seat (None: none)."""


@dataclass(frozen=True)
class Readying:
    """The host asked to start while someone was not ready (``Settings.ready_check``): the countdown begins as
    soon as every seated player is ready, or when the host starts anyway; the game gets ``seed``."""

    by: int
    name: str
    seed: int


@dataclass(frozen=True)
class Countdown:
    """The host has started a game: it begins at ``ends``, with ``seed``, unless cancelled."""

    by: int
    name: str
    ends: float
    seed: int


@dataclass
class HostRole:
    """The host role: who holds it now, and whose it is."""

    holder: int | None = None
    """The host (None: nobody is here to take the role)."""
    owner: int | None = None
    """Whose the role is: the first person to join (or whom they handed it to, or the host after them when
    they left).  A stand-in host (the role passed on while they were away) may not remove them, and the role
    comes back to them whenever they return."""


@dataclass
class Hold:
    """The table's clock held: the game paused (by the host, or by the table when nobody answered), or the
    next game being got ready (the host asked to start: a ready check, then a countdown).  At most one of
    ``paused`` (in a game) and ``readying``/``countdown`` (between games) is set; a game's start clears all."""

    paused: Paused | None = None
    readying: Readying | None = None
    """The host asked to start and the table waits for everyone to be ready."""
    countdown: Countdown | None = None


@dataclass(frozen=True)
class Ban:
    """Someone the host removed and banned: their token, and new joins from their address (a keyed hash of
    it, ``origin``; never the address itself), are refused at this table until the host lifts it."""

    id: int
    person: int
    name: str
    token: str | None
    origin: str


@dataclass(slots=True)
class Door:
    """Who may not come back in to a table."""

    bans: dict[int, Ban] = field(default_factory=dict)
    last_ban: int = 0
    """The last ban's id (ids are never reused, so that lifting a ban names the one meant)."""
    removed: dict[str, str] = field(default_factory=dict)
    """Seat tokens (hashed) of people the host removed, and who removed them: their phones, back, are told so
    rather than that their token is unknown (the most recent ``REMOVED_KEPT``)."""


def add_bot(self: Table, pid: int, bot: str, now: float) -> None:
    host_only(self, pid)
    if bot not in bot_names(self.kind.name):
        raise TableError("unknown-bot", f"there is no bot called {bot!r}")
    free = self._free_chair()
    if free is None:
        raise TableError("no-chair", "every chair is taken")
    bid = self.last_id + 1
    taken = [p.name for p in self.people.values() if p.status != Status.GONE]
    names = [*bot_person_names(self.kind.name), *(f"{bot} {i}" for i in range(1, 99))]
    name = next(n for n in names if not name_taken(n, taken))
    self.emit("bot", now, person=bid, bot=bot, chair=free, name=name)


def remove_bot(self: Table, pid: int, chair: int, now: float) -> None:
    host_only(self, pid)
    chairs = self.chairs()
    target = chairs[chair] if isinstance(chair, int) and 0 <= chair < len(chairs) else None
    if target is None or not target.is_bot:
        raise TableError("no-bot", "there is no bot in that chair")
    self.decisions.silence(target, now)
    self.emit("left", now, person=target.id, by=pid, reason="removed")
    self._fill_chairs(now)
    self.decisions.settle(now)


def remove(self: Table, pid: int, target: object, now: float, ban: bool = False) -> None:
    """The host removes someone — connected or not, in the lobby or in a game: they leave the table as
    with ``leave`` (in a game their silence counts at once: the expedition walks them out with what they
    carry, a bot takes a Booty Hunter colour), and their phone is told.  With ``ban``, their token and new
    joins from their address stay out of this table until the host lifts the ban.

    A stand-in host (the role passed on while its owner's phone was away) may not remove the owner."""
    host_only(self, pid)
    person = self.people.get(target) if isinstance(target, int) and not isinstance(target, bool) else None
    if person is None or person.status == Status.GONE:
        raise TableError("not-found", "there is nobody like that at this table")
    if person.id == pid:
        raise TableError("self", "you cannot remove yourself: leave the table instead")
    if person.is_bot:
        raise TableError("is-bot", "a bot is taken out of its chair with remove_bot")
    if person.id == self.host_role.owner and self.host_role.holder != self.host_role.owner:
        raise TableError(
            "first-host", f"{person.name} is this table's host: the role goes back to them when they return"
        )
    self.decisions.silence(person, now)
    if ban:
        self.emit(
            "banned",
            now,
            ban=self.door.last_ban + 1,
            person=person.id,
            name=person.name,
            token=person.token,
            origin=person.origin,
            by=pid,
        )
    self.emit("left", now, person=person.id, by=pid, reason="banned" if ban else "removed")
    self.runtime.connected.discard(person.id)
    self.runtime.since.pop(person.id, None)
    self._fill_chairs(now)
    self.decisions.settle(now)


def unban(self: Table, pid: int, ban: object, now: float) -> None:
    """The host lifts a ban (by its number, as ``me.bans`` lists them)."""
    host_only(self, pid)
    if isinstance(ban, bool) or not isinstance(ban, int) or ban not in self.door.bans:
        raise TableError("not-found", "there is no such ban at this table")
    self.emit("unbanned", now, ban=ban, by=pid)


def hand_host(self: Table, pid: int, target: object, now: float) -> None:
    """The host hands the role to someone here (connected, not a bot).  The role's owner hands it on for
    good; a stand-in host hands on only the stand-in role (it still goes back to its owner)."""
    host_only(self, pid)
    person = self.people.get(target) if isinstance(target, int) and not isinstance(target, bool) else None
    if person is None or person.status == Status.GONE:
        raise TableError("not-found", "there is nobody like that at this table")
    if person.is_bot:
        raise TableError("is-bot", "a bot cannot be the host")
    if person.id == pid:
        return  # the host already: nothing to do
    if person.id not in self.runtime.connected:
        raise TableError("offline", f"{person.name}'s phone is not connected: hand the role to someone here")
    owner = {"owner": True} if self.host_role.owner == pid else {}
    self.emit("host", now, person=person.id, by=pid, reason="handed", **owner)


def give_extra_time(self: Table, pid: int, target: object, factor: object, now: float) -> None:
    """The host gives someone here (not a bot) more time per decision: ``factor`` 2 or 3 (times the clock), 0 (no
    clock for them), or 1 (as everyone).  It counts from the next decision (``extra_time.py``); the same factor
    again changes nothing."""
    host_only(self, pid)
    if isinstance(factor, bool) or not isinstance(factor, int) or factor not in extra.FACTORS:
        raise TableError("bad-request", "factor must be 1, 2 or 3 (times the clock), or 0 (no clock)")
    person = self.people.get(target) if isinstance(target, int) and not isinstance(target, bool) else None
    if person is None or person.status == Status.GONE:
        raise TableError("not-found", "there is nobody like that at this table")
    if person.is_bot:
        raise TableError("is-bot", "a bot needs no more time")
    if person.extra_time != factor:
        self.emit("extra_time", now, person=person.id, factor=factor, by=pid)


def pause(self: Table, pid: int, now: float) -> None:
    """The host pauses the game (any phase of it): the clock stops, nothing is revealed, bots wait;
    choices already made stay secret and changeable.  Pausing a paused table changes nothing."""
    host_only(self, pid)
    if not self.in_game():
        raise TableError("no-game", "there is no game to pause")
    if self.hold.paused is not None:
        return
    remaining = None if self.moment.deadline is None else max(0.0, self.moment.deadline - now)
    self.emit("paused", now, by=pid, remaining=remaining)


def resume(self: Table, pid: int, now: float) -> None:
    """The host resumes: the decision gets back the time it had left (at least :data:`RESUME_FLOOR`).  A hold
    because nobody answered (``Paused.silent``) any player lifts too: it only asks whether everyone is here."""
    paused = self.hold.paused
    if paused is None or not paused.silent or not self.person(pid).has_chair:
        host_only(self, pid)
    if paused is None:
        return
    self.emit("resumed", now, by=pid)
    self.decisions.settle(now)


def end(self: Table, pid: int, now: float) -> None:
    """The host ends the game now: straight to the results, the scores as they stand (the record says it
    was ended early, and still replays).  Choices not yet revealed are dropped, never shown."""
    host_only(self, pid)
    if not self.in_game() or self.play.game is None:
        raise TableError("no-game", "there is no game to end")
    self.emit("ended", now, by=pid)


def change_settings(self: Table, pid: int, changes: object, now: float) -> None:
    """The host changes the settings between games (lobby or results): clock, options, preset."""
    host_only(self, pid)
    if self.in_game():
        raise TableError("in-game", "the settings can be changed between games only")
    if self.hold.countdown is not None:
        raise TableError("starting", "the game is about to start: cancel the countdown first")
    settings = revised(self.settings, changes)
    if settings == self.settings:
        return
    switched = settings.game != self.settings.game
    self.emit("settings", now, by=pid, settings=settings.to_json())
    if switched:
        self._fill_chairs(now)  # the chairs the bots left, or the new game's extra chairs: the queue sits down


def start(self: Table, pid: int, seed: int, now: float) -> None:
    """The host starts a game (the first, or a new one after the results): a countdown every screen
    shows (the settings' ``countdown`` seconds; the host may cancel it), then the game.  A start while
    counting down already changes nothing."""
    host_only(self, pid)
    if self.moment.phase not in (LOBBY, RESULTS):
        raise TableError("in-game", "a game is already under way")
    if self.hold.countdown is not None:
        return
    check_ready(self, seed)
    host = self.person(pid)
    if self.settings.ready_check and host.has_chair and not host.ready:
        self.emit("ready", now, person=pid, ready=True)  # (the host who starts is ready)
    if self.hold.readying is None and self.settings.ready_check and not_ready(self):
        self.emit("ready_check", now, by=pid, seed=seed)  # each seated player says they are ready first
        return
    count_down(self, pid, self.hold.readying.seed if self.hold.readying is not None else seed, now)  # (or insists)


def count_down(self: Table, pid: int, seed: int, now: float) -> None:
    """The countdown to a game (none in the settings: the game at once)."""
    if self.settings.countdown > 0:
        self.emit("countdown", now, by=pid, seed=seed, ends=now + self.settings.countdown)
        return
    open_game(self, seed, now)


def check_ready(self: Table, seed: int) -> None:
    """Refuse, before any event, a start with too few players in chairs (not away)."""
    ready = [p for p in self.people.values() if p.has_chair and p.status != Status.AWAY]
    if len(ready) < self.kind.min_seats:
        raise TableError("too-few", f"at least {self.kind.min_seats} players are needed")
    check_first_round(self, ready, seed)


def check_first_round(self: Table, ready: list[Person], seed: int) -> None:
    """Refuse, before any event, a start the game itself would refuse (its rules may need more players)."""
    try:
        trial = self.kind.new(self.settings.rules, self.kind.seats_per_game, seed, self.settings.script)
        per_chair = self.manifest.seats_belong_to_chairs
        chairs = sorted(p.chair for p in ready if p.chair is not None)
        trial.start_round(chairs if per_chair else list(range(len(ready))))
    except GameError as exc:
        raise TableError("too-few", str(exc)) from None


def open_game(self: Table, seed: int, now: float) -> None:
    """The game begins, and its first round."""
    self.emit("game", now, number=self.play.number + 1, seed=seed)
    self._begin_round(now)


def countdown_ends(self: Table, now: float) -> None:
    """The clock's part of a start: the countdown ends, and the game begins if enough players are still
    seated (or, with too few, the start is cancelled)."""
    countdown = self.hold.countdown
    if countdown is None or now < countdown.ends:
        return
    if still_enough(self, countdown.seed, now):
        open_game(self, countdown.seed, now)


def still_enough(self: Table, seed: int, now: float) -> bool:
    """Whether the start can still go on (``check_ready``); with too few players left, it is cancelled."""
    try:
        check_ready(self, seed)
    except TableError:
        self.emit("cancelled", now, reason="too-few")
        return False
    return True


def not_ready(self: Table) -> list[Person]:
    """The seated people (not bots, not away) who have not said they are ready."""
    return [
        p
        for p in self.people.values()
        if p.has_chair and not p.is_bot and p.status not in (Status.AWAY, Status.GONE) and not p.ready
    ]


def ready(self: Table, pid: int, is_ready: object, now: float) -> None:
    """A seated player says they are ready for the next game (or no longer are)."""
    person = self.person(pid)
    if not isinstance(is_ready, bool):
        raise TableError("bad-request", "ready must be true or false")
    if not person.has_chair or person.is_bot:
        raise TableError("no-chair", "only a player in a chair says whether they are ready")
    if self.moment.phase not in (LOBBY, RESULTS):
        raise TableError("in-game", "a game is already under way")
    if person.ready != is_ready:
        self.emit("ready", now, person=pid, ready=is_ready)


def ready_now(self: Table, now: float) -> None:
    """The clock's part of a ready check: once every seated player is ready, the countdown the host asked for
    begins (or, with too few players left, the start is cancelled)."""
    readying = self.hold.readying
    if readying is None or self.hold.countdown is not None or not_ready(self):
        return
    if still_enough(self, readying.seed, now):
        count_down(self, readying.by, readying.seed, now)


def cancel_start(self: Table, pid: int, now: float) -> None:
    """The host cancels the countdown to a game, or the ready check before it (nothing to cancel: nothing
    changes)."""
    host_only(self, pid)
    if self.hold.countdown is None and self.hold.readying is None:
        return
    self.emit("cancelled", now, by=pid, reason="host")


def host_only(self: Table, pid: int) -> None:
    person = self.person(pid)
    if self.host_role.holder != person.id:
        raise TableError("not-host", "only the host can do that")


def on_host(self: Table, e: Event) -> None:
    self.host_role.holder = e["person"]
    if e.get("owner"):
        self.host_role.owner = e["person"]
    self.tell(
        "host",
        person=self.host_role.holder,
        name=self._name(self.host_role.holder),
        reason=e.get("reason"),
        by=self._name(e.get("by")),
    )


def on_banned(self: Table, e: Event) -> None:
    ban = Ban(int(e["ban"]), int(e["person"]), str(e["name"]), e.get("token"), str(e.get("origin") or ""))
    self.door.bans[ban.id] = ban
    self.door.last_ban = max(self.door.last_ban, ban.id)


def on_unbanned(self: Table, e: Event) -> None:
    ban = self.door.bans.pop(e["ban"])
    self.tell("unbanned", name=ban.name, by=self._name(e.get("by")))


def on_paused(self: Table, e: Event) -> None:
    remaining = e.get("remaining")
    silent = bool(e.get("silent"))
    by = int(e.get("by", 0))
    name = self._name(by) or ""
    left = extra.pause_clocks(self, e["at"], whole=silent)
    self.hold.paused = Paused(by, name, e["at"], None if remaining is None else float(remaining), silent, left)
    self.moment.deadline = None
    if silent:
        self.play.held = self.moment.decision
        self.tell("silent")
    else:
        self.tell("paused", by=name)


def on_resumed(self: Table, e: Event) -> None:
    paused = self.hold.paused
    self.hold.paused = None
    at = e["at"]
    self.moment.opened_at = at  # bots and graces count again from here
    if paused is not None and paused.remaining is not None:  # (the beat's rest needs no floor: nobody decides)
        self.moment.deadline = at + (
            paused.remaining if self.moment.phase == REVEAL else max(paused.remaining, RESUME_FLOOR)
        )
    if paused is not None:
        extra.resume_clocks(self, paused.overtime, at, RESUME_FLOOR)
    self.tell("resumed", by=self._name(e.get("by")))


def on_ready_check(self: Table, e: Event) -> None:
    name = self._name(e["by"]) or ""
    self.hold.readying = Readying(e["by"], name, int(e["seed"]))
    self.tell("ready_check", by=name)


def on_ready(self: Table, e: Event) -> None:
    self.people[e["person"]].ready = bool(e["ready"])


def on_countdown(self: Table, e: Event) -> None:
    self.hold.readying = None
    name = self._name(e["by"]) or ""
    self.hold.countdown = Countdown(e["by"], name, float(e["ends"]), int(e["seed"]))
    self.tell("countdown", by=name)


def on_cancelled(self: Table, e: Event) -> None:
    self.hold.readying = None
    self.hold.countdown = None
    self.tell("cancelled", by=self._name(e.get("by")), reason=e.get("reason"))


def switch_game(self: Table) -> None:
    """The table's game is now ``settings.game`` (a ``settings`` event between games, ``moderation.py``): its
    manifest and decisions, the lobby, no game in play (the games played stay in the records).  Bots leave
    (each game has its own), and people beyond the new game's chairs watch, queueing in the order they came;
    everyone keeps their look."""
    self.manifest = find_manifest(self.settings.game)
    self.decisions = Simultaneous(self) if self.manifest.simultaneous else Turns(self)
    self.moment.phase = LOBBY
    self.moment.deadline = None
    self.play = Play(self.play.number)  # (no game in play)
    for person in self.people.values():
        person.seat = None
        person.missed = 0
        person.bot_since = None
        if person.is_bot and person.status != Status.GONE:
            person.status, person.chair, person.left_reason = Status.GONE, None, "removed"
        elif person.chair is not None and person.chair >= self.kind.max_seats:
            person.chair, person.status = None, Status.WATCHING


def on_settings(self: Table, e: Event) -> None:
    settings = Settings.from_json(e["settings"])
    switched = settings.game != self.settings.game
    self.settings = settings
    if switched:
        switch_game(self)
    self.tell("settings", by=self._name(e.get("by")), game=settings.game if switched else None)


def on_ended(self: Table, e: Event) -> None:
    game = self.play.game
    assert game is not None
    name = self._name(e.get("by"))
    self.play.ended = {"by": name, "move": self.play.moves_made + 1}
    self.tell("ended", by=name)
    game.end()
    self.play.pending = {}
    self.play.changes = {}
    self.hold.paused = None
    self._after_move(e["at"])
