"""The game in play at a table: what the table keeps about it besides the game's own state.

Everything here belongs to one game: a new ``game`` event replaces it whole
(``Play(number, seed, game)``), so nothing of the last game's decisions leaks into the
next one.  ``game`` is the game's own state (the cards, the board: its rules'
side); the rest is the table's side of it: the secret choices not yet revealed,
who the clock or a dead phone moved, the rounds and moves counted for the
notices, and the bots that stood in for someone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gemtable.games.api import JSON, GameState


@dataclass(slots=True)
class Play:
    number: int = 0
    """The game's number at its table (0: none played yet)."""
    seed: int = 0
    game: GameState | None = None
    """The game's own state, by its rules (None: none played yet, or none since the table switched games)."""
    pending: dict[int, str] = field(default_factory=dict)
    """Choices made and not yet revealed, by seat: the table's one secret."""
    changes: dict[int, int] = field(default_factory=dict)
    """Times each seat changed its pending choice in the open decision (at most ``MAX_CHANGES``)."""
    timed_out: list[int] = field(default_factory=list)
    """The seats whose move in the last reveal the clock made (public once revealed)."""
    offline: list[int] = field(default_factory=list)
    """The seats whose move in the last reveal was made for them because their phone was gone."""
    choices_logged: list[int] = field(default_factory=list)
    """The numbers of this game's ``chose`` events (its choices before each reveal)."""
    rounds: int = 0
    """Rounds begun (caves, say)."""
    moves_made: int = 0
    """Moves (reveals, or turns) played."""
    stand_ins: dict[int, list[list[int | None]]] = field(default_factory=dict)
    """Turn-based games: per seat, the moves from which (and until which, or None) a bot played it for its
    person."""
    last_choice: float = 0.0
    """When the last choice of the open decision was made (its ``chose`` event's time): the last call counts from
    it (``Settings.last_call``)."""
    held: int = 0
    """The last decision held because nobody answered it (``Settings.hold_silent``: one hold per decision)."""
    overtime: dict[int, float | None] = field(default_factory=dict)
    """The open decision's own deadlines of the seats whose person has extra time (``extra_time.py``), by seat
    (None: no clock for them; while paused, None for all: their time left is in ``Table.hold.paused``)."""
    factors: dict[int, int] = field(default_factory=dict)
    """Those seats' factors when the decision opened (a hold that gives the decision its whole clock again gives
    them theirs)."""
    locked: bool = False
    """The table's clock ended while someone with extra time was still choosing (an ``overtime`` event): the others
    may no longer choose, and the reveal waits only for the people with extra time."""
    ended: JSON | None = None
    """The game was ended early: ``{"by": name, "move": n}`` (None: played to its end, or in play)."""

    def revealed(self, timed_out: list[int], offline: list[int]) -> None:
        """A reveal: the choices are spent; who the clock and a dead phone moved is now public."""
        self.pending = {}
        self.changes = {}
        self.overtime = {}
        self.factors = {}
        self.locked = False
        self.timed_out = timed_out
        self.offline = offline
