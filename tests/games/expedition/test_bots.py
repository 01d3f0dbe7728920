"""The expedition's bots: legal moves from a view, whole games, and the decisions they promise."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gemtable.bots import bot_names, make_bot
from gemtable.games import GameError, replay
from gemtable.games.expedition import CAMP, DEEPER, Expedition, ExpeditionRules, rules_for
from gemtable.games.expedition.bots import CautiousBot, MonteCarloBot, OddsBot
from gemtable.games.expedition.state import ExpeditionState

BOTS = ["random", "cautious", "odds", "montecarlo"]


def scripted(cards: list[str], explorers: int = 1, **rules: Any) -> ExpeditionState:
    """A cave of ``explorers`` turned up to the last of ``cards``, everyone going deeper."""
    options = {"min_players": 1, **rules}
    state = Expedition.new(ExpeditionRules.from_json(options), explorers, 0, [[*cards, "2", "1"]])
    state.start_round(range(explorers))
    while len(state.path) < len(cards):
        state.apply_joint(dict.fromkeys(state.inside, DEEPER))
    assert state.phase == "choose"
    return state


def decide(name: str | Any, state: ExpeditionState, seat: int = 0, seed: int = 0) -> str:
    bot = make_bot("expedition", name) if isinstance(name, str) else name
    before = json.dumps(state.record().to_json()) + json.dumps(state.view(None).to_json()) + repr(state.pile)
    move = bot.choose(state.view(seat), state.legal_moves(seat), random.Random(seed))
    after = json.dumps(state.record().to_json()) + json.dumps(state.view(None).to_json()) + repr(state.pile)
    assert after == before, "a bot only reads its view"
    return move


def test_the_registry_knows_the_four_bots() -> None:
    assert set(BOTS) <= set(bot_names("expedition"))
    for name in BOTS:
        assert make_bot("expedition", name).name == name
    with pytest.raises(GameError):
        make_bot("expedition", "oracle")


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("players", [2, 8])
def test_a_bot_plays_whole_games_with_legal_moves(name: str, players: int) -> None:
    for seed in range(2 if name == "montecarlo" else 6):
        preset = "classic" if seed % 2 and players >= 3 else "table"
        state = Expedition.new(rules_for(preset), players, seed)
        bots = [make_bot("expedition", name) for _ in range(players)]
        views = [state.view(seat) for seat in range(players)]
        rng = random.Random(seed)
        decisions = 0
        while not state.is_over():
            if state.needs_roster():
                state.start_round(range(players))
                continue
            for seat in sorted(state.to_act()):
                legal = state.legal_moves(seat)
                move = bots[seat].choose(views[seat], legal, rng)
                assert move in legal
                state.apply(seat, move)
                decisions += 1
        assert decisions >= players * 5
        assert state.revealed == sum(state.chest) + state.lost + state.returned
        assert replay(state.record()).scores() == state.scores()


@pytest.mark.parametrize("name", BOTS)
def test_a_bot_answers_from_a_fresh_view_of_any_situation(name: str) -> None:
    for cards in (["3"], ["17", "snakes", "spiders"], ["relic", "9", "fire"]):
        state = scripted(cards, explorers=3)
        for seat in range(3):
            assert decide(name, state, seat) in (DEEPER, CAMP)


def test_the_random_bot_picks_among_the_moves_it_is_given() -> None:
    state = scripted(["5"], explorers=2)
    moves = {decide("random", state, seed=seed) for seed in range(30)}
    assert moves == {DEEPER, CAMP}
    assert make_bot("expedition", "random").choose(state.view(0), [CAMP], random.Random(1)) == CAMP


def test_cautious_walks_out_at_its_threshold() -> None:
    state = scripted(["15"], explorers=2, treasures=[15, 2])  # 7 each
    assert state.carried[0] == 7
    assert decide("cautious", state) == DEEPER
    state.apply_joint({0: DEEPER, 1: DEEPER})
    assert state.carried[0] == 8 and state.path[-1] > 0
    assert decide("cautious", state) == CAMP
    assert decide(CautiousBot(threshold=9), state) == DEEPER
    assert decide(CautiousBot(threshold=3), scripted(["3"])) == CAMP


def test_cautious_ignores_the_danger_below_its_threshold() -> None:
    cards = ["3", "snakes", "spiders", "mummies", "fire", "rockfall"]
    state = scripted(cards, treasures=[3], hazard_copies=2, relics=False)
    assert state.view(0).collapse_chance() == 1.0
    assert decide("cautious", state) == DEEPER


def odds_rule(state: ExpeditionState, seat: int = 0) -> tuple[float, float]:
    """The odds bot's promise, computed from the state: (expected loss, expected gain) of one more card."""
    rules, inside = state.rules, len(state.inside)
    out = state.relics_out
    on_path = sum(1 for card in state.path if card == 0)
    relics_now = sum(rules.relic_value(out + i) for i in range(on_path))
    take_now = state.carried[seat] + sum(state.path_gems) + relics_now
    next_relic = rules.relic_value(out + on_path)
    unseen = state.pile
    seen_kinds = {card for card in state.path if card < 0}
    deadly = sum(1 for card in unseen if card in seen_kinds)
    gain = sum(card // inside if card > 0 else next_relic / inside if card == 0 else 0 for card in unseen)
    return deadly / len(unseen) * take_now, gain / len(unseen)


@pytest.mark.parametrize(
    ("second_treasure", "move"),
    [(1, CAMP), (11, CAMP), (13, DEEPER), (40, DEEPER)],
    ids=["loss-far-above-gain", "loss-above-gain", "gain-above-loss", "gain-far-above-loss"],
)
def test_odds_weighs_the_chance_of_collapse_against_the_gain(second_treasure: int, move: str) -> None:
    # One explorer carries 12; the unseen: one other treasure and nine hazards, one of them deadly.
    state = scripted(["12", "snakes"], treasures=[12, second_treasure], hazard_copies=2, relics=False)
    loss, gain = odds_rule(state)
    assert loss == pytest.approx(12 / 10) and gain == pytest.approx(second_treasure / 10)
    assert decide("odds", state) == move


def test_odds_walks_out_of_a_dangerous_table_cave() -> None:
    state = Expedition.new(rules_for("table"), 2, 0, [["17", "snakes", "spiders", "mummies", "fire", "rockfall"]])
    state.start_round([0, 1])
    while len(state.path) < 6:
        state.apply_joint({0: DEEPER, 1: DEEPER})
    loss, gain = odds_rule(state)
    assert loss > gain * 1.5
    assert decide("odds", state) == CAMP and decide("odds", state, seat=1) == CAMP


def test_odds_counts_a_relic_on_the_path_as_something_to_lose() -> None:
    state = scripted(["10", "relic", "snakes"], treasures=[10, 12], hazard_copies=2)
    loss, gain = odds_rule(state)
    assert loss == pytest.approx(1.5) and gain == pytest.approx(1.2)
    assert gain > 10 / 10, "without the relic it would have gone deeper"
    assert decide("odds", state) == CAMP


def test_odds_goes_deeper_at_zero_risk_however_much_it_carries() -> None:
    state = Expedition.new(rules_for("table"), 2, 0, [["17", "15", "14", "13", "11", "snakes"]])
    state.start_round([0, 1])
    for _ in range(5):
        assert state.view(0).collapse_chance() == 0.0
        assert decide("odds", state) == DEEPER
        state.apply_joint({0: DEEPER, 1: DEEPER})
    assert state.carried == [33, 33]


def test_odds_and_montecarlo_walk_out_when_nothing_is_left_to_turn() -> None:
    cards = ["5", "snakes", "spiders", "mummies", "fire", "rockfall", "relic"]
    state = scripted(cards, treasures=[5], hazard_copies=1)  # every card of the deck turned
    assert state.phase == "choose" and state.view(0).unseen() == []
    assert decide("odds", state) == CAMP
    assert decide("montecarlo", state) == CAMP


def test_montecarlo_walks_out_when_every_next_card_is_deadly() -> None:
    state = scripted(["10", "snakes", "spiders", "mummies", "fire", "rockfall"], treasures=[10], hazard_copies=2)
    assert state.view(0).collapse_chance() == pytest.approx(6 / 6 * 5 / 6)  # five deadly, one relic
    state = scripted(
        ["10", "snakes", "spiders", "mummies", "fire", "rockfall"], treasures=[10], hazard_copies=2, relics=False
    )
    assert state.view(0).collapse_chance() == 1.0
    for seed in range(3):
        assert decide("montecarlo", state, seed=seed) == CAMP
    assert decide("odds", state) == CAMP


def test_montecarlo_goes_deeper_when_no_collapse_is_possible() -> None:
    state = scripted(["5", "snakes"], treasures=[5, 9, 13], hazard_copies=1, relics=False)
    for seed in range(3):
        assert decide("montecarlo", state, seed=seed) == DEEPER
    assert decide(MonteCarloBot(samples=20, horizon=2), state) == DEEPER
    assert decide(OddsBot(), state) == DEEPER
