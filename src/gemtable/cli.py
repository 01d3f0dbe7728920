"""The ``gemtable`` command: serve, simulate, replay, bench."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from gemtable.bench import server as server_bench
from gemtable.games import GameError, GameRecord, default_game, find_manifest, game_names, game_part, replay


def main(argv: Sequence[str] | None = None) -> int:
    printable_anywhere()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except GameError as exc:
        print(f"gemtable: {exc}", file=sys.stderr)
        return 2


def printable_anywhere() -> None:
    """A Windows console page or a pipe in a legacy encoding cannot show every character gemtable prints
    (players' names, the QR code's blocks, a dash): show an escape for those instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if isinstance(stream, io.TextIOWrapper) and encoding != "utf8":
            stream.reconfigure(errors="backslashreplace")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gemtable", description="A game table for friends, on their phones.")
    commands = parser.add_subparsers(metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the game server")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--data",
        type=Path,
        default=None,
        help="data folder (default: the user's data folder, ~/.local/share/gemtable on Linux; docs/deploy.md)",
    )
    serve.add_argument("--redis", default=None, help="cluster mode: a Redis URL (or GEMTABLE_REDIS)")
    serve.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address phones use, in every link and QR code (or GEMTABLE_PUBLIC_URL; "
        "default: this machine's LAN address)",
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name requests may use (repeatable; or GEMTABLE_ALLOWED_HOSTS)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another web origin whose pages may create tables and open WebSockets here, such as "
        "https://games.example.org (repeatable; or GEMTABLE_ALLOWED_ORIGINS)",
    )
    serve.add_argument(
        "--message-rate",
        type=float,
        default=None,
        help="messages a second one connection may send (default 20; raise it for bot loads)",
    )
    serve.add_argument(
        "--people-per-address",
        type=int,
        default=None,
        metavar="N",
        help="people one address may bring to one table (default 6; raise it for a party behind one public address)",
    )
    serve.add_argument(
        "--keep-days",
        type=float,
        default=None,
        metavar="DAYS",
        help="delete a table, its games' records with it, once it has not changed for this many days "
        "(default 30; 0: keep every table for ever)",
    )
    serve.add_argument("--allow-scripts", action="store_true", help="let tables use a scripted deck (tests, demos)")
    serve.set_defaults(run=_serve)

    sim = commands.add_parser("simulate", help="a tournament between bots (yours too)")
    sim.add_argument("game", nargs="?", default=None, help=f"one of: {', '.join(game_names())} (default: the first)")
    sim.add_argument(
        "--bots",
        default=None,
        help="comma-separated built-in bots, e.g. cautious,odds,threshold=10 (default: every "
        "built-in bot; with --bot or --sweep: the sparring bots the game's manifest names)",
    )
    sim.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="FILE.py|MODULE:FUNCTION",
        help="your own bot: a Python function (view, moves, rng) -> move; may be given more than once",
    )
    sim.add_argument(
        "--sweep",
        default=None,
        metavar="KEY=LOW..HIGH",
        help="a family of threshold bots, e.g. threshold=2..15, cards=3..12, hazards=1..4",
    )
    sim.add_argument(
        "--games", type=int, default=None, help="games to play (default: as many as the ranking needs, see --max-games)"
    )
    sim.add_argument(
        "--max-games",
        type=int,
        default=None,
        help="cap for the default sequential run: rounds of games double until the ranking is "
        "significant or this many are played (default 32000; 400000 with --batch)",
    )
    sim.add_argument(
        "--max-seconds",
        type=float,
        default=300.0,
        help="time budget of the default sequential run (default 300): no round is started that would end past it",
    )
    sim.add_argument("--players", default=None, help="a count or a range such as 3-6 (default: all the game takes)")
    sim.add_argument("--preset", default=None, help="rules preset (default: the game's first)")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    sim.add_argument("--time-limit", type=float, default=1.0, help="seconds your bot may take per decision")
    sim.add_argument(
        "--batch",
        action="store_true",
        help="numpy batch mode for threshold bots (pip install 'gemtable[lab]'): far more games",
    )
    sim.add_argument(
        "--report", type=Path, default=None, metavar="FILE.html", help="write a self-contained HTML report with charts"
    )
    sim.add_argument("--json", action="store_true", help="print JSON instead of a table")
    sim.set_defaults(run=_simulate)

    rep = commands.add_parser(
        "replay", help="replay a game record and print its outcome (--html: write it as a page to step through)"
    )
    rep.add_argument("file", type=Path, help="a record as JSON (or - for standard input)")
    rep.add_argument("--json", action="store_true")
    rep.add_argument(
        "--html",
        type=Path,
        default=None,
        metavar="OUT.html",
        help="also write the game step by step as one self-contained page (opens from the file, no network)",
    )
    rep.add_argument("--lang", default="en", choices=("en", "hu", "ja"), help="the page's language (default en)")
    rep.set_defaults(run=_replay)

    bench = commands.add_parser("bench", help="benchmarks")
    kinds = bench.add_subparsers(metavar="KIND")
    eng = kinds.add_parser(
        "engine",
        help="whole games of the default game per second, one core: engine, reference, "
        "batch (the benchmark its manifest names)",
    )
    eng.add_argument("--seconds", type=float, default=3.0)
    eng.add_argument("--players", type=int, default=5)
    eng.add_argument("--no-batch", action="store_true", help="skip the numpy batch figure")
    eng.add_argument("--json", action="store_true")
    eng.set_defaults(run=_bench_engine)
    bots = kinds.add_parser("bots", help="how long a bot takes to decide")
    bots.add_argument("--bot", default=None, help="the bot timed (default: the benchmark's own choice)")
    bots.add_argument("--players", type=int, default=8)
    bots.add_argument("--games", type=int, default=20)
    bots.add_argument("--json", action="store_true")
    bots.set_defaults(run=_bench_bots)
    server_bench.add_arguments(kinds)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from gemtable.server.run import serve

    return serve(args)


def _players(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        lo, hi = int(low), int(high or low)
    except ValueError:
        raise GameError(f"players must be a number or a range like 2-8, not {text!r}") from None
    return lo, hi


def _simulate(args: argparse.Namespace) -> int:
    from gemtable.lab.cli import simulate

    return simulate(args)


def _replay(args: argparse.Namespace) -> int:
    try:
        raw = sys.stdin.buffer.read() if str(args.file) == "-" else args.file.read_bytes()
    except OSError as exc:
        raise GameError(f"cannot read {args.file}: {exc.strerror or exc}") from exc
    try:
        data = msgspec.json.decode(raw)  # refuses NaN, Infinity and numbers out of range; bounded nesting
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise GameError(f"{args.file} is not a JSON game record: {reason}") from exc
    raw_record = data.get("record", data) if isinstance(data, dict) else data
    record = GameRecord.from_json(raw_record)
    if record.scores is None or record.winners is None:
        raise GameError(f"{args.file} holds no result (scores and winners) to check the replay against")
    state = replay(record)
    if not state.is_over():
        raise GameError(f"{args.file} records a result, but its {len(record.inputs)} inputs do not finish the game")
    scores, winners = state.scores(), state.winners()
    matches = _same_scores(record.scores, scores) and sorted(record.winners) == winners
    names = _seat_names(raw_record, len(scores))
    places = [1 + sum(1 for other in scores if other > score) for score in scores]  # a tie shares its place
    outcome = {
        "game": record.game,
        "over": state.is_over(),
        "scores": scores,
        "winners": winners,
        "places": places,
        "names": names,
        "matches_record": matches,
    }
    if args.html is not None:
        _write_html(raw_record, args.html, args.lang)
    if args.json:
        print(json.dumps(outcome, ensure_ascii=False))
    else:
        print(f"{record.game}: finished after {len(record.inputs)} inputs")
        for seat, score in enumerate(scores):
            who = f"{names[seat]} (seat {seat})" if names[seat] is not None else f"seat {seat}"
            print(f"  {_ordinal(places[seat]):>4}  {who}: {score}{'  (winner)' if seat in winners else ''}")
        print("  matches the recorded result" if matches else "  DIFFERS from the recorded result")
        if args.html is not None:
            print(f"  the replay, step by step: {args.html}")
    return 0 if matches else 1


def _write_html(raw_record: object, out: Path, lang: str) -> None:
    """The replay page of the record, with everything it needs inside (``server/replay.py``), written to ``out``."""
    from gemtable.server.replay import replay_html, replay_json

    page = replay_html(replay_json(raw_record if isinstance(raw_record, dict) else {}, lang))
    try:
        out.write_text(page, "utf-8")
    except OSError as exc:
        raise GameError(f"cannot write {out}: {exc.strerror or exc}") from exc


def _seat_names(record: object, seats: int) -> list[str | None]:
    """Each seat's name, from a table's record (``names``: seat → name); None for a seat it does not name (a
    record from ``gemtable simulate`` or a bot's game names none).  A name is printed as text: its control
    characters are dropped, so a record cannot move the terminal's cursor."""
    names = record.get("names") if isinstance(record, dict) else None
    found: list[str | None] = []
    for seat in range(seats):
        name = names.get(str(seat)) if isinstance(names, dict) else None
        clean = "".join(ch for ch in name if ch.isprintable()) if isinstance(name, str) else ""
        found.append(clean or None)
    return found


def _ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st."""
    suffix = "th" if 11 <= place % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _same_scores(recorded: list[int], scores: list[int]) -> bool:
    """Exactly the same scores.  Records written before scores listed only the seats that played
    carry a zero for every seat of the game after them: those zeros, and nothing else, are allowed."""
    return recorded[: len(scores)] == scores and not any(recorded[len(scores) :])


def _benchmark() -> Any:
    """The default game's benchmark module, as its manifest names it."""
    manifest = find_manifest(default_game())
    if manifest.benchmark is None:
        raise GameError(f"{manifest.name} has no engine benchmark")
    return game_part(manifest, manifest.benchmark)


def _bench_engine(args: argparse.Namespace) -> int:
    result = _benchmark().engine(args.seconds, args.players, batch=not args.no_batch)
    if args.json:
        print(json.dumps(result))
        return 0
    why = result["why"]
    print(f"engine     {result['engine']:>9,} games/s  ({result['players']} {result['bot']} bots through the game API)")
    print(f"reference  {result['reference']:>9,} games/s  (a plain loop of the same games, no API, no records)")
    print(f"ratio      {result['ratio']:>9}  (engine / reference; the aim was 2)")
    print(
        f"           {why['decisions_per_game']} decisions a game at "
        f"{why['microseconds_per_decision_call']} µs a call = {why['decision_calls_microseconds_per_game']} µs; "
        "the reference's whole game: "
        f"{why['reference_microseconds_per_game']} µs"
    )
    if result.get("batch"):
        print(
            f"batch      {result['batch']:>9,} games/s  ({result['batch_ratio_to_reference']}x the reference, "
            f"{result['batch_ratio_to_public_fastest']}x the fastest public simulator's "
            f"{result['public_fastest']:,})"
        )
    elif "batch_note" in result:
        print(f"batch      {result['batch_note']}")
    wall = result["wall"]
    print(
        f"(games per CPU second of this process, best of {result['rounds']} rounds, Python {result['python']}; "
        f"wall clock: engine {wall['engine']:,}, reference {wall['reference']:,}, ratio {wall['ratio']})"
    )
    return 0


def _bench_bots(args: argparse.Namespace) -> int:
    chosen = {"bot": args.bot} if args.bot else {}
    result = _benchmark().decisions(players=args.players, games=args.games, **chosen)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['bot']} at {result['players']} players: {result['decisions']} decisions, "
            f"p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms"
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
