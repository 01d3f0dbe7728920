"""Per-person extra time (issue 41), through a real server and real WebSockets: the host gives Bob no clock; at
the table's clock the others' silence is locked and the reveal waits for Bob (through ``kill -9`` too); nobody
but Bob and the host is ever sent the factor; every malformed, forged or misplaced ``extra_time`` is refused
with a clear error and changes nothing; and the table the server's file rebuilds shows what the TV shows.

No step races the clock: Bob has no clock, so the reveal comes only when he chooses."""

from __future__ import annotations

import time
from typing import Any

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_host import close, refused, table_of
from tests.server.test_table_life import LONG, person
from tools.oracles import normal_view, rebuilt_views


def secret_kept(client: Client) -> None:
    """Nothing ``client`` was ever sent says anyone's factor (the host's and Bob's own views alone may)."""
    for frame in client.frames:
        assert '"factor"' not in frame and '"more_time":{' not in frame, frame[:300]
        assert '"extra_time":{"' not in frame, frame[:300]


def test_no_clock_for_one_the_others_locked_at_theirs_kept_through_kill_9_and_secret(
    server: ServerProcess,
) -> None:
    code = server.create_table(script=LONG, seconds=1.5, pause=60)
    tokens: dict[str, str] = {}
    ids: dict[str, int] = {}

    async def before() -> None:
        ann, bob, cat = await table_of(server, code, "Ann", "Bob", "Cat")
        tv = await Client.open(server.ws)
        await tv.hello(code, tv=True)
        tokens.update(Ann=ann.token or "", Bob=bob.token or "", Cat=cat.token or "")
        state = await ann.until(lambda s: bool(person(s, "Cat")))
        ids.update({name: person(state, name)["id"] for name in ("Ann", "Bob", "Cat")})
        await ann.extra_time(ids["Bob"], 0)
        await ann.until(lambda s: s["me"]["extra_time"] == {str(ids["Bob"]): 0})
        mine = await bob.until(lambda s: s["me"]["more_time"] is not None)
        assert mine["me"]["more_time"] == {"factor": 0, "own": False}
        await ann.start()
        # Ann and Cat stay silent: at the table's clock their silence is locked, and the decision waits for Bob.
        locked = await cat.until(lambda s: s["phase"] == "playing" and s["remaining_ms"] == 0)
        decision = locked["decision"]
        assert locked["me"]["more_time"] is None and locked["me"]["extra_time"] == {}
        # Bob's phone counts down his own clock: none.
        own = await bob.until(lambda s: s["phase"] == "playing" and s["me"]["more_time"]["own"])
        assert own["decision"] == decision and own["remaining_ms"] is None and own["me"]["moves"]
        assert own["me"]["more_time"] == {"factor": 0, "own": True}
        await refused(cat, {"type": "choose", "move": "deeper", "decision": decision}, "stale")
        shown = await tv.until(lambda s: s["remaining_ms"] == 0)
        assert shown["decision"] == decision and shown["me"] is None
        # The table the server's file rebuilds is the one the TV shows.
        assert rebuilt_views(server.data / "gemtable.sqlite3", [code])[code] == normal_view(shown)
        for client in (cat, tv):
            secret_kept(client)
        await close(ann, bob, cat, tv)

    run(before())
    server.kill()  # SIGKILL, with Bob still choosing
    time.sleep(0.5)
    server.start()

    async def after() -> None:
        bob = await Client.open(server.ws)  # alone: nobody is held up by the phones still away, the clock decides
        state = await bob.hello(code, tokens["Bob"])
        assert state["phase"] == "playing" and state["remaining_ms"] is None  # (his own clock: none)
        assert state["me"]["more_time"] == {"factor": 0, "own": True}
        decision = state["decision"]
        cat = await Client.open(server.ws)
        await cat.hello(code, tokens["Cat"])
        tv = await Client.open(server.ws)
        await tv.hello(code, tv=True)
        await bob.choose("deeper", decision)
        revealed = await cat.until(lambda s: s["decision"] != decision)
        seats = {name: person(revealed, name)["seat"] for name in ("Ann", "Bob", "Cat")}
        assert sorted(revealed["timed_out"]) == sorted([seats["Ann"], seats["Cat"]])
        assert sorted(revealed["state"]["reveal"]["leavers"]) == sorted([seats["Ann"], seats["Cat"]])
        assert sorted(revealed["state"]["reveal"]["deeper"]) == [seats["Bob"]]
        final = await tv.until(lambda s: s["decision"] != decision)
        assert rebuilt_views(server.data / "gemtable.sqlite3", [code])[code] == normal_view(final)
        for client in (cat, tv):
            secret_kept(client)
        await close(bob, cat, tv)

    run(after())


def test_every_forged_or_malformed_extra_time_is_refused_clearly_and_changes_nothing(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=30)

    async def scenario() -> None:
        ann, bob = await table_of(server, code, "Ann", "Bob")
        tv = await Client.open(server.ws)
        await tv.hello(code, tv=True)
        await ann.add_bot("cautious")
        state = await ann.until(lambda s: any(p["bot"] for p in s["people"]))
        bot = next(p["id"] for p in state["people"] if p["bot"])
        bid = person(state, "Bob")["id"]
        frames = len(ann.frames)
        cases: list[tuple[Client, dict[str, Any], str]] = [
            (bob, {"type": "extra_time", "person": bid, "factor": 2}, "not-host"),  # Bob for himself: not the host
            (tv, {"type": "extra_time", "person": bid, "factor": 2}, "spectator"),
            (ann, {"type": "extra_time", "person": 999, "factor": 2}, "not-found"),
            (ann, {"type": "extra_time", "factor": 2}, "not-found"),
            (ann, {"type": "extra_time", "person": bot, "factor": 2}, "is-bot"),
            (ann, {"type": "extra_time", "person": bid, "factor": 4}, "bad-request"),
            (ann, {"type": "extra_time", "person": bid, "factor": -1}, "bad-request"),
            (ann, {"type": "extra_time", "person": bid}, "bad-request"),
            (ann, {"type": "extra_time", "person": bid, "factor": "2"}, "bad-message"),
            (ann, {"type": "extra_time", "person": bid, "factor": 2.5}, "bad-message"),
            (ann, {"type": "extra_time", "person": bid, "factor": True}, "bad-message"),
            (ann, {"type": "extra_time", "person": str(bid), "factor": 2}, "bad-message"),
            (ann, {"type": "extra_time", "person": bid, "factor": 2, "seconds": 999}, "bad-message"),
            (ann, {"type": "extra_time", "person": [bid], "factor": 2}, "bad-message"),
        ]
        for client, message, want in cases:
            await refused(client, message, want)
        # Nothing changed: no new state for anyone, the host's list still empty, and the table still answers.
        assert not [f for f in ann.frames[frames:] if '"type":"state"' in f]
        await ann.extra_time(bid, 3)
        state = await ann.until(lambda s: s["me"]["extra_time"] == {str(bid): 3})
        assert (await bob.until(lambda s: s["me"]["more_time"] is not None))["me"]["more_time"]["factor"] == 3
        # Bob leaves: his extra time goes with him; back, he is a new person, as everyone.
        await bob.leave()
        await ann.until(lambda s: s["me"]["extra_time"] == {})
        (again,) = await table_of(server, code, "Bob")
        assert again.state is not None and again.state["me"]["more_time"] is None
        secret_kept(tv)
        await close(ann, bob, tv, again)

    run(scenario())
