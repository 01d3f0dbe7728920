"""The people at a table: players in chairs, bots, and watchers in the queue."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    """Where a person stands at the table."""

    SEATED = "seated"
    """In a chair, playing (or about to, in the lobby)."""
    WAITING = "waiting"
    """In a chair, walks into the next round (late arrival, or back from away)."""
    AWAY = "away"
    """In a chair, but gone for a whole round: sits out until they come back."""
    WATCHING = "watching"
    """No chair: in the queue for one."""
    GONE = "gone"
    """Left the table (kept so that their seat's name stays readable in results)."""


@dataclass
class Person:
    """Someone at the table, or a bot in a chair."""

    id: int
    name: str
    token: str | None
    """SHA-256 of the seat token (never the token itself); None for a bot."""
    status: Status
    chair: int | None = None
    seat: int | None = None
    """Seat in the current game, once they have walked into a round of it."""
    bot: str | None = None
    joined_at: float = 0.0
    missed: int = 0
    """Turn-based games: turns in a row played for this person's seat (silence, or a bot standing in)."""
    origin: str = ""
    """Where they joined from, as the server keys it (a hash of the address salted per table; never the
    address itself): counts people per address, and a ban keeps it out."""
    left_reason: str | None = None
    """Once gone: ``left`` (by themselves), ``removed`` or ``banned`` (by the host), ``gave_chair`` (a bot)."""
    left_move: int | None = None
    """Once gone in a game: the move of that game being played when they left (from 1)."""
    left_round: int | None = None
    """Once gone in a game: its round then (a cave, say)."""
    left_at: float | None = None
    ready: bool = False
    """They said they are ready for the next game (``Settings.ready_check``); every game's start clears it."""
    look: int | None = None
    """Their colour and mark (a seat style, 0-15, ``seat-style.js``), given with their first chair and kept for as
    long as they are at the table, across its games: the room learns Réka as the brown star.  A newcomer takes the
    first look nobody at the table has."""
    bot_since: int | None = None
    """Turn-based games: the move from which a bot has been playing this person's seat (None: it does not)."""
    extra_time: int = 1
    """The host gave them more time per decision (``extra_time.py``): their clock is this many times the table's
    (2 or 3), or 0: no clock for them; 1, as everyone.  Kept across the table's games; dropped when they leave.
    Nobody but they and the host is shown it."""

    @property
    def has_chair(self) -> bool:
        return self.chair is not None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None
