"""The wire protocol: every message, defined once, as msgspec types.

One WebSocket per phone (or TV).  Every message is a JSON object with a
``type``; a client may send ``v`` (the protocol version, 1).  ``docs/protocol.md``
documents each with an example; ``GET /api/schema`` serves the JSON Schema
generated from these types.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

VERSION = 1
MAX_MESSAGE = 4096
"""Bytes: a longer message from a phone is refused (and a much longer one closes the connection)."""


class _Client(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    v: int = VERSION


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


class Start(_Client, tag="start"):
    """The host starts the game (or a new one after the results)."""


class Leave(_Client, tag="leave"):
    """Leave the table for good: the chair frees for the next in the queue."""


class AddBot(_Client, tag="add_bot"):
    """The host puts a bot in an empty chair."""

    bot: str = ""


class RemoveBot(_Client, tag="remove_bot"):
    """The host takes the bot out of a chair."""

    chair: int = -1


class Remove(_Client, tag="remove"):
    """The host removes someone whose phone is gone (a flat battery): they leave the table.
    Someone connected cannot be removed."""

    person: int = -1


class Ping(_Client, tag="ping"):
    """Keep-alive; answered with pong."""


ClientMessage = Hello | Join | Choose | Start | Leave | AddBot | RemoveBot | Remove | Ping


class _Server(msgspec.Struct, tag_field="type"):
    v: int = VERSION


class Welcome(_Server, tag="welcome"):
    """You are at the table: as a person (``person``) or looking on (``person`` null).

    ``token`` is sent once, to the phone that joined: keep it to come back."""

    code: str = ""
    person: int | None = None
    token: str | None = None


class State(_Server, tag="state"):
    """The table as you may see it; sent after every change."""

    table: dict[str, Any] = msgspec.field(default_factory=dict)


class Error(_Server, tag="error"):
    """Your last message was refused; nothing changed."""

    code: str = ""
    message: str = ""


class Replaced(_Server, tag="replaced"):
    """Your seat was opened on another phone; this connection closes."""

    message: str = ""


class Pong(_Server, tag="pong"):
    pass


ServerMessage = Welcome | State | Error | Replaced | Pong

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
        raise BadMessage("bad-message", f"malformed message: {text[:160]}") from None
    except msgspec.DecodeError:
        raise BadMessage("bad-json", "a message must be valid JSON") from None
    if message.v != VERSION:
        raise BadMessage("bad-version", f"this server speaks protocol version {VERSION}")
    return message


def encode(message: ServerMessage | ClientMessage) -> bytes:
    """A message as the wire carries it: the server's to a phone, or a client's to the server."""
    return _encoder.encode(message)


def decode_server(data: str | bytes) -> ServerMessage:
    """A server message, as a client reads it (``msgspec.DecodeError`` / ``ValidationError`` if it is none)."""
    return _server_decoder.decode(data)


def schema() -> dict[str, Any]:
    """JSON Schema of every client and server message."""
    (client, server), components = msgspec.json.schema_components([ClientMessage, ServerMessage])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "gemtable protocol",
        "version": VERSION,
        "client": client,
        "server": server,
        "$defs": components,
    }


Role = Literal["person", "spectator", "tv"]
