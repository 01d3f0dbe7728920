"""The state of one expedition, and the rules that move it on.

One object, mutated in place by three inputs:

* ``start_round(seats)`` — the seats that walk into the next cave; its first
  card is turned at once;
* ``apply(seat, "deeper" | "camp")`` — one explorer's secret choice; when the
  last explorer inside has chosen, every choice is revealed together: leavers
  bank what they carry and share the path, and if anyone is still inside the
  next card is turned (or, once the table asked for it with ``hold_reveals()``,
  turned by ``go_on()`` when the table's beat is over: the reveal is shown on
  its own first);
* nothing else: no clock.  Silence at a deadline is the table's business; it
  sends ``default_move(seat)``, which is always ``camp``.

The deck of a cave is drawn lazily: each card is picked uniformly from the
cards not yet drawn, which is a Fisher–Yates shuffle done one card at a time,
so a cave costs only the cards it turns.  A ``script`` (one list of card names
per cave) replaces the random order for tests.

Conservation is kept as plain counters (``revealed``, ``lost``, ``returned``),
so property tests can check that no gem is ever created or destroyed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from typing import ClassVar

from gemtable.games.api import (
    JSON,
    BadRules,
    GameRecord,
    IllegalMove,
    NotYourTurn,
    UnknownSeat,
)
from gemtable.games.expedition.cards import RELIC, TAKEN_RELIC, parse_card
from gemtable.games.expedition.cards import path_card_name as path_card_name
from gemtable.games.expedition.hindsight import CaveEnd
from gemtable.games.expedition.moves import CAMP as CAMP
from gemtable.games.expedition.moves import CHOOSE, MOVES, OVER, REVEAL, ROSTER
from gemtable.games.expedition.moves import DEEPER as DEEPER
from gemtable.games.expedition.rules import ExpeditionRules
from gemtable.games.expedition.view import ExpeditionView, views_split

_MOVE_SET = frozenset(MOVES)

MAX_SEATS = 16
"""Seats of one game: a seat is a player and keeps its chest for the whole game, so a
game can outlast its eight chairs (an away player's chair may go to someone else)."""


class Takes:
    """What the leavers of one reveal took out of the cave."""

    __slots__ = ("banked", "path_share", "relics")

    def __init__(self, banked: tuple[int, ...], path_share: int) -> None:
        self.banked = banked
        """What each leaver was carrying, in seat order."""
        self.path_share = path_share
        """Loose path gems each leaver took."""
        self.relics: list[int] = []
        """Values of the relics a lone leaver carried out."""


class ExpeditionState:
    """One game of the expedition.  See the module documentation."""

    game: ClassVar[str] = "expedition"

    def __init__(
        self,
        rules: ExpeditionRules,
        seats: int,
        seed: int,
        script: Sequence[Sequence[str]] | None = None,
    ) -> None:
        if not 1 <= seats <= MAX_SEATS:
            raise BadRules(f"seats must be between 1 and {MAX_SEATS}")
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self._random = self.rng.random
        self.script: list[list[int]] | None = None
        if script is not None:
            self.script = [[parse_card(name) for name in cave] for cave in script]
        self._script_json = [list(cave) for cave in script] if script is not None else None
        self._seats = seats
        self.phase = ROSTER
        self.cave = 0
        # The game's deck, cave after cave: treasures and hazards less removals,
        # plus the relics that joined and were never revealed.
        self.deck: list[int] = rules.base_deck()
        self.removed: list[int] = []
        self.relics_in_deck = 0
        self.relics_out = 0
        self.pile: list[int] = []
        self._cave_cards: list[int] = []
        self._drawn = 0
        self.path: list[int] = []
        self.path_gems: list[int] = []
        self.hazards_seen = [False] * 5
        self.inside: list[int] = []
        self._inside_set: frozenset[int] = frozenset()
        self.choices: dict[int, str] = {}
        self.carried = [0] * seats
        self.chest = [0] * seats
        self.relics_held: list[list[int]] = [[] for _ in range(seats)]
        self.relic_points = [0] * seats
        self.banked = [0] * seats
        """What each seat took out of the current (or the last) cave: public, as every walk-out is."""
        self.banked_relics: list[list[int]] = [[] for _ in range(seats)]
        """The relics each seat carried out of the current (or the last) cave."""
        self.present: list[int] = []
        self.played = [False] * seats
        self.last_choices: dict[int, str] | None = None
        """Every choice of the last reveal (public once revealed)."""
        self.last_takes: Takes | None = None
        """What the leavers of the last reveal took, if anyone walked out."""
        self.collapsed_by: int | None = None
        self.lost_at_collapse: list[int] = []
        """What each explorer inside lost at the collapse, in the order of ``inside`` (public)."""
        self.deck_ran_out = False
        self.holds = False
        """Whether a reveal stops before the next card, until ``go_on()`` (the table's beat)."""
        self.chest_by_cave: list[list[int]] = []
        self.left_at: dict[int, int] = {}
        """Each seat that walked out of the current (or the last) cave: how many cards lay on the path then."""
        self.buried: dict[int, int] = {}
        """What each seat inside at the current (or the last) cave's collapse lost."""
        self.cave_ends: list[CaveEnd] = []
        """Every finished cave, told (``hindsight.py``): what might have been, and the awards."""
        self.told: dict[str, JSON] = {}
        """What each reveal of this game told an audience (``forecast_told``): by question key, who walked out
        and whether the card after it collapsed the cave (public facts, once they happened)."""
        self.inputs: list[JSON] = []
        # Conservation counters.
        self.revealed = 0
        self.lost = 0
        self.returned = 0
        self.relics_revealed = 0
        self.relics_left = 0

    # --- the game API -----------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self._seats

    def needs_roster(self) -> bool:
        return self.phase == ROSTER

    def start_round(self, seats: Collection[int]) -> None:
        """Open the next cave with ``seats`` walking in together."""
        if self.phase != ROSTER:
            raise IllegalMove("the game is over" if self.phase == OVER else "a cave is under way")
        chosen = set(seats)
        if len(chosen) != len(seats):
            raise IllegalMove("a seat cannot walk in twice")
        for seat in chosen:
            if type(seat) is not int or not 0 <= seat < self._seats:
                self._check_seat(seat)
        explorers = sorted(chosen)
        least = self.rules.min_players if self.cave == 0 else 1
        if not least <= len(explorers) <= self.rules.max_players:
            raise IllegalMove(f"{least} to {self.rules.max_players} explorers walk into a cave")
        self.inputs.append(["round", explorers])
        self._open_cave(explorers)

    def to_act(self) -> frozenset[int]:
        if self.phase != CHOOSE:
            return frozenset()
        choices = self.choices
        if not choices:
            return self._inside_set
        return frozenset(seat for seat in self.inside if seat not in choices)

    def legal_moves(self, seat: int) -> Sequence[str]:
        if seat in self._inside_set and seat not in self.choices:
            return MOVES
        self._check_seat(seat)
        return ()

    def apply(self, seat: int, move: str) -> None:
        """One explorer's choice; the reveal follows the last one."""
        self._check_open()
        if seat not in self.inside or type(seat) is not int:  # True == 1 and 1.0 == 1 are not seats
            self._check_seat(seat)
            raise NotYourTurn(f"seat {seat} is not inside the cave")
        if seat in self.choices:
            raise IllegalMove(f"seat {seat} has already chosen")
        if move != DEEPER and move != CAMP:
            raise IllegalMove(f"a choice is 'deeper' or 'camp', not {move!r}")
        choices = self.choices
        choices[seat] = move
        if len(choices) == len(self.inside):
            self.choices = {}
            self._reveal(choices)

    def apply_joint(self, choices: dict[int, str]) -> None:
        """Every explorer's choice at once (OpenSpiel's joint action): the reveal.

        The same as one ``apply`` per explorer inside, in one call; the
        simulator and the benchmark use it.  ``choices`` must name exactly the
        explorers inside who have not chosen yet.
        """
        if self.phase != CHOOSE:
            self._check_open()
        pending = self.choices
        if pending:
            if not pending.keys().isdisjoint(choices):
                raise IllegalMove("a seat in a joint choice has already chosen")
            choices = {**pending, **choices}
        if choices.keys() != self._inside_set:  # (dict keys are unique: equal sets, equal counts)
            raise IllegalMove("a joint choice names every explorer inside who has not chosen, once")
        try:
            valid = _MOVE_SET.issuperset(choices.values())
        except TypeError:  # an unhashable move (a list from the wire) is no move either
            valid = False
        if not valid:
            raise IllegalMove("a choice is 'deeper' or 'camp'")
        if pending:
            self.choices = {}
        self._reveal(choices)

    def _check_open(self) -> None:
        if self.phase != CHOOSE:
            why = {OVER: "the game is over", REVEAL: "the reveal is being shown"}.get(self.phase, "between caves")
            raise IllegalMove("no choice is open: " + why)

    # --- the reveal's beat (games.api.Beats) --------------------------------------------

    def hold_reveals(self) -> None:
        """From now on, a reveal that leaves someone inside stops before the next card, until ``go_on()``."""
        self.holds = True

    def held(self) -> bool:
        return self.phase == REVEAL

    def go_on(self) -> None:
        """The beat is over: the next card is turned (no input: a replay turns it at the reveal)."""
        if self.phase != REVEAL:
            raise IllegalMove("no reveal is being shown")
        self.phase = CHOOSE
        self._inside_set = frozenset(self.inside)
        self._turn_after(self._key())

    # --- the audience's questions (games.api.Forecasts) -----------------------------------

    def forecast(self) -> JSON | None:
        """Open while the explorers inside choose: who walks out, and whether the next card collapses the cave."""
        if self.phase != CHOOSE or not self.inside:
            return None
        return {"key": self._key(), "out": sorted(self.inside), "collapse": True}

    def forecast_told(self, key: str) -> JSON | None:
        return self.told.get(key)

    def _key(self) -> str:
        """The open decision's question: the cave and the cards turned in it (one decision per card)."""
        return f"{self.cave}.{len(self.path)}"

    def default_move(self, seat: int) -> str:
        """Silence means camp: the clock never gambles a player's gems."""
        return CAMP

    def is_over(self) -> bool:
        return self.phase == OVER

    def end(self) -> None:
        """The host ended the game early: it is over now, the chests as they stand.  What the explorers
        still inside carry is not banked — only a chest is safe — and goes back to the supply with the path's
        loose gems (a cave under way ends here, and counts in ``chest_by_cave``); choices not yet revealed
        are dropped."""
        if self.phase == OVER:
            raise IllegalMove("the game is over")
        self.inputs.append(["end", "held"] if self.phase == REVEAL else ["end"])  # (held: before the next card)
        if self.phase == CHOOSE or self.phase == REVEAL:
            carried = self.carried
            for seat in self.inside:
                self.returned += carried[seat]
                carried[seat] = 0
            self.choices = {}
            self.inside = []
            self._inside_set = frozenset()
            self._end_cave(last=True)
        self.phase = OVER

    def scores(self) -> list[int]:
        """Banked gems plus relic values, per seat, for the seats up to the last one that played.

        A table's game has 16 seats, handed out from 0 as players walk in: a game of three lists
        three scores, not thirteen phantom zeros after them."""
        totals = self._totals()
        return totals[: 1 + max((s for s in range(self._seats) if self.played[s]), default=-1)]

    def _totals(self) -> list[int]:
        return [gems + relics for gems, relics in zip(self.chest, self.relic_points, strict=True)]

    def winners(self) -> list[int]:
        """The seats with the highest score among those who played (all share a tie)."""
        scores = self.scores()
        players = [s for s in range(self._seats) if self.played[s]]
        if not players:
            return []
        best = max(scores[s] for s in players)
        return [s for s in players if scores[s] == best]

    def view(self, seat: int | None) -> ExpeditionView:
        if seat is not None:
            self._check_seat(seat)
        return ExpeditionView(self, seat)

    def views_split(self, seats: Iterable[int | None]) -> tuple[JSON, dict[int | None, JSON]]:
        """Several seats' ``view(seat).to_json()`` at once: what they share, built once, and each one's own keys
        (``view.py``)."""
        wanted = list(seats)
        for seat in wanted:
            if seat is not None:
                self._check_seat(seat)
        return views_split(self, wanted)

    def record(self) -> GameRecord:
        over = self.phase == OVER
        return GameRecord(
            game=self.game,
            rules=self.rules.to_json(),
            seats=self._seats,
            seed=self.seed,
            script=self._script_json,
            inputs=self._inputs_json(),
            scores=self.scores() if over else None,
            winners=self.winners() if over else None,
        )

    def _inputs_json(self) -> list[JSON]:
        """Rosters as ``["round", seats]``, choices as ``[seat, move]`` in seat order."""
        out: list[JSON] = []
        for item in self.inputs:
            if isinstance(item, dict):
                out.extend([seat, item[seat]] for seat in sorted(item))
            else:
                out.append(list(item))
        return out

    # --- what can be seen -------------------------------------------------------------

    def cave_deck(self) -> list[int]:
        """The cards of the current cave's deck (public), in no particular order."""
        return self.deck + [RELIC] * self.relics_in_deck if self.phase == ROSTER else self._cave_cards

    def unseen(self) -> list[int]:
        """The cards of this cave not yet turned (their order is the secret)."""
        return list(self.pile)

    # --- the rules --------------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self._seats:
            raise UnknownSeat(f"there is no seat {seat!r}")

    def _open_cave(self, explorers: list[int]) -> None:
        self.cave += 1
        if self.rules.relics:
            self.relics_in_deck += 1
        self._cave_cards = self.deck + [RELIC] * self.relics_in_deck
        self.pile = list(self._cave_cards)
        self._drawn = 0
        self.path = []
        self.path_gems = []
        self.hazards_seen = [False] * 5
        self.inside = explorers
        self._inside_set = frozenset(explorers)
        self.present = list(explorers)
        self.banked = [0] * self._seats
        self.banked_relics = [[] for _ in range(self._seats)]
        self.left_at = {}
        self.buried = {}
        for seat in explorers:
            self.played[seat] = True
        self.last_choices = None
        self.last_takes = None
        self.collapsed_by = None
        self.lost_at_collapse = []
        self.deck_ran_out = False
        self.phase = CHOOSE
        self._turn_card()

    def _draw_scripted(self) -> int | None:
        pile = self.pile
        script = self.script or []
        cave = script[self.cave - 1] if self.cave <= len(script) else []
        if self._drawn >= len(cave):
            return None
        card = cave[self._drawn]
        self._drawn += 1
        if card in pile:
            pile.remove(card)
        return card

    def _turn_card(self) -> None:
        pile = self.pile
        if self.script is not None:
            drawn = self._draw_scripted()
            if drawn is None:
                self._deck_runs_out()
                return
            card = drawn
        elif pile:
            # One step of a Fisher-Yates shuffle: a uniform pick among the unseen cards.
            index = int(self._random() * len(pile))
            card = pile[index]
            pile[index] = pile[-1]
            pile.pop()
        else:
            self._deck_runs_out()
            return
        self.path.append(card)
        inside = self.inside
        if card > 0:
            self.revealed += card
            share, rest = divmod(card, len(inside))
            carried = self.carried
            for seat in inside:
                carried[seat] += share
            self.path_gems.append(rest)
            return
        self.path_gems.append(0)
        if card == RELIC:
            self.relics_in_deck = max(0, self.relics_in_deck - 1)
            self.relics_revealed += 1
            return
        kind = -1 - card
        if self.hazards_seen[kind]:
            self._collapse(card)
        else:
            self.hazards_seen[kind] = True

    def _collapse(self, card: int) -> None:
        carried = self.carried
        self.lost_at_collapse = [carried[seat] for seat in self.inside]
        self.buried = dict(zip(self.inside, self.lost_at_collapse, strict=True))
        for seat in self.inside:
            self.lost += carried[seat]
            carried[seat] = 0
        self.collapsed_by = card
        for _ in range(self.rules.collapse_removes):
            if card in self.deck:  # a scripted deck may repeat a kind beyond its copies
                self.deck.remove(card)
                self.removed.append(card)
        self.inside = []
        self._inside_set = frozenset()
        self._end_cave()

    def _deck_runs_out(self) -> None:
        """Cannot happen under the presets; explorers walk out with what they carry."""
        self.deck_ran_out = True
        for seat in self.inside:
            self.chest[seat] += self.carried[seat]
            self.banked[seat] = self.carried[seat]
            self.carried[seat] = 0
        self.inside = []
        self._inside_set = frozenset()
        self._end_cave()

    def _reveal(self, choices: dict[int, str]) -> None:
        self.inputs.append(choices)
        self.last_choices = choices
        key = self._key()
        if CAMP not in choices.values():
            self.last_takes = None
            self.told[key] = {"out": []}
            if self.holds:
                self._hold()
            else:
                self._turn_after(key)
            return
        inside = self.inside
        deeper = [seat for seat in inside if choices[seat] == DEEPER]
        leavers = [seat for seat in inside if choices[seat] != DEEPER]
        self.told[key] = {"out": leavers}
        self._walk_out(leavers)
        self.inside = deeper
        self._inside_set = frozenset(deeper)
        if not deeper:
            self.told[key]["collapse"] = None  # no card follows: nothing to tell of one
            self._end_cave()
        elif self.holds:
            self._hold()
        else:
            self._turn_after(key)

    def _turn_after(self, key: str) -> None:
        """The card after the reveal of ``key``, and whether it collapsed the cave (None: the deck ran out)."""
        self._turn_card()
        told = self.told.get(key)
        if told is not None:
            told["collapse"] = None if self.deck_ran_out else self.collapsed_by is not None

    def _cave_end(self, last: bool) -> CaveEnd:
        """What the cave that is ending leaves to tell (``hindsight.py``).  The card after the last one turned is
        looked at only when nothing follows this cave and someone walked out at the last card: it is the card
        the next draw would have turned, drawn here from a copy of the generator (the game's own is untouched,
        and no cave will draw from it again)."""
        path = self.path
        explorers = tuple(self.present)
        wanted = last and len(path) in self.left_at.values()
        card = self._peek() if wanted else None
        banked = {s: self.banked[s] for s in explorers if s in self.left_at or self.deck_ran_out}
        return CaveEnd(
            number=self.cave,
            path=tuple(RELIC if c == TAKEN_RELIC else c for c in path),
            explorers=explorers,
            left_at=dict(self.left_at),
            banked=banked,
            relics={s: tuple(self.banked_relics[s]) for s in explorers if self.banked_relics[s]},
            lost=dict(self.buried),
            collapsed_by=self.collapsed_by,
            path_left=sum(self.path_gems),
            next_card=card,
            has_next=card is not None,
            kept=not last and bool(self.pile),
            ran_out=self.deck_ran_out,
        )

    def _peek(self) -> int | None:
        """The card the next draw of this cave would turn, the state untouched (None: there is none)."""
        if self.script is not None:
            cave = self.script[self.cave - 1] if self.cave <= len(self.script) else []
            return cave[self._drawn] if self._drawn < len(cave) else None
        if not self.pile:
            return None
        copy = random.Random()
        copy.setstate(self.rng.getstate())
        return self.pile[int(copy.random() * len(self.pile))]

    def _hold(self) -> None:
        """A reveal that leaves someone inside, held before the next card (``go_on()`` turns it)."""
        self.phase = REVEAL
        self._inside_set = frozenset()  # nobody is asked anything while the reveal is shown

    def _walk_out(self, leavers: list[int]) -> None:
        carried, chest = self.carried, self.chest
        share = self._share_path(len(leavers))
        takes = Takes(tuple(carried[seat] for seat in leavers), share)
        self.last_takes = takes
        banked = self.banked
        at = len(self.path)
        for seat in leavers:
            self.left_at[seat] = at
            banked[seat] = carried[seat] + share
            chest[seat] += banked[seat]
            carried[seat] = 0
        if len(leavers) == 1 and RELIC in self.path:
            self._carry_relics(leavers[0], takes)

    def _share_path(self, count: int) -> int:
        gems = self.path_gems
        if self.rules.path_split == "per_card":
            share = 0
            for i, lying in enumerate(gems):
                if lying >= count:
                    each = lying // count
                    share += each
                    gems[i] = lying - each * count
            return share
        total = sum(gems)
        share = total // count
        taking = share * count
        for i, lying in enumerate(gems):
            if not taking:
                break
            took = min(lying, taking)
            gems[i] = lying - took
            taking -= took
        return share

    def _carry_relics(self, seat: int, takes: Takes) -> None:
        path = self.path
        for i, card in enumerate(path):
            if card == RELIC:
                value = self.rules.relic_value(self.relics_out)
                self.relics_out += 1
                self.relics_held[seat].append(value)
                self.banked_relics[seat].append(value)
                self.relic_points[seat] += value
                takes.relics.append(value)
                path[i] = TAKEN_RELIC

    def _end_cave(self, last: bool = False) -> None:
        """The cave is over (``last``: the host ended the game in it, so nothing follows it either)."""
        last = last or self.cave >= self.rules.caves
        self.cave_ends.append(self._cave_end(last))
        self.returned += sum(self.path_gems)
        self.path_gems = [0] * len(self.path)
        self.relics_left += self.path.count(RELIC)
        self.chest_by_cave.append(self._totals())
        self.phase = OVER if self.cave >= self.rules.caves else ROSTER
