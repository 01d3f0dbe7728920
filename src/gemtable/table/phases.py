"""A table's phases: the lobby, a decision being played, a reveal's beat, the pause between rounds, the results;
and the table's moment (``Moment``): its phase, when it began, when its clock runs out, which decision it is."""

from __future__ import annotations

from dataclasses import dataclass

LOBBY, PLAYING, REVEAL, PAUSE, RESULTS = "lobby", "playing", "reveal", "pause", "results"


@dataclass
class Moment:
    """Where the table is now, as everyone sees it: the phase, since when, until when (its clock)."""

    phase: str
    opened_at: float
    """When the current decision (or pause, or reveal's beat) began (the table's creation, at first)."""
    deadline: float | None = None
    """When the clock of the current decision, pause or beat runs out (None: no clock)."""
    decision: int = 0
    """Counts the decisions opened so far, so that a late answer to an old one is told apart."""
