"""Shared helpers of the expedition tests: scripted games, snapshots, a random driver, invariants."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gemtable.games import GameRecord, replay
from gemtable.games.expedition import CAMP, DEEPER, RELIC, Expedition, ExpeditionRules, card_name, rules_for
from gemtable.games.expedition.state import ExpeditionState, path_card_name

TABLE = rules_for("table")
CLASSIC = rules_for("classic")
TREASURES = (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)
HAZARDS = ("snakes", "spiders", "mummies", "fire", "rockfall")


def new_game(
    script: Sequence[Sequence[str]] | None = None,
    seats: int = 3,
    rules: ExpeditionRules | Any = TABLE,
    seed: int = 0,
    roster: Iterable[int] | None = None,
) -> ExpeditionState:
    """A game whose first cave is already open (``roster``: every seat by default)."""
    state = Expedition.new(rules, seats, seed, [list(cave) for cave in script] if script else script)
    state.start_round(list(range(seats)) if roster is None else list(roster))
    return state


def step(state: ExpeditionState, *leavers: int) -> None:
    """One reveal: ``leavers`` walk out, every other explorer inside goes deeper."""
    state.apply_joint({seat: CAMP if seat in leavers else DEEPER for seat in state.inside})


def path_names(state: ExpeditionState) -> list[str]:
    return [path_card_name(card) for card in state.path]


def names(cards: Iterable[int]) -> Counter[str]:
    return Counter(card_name(card) for card in cards)


def deck_of(rules: ExpeditionRules, relics: int = 0, removed: Counter[str] | None = None) -> Counter[str]:
    """The composition the rules give a cave: every treasure, hazards less removals, ``relics`` relics."""
    deck: Counter[str] = Counter(str(t) for t in rules.treasures)
    for kind in HAZARDS:
        deck[kind] = rules.hazard_copies - (removed or Counter())[kind]
    deck["relic"] = relics
    return +deck


def snapshot(state: ExpeditionState) -> str:
    """Everything observable about a state, as one string: record, every view, internals."""
    return json.dumps(
        {
            "record": state.record().to_json(),
            "views": [state.view(seat).to_json() for seat in range(state.seats)] + [state.view(None).to_json()],
            "pending": sorted(state.choices.items()),
            "to_act": sorted(state.to_act()),
            "phase": state.phase,
            "cave": state.cave,
            "inside": list(state.inside),
            "pile": list(state.pile),
            "deck": list(state.deck),
            "path": list(state.path),
            "path_gems": list(state.path_gems),
            "carried": list(state.carried),
            "chest": list(state.chest),
            "relics_held": state.relics_held,
            "counters": [
                state.revealed,
                state.lost,
                state.returned,
                state.relics_revealed,
                state.relics_left,
                state.relics_out,
                state.relics_in_deck,
            ],
            "rng": repr(state.rng.getstate()),
        },
        sort_keys=True,
    )


def views_json(state: ExpeditionState) -> str:
    return json.dumps([state.view(seat).to_json() for seat in range(state.seats)] + [state.view(None).to_json()])


def check_conservation(state: ExpeditionState) -> None:
    """Gems and relics are never created or destroyed."""
    assert state.revealed == (
        sum(state.carried) + sum(state.chest) + sum(state.path_gems) + state.lost + state.returned
    )
    joined = state.cave if state.rules.relics else 0
    assert joined == state.relics_in_deck + state.relics_revealed
    on_path_now = state.path.count(RELIC) if state.phase == "choose" else 0
    assert state.relics_revealed == state.relics_out + state.relics_left + on_path_now
    assert state.relics_out == sum(len(held) for held in state.relics_held)
    assert [sum(held) for held in state.relics_held] == state.relic_points
    totals = [c + r for c, r in zip(state.chest, state.relic_points, strict=True)]
    last_played = max((seat for seat in range(state.seats) if state.played[seat]), default=-1)
    assert state.scores() == totals[: last_played + 1]  # the seats that played; no phantom zeros after them
    assert not any(totals[last_played + 1 :])
    assert all(state.carried[seat] == 0 for seat in range(state.seats) if seat not in state.inside)
    assert min(state.path_gems, default=0) >= 0
    assert state.lost >= 0 and state.returned >= 0


def consistent_script(rules: ExpeditionRules, rng: random.Random, cut: float = 0.15) -> list[list[str]]:
    """A scripted deck per cave that never names a card the cave does not hold, whatever is chosen.

    Each cave is a shuffle of the smallest deck that cave can have (as if every
    collapse in the script happened and every scripted relic was revealed), cut
    after its first collapse; now and then it is cut short so that the script
    runs out with explorers inside.
    """
    deck = Counter(rules.base_deck())
    relics = 0
    script: list[list[str]] = []
    for _ in range(rules.caves):
        if rules.relics:
            relics += 1
        cards = list(deck.elements()) + [RELIC] * relics
        rng.shuffle(cards)
        cave: list[int] = []
        seen: set[int] = set()
        for card in cards:
            cave.append(card)
            if card < 0:
                if card in seen:
                    deck[card] = max(0, deck[card] - rules.collapse_removes)
                    break
                seen.add(card)
        relics -= cave.count(RELIC)
        if rng.random() < cut:
            cave = cave[: rng.randrange(len(cave) + 1)]
        script.append([card_name(card) for card in cave])
    return script


def drive(
    state: ExpeditionState,
    rng: random.Random,
    p_deeper: float = 0.75,
    per_seat: bool = False,
    after: Callable[[ExpeditionState], None] | None = None,
    full_rosters: bool = False,
) -> None:
    """Play ``state`` to its end with random rosters and choices, calling ``after`` after every input."""
    while not state.is_over():
        if state.needs_roster():
            seats = state.seats
            if full_rosters:
                roster = list(range(min(seats, state.rules.max_players)))
            else:
                least = state.rules.min_players if state.cave == 0 else 1
                roster = rng.sample(range(seats), rng.randint(least, min(seats, state.rules.max_players)))
            state.start_round(roster)
        else:
            moves = {seat: DEEPER if rng.random() < p_deeper else CAMP for seat in sorted(state.to_act())}
            if per_seat:
                order = list(moves)
                rng.shuffle(order)
                for seat in order:
                    state.apply(seat, moves[seat])
            else:
                state.apply_joint(moves)
        if after is not None:
            after(state)


def replayed(record: GameRecord) -> ExpeditionState:
    """A game of the expedition rebuilt from its record (``replay`` speaks of any game)."""
    state = replay(record)
    assert isinstance(state, ExpeditionState)
    return state
