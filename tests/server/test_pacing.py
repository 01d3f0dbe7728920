"""A table's broadcasts are paced (issue 21, finding 2; ``gemtable.server.pacing``), through a real server.

A burst of changes is told to each phone a few times a second at most, as the latest state: every phone ends
with it, every message is numbered without a gap, nobody sees another's choice.  The first change after a
quiet spell goes out at once, so an honest table waits for nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from gemtable.client import Client
from gemtable.server import protocol as p
from gemtable.server.limits import Limits
from gemtable.server.pacing import PRUNE_AT, Pacer
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_protocol_v2 import same_view, settle, table_frames
from tests.server.test_table_life import LONG

INTERVAL = Limits().broadcast_seconds
CHANGES = 8
"""Changes of mind of each player in the burst."""


async def ping(client: Client) -> None:
    pongs = sum('"pong"' in f for f in client.frames)
    await client.send(p.Ping())
    await client._wait(lambda: sum('"pong"' in f for f in client.frames) > pongs, 10)


def test_a_burst_of_changes_is_told_a_few_times_a_second_as_the_latest_state(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]

    async def scenario() -> None:
        players = [await Client.open(server.ws) for _ in names]
        for client, name in zip(players, names, strict=True):
            await client.join(code, name)
        watcher, old = await Client.open(server.ws), await Client.open(server.ws, version=1)
        await watcher.hello(code)
        await old.hello(code, tv=True)
        everyone = [*players, watcher, old]
        await players[0].start()
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in everyone))
        await settle(*everyone)
        marks = [len(c.frames) for c in everyone]
        decision = (players[0].state or {})["decision"]
        started = time.monotonic()
        # Every player but Fay (who keeps the decision open) changes their mind CHANGES times, as fast as the
        # socket takes it.
        choosers = players[:-1]
        await asyncio.gather(
            *(
                c.send(p.Choose(move="camp" if i % 2 else "deeper", decision=decision))
                for i in range(CHANGES)
                for c in choosers
            )
        )
        await settle(*everyone)
        seconds = time.monotonic() - started
        bound = seconds / INTERVAL + 2  # the first at once, then one per interval at most
        for client, mark in zip(everyone, marks, strict=True):
            got = table_frames(client, mark)
            assert 1 <= len(got) <= bound, (len(got), seconds)  # one per change (40) before
            seqs = [f["seq"] for f in json.loads("[" + ",".join(client.frames[mark:]) + "]") if "seq" in f]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # numbered without a gap
            assert client.syncs == 0
        # Everyone ends with the latest state: what a fresh look at the table shows.
        last = "deeper" if (CHANGES - 1) % 2 == 0 else "camp"
        for client in choosers:
            assert (client.state or {})["me"]["choice"] == last
        assert (players[-1].state or {})["me"]["choice"] is None
        latest = [client.state or {} for client in everyone]
        marks = [len(c.frames) for c in everyone]
        for client in everyone[:-1]:
            await client.send(p.Sync())  # (version 2)
        await settle(*everyone)
        for client, mark, view in zip(everyone[:-1], marks[:-1], latest[:-1], strict=True):
            fresh = [f["table"] for f in table_frames(client, mark)]
            assert len(fresh) == 1 and same_view(view, fresh[0])
        assert same_view(latest[-1], latest[-2])  # the TV (version 1) shows what the watcher does
        # And nobody saw another's choice on the way: only "chosen" flags, and one's own.
        for client in [watcher, old, *players]:
            for frame in table_frames(client, 0):
                if frame["type"] == "chosen":
                    assert "choice" not in frame or client in players
                else:
                    me = frame["table"].get("me")
                    assert all("choice" not in person for person in frame["table"]["people"])
                    assert me is None or client in players
        for client in everyone:
            await client.close()

    run(scenario())


def test_the_first_change_after_a_quiet_spell_goes_out_at_once(server: ServerProcess) -> None:
    """No waiting for an honest table: after a quiet spell, a choice reaches the others before the answer to
    a ping they send once it was made (the ping is answered after everything already sent)."""
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> None:
        ann, bob, cat = [await Client.open(server.ws) for _ in range(3)]
        for client, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            await client.join(code, name)
        await ann.start()
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in (ann, bob, cat)))
        for who in (bob, cat, ann):  # each after a quiet spell
            await settle(ann, bob, cat)
            await asyncio.sleep(INTERVAL)
            marks = [len(c.frames) for c in (ann, bob, cat)]
            await who.choose("camp", decision=(who.state or {})["decision"])
            await ping(who)  # handled
            await asyncio.gather(ping(ann), ping(bob), ping(cat))
            for client, mark in zip((ann, bob, cat), marks, strict=True):
                before_pong = [f for f in client.frames[mark:] if '"pong"' not in f]
                assert before_pong, client  # it was sent at once, not held
        for client in (ann, bob, cat):
            await client.close()

    run(scenario())


def test_the_pacer_sends_the_first_at_once_and_the_latest_at_the_end_of_the_interval() -> None:
    async def scenario() -> list[tuple[str, float]]:
        pacer = Pacer(0.1)
        sent: list[tuple[str, float]] = []
        t0 = time.monotonic()

        def flush(label: str) -> Any:
            return lambda: sent.append((label, time.monotonic() - t0))

        pacer.request("T", flush("first"))
        for i in range(20):
            pacer.request("T", flush(f"held {i}"))
        pacer.request("U", flush("another key"))  # keys are paced apart
        await asyncio.sleep(0.35)
        assert not pacer.pending("T")  # quiet again: the next goes out at once
        assert all(pace.timer is None for pace in pacer.keys.values())  # and no timer is armed
        pacer.request("T", flush("after a quiet spell"))
        pacer.request("T", flush("gone"))
        pacer.forget("T")
        await asyncio.sleep(0.15)
        pacer.close()
        return sent

    sent = asyncio.run(scenario())
    labels = [label for label, _ in sent]
    assert labels == ["first", "another key", "held 19", "after a quiet spell"]
    assert sent[2][1] >= 0.1 - 0.01  # held until the interval was over


def test_quiet_keys_are_forgotten_as_new_ones_come() -> None:
    """A key that sent keeps its entry while quiet (no timer: the next request compares the time), and the
    quiet ones are dropped once the keys have doubled: memory follows the keys that send, not every key that
    ever sent."""

    async def scenario() -> tuple[int, int]:
        pacer = Pacer(0.05)
        for i in range(PRUNE_AT):
            pacer.request(f"K{i}", lambda: None)
        pacer.request("K0", lambda: None)  # held: kept whatever happens
        await asyncio.sleep(0.1)  # every interval is over: the held one went out, all are quiet
        pacer.request("K0", lambda: None)
        pacer.request("K0", lambda: None)  # held again
        before = len(pacer.keys)
        for i in range(PRUNE_AT, PRUNE_AT + 10):
            pacer.request(f"K{i}", lambda: None)  # the first new key prunes the quiet ones
        after = len(pacer.keys)
        held = pacer.pending("K0")
        pacer.close()
        assert held
        return before, after

    assert asyncio.run(scenario()) == (PRUNE_AT, 11)


def test_a_change_that_must_not_wait_goes_out_at_once_with_what_was_held() -> None:
    async def scenario() -> list[str]:
        pacer = Pacer(10.0)  # an interval no test waits for
        sent: list[str] = []
        pacer.request("T", lambda: sent.append("first"))
        pacer.request("T", lambda: sent.append("held"))
        pacer.request("T", lambda: sent.append("the game moved on"), now=True)  # replaces the held one
        pacer.request("T", lambda: sent.append("held again"))
        pacer.close()
        return sent

    assert asyncio.run(scenario()) == ["first", "the game moved on"]


def test_the_game_moving_on_is_never_held_at_an_instant_table(server: ServerProcess) -> None:
    """Players who answer at once (bots, the benchmark's instant phones) play at their own pace: each reveal —
    the next card — reaches every phone at once, however soon after the last one it comes."""
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> None:
        ann, bob = [await Client.open(server.ws) for _ in range(2)]
        for client, name in ((ann, "Ann"), (bob, "Bob")):
            await client.join(code, name)
        await ann.start()
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in (ann, bob)))
        for _ in range(6):  # six cards in a row, each chosen the moment it shows
            state = ann.state or {}
            decision = state["decision"]
            await ann.choose("deeper", decision=decision)
            # Two phones' messages have no order between them on the server (its sockets are read in the order
            # the kernel reports them ready): Ann's choice is taken before Bob makes the last one.
            await ping(ann)
            await bob.choose("deeper", decision=decision)
            await ping(bob)  # answered after everything the server sent Bob before it
            assert (bob.state or {})["decision"] > decision, "the next card was held back"
            await ann.until(lambda s: bool(s["decision"] > decision))  # noqa: B023 (awaited at once)
        for client in (ann, bob):
            await client.close()

    run(scenario())
