"""Secrecy, checked on the wire: every frame every phone, the spectator and the TV receive during whole games.

The method is differential: the same game is played twice, differing only in a secret — the order of
cards not yet turned, or what someone chose — and every recipient's frames are compared.  Up to the
moment the secret is revealed they must be identical (apart from the recipient's own choice, and the
things that differ between any two tables: the code, the tokens, the clock).  Every frame is also
checked on its own (``view_problems``): nobody's chest but one's own before the end, ``chosen`` a bool,
``me.choice`` only one's own; and every seat token appears in exactly one frame, the ``welcome`` to the
phone that joined.

Why the reveal's timing cannot depend on what was chosen: a reveal happens in exactly two ways —
``Simultaneous.settle`` (``table/decisions.py``) when no one who could still choose is undecided (it
looks at *whether* each seat has a pending choice, never at the choice), or ``Table.tick`` at the deadline (a
time fixed when the decision opened).  Each command is answered by at most one broadcast, sent after it is persisted,
whatever it contained.  The tests below show both paths from the wire: with a long clock the reveal
is the very next frame after the last choice, whichever it was; with a silent player it comes at the
deadline, whatever the others chose.  A changed mind is told to its maker alone, in either version
(issue 21: version 1 phones were sent everyone's ``chosen`` flags again, unchanged).

Every test runs in both protocol versions (the ``version`` fixture): version 1, a whole state after every
change; version 2, a secret choice told as a small ``chosen`` message (the maker's own with its ``choice``).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import pytest

from gemtable.client import Client
from gemtable.server.limits import Limits
from gemtable.server.protocol import Version
from tests.security.conftest import clean_log
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tools.oracles import normal_view, rebuilt_views, view_problems

NAMES = ["Ann", "Bob", "Cat", "Dan"]
PACE = Limits().broadcast_seconds + 0.02
"""A table's pacer sends what it held back by then."""
REST = [["4", "snakes", "snakes"]] * 4
# Two decks that differ only in the order of cards not yet turned: the 3rd card of the first cave.
DECK_A = [["5", "7", "11", "spiders", "13", "spiders"], *REST]
DECK_B = [["5", "7", "spiders", "11", "13", "spiders"], *REST]


@pytest.fixture(params=[1, 2], autouse=True, ids=["v1", "v2"])
def version(request: pytest.FixtureRequest) -> int:
    """The protocol version every phone of the test speaks."""
    Room.version = 1 if request.param == 1 else 2
    return Room.version


class Room:
    """A table with four players, a spectator and a TV, driven one step at a time: after every step, every
    recipient has received everything that step caused, so two rooms driven alike get frames in the same order."""

    version: Version = 2

    def __init__(self, server: ServerProcess, script: list[list[str]], seconds: float = 60, **options: Any) -> None:
        self.server = server
        self.script = script
        self.seconds = seconds
        self.options = options
        self.players: list[Client] = []
        self.code = ""

    async def open(self) -> Room:
        self.code = self.server.create_table(
            script=self.script, seconds=self.seconds, pause=0.5, options={"show_odds": True, **self.options}
        )
        self.spectator = await Client.open(self.server.ws, self.version)
        await self.spectator.hello(self.code)
        self.tv = await Client.open(self.server.ws, self.version)
        await self.tv.hello(self.code, tv=True)
        for name in NAMES:
            client = await Client.open(self.server.ws, self.version)
            self.players.append(client)
            await client.join(self.code, name)
            await self.settle(client)
        return self

    @property
    def everyone(self) -> list[Client]:
        return [*self.players, self.spectator, self.tv]

    async def settle(self, actor: Client | None = None) -> None:
        """Wait until the actor's last message has been handled, then until everyone has what it caused
        (a pong comes after everything queued for that phone before it, and a ping that arrives once the
        table's pacer was due to send what it held back is answered after that: ``gemtable.server.pacing``)."""
        if actor is not None:
            await ping(actor)
        await asyncio.sleep(PACE)
        await asyncio.gather(*(ping(c) for c in self.everyone if c is not actor))

    async def act(self, who: int, message: dict[str, Any]) -> None:
        await self.players[who].send(message)
        await self.settle(self.players[who])

    async def start(self) -> None:
        await self.act(0, {"type": "start"})
        await self.wait_all(lambda s: s["phase"] == "playing")

    async def choose(self, who: int, move: str) -> None:
        await self.act(who, {"type": "choose", "move": move})

    async def wait_all(self, test: Any) -> None:
        await asyncio.gather(*(c.until(test) for c in self.everyone))
        await self.settle()

    def frames(self, client: Client) -> list[dict[str, Any]]:
        """Everything this recipient got, but pongs, with what differs between any two tables made equal."""
        text = "\n".join(f for f in client.frames if json.loads(f)["type"] != "pong")
        for i, player in enumerate(self.players):
            text = text.replace(player.token or "?", f"TOKEN-{i}")
        text = text.replace(f'"{self.code}"', '"CODE"')
        out = []
        for line in text.split("\n"):
            frame = json.loads(line)
            if frame["type"] == "state":
                frame["table"].pop("remaining_ms")  # the clock: the only thing that may differ
            out.append(frame)
        return out

    async def close(self) -> None:
        """Close every phone, keeping only what they received until then (leaving changes the table too)."""
        for client in self.everyone:
            del client.frames[len(client.frames) :]
        ends = [len(c.frames) for c in self.everyone]
        for client in self.everyone:
            await client.close()
        for client, end in zip(self.everyone, ends, strict=True):
            del client.frames[end:]


async def ping(client: Client) -> None:
    pongs = sum(1 for f in client.frames if '"pong"' in f)
    await client.send({"type": "ping"})
    await client._wait(lambda: sum(1 for f in client.frames if '"pong"' in f) > pongs, 10)


def path_length(frame: dict[str, Any]) -> int:
    state = frame.get("table", {}).get("state") if frame["type"] == "state" else None
    return len(state["path"]) if state and state["cave"] == 1 else 0


def until_path(frames: list[dict[str, Any]], length: int) -> list[dict[str, Any]]:
    """The frames before the first that shows ``length`` cards on the first cave's path."""
    for i, frame in enumerate(frames):
        if path_length(frame) >= length:
            return frames[:i]
    raise AssertionError(f"no frame shows {length} cards")


def without_own_choice(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = json.loads(json.dumps(frames))
    for frame in out:
        if frame["type"] == "state" and frame["table"]["me"] is not None:
            frame["table"]["me"]["choice"] = None
        if frame["type"] == "chosen":
            frame.pop("choice", None)
    return out


def own_choices(frames: list[dict[str, Any]]) -> list[str | None]:
    """A recipient's own pending choice as each frame shows it (a state's ``me.choice``, a ``chosen``'s
    ``choice``)."""
    out: list[str | None] = []
    for f in frames:
        if f["type"] == "state" and f["table"]["me"]:
            out.append(f["table"]["me"]["choice"])
        elif f["type"] == "chosen":
            out.append(f.get("choice"))
    return out


def check_every_frame(room: Room) -> None:
    """Every frame on its own: the invariants, and every token in exactly one frame, its owner's welcome."""
    tokens = {player.token: player for player in room.players}
    for client in room.everyone:
        for raw in client.frames:
            frame = json.loads(raw)
            if frame["type"] == "state":
                assert not view_problems(frame["table"]), view_problems(frame["table"])
            for token, owner in tokens.items():
                if token and token in raw:
                    assert client is owner and frame["type"] == "welcome", "a token went to someone else"
    for token, owner in tokens.items():
        assert token is not None and sum(token in raw for raw in owner.frames) == 1


def played(scenario: Any) -> Any:
    """Run a scenario, then close every phone it opened (in the same event loop)."""

    async def whole() -> Any:
        result = await scenario
        for room in result if isinstance(result, tuple) else (result,):
            if isinstance(room, Room):
                await room.close()
        return result

    return run(whole())


async def two_rooms(
    server: ServerProcess, first: list[list[str]], second: list[list[str]], **options: Any
) -> tuple[Room, Room]:
    rooms = (await Room(server, first, **options).open(), await Room(server, second, **options).open())
    await asyncio.gather(*(room.start() for room in rooms))
    return rooms


async def side_by_side(rooms: tuple[Room, Room], *plays: Any) -> tuple[Room, Room]:
    """Each room played by its own coroutine, both at once (two tables: what one does never reaches the other's
    phones, and each step waits for what it caused in its own room)."""
    await asyncio.gather(*plays)
    return rooms


def test_the_order_of_unseen_cards_never_reaches_anyone(scripted: ServerProcess) -> None:
    async def scenario() -> tuple[Room, Room]:
        rooms = await two_rooms(scripted, DECK_A, DECK_B)

        async def play(room: Room) -> None:
            for card in (1, 2):  # everyone goes deeper twice; Ann hesitates, the same way in both rooms
                await room.choose(0, "camp")
                await room.choose(0, "deeper")
                for who in (1, 2, 3):
                    await room.choose(who, "deeper")
                await room.wait_all(lambda s, card=card: s["state"]["path"] and len(s["state"]["path"]) > card)

        return await side_by_side(rooms, *(play(room) for room in rooms))

    a, b = played(scenario())
    for recipient_a, recipient_b in zip(a.everyone, b.everyone, strict=True):
        frames_a, frames_b = a.frames(recipient_a), b.frames(recipient_b)
        before_a, before_b = until_path(frames_a, 3), until_path(frames_b, 3)
        # Not a vacuous comparison.  (Version 2 sends no whole state for a choice; neither version tells Ann's
        # changes of mind to anyone but Ann.)
        assert len(before_a) > 8
        assert Room.version == 1 or sum(f["type"] == "chosen" for f in before_a) >= 6
        assert before_a == before_b  # up to the third card, nothing differs: not a byte of the order
        assert frames_a[len(before_a)] != frames_b[len(before_b)]  # and the test would have seen it
    for room in (a, b):
        check_every_frame(room)
    clean_log(scripted)


def test_nobody_learns_a_choice_before_the_reveal(scripted: ServerProcess) -> None:
    # Same deck; every choice differs between the two rooms.  Ann, Bob and Cat change their mind once
    # in both rooms (how often someone changes their mind is visible, by design; what they chose is not).
    first = [("deeper", "camp"), ("camp", "deeper"), ("deeper", "camp"), ("deeper", "deeper")]
    second = [("camp", "deeper"), ("deeper", "camp"), ("camp", "deeper"), ("camp", "camp")]

    async def scenario() -> tuple[Room, Room]:
        rooms = await two_rooms(scripted, DECK_A, DECK_A)

        async def play(room: Room, plan: list[tuple[str, str]]) -> None:
            for who in (0, 1, 2):
                await room.choose(who, plan[who][0])
            for who in (0, 1, 2):
                await room.choose(who, plan[who][1])
            await room.choose(3, plan[3][1])  # the last choice: the reveal
            await room.wait_all(lambda s: s["state"]["reveal"] is not None)

        return await side_by_side(rooms, *(play(r, p) for r, p in zip(rooms, (first, second), strict=True)))

    a, b = played(scenario())
    for i, (recipient_a, recipient_b) in enumerate(zip(a.everyone, b.everyone, strict=True)):
        frames_a, frames_b = a.frames(recipient_a), b.frames(recipient_b)
        before_a, before_b = until_path(frames_a, 2), until_path(frames_b, 2)
        assert len(before_a) == len(before_b)  # the same frames, as many, in the same order
        assert without_own_choice(before_a) == without_own_choice(before_b)
        own = own_choices(before_a)
        if i < 3:  # a player's own pending choice, as they made it (Dan's last choice revealed at once)
            shown = [c for c in own if c is not None]
            assert [c for j, c in enumerate(shown) if j == 0 or c != shown[j - 1]] == list(first[i])
        reveal_a, reveal_b = frames_a[len(before_a)]["table"], frames_b[len(before_b)]["table"]
        assert reveal_a["state"]["reveal"] != reveal_b["state"]["reveal"]  # the reveal shows them, to all at once
        if i >= 4:
            assert {f["table"]["me"] for f in frames_a if f["type"] == "state"} == {None}
            assert not any("choice" in f for f in frames_a if f["type"] == "chosen")
    for room in (a, b):
        check_every_frame(room)
    clean_log(scripted)


def test_the_reveal_is_the_next_frame_after_the_last_choice_whatever_it_was(scripted: ServerProcess) -> None:
    async def scenario() -> tuple[Room, Room]:
        rooms = await two_rooms(scripted, DECK_A, DECK_A)

        async def play(room: Room, last: str) -> None:
            for who in (0, 1, 2):
                await room.choose(who, "deeper")
            for client in room.everyone:
                client.frames.append(json.dumps({"type": "pong", "marker": True}))
            await room.choose(3, last)

        return await side_by_side(rooms, *(play(r, m) for r, m in zip(rooms, ("deeper", "camp"), strict=True)))

    a, b = played(scenario())
    for room in (a, b):
        for client in room.everyone:
            mark = next(i for i, f in enumerate(client.frames) if '"marker"' in f)
            after = [json.loads(f) for f in client.frames[mark + 1 :] if '"pong"' not in f]
            assert len(after) == 1, [
                (
                    f["table"]["decision"],
                    len(f["table"]["state"]["path"]),
                    f["table"]["state"]["reveal"],
                    [p["chosen"] for p in f["table"]["people"]],
                )
                for f in after
            ]  # exactly one frame: the reveal, triggered by the last choice
            assert len(after[0]["table"]["state"]["path"]) == 2 or after[0]["table"]["state"]["reveal"]["leavers"]


def test_at_the_deadline_the_reveal_comes_on_time_whatever_was_chosen(scripted: ServerProcess) -> None:
    """Dan says nothing; the others choose differently in the two rooms: in both, the reveal comes by the clock
    (never before the deadline, with Dan alone timed out) and the spectator sees the same frames up to it.

    Each choice is followed by waiting for the spectator to see it, so each makes exactly one frame whatever
    the machine's speed (choices that land in one pacer interval would share a frame); the clock is long enough
    for three choices, and the reveal says whether all three were in."""
    seconds = 2.5

    async def room_with(moves: list[str]) -> tuple[float, list[dict[str, Any]], dict[str, Any]]:
        room = await Room(scripted, DECK_A, seconds=seconds).open()
        # Taken before the start is sent, so the server opens the decision no earlier than this. (Taken when the
        # spectator sees the game begin, it would be late by however long that frame took to arrive, and a busy
        # machine would make a reveal on time look early.)
        opened = time.monotonic()
        await room.players[0].send({"type": "start"})
        await room.spectator.until(lambda s: s["phase"] == "playing")
        await room.wait_all(lambda s: s["phase"] == "playing")
        seen = len(room.spectator.frames)
        for who, move in enumerate(moves):
            await room.players[who].send({"type": "choose", "move": move})
            await room.spectator.until(chosen_by(who + 1), timeout=10)
        await room.spectator.until(lambda s: s["state"]["reveal"] is not None, timeout=10)
        revealed = time.monotonic() - opened
        reveal = room.spectator.state or {}
        await room.close()
        after = [json.loads(f) for f in room.spectator.frames[seen:] if '"pong"' not in f]
        assert len(until_reveal(after)) == len(moves)  # one per choice: who chose, and when, nothing more
        return revealed, until_reveal(room.frames(room.spectator)), reveal

    async def both() -> list[tuple[float, list[dict[str, Any]], dict[str, Any]]]:
        return list(
            await asyncio.gather(room_with(["deeper", "deeper", "deeper"]), room_with(["camp", "camp", "deeper"]))
        )

    (t1, f1, r1), (t2, f2, r2) = run(both())
    assert r1["timed_out"] == r2["timed_out"] == [3], "the three choices were all in before the deadline"
    assert t1 >= seconds - 0.05 and t2 >= seconds - 0.05  # by the clock, not before it
    assert f1 == f2  # frame for frame, whatever was chosen


def chosen_by(n: int) -> Any:
    """A test of a view: exactly ``n`` people are shown as having chosen."""
    return lambda view: sum(p["chosen"] for p in view["people"]) == n


def until_reveal(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames before the first that reveals the choices."""
    for i, frame in enumerate(frames):
        if frame["type"] == "state" and (frame["table"]["state"] or {}).get("reveal") is not None:
            return frames[:i]
    raise AssertionError("no frame reveals the choices")


def test_spectators_and_the_tv_see_exactly_the_public_view(scripted: ServerProcess) -> None:
    async def scenario() -> Room:
        room = await Room(scripted, [["5", "7", "spiders", "spiders"], *REST]).open()
        await room.start()
        while True:  # a whole game: Ann walks out at once, the others go on into the collapse
            await room.settle()
            state = room.spectator.state or {}
            if state.get("phase") == "results":
                return room
            for who, player in enumerate(room.players):
                me = (player.state or {}).get("me") or {}
                if state.get("phase") == "playing" and me.get("moves") and me.get("choice") is None:
                    # (sent at once, settled together above: this test compares recipients, not two rooms)
                    await player.send({"type": "choose", "move": "camp" if who == 0 else "deeper"})
            await asyncio.sleep(0.05)

    room = played(scenario())
    spectator = [f for f in room.frames(room.spectator) if f["type"] == "state"]
    tv = [f for f in room.frames(room.tv) if f["type"] == "state"]
    assert spectator == tv  # the TV is a spectator
    assert all(f["table"]["me"] is None for f in spectator)
    assert all(f["table"]["state"] is None or f["table"]["state"]["seat"] is None for f in spectator)
    public = {json.dumps(f["table"], sort_keys=True) for f in spectator}
    for player in room.players:
        for frame in room.frames(player):
            if frame["type"] == "state" and frame["table"]["decision"] > 0:
                assert json.dumps(public_part(frame["table"]), sort_keys=True) in public
    final = normal_view(room.spectator.state or {})
    assert final["state"]["scores"] is not None
    assert rebuilt_views(scripted.data / "gemtable.sqlite3", [room.code])[room.code] == final
    check_every_frame(room)


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    """A player's view with what is theirs alone taken out: what a spectator must see at that moment."""
    out: dict[str, Any] = json.loads(json.dumps(view))
    out["me"] = None
    game = out["state"]
    if game is not None:
        game["seat"] = None
        game["hindsight"] = None  # what one more card would have done to this player: theirs alone
        if game["phase"] != "over":
            for player in game["players"]:
                player["chest"] = player["chest_by_cave"] = None
    return out


def test_the_log_holds_no_token_and_no_choice(scripted: ServerProcess) -> None:
    async def scenario() -> list[str]:
        room = await Room(scripted, DECK_A).open()
        await room.start()
        for who, move in enumerate(["deeper", "camp", "camp", "deeper"]):
            await room.choose(who, move)
        await room.wait_all(lambda s: s["state"]["reveal"] is not None)
        forger = await Client.open(scripted.ws)
        await forger.send({"type": "hello", "code": room.code, "token": "forged-" + (room.players[0].token or "")})
        await forger.error()
        tokens = [p.token or "" for p in room.players]
        await room.close()
        return tokens

    tokens = run(scenario())
    log = clean_log(scripted).replace(str(scripted.data), "DATA")  # (this test's name holds "token")
    for token in tokens:
        assert token and token not in log
    assert not re.search(r"deeper|camp|token", log, re.IGNORECASE), log[-2000:]
