"""What one seat (or a spectator) may see of an expedition.

This is the one place where secrets are hidden.  A view is a live, read-only
window onto the state: bots read its properties on every decision (cheaply, no
copy), and the server sends ``to_json()`` to a phone.

Public, as at the table: the path and its loose gems, the hazards seen, which
cards left the game, how many cards are left, who is inside, what everyone
carries and which relics they hold, and what each took out of this cave
(``banked``, ``banked_relics``: every walk-out is told to everyone); between
caves, how many cards the next cave's deck holds (``next_deck``); at the end, the awards.  Secret: the order of
the deck (a view knows only which cards are still unseen, never their order), every chest but the viewer's own
until the game is over, and what one more card would have done to another seat (``hindsight``: a seat's own,
between caves and at the end, never while a cave is under way; ``hindsight.py`` tells a card never turned only
when no cave follows).  Pending choices are not in the
engine's view at all: the table keeps them until the reveal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from gemtable.games.api import JSON
from gemtable.games.expedition.cards import HAZARD_KINDS, RELIC, card_name, path_card_name
from gemtable.games.expedition.hindsight import awards, what_might_have_been
from gemtable.games.expedition.moves import DEEPER, OVER, ROSTER

if TYPE_CHECKING:
    from gemtable.games.expedition.state import ExpeditionState


class ExpeditionView:
    """A seat's window onto the game (``seat`` None: a spectator's)."""

    __slots__ = ("_carried", "_index", "_state", "seat")

    def __init__(self, state: ExpeditionState, seat: int | None) -> None:
        self._state = state
        self.seat = seat
        # ``carried`` is read on every decision: keep its lookup to one index.
        self._carried = state.carried if seat is not None else [0]
        self._index = seat if seat is not None else 0

    # --- for bots ----------------------------------------------------------------------

    @property
    def carried(self) -> int:
        """Gems this seat carries (0 for a spectator)."""
        return self._carried[self._index]

    @property
    def inside(self) -> list[int]:
        return self._state.inside

    @property
    def path_gems(self) -> int:
        """Loose gems lying on the path."""
        return sum(self._state.path_gems)

    @property
    def cards_turned(self) -> int:
        """Cards of this cave turned so far (the path's length)."""
        return len(self._state.path)

    @property
    def relics_on_path(self) -> int:
        return self._state.path.count(RELIC)

    def relic_worth(self, count: int) -> int:
        """What the next ``count`` relics carried out would be worth together."""
        state = self._state
        return sum(state.rules.relic_value(state.relics_out + i) for i in range(count))

    @property
    def hazards_seen(self) -> list[bool]:
        """For each hazard kind, whether it lies on this cave's path."""
        return self._state.hazards_seen

    def unseen(self) -> list[int]:
        """The cards of this cave not yet turned, sorted: which ones, never their order."""
        return sorted(self._state.pile)

    def deadly_unseen(self) -> int:
        """Unseen cards that would collapse the cave."""
        seen = self._state.hazards_seen
        return sum(1 for card in self._state.pile if card < 0 and seen[-1 - card])

    def collapse_chance(self) -> float:
        """The chance that the next card collapses the cave."""
        left = len(self._state.pile)
        return self.deadly_unseen() / left if left else 0.0

    @property
    def cave(self) -> int:
        return self._state.cave

    def snapshot(self) -> ExpeditionView:
        """A copy of this view, detached from the state: the same API over a copy of what this seat may
        know and nothing else (the unseen cards sorted, other chests blank until the game is over).  It
        is what a user bot in its own process is sent (:mod:`gemtable.lab.userbot`)."""
        return ExpeditionView(_Seen(self._state, self.seat), self.seat)  # type: ignore[arg-type]

    # --- for the wire -----------------------------------------------------------------

    def to_json(self) -> JSON:
        over = self._state.phase == OVER
        data = self._common(over)
        data["seat"] = self.seat
        data["players"] = self._players(over)
        data["hindsight"] = _hindsight(self._state, self.seat)
        return data

    def _common(self, over: bool) -> JSON:
        """Everything of :meth:`to_json` but ``seat`` and ``players``: the same for every seat."""
        state = self._state
        data: JSON = {
            "game": state.game,
            "rules": state.rules.to_json(),
            "phase": state.phase,
            "cave": state.cave,
            "caves": state.rules.caves,
            "path": [
                {"card": path_card_name(card), "gems": gems}
                for card, gems in zip(state.path, state.path_gems, strict=True)
            ],
            "danger": [kind for kind, seen in zip(HAZARD_KINDS, state.hazards_seen, strict=True) if seen],
            "deck_left": len(state.pile),
            "next_deck": self._next_deck(),
            "removed": [card_name(card) for card in state.removed],
            "relics_in_deck": state.relics_in_deck,
            "next_relic_value": state.rules.relic_value(state.relics_out),
            "reveal": self._reveal(),
            "collapsed_by": None if state.collapsed_by is None else card_name(state.collapsed_by),
            "deck_ran_out": state.deck_ran_out,
            "scores": state.scores() if over else None,
            "winners": state.winners() if over else None,
            "awards": awards(state.cave_ends) if over else None,
        }
        if state.rules.show_odds:
            data["collapse_chance"] = round(self.collapse_chance(), 4)
        return data

    def _players(self, over: bool) -> list[JSON]:
        state = self._state
        inside, present = set(state.inside), set(state.present)
        return [self._player(seat, over, inside, present) for seat in range(state.seats) if state.played[seat]]

    def _next_deck(self) -> int | None:
        """Between caves: the cards the next cave's deck will hold (its relic included); None otherwise."""
        state = self._state
        if state.phase != ROSTER or state.cave == 0:
            return None
        return len(state.deck) + state.relics_in_deck + (1 if state.rules.relics else 0)

    def _player(self, seat: int, over: bool, inside: set[int], present: set[int]) -> JSON:
        state = self._state
        if seat in inside:
            status = "inside"
        elif seat in present:
            status = "camp"
        else:
            status = "out"
        mine = over or seat == self.seat
        return {
            "seat": seat,
            "status": status,
            "played": state.played[seat],
            "carried": state.carried[seat],
            "banked": state.banked[seat],
            "banked_relics": list(state.banked_relics[seat]),
            "relics": list(state.relics_held[seat]),
            "chest": state.chest[seat] if mine else None,
            "chest_by_cave": _chest_by_cave(state, seat) if mine else None,
        }

    def _reveal(self) -> JSON:
        state = self._state
        choices = state.last_choices
        if choices is None:
            return None
        takes = state.last_takes
        order = sorted(choices)
        return {
            "deeper": [seat for seat in order if choices[seat] == DEEPER],
            "leavers": [seat for seat in order if choices[seat] != DEEPER],
            "banked": list(takes.banked) if takes else [],
            "path_share": takes.path_share if takes else 0,
            "relics": list(takes.relics) if takes else [],
            "lost": list(state.lost_at_collapse) if state.collapsed_by is not None else [],
        }


class _Seen:
    """What one seat may know of a state, copied: the fields a view reads, and only those.  A whitelist,
    so that a field added to the state stays out of it until someone decides it is public.  Secret:
    the order of the cave's pile (sorted here), the decks of the caves to come (only their size is
    kept), the generator and the seed, and other seats' chests until the game is over."""

    __slots__ = (
        "_scores", "_winners", "banked", "banked_relics", "carried", "cave", "cave_ends", "chest", "chest_by_cave",
        "collapsed_by", "deck", "deck_ran_out", "game", "hazards_seen", "inside", "last_choices", "last_takes",
        "lost_at_collapse", "path", "path_gems", "phase", "pile", "played", "present", "relics_held",
        "relics_in_deck", "relics_out", "removed", "rules", "seats",
    )  # fmt: skip

    def __init__(self, state: ExpeditionState, seat: int | None) -> None:
        over = state.phase == OVER
        self.game, self.rules, self.phase, self.cave, self.seats = (
            state.game, state.rules, state.phase, state.cave, state.seats
        )  # fmt: skip
        self.pile = sorted(state.pile)
        self.deck = [0] * len(state.deck)
        self.path, self.path_gems, self.hazards_seen = list(state.path), list(state.path_gems), list(state.hazards_seen)
        self.removed, self.relics_in_deck, self.relics_out = list(state.removed), state.relics_in_deck, state.relics_out
        self.inside, self.present, self.played = list(state.inside), list(state.present), list(state.played)
        self.carried, self.banked = list(state.carried), list(state.banked)
        self.banked_relics = [list(r) for r in state.banked_relics]
        self.relics_held = [list(r) for r in state.relics_held]
        mine = range(state.seats) if over else () if seat is None else (seat,)
        self.chest = [state.chest[s] if s in mine else 0 for s in range(state.seats)]
        self.chest_by_cave = [[c[s] if s in mine else 0 for s in range(state.seats)] for c in state.chest_by_cave]
        self.last_choices = None if state.last_choices is None else dict(state.last_choices)
        self.last_takes = state.last_takes
        self.collapsed_by, self.lost_at_collapse = state.collapsed_by, list(state.lost_at_collapse)
        self.deck_ran_out = state.deck_ran_out
        self.cave_ends = list(state.cave_ends)  # (finished caves: public, and only the game's last names a card)
        self._scores = state.scores() if over else []
        self._winners = state.winners() if over else []

    def scores(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        return list(self._winners)


def views_split(state: ExpeditionState, seats: Iterable[int | None]) -> tuple[JSON, dict[int | None, JSON]]:
    """What ``state.view(seat).to_json()`` is for each of ``seats`` (the server's broadcast after a change), as
    what every seat sees alike (its first keys, built once) and each seat's own keys after them (``seat``, the
    players with its own chest, its hindsight): ``{**shared, **own[seat]}`` equals its seat's ``to_json()``.
    The players every seat sees alike are the same objects in every ``own``: the caller only encodes them."""
    over = state.phase == OVER
    spectator = ExpeditionView(state, None)
    public = spectator._players(over)
    at = {p["seat"]: i for i, p in enumerate(public)}
    own: dict[int | None, JSON] = {}
    for seat in seats:
        if seat in own:
            continue
        players = public
        if seat is not None and not over and seat in at:  # its own chest, seen by it alone
            players = public.copy()
            players[at[seat]] = _with_chest(public[at[seat]], state, seat)
        own[seat] = {"seat": seat, "players": players, "hindsight": _hindsight(state, seat)}
    return spectator._common(over), own


def _hindsight(state: ExpeditionState, seat: int | None) -> JSON:
    """What one more card would have done to ``seat`` in the cave that just ended (``hindsight.py``): its own
    view's alone, between caves and at the end; None while a cave is under way, and for a spectator."""
    ends = state.cave_ends
    if seat is None or state.phase not in (ROSTER, OVER) or not ends or ends[-1].number != state.cave:
        return None
    return what_might_have_been(ends[-1], seat)


def _with_chest(player: JSON, state: ExpeditionState, seat: int) -> JSON:
    """A public player (``_player`` for someone else's eyes) as its own seat sees it: with its chest."""
    return {**player, "chest": state.chest[seat], "chest_by_cave": _chest_by_cave(state, seat)}


def _chest_by_cave(state: ExpeditionState, seat: int) -> list[int]:
    return [scores[seat] for scores in state.chest_by_cave]
