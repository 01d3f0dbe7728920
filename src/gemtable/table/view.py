"""What one person (or a spectator, or the TV) sees of a table.

The table's own secret is the pending choices: a view says *who* has chosen,
and only the viewer's own choice.  The game's secrets are hidden by the game's
own view for the viewer's seat.  Seat tokens never appear in a view, nor does
anything of an address (the host's list of bans names people, nothing more).

What happened to people is in ``news`` (the table's newest notices, the same
for everyone) and ``me.news`` (the newest about the viewer: what a phone that
comes back was not told); both are public facts (``news.py``).

Extra time (``extra_time.py``) is the table's other private fact: only ``me`` carries
it, the person's own (``me.more_time``) and, for the host, everyone's
(``me.extra_time``); and a decision on a clock of the viewer's own gives them a head
of their own, its ``remaining_ms`` theirs.  The shared parts of a view never say it.

The audience's predictions (``audience.py``) are the third: ``me.audience`` carries the viewer's own (and the
question open to them); the shared ``audience`` only the standings and, once a question is locked, how many
called what.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

import gemtable.table.audience as audience
import gemtable.table.extra_time as extra
from gemtable.games.api import JSON
from gemtable.table.news import Notice
from gemtable.table.people import Person, Status
from gemtable.table.table import Settings, Table

PERSON_KEYS = frozenset(
    {
        "id",
        "name",
        "status",
        "chair",
        "seat",
        "look",
        "ready",
        "bot",
        "connected",
        "to_act",
        "chosen",
        "bot_plays",
        "bot_since",
        "left",
    }
)
"""Everything a view says of a person (``people[]``), and nothing more: no token, no address."""
QUEUE_SHOWN = 10
"""A view lists at most this many people without a chair or a seat (the first of the queue, then the
away); ``queue_length`` and ``unlisted`` count the rest, so that a view stays small whatever the crowd."""


def table_view(table: Table, pid: int | None, now: float) -> JSON:
    """The whole state as ``pid`` may see it (``None``: a spectator or the TV)."""
    me, seat = _viewer(table, pid)
    game = table.play.game
    to_act = game.to_act() if game is not None and table.moment.phase == "playing" else frozenset()
    queue = [p.id for p in table.queue()]
    listed = _listed(table, me)
    return {
        **_own_clock(table, seat, _head(table, now, _public_settings(table)), now),
        **_listing(table, listed, to_act, queue),
        "me": _me(table, me, seat, _Context.of(table, queue, to_act)),
        "state": None if game is None else game.view(seat).to_json(),
        "results": list(table.log.finished),
        "timed_out": list(table.play.timed_out),
        "offline": list(table.play.offline),
    }


def encoded_views(table: Table, viewers: Iterable[int | None], now: float) -> dict[int | None, bytes]:
    """Each viewer's :func:`table_view`, encoded as JSON, with what is the same for everyone built and
    encoded once: the settings once per table; the head, the people, the queue and the tail once per
    change; a game's view once per seat.  A viewer's bytes are spliced from the shared head and listing,
    its own ``me``, its seat's state and the shared tail, in :func:`table_view`'s order of keys: each
    result decodes to the same JSON as ``table_view(table, viewer, now)``."""
    game = table.play.game
    to_act = game.to_act() if game is not None and table.moment.phase == "playing" else frozenset()
    queue = [p.id for p in table.queue()]
    head = _head(table, now, _settings_raw(table.settings))
    base = _listed(table, None)
    base_ids = {p.id for p in base}
    shared = _open({**head, **_listing(table, base, to_act, queue)})
    tail = b',"results":%s,"timed_out":%s,"offline":%s}' % (
        _raw(list(table.log.finished)),
        _raw(list(table.play.timed_out)),
        _raw(list(table.play.offline)),
    )
    seen = {pid: _viewer(table, pid) for pid in viewers}
    news = table.news.about_each(me.id for me, _ in seen.values() if me is not None)
    context = _Context.of(table, queue, to_act, news)
    states: dict[int | None, bytes] = {}
    split = getattr(game, "views_split", None)  # optional: a game that builds what its seats share once
    if split is not None:
        alike, theirs = split(seat for _, seat in seen.values())
        states = _spliced(alike, theirs)
    out: dict[int | None, bytes] = {}
    for pid, (me, seat) in seen.items():
        own = seat is not None and seat in table.play.overtime  # (a clock of their own: a head of their own)
        if (me is None or me.id in base_ids) and not own:
            first = shared
        else:
            first = _open({**_own_clock(table, seat, head, now), **_listing(table, _listed(table, me), to_act, queue)})
        state = states.get(seat)
        if state is None:
            state = states[seat] = b"null" if game is None else _raw(game.view(seat).to_json())
        out[pid] = b'%s,"me":%s,"state":%s%s' % (
            first,
            _raw(_me(table, me, seat, context)),
            state,
            tail,
        )
    return out


class Choices(NamedTuple):
    """A change made only of secret choices, as each viewer's view changes with it: the people now shown
    as having chosen (``newly``), and the seats whose own choice changed (``seats``), whose phones are told
    their new choice.  Nothing else of any view changes (``remaining_ms`` counts down as before).  (A named
    tuple: one is made for every choice, and a frozen dataclass costs several times as much to make.)"""

    newly: tuple[int, ...]
    seats: frozenset[int]

    def people(self) -> bytes:
        """``newly`` as JSON, encoded once for the whole room."""
        return _raw(list(self.newly))

    def choice(self, table: Table, pid: int | None) -> str | None:
        """``pid``'s own new choice, if this change made one (``None`` for everyone else)."""
        _, seat = _viewer(table, pid)
        return table.play.pending.get(seat) if seat is not None and seat in self.seats else None


def choices_only(
    table: Table, pending_before: Mapping[int, str], events: Sequence[Mapping[str, Any]]
) -> Choices | None:
    """What a change shows, if it was made only of secret choices (``chose`` events, the pending choices
    before them in ``pending_before``); None for any other change, which needs whole views.  A choice
    changed (again) shows nobody anything new but its maker: ``newly`` is then empty."""
    if not events or table.play.game is None or table.moment.phase != "playing":
        return None
    pending = table.play.pending
    seats: set[int] = set()
    for event in events:
        if event.get("type") != "chose" or (seat := event["seat"]) not in pending:
            return None  # (a choice that does not stand cannot come alone: the change held other events too)
        seats.add(seat)
    new = seats.difference(pending_before)
    newly = tuple(sorted(p.id for p in table.people.values() if p.seat in new)) if new else ()
    return Choices(newly, frozenset(seats))


def apply_choices(view: JSON, people: Iterable[int], choice: str | None) -> JSON:
    """A phone's view after a ``chosen`` message (what the pages' ``delta.js`` does too): a new view,
    the old one untouched."""
    marked = set(people)
    out = dict(view)
    out["people"] = [{**p, "chosen": True} if p["id"] in marked else p for p in view["people"]]
    if choice is not None and view.get("me") is not None:
        out["me"] = {**view["me"], "choice": choice}
    return out


_encoder = msgspec.json.Encoder()


def _viewer(table: Table, pid: int | None) -> tuple[Person | None, int | None]:
    """The person ``pid`` (None: an onlooker) and the seat whose view they get (none once gone)."""
    me = table.people.get(pid) if pid is not None else None
    return me, me.seat if me is not None and me.status != Status.GONE else None


def _raw(value: object) -> bytes:
    return _encoder.encode(value)


def _open(value: JSON) -> bytes:
    """A non-empty object, encoded without its closing brace (more keys are spliced after it)."""
    return _encoder.encode(value)[:-1]


def _settings_raw(settings: Settings) -> msgspec.Raw:
    """A table's public settings, encoded once (they never change)."""
    cached: msgspec.Raw | None = settings.__dict__.get("_public_raw")
    if cached is None:
        cached = msgspec.Raw(_raw(_settings_json(settings)))
        settings.__dict__["_public_raw"] = cached
    return cached


def _spliced(shared: JSON, own: Mapping[int | None, JSON]) -> dict[int | None, bytes]:
    """Each seat's ``{**shared, **own[seat]}`` (keys of its own after the shared ones, none of them the same),
    encoded with ``shared`` encoded once."""
    if not shared:
        return {seat: _raw(mine) for seat, mine in own.items()}
    first = _open(shared)
    return {seat: b"%s,%s" % (first, _raw(mine)[1:]) if mine else first + b"}" for seat, mine in own.items()}


def _head(table: Table, now: float, settings: object) -> JSON:
    """What every view begins with; ``settings``: the table's public settings (as JSON, or encoded once)."""
    paused, countdown = table.hold.paused, table.hold.countdown
    return {
        "code": table.code,
        "game": table.kind.name,
        "title": table.kind.title,
        "settings": settings,
        "phase": table.moment.phase,
        "game_number": table.play.number,
        "decision": table.moment.decision,
        "host": table.host_role.holder,
        "host_owner": table.host_role.owner,
        "remaining_ms": _remaining(table, now),
        "chairs": table.kind.max_seats,
        "paused": None
        if paused is None
        else {
            "by": paused.by,
            "name": paused.name,
            "remaining_ms": None if paused.remaining is None else round(paused.remaining * 1000),
            "silent": paused.silent,
        },
        "readying": None
        if table.hold.readying is None
        else {"by": table.hold.readying.by, "name": table.hold.readying.name},
        "countdown": None
        if countdown is None
        else {"by": countdown.by, "name": countdown.name, "remaining_ms": _ms(countdown.ends - now)},
        "ended": table.play.ended,
        "news": table.news.shown(),
        "audience": audience.public_view(table),
    }


def _own_clock(table: Table, seat: int | None, head: JSON, now: float) -> JSON:
    """``head`` as the person at ``seat`` sees it: if the open decision runs on a clock of their own (extra time,
    ``extra_time.py``), its ``remaining_ms`` (or, paused, ``paused.remaining_ms``) is theirs; nobody else's is."""
    own, left = extra.own_view(table, seat, now)
    if not own:
        return head
    if head["paused"] is not None:
        return {**head, "paused": {**head["paused"], "remaining_ms": left}}
    return {**head, "remaining_ms": left}


def _remaining(table: Table, now: float) -> int | None:
    """The table's clock (ms): 0 once it ended for everyone without extra time while the decision waits for
    someone with it (nothing says who has it, nor how much: ``extra_time.py``)."""
    if table.moment.deadline is None:
        return 0 if table.play.locked and table.hold.paused is None else None  # (paused: the clock stands)
    return max(0, round((table.moment.deadline - now) * 1000))


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def _people(table: Table, listed: list[Person], to_act: frozenset[int]) -> list[JSON]:
    connected, pending = table.runtime.connected, table.play.pending
    bot_plays_for = table.decisions.bot_plays_for
    out: list[JSON] = []
    for p in listed:
        seat = p.seat
        acting = seat is not None and seat in to_act
        bot_plays = bot_plays_for(p)
        out.append(
            {
                "id": p.id,
                "name": p.name,
                "status": p.status._value_,  # (the enum's value, without its descriptor)
                "chair": p.chair,
                "seat": seat,
                "look": p.look,
                "ready": p.ready or p.is_bot,
                "bot": p.bot,
                "connected": p.is_bot or p.id in connected,
                "to_act": acting,
                "chosen": acting and seat in pending,
                "bot_plays": bot_plays,
                "bot_since": p.bot_since if bot_plays else None,
                "left": p.left_reason if p.status == Status.GONE else None,
            }
        )
    return out


def _listing(table: Table, listed: list[Person], to_act: frozenset[int], queue: list[int]) -> JSON:
    """Who a view lists: ``listed`` (``_listed``), how many it leaves out, and the queue's head and length."""
    return {
        "people": _people(table, listed, to_act),
        "unlisted": _unlisted(table, listed),
        "queue": queue[:QUEUE_SHOWN],
        "queue_length": len(queue),
    }


def _unlisted(table: Table, listed: list[Person]) -> int:
    return sum(1 for p in table.people.values() if p.status != Status.GONE) - sum(
        1 for p in listed if p.status != Status.GONE
    )


class _Context(NamedTuple):
    """What every viewer's ``me`` reads of the table, found once a broadcast."""

    queue: list[int]
    to_act: frozenset[int]
    news: Mapping[int, list[Notice]] | None
    """The notices about each viewer, if already found (:meth:`News.about_each`)."""
    host: int | None
    pending: Mapping[int, str]

    @classmethod
    def of(
        cls, table: Table, queue: list[int], to_act: frozenset[int], news: Mapping[int, list[Notice]] | None = None
    ) -> _Context:
        return cls(queue, to_act, news, table.host_role.holder, table.play.pending)


def _me(table: Table, me: Person | None, seat: int | None, context: _Context) -> JSON:
    """The viewer's own part of a view (None: an onlooker)."""
    if me is None:
        return None
    pid = me.id
    host = context.host == pid
    queue = context.queue
    return {
        "id": pid,
        "name": me.name,
        "status": me.status._value_,
        "chair": me.chair,
        "seat": seat,
        "host": host,
        "queue_position": queue.index(pid) + 1 if pid in queue else None,
        "choice": None if seat is None else context.pending.get(seat),
        "moves": _moves(table, seat, context),
        "bans": [{"id": b.id, "name": b.name} for b in table.door.bans.values()] if host else [],
        "news": context.news[pid] if context.news is not None else table.news.about(pid),
        "more_time": None if me.extra_time == 1 else _more_time(table, me, seat),
        "extra_time": _extra_times(table) if host else {},
        "audience": audience.own_view(table, me),
    }


def _moves(table: Table, seat: int | None, context: _Context) -> list[str]:
    """The moves the viewer can make now: none once their time is up while the decision waits for someone with
    extra time (``Play.locked``)."""
    if seat is None or seat not in context.to_act:
        return []
    game, play = table.play.game, table.play
    if game is None or (play.locked and seat not in play.overtime):
        return []
    return list(game.legal_moves(seat))


def _more_time(table: Table, me: Person, seat: int | None) -> JSON | None:
    """The viewer's own extra time (None: as everyone): the factor the host gave them (0: no clock), and whether
    the open decision runs on their own clock (``own``: then the view's ``remaining_ms`` is theirs)."""
    if me.extra_time == 1 or me.status == Status.GONE:
        return None
    return {"factor": me.extra_time, "own": seat is not None and seat in table.play.overtime}


def _extra_times(table: Table) -> dict[str, int]:
    """The host's list of who has extra time: person id (as a string) to factor."""
    return {str(p.id): p.extra_time for p in table.people.values() if p.extra_time != 1 and p.status != Status.GONE}


def _listed(table: Table, me: Person | None) -> list[Person]:
    """Everyone with a chair or a seat of this game, the host, the viewer, and the first
    ``QUEUE_SHOWN`` of the others (the queue in its order, then the away), by id."""
    shown = {p.id for p in table.people.values() if p.chair is not None or p.seat is not None}
    shown |= {pid for pid in (table.host_role.holder, me.id if me is not None else None) if pid is not None}
    rest = [*table.queue(), *(p for p in table.people.values() if p.status == Status.AWAY and p.chair is None)]
    shown |= {p.id for p in rest[:QUEUE_SHOWN]}
    return [table.people[pid] for pid in sorted(shown) if pid in table.people]


def _public_settings(table: Table) -> JSON:
    return _settings_json(table.settings)


def _settings_json(s: Settings) -> JSON:
    return {
        "preset": s.preset,
        "options": s.options,
        "rules": s.rules,
        "seconds": s.seconds,
        "pause": s.pause,
        "turn_clock": s.turn_clock,
        "beat": s.beat,
        "hold_silent": s.hold_silent,
        "ready_check": s.ready_check,
        "last_call": s.last_call,
        "absent_grace": s.absent_grace,
        "scripted": s.script is not None,
    }
