"""Per-person extra time: the clocks of the people the host gave more time per decision.

The host gives a person (not a bot) a factor (the ``extra_time`` command, ``moderation.py``; an ``extra_time``
event): 2 or 3 (times the table's clock), 0 (no clock for them), or 1 (as everyone, the default).  A person keeps
it across the table's games; leaving drops it.  A change counts from the next decision (or turn): the one open
keeps the clocks it opened with.

When a decision opens with the table's clock on, each seat to act whose person has a factor gets its own deadline
(``Play.overtime``): the opening plus factor × the clock, or none.  The table's deadline stays everyone else's.
When it passes while someone with time left is still choosing (their phone here, or gone for less than the grace),
the table logs an ``overtime`` event instead of revealing: the others' silence is locked (they may no longer
choose or change; their default move comes at the reveal, as a silence timed out), the table's deadline goes, and
the reveal waits for the people with extra time to choose, or for their own deadlines.  Nothing else changes:
what anyone chose stays secret until the reveal, which shows every choice together as ever; the last call follows
the last choice (and ends with the chooser's own clock); a hold because nobody answered (``hold_silent``) is only
considered at the reveal, and gives everyone their whole clock (and the people with extra time theirs) again; a
pause keeps everyone's time left; a phone that is gone holds nobody up, extra time or not.  A turn-based game
(Booty Hunter) works the same way, one seat at a time.

Everything here is computed from the events' times, so a table rebuilt from its log has the same clocks.  What
the others see: the table's clock runs out as usual, and the table then waits for whoever is still choosing; the
factor is in no view but the person's own (``me.more_time``) and the host's (``me.extra_time``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gemtable.table.people import Status
from gemtable.table.phases import PLAYING

if TYPE_CHECKING:
    from gemtable.table.table import Table

Event = dict[str, Any]

FACTORS = (1, 2, 3, 0)
"""The factors a host may give: as everyone, twice or three times the clock, or no clock (0)."""


def open_clocks(self: Table, at: float) -> None:
    """A decision opens at ``at`` (or the game moved on to something else: no own clocks then): the own deadlines
    of the seats to act whose person has extra time."""
    play = self.play
    play.overtime, play.factors, play.locked = {}, {}, False
    game = self.play.game
    if game is None or self.moment.phase != PLAYING or not self.settings.turn_clock:
        return
    factors = {p.seat: p.extra_time for p in self.people.values() if p.extra_time != 1 and p.status != Status.GONE}
    if not factors:
        return  # (nobody has extra time: the usual table)
    for seat in sorted(game.to_act()):
        if seat in factors:
            play.factors[seat] = factors[seat]
    play.overtime = {seat: at + k * self.settings.seconds if k else None for seat, k in play.factors.items()}


def time_up(self: Table, seat: int | None, now: float) -> bool:
    """Whether the open decision's time for ``seat`` is up: its own deadline (extra time), else the table's (or,
    once the table's clock ended for the others, ``Play.locked``: at once)."""
    play = self.play
    if seat is not None and seat in play.overtime:
        own = play.overtime[seat]
        return own is not None and now >= own
    if play.locked:
        return True
    return self.moment.deadline is not None and now >= self.moment.deadline


def own_clock_end(self: Table) -> float | None:
    """When the last own clock of the open decision ends (None: someone has no clock, or nobody has one)."""
    ends = list(self.play.overtime.values())
    if not ends or any(end is None for end in ends):
        return None
    return max(end for end in ends if end is not None)


def on_overtime(self: Table, e: Event) -> None:
    """The table's clock ended while someone with extra time was still choosing: the others' silence is locked."""
    self.play.locked = True
    self.moment.deadline = None


def on_extra_time(self: Table, e: Event) -> None:
    self.people[e["person"]].extra_time = int(e["factor"])


def pause_clocks(self: Table, at: float, whole: bool) -> dict[int, float | None]:
    """The table pauses at ``at``: each own clock's time left (``whole``: a hold because nobody answered, which
    gives the decision its whole clock again: each its whole own clock, and the others' silence unlocked).  No
    own clock runs while paused."""
    play = self.play
    if whole:
        play.locked = False
        left = {seat: k * self.settings.seconds if k else None for seat, k in play.factors.items()}
    else:
        left = {seat: None if end is None else max(0.0, end - at) for seat, end in play.overtime.items()}
    play.overtime = dict.fromkeys(play.overtime)
    return left


def resume_clocks(self: Table, left: dict[int, float | None], at: float, floor: float) -> None:
    """The table resumes at ``at``: each own clock gets back the time it had left (at least ``floor``)."""
    for seat, rest in left.items():
        if seat in self.play.overtime:
            self.play.overtime[seat] = None if rest is None else at + max(rest, floor)


def own_view(self: Table, seat: int | None, now: float) -> tuple[bool, int | None]:
    """For the view of the person at ``seat``: whether the open decision runs on their own clock, and its time
    left (ms; None: no clock for them)."""
    play = self.play
    if seat is None or seat not in play.overtime:
        return False, None
    paused = self.hold.paused
    if paused is not None:
        rest = paused.overtime.get(seat)
        return True, None if rest is None else round(rest * 1000)
    end = play.overtime[seat]
    return True, None if end is None else max(0, round((end - now) * 1000))


__all__ = [
    "FACTORS",
    "on_extra_time",
    "on_overtime",
    "open_clocks",
    "own_clock_end",
    "own_view",
    "pause_clocks",
    "resume_clocks",
    "time_up",
]
