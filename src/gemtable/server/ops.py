"""Commands as plain data, so that a node can run one for a phone connected to another node.

An op is a JSON object: ``{"op": "choose", "person": 2, "move": "camp", "decision": 7}``.
``perform`` turns it into a call on the table (which checks who, whether they
may, and whether it is legal) and returns what the phone needs back.
"""

from __future__ import annotations

from typing import Any

from gemtable.table import Table, TableError

Op = dict[str, Any]


def perform(table: Table, op: Op, now: float) -> Any:
    kind = op.get("op")
    if kind == "noop":
        return None
    if kind == "join":
        person = table.join(op["name"], op["token"], now)
        table.connect(person.id, now)
        return person.id
    pid = op.get("person")
    if not isinstance(pid, int):
        raise TableError("spectator", "you are looking on: join the table to play")
    if kind == "connect":
        table.connect(pid, now)
    elif kind == "disconnect":
        table.disconnect(pid, now)
    elif kind == "choose":
        table.choose(pid, op["move"], now, op.get("decision"))
    elif kind == "start":
        table.start(pid, int(op["seed"]), now)
    elif kind == "leave":
        table.leave(pid, now)
    elif kind == "add_bot":
        table.add_bot(pid, op["bot"], now)
    elif kind == "remove_bot":
        table.remove_bot(pid, op["chair"], now)
    elif kind == "remove":
        table.remove(pid, op["target"], now)
    else:
        raise TableError("bad-message", "unknown command")
    return None
