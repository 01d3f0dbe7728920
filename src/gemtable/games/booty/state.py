"""The state of one game of Booty Hunter, and the rules that move it on.

Inputs, in order:

* ``start_round([0, 1, 2])`` — once, before the first turn: all three seats play
  the whole game.  The starting seat is drawn from the game's random generator;
  then turns go 0 → 1 → 2 → 0 from there.
* ``apply(seat, "x,y,rotation")`` — the seat to act places the tile the state
  drew for it (``apply_joint({seat: move})`` is the same, in the shape
  simultaneous games use).

Drawing is the state's business: as soon as a seat is to act it draws a tile
from the bag for it.  A drawn tile that fits nowhere, in any rotation, is shown to
everyone, set aside for the rest of the game, and the state draws again for the
same seat.  The game ends after 36 placements (12 rounds of 3) or when the bag
is empty when a tile should be drawn.

The bag is shuffled with ``random.Random(seed)`` when the game is created; a
``script`` replaces it for tests: either a list of tile ids (drawn first to last,
any subset of the box) or ``{"bag": [...], "first": seat}``, which also fixes
the starting seat.

Silence (``default_move``) places the drawn tile at the first legal placement in
reading order: the open cell with the smallest y, then the smallest x, turned
the fewest quarter turns that fit.  It is deterministic, needs no look-ahead,
and is easy for the other players to follow.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from gemtable.games.api import JSON, BadRules, GameRecord, IllegalMove, NotYourTurn, UnknownSeat
from gemtable.games.booty.board import Board, Placement
from gemtable.games.booty.rules import PLACEMENTS, PLAYERS, ROUNDS, BootyRules
from gemtable.games.booty.scoring import Count, count
from gemtable.games.booty.tiles import TILE_IDS, TILES, Tile
from gemtable.games.booty.view import BootyView


@dataclass(frozen=True, slots=True)
class SetAside:
    """A drawn tile that fitted nowhere."""

    tile: Tile
    seat: int
    """Who drew it."""
    placements: int
    """Tiles on the table when it was drawn."""

    def to_json(self) -> JSON:
        return {"tile": self.tile.to_json(), "seat": self.seat, "placements": self.placements}


@dataclass(frozen=True)
class _Script:
    bag: tuple[int, ...]
    first: int | None


class BootyState:
    """One game of Booty Hunter.  See the module documentation."""

    game: ClassVar[str] = "booty"

    def __init__(self, rules: BootyRules, seed: int, script: JSON | None = None) -> None:
        scripted = _read_script(script)
        self.rules = rules
        self.seed = seed
        self.script = script
        self._rng = random.Random(seed)
        self._bag: list[int] = list(scripted.bag) if scripted else self._shuffled_box()
        self._first = scripted.first if scripted else None
        self.board = Board()
        self.drawn: Tile | None = None
        self.placements_open: tuple[Placement, ...] = ()
        """Where the drawn tile may go, in reading order."""
        self.set_aside: list[SetAside] = []
        self.unplaced: Tile | None = None
        """The tile drawn for the seat to act when the host ended the game: never placed, back in the box."""
        self.turn: int | None = None
        self.started = False
        self.over = False
        self.draws = 0
        """Tiles drawn so far, set-aside ones included."""
        self._inputs: list[JSON] = []
        self._counted: tuple[Board, Count] | None = None

    def _shuffled_box(self) -> list[int]:
        bag = list(TILE_IDS)
        self._rng.shuffle(bag)
        return bag

    # --- who acts ------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return PLAYERS

    @property
    def placements(self) -> int:
        return len(self.board)

    @property
    def round(self) -> int:
        """The round being played, 1 to 12 (12 once the game is over)."""
        return min(self.placements // PLAYERS + 1, ROUNDS)

    @property
    def bag_size(self) -> int:
        return len(self._bag)

    def needs_roster(self) -> bool:
        return not self.started

    def start_round(self, seats: Collection[int]) -> None:
        if self.started:
            raise IllegalMove("the game has already started; Booty Hunter has a single roster")
        for seat in seats:
            self._check_seat(seat)
        if sorted(seats) != list(range(PLAYERS)):
            raise IllegalMove("all three seats (0, 1, 2) play Booty Hunter")
        self.started = True
        self._inputs.append(["round", list(range(PLAYERS))])
        self.turn = self._first if self._first is not None else self._rng.randrange(PLAYERS)
        self._draw()

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.turn is None else frozenset({self.turn})

    # --- moves ---------------------------------------------------------------------------

    def legal_moves(self, seat: int) -> Sequence[str]:
        self._check_seat(seat)
        if seat != self.turn:
            return []
        return [placement.text() for placement in self.placements_open]

    def default_move(self, seat: int) -> str:
        self._check_seat(seat)
        if seat != self.turn:
            raise NotYourTurn(f"seat {seat} is not to act")
        return self.placements_open[0].text()

    def apply(self, seat: int, move: str) -> None:
        self._check_seat(seat)
        if self.over:
            raise IllegalMove("the game is over")
        if seat != self.turn or self.drawn is None:
            raise NotYourTurn(f"seat {seat} is not to act")
        placement = Placement.parse(move)
        self.board.check(self.drawn, placement)
        self.board = self.board.with_tile(self.drawn, placement)
        self._inputs.append([seat, placement.text()])
        self.turn = (seat + 1) % PLAYERS
        self._draw()

    def apply_joint(self, moves: dict[int, str]) -> None:
        """The move of the one seat to act, in the shape simultaneous games use."""
        if len(moves) != 1:
            raise IllegalMove("one seat acts at a time in Booty Hunter: name exactly that seat")
        ((seat, move),) = moves.items()
        self.apply(seat, move)

    def _draw(self) -> None:
        """Draw for the seat to act until a tile fits; end the game when none may be drawn."""
        self.drawn, self.placements_open = None, ()
        while self.placements < PLACEMENTS and self._bag:
            tile = TILES[self._bag.pop(0)]
            self.draws += 1
            moves = self.board.placements(tile)
            if moves:
                self.drawn, self.placements_open = tile, tuple(moves)
                return
            assert self.turn is not None
            self.set_aside.append(SetAside(tile, self.turn, self.placements))
        self.turn = None
        self.over = True

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < PLAYERS:
            raise UnknownSeat(f"seat {seat!r} is not at this game (seats 0, 1, 2)")

    # --- the audience's question (games.api.Forecasts) ------------------------------------

    def forecast(self) -> JSON | None:
        """One question a game, open from its first move until the last tile is placed: who leads after the
        count (a single call, never changed)."""
        if not self.started or self.over:
            return None
        return {"key": "leader", "leader": list(range(PLAYERS)), "once": True}

    def forecast_told(self, key: str) -> JSON | None:
        return {"leader": self.winners()} if key == "leader" and self.over else None

    # --- outcome ---------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.over

    def end(self) -> None:
        """The host ended the game early: over now, the board counted as it stands (the tile drawn for the
        seat to act is not placed)."""
        if self.over:
            raise IllegalMove("the game is over")
        self._inputs.append(["end"])
        self.unplaced, self.drawn, self.placements_open = self.drawn, None, ()
        self.turn = None
        self.over = True

    def count(self) -> Count:
        """The board scored under the table's mode, as it stands now."""
        if self._counted is None or self._counted[0] is not self.board:
            self._counted = (self.board, count(self.board, self.rules.counting))
        return self._counted[1]

    def scores(self) -> list[int]:
        """The final scores once over; before that, what the board would score now."""
        return self.count().totals

    def winners(self) -> list[int]:
        if not self.over:
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def view(self, seat: int | None) -> BootyView:
        if seat is not None:
            self._check_seat(seat)
        return BootyView(self, seat)

    def record(self) -> GameRecord:
        return GameRecord(
            game=self.game,
            rules=self.rules.to_json(),
            seats=PLAYERS,
            seed=self.seed,
            script=self.script,
            inputs=[list(item) for item in self._inputs],
            scores=self.scores() if self.over else None,
            winners=self.winners() if self.over else None,
        )


def _read_script(script: JSON | None) -> _Script | None:
    """The scripted bag (and starting seat); :class:`BadRules` when it is not one."""
    if script is None:
        return None
    first = None
    if isinstance(script, dict):
        if set(script) - {"bag", "first"}:
            raise BadRules("a script has only 'bag' and 'first'")
        first = script.get("first")
        if first is not None and (type(first) is not int or not 0 <= first < PLAYERS):
            raise BadRules("the scripted first seat must be 0, 1 or 2")
        script = script.get("bag")
    if not isinstance(script, list) or any(type(tile) is not int or tile not in TILES for tile in script):
        raise BadRules("a scripted bag is a list of tile ids")
    if len(set(script)) != len(script):
        raise BadRules("a scripted bag holds each tile at most once")
    return _Script(tuple(script), first)


__all__ = ["BootyState", "SetAside"]
