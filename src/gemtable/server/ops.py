"""Commands for a table, typed from the wire to the table, so that a node can run one for a phone
connected to another node.

The hub turns a phone's message (``protocol.py``) into one of these; the node runs it where the table
runs — here, or on the owner, carried over the bus as JSON with an ``op`` tag (``to_json`` / ``from_json``)
— and ``perform`` turns it into the one call on the table it names (which checks who, whether they may,
and whether it is legal), returning what the phone needs back.
"""

from __future__ import annotations

from typing import Any

import msgspec

from gemtable.table import Table, TableError


class Command(msgspec.Struct, tag_field="op", forbid_unknown_fields=True):
    """A command for a table."""


class Noop(Command, tag="noop"):
    """Nothing but letting the clock catch up."""


class Join(Command, tag="join"):
    name: str
    token: str
    """The SHA-256 of the seat token (the token itself never leaves the phone's hub)."""
    origin: str = ""
    """Where the phone joins from: a hash of its address key, salted per table (``hub.py``); empty when the
    server does not count it (a reverse proxy on this host)."""
    per_address: int = 0
    """How many people one origin may bring to the table (0: no cap)."""


class Connect(Command, tag="connect"):
    person: int


class Disconnect(Command, tag="disconnect"):
    person: int


class Choose(Command, tag="choose"):
    person: int
    move: str
    decision: int | None = None


class Predict(Command, tag="predict"):
    person: int
    key: str
    out: list[int] | None = None
    collapse: bool | None = None
    leader: int | None = None


class Start(Command, tag="start"):
    person: int
    seed: int


class Leave(Command, tag="leave"):
    person: int


class Ready(Command, tag="ready"):
    person: int
    ready: bool


class AddBot(Command, tag="add_bot"):
    person: int
    bot: str


class RemoveBot(Command, tag="remove_bot"):
    person: int
    chair: int


class Remove(Command, tag="remove"):
    """The host sends someone away (and, with ``ban``, keeps them away)."""

    person: int
    target: int
    ban: bool = False


class Unban(Command, tag="unban"):
    person: int
    ban: int


class CancelStart(Command, tag="cancel_start"):
    person: int


class Pause(Command, tag="pause"):
    person: int


class Resume(Command, tag="resume"):
    person: int


class End(Command, tag="end"):
    person: int


class HandHost(Command, tag="host"):
    person: int
    target: int


class ExtraTime(Command, tag="extra_time"):
    """The host gives ``target`` more time per decision (``factor``: 2, 3, 0 for no clock, 1 as everyone)."""

    person: int
    target: int
    factor: int


class ChangeSettings(Command, tag="settings"):
    person: int
    changes: dict[str, Any]


AnyCommand = (
    Noop
    | Join
    | Connect
    | Disconnect
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
    | HandHost
    | ExtraTime
    | ChangeSettings
)


def to_json(command: Command) -> dict[str, object]:
    """The command as a JSON object, ``op`` naming it (how it travels in a bus message)."""
    data: dict[str, object] = msgspec.to_builtins(command)
    return data


def from_json(data: object) -> AnyCommand:
    """A command as another node sent it; ``TableError("bad-message")`` if it is none."""
    try:
        command: AnyCommand = msgspec.convert(data, AnyCommand)
    except msgspec.MsgspecError as exc:
        raise TableError("bad-message", f"not a command: {exc}") from None
    return command


def perform(table: Table, command: Command, now: float) -> int | None:
    """Carry ``command`` out on ``table``: the person's id for a join, else None."""
    match command:
        case Noop():
            pass
        case Join(name=name, token=token, origin=origin, per_address=per_address):
            person = table.join(name, token, now, origin, per_address)
            table.connect(person.id, now)
            return person.id
        case Connect(person=pid):
            table.connect(pid, now)
        case Disconnect(person=pid):
            table.disconnect(pid, now)
        case Choose(person=pid, move=move, decision=decision):
            table.choose(pid, move, now, decision)
        case Predict(person=pid, key=key, out=out, collapse=collapse, leader=leader):
            table.predict(pid, key, now, out=out, collapse=collapse, leader=leader)
        case Start(person=pid, seed=seed):
            table.start(pid, seed, now)
        case Leave(person=pid):
            table.leave(pid, now)
        case Ready(person=pid, ready=is_ready):
            table.ready(pid, is_ready, now)
        case AddBot(person=pid, bot=bot):
            table.add_bot(pid, bot, now)
        case RemoveBot(person=pid, chair=chair):
            table.remove_bot(pid, chair, now)
        case Remove(person=pid, target=target, ban=ban):
            table.remove(pid, target, now, ban)
        case Unban(person=pid, ban=ban):
            table.unban(pid, ban, now)
        case CancelStart(person=pid):
            table.cancel_start(pid, now)
        case Pause(person=pid):
            table.pause(pid, now)
        case Resume(person=pid):
            table.resume(pid, now)
        case End(person=pid):
            table.end(pid, now)
        case HandHost(person=pid, target=target):
            table.hand_host(pid, target, now)
        case ExtraTime(person=pid, target=target, factor=factor):
            table.extra_time(pid, target, factor, now)
        case ChangeSettings(person=pid, changes=changes):
            table.change_settings(pid, changes, now)
        case _:
            raise TableError("bad-message", "unknown command")
    return None


__all__ = [
    "AddBot",
    "AnyCommand",
    "CancelStart",
    "ChangeSettings",
    "Choose",
    "Command",
    "Connect",
    "Disconnect",
    "End",
    "ExtraTime",
    "HandHost",
    "Join",
    "Leave",
    "Noop",
    "Pause",
    "Predict",
    "Ready",
    "Remove",
    "RemoveBot",
    "Resume",
    "Start",
    "Unban",
    "from_json",
    "perform",
    "to_json",
]
