"""The wire protocol: every message, defined once, as msgspec types.

One WebSocket per phone (or TV).  Every message is a JSON object with a
``type``; a client sends ``v`` (the protocol version: 2, or 1 for a page of
before; without it, 1).  ``docs/protocol.md`` documents each with an example;
``GET /api/schema`` serves the JSON Schema generated from these types.

Version 2 (a phone whose ``hello`` or ``join`` says ``"v": 2``) adds :class:`Chosen`:
a secret choice is told to the room as a few bytes ("someone has chosen"), not as a
new state; every table message a phone gets is numbered (``seq``), and a phone that
finds a number missing asks for the whole state again (:class:`Sync`).  A version 1
phone gets a whole :class:`State` after every change that shows it something, as
before.  The server speaks to a connection in the version of its last ``hello``
or ``join`` (1 before any): every message to it says that ``v``.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

import msgspec

Version = Literal[1, 2]
VERSION: Literal[2] = 2
VERSIONS: tuple[Version, ...] = (1, 2)
"""The versions this server speaks: a page loaded before an upgrade (version 1) keeps working."""
MAX_MESSAGE = 4096
"""Bytes: a longer message from a phone is refused (and a much longer one closes the connection)."""


class _Client(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, omit_defaults=True):
    v: Version | None = None
    """The protocol version the client speaks (read from ``hello`` and ``join``); left out, version 1 — the
    version that needs nothing of a client but to take each whole state."""


class Hello(_Client, tag="hello"):
    """Open (or resume) a table: with the seat token a phone kept, or none to look on."""

    code: str = ""
    token: str | None = None
    tv: bool = False


class Join(_Client, tag="join"):
    """Take a chair (or a place in the queue) with a display name."""

    code: str = ""
    name: str = ""


class Choose(_Client, tag="choose"):
    """A move, as the game formats it (one of the ``moves`` a state offers this phone)."""

    move: str = ""
    decision: int | None = None
    """The ``decision`` number of the state this answers; a late answer is refused, not misapplied."""


class Predict(_Client, tag="predict"):
    """A watcher's prediction of the question open to the audience (``me.audience.open``): who walks out
    (seats), whether the next card collapses the cave, who leads after the count; each part optional."""

    key: str = ""
    """The question's ``key``: a prediction for a question locked since is refused (``locked``)."""
    out: list[int] | None = None
    collapse: bool | None = None
    leader: int | None = None


class Start(_Client, tag="start"):
    """The host starts the game (or a new one after the results): a short countdown on every screen, then
    the game.  Sent again while counting down, it changes nothing."""


class CancelStart(_Client, tag="cancel_start"):
    """The host cancels the countdown to a game (or the ready check before it)."""


class Ready(_Client, tag="ready"):
    """A seated player says they are ready for the next game (``ready: false``: no longer).  With the table's
    ``ready_check``, the host's start waits for every seated player's, unless the host starts again (anyway)."""

    ready: bool = True


class Pause(_Client, tag="pause"):
    """The host pauses the game: the clock stops, nothing is revealed, bots wait."""


class Resume(_Client, tag="resume"):
    """The host resumes a paused game: the decision gets back the time it had left (at least 5 s)."""


class End(_Client, tag="end"):
    """The host ends the game now: straight to the results, the scores as they stand."""


class Host(_Client, tag="host"):
    """The host hands the role to someone here (by their person number)."""

    person: int = -1


class ChangeSettings(_Client, tag="settings"):
    """The host changes the settings between games (lobby or results): the preset, the options, the seconds
    a decision (or turn) takes, the pause between rounds, the turn clock, the reveal's beat, whether a decision
    nobody answered holds; or another game at the same table (``game``: same code, same people, the TV still
    paired).  Fields left out stay as they are."""

    game: str | None = None
    preset: str | None = None
    options: dict[str, Any] | None = None
    seconds: float | None = None
    pause: float | None = None
    turn_clock: bool | None = None
    beat: float | None = None
    hold_silent: bool | None = None
    ready_check: bool | None = None


class Leave(_Client, tag="leave"):
    """Leave the table for good: the chair frees for the next in the queue."""


class AddBot(_Client, tag="add_bot"):
    """The host puts a bot in an empty chair."""

    bot: str = ""


class RemoveBot(_Client, tag="remove_bot"):
    """The host takes the bot out of a chair."""

    chair: int = -1


class Remove(_Client, tag="remove"):
    """The host removes someone (connected or not, in the lobby or in a game): they leave the table and
    their phone is told.  With ``ban``, their seat token and new joins from their address stay out of this
    table until the host lifts the ban (``unban``)."""

    person: int = -1
    ban: bool = False


class Unban(_Client, tag="unban"):
    """The host lifts a ban (its ``id`` in the host's ``me.bans``)."""

    ban: int = -1


class ExtraTime(_Client, tag="extra_time"):
    """The host gives someone here (by their person number) more time per decision: ``factor`` 2 or 3 (times the
    table's clock), 0 (no clock for them), or 1 (as everyone again).  It counts from the next decision (or turn)
    and lasts across the table's games until they leave; only they and the host are shown it."""

    person: int = -1
    factor: int = -1


class Ping(_Client, tag="ping"):
    """Keep-alive; answered with pong."""


class Sync(_Client, tag="sync"):
    """Version 2: send me the whole state now (a ``seq`` was missing: a message was lost)."""


ClientMessage = (
    Hello
    | Join
    | Choose
    | Predict
    | Start
    | CancelStart
    | Ready
    | Leave
    | AddBot
    | RemoveBot
    | Remove
    | Unban
    | Pause
    | Resume
    | End
    | Host
    | ExtraTime
    | ChangeSettings
    | Ping
    | Sync
)


class _Server(msgspec.Struct, tag_field="type"):
    v: int = VERSION
    """The version the connection speaks (its last ``hello`` or ``join``; 1 before any): ``Conn.tell``."""


class Welcome(_Server, tag="welcome"):
    """You are at the table: as a person (``person``) or looking on (``person`` null).

    ``token`` is sent once, to the phone that joined: keep it to come back."""

    code: str = ""
    person: int | None = None
    token: str | None = None


class State(_Server, tag="state"):
    """The table as you may see it; sent after every change (version 2: after every change but a
    secret choice, on connecting, and when asked with ``sync``)."""

    seq: int = 0
    """This connection's table messages, numbered from 1: each ``state`` or ``chosen`` is one more."""
    table: dict[str, Any] = msgspec.field(default_factory=dict)


class Chosen(_Server, tag="chosen", omit_defaults=True):
    """Version 2: someone has made their secret choice (or changed it).  ``people``: the people now shown
    as having chosen (``chosen: true``); ``choice``: your own choice, only in the message to the phone that
    made it.  Apply it to the state of number ``seq - 1``; nothing else in the state changes."""

    seq: int = 0
    people: list[int] = msgspec.field(default_factory=list)
    choice: str | None = None


class Error(_Server, tag="error"):
    """Your last message was refused; nothing changed."""

    code: str = ""
    message: str = ""


class Replaced(_Server, tag="replaced"):
    """Your seat was opened on another phone; this connection closes."""

    message: str = ""


class Removed(_Server, tag="removed"):
    """The host removed you from the table (``by``: their name).  You look on from now, or, ``ban``ned,
    this connection closes and the table will not take you back until the host lifts the ban."""

    ban: bool = False
    by: str = ""
    message: str = ""


class Pong(_Server, tag="pong"):
    pass


ServerMessage = Welcome | State | Chosen | Error | Replaced | Removed | Pong

_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class BadMessage(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def decode(data: str | bytes) -> ClientMessage:
    """A client message, or :class:`BadMessage` saying clearly what is wrong."""
    if len(data) > MAX_MESSAGE:
        raise BadMessage("too-large", f"a message has at most {MAX_MESSAGE} bytes")
    try:
        message = _decoder.decode(data)
    except msgspec.ValidationError as exc:
        text = str(exc)
        if "Expected `object`" in text or "missing required field `type`" in text:
            raise BadMessage("bad-message", "a message is a JSON object with a 'type'") from None
        if "Invalid value" in text and "`$.type`" in text:
            raise BadMessage("unknown-type", "unknown message type") from None
        if "`$.v`" in text:
            raise BadMessage(
                "bad-version", f"this server speaks protocol versions {VERSIONS[0]} to {VERSION}"
            ) from None
        raise BadMessage("bad-message", f"malformed message: {text[:160]}") from None
    except msgspec.DecodeError:
        raise BadMessage("bad-json", "a message must be valid JSON") from None
    return message


def version_of(message: Hello | Join) -> Version:
    """The version a ``hello`` or ``join`` speaks: its ``v``, or 1 without one."""
    return message.v or 1


def state_frame(seq: int, table: bytes, version: int = VERSION) -> bytes:
    """A :class:`State` message around a table view already encoded (``table_view`` as JSON): the view is
    built and encoded once per change and seat, the frame once per phone (in the version it speaks)."""
    return b'{"type":"state","v":%d,"seq":%d,"table":%s}' % (version, seq, table)


def chosen_frame(seq: int, people: bytes, choice: str | None = None) -> bytes:
    """A :class:`Chosen` message; ``people`` is the JSON list already encoded (the same for the whole room)."""
    if choice is None:
        return b'{"type":"chosen","v":%d,"seq":%d,"people":%s}' % (VERSION, seq, people)
    return b'{"type":"chosen","v":%d,"seq":%d,"people":%s,"choice":%s}' % (
        VERSION,
        seq,
        people,
        _encoder.encode(choice),
    )


def encode(message: ServerMessage | ClientMessage) -> bytes:
    """A message as the wire carries it: the server's to a phone, or a client's to the server."""
    return _encoder.encode(message)


def encode_for(message: ServerMessage, version: int) -> bytes:
    """A server's message to a connection that speaks ``version``."""
    message.v = version
    return _encoder.encode(message)


def decode_server(data: str | bytes) -> ServerMessage:
    """A server message, as a client reads it (``msgspec.DecodeError`` / ``ValidationError`` if it is none)."""
    return _server_decoder.decode(data)


@functools.cache
def schema() -> dict[str, Any]:
    """JSON Schema of every client and server message (built once: about 11 ms; ``GET /api/schema`` serves it)."""
    (client, server), components = msgspec.json.schema_components([ClientMessage, ServerMessage])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "gemtable protocol",
        "version": VERSION,
        "client": client,
        "server": server,
        "$defs": components,
    }
