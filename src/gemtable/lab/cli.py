"""``gemtable simulate``: a tournament between bots, built-in or your own, with intervals and a report."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any

from gemtable.games import GameError, default_game, find_manifest, game_part
from gemtable.lab.tournament import Results, Stopped, Tournament, check_bots, run, run_until
from gemtable.lab.userbot import BotFailure, parse_spec

FIRST_ROUND = {False: 1000, True: 20_000}
CAP = {False: 32_000, True: 400_000}
"""Games in the first round and the cap of a sequential run, by batch mode."""

_SWEEP = re.compile(r"(threshold|gems|cards|hazards)=(\d{1,3})\.\.(\d{1,3})")


def sweep_names(text: str) -> list[str]:
    """``threshold=2..15`` → the bots ``threshold=2`` … ``threshold=15``."""
    match = _SWEEP.fullmatch(text.strip())
    if match is None:
        raise GameError(f"a sweep is KEY=LOW..HIGH with KEY threshold, gems, cards or hazards, not {text!r}")
    key, low, high = match[1], int(match[2]), int(match[3])
    if not 0 <= low <= high or high - low > 40:
        raise GameError("a sweep runs from LOW to HIGH, at most 41 values")
    return [f"{key}={value}" for value in range(low, high + 1)]


def _players(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise GameError(f"players must be a number or a range like 2-8, not {text!r}") from None


def build(args: argparse.Namespace) -> tuple[Tournament, list[str]]:
    """The tournament the arguments describe, and the sweep's bots (if any)."""
    from gemtable.bots import bot_names

    manifest = find_manifest(args.game or default_game())
    game = manifest.game
    user = [parse_spec(spec) for spec in args.bot]
    swept = sweep_names(args.sweep) if args.sweep else []
    if swept and manifest.batch is None:
        raise GameError(f"{game.name} has no family of threshold bots to sweep")
    if args.bots:
        bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    elif swept and args.batch:
        bots = []  # the sweep plays itself (the default opponents include bots the batch cannot play)
    elif user or swept:
        bots = list(manifest.sparring)  # who a user bot or a sweep plays against when --bots is not given
    else:
        bots = bot_names(game.name)
    names = [*bots, *(name for name in swept if name not in bots)]
    for spec in user:
        if spec.name in names:
            raise GameError(f"two bots are called {spec.name!r}: rename your file or function")
        names.append(spec.name)
    if len(set(names)) != len(names):
        raise GameError("a bot is named twice")
    check_bots(game.name, names, user)
    low, high = _players(args.players) if args.players else (game.min_seats, game.max_seats)
    if not game.min_seats <= low <= high <= game.max_seats:
        raise GameError(f"{game.name} takes {game.min_seats} to {game.max_seats} players")
    if args.games is not None and args.games < 1:
        raise GameError("--games must be at least 1")
    if args.time_limit <= 0:
        raise GameError("--time-limit must be positive")
    rules = manifest.rules_json(manifest.preset(args.preset).name, {})
    tournament = Tournament(
        game.name, rules, tuple(names), args.games or 0, low, high, args.seed, tuple(user), args.time_limit
    )
    return tournament, swept


def _runner(
    tournament: Tournament,
    args: argparse.Namespace,
    advance: Callable[[int], None] | None,
) -> Callable[[Tournament, int], Results]:
    if args.batch:
        manifest = find_manifest(tournament.game)
        if manifest.batch is None:
            raise GameError(f"{tournament.game} has no batch mode")
        if tournament.user:
            raise GameError("the batch mode plays threshold bots only, not your own bot (drop --batch)")
        try:
            batch = game_part(manifest, manifest.batch)
        except ImportError:
            raise GameError("the batch mode needs numpy: pip install 'gemtable[lab]'") from None
        play_tournament, rule_of = batch.play_tournament, batch.rule_of
        for name in tournament.bots:
            rule_of(name)
        return lambda t, start: play_tournament(t, start, advance)
    return lambda t, start: run(t, args.jobs, advance, start)


TRUST = (
    "gemtable: a bot file is a program: it runs with your rights (your files, the network). It plays in a process"
    " of its own, sent a copy of its seat's view, so it cannot reach the game; but run only bots you have read"
    " (docs/strategy-lab.md, 'Whose bot')."
)


def simulate(args: argparse.Namespace) -> int:
    manifest = find_manifest(args.game or default_game())
    args.game, game = manifest.name, manifest.game
    if manifest.report and not (args.bot or args.report):  # the game's own report, as its manifest names it
        args.games = args.games or 2000
        report: Callable[[argparse.Namespace], int] = game_part(manifest, manifest.report)
        return report(args)
    tournament, swept = build(args)
    quiet = args.json
    if args.bot:
        print(TRUST, file=sys.stderr)
    started = time.perf_counter()
    try:
        with _progress(quiet) as progress:
            advance = None
            task: Any = None
            if progress is not None:
                task = progress.add_task("games", total=tournament.games or FIRST_ROUND[args.batch])

                def advance(n: int) -> None:
                    progress.advance(task, n)

            runner = _runner(tournament, args, advance)
            if args.games:
                results = runner(tournament, 0)
                stopped = None
            else:
                cap = args.max_games or CAP[args.batch]

                def on_round(played: int, size: int) -> None:
                    if progress is not None:
                        progress.update(task, total=played + size, description=f"round of {size:,} games")

                results, stopped = run_until(
                    tournament, runner, FIRST_ROUND[args.batch], cap, on_round, args.max_seconds
                )
    except BotFailure as failure:
        print(f"gemtable: {failure.text}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    tournament = replace(tournament, games=results.games)
    summary = results.to_json(tournament)
    summary["mode"] = "batch" if args.batch else "engine"
    if stopped is not None:
        summary["stopped"] = {"significant": stopped.significant, "games": stopped.games, "reason": stopped.reason}
    if args.report:
        from gemtable.lab.report import write_report

        try:
            write_report(args.report, game.title, {**summary, "seconds": round(elapsed, 2)}, results, swept)
        except OSError as exc:
            raise GameError(f"cannot write the report {str(args.report)!r}: {exc.strerror or exc}") from None
    if args.json:  # no timing in JSON: the same seed prints the same bytes
        print(json.dumps(summary, indent=2))
        return 0
    summary["seconds"] = round(elapsed, 2)
    _print(game.title, summary, tournament, stopped, args)
    return 0


def _progress(quiet: bool) -> AbstractContextManager[Any]:
    """A bar on a terminal (rich); elsewhere (a pipe, a log file, a CI job) a plain line on stderr now and
    then, so that a long run is never silent.  ``--json`` keeps standard output for the JSON alone."""
    if not quiet and sys.stdout.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        return Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
        )
    return nullcontext(ProgressLines())


class ProgressLines:
    """The few calls of rich's ``Progress`` that :func:`simulate` makes, as a line on stderr at most every
    ``every`` seconds (none for a run shorter than that)."""

    def __init__(self, every: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.started = self.last = clock()
        self.done = 0
        self.total = 0
        self.description = "games"

    def add_task(self, description: str, total: int) -> int:
        self.description, self.total = description, total
        return 0

    def update(self, task: int, total: int | None = None, description: str | None = None) -> None:
        self.total = total if total is not None else self.total
        self.description = description or self.description

    def advance(self, task: int, n: int) -> None:
        self.done += n
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            elapsed = int(now - self.started)
            share = f" ({100 * self.done / self.total:.0f} %)" if self.total else ""
            what = "" if self.description == "games" else f", {self.description}"
            print(
                f"gemtable simulate: {self.done:,} of {self.total:,} games{share}{what}, "
                f"{elapsed // 60} min {elapsed % 60:02d} s",
                file=sys.stderr,
                flush=True,
            )


def _print(title: str, summary: Any, tournament: Tournament, stopped: Stopped | None, args: argparse.Namespace) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    ranked = summary["ranking"]
    low, high = summary["players"]
    table = Table(
        title=title,
        caption=f"{summary['games']:,} games ({summary['mode']}), {low}-{high} players, "
        f"seed {summary['seed']}, {summary['seconds']} s; 95 % intervals",
    )
    for column in ("#", "bot", "seats", "win rate (95 % interval)", "mean score (95 % interval)"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for place, row in enumerate(ranked, start=1):
        figures = summary["bots"][row["bot"]]
        w_low, w_high = figures["win_rate_ci95"]
        m_low, m_high = figures["mean_score_ci95"]
        mark = "" if row["separated_from_next"] is not False else " ≈"
        table.add_row(
            str(place) + mark,
            row["bot"],
            f"{figures['seats']:,}",
            f"{figures['win_rate']:.1%} ({w_low:.1%}–{w_high:.1%})",
            f"{figures['mean_score']:.2f} ({m_low:.2f}–{m_high:.2f})",
        )
    console.print(table)
    if stopped is not None:
        console.print(stopped.reason)
    elif summary["significant"]:
        console.print("The ranking is significant: every neighbour's 95 % interval is apart.")
    else:
        console.print(
            "The ranking is NOT significant: ≈ marks a bot whose interval overlaps the next one's "
            "(play more games, or leave out --games)."
        )
    h2h = summary["head_to_head"]
    order = [row["bot"] for row in ranked]
    if len(order) > 10:
        console.print("Head to head: see --report or --json (more than ten bots).")
    elif len(order) > 1:
        grid = Table(title="Head to head: how often the row's bot outscored the column's (a tie counts half)")
        grid.add_column("")
        for name in order:
            grid.add_column(name, justify="right")
        for a in order:
            cells = []
            for b in order:
                cell = h2h.get(a, {}).get(b)
                cells.append("—" if a == b else (f"{cell['share']:.0%}" if cell else ""))
            grid.add_row(a, *cells)
        console.print(grid)
    if args.report:
        console.print(f"Report: {args.report}")
