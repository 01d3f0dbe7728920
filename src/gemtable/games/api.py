"""The one small API every game speaks.

The table, the bots, the simulator, storage and the client only ever use what is
defined here, so none of them branches on a game's name.  A game is a class
registered by name (see ``gemtable.games``); its state is a mutable object with
a handful of methods, in the spirit of OpenSpiel's games:

* ``needs_roster()`` / ``start_round(seats)`` — between rounds (caves, or the
  start of a game) the table says which seats take part in the next one.
  Late arrivals and players who come back enter here; away players are left out.
* ``to_act()`` — the seats that must decide now.  Whether they decide at the same
  time in secret or one after another is declared once, by the game's manifest
  (``dynamics``, see :mod:`gemtable.games.manifest`), which the table reads; the
  conformance suite checks that the rules behave as declared (a game of turns never
  asks two seats at once).
* ``legal_moves(seat)``, ``apply(seat, move)`` — moves are short strings, parsed
  and formatted by the game (like a chess move in UCI), so records, the wire and
  storage never need to know their shape.  An illegal move raises
  :class:`IllegalMove` and leaves the state untouched.
* ``apply_joint({seat: move})`` — the moves of every seat asked to act, at once:
  a simultaneous game's reveal in one call (OpenSpiel's joint action).
* ``default_move(seat)`` — what silence means when a deadline passes.
* ``is_over()``, ``scores()``, ``winners()``.
* ``end()`` — the host ends the game early: it is over at once, with the scores as
  they stand (the record then holds an ``["end"]`` input, so it still replays).
* ``view(seat)`` — everything that seat may know, and nothing else;
  ``view(None)`` is a spectator's.  Secrets are hidden here and nowhere else.
  A view is *live*: a window onto the state, not a copy.  A view taken before a move
  and read after it says what a view taken after the move says (the simulator and the
  benchmarks take each seat's view once per game and let its bot read it at every
  decision; the conformance suite checks every game keeps this).
* ``record()`` — rules, seats, seed and every input, from which
  :func:`replay` rebuilds the same game.

Optional (:class:`Beats`): a game whose reveal leads straight into something new (the
expedition turns its next card) may stop in between when the table asks it to
(``hold_reveals()``), so that every screen shows the reveal on its own for the
table's beat; ``held()`` says it is stopped there, ``go_on()`` goes on.  A hold
takes no input: the record, the replay and the simulator (which never asks for
holds) are the same with or without it.

Optional (:class:`Forecasts`): what an audience (the people watching, ``table/audience.py``) may predict now,
and what became known of an earlier question.  ``forecast()`` names the open question (``key``, unique in the
game, and what it asks: ``out``, the seats that may be named as walking out, with ``collapse``: whether the
next card collapses the cave; or ``leader``, the seats that may be named as leading after the count, with
``once``: a single call, never changed); ``forecast_told(key)`` what is known of it since (``out``: who walked
out; ``collapse``: true, false, or None when no card followed; ``leader``: the winners).  Both read public
facts only: nothing of a card not yet turned.

Optional: ``views_split(seats)`` — several seats' ``view(seat).to_json()`` at once (the server's broadcast after
a change asks for every seat at the table), as ``(shared, own)``: what every asked seat sees alike, built once,
and ``own[seat]``, the keys of each seat's own that come after it (none of them a key of ``shared``), so that
``{**shared, **own[seat]}`` equals its seat's ``to_json()``, keys in the same order.  The server encodes
``shared`` once and splices each seat's own after it; objects may be shared between the values (they are only
encoded).  A game without it is asked seat by seat.  The expedition has one (issue 25: a tenth of a reveal's CPU).

Rules are pure: no clock, no I/O, standard library only.  Randomness is a seeded
``random.Random`` inside the state.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeAlias, cast, runtime_checkable

JSON: TypeAlias = Any
"""A value made of dicts, lists, strings, numbers, booleans and None."""

Move: TypeAlias = str


class GameError(ValueError):
    """Base of every error a game raises on bad input."""


class IllegalMove(GameError):
    """A move that the rules do not allow now; the state is left untouched."""


class UnknownSeat(IllegalMove):
    """A seat number that is not at this game."""


class NotYourTurn(IllegalMove):
    """A seat that is not asked to act now."""


class BadRules(GameError):
    """Rules or options that do not describe a playable game."""


class BadRecord(GameError):
    """A game record that cannot be replayed."""


MAX_SEATS = 64
"""More seats than any game has: a record naming more is not one of ours."""


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@runtime_checkable
class SeatView(Protocol):
    """What one seat (or a spectator, seat None) may see of a game."""

    seat: int | None

    def to_json(self) -> JSON: ...

    def snapshot(self) -> SeatView:
        """A copy of this view detached from the state, with the same API, built from what the seat may know
        and nothing else: what a user bot in a process of its own is sent (``gemtable.lab.userbot``)."""
        ...


class GameState(Protocol):
    """The state of one game.  See the module documentation."""

    game: ClassVar[str]

    @property
    def seats(self) -> int: ...

    def needs_roster(self) -> bool: ...

    def start_round(self, seats: Collection[int]) -> None: ...

    def to_act(self) -> frozenset[int]: ...

    def legal_moves(self, seat: int) -> Sequence[Move]: ...

    def apply(self, seat: int, move: Move) -> None: ...

    def apply_joint(self, moves: dict[int, Move]) -> None:
        """A move for every seat in ``to_act()`` at once (one seat in a turn-based game)."""
        ...

    def default_move(self, seat: int) -> Move: ...

    def is_over(self) -> bool: ...

    def end(self) -> None:
        """End the game now (the host ended it early): over at once, scores as they stand, choices
        not yet revealed dropped; recorded as an ``["end"]`` input."""
        ...

    def scores(self) -> list[int]: ...

    def winners(self) -> list[int]: ...

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see (None: a spectator), live: it follows the state as moves are applied."""
        ...

    def record(self) -> GameRecord: ...


@runtime_checkable
class Beats(Protocol):
    """A game state that can hold each reveal until the table's beat is over (see the module documentation)."""

    def hold_reveals(self) -> None:
        """From now on, stop after every reveal that something new follows, until ``go_on()``."""
        ...

    def held(self) -> bool:
        """Whether a reveal is being held: nobody is asked to act until ``go_on()``."""
        ...

    def go_on(self) -> None:
        """The beat is over: what follows the held reveal happens now (:class:`IllegalMove` if none is held)."""
        ...


@runtime_checkable
class Forecasts(Protocol):
    """A game state an audience can predict (see the module documentation)."""

    def forecast(self) -> JSON | None:
        """The question open now (``key`` and what it asks), or None: nothing to predict."""
        ...

    def forecast_told(self, key: str) -> JSON | None:
        """What is known now of the question ``key`` (partial until all of it is), or None: nothing yet."""
        ...


def forecasts(state: object) -> Forecasts | None:
    """``state`` as a :class:`Forecasts` if its class is one, else None (asked once per class, as ``beats``)."""
    kind = type(state)
    known = _FORECASTS.get(kind)
    if known is None:
        known = _FORECASTS[kind] = issubclass(kind, Forecasts)
    return cast(Forecasts, state) if known else None


_FORECASTS: dict[type, bool] = {}


_HOLDS: dict[type, bool] = {}
"""Per class of game state, whether it is a :class:`Beats`."""


def beats(state: object) -> Beats | None:
    """``state`` as a :class:`Beats` if its class is one, else None.  (A runtime Protocol's ``isinstance``
    looks its methods up at every call, about 1 % of a reveal at 8 phones; this asks once per class.)"""
    kind = type(state)
    holds = _HOLDS.get(kind)
    if holds is None:
        holds = _HOLDS[kind] = issubclass(kind, Beats)
    return cast(Beats, state) if holds else None


class Game(Protocol):
    """A kind of game: a name, its seats and how to start one.  Its presets and options are its manifest's
    (:mod:`gemtable.games.manifest`); ``rules_json`` says what each means."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    """Chairs at a table of this game: players at one time."""
    seats_per_game: ClassVar[int]
    """Seats of one game.  Equal to ``max_seats`` when a seat belongs to its chair
    (a newcomer in that chair plays on with it); larger when a seat belongs to a
    player (a newcomer in a freed chair gets a fresh seat)."""

    @classmethod
    def rules_json(cls, preset: str, options: Mapping[str, JSON]) -> JSON:
        """Validate a host's choice of preset and options; return the full rules as JSON."""
        ...

    @classmethod
    def new(cls, rules: JSON, seats: int, seed: int, script: JSON | None = None) -> GameState:
        """A new game.  ``script`` fixes the random parts (a deck, a bag) for tests."""
        ...


Decision: TypeAlias = tuple[int, ...]
"""What identifies one decision of a game (the expedition's: cave, cards on the path)."""


class Probes(Protocol):
    """What the load, soak and fuzz tools need of a game beyond its API: a module of the game's folder, named by
    its manifest (``probes``).  Each function reads a seat's view as the wire carries it (``view(seat).to_json()``,
    the ``state`` of a table's view), so a bot phone can use it, and the game's state only for ``invariants``.
    The conformance suite holds every game's probes to what is written here.

    A probes module may also name, in ``NODE_MOVE``, a JavaScript module beside it whose ``honestMove(view,
    moves, random, eager)`` makes the same choice: ``gemtable bench server --generator node`` plays the game's
    phones with it (optional: a game without one is played by the Python generator only)."""

    def honest_move(self, view: JSON, moves: Sequence[Move], rng: random.Random, eager: bool) -> Move:
        """One of ``moves``, as a person at this view might choose (``eager``: the one that keeps the game going
        longest, as a load that wants the most decisions plays)."""
        ...

    def decision(self, view: JSON) -> Decision:
        """The decision open in ``view``: the same in every seat's view and a spectator's while it is open (a
        simultaneous choice stays one decision until its reveal), different for every decision of one game."""
        ...

    def taken(self, view: JSON, seat: int) -> Move | None:
        """The move ``seat`` made at the decision just before the one ``view`` shows, as far as the view shows it
        (None when it does not)."""
        ...

    def view_problems(self, view: JSON, seat: int | None, over: bool) -> list[str]:
        """What is wrong with a view of the game sent to ``seat`` (None: a spectator) by the game's own rules of
        sense and secrecy (``over``: the game has ended); empty when nothing is."""
        ...

    def invariants(self, state: GameState) -> tuple[list[str], int]:
        """What breaks the game's invariants in ``state`` (a game replayed from its record), and how many of the
        game's units (gems, tiles) appeared or vanished."""
        ...


@dataclass
class GameRecord:
    """Everything needed to replay a game: rules, seats, seed and inputs in order.

    ``inputs`` holds ``["round", [seats...]]`` for every roster and
    ``[seat, move]`` for every move, in the order they were applied, and a
    last ``["end"]`` when the game was ended early (``["end", "held"]``: during a held reveal, before what follows
    it; ``replay`` holds the reveal before it).
    """

    game: str
    rules: JSON
    seats: int
    seed: int
    script: JSON | None = None
    inputs: list[JSON] = field(default_factory=list)
    scores: list[int] | None = None
    winners: list[int] | None = None

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "rules": self.rules,
            "seats": self.seats,
            "seed": self.seed,
            "script": self.script,
            "inputs": self.inputs,
            "scores": self.scores,
            "winners": self.winners,
        }

    @classmethod
    def from_json(cls, data: JSON) -> GameRecord:
        """A record read from anywhere (a file, the store): every field checked for its type, so that what
        cannot be replayed is a :class:`BadRecord` with a one-line reason, never another exception."""
        if not isinstance(data, dict):
            raise BadRecord("a game record is a JSON object")
        missing = [key for key in ("game", "rules", "seats", "seed") if key not in data]
        if missing:
            raise BadRecord(f"not a game record: it has no {', '.join(missing)}")
        game, seats, seed, inputs = data["game"], data["seats"], data["seed"], data.get("inputs", [])
        scores, winners = data.get("scores"), data.get("winners")
        if not isinstance(game, str):
            raise BadRecord("not a game record: game must be a name")
        if not _whole(seats) or not 1 <= seats <= MAX_SEATS:
            raise BadRecord(f"not a game record: seats must be a whole number from 1 to {MAX_SEATS}")
        if not _whole(seed) or not 0 <= seed < 2**64:
            raise BadRecord("not a game record: seed must be a whole number from 0 to 2**64 - 1")
        if not isinstance(inputs, list):
            raise BadRecord("not a game record: inputs must be a list")
        for name, value in (("scores", scores), ("winners", winners)):
            if value is not None and not (isinstance(value, list) and all(_whole(v) for v in value)):
                raise BadRecord(f"not a game record: {name} must be a list of whole numbers")
        return cls(game, data["rules"], seats, seed, data.get("script"), list(inputs), scores, winners)
