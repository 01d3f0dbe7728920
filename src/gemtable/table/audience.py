"""The audience plays: the people watching predict, and score, at every decision of the game.

Who is the audience: everyone at the table who has no seat in the game under way — the queue for a chair
(the ninth person on), and someone who took a chair during the game and waits to walk into the next cave.  A
phone looking on without joining (a spectator, the TV) is nobody the table knows, so it has no score to keep:
it joins (the queue, when the chairs are taken) to predict.  A player of the game under way (a seat in it,
even walked out, away or gone) does not predict (``not-watching``): the audience is not a channel to the
table, nor the table's to itself.

What is asked is the game's (``games.api.Forecasts``): the expedition asks, at every decision, *who walks
out* (any of the seats still in the cave) and *does the next card collapse the cave* (yes or no; either part
may be left out); Booty Hunter asks once a game *who leads after the count*.  A prediction is an event of the
table's log (``predicted``), apart from the game's record, which it never changes; it may be changed until the
question is locked (``MAX_CHANGES`` times; Booty Hunter's, once made, stands).  The question is locked when the
game moves past it — the expedition's reveal, the last tile placed — and a prediction for it after that is
refused (``locked``).  It is scored as soon as what it asked is known, each part on its own: who walked out at
the reveal, the collapse when the next card is turned (void when none is: everyone walked out), the leader
at the count.

Scoring: a point per right name less a point per wrong name, never below 0 for a question (naming everyone
scores nothing more than naming the ones who walk; naming nobody is no call); a point per right collapse call;
a point for the right leader (any of the leaders, when they tie).  Points add up for the night: a table's
whole life, across its games, kept by person, so that a watcher who takes a freed chair keeps them (a person
who leaves and comes back is a new person, as everywhere at the table).

Everything is computed in ``settle``, which the table runs after every event it applies while a prediction is
open or waits for its score: a table rebuilt from its events has the same standings.  Secrets: nobody but its
maker is ever shown a prediction; once a question is locked, everyone is shown how many watchers called what
(``last``), and the standings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gemtable.games.api import JSON, forecasts
from gemtable.table.errors import TableError
from gemtable.table.people import Person, Status

if TYPE_CHECKING:
    from gemtable.table.table import Table

Event = dict[str, Any]

MAX_CHANGES = 10
"""Times a watcher may change a prediction of one question (then it stands until the reveal)."""
STANDINGS_SHOWN = 5
"""The standings a view carries: the first five (``members`` counts everyone with points)."""
PARTS = ("out", "collapse", "leader")
"""What a question may ask (``games.api.Forecasts``)."""


@dataclass(slots=True)
class Call:
    """One watcher's prediction of one question."""

    out: tuple[int, ...] | None = None
    collapse: bool | None = None
    leader: int | None = None
    changes: int = 0

    def to_json(self) -> JSON:
        return {"out": None if self.out is None else list(self.out), "collapse": self.collapse, "leader": self.leader}


@dataclass(slots=True)
class Asked:
    """A locked question, waiting for what it asked to be known."""

    game: int
    key: str
    calls: dict[int, Call]
    parts: set[str]
    """The parts not yet scored."""
    points: dict[int, int] = field(default_factory=dict)
    """What each call has scored so far."""


@dataclass(slots=True)
class Audience:
    scores: dict[int, int] = field(default_factory=dict)
    """Points for the night, by person (everyone who has had a call scored)."""
    reached: dict[int, int] = field(default_factory=dict)
    """The event at which each person reached their score: of two with the same points, the first there ranks
    first."""
    names: dict[int, str] = field(default_factory=dict)
    """The names of the people who predicted (the standings name those who have left since)."""
    question: JSON | None = None
    """The open question the calls answer (its ``key`` with the game's number: ``"1/2.3"``)."""
    calls: dict[int, Call] = field(default_factory=dict)
    waiting: list[Asked] = field(default_factory=list)
    last: JSON | None = None
    """How the watchers called the last locked question: counts only (public)."""
    results: dict[int, JSON] = field(default_factory=dict)
    """Each person's last scored question: its key and what each part earned (their own: only they see it)."""

    ranked: tuple[int, list[JSON]] | None = None
    """The standings as of an event (its number): ``standings``' cache."""
    heard: int = 0
    """``predicted`` events applied: a notice's id does not count them (``Table.tell``)."""

    @property
    def busy(self) -> bool:
        return bool(self.calls or self.waiting)


# --- the command --------------------------------------------------------------------------------------


def open_question(table: Table) -> JSON | None:
    """The question the audience may answer now, with its table-wide key (None: none)."""
    game = table.play.game
    if game is None or not table.in_game():
        return None
    asks = forecasts(game)
    question = asks.forecast() if asks is not None else None
    if question is None:
        return None
    return {**question, "key": f"{table.play.number}/{question['key']}"}


def may_predict(person: Person) -> bool:
    """Whether this person is of the audience: here, not a bot, without a seat in the game under way."""
    return not person.is_bot and person.status != Status.GONE and person.seat is None


def predict(table: Table, pid: int, key: object, now: float, **parts: object) -> None:
    """A watcher's prediction of the question ``key`` (``out``, ``collapse``, ``leader``: each optional)."""
    person = table.person(pid)
    if person.status == Status.GONE:
        raise TableError("gone", "you have left this table")
    if not may_predict(person):
        raise TableError("not-watching", "players do not predict: the audience is everyone watching")
    question = open_question(table)
    if question is None and not table.in_game():
        raise TableError("no-question", "there is nothing to predict right now")
    if question is None or key != question["key"]:
        raise TableError("locked", "too late: that question was locked at its reveal")
    call = _call(question, parts)
    aud: Audience = table.audience
    before = aud.calls.get(pid)
    if before is not None and question.get("once"):
        raise TableError("already-predicted", "your prediction stands: it is made once a game")
    if before is not None and before.changes >= MAX_CHANGES:
        raise TableError("too-many-changes", f"you have changed your prediction {MAX_CHANGES} times: it stands")
    data = {name: value for name, value in call.to_json().items() if value is not None}
    table.emit("predicted", now, person=pid, key=question["key"], **data)


def _call(question: JSON, parts: dict[str, object]) -> Call:
    """The prediction ``parts`` make of ``question``, or ``bad-prediction`` saying what is wrong."""
    call = Call()
    out, collapse, leader = parts.get("out"), parts.get("collapse"), parts.get("leader")
    if out is not None:
        seats = question.get("out")
        if seats is None or not isinstance(out, list | tuple) or len(out) > len(seats):
            raise TableError("bad-prediction", "this question does not ask who walks out")
        for seat in out:
            if type(seat) is not int or seat not in seats:
                raise TableError("bad-prediction", f"{str(seat)[:12]!r} is not a seat still in the cave")
        if len(set(out)) != len(out):
            raise TableError("bad-prediction", "name each explorer once")
        call.out = tuple(sorted(out)) or None  # (naming nobody is no call)
    if collapse is not None:
        if not question.get("collapse") or type(collapse) is not bool:
            raise TableError("bad-prediction", "the collapse is called true (yes) or false (no)")
        call.collapse = collapse
    if leader is not None:
        if type(leader) is not int or leader not in question.get("leader", ()):
            raise TableError("bad-prediction", f"{str(leader)[:12]!r} is not a seat of this game")
        call.leader = leader
    if call.out is None and call.collapse is None and call.leader is None:
        raise TableError("bad-prediction", "say who walks out, whether the cave collapses, or who leads")
    return call


# --- applying ----------------------------------------------------------------------------------------


def on_predicted(table: Table, e: Event) -> None:
    aud = table.audience
    aud.heard += 1
    pid = int(e["person"])
    question = open_question(table)
    if question is None or question["key"] != e["key"]:
        return  # (cannot happen: the command checked it; a log edited by hand changes nothing)
    aud.question = question
    out = e.get("out")
    before = aud.calls.get(pid)
    aud.calls[pid] = Call(
        None if out is None else tuple(out),
        e.get("collapse"),
        e.get("leader"),
        0 if before is None else before.changes + 1,
    )
    person = table.people.get(pid)
    if person is not None:
        aud.names[pid] = person.name


def settle(table: Table) -> None:
    """After an event: lock the open calls if the game moved past their question, score what is known."""
    aud: Audience = table.audience
    if aud.calls:
        question = aud.question
        now_open = open_question(table)
        if question is None or now_open is None or now_open["key"] != question["key"]:
            _lock(table, aud, question)
    if aud.waiting:
        _score(table, aud)


def _lock(table: Table, aud: Audience, question: JSON | None) -> None:
    calls, aud.calls, aud.question = aud.calls, {}, None
    if question is None:
        return
    game, key = question["key"].split("/", 1)
    parts = {part for part in PARTS if question.get(part)}
    aud.waiting.append(Asked(int(game), key, calls, parts))
    tally: JSON = {"key": question["key"], "watchers": len(calls)}
    if "out" in parts:
        named: dict[str, int] = {}
        for call in calls.values():
            for seat in call.out or ():
                named[str(seat)] = named.get(str(seat), 0) + 1
        tally["out"] = dict(sorted(named.items(), key=lambda item: int(item[0])))
    if "collapse" in parts:
        said = [c.collapse for c in calls.values() if c.collapse is not None]
        tally["collapse"] = {"yes": said.count(True), "no": said.count(False)}
    if "leader" in parts:
        leaders: dict[str, int] = {}
        for call in calls.values():
            if call.leader is not None:
                leaders[str(call.leader)] = leaders.get(str(call.leader), 0) + 1
        tally["leader"] = dict(sorted(leaders.items(), key=lambda item: int(item[0])))
    aud.last = tally


def _score(table: Table, aud: Audience) -> None:
    asks = forecasts(table.play.game) if table.play.game is not None else None
    over = table.play.game is None or table.play.game.is_over()
    still: list[Asked] = []
    for asked in aud.waiting:
        told = asks.forecast_told(asked.key) if asks is not None and asked.game == table.play.number else None
        for part in sorted(asked.parts):
            if told is not None and part in told:
                _score_part(table, aud, asked, part, told[part])
                asked.parts.discard(part)
        if asked.parts and asked.game == table.play.number and not over:
            still.append(asked)  # (another game, or this one over: what is not known now never will be)
    aud.waiting = still


def _score_part(table: Table, aud: Audience, asked: Asked, part: str, truth: Any) -> None:
    for pid, call in asked.calls.items():
        points: int | None = None
        if part == "out" and call.out:
            right = len(set(call.out) & set(truth))
            points = max(0, right - (len(call.out) - right))
        elif part == "collapse" and call.collapse is not None and truth is not None:
            points = int(call.collapse == truth)
        elif part == "leader" and call.leader is not None:
            points = int(call.leader in truth)
        if points is None:
            continue
        result = aud.results.get(pid)
        if result is None or result.get("key") != f"{asked.game}/{asked.key}":
            result = aud.results[pid] = {"key": f"{asked.game}/{asked.key}", "points": 0}
        result[part] = points
        result["points"] += points
        if pid not in aud.scores:
            aud.scores[pid] = 0
            aud.reached[pid] = table.log.events
        if points:
            aud.scores[pid] += points
            aud.reached[pid] = table.log.events


# --- what the views show -----------------------------------------------------------------------------


def standings(aud: Audience, table: Table) -> list[JSON]:
    """Everyone with points, most first; equal points: the first to reach them first, sharing the rank.  Built
    once per event (a broadcast asks for it once, and for every watcher's rank)."""
    if aud.ranked is None or aud.ranked[0] != table.log.events:
        aud.ranked = (table.log.events, _standings(aud, table))
    return aud.ranked[1]


def _standings(aud: Audience, table: Table) -> list[JSON]:
    order = sorted(
        (pid for pid, points in aud.scores.items() if points > 0), key=lambda p: (-aud.scores[p], aud.reached[p], p)
    )
    out: list[JSON] = []
    for index, pid in enumerate(order):
        points = aud.scores[pid]
        rank = out[-1]["rank"] if out and out[-1]["points"] == points else index + 1
        person = table.people.get(pid)
        name = person.name if person is not None else aud.names.get(pid, "")
        out.append({"id": pid, "name": name, "points": points, "rank": rank})
    return out


def public_view(table: Table) -> JSON | None:
    """What everyone is shown (the TV too): the standings' first five and the last locked question's counts;
    None until anyone has predicted."""
    aud: Audience = table.audience
    if aud.last is None and not aud.scores:
        return None
    ranked = standings(aud, table)
    return {"standings": ranked[:STANDINGS_SHOWN], "members": len(ranked), "last": aud.last}


def own_view(table: Table, me: Person) -> JSON | None:
    """What a person is shown of their own audience play: the question open to them, their call for it, their
    points and rank, and their last scored question.  None for anyone with no points who is not watching a game
    (a player, everyone in the lobby): their phones never load the audience's panel."""
    aud: Audience = table.audience
    if me.seat is not None and me.id not in aud.scores:
        return None  # (a player: the usual case, answered first)
    can = may_predict(me) and table.in_game()
    if not can and me.id not in aud.scores:
        return None
    question = open_question(table) if can else None
    call = aud.calls.get(me.id) if question is not None else None
    rank = (
        next((row["rank"] for row in standings(aud, table) if row["id"] == me.id), None)
        if me.id in aud.scores
        else None
    )
    return {
        "open": question,
        "mine": None if call is None else call.to_json(),
        "changes_left": None if call is None else max(0, MAX_CHANGES - call.changes),
        "score": aud.scores.get(me.id, 0),
        "rank": rank,
        "result": aud.results.get(me.id),
    }


__all__ = ["MAX_CHANGES", "STANDINGS_SHOWN", "Audience", "open_question", "own_view", "predict", "public_view"]
