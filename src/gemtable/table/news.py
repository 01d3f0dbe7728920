"""What happened at a table, told to everyone: notices.

Nobody is left in the dark: who left (by themselves, removed or banned by the host), which seat a bot
plays for someone and from which move, who the clock (or an absent phone) moved for, a bot that gave its
chair to a waiting person, a pause, a countdown, a game ended early.  Each notice is a small public JSON
object built by the table *from its events* (in the handlers of ``Table.apply``), so a table rebuilt from
its log tells the same story, and nothing in a notice is secret: no choice before it is revealed, no
token, no address.

A notice has an ``id`` (the number of the event that made it: increasing, unique at the table), a
``kind``, and what the screens need to say it: names (as they were then), ``person`` / ``seat`` /
``people`` (ids, so that a phone can tell which notices are about itself), ``game``, ``round`` (the
expedition's cave) and ``move`` (the number of the move being played in this game, from 1).

Kinds: ``left`` (``reason``: ``left``, ``removed`` or ``banned``; ``by``), ``gave_chair`` (a bot to
``to``), ``lost_chair`` (an absent player's chair to ``to``), ``host`` (``reason``: ``handed``, ``left``,
``absent``, ``back``), ``paused``, ``resumed``, ``countdown``, ``cancelled`` (``reason``: ``host`` or
``too-few``), ``ended``, ``settings``, ``unbanned``, ``away``, ``stand_in`` (a bot plays ``seat`` for
``person`` from ``move``), ``plays_again`` (they play it themselves again), ``took_seat`` (someone sat in a
chair mid-game and plays its seat on, ``was`` the one before), ``timed_out`` (a reveal: ``seats`` the
clock chose for, ``offline`` the ones whose phones were gone) and ``missed`` (a turn played for a silent
seat, ``offline`` or not).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

Notice = dict[str, Any]

RECENT = 8
"""Notices every view carries (the newest): a state stays small whatever happened."""
MINE = 6
"""Notices about the viewer a phone's view carries (``me.news``): what a phone that comes back was not told."""
GAME_KEPT = 300
"""Notices of one game kept for its record (the newest, should a marathon game tell more)."""


class News:
    """The table's notices: the recent ones (for the views) and the current game's (for its record)."""

    def __init__(self) -> None:
        self.recent: deque[Notice] = deque(maxlen=max(RECENT, 24))
        self.game: deque[Notice] = deque(maxlen=GAME_KEPT)

    def add(self, notice: Notice, in_game: bool) -> None:
        self.recent.append(notice)
        if in_game:
            self.game.append(notice)

    def new_game(self) -> None:
        self.game.clear()

    def shown(self) -> list[Notice]:
        """The newest :data:`RECENT`, oldest first."""
        items = list(self.recent)
        return items[-RECENT:]

    def about(self, pid: int) -> list[Notice]:
        """The newest :data:`MINE` notices about person ``pid`` (this game's, and the lobby's since)."""
        return self.about_each((pid,))[pid]

    def about_each(self, pids: Iterable[int]) -> dict[int, list[Notice]]:
        """:meth:`about` for each of ``pids``, in one pass over the notices (a broadcast asks for every
        phone at the table).  A notice is in both lists while it is recent: it counts once."""
        wanted = set(pids)
        found: dict[int, dict[int, Notice]] = {pid: {} for pid in wanted}
        for notice in (*self.recent, *self.game):
            for pid in _subjects(notice):
                if pid in wanted:
                    found[pid].setdefault(id(notice), notice)
        return {pid: sorted(mine.values(), key=_number)[-MINE:] for pid, mine in found.items()}


def _number(notice: Notice) -> int:
    return int(notice["id"])


def about(notice: Notice, pid: int) -> bool:
    """Whether a notice is about person ``pid`` (they are its subject, or one of its people)."""
    return pid in _subjects(notice)


def _subjects(notice: Notice) -> tuple[Any, ...]:
    """Whom a notice is about: its ``person``, its ``to_person`` and its ``people`` (None where it has none)."""
    return (notice.get("person"), notice.get("to_person"), *notice.get("people", ()))


__all__ = ["GAME_KEPT", "MINE", "RECENT", "News", "Notice", "about"]
