"""The phones connected to this server process, by table: who is at which table here, and who looks on.

The node (``node.py``) runs or follows tables and knows nothing of phones; the hub keeps a :class:`Room`
per table that has phones on this node, and the node asks it (``present``) only which of a table's
people are connected here, when it takes a table over.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gemtable.server.conn import Conn


@dataclass
class Room:
    """This node's phones at one table: seated people by person id, and onlookers (spectators, TVs)."""

    people: dict[int, Conn] = field(default_factory=dict)
    onlookers: set[Conn] = field(default_factory=set)
    news_seen: object = None
    """The table's newest notice when its phones were last checked for people who left (``Hub._tell_removed``):
    everyone who leaves is told of in a notice, so while it is the newest, nobody has left since."""

    def conns(self) -> list[Conn]:
        return [*self.people.values(), *self.onlookers]

    def empty(self) -> bool:
        return not self.people and not self.onlookers


class Rooms:
    """Every room of this node, by table code; a room goes when its last phone does."""

    def __init__(self) -> None:
        self.by_code: dict[str, Room] = {}

    def get(self, code: str) -> Room | None:
        return self.by_code.get(code)

    def enter(self, code: str) -> Room:
        return self.by_code.setdefault(code, Room())

    def tidy(self, code: str) -> None:
        room = self.by_code.get(code)
        if room is not None and room.empty():
            del self.by_code[code]

    def people(self, code: str) -> list[int]:
        """The people of table ``code`` whose phones are connected here."""
        room = self.by_code.get(code)
        return list(room.people) if room is not None else []

    def all(self) -> list[Room]:
        return list(self.by_code.values())


__all__ = ["Room", "Rooms"]
