"""A view's snapshot (what a user bot in its own process is sent, ``gemtable.lab.userbot``): the same API and
the same ``to_json()`` as the live view at every decision of whole games, through pickle, and nothing secret in
it — the unseen cards in sorted order, no generator, no seed, no bag."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from gemtable.bots import make_bot
from gemtable.games import find_game

EXPEDITION_API = ("carried", "inside", "path_gems", "cards_turned", "relics_on_path", "hazards_seen", "cave", "seat")


@pytest.mark.parametrize(
    ("game", "bots"),
    [("expedition", ["cautious", "odds", "cautious", "odds", "cautious"]), ("booty", ["greedy", "random", "greedy"])],
)
def test_a_snapshot_is_its_view_detached(game: str, bots: list[str]) -> None:
    rules = find_game(game)
    decisions = 0
    # Every decision of whole games: 12 expedition games; 3 of Booty Hunter, whose every decision compares the
    # score after each of its ~100 legal placements (12 games took 40 s of the suite's 10 minutes).
    for seed in range(12 if game == "expedition" else 3):
        state = rules.new({}, len(bots), seed)
        players = [make_bot(game, name) for name in bots]
        rng = random.Random(seed)
        while True:
            acting = state.to_act()
            if not acting and state.needs_roster():
                state.start_round(range(len(bots)))
                continue
            if not acting:
                break
            moves = {}
            for seat in acting:
                view: Any = state.view(seat)
                copy = pickle.loads(pickle.dumps(view.snapshot()))
                assert copy.to_json() == view.to_json()
                legal = state.legal_moves(seat)
                if game == "expedition":
                    assert all(getattr(copy, name) == getattr(view, name) for name in EXPEDITION_API)
                    assert copy.unseen() == view.unseen() and copy.collapse_chance() == view.collapse_chance()
                    assert copy.relic_worth(2) == view.relic_worth(2)
                    hidden = copy._state
                    assert hidden.pile == sorted(hidden.pile) and not hasattr(hidden, "rng")
                    assert not hasattr(hidden, "seed") and set(hidden.deck) <= {0}
                    others = [c for s, c in enumerate(hidden.chest) if s != seat]
                    assert others == [0] * len(others)
                else:
                    assert copy.standing() == view.standing()
                    assert [copy.scores_after(m) for m in legal] == [view.scores_after(m) for m in legal]
                    assert not hasattr(copy._state, "_bag") and not hasattr(copy._state, "seed")
                moves[seat] = players[seat].choose(view, legal, rng)
                decisions += 1
            state.apply_joint(moves)
        for seat in [None, *range(len(bots))]:  # over: everything public, scores and winners too
            assert state.view(seat).snapshot().to_json() == state.view(seat).to_json()
    assert decisions > 100
