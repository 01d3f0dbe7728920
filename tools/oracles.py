"""What must hold of what a live server sends and keeps, whatever the game: the checks the fuzzer, the soak and
the security tests share.

* :func:`view_problems` — one table view (``state.table``) as a phone received it: the table's own invariants
  (phases, people, chairs, seats, the host, the queue, the clock), the recipient's ``me``, and the game's view:
  for the recipient's seat, no scores before the end, no secret key, and what the game's probes say of it;
* :func:`record_problems` — a finished game's record: it replays to its recorded scores and winners, the scores
  the players saw, and the game's invariants (no gem, no tile appears or vanishes);
* :func:`moves_by_decision` — the move each seat's record holds at each decision, as the game's probes name the
  decisions, so that what a phone saw the server take can be held against the record;
* :func:`rebuilt_views` — the tables the server's SQLite file rebuilds, to hold against what it shows;
* :func:`log_problems` — tracebacks and error lines in a server's log.

A game speaks here only through its probes (``gemtable.games.api.Probes``, named by its manifest), so every
registered game is checked the same way.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gemtable.games import GameError, GameRecord, find_game, find_manifest, game_part, replay
from gemtable.games.api import Decision, Probes
from gemtable.table.view import PERSON_KEYS

PHASES = {"lobby", "playing", "reveal", "pause", "results"}
STATUSES = {"seated", "waiting", "away", "watching", "gone"}
TRACEBACK = re.compile(r"Traceback|\bERROR\b|Exception in ASGI|Warning:|never awaited")
SECRETS = ("deck", "pile", "order", "seed", "unseen", "choices", "pending", "script", "inputs")
"""Keys no view may carry, in any game."""


def probes(game: str) -> Probes:
    """The probes of ``game`` (its manifest's ``probes``); :class:`GameError` for a game without them."""
    manifest = find_manifest(game)
    if manifest.probes is None:
        raise GameError(f"{game} has no probes: the tools cannot play it")
    found: Probes = game_part(manifest, manifest.probes)
    return found


def playable(names: Iterable[str]) -> list[str]:
    """Those of ``names`` (a server's games, say) that this process knows, with probes, in their order."""
    out = []
    for name in names:
        try:
            probes(name)
        except GameError:
            continue
        out.append(name)
    return out


def view_problems(view: Any, own_choice: str | bool | None = True) -> list[str]:
    """What is wrong with one table view (``state.table``).

    ``own_choice``: the choice the recipient has made for the decision open now (None: none);
    ``True`` when not known — then ``me.choice`` may be any move."""
    if not isinstance(view, dict):
        return ["a state's table is not an object"]
    out: list[str] = []
    if view.get("phase") not in PHASES:
        out.append(f"unknown phase {view.get('phase')!r}")
    people = view.get("people")
    if not isinstance(people, list):
        return [*out, "people is not a list"]
    ids = [p.get("id") for p in people]
    if len(set(ids)) != len(ids):
        out.append(f"people ids repeat: {ids}")
    chairs = [p["chair"] for p in people if p.get("chair") is not None]
    if len(set(chairs)) != len(chairs):
        out.append(f"two people in one chair: {chairs}")
    if any(not isinstance(c, int) or not 0 <= c < int(view.get("chairs") or 0) for c in chairs):
        out.append(f"a chair out of range: {chairs}")
    seats = [p["seat"] for p in people if p.get("seat") is not None]
    if len(set(seats)) != len(seats):
        out.append(f"two people in one seat: {seats}")
    names = [str(p.get("name", "")).casefold() for p in people if p.get("status") != "gone" and not p.get("bot")]
    if len(set(names)) != len(names):
        out.append("two people share a name")
    for p in people:
        out += _person_problems(p)
    host = view.get("host")
    hosts = [p for p in people if p.get("id") == host]
    if host is not None and hosts and (hosts[0].get("bot") or hosts[0].get("status") == "gone"):
        out.append("the host is a bot or gone")
    watching = {p.get("id") for p in people if p.get("status") == "watching"}
    if set(view.get("queue") or []) - watching:
        out.append("someone in the queue is not watching")
    remaining = view.get("remaining_ms")
    if remaining is not None and (not isinstance(remaining, int) or remaining < 0):
        out.append(f"remaining_ms is {remaining!r}")
    if view.get("paused") is not None and remaining is not None:
        out.append("a paused table's clock runs")
    news = view.get("news")
    if not isinstance(news, list) or any(not isinstance(n, dict) or "id" not in n or "kind" not in n for n in news):
        out.append(f"news is not a list of notices: {news!r}"[:200])
    return out + _me_problems(view, people, own_choice) + _game_problems(view) + _audience_problems(view)


def _audience_problems(view: dict[str, Any]) -> list[str]:
    """The shared ``audience`` holds standings and counts, never a prediction; a player is offered no question."""
    out: list[str] = []
    shared = view.get("audience")
    if shared is not None and (not isinstance(shared, dict) or set(shared) != {"standings", "members", "last"}):
        out.append(f"the shared audience is not standings and counts: {shared!r}"[:200])
    me = view.get("me")
    mine = me.get("audience") if isinstance(me, dict) else None
    if isinstance(mine, dict) and mine.get("open") is not None and me.get("seat") is not None:  # type: ignore[union-attr]
        out.append("a player of the game is offered the audience's question")
    return out


def _person_problems(p: dict[str, Any]) -> list[str]:
    out = []
    if p.get("status") not in STATUSES:
        out.append(f"unknown status {p.get('status')!r}")
    for flag in ("chosen", "to_act", "connected", "bot_plays"):
        if type(p.get(flag)) is not bool:
            out.append(f"people[].{flag} is not a bool: {p.get(flag)!r}")
    if p.get("chosen") and not p.get("to_act"):
        out.append("someone has chosen without being asked to")
    if p.get("status") == "watching" and p.get("chair") is not None:
        out.append("a watcher holds a chair")
    if set(p) - PERSON_KEYS:
        out.append(f"people[] carries more than it should: {sorted(p)}")
    return out


def _me_problems(view: dict[str, Any], people: list[dict[str, Any]], own_choice: str | bool | None) -> list[str]:
    me = view.get("me")
    if me is None:
        return []
    out = []
    if me.get("bans") and not me.get("host"):
        out.append("someone who is not the host is shown the bans")
    if me.get("extra_time") and not me.get("host"):
        out.append("someone who is not the host is shown who has extra time")
    mine = [p for p in people if p.get("id") == me.get("id")]
    choice = me.get("choice")
    if choice is not None and mine and not mine[0].get("chosen"):
        out.append("me.choice is set but people[] says I have not chosen")
    if choice is not None and not (isinstance(choice, str) and 0 < len(choice) <= 64):
        out.append(f"me.choice is not a move: {choice!r}")
    if own_choice is not True and choice is not None and choice != own_choice:
        out.append(f"me.choice {choice!r} is not the choice this phone made ({own_choice!r})")
    return out


def _game_problems(view: dict[str, Any]) -> list[str]:
    state = view.get("state")
    if not isinstance(state, dict):
        return []
    out = []
    over = view.get("phase") == "results"
    me = view.get("me")
    my_seat = me.get("seat") if me else None
    if state.get("seat") != my_seat:
        out.append(f"the game's view is for seat {state.get('seat')!r}, the recipient's is {my_seat!r}")
    if not over and (state.get("scores") is not None or state.get("winners") is not None):
        out.append("scores before the end")
    for secret in SECRETS:
        if secret in state or secret in view:
            out.append(f"a view carries {secret!r}")
    try:
        game = probes(str(state.get("game")))
    except GameError as exc:
        return [*out, f"the game's view: {exc}"]
    return out + game.view_problems(state, my_seat, over)


def record_problems(record: Any, scores_seen: list[int] | None = None) -> tuple[list[str], int]:
    """What is wrong with a finished game's record, and how many of the game's units (gems, tiles) went missing
    (or appeared)."""
    try:
        parsed = GameRecord.from_json(record)
        state = replay(parsed)
        game = probes(parsed.game)
    except GameError as exc:
        return [f"the record does not replay: {exc}"], 0
    out = []
    lost = 0
    if not state.is_over():
        out.append("the record replays to an unfinished game")
    if parsed.scores != state.scores():
        out.append(f"recorded scores {parsed.scores} != replayed {state.scores()}")
        lost += abs(sum(parsed.scores or []) - sum(state.scores()))
    if sorted(parsed.winners or []) != sorted(state.winners()):
        out.append(f"recorded winners {parsed.winners} != replayed {state.winners()}")
    if scores_seen is not None and scores_seen != state.scores():
        out.append(f"the players saw scores {scores_seen}, the replay gives {state.scores()}")
        lost += abs(sum(scores_seen) - sum(state.scores()))
    broken, missing = game.invariants(state)
    return out + broken, lost + missing


def moves_by_decision(record: Any) -> dict[int, dict[Decision, str]]:
    """For each seat, the move the record holds at each decision (as the game's probes name decisions)."""
    parsed = GameRecord.from_json(record)
    game = probes(parsed.game)
    state = find_game(parsed.game).new(parsed.rules, parsed.seats, parsed.seed, parsed.script)
    out: dict[int, dict[Decision, str]] = {}
    for item in parsed.inputs:
        if item[0] == "round":
            state.start_round([int(s) for s in item[1]])
            continue
        seat, move = int(item[0]), str(item[1])
        out.setdefault(seat, {})[game.decision(state.view(None).to_json())] = move
        state.apply(seat, move)
    return out


def normal_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what depends on the moment it was made, or on connections (not in the log)."""
    copy: dict[str, Any] = json.loads(json.dumps(view))
    copy.pop("remaining_ms", None)
    for person in copy.get("people", []):
        person.pop("connected", None)
    return copy


def rebuilt_views(db: Path, codes: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
    """Tables rebuilt from their logs in the server's SQLite file: their spectator views (normalized)."""
    from gemtable.store import pruned
    from gemtable.table import Table, table_view

    out = {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        wanted = list(codes) if codes is not None else [c for (c,) in con.execute("SELECT code FROM tables")]
        for code in wanted:
            rows = con.execute("SELECT seq, body FROM events WHERE code = ? ORDER BY seq", (code,)).fetchall()
            if rows:
                events: list[dict[str, Any]] = []
                for seq, body in rows:  # a pruned event (a finished game's change of mind) keeps its number
                    events.extend(pruned() for _ in range(seq - len(events) - 1))
                    events.append(json.loads(body))
                table = Table.rebuild(events, 0.0)
                out[code] = normal_view(table_view(table, None, 0.0))
    finally:
        con.close()
    return out


def log_problems(text: str) -> list[str]:
    """Tracebacks and error lines in a server log."""
    return [f"server log: {line.strip()[:200]}" for line in text.splitlines() if TRACEBACK.search(line)][:20]


__all__ = [
    "PHASES",
    "SECRETS",
    "STATUSES",
    "log_problems",
    "moves_by_decision",
    "normal_view",
    "playable",
    "probes",
    "rebuilt_views",
    "record_problems",
    "view_problems",
]
