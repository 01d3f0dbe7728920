"""The WebSocket protocol, fuzzed with Hypothesis against a live production server, honest players beside.

The engine is ``tools.fuzz`` (``python -m tools fuzz --messages N`` runs it at any size); here it
runs at a size fit for CI: ``GEMTABLE_FUZZ_MESSAGES`` messages (3000 by default) from a few hundred
hostile phones, while two tables of three honest players each finish their games.  The hostile hosts seat bots
in the middle of their games and switch their tables to the next game (issue 41), and predict as the audience
does (issue 42: ``predict``, from watchers and players alike, for questions open, locked and made up).  See the
module documentation of ``tools.fuzz`` for everything that is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable

import websockets

from tests.security.conftest import TunedServer, clean_log
from tests.server.harness import ServerProcess
from tools.fuzz import FuzzOptions, Target, run_fuzz

MESSAGES = int(os.environ.get("GEMTABLE_FUZZ_MESSAGES", "3000"))


def test_hostile_phones_break_nothing_and_honest_players_play_on(production: ServerProcess) -> None:
    assert production.proc is not None
    proc = production.proc
    report = run_fuzz(
        Target("127.0.0.1", production.port),
        # 5 s a decision at the honest tables, not the tool's 2: on a loaded machine an honest player's choice,
        # sent as soon as its phone saw the decision, reached the server after a 2 s clock ("stale", 1 run of 4).
        FuzzOptions(messages=MESSAGES, seed=1, seconds=5.0),
        data=production.data,
        log=production.log,
        alive=lambda: proc.poll() is None,
    )
    print(
        f"\nfuzz: {report.messages} messages from {report.phones} phones in {report.seconds} s, "
        f"{report.frames_received} frames back; closes {report.closes}; {report.honest_games} honest games; "
        f"{report.games_checked} records replayed; {report.switched_tables} tables switched games; "
        f"errors sent {report.errors}"
    )
    assert report.problems == []
    assert report.crashes == 0 and report.broken_tables == []
    assert report.messages >= MESSAGES
    assert report.honest_games >= 2 and report.games_checked >= 2 and report.lost_gems == 0
    # Every game the server hosts is fuzzed: an honest table of each, its records replayed and checked.
    assert {"expedition", "booty"} <= set(report.by_game), report.by_game
    for game in ("expedition", "booty"):
        assert report.by_game[game]["honest_games"] >= 1 and report.by_game[game]["games_checked"] >= 1, game
    assert sum(report.errors.values()) > report.messages / 10  # it did reach the server's refusals
    assert report.switched_tables > 0  # and tables that switched games, their records and logs checked
    # Hostile watchers predicted: late, for seats not in the cave, as players, mangled; the table said why.
    assert {"not-watching", "locked", "bad-prediction"} & set(report.errors), report.errors


def test_a_text_frame_that_is_not_utf8_closes_the_phone_with_one_quiet_line(tuned: Callable[..., TunedServer]) -> None:
    server = tuned()

    async def scenario() -> int | None:
        ws = await websockets.connect(server.ws)
        await ws.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)
        with contextlib.suppress(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        return ws.close_code

    for _ in range(3):
        assert asyncio.run(scenario()) == 1007  # RFC 6455: invalid payload data
    log = clean_log(server)  # no traceback: uvicorn's is turned into one line
    assert log.count("not UTF-8") == 1  # and the same line again within 10 s is counted, not written (guard.py)
