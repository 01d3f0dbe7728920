"""Figures from many games played by bots: does the tile set play well?

Not part of the rules: it drives games with bots and counts.  Deterministic for a
seed: every game seed and every bot's generator come from one
``random.Random(seed)``.

It lives next to the bots (the rules never import a bot); the game's manifest names it as its
report, so ``gemtable simulate booty --games 2000 --seed 1 --bots random --json`` runs it, as does
``python -m gemtable.games.booty.report --games 2000 --seed 1 --bots random --json``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gemtable.bots import Bot, make_bot
from gemtable.games.booty.game import BootyHunter
from gemtable.games.booty.rules import PLAYERS, rules_for
from gemtable.games.booty.scoring import MODES, Counting, count, totals
from gemtable.games.booty.state import BootyState

NAME = BootyHunter.name


@dataclass(frozen=True)
class GameFigures:
    """What one finished game showed."""

    draws: int
    set_aside: int
    placements: int
    diamonds: int
    scores: dict[int, list[int]]
    """Final scores under each mode, whichever mode the bots played for."""
    readings: dict[str, list[int]]
    """Final scores under the other reading of each open point: ``void`` (a diamond touching a diamond scores
    nothing; mode 1) and ``none`` (a tie for the largest area scores nothing; mode 2)."""
    voided: int
    """Diamonds that score under the usual reading and not when a diamond touching a diamond is void."""
    untied: int
    """Diamonds (mode 2) whose count changes when tied largest areas score nothing."""

    def winner_changed(self) -> bool:
        return _winners(self.scores[1]) != _winners(self.scores[2])

    def reading_changes_winner(self, reading: str) -> bool:
        usual = self.scores[1] if reading == "void" else self.scores[2]
        return _winners(usual) != _winners(self.readings[reading])


def play(seed: int, bots: Sequence[Bot], rngs: Sequence[random.Random], mode: int = 1) -> BootyState:
    """One whole game, each seat played by its bot."""
    state = BootyHunter.new({"scoring": mode}, PLAYERS, seed)
    state.start_round(range(PLAYERS))
    while not state.is_over():
        (seat,) = state.to_act()
        move = bots[seat].choose(state.view(seat), state.legal_moves(seat), rngs[seat])
        state.apply(seat, move)
    return state


def figures(state: BootyState) -> GameFigures:
    board = state.board
    usual, void = count(board, Counting(1)), count(board, Counting(1, touching="void"))
    largest, none = count(board, Counting(2)), count(board, Counting(2, tie="none"))
    return GameFigures(
        draws=state.draws,
        set_aside=len(state.set_aside),
        placements=state.placements,
        diamonds=len(board.diamonds()),
        scores={mode: totals(board, mode) for mode in MODES},
        readings={"void": void.totals, "none": none.totals},
        voided=sum(
            1 for a, b in zip(usual.diamonds, void.diamonds, strict=True) if any(a.scoring) and not any(b.scoring)
        ),
        untied=sum(1 for a, b in zip(largest.diamonds, none.diamonds, strict=True) if a.scoring != b.scoring),
    )


def simulate(games: int, seed: int, bots: Sequence[str], mode: int = 1) -> dict[str, Any]:
    """Play ``games`` games with ``bots`` (one name for every seat, or one per seat) and sum up.

    Keys: ``games``, ``seed``, ``bots``, ``mode_played``, ``draws``, ``unfit_draws``,
    ``unfit_fraction`` (drawn tiles that fitted nowhere), ``placements_per_game``,
    ``diamonds_per_game`` (mean), ``diamonds_max``, ``points_per_player`` and
    ``points_per_seat`` (means, by mode ``"1"`` / ``"2"``), ``winner_changed`` (games whose
    winners differ between the modes), ``winner_changed_fraction``, and ``readings``: for each open
    point's other reading, the fraction of diamonds it changes and of games whose winner it changes.
    """
    names = list(bots) * PLAYERS if len(bots) == 1 else list(bots)
    if len(names) != PLAYERS or games < 1:
        raise ValueError("give one bot name, or one per seat, and at least one game")
    master = random.Random(seed)
    played = []
    for _ in range(games):
        game_seed = master.randrange(2**32)
        rngs = [random.Random(master.randrange(2**32)) for _ in range(PLAYERS)]
        played.append(figures(play(game_seed, [make_bot(NAME, name) for name in names], rngs, mode)))
    return _summary(played, seed, names, mode)


def _summary(played: list[GameFigures], seed: int, names: list[str], mode: int) -> dict[str, Any]:
    games = len(played)
    draws = sum(game.draws for game in played)
    unfit = sum(game.set_aside for game in played)
    changed = sum(1 for game in played if game.winner_changed())
    return {
        "games": games,
        "seed": seed,
        "bots": names,
        "mode_played": mode,
        "draws": draws,
        "unfit_draws": unfit,
        "unfit_fraction": round(unfit / draws, 4),
        "placements_per_game": round(sum(game.placements for game in played) / games, 2),
        "diamonds_per_game": round(sum(game.diamonds for game in played) / games, 2),
        "diamonds_max": max(game.diamonds for game in played),
        "points_per_player": {
            str(m): round(sum(sum(game.scores[m]) for game in played) / (games * PLAYERS), 2) for m in MODES
        },
        "points_per_seat": {
            str(m): [round(sum(game.scores[m][seat] for game in played) / games, 2) for seat in range(PLAYERS)]
            for m in MODES
        },
        "winner_changed": changed,
        "winner_changed_fraction": round(changed / games, 4),
        "readings": {
            "touching_void": _reading(played, "void", sum(game.voided for game in played)),
            "tie_none": _reading(played, "none", sum(game.untied for game in played)),
        },
    }


def _reading(played: list[GameFigures], reading: str, diamonds: int) -> dict[str, float]:
    games, total = len(played), sum(game.diamonds for game in played)
    changed = sum(1 for game in played if game.reading_changes_winner(reading))
    return {
        "diamonds_changed_fraction": round(diamonds / max(1, total), 4),
        "winner_changed_fraction": round(changed / games, 4),
    }


def _winners(scores: list[int]) -> list[int]:
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def print_report(args: argparse.Namespace) -> int:
    """``gemtable simulate booty``: play, then print the figures (JSON with ``--json``).

    Reads ``games``, ``seed``, ``bots`` (comma-separated, default ``random``),
    ``preset`` (the mode the bots play for; default ``every-area``) and ``json``.
    """
    bots = str(args.bots).split(",") if getattr(args, "bots", None) else ["random"]
    mode = rules_for(getattr(args, "preset", None) or "every-area").scoring
    report = simulate(int(args.games), int(args.seed), bots, mode)
    if getattr(args, "json", False):
        print(json.dumps(report, indent=2))
    else:
        print(_as_text(report))
    return 0


def _as_text(report: dict[str, Any]) -> str:
    lines = [f"Booty Hunter: {report['games']} games, bots {', '.join(report['bots'])}, seed {report['seed']}"]
    lines += [
        f"  {key.replace('_', ' ')}: {value}" for key, value in report.items() if key not in ("games", "bots", "seed")
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Booty Hunter: figures from games played by bots")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random", help="one bot name, or three comma-separated")
    parser.add_argument("--preset", default="every-area", help="the mode the bots play for")
    parser.add_argument("--json", action="store_true")
    return print_report(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["GameFigures", "figures", "main", "play", "print_report", "simulate"]
