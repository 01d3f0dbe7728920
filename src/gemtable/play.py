"""Play whole games between bots: the loop shared by the simulator and the benchmarks.

Nothing here knows a game's name or rules: it speaks only the game API.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gemtable.bots import make_bot
from gemtable.games import GameState, find_game
from gemtable.games.api import JSON


def play_bots(game: str, rules: JSON, bots: Sequence[str], seed: int) -> GameState:
    """One whole game, seat ``i`` played by the bot ``bots[i]``; every seat walks into every round.

    The bots' own randomness comes from a generator seeded from ``seed`` too, so
    the game is reproducible.
    """
    state = find_game(game).new(rules, len(bots), seed)
    deciders = {seat: (make_bot(game, name).choose, state.view(seat)) for seat, name in enumerate(bots)}
    rng = random.Random(~seed)
    roster = range(len(bots))
    legal_moves = state.legal_moves
    while True:
        acting = state.to_act()
        if acting:
            moves = {}
            for seat in acting:
                choose, view = deciders[seat]
                moves[seat] = choose(view, legal_moves(seat), rng)
            state.apply_joint(moves)
        elif state.needs_roster():
            state.start_round(roster)
        else:
            return state
