"""The night's standings: the places of each finished game at a table, and a leaderboard across them.

A table keeps a night across games, whatever game is played (the host may switch between them at the same
table): this module reads the finished games' records, oldest first, and says who stands where.  It is pure (no
I/O): the server reads the records from its store (``GET /api/tables/CODE/games``), so the standings outlive a
restart, a crash and a ``kill -9`` as the records do.

The rules (``docs/protocol.md``, "The night's standings"):

* **A game's places.** The winners share first place; everyone else is placed by score, a tie sharing the
  place (1, 1, 3).  A game the host ended early counts with the scores as they stood when it ended.
* **Points.** A player earns a point for each player placed below them in a game, and one more for a win:
  the winner of a game of six earns 6, the last 0; the two winners of a game of three, 2 each.
* **The leaderboard.** By points, then wins, then fewer games played (the same points in fewer games), then
  name; people equal on the first three share a place.
* **Who is who.** A person is their name at the table, compared without case or width (``Ann`` and ``ann``
  are one person, as the table lets no two people hold such names at once); bots are listed apart from people
  of the same name.  The name shown is the one last played under.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Place:
    """One seat of one finished game."""

    seat: int
    name: str
    bot: bool
    score: int
    won: bool
    place: int
    points: int


@dataclass(slots=True)
class Standing:
    """One person (or bot) over the night."""

    name: str
    bot: bool
    points: int = 0
    wins: int = 0
    games: int = 0
    place: int = 0
    places: list[tuple[int, int]] = field(default_factory=list)
    """``(game number, place)`` for each game they played, in order."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bot": self.bot,
            "place": self.place,
            "points": self.points,
            "wins": self.wins,
            "games": self.games,
            "places": [list(pair) for pair in self.places],
        }


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def places(record: Mapping[str, Any]) -> list[Place]:
    """The places of one finished game's ``record``: each named seat with its score, best first."""
    raw = record.get("scores")
    scores = [s if (s := _whole(v)) is not None else 0 for v in raw] if isinstance(raw, list) else []
    names = record.get("names") if isinstance(record.get("names"), dict) else {}
    bots = record.get("bots") if isinstance(record.get("bots"), dict) else {}
    raw_winners = record.get("winners")
    winners = {w for v in raw_winners if (w := _whole(v)) is not None} if isinstance(raw_winners, list) else set()
    assert isinstance(names, dict) and isinstance(bots, dict)
    seats = [seat for seat in range(len(scores)) if isinstance(names.get(str(seat)), str) and names[str(seat)].strip()]
    rank = {seat: (seat in winners, scores[seat]) for seat in seats}
    out = []
    for seat in sorted(seats, key=lambda s: (not rank[s][0], -rank[s][1], s)):
        above = sum(1 for other in seats if rank[other] > rank[seat])
        below = sum(1 for other in seats if rank[other] < rank[seat])
        won = seat in winners
        name = str(names[str(seat)])
        out.append(Place(seat, name, bool(bots.get(str(seat))), scores[seat], won, 1 + above, below + int(won)))
    return out


def who(name: str, bot: bool) -> tuple[str, bool]:
    """The key a person is known by across the night's games: their name without case or width, and whether
    they are a bot."""
    return unicodedata.normalize("NFKC", name).casefold().strip(), bot


def standings(records: Iterable[Mapping[str, Any]]) -> list[Standing]:
    """The night's leaderboard from its finished games' ``records``, in the order they were played."""
    table: dict[tuple[str, bool], Standing] = {}
    for record in records:
        number = _whole(record.get("number")) or 0
        for row in places(record):
            entry = table.setdefault(who(row.name, row.bot), Standing(row.name, row.bot))
            entry.name = row.name
            entry.points += row.points
            entry.wins += int(row.won)
            entry.games += 1
            entry.places.append((number, row.place))

    def order(s: Standing) -> tuple[int, int, int]:
        return (-s.points, -s.wins, s.games)

    board = sorted(table.values(), key=lambda s: (*order(s), s.name.casefold(), s.bot))
    for entry in board:
        entry.place = 1 + sum(1 for other in board if order(other) < order(entry))
    return board


__all__ = ["Place", "Standing", "places", "standings", "who"]
