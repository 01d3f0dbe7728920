"""The shared checks speak of every game through its probes: a Booty Hunter record reads as well as an
expedition's (``moves_by_decision`` used to read ``state.cave`` and raised ``AttributeError`` on one), and a
record that was tampered with is caught."""

from __future__ import annotations

from typing import Any

import pytest

from gemtable.games import find_manifest
from gemtable.play import play_bots
from tools.oracles import moves_by_decision, probes, record_problems, view_problems


@pytest.mark.parametrize("game", ["expedition", "booty"])
def test_a_record_of_any_game_is_read_by_decision_and_checked(game: str) -> None:
    manifest = find_manifest(game)
    rules = manifest.rules_json(None, {})
    state = play_bots(game, rules, [manifest.stand_in] * manifest.game.min_seats, seed=3)
    record = state.record().to_json()
    assert record_problems(record, state.scores()) == ([], 0)
    held = moves_by_decision(record)
    moves = [item for item in record["inputs"] if item[0] != "round"]
    assert sum(len(by_decision) for by_decision in held.values()) == len(moves)
    for seat, move in moves:
        assert move in held[seat].values()
    tampered = {**record, "scores": [score + 1 for score in record["scores"]]}
    problems, lost = record_problems(tampered)
    assert problems and lost == len(record["scores"])
    broken = {**record, "inputs": record["inputs"][:-1]}
    assert record_problems(broken)[0], "a record that does not finish its game"
    assert probes(game).decision(state.view(None).to_json())


def test_a_view_that_shows_what_it_must_not_is_caught_whatever_the_game() -> None:
    state = play_bots("booty", find_manifest("booty").rules_json(None, {}), ["random"] * 3, seed=1)
    game = state.view(0).to_json()
    view: dict[str, Any] = {**game, "over": True, "scores": None, "winners": None}
    table: dict[str, Any] = {"phase": "playing", "people": [], "me": {"id": 1, "seat": 0}, "state": view}
    assert any("end" in problem for problem in view_problems(table))  # the game says it is over, the table says not
    view["deck"] = [1, 2, 3]
    assert "a view carries 'deck'" in view_problems(table)
    view["game"] = "no-such-game"
    assert any("no-such-game" in problem for problem in view_problems(table))
    table["me"] = {"id": 1, "seat": 0, "host": False, "extra_time": {"2": 3}}  # (issue 41: the host's list alone)
    assert "someone who is not the host is shown who has extra time" in view_problems(table)
