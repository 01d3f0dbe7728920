"""A table: chairs, people, the game being played, its clock — pure, and game-agnostic.

Event sourced.  Every change is an event (a JSON object with a ``type`` and the
time ``at`` it happened); ``apply(event)`` is the only code that changes the
table, and a table rebuilt from its events is the same table, deadlines
included, since deadlines are computed from the events' times.

Commands (``join``, ``choose``, ``start``…) check who is asking, whether they
may, and whether it is legal, in that order; refuse with a :class:`TableError`
before anything changes; then emit events.  ``emit`` applies an event and puts
it in the outbox; the server persists the outbox, and only then tells anyone.

Time is an input: ``tick(now)`` does what the clock asks (reveal at a deadline,
end the reveal's beat, open the next round after the pause, let bots move, begin
a game when its countdown ends) and ``next_wakeup()`` says when it must run next.

The reveal's beat: in a game that holds its reveals (``games.api.Beats``), a
reveal (the ``moves`` event) puts the table in the ``reveal`` phase for the
settings' ``beat`` seconds, every screen showing everyone's choice and nothing
new yet; then ``went_on`` lets the game go on (the expedition's next card).  The
beat's end is a deadline like any other, computed from the events' times, so a
table rebuilt in the middle of a beat ends it when it would have.  Only the
server owns a clock.  A paused table has no wake-up but the host's absence:
nothing is revealed and no bot moves until the host resumes.

Everything a host does (pause, resume, remove, ban, hand the role on, end a
game, change the settings, start and cancel a countdown) is a command that
emits events, so a table rebuilt from its log is the same table: paused with
the time it had left, counting down to the same moment, with the same bans.
What happened to people is told as notices (``news.py``), built from the events.

What the table knows of connections (who is connected, since when) is not in
the log: it is what the server tells it, and it only decides *events* from it
(a player is away, a player is back), which are logged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import gemtable.table.audience as audience
import gemtable.table.extra_time as extra
import gemtable.table.moderation as moderation
import gemtable.table.seating as seating
from gemtable.games import find_manifest
from gemtable.games.api import JSON, Game, beats
from gemtable.table.decisions import BOT_DELAY as BOT_DELAY
from gemtable.table.decisions import GRACE as GRACE
from gemtable.table.decisions import MAX_CHANGES as MAX_CHANGES
from gemtable.table.decisions import MISSED_TURNS as MISSED_TURNS
from gemtable.table.decisions import TURN_GRACE as TURN_GRACE
from gemtable.table.decisions import Decisions, Simultaneous, Turns
from gemtable.table.errors import TableError
from gemtable.table.log import Event as Event
from gemtable.table.log import Log
from gemtable.table.moderation import RESUME_FLOOR as RESUME_FLOOR
from gemtable.table.moderation import Door, Hold, HostRole
from gemtable.table.names import NAME_MAX as NAME_MAX
from gemtable.table.names import clean_name
from gemtable.table.news import News, Notice
from gemtable.table.people import Person, Status
from gemtable.table.phases import LOBBY as LOBBY
from gemtable.table.phases import PAUSE as PAUSE
from gemtable.table.phases import PLAYING as PLAYING
from gemtable.table.phases import RESULTS as RESULTS
from gemtable.table.phases import REVEAL as REVEAL
from gemtable.table.phases import Moment
from gemtable.table.play import Play
from gemtable.table.seating import MAX_WATCHERS as MAX_WATCHERS
from gemtable.table.seating import REMOVED_KEPT as REMOVED_KEPT
from gemtable.table.settings import ABSENT_GRACE as ABSENT_GRACE
from gemtable.table.settings import COUNTDOWN as COUNTDOWN
from gemtable.table.settings import Settings


@dataclass
class Runtime:
    """What the server tells the table about connections; not part of the log."""

    connected: set[int] = field(default_factory=set)
    since: dict[int, float] = field(default_factory=dict)
    """When each disconnected person was last seen (or when the table was loaded)."""
    seen_in_round: set[int] = field(default_factory=set)
    ticked: float | None = None
    """When the clock last caught up (``tick``): what was due by then has been done."""


class Table:
    """One table.  See the module documentation."""

    def __init__(self, code: str, settings: Settings, created_at: float) -> None:
        self.code = code
        self.settings = settings
        self.manifest = find_manifest(settings.game)
        self.decisions: Decisions = Simultaneous(self) if self.manifest.simultaneous else Turns(self)
        """How its game decides, asked everything that differs between simultaneous and turn-based games."""
        self.people: dict[int, Person] = {}
        self.host_role = HostRole()
        """Who is host, and whose the role is (``moderation.py``)."""
        self.last_id = 0
        """The highest person id given so far (people who left may be forgotten; ids are never reused)."""
        self.moment = Moment(LOBBY, created_at)
        """Where the table is: its phase, since when, until when, which decision (``phases.py``)."""
        self.play = Play()
        """The game in play (or the last one played): its state, and the table's side of it (``play.py``)."""
        self.hold = Hold()
        """The game paused, or the next one being readied and counted down (``moderation.py``)."""
        self.door = Door()
        """Who may not come back in: bans, and the removed (``moderation.py``)."""
        self.news = News()
        self.audience = audience.Audience()
        """The people watching, predicting (``audience.py``): their calls and their points for the night."""
        self.log = Log()
        """The table's side of its event log (``log.py``)."""
        self.runtime = Runtime()

    @property
    def kind(self) -> type[Game]:
        """The game this table plays (its manifest's)."""
        return self.manifest.game

    # --- building ------------------------------------------------------------------------

    @classmethod
    def create(cls, code: str, settings: Settings, now: float) -> Table:
        """A new table; its ``created`` event waits in the outbox."""
        table = cls(code, settings, now)
        table.log.events = 1
        table.log.outbox.append({"type": "created", "code": code, "settings": settings.to_json(), "at": now})
        return table

    @classmethod
    def rebuild(cls, events: Iterable[Event], now: float | None = None) -> Table:
        """The table as its events left it.  Everyone counts as disconnected since ``now``."""
        it = iter(events)
        first = next(it)
        if first.get("type") != "created":
            raise ValueError("a table's log starts with its creation")
        settings = Settings.from_json(first["settings"])
        table = cls(first["code"], settings, first["at"])
        table.log.events = 1
        for event in it:
            table.apply(event)
        loaded = now if now is not None else first["at"]
        table.runtime.since = {pid: loaded for pid in table.people}
        return table

    def take_outbox(self) -> list[Event]:
        out, self.log.outbox = self.log.outbox, []
        return out

    def emit(self, type_: str, now: float, **data: Any) -> Event:
        event: Event = {"type": type_, **data, "at": now}
        self.apply(event)
        self.log.outbox.append(event)
        return event

    # --- who is here ----------------------------------------------------------------------

    def person(self, pid: int) -> Person:
        try:
            return self.people[pid]
        except KeyError:
            if isinstance(pid, int) and 0 < pid <= self.last_id:  # left, and forgotten since
                raise TableError("gone", "you have left this table") from None
            raise TableError("unknown-person", "you are not at this table") from None

    def by_token(self, token_hash: str) -> Person | None:
        for person in self.people.values():
            if person.token is not None and person.token == token_hash and person.status != Status.GONE:
                return person
        return None

    def chairs(self) -> list[Person | None]:
        chairs: list[Person | None] = [None] * self.kind.max_seats
        for person in self.people.values():
            if person.chair is not None:
                chairs[person.chair] = person
        return chairs

    def queue(self) -> list[Person]:
        waiting = [p for p in self.people.values() if p.status == Status.WATCHING]
        return sorted(waiting, key=lambda p: (p.joined_at, p.id))

    def in_game(self) -> bool:
        return self.moment.phase in (PLAYING, REVEAL, PAUSE)

    def person_at_seat(self, seat: int) -> Person | None:
        for person in self.people.values():
            if person.seat == seat:
                return person
        return None

    def people_at_seats(self) -> dict[int, Person]:
        """Each seat's person, as :meth:`person_at_seat` finds them (the first), in one pass over the people: for
        what runs after every command and asks of every seat."""
        at_seat: dict[int, Person] = {}
        for person in self.people.values():
            if person.seat is not None:
                at_seat.setdefault(person.seat, person)
        return at_seat

    # --- commands -------------------------------------------------------------------------

    def banned(self, token: str | None = None, origin: str | None = None) -> bool:
        """Whether a seat token (hashed) or an origin is banned from this table."""
        return any(
            (token and ban.token == token) or (origin and ban.origin == origin) for ban in self.door.bans.values()
        )

    # --- people, chairs and seats (``seating.py``) ------------------------------------------

    join = seating.join
    leave = seating.leave
    connect = seating.connect
    disconnect = seating.disconnect
    _absent_give_way = seating.absent_give_way
    _mark_away = seating.mark_away
    _bots_give_way = seating.bots_give_way
    _bot_gives_way = seating.bot_gives_way
    _assign_seats = seating.assign_seats
    _fill_chairs = seating.fill_chairs
    _free_chair = seating.free_chair
    _successor = seating.successor
    _absent_host = seating.absent_host
    _pass_host = seating.pass_host
    _take_chair_seat = seating.take_chair_seat

    # --- the host's controls (``moderation.py``) --------------------------------------------

    add_bot = moderation.add_bot
    remove_bot = moderation.remove_bot
    remove = moderation.remove
    unban = moderation.unban
    hand_host = moderation.hand_host
    extra_time = moderation.give_extra_time
    pause = moderation.pause
    resume = moderation.resume
    end = moderation.end
    change_settings = moderation.change_settings
    start = moderation.start
    cancel_start = moderation.cancel_start
    ready = moderation.ready

    def choose(self, pid: int, move: str, now: float, decision: int | None = None) -> None:
        """A player's move; in a simultaneous game it stays secret, and changeable, until the reveal.

        ``decision`` (optional) names the decision the move answers; a move meant
        for an earlier one arrives too late and is refused rather than applied
        to the current one."""
        person = self.person(pid)
        game = self.play.game
        if self.moment.phase == REVEAL:  # (its decision number is still the one just revealed)
            raise TableError("stale", "too late: that decision has been revealed")
        if game is None or self.moment.phase != PLAYING:
            raise TableError("no-decision", "there is nothing to decide right now")
        silent_hold = self.hold.paused is not None and self.hold.paused.silent
        if self.hold.paused is not None and not silent_hold and not self.decisions.chooses_while_paused:
            raise TableError("paused", "the game is paused: wait for the host to resume it")
        if decision is not None and decision != self.moment.decision:
            raise TableError("stale", "too late: that decision has already been revealed")
        seat = person.seat
        if extra.time_up(self, seat, now):  # (the clock has not caught up yet, but it will; or it ended for them)
            raise TableError("stale", "too late: the time for that decision is up")
        if seat is None or person.chair is None or seat not in game.to_act():
            raise TableError("not-your-turn", "it is not your turn to choose")
        if not isinstance(move, str) or move not in game.legal_moves(seat):
            raise TableError("illegal-move", f"{str(move)[:40]!r} is not a move you can make now")
        if silent_hold:  # the table asked whether everyone is here: a move answers it
            self.emit("resumed", now, by=pid)
        self.decisions.choose(seat, move, now)

    def predict(self, pid: int, key: object, now: float, **parts: object) -> None:
        """A watcher's prediction (``audience.py``)."""
        audience.predict(self, pid, key, now, **parts)

    # --- the clock ------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Do what time asks for: bots, deadlines, early reveals, the next round."""
        self.runtime.ticked = now
        for _ in range(64):  # every pass emits; a few passes settle anything
            before = len(self.log.outbox)
            self._tick_once(now)
            if len(self.log.outbox) == before:
                return

    def next_wakeup(self) -> float | None:
        """When ``tick`` must run next, if nothing else happens first (paused: only for an absent host)."""
        times: list[float] = self._absence_wakeups()
        if self.hold.paused is not None:
            return min(times) if times else None
        if self.hold.countdown is not None:
            times.append(self.hold.countdown.ends)
        if self.moment.deadline is not None:
            times.append(self.moment.deadline)
        game = self.play.game
        if self.moment.phase == PLAYING and game is not None:
            to_act = game.to_act()
            at_seat = self.people_at_seats()
            inside: list[Person] = []  # the people (not bots) of the seats to act
            for seat in to_act:
                person = at_seat.get(seat)
                if person is None:
                    continue
                if not person.is_bot:
                    inside.append(person)
                elif seat not in self.play.pending:
                    times.append(self.moment.opened_at + self.decisions.bot_wait)
            times.extend(self.decisions.wakeups(game, inside))
        return min(times) if times else None

    def _absence_wakeups(self) -> list[float]:
        """When an absent host hands over, or an absent player's chair goes to a watcher (not yet done)."""
        rt = self.runtime
        times: list[float] = []
        host = self.people.get(self.host_role.holder) if self.host_role.holder is not None else None
        since = self.absent_since(host) if host is not None else None
        if since is not None and self._successor(self.host_role.holder) is not None:
            times.append(since + self.settings.absent_grace)
        if (
            self.moment.phase in (LOBBY, RESULTS)
            and self._free_chair() is None
            and any(w.id in rt.connected for w in self.queue())
        ):
            for person in self.people.values():
                since = self.absent_since(person)
                if person.chair is not None and since is not None:
                    times.append(since + self.settings.absent_grace)
        return [t for t in times if rt.ticked is None or t > rt.ticked]

    def absent_since(self, person: Person) -> float | None:
        """Since when this person's phone has been gone (None: connected, a bot, or never seen)."""
        if person.is_bot or person.id in self.runtime.connected or person.status == Status.GONE:
            return None
        return self.runtime.since.get(person.id)

    def bot_plays_for(self, person: Person) -> bool:
        """Whether a bot plays this person's seat now (turn-based: they left, or their phone is gone and
        turns were missed)."""
        return self.decisions.bot_plays_for(person)

    def deciding(self, paused_too: bool = False) -> bool:
        """Whether a decision of the game is open (and, unless ``paused_too``, the table not paused)."""
        return self.moment.phase == PLAYING and (paused_too or self.hold.paused is None)

    # --- the rules of the table -----------------------------------------------------------

    def _tick_once(self, now: float) -> None:
        self._absent_host(now)
        if self.moment.phase in (LOBBY, RESULTS):
            self._absent_give_way(now)
            moderation.ready_now(self, now)
            moderation.countdown_ends(self, now)
            return
        if self.hold.paused is not None:
            return
        game = self.play.game
        if self.moment.phase == REVEAL:
            if self.moment.deadline is None or now >= self.moment.deadline:
                self.emit("went_on", now)
            return
        if self.moment.phase == PAUSE and self.moment.deadline is not None and now >= self.moment.deadline:
            self._begin_round(now)
            return
        if self.moment.phase == PAUSE and self.moment.deadline is None:
            self._begin_round(now)  # waiting for someone to come back
            return
        if self.moment.phase != PLAYING or game is None:
            return
        self.decisions.bots_move(game, now)
        if self.moment.phase != PLAYING:
            return
        self.decisions.tick(game, now)

    def bot_random(self, seat: int) -> random.Random:
        """A bot's dice for the decision open now, drawn from the log (game seed, decision, seat),
        so that a table rebuilt from its events has bots that do what the original's would have."""
        return random.Random(f"{self.code}/{self.play.seed}/{self.moment.decision}/{seat}")

    def _begin_round(self, now: float) -> None:
        self._mark_away(now)
        self._bots_give_way(now)
        roster = [p for p in self.people.values() if p.has_chair and p.status in (Status.SEATED, Status.WAITING)]
        assign = self._assign_seats(roster) if roster and self.play.game is not None else {}
        if not assign:  # nobody who can walk in (or no seat of this game left for anyone who could)
            if self.moment.phase != PAUSE or self.moment.deadline is not None:
                self.emit("stalled", now)
            return
        self.emit("round", now, seats={str(pid): seat for pid, seat in sorted(assign.items())})

    # --- applying events ------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """The only way the table changes.  Each event type has its one handler (``_APPLY``, below them)."""
        handler = self._APPLY.get(str(event.get("type")))
        if handler is None:
            raise TableError("bad-event", f"no table event is called {event.get('type')!r}")
        handler(self, event)
        self.log.events += 1
        if self.audience.busy:
            audience.settle(self)

    def tell(self, kind: str, **fields: Any) -> None:
        """A notice (``news.py``) from the event being applied: its number is the notice's id."""
        # (the audience's predictions are not counted: a game's record, whose history holds its notices, is the
        # same with or without them)
        notice: Notice = {"id": self.log.events + 1 - self.audience.heard, "kind": kind}
        notice.update((key, value) for key, value in fields.items() if value is not None)
        in_game = self.in_game() and self.play.game is not None
        if in_game:
            notice.update(game=self.play.number, round=self.play.rounds, move=self.play.moves_made + 1)
        self.news.add(notice, in_game)

    def _name(self, pid: object) -> str | None:
        person = self.people.get(pid) if isinstance(pid, int) else None
        return person.name if person is not None else None

    def _on_stalled(self, e: Event) -> None:
        self.moment.phase = PAUSE
        self.moment.deadline = None

    def _on_game(self, e: Event) -> None:
        game = self.kind.new(self.settings.rules, self.kind.seats_per_game, e["seed"], self.settings.script)
        self.play = Play(e["number"], e["seed"], game)
        if self.settings.beat > 0 and (holds := beats(game)) is not None:
            holds.hold_reveals()
        self.hold = Hold()
        self.news.new_game()
        for pid in [pid for pid, p in self.people.items() if p.status == Status.GONE]:
            del self.people[pid]  # their names are in the records of the games they played
        for person in self.people.values():
            person.seat = None
            person.missed = 0
            person.bot_since = None
            person.ready = False

    def _on_round(self, e: Event) -> None:
        game = self.play.game
        assert game is not None
        seats = {int(pid): seat for pid, seat in e["seats"].items()}
        for pid, seat in seats.items():
            person = self.people[pid]
            person.seat = seat
            person.status = Status.SEATED
        game.start_round(sorted(seats.values()))
        self.play.rounds += 1
        self.play.timed_out = []
        self.play.offline = []
        self.runtime.seen_in_round = set(self.runtime.connected)
        self._after_move(e["at"])

    def _on_pruned(self, e: Event) -> None:
        """A placeholder for an event the log forgot (``Store.prune``): it only keeps its number."""

    def _on_chose(self, e: Event) -> None:
        self.play.choices_logged.append(self.log.events + 1)  # (this event's number: ``apply`` counts it next)
        seat = e["seat"]
        if seat in self.play.pending:
            self.play.changes[seat] = self.play.changes.get(seat, 0) + 1
        self.play.pending[seat] = e["move"]
        self.play.last_choice = e["at"]

    def _on_moves(self, e: Event) -> None:
        game = self.play.game
        assert game is not None
        moves = {int(seat): move for seat, move in e["moves"].items()}
        self.play.revealed([int(seat) for seat in e.get("timed_out", ())], [int(seat) for seat in e.get("offline", ())])
        self.decisions.told(moves, e)
        game.apply_joint(moves)
        self.play.moves_made += 1
        if (holds := beats(game)) is not None and holds.held():  # every screen shows the reveal, for the beat
            self.moment.phase = REVEAL
            self.moment.opened_at = e["at"]
            self.moment.deadline = e["at"] + self.settings.beat
            return
        self._after_move(e["at"])

    def _on_went_on(self, e: Event) -> None:
        holds = beats(self.play.game)
        assert holds is not None
        holds.go_on()
        self._after_move(e["at"])

    _APPLY: ClassVar[dict[str, Callable[[Table, Event], None]]] = {
        "joined": seating.on_joined,
        "bot": seating.on_bot,
        "seated": seating.on_seated,
        "unseated": seating.on_unseated,
        "left": seating.on_left,
        "host": moderation.on_host,
        "banned": moderation.on_banned,
        "unbanned": moderation.on_unbanned,
        "away": seating.on_away,
        "back": seating.on_back,
        "stalled": _on_stalled,
        "paused": moderation.on_paused,
        "resumed": moderation.on_resumed,
        "ready_check": moderation.on_ready_check,
        "ready": moderation.on_ready,
        "countdown": moderation.on_countdown,
        "cancelled": moderation.on_cancelled,
        "settings": moderation.on_settings,
        "extra_time": extra.on_extra_time,
        "overtime": extra.on_overtime,
        "game": _on_game,
        "round": _on_round,
        "chose": _on_chose,
        "moves": _on_moves,
        "went_on": _on_went_on,
        "ended": moderation.on_ended,
        "pruned": _on_pruned,
        "predicted": audience.on_predicted,
    }
    """Every event type and the handler that applies it."""

    def _after_move(self, at: float) -> None:
        game = self.play.game
        assert game is not None
        self.moment.opened_at = at
        self.moment.decision += 1
        if game.is_over():
            self.moment.phase = RESULTS
            self.moment.deadline = None
            self.log.records[self.play.number] = self.game_record()
            self.log.finished.append(self.play.number)
            self.log.prunable.extend(self.play.choices_logged)
            self.play.choices_logged = []
            for person in self.people.values():
                if person.has_chair and person.status in (Status.WAITING,):
                    person.status = Status.SEATED
        elif game.needs_roster():
            self.moment.phase = PAUSE
            self.moment.deadline = at + self.settings.pause
        else:
            self.moment.phase = PLAYING
            self.moment.deadline = at + self.settings.seconds if self.settings.turn_clock else None
        extra.open_clocks(self, at)  # (each own clock of the people with extra time; none out of a decision)

    def game_record(self) -> JSON:
        """The finished (or current) game's record, with the names of its seats."""
        assert self.play.game is not None
        record = self.play.game.record().to_json()
        names = {}
        for person in self.people.values():
            if person.seat is not None:
                names[str(person.seat)] = person.name
        record["names"] = names
        record["bots"] = {str(p.seat): p.bot for p in self.people.values() if p.seat is not None and p.bot}
        record["looks"] = {
            str(p.seat): p.look for p in self.people.values() if p.seat is not None and p.look is not None
        }
        record["table"] = self.code
        record["number"] = self.play.number
        record["history"] = list(self.news.game)  # who left, stood in, was walked out, and when (news.py)
        record["left"] = {
            str(p.seat): {"name": p.name, "reason": p.left_reason, "move": p.left_move, "round": p.left_round}
            for p in self.people.values()
            if p.seat is not None and p.status == Status.GONE
        }
        record["stand_ins"] = {
            str(seat): [list(r) for r in ranges] for seat, ranges in sorted(self.play.stand_ins.items())
        }
        if self.play.ended is not None:
            record["ended"] = dict(self.play.ended)
        if self.play.game.is_over():
            record["final"] = self.play.game.view(None).to_json()  # what everyone saw at the end
        return record


__all__ = ["LOBBY", "PAUSE", "PLAYING", "RESULTS", "REVEAL", "Settings", "Table", "TableError", "clean_name"]
