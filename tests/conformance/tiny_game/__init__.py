"""Pick: a game that exists only in the tests, to prove a game is one folder.

Two players, three rounds.  Each round both pick 1, 2 or 3 in secret, at once; a pick nobody else made
scores its value.  Seats belong to chairs.  Registered through ``manifest.py`` alone (the conformance
suite sets ``GEMTABLE_GAMES``), with one bot (``bots.py``), its probes (``probes.py``) and its web part
(``web/``: the board, the rules page, styles and texts in every language); nothing outside this folder names
it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import ClassVar

from gemtable.games.api import JSON, BadRules, GameRecord, IllegalMove, NotYourTurn, UnknownSeat

MOVES = ("1", "2", "3")
SEATS = 2


class PickView:
    def __init__(self, state: PickState, seat: int | None) -> None:
        self.state, self.seat = state, seat

    def to_json(self) -> JSON:
        mine = self.state.pending.get(self.seat) if self.seat is not None else None
        return {
            "game": Pick.name,
            "seat": self.seat,
            "rounds": self.state.rounds,
            "history": self.state.history,
            "scores": self.state.scores() if self.state.is_over() else None,
            "winners": self.state.winners() if self.state.is_over() else None,
            "mine": mine,
            "over": self.state.is_over(),
        }

    def snapshot(self) -> PickView:
        """A copy of what this seat may know: the history and its own pending pick; no seed, no inputs."""
        copy = PickState(self.state.rounds, 0)
        copy.started, copy.ended = self.state.started, self.state.ended
        copy.history = [list(picks) for picks in self.state.history]
        copy.pending = {seat: pick for seat, pick in self.state.pending.items() if seat == self.seat}
        return PickView(copy, self.seat)


class PickState:
    game: ClassVar[str] = "pick"

    def __init__(self, rounds: int, seed: int) -> None:
        self.rounds, self.seed, self.started, self.ended = rounds, seed, False, False
        self.pending: dict[int, str] = {}
        self.history: list[list[str]] = []
        self.inputs: list[JSON] = []

    @property
    def seats(self) -> int:
        return SEATS

    def needs_roster(self) -> bool:
        return not self.started

    def start_round(self, seats: Collection[int]) -> None:
        if self.started or sorted(seats) != list(range(SEATS)):
            raise IllegalMove("both seats start, once")
        self.started = True
        self.inputs.append(["round", list(range(SEATS))])

    def to_act(self) -> frozenset[int]:
        return frozenset() if not self.started or self.is_over() else frozenset(range(SEATS)) - set(self.pending)

    def legal_moves(self, seat: int) -> Sequence[str]:
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise UnknownSeat(f"no seat {seat!r}")
        return MOVES if seat in self.to_act() else ()

    def apply(self, seat: int, move: str) -> None:
        if move not in self.legal_moves(seat):
            raise NotYourTurn(f"seat {seat} may not pick {move!r} now")
        self.pending[seat] = move
        self.inputs.append([seat, move])
        if len(self.pending) == SEATS:
            self.history.append([self.pending[s] for s in range(SEATS)])
            self.pending = {}

    def apply_joint(self, moves: dict[int, str]) -> None:
        if set(moves) != self.to_act() or any(m not in MOVES for m in moves.values()):
            raise IllegalMove("a joint move names every seat to act, each with a legal pick")
        for seat in sorted(moves):
            self.apply(seat, moves[seat])

    def default_move(self, seat: int) -> str:
        return MOVES[0]

    def is_over(self) -> bool:
        return self.ended or len(self.history) >= self.rounds

    def end(self) -> None:
        if self.is_over():
            raise IllegalMove("the game is over")
        self.ended, self.pending = True, {}
        self.inputs.append(["end"])

    def scores(self) -> list[int]:
        return [sum(int(p[s]) for p in self.history if p.count(p[s]) == 1) for s in range(SEATS)]

    def winners(self) -> list[int]:
        return [s for s, score in enumerate(self.scores()) if score == max(self.scores())] if self.is_over() else []

    def view(self, seat: int | None) -> PickView:
        return PickView(self, seat)

    def record(self) -> GameRecord:
        over = self.is_over()
        return GameRecord(
            Pick.name,
            {"rounds": self.rounds},
            SEATS,
            self.seed,
            None,
            list(self.inputs),
            self.scores() if over else None,
            self.winners() if over else None,
        )


class Pick:
    name: ClassVar[str] = "pick"
    title: ClassVar[str] = "Pick"
    min_seats: ClassVar[int] = SEATS
    max_seats: ClassVar[int] = SEATS
    seats_per_game: ClassVar[int] = SEATS

    @classmethod
    def rules_json(cls, preset: str, options: Mapping[str, JSON]) -> JSON:
        if preset != "short" or set(options) - {"rounds"}:
            raise BadRules("one preset, one option: rounds")
        return {"rounds": options.get("rounds", 3)}

    @classmethod
    def new(cls, rules: JSON, seats: int, seed: int, script: JSON | None = None) -> PickState:
        if seats != SEATS or not isinstance(rules, dict) or type(rules.get("rounds")) is not int:
            raise BadRules("two seats, and a whole number of rounds")
        return PickState(rules["rounds"], seed)
