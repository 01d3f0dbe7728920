"""The bots and the simulation report."""

from __future__ import annotations

import argparse
import json
import random

import pytest

from gemtable.bots import bot_names, make_bot
from gemtable.games.booty import BootyHunter
from gemtable.games.booty.report import print_report, simulate


def test_both_bots_are_registered() -> None:
    assert {"random", "greedy"} <= set(bot_names("booty"))


def test_bots_choose_legal_placements_and_greedy_takes_the_best() -> None:
    state = BootyHunter.new({}, 3, 14)
    state.start_round([0, 1, 2])
    bots = {name: make_bot("booty", name) for name in ("random", "greedy")}
    rng = random.Random(0)
    while not state.is_over():
        (seat,) = state.to_act()
        view, moves = state.view(seat), state.legal_moves(seat)
        assert bots["random"].choose(view, moves, rng) in moves
        chosen = bots["greedy"].choose(view, moves, rng)
        best = max(view.scores_after(move)[seat] for move in moves)
        assert view.scores_after(chosen)[seat] == best
        state.apply(seat, chosen)


def test_the_report_is_deterministic_for_a_seed_and_has_its_figures() -> None:
    first = simulate(4, 7, ["random"])
    assert first == simulate(4, 7, ["random"])
    assert first["games"] == 4
    for key in ("unfit_fraction", "diamonds_per_game", "points_per_player", "winner_changed_fraction"):
        assert key in first
    assert set(first["points_per_player"]) == {"1", "2"}
    for reading in ("touching_void", "tie_none"):  # the other reading of each open point, measured
        figures = first["readings"][reading]
        assert 0 <= figures["diamonds_changed_fraction"] <= 1 and 0 <= figures["winner_changed_fraction"] <= 1
    mixed = simulate(2, 7, ["greedy", "random", "random"])
    assert mixed["bots"] == ["greedy", "random", "random"]


def test_the_simulate_command_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(games=2, seed=3, bots="random", preset="largest-area", json=True)
    assert print_report(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == simulate(2, 3, ["random"], 2)
    assert printed["mode_played"] == 2
