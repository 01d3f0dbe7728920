"""How a table's game decides: everyone at once in secret (simultaneous), or one seat at a time (turns).

The table chooses one of these once, from the game's manifest (``Table.decisions``), and asks it everything
that differs between the two: how a player's move is taken, when the clock must wake the table, what the
clock does at a deadline, how bots move, what a silent or departed player's move is, and what a reveal tells.
Nothing else at the table branches on the game's dynamics.

- **Simultaneous** (the expedition): a move is a secret choice (a ``chose`` event), changeable until the
  reveal; the reveal (a ``moves`` event) comes as soon as nobody who could still choose is left to choose
  (:meth:`Simultaneous.settle`), or at the deadline, the silent seats getting the game's default move.  A gone
  phone holds the reveal up for a grace (:data:`GRACE`, or the table's absence grace with the clock off).
- **Turns** (Booty Hunter): a move is played at once; a seat whose person left, or whose phone is gone after
  :data:`MISSED_TURNS` turns, is played by the game's stand-in bot at a bot's pace; with the turn clock off, a
  turn waits :data:`TURN_GRACE` for a phone that is gone, then the default move is played.

In both, a person with extra time (``extra_time.py``) has a clock of their own: when the table's clock ends while
they still have time, an ``overtime`` event locks the others' silence and the decision waits for them alone.

Both only emit events through the table (``Table.emit``); the events' handlers stay the table's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import gemtable.table.extra_time as extra
from gemtable.bots import make_bot, stand_in
from gemtable.games import GameState
from gemtable.table.errors import TableError
from gemtable.table.people import Person, Status

if TYPE_CHECKING:
    from gemtable.table.table import Table

GRACE = 5.0
"""Seconds a phone may be disconnected before its player stops holding a reveal up."""
TURN_GRACE = 30.0
"""Turn-based games with the turn clock off: seconds a turn waits for a phone that is gone
(or an empty chair) before the default move is played for it."""
BOT_DELAY = 1.0
"""Seconds a bot waits before a turn-based move, and between cards when only bots are
inside a cave, so that people can follow what happens."""
MISSED_TURNS = 2
"""Turn-based games: after this many turns of a seat in a row played for it (silence), while its
phone is gone, a bot plays that seat until its person is back."""
MAX_CHANGES = 10
"""Times one seat may change its secret choice in one decision (then ``too-many-changes``: its choice
stands until the reveal).  A thumb changes its mind a few times; a script toggling twenty times a second
wrote thousands of events a minute (``docs/security.md``, issue 21)."""


class Decisions:
    """What differs between simultaneous and turn-based games at a table (see the module documentation)."""

    chooses_while_paused = False
    """Whether a move may be made while the table is paused (a secret choice waits; a turn cannot)."""
    bot_wait = 0.0
    """Seconds after a decision opens before a bot moves."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def choose(self, seat: int, move: str, now: float) -> None:
        """A legal move of ``seat``, checked by the table."""
        raise NotImplementedError

    def wakeups(self, game: GameState, inside: list[Person]) -> list[float]:
        """When the clock must wake the table for this decision (besides its deadline and the bots'
        first move); ``inside``: the people (not bots) of the seats to act."""
        return []

    def tick(self, game: GameState, now: float) -> None:
        """What the clock does in an open decision once the bots have moved."""
        raise NotImplementedError

    def bots_move(self, game: GameState, now: float) -> None:
        raise NotImplementedError

    def settle(self, now: float) -> None:
        """Reveal if nobody who could still choose is left to choose (simultaneous games)."""

    def silence(self, person: Person, now: float) -> None:
        """Someone leaving mid-decision: what their silence makes of their move, now."""

    def told(self, moves: dict[int, str], event: dict[str, Any]) -> None:
        """The notices of a ``moves`` event, applied before the game plays it."""

    def bot_plays_for(self, person: Person) -> bool:
        """Whether a bot plays this person's seat now."""
        return False

    def _bot_move(self, game: GameState, seat: int, person: Person) -> str:
        """The move the bot in ``person``'s chair makes for ``seat``, with its dice for this decision."""
        table = self.table
        bot = make_bot(table.kind.name, person.bot or "")
        return bot.choose(game.view(seat), game.legal_moves(seat), table.bot_random(seat))

    def _hold(self, now: float, answered: bool) -> bool:
        """At a deadline: hold the decision instead of revealing it by silence when nobody answered
        (``Settings.hold_silent``; once per decision): a pause that asks whether everyone is here, the
        decision's whole clock kept for when it is lifted.  Silent players whose phones are gone are no
        question (nobody is there to answer; a phone that dies never holds the table up)."""
        table = self.table
        if answered or not table.settings.hold_silent or table.play.held == table.moment.decision:
            return False
        table.emit("paused", now, silent=True, remaining=table.settings.seconds)
        return True

    def _offline(self, seats: Iterable[int]) -> list[int]:
        """The seats among ``seats`` whose person's phone is gone (a walk-out or turn made for them is tagged
        so on every screen, not as an ordinary silence)."""
        table = self.table
        gone = []
        for seat in seats:
            person = table.person_at_seat(seat)
            if person is not None and not person.is_bot and person.id not in table.runtime.connected:
                gone.append(seat)
        return sorted(gone)

    def _hold_grace(self) -> float:
        """Seconds a gone phone holds a decision up: :data:`GRACE` under the clock; with the clock off, the
        table's absence grace (a player who needs time may lock their phone and come back; a flat battery still
        holds nobody up for longer than that)."""
        settings = self.table.settings
        return GRACE if settings.turn_clock else settings.absent_grace

    def _overtime_holds(self, undecided: Iterable[int], now: float) -> bool:
        """Whether someone with extra time among the ``undecided`` seats still has time (their own clock has not
        ended) and holds the decision up: their phone is here, or gone for less than the grace (a phone that is
        gone holds nobody up, extra time or not), or every phone is gone (a restart: the clock decides)."""
        table = self.table
        rt = table.runtime
        grace = self._hold_grace()
        anyone = any(p.id in rt.connected for p in table.people.values() if p.seat is not None and not p.is_bot)
        for seat in undecided:
            if seat not in table.play.overtime or extra.time_up(table, seat, now):
                continue
            person = table.person_at_seat(seat)
            if person is None or person.status == Status.GONE or person.is_bot:
                continue
            if person.id in rt.connected or now < rt.since.get(person.id, now) + grace or not anyone:
                return True
        return False

    def _own_wakeups(self, undecided: Iterable[int]) -> list[float]:
        """Once the table's clock ended for the others (``Play.locked``): when the own clocks of the ``undecided``
        seats end, and the graces of their phones that are gone (those not past already)."""
        table = self.table
        play, rt = table.play, table.runtime
        if not play.locked:
            return []
        grace = self._hold_grace()
        times: list[float] = []
        for seat in undecided:
            if seat not in play.overtime:
                continue
            own = play.overtime[seat]
            if own is not None:
                times.append(own)
            person = table.person_at_seat(seat)
            if person is not None and person.id not in rt.connected and person.id in rt.since:
                times.append(rt.since[person.id] + grace)
        return [t for t in times if rt.ticked is None or t > rt.ticked]


class Simultaneous(Decisions):
    """Secret choices, revealed together."""

    chooses_while_paused = True

    def choose(self, seat: int, move: str, now: float) -> None:
        table = self.table
        if table.play.pending.get(seat) != move:
            if seat in table.play.pending and table.play.changes.get(seat, 0) >= MAX_CHANGES:
                raise TableError(
                    "too-many-changes", f"you have changed your mind {MAX_CHANGES} times: your choice stands"
                )
            table.emit("chose", now, seat=seat, move=move)
        self.settle(now)

    def wakeups(self, game: GameState, inside: list[Person]) -> list[float]:
        table = self.table
        times: list[float] = []
        if not inside and game.to_act():  # bots alone: the next card at a pace people can follow
            times.append(table.moment.opened_at + BOT_DELAY)
        elif (call := self._last_call()) is not None:
            times.append(call)
        if table.play.locked:  # (the table's clock ended: only people with extra time may still choose)
            undecided = [seat for seat in game.to_act() if seat not in table.play.pending]
            if (call := self._late_call(undecided)) is not None:
                end = extra.own_clock_end(table)
                times.append(call if end is None else min(call, end))
            times.extend(self._own_wakeups(undecided))
        # A disconnected player stops holding the reveal up when the grace ends; once the clock has been past
        # that, there is nothing more to do for them.
        rt = table.runtime
        grace = self._hold_grace()
        times.extend(
            rt.since[p.id] + grace
            for p in inside
            if p.id not in rt.connected
            and p.id in rt.since
            and p.seat not in table.play.pending
            and (rt.ticked is None or rt.since[p.id] + grace > rt.ticked)
        )
        return times

    def tick(self, game: GameState, now: float) -> None:
        table = self.table
        if table.moment.deadline is not None and now >= table.moment.deadline:
            undecided = [seat for seat in game.to_act() if seat not in table.play.pending]
            if self._overtime_holds(undecided, now):  # someone with extra time is still choosing: wait for them
                table.emit("overtime", now)
                return
            self._time_up(game, now)
            return
        self.settle(now)

    def _time_up(self, game: GameState, now: float) -> None:
        """The clock ended (the table's, and any own clock that held the decision up): the reveal, the silent
        seats timed out (unless nobody answered: the hold, ``Settings.hold_silent``)."""
        table = self.table
        inside = self._inside_people()
        connected = [p for p in inside if p.id in table.runtime.connected]
        answered = not connected or any(p.seat in table.play.pending for p in inside)
        if self._hold(now, answered):
            return
        silent = {seat: game.default_move(seat) for seat in game.to_act() if seat not in table.play.pending}
        self._reveal(silent, now, timed_out=True, offline=self._offline(silent))

    def bots_move(self, game: GameState, now: float) -> None:
        table = self.table
        if not any(p.bot is not None and p.seat is not None for p in table.people.values()):
            return  # (no bot at the table: the usual case, asked after every command)
        at_seat = table.people_at_seats()
        for seat in sorted(game.to_act()):
            person = at_seat.get(seat)
            if person is None or not person.is_bot or seat in table.play.pending:
                continue
            table.emit("chose", now, seat=seat, move=self._bot_move(game, seat, person))

    def settle(self, now: float) -> None:
        """Reveal as soon as nobody who could still choose is left to choose."""
        table = self.table
        game = table.play.game
        if not table.deciding() or game is None:
            return
        undecided = [seat for seat in game.to_act() if seat not in table.play.pending]
        if table.play.locked:
            self._settle_late(game, undecided, now)
            return
        if not undecided:
            if self._bots_only() and now < table.moment.opened_at + BOT_DELAY:
                return  # bots alone in the cave: keep a pace people can follow
            call = self._last_call()
            if call is not None and now < call and (table.moment.deadline is None or now < table.moment.deadline):
                return  # the last call: anyone may still change their mind
            self._reveal({}, now)
            return
        rt = table.runtime
        grace = self._hold_grace()
        for seat in undecided:
            person = table.person_at_seat(seat)
            holding = (
                person is not None
                and (person.is_bot or person.id in rt.connected or now < rt.since.get(person.id, now) + grace)
                and person.status != Status.GONE
            )
            if holding:
                return
        merely_away = [
            seat
            for seat in undecided
            if (person := table.person_at_seat(seat)) is not None and person.status != Status.GONE
        ]
        if merely_away and not any(p.id in rt.connected for p in self._inside_people()):
            return  # every phone is gone (a restart, say): nobody is held up, so the clock decides
        silent = {seat: game.default_move(seat) for seat in undecided}
        self._reveal(silent, now, offline=self._offline(silent))

    def _settle_late(self, game: GameState, undecided: list[int], now: float) -> None:
        """After the table's clock ended for the others (``Play.locked``): reveal once nobody with extra time
        holds the decision up, after the last call of the last of them to choose (which ends with their clocks)."""
        if self._overtime_holds(undecided, now):
            return
        call = self._late_call(undecided)
        end = extra.own_clock_end(self.table)
        if call is not None and now < call and (end is None or now < end):
            return
        self._time_up(game, now)

    def _late_call(self, undecided: list[int]) -> float | None:
        """The last call after the last choice of the people with extra time (once every one of them has chosen,
        after the others' clock ended); None: none."""
        table = self.table
        if table.settings.last_call <= 0 or any(seat in table.play.overtime for seat in undecided):
            return None
        return table.play.last_choice + table.settings.last_call

    def silence(self, person: Person, now: float) -> None:
        """A departing player's silence counts now, not at the deadline: their default move, as a choice."""
        table = self.table
        game, seat = table.play.game, person.seat
        if seat is None or game is None or not table.deciding(paused_too=True) or seat in table.play.pending:
            return
        if seat in game.to_act():
            table.emit("chose", now, seat=seat, move=game.default_move(seat))

    def told(self, moves: dict[int, str], event: dict[str, Any]) -> None:
        table = self.table
        if table.play.timed_out or table.play.offline:
            seats = sorted({*table.play.timed_out, *table.play.offline})
            people = [p for seat in seats if (p := table.person_at_seat(seat)) is not None]
            ids, names = [p.id for p in people], [p.name for p in people]
            table.tell("timed_out", seats=seats, offline=table.play.offline, people=ids, names=names)

    def _reveal(self, silent: dict[int, str], now: float, timed_out: bool = False, offline: Iterable[int] = ()) -> None:
        """The reveal: every pending choice, and ``silent`` (the default moves of the seats that did not choose:
        at the deadline, ``timed_out``; ``offline``: those of them whose phones were gone)."""
        moves = {**self.table.play.pending, **silent}
        tags: dict[str, list[int]] = {"timed_out": sorted(silent)} if timed_out and silent else {}
        if offline:
            tags["offline"] = sorted(offline)
        self.table.emit("moves", now, moves={str(seat): move for seat, move in sorted(moves.items())}, **tags)

    def _last_call(self) -> float | None:
        """When the last call of a decision everyone has answered ends (``Settings.last_call`` after its last
        choice); None: there is none (no call set, bots alone, or someone still to choose)."""
        table = self.table
        game = table.play.game
        if table.settings.last_call <= 0 or game is None or not self._inside_people():
            return None
        if any(seat not in table.play.pending for seat in game.to_act()):
            return None
        return table.play.last_choice + table.settings.last_call

    def _bots_only(self) -> bool:
        game = self.table.play.game
        return game is not None and not self._inside_people() and bool(game.to_act())

    def _inside_people(self) -> list[Person]:
        table = self.table
        game = table.play.game
        if game is None:
            return []
        at_seat = table.people_at_seats()
        return [p for seat in game.to_act() if (p := at_seat.get(seat)) is not None and not p.is_bot]


class Turns(Decisions):
    """One seat at a time; a bot stands in for a person who left, or whose phone stays gone."""

    bot_wait = BOT_DELAY

    def choose(self, seat: int, move: str, now: float) -> None:
        self._play({seat: move}, now)

    def wakeups(self, game: GameState, inside: list[Person]) -> list[float]:
        table = self.table
        times: list[float] = []
        if table.moment.deadline is None and not table.play.locked:
            for seat in game.to_act():
                gone = self._turn_gone_since(seat)
                if gone is not None:
                    times.append(gone + TURN_GRACE)
        times.extend(t for seat in game.to_act() if (t := self._stand_in_at(seat)) is not None)
        times.extend(self._own_wakeups(game.to_act()))
        return times

    def tick(self, game: GameState, now: float) -> None:
        table = self.table
        for seat in game.to_act():
            due = self._stand_in_at(seat)
            if due is not None and now >= due:
                self._play({seat: self._stand_in_move(game, seat)}, now, missed=True, bot=True)
                return
        if table.moment.deadline is None and not table.play.locked:
            for seat in game.to_act():
                gone = self._turn_gone_since(seat)
                if gone is not None and now >= gone + TURN_GRACE:
                    self._play({seat: game.default_move(seat)}, now, missed=True, offline=[seat])
                    return
        ended = table.moment.deadline is not None and now >= table.moment.deadline
        if ended or table.play.locked:  # the table's clock ended (and any own clock that held the turn up)
            silent = {seat: game.default_move(seat) for seat in game.to_act() if seat not in table.play.pending}
            if not silent or self._overtime_holds(silent, now):
                if silent and ended:  # someone with extra time is still choosing: the turn waits for them
                    table.emit("overtime", now)
                return
            if not self._hold(now, self._someone_answers(silent)):
                self._play(silent, now, missed=True, offline=self._offline(silent))

    def bots_move(self, game: GameState, now: float) -> None:
        table = self.table
        if now < table.moment.opened_at + BOT_DELAY:
            return
        for seat in sorted(game.to_act()):
            person = table.person_at_seat(seat)
            if person is None or not person.is_bot or seat in table.play.pending:
                continue
            self._play({seat: self._bot_move(game, seat, person)}, now)
            return

    def told(self, moves: dict[int, str], event: dict[str, Any]) -> None:
        """Count missed turns, and tell when a bot begins (or stops) playing for someone."""
        table = self.table
        missed, bot = set(event.get("missed", ())), bool(event.get("bot"))
        number = table.play.moves_made + 1
        for seat in moves:
            person = table.person_at_seat(seat)
            if person is None:
                continue
            person.missed = person.missed + 1 if seat in missed else 0
            if bot and seat in missed:
                if person.bot_since is None:
                    person.bot_since = number
                    table.play.stand_ins.setdefault(seat, []).append([number, None])
                    table.tell("stand_in", person=person.id, name=person.name, seat=seat)
                continue
            if person.bot_since is not None:
                person.bot_since = None
                table.play.stand_ins[seat][-1][1] = number - 1
                if seat not in missed:
                    table.tell("plays_again", person=person.id, name=person.name, seat=seat)
            if seat in missed:
                offline = True if seat in table.play.offline else None
                table.tell("missed", person=person.id, name=person.name, seat=seat, offline=offline)

    def _someone_answers(self, silent: Iterable[int]) -> bool:
        """Whether someone answers: no, when the seat silent now is a person's whose phone is here, and every
        other person's last turn was played for them by the clock (a phone that is gone holds nobody up)."""
        table = self.table
        people = [p for p in table.people.values() if p.seat is not None and not p.is_bot and p.status != Status.GONE]
        silent_people = [p for p in people if p.seat in set(silent) and p.id in table.runtime.connected]
        if not silent_people:
            return True
        return any(p.missed == 0 for p in people if p not in silent_people)

    def bot_plays_for(self, person: Person) -> bool:
        """They left, or their phone is gone and turns were missed."""
        table = self.table
        if table.play.game is None or person.seat is None or not table.in_game() or person.is_bot:
            return False
        if person.status == Status.GONE:
            return True
        return person.missed >= MISSED_TURNS and person.id not in table.runtime.connected

    def _play(
        self, moves: dict[int, str], now: float, missed: bool = False, offline: Iterable[int] = (), bot: bool = False
    ) -> None:
        """Moves played; ``missed``: played for their seats (silence, or ``bot``: a bot standing in);
        ``offline``: the seats among them whose phones were gone."""
        tags: dict[str, Any] = {"missed": sorted(moves)} if missed else {}
        if offline:
            tags["offline"] = sorted(offline)
        if bot:
            tags["bot"] = True
        self.table.emit("moves", now, moves={str(seat): move for seat, move in moves.items()}, **tags)

    def _stand_in_at(self, seat: int) -> float | None:
        """When a bot plays this seat for its person (they left: at once, at a bot's pace; their phone gone:
        after missed turns); None: it does not."""
        table = self.table
        person = table.person_at_seat(seat)
        if person is None or person.is_bot or not table.deciding(paused_too=True):
            return None
        if person.status == Status.GONE:
            return max(table.moment.opened_at, person.left_at or 0.0) + BOT_DELAY
        if person.missed < MISSED_TURNS:
            return None
        since = table.absent_since(person)
        return None if since is None else max(table.moment.opened_at + BOT_DELAY, since + GRACE)

    def _stand_in_move(self, game: GameState, seat: int) -> str:
        """The move a bot makes for a person whose phone stays gone (the bot the game's manifest names)."""
        bot = stand_in(self.table.kind.name)
        return bot.choose(game.view(seat), game.legal_moves(seat), self.table.bot_random(seat))

    def _turn_gone_since(self, seat: int) -> float | None:
        """Since when the seat to play has had nobody to play it (turn clock off)."""
        table = self.table
        person = table.person_at_seat(seat)
        if person is None or person.status == Status.GONE:
            return table.moment.opened_at
        if person.is_bot or person.id in table.runtime.connected:
            return None
        return max(table.moment.opened_at, table.runtime.since.get(person.id, table.moment.opened_at))


__all__ = ["BOT_DELAY", "GRACE", "MAX_CHANGES", "MISSED_TURNS", "TURN_GRACE", "Decisions", "Simultaneous", "Turns"]
