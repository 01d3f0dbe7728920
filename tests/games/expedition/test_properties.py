"""Properties over random games: conservation of gems and relics, the deck of every cave, replays,
and per-seat choices against joint ones.  Decks are random (seeded) or scripted."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gemtable.games import GameRecord, replay
from gemtable.games.api import GameError
from gemtable.games.expedition import CAMP, DEEPER, Expedition, ExpeditionRules, rules_for
from gemtable.games.expedition.state import ExpeditionState

from ._helpers import HAZARDS, check_conservation, consistent_script, deck_of, drive, path_names, replayed, snapshot

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "relics": st.booleans(),
        "path_split": st.sampled_from(["pooled", "per_card"]),
        "collapse_removes": st.integers(0, 2),
        "caves": st.integers(1, 6),
    },
)


@st.composite
def rules_strategy(draw: st.DrawFn) -> ExpeditionRules:
    rules = rules_for(draw(st.sampled_from(["table", "classic"])), draw(OPTIONS))
    if draw(st.booleans()):
        values = draw(st.lists(st.integers(0, 12), min_size=1, max_size=6))
        rules = ExpeditionRules.from_json({**rules.to_json(), "relic_values": values})
    return rules


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(rules_strategy())
    seats = draw(st.integers(max(2, rules.min_players), 10))
    seed = draw(st.integers(0, 2**32 - 1))
    script = consistent_script(rules, random.Random(seed)) if draw(st.booleans()) else None
    return {
        "rules": rules,
        "seats": seats,
        "seed": seed,
        "script": script,
        "choices": draw(st.integers(0, 2**32 - 1)),
        "p_deeper": draw(st.sampled_from([0.4, 0.75, 0.9, 1.0])),
    }


def start(game: dict[str, Any]) -> ExpeditionState:
    return Expedition.new(game["rules"], game["seats"], game["seed"], game["script"])


def relic_names(state: ExpeditionState) -> list[str]:
    return ["relic" if name == "relic-taken" else name for name in path_names(state)]


class Tracker:
    """An independent account of a game, checked after every input."""

    def __init__(self, state: ExpeditionState) -> None:
        self.rules = state.rules
        self.cave = 0
        self.closed = 0
        self.removed: Counter[str] = Counter()
        self.relics = 0
        self.expected: Counter[str] = Counter()
        self.treasure = 0
        self.chests = list(state.chest)
        self.collapses = 0

    def __call__(self, state: ExpeditionState) -> None:
        rules = self.rules
        check_conservation(state)
        if state.cave > self.cave:  # a cave opened: its deck is the rules' deck
            assert state.cave == self.cave + 1 == self.closed + 1
            self.cave = state.cave
            if rules.relics:
                self.relics += 1
            self.expected = deck_of(rules, relics=self.relics, removed=self.removed)
            assert Counter(relic_names_of(state.cave_deck())) == self.expected
        path = relic_names(state)
        # Whatever was turned came out of this cave's deck; the rest is still unseen.
        assert Counter(relic_names_of(state.pile)) + Counter(path) == self.expected
        open_treasure = sum(int(name) for name in path if name.isdigit())
        if state.phase != "choose" and self.closed < self.cave:  # the cave just ended
            self.closed = self.cave
            self.treasure += open_treasure
            open_treasure = 0
            self.relics -= path.count("relic")
            last = path[-1] if path else None
            if last in HAZARDS and path.count(last) >= 2:
                self.collapses += 1
                assert state.collapsed_by is not None and path.count(last) == 2
                self.removed[last] += min(rules.collapse_removes, rules.hazard_copies - self.removed[last])
            else:
                assert state.collapsed_by is None
            assert Counter(relic_names_of(state.deck)) == deck_of(rules, removed=self.removed)
            assert state.inside == [] and state.to_act() == frozenset()
        relics_now = path.count("relic") if state.phase == "choose" else 0
        assert state.relics_in_deck == self.relics - relics_now
        assert state.revealed == self.treasure + open_treasure
        assert all(now >= then for now, then in zip(state.chest, self.chests, strict=True))
        self.chests = list(state.chest)
        assert sum(state.relic_points) == sum(rules.relic_value(n) for n in range(state.relics_out))
        assert state.is_over() == (self.closed == rules.caves)


def relic_names_of(cards: list[int]) -> list[str]:
    from gemtable.games.expedition import card_name

    return [card_name(card) for card in cards]


@SETTINGS
@given(games())
def test_gems_relics_and_decks_are_conserved(game: dict[str, Any]) -> None:
    state = start(game)
    tracker = Tracker(state)
    drive(state, random.Random(game["choices"]), p_deeper=game["p_deeper"], after=tracker)
    assert state.is_over() and tracker.closed == game["rules"].caves
    scores = state.scores()
    winners = state.winners()
    assert winners and all(scores[w] == max(scores[s] for s in range(state.seats) if state.played[s]) for w in winners)


@SETTINGS
@given(games(), st.integers(0, 400), st.booleans())
def test_replays_are_exact(game: dict[str, Any], stop: int, per_seat: bool) -> None:
    state = start(game)
    marks: list[tuple[GameRecord, str]] = []

    def mark(state: ExpeditionState) -> None:
        if len(marks) < stop % 7 + 1 and random.Random(stop + len(state.inputs)).random() < 0.2:
            marks.append((state.record(), views(state)))

    drive(state, random.Random(game["choices"]), p_deeper=game["p_deeper"], per_seat=per_seat, after=mark)
    marks.append((state.record(), views(state)))
    for record, seen in marks:
        again = replayed(record)
        assert views(again) == seen
        assert again.record().to_json() == record.to_json()
        through_json = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
        assert through_json == record
        assert views(replayed(through_json)) == seen
    final = replay(state.record())
    assert final.is_over()
    assert final.scores() == state.scores() and final.winners() == state.winners()
    assert state.record().scores == state.scores() and state.record().winners == state.winners()


def views(state: ExpeditionState) -> str:
    return json.dumps([state.view(seat).to_json() for seat in [*range(state.seats), None]])


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1))
def test_per_seat_choices_and_joint_choices_reach_the_same_state(game: dict[str, Any], order_seed: int) -> None:
    one, joint = start(game), start(game)
    rng, order_rng = random.Random(game["choices"]), random.Random(order_seed)
    while not one.is_over():
        assert one.to_act() == joint.to_act() and one.needs_roster() == joint.needs_roster()
        if one.needs_roster():
            roster = range(min(one.seats, one.rules.max_players))
            one.start_round(roster)
            joint.start_round(roster)
        else:
            moves = {seat: DEEPER if rng.random() < game["p_deeper"] else CAMP for seat in sorted(one.to_act())}
            order = list(moves)
            order_rng.shuffle(order)
            # Some seats choose one by one, the rest (maybe all) in one joint call.
            split = order_rng.randint(0, len(order))
            for seat in order[:split]:
                one.apply(seat, moves[seat])
            if split < len(order):
                one.apply_joint({seat: moves[seat] for seat in order[split:]})
            joint.apply_joint(moves)
        assert snapshot(one) == snapshot(joint)
    assert joint.is_over()


ILLEGAL = ["not_inside", "chosen_twice", "bad_move", "roster", "joint_short", "unknown"]


@settings(max_examples=30, deadline=None)
@given(games(), st.lists(st.sampled_from(ILLEGAL), min_size=1, max_size=4))
def test_illegal_inputs_anywhere_change_nothing(game: dict[str, Any], attempts: list[str]) -> None:
    state = start(game)
    rng = random.Random(game["choices"])

    def poke(state: ExpeditionState) -> None:
        for attempt in attempts:
            before = snapshot(state)
            try:
                illegal(state, attempt, rng)
            except GameError:
                pass
            else:
                raise AssertionError(f"{attempt} was accepted")
            assert snapshot(state) == before

    drive(state, rng, p_deeper=game["p_deeper"], per_seat=True, after=poke)


def illegal(state: ExpeditionState, attempt: str, rng: random.Random) -> None:
    outside = [seat for seat in range(state.seats) if seat not in state.to_act()]
    if attempt == "not_inside" and outside:
        state.apply(rng.choice(outside), rng.choice([DEEPER, CAMP]))
    elif attempt == "chosen_twice" and state.choices:
        state.apply(rng.choice(sorted(state.choices)), CAMP)
    elif attempt == "bad_move" and state.to_act():
        state.apply(min(state.to_act()), rng.choice(["", "Camp", "run", "deeper!"]))
    elif attempt == "roster" and not state.needs_roster():
        state.start_round(range(min(state.seats, 2)))
    elif attempt == "joint_short" and len(state.to_act()) > 1:
        state.apply_joint({min(state.to_act()): DEEPER})
    else:
        state.apply(state.seats + rng.randint(0, 3), CAMP)


@SETTINGS
@given(games())
def test_the_views_built_together_are_each_seats_own_view(game: dict[str, Any]) -> None:
    """``views_split`` (the server's broadcast: what the seats share built once, then each one's own keys) gives
    every seat, and a spectator, exactly its own ``view(seat).to_json()`` after every step of a game — its own
    chest to it alone."""
    state = start(game)
    steps = 0

    def check(state: ExpeditionState) -> None:
        nonlocal steps
        steps += 1
        seats: list[int | None] = [None, *range(state.seats), 0]
        shared, own = state.views_split(seats)
        assert set(own) == set(seats)
        for seat in seats:
            assert not shared.keys() & own[seat].keys()  # (the server splices the two encoded: no key twice)
            whole = {**shared, **own[seat]}
            assert json.dumps(whole) == json.dumps(state.view(seat).to_json())  # (the same keys in the same order)

    drive(state, random.Random(game["choices"]), p_deeper=game["p_deeper"], after=check)
    assert steps > 0
