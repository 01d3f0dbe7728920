"""Who is at a table and where they sit: joining and leaving, phones connecting and going, the chairs and the
queue for them (a watcher takes a free chair, an absent player's chair in the lobby, a bot's chair when a round
begins), the seats of a game handed out at each round, and the host's role passing on when its holder goes;
with the handlers of the events these emit.

They are functions of the table (``Table.join = seating.join`` …), like ``moderation.py``: the table's state is
the table's, and this module is the one place its seating is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gemtable.table.errors import TableError
from gemtable.table.names import clean_name, name_taken
from gemtable.table.people import Person, Status
from gemtable.table.phases import PAUSE

if TYPE_CHECKING:
    from gemtable.table.table import Table

Event = dict[str, Any]

MAX_WATCHERS = 24
"""People at a table beyond its chairs: a join past ``chairs + MAX_WATCHERS`` people is refused."""
REMOVED_KEPT = 64
"""Removed people whose phones the table still recognises (to tell them they were removed)."""


def join(self: Table, name: str, token_hash: str, now: float, origin: str = "", per_address: int = 0) -> Person:
    """A person arrives with a display name; returns them (seated, waiting or watching).

    ``origin`` is where they join from, as the server keys it (a hash of their address, salted per table:
    never the address itself; empty when the server does not count it); ``per_address`` (0: no cap) is how
    many people one origin may bring to this table."""
    if origin and self.banned(origin=origin):
        raise TableError("banned", "the host has banned this address from this table")
    clean = clean_name(name)
    if name_taken(clean, (p.name for p in self.people.values() if p.status != Status.GONE)):  # looks alike
        raise TableError("name-taken", f"someone at this table is already called {clean}")
    here = [p for p in self.people.values() if not p.is_bot and p.status != Status.GONE]
    if len(here) >= self.kind.max_seats + MAX_WATCHERS:
        raise TableError("table-full", f"this table is full: {len(here)} people are here already")
    if origin and per_address and sum(1 for p in here if p.origin == origin) >= per_address:
        raise TableError(
            "address-full", f"{per_address} people from your address are at this table already: ask the host"
        )
    pid = self.last_id + 1
    extra = {"origin": origin} if origin else {}
    self.emit("joined", now, person=pid, name=clean, token=token_hash, **extra)
    self._fill_chairs(now)
    return self.people[pid]


def leave(self: Table, pid: int, now: float) -> None:
    person = self.person(pid)
    if person.status == Status.GONE:
        raise TableError("gone", "you have already left this table")
    self.decisions.silence(person, now)
    if self.host_role.holder == pid:
        successor = self._successor(pid)
        if successor is not None:
            self.emit("host", now, person=successor.id, reason="left")
    self.emit("left", now, person=pid)
    self.runtime.connected.discard(pid)
    self.runtime.since.pop(pid, None)
    self._fill_chairs(now)
    self.decisions.settle(now)


def connect(self: Table, pid: int, now: float) -> None:
    """The server: this person's phone is connected."""
    rt = self.runtime
    rt.connected.add(pid)
    rt.since.pop(pid, None)
    rt.seen_in_round.add(pid)
    person = self.people.get(pid)
    if person is not None and person.status == Status.AWAY:
        self.emit("back", now, person=pid)
        self._fill_chairs(now)
    if (
        person is not None
        and pid == self.host_role.owner
        and self.host_role.holder != pid
        and person.status != Status.GONE
    ):
        self.emit("host", now, person=pid, reason="back")  # the role's owner is the host whenever here


def disconnect(self: Table, pid: int, now: float) -> None:
    """The server: this person's last phone went away."""
    self.runtime.connected.discard(pid)
    self.runtime.since[pid] = now


def absent_give_way(self: Table, now: float) -> None:
    """Lobby and results: a connected watcher takes the chair of a player absent past the grace
    (the longest gone first).  The absent player is marked away, without a chair; back, they queue."""
    for watcher in self.queue():
        if watcher.id not in self.runtime.connected:
            continue
        chair = self._free_chair()
        if chair is None:
            absent = sorted(
                (since, p.chair, p.id)
                for p in self.people.values()
                if p.chair is not None
                and (since := self.absent_since(p)) is not None
                and now >= since + self.settings.absent_grace
            )
            if not absent:
                return
            _, chair, gone = absent[0]
            if self.people[gone].status != Status.AWAY:
                self.emit("away", now, person=gone)
            self.emit("unseated", now, person=gone)
        self.emit("seated", now, person=watcher.id, chair=chair)


def mark_away(self: Table, now: float) -> None:
    if self.play.game is None or self.moment.phase != PAUSE:
        return
    rt = self.runtime
    for person in list(self.people.values()):
        if (
            person.has_chair
            and not person.is_bot
            and person.status == Status.SEATED
            and person.id not in rt.seen_in_round
            and person.id not in rt.connected
        ):
            self.emit("away", now, person=person.id)
    self._fill_chairs(now)


def bots_give_way(self: Table, now: float) -> None:
    """A round begins: a bot gives its chair to each person waiting for one (the last bot first)."""
    for watcher in self.queue():
        if not self._bot_gives_way(watcher, now):
            return


def bot_gives_way(self: Table, watcher: Person, now: float) -> bool:
    """The last bot in a chair gives it to ``watcher`` (told as "Bruno (bot) gave its chair to Kim");
    False if no bot holds a chair."""
    bots = [p for p in self.chairs() if p is not None and p.is_bot]
    if not bots:
        return False
    bot = bots[-1]
    chair = bot.chair  # read before "left" empties it
    assert chair is not None
    self.emit("left", now, person=bot.id, reason="gave_chair", to=watcher.id)
    self.emit("seated", now, person=watcher.id, chair=chair)
    return True


def assign_seats(self: Table, roster: list[Person]) -> dict[int, int]:
    game = self.play.game
    assert game is not None
    used = {p.seat for p in self.people.values() if p.seat is not None}
    assign: dict[int, int] = {}
    per_chair = self.manifest.seats_belong_to_chairs
    for person in sorted(roster, key=lambda p: p.chair if p.chair is not None else 99):
        if person.seat is not None:
            assign[person.id] = person.seat
            continue
        seat = person.chair if per_chair else next((s for s in range(game.seats) if s not in used), None)
        if seat is None:
            continue  # this game has seated as many players as it can: they play the next one
        used.add(seat)
        assign[person.id] = seat
    return assign


def fill_chairs(self: Table, now: float) -> None:
    """Free chairs (or chairs of away players) go to the queue, first come first served.  In the lobby
    and at the results a bot gives its chair to a waiting person at once (in a game: when the next round
    begins), so that nobody sits out a whole lobby while a bot holds a chair they could have."""
    for watcher in self.queue():
        chair = self._free_chair()
        if chair is None and not self.in_game():
            if self._bot_gives_way(watcher, now):
                continue
            return
        if chair is None:
            away = [p for p in self.chairs() if p is not None and p.status == Status.AWAY]
            if not away or not self.in_game():
                return
            self.emit("unseated", now, person=away[0].id)
            chair = self._free_chair()
            if chair is None:
                return
        self.emit("seated", now, person=watcher.id, chair=chair)


def free_chair(self: Table) -> int | None:
    for index, person in enumerate(self.chairs()):
        if person is None:
            return index
    return None


def successor(self: Table, pid: int | None) -> Person | None:
    """Who takes the host role from ``pid``: someone connected, a player in a chair first, then the
    earliest arrival; never a bot."""
    rt = self.runtime
    others = [
        p
        for p in self.people.values()
        if p.id != pid and p.id in rt.connected and not p.is_bot and p.status != Status.GONE
    ]
    others.sort(key=lambda p: (not p.has_chair, p.joined_at, p.id))
    return others[0] if others else None


def absent_host(self: Table, now: float) -> None:
    """A host whose phone has been gone for the grace hands the role to someone connected."""
    host = self.people.get(self.host_role.holder) if self.host_role.holder is not None else None
    since = self.absent_since(host) if host is not None else None
    if since is None or now < since + self.settings.absent_grace:
        return
    successor = self._successor(self.host_role.holder)
    if successor is not None:
        self.emit("host", now, person=successor.id)


def pass_host(self: Table, pid: int) -> None:
    """The host left or went away: someone playing in a chair first (not away), then anyone
    else still here; never a bot.  An away host keeps the role if nobody else is here."""
    others = [
        p for p in self.people.values() if p.id != pid and p.status not in (Status.GONE, Status.AWAY) and not p.is_bot
    ]
    others.sort(key=lambda p: (p.status not in (Status.SEATED, Status.WAITING), p.joined_at, p.id))
    if others:
        self.host_role.holder = others[0].id
    elif self.people[pid].status == Status.GONE:
        self.host_role.holder = None


def take_chair_seat(self: Table, person: Person) -> None:
    """In a game whose seats belong to chairs (Booty Hunter's colours), someone sitting down
    mid-game plays on with the chair's seat at once: there is no next round to wait for."""
    game = self.play.game
    if not self.in_game() or game is None or game.needs_roster():
        return
    if not self.manifest.seats_belong_to_chairs or person.chair is None:
        return
    before = None
    for other in self.people.values():
        if other.seat == person.chair:
            before = other
            other.seat = None
            if other.bot_since is not None:  # a bot stood in for them until now
                other.bot_since = None
                self.play.stand_ins[person.chair][-1][1] = self.play.moves_made
    person.seat = person.chair
    person.status = Status.SEATED
    if before is not None and before is not person:
        self.tell("took_seat", person=person.id, name=person.name, seat=person.seat, was=before.name)


def on_joined(self: Table, e: Event) -> None:
    pid = e["person"]
    self.people[pid] = Person(
        pid, e["name"], e["token"], Status.WATCHING, joined_at=e["at"], origin=str(e.get("origin", ""))
    )
    self.last_id = max(self.last_id, pid)
    if self.host_role.holder is None:
        self.host_role.holder = pid
    if self.host_role.owner is None:
        self.host_role.owner = pid


def on_bot(self: Table, e: Event) -> None:
    pid = e["person"]
    status = Status.WAITING if self.in_game() else Status.SEATED
    person = Person(pid, str(e.get("name", e["bot"])), None, status, chair=e["chair"], bot=e["bot"], joined_at=e["at"])
    self.people[pid] = person
    self.last_id = max(self.last_id, pid)
    give_look(self, person)
    self._take_chair_seat(person)


def on_seated(self: Table, e: Event) -> None:
    person = self.people[e["person"]]
    person.chair = e["chair"]
    person.status = Status.WAITING if self.in_game() else Status.SEATED
    give_look(self, person)
    self._take_chair_seat(person)


LOOKS = 16
"""The seat styles there are (``seat-style.js``)."""


def give_look(self: Table, person: Person) -> None:
    """A person's colour and mark, once: the first nobody else at the table has (``Person.look``)."""
    if person.look is not None:
        return
    taken = {p.look for p in self.people.values() if p.look is not None and p.status != Status.GONE}
    person.look = next((i for i in range(LOOKS) if i not in taken), person.id % LOOKS)


def on_unseated(self: Table, e: Event) -> None:
    person = self.people[e["person"]]
    person.chair = None
    self.tell("lost_chair", person=person.id, name=person.name)


def on_left(self: Table, e: Event) -> None:
    person = self.people[e["person"]]
    by = e.get("by")
    reason = str(e.get("reason") or ("removed" if by is not None and not person.is_bot else "left"))
    if reason == "gave_chair":
        to = e.get("to")
        self.tell("gave_chair", person=person.id, name=person.name, to=self._name(to), to_person=to)
    else:
        bot = True if person.is_bot else None
        self.tell(
            "left", person=person.id, name=person.name, seat=person.seat, reason=reason, by=self._name(by), bot=bot
        )
    if reason in ("removed", "banned") and person.token:
        self.door.removed[person.token] = self._name(by) or ""
        while len(self.door.removed) > REMOVED_KEPT:
            del self.door.removed[next(iter(self.door.removed))]
    person.status = Status.GONE
    person.chair = None
    person.left_reason = reason
    person.left_at = e["at"]
    person.extra_time = 1  # (more time is the host's word for someone here: gone, it goes)
    person.left_move = self.play.moves_made + 1 if self.in_game() else None
    person.left_round = self.play.rounds if self.in_game() else None
    if self.host_role.holder == person.id:
        self._pass_host(person.id)  # (logs written before the "host" event came first)
    if self.host_role.owner == person.id:  # the role's owner left for good: it is the new host's now
        self.host_role.owner = self.host_role.holder if self.host_role.holder != person.id else None
    if person.seat is None:
        del self.people[person.id]  # a watcher (or a bot) who never played this game: forgotten


def on_away(self: Table, e: Event) -> None:
    person = self.people[e["person"]]
    person.status = Status.AWAY  # an away host keeps the role until the absence grace
    if self.in_game():
        self.tell("away", person=person.id, name=person.name)


def on_back(self: Table, e: Event) -> None:
    person = self.people[e["person"]]
    if person.chair is None:
        person.status = Status.WATCHING
        person.joined_at = e["at"]
    else:
        person.status = Status.WAITING if self.in_game() else Status.SEATED
