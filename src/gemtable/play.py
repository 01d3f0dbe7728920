"""Play whole games between bots: the loop shared by the simulator and the benchmarks.

Nothing here knows a game's name or rules: it speaks only the game API, the same
calls the table makes (``to_act``, ``legal_moves``, ``view``, ``apply_joint``,
``start_round``).  The loop is the hot path of ``gemtable simulate`` and of
``gemtable bench engine``: each seat's bound ``choose`` and its live view are
looked up once per game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from gemtable.bots import Bot, make_bot
from gemtable.games import GameState, find_game
from gemtable.games.api import JSON, Move

Chooser = Callable[[Any, Sequence[Move], random.Random], Move]


def play_bots(game: str, rules: JSON, bots: Sequence[str | Bot], seed: int) -> GameState:
    """One whole game, seat ``i`` played by the bot ``bots[i]`` (a name or a bot); every seat walks
    into every round.

    The bots' own randomness comes from a generator seeded from ``seed`` too, so
    the game is reproducible.
    """
    state = find_game(game).new(rules, len(bots), seed)
    players = [make_bot(game, bot) if isinstance(bot, str) else bot for bot in bots]
    return play_state(state, [bot.choose for bot in players], random.Random(~seed))


def play_state(state: GameState, choosers: Sequence[Chooser], rng: random.Random) -> GameState:
    """Play ``state`` to its end, seat ``i`` deciding with ``choosers[i]``."""
    seats = range(len(choosers))
    deciders = [(choose, state.view(seat)) for seat, choose in enumerate(choosers)]
    to_act, legal_moves, apply_joint = state.to_act, state.legal_moves, state.apply_joint
    while True:
        acting = to_act()
        if acting:
            moves = {}
            for seat in acting:
                choose, view = deciders[seat]
                moves[seat] = choose(view, legal_moves(seat), rng)
            apply_joint(moves)
        elif state.needs_roster():
            state.start_round(seats)
        else:
            return state
