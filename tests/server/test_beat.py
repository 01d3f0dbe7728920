"""The reveal's beat through a real server, measured in the frames the phones receive.

When the last choice is in, every phone first gets the reveal (everyone's choice, what the leavers banked) with
the path as it was, and the next card only after the table's beat; a server killed in the middle of a beat and
started again ends it when it would have ended, not later and not at once.
"""

from __future__ import annotations

import time
from typing import Any

from gemtable.client import Client
from gemtable.server import protocol as p
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

SCRIPT = [["5", "7", "3", "9", "11", "2"], ["4", "4"]]


class Timed(Client):
    """A client that notes when each whole state arrived."""

    def _take(self, message: p.ServerMessage) -> None:
        super()._take(message)
        if isinstance(message, p.State):
            self.__dict__.setdefault("timeline", []).append((time.monotonic(), message.table))

    def arrived(self, test: Any) -> tuple[float, dict[str, Any]]:
        """The first state received for which ``test`` holds, and when it came."""
        return next((at, state) for at, state in self.__dict__.get("timeline", []) if test(state))


async def timed(url: str) -> Timed:
    client = await Timed.open(url)
    assert isinstance(client, Timed)
    return client


def path(state: dict[str, Any]) -> int:
    return len(state["state"]["path"])


def test_the_reveal_arrives_on_its_own_and_the_next_card_follows_after_the_beat(server: ServerProcess) -> None:
    beat = 1.5
    code = server.create_table(script=SCRIPT, seconds=30, pause=0.5, beat=beat)

    sent: list[float] = []

    async def play() -> tuple[Timed, Timed]:
        ann, bob = await timed(server.ws), await timed(server.ws)
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        await ann.start()
        await bob.until(lambda s: s["phase"] == "playing" and bool(s["me"]["moves"]))
        await ann.choose("camp")
        sent.append(time.monotonic())  # the last choice: the reveal, and the beat, begin no earlier than this
        await bob.choose("deeper")
        await bob.until(lambda s: s["phase"] == "playing" and path(s) == 2, timeout=beat + 15)
        return ann, bob

    for client in run(play()):
        _, reveal = client.arrived(lambda s: s["phase"] == "reveal")
        assert path(reveal) == 1, "the reveal comes with the path as it was"
        shown = reveal["state"]["reveal"]
        assert shown["leavers"] == [0] and shown["deeper"] == [1] and shown["banked"] == [2]
        assert shown["path_share"] == 1  # Ann takes her half of the lying gems
        assert reveal["state"]["players"][0]["status"] == "camp" and reveal["state"]["players"][0]["banked"] == 3
        assert reveal["me"]["moves"] == [] and 0 < reveal["remaining_ms"] <= beat * 1000
        turned_at, turned = client.arrived(lambda s: s["phase"] == "playing" and path(s) == 2)
        # Measured from before the last choice was sent, not from when the reveal arrived: a reveal read late by a
        # busy test process would make a beat kept to the millisecond look short.
        assert turned_at - sent[0] >= beat, "the next card came before the beat was over"
        assert [c["card"] for c in turned["state"]["path"]] == ["5", "7"]


def test_a_server_killed_in_the_middle_of_a_beat_ends_it_when_it_would_have(server: ServerProcess) -> None:
    beat = 10.0  # the longest: time to kill the server and start it again inside it, even on a busy machine
    code = server.create_table(script=SCRIPT, seconds=30, pause=0.5, beat=beat)
    tokens: dict[str, str] = {}
    sent: list[float] = []

    async def until_the_reveal() -> float:
        ann, bob = await timed(server.ws), await timed(server.ws)
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        tokens.update(Ann=ann.token or "", Bob=bob.token or "")
        await ann.start()
        await bob.until(lambda s: s["phase"] == "playing" and bool(s["me"]["moves"]))
        await ann.choose("deeper")
        sent.append(time.monotonic())  # the last choice: the beat begins no earlier than this
        await bob.choose("deeper")
        await bob.until(lambda s: s["phase"] == "reveal")
        at, state = bob.arrived(lambda s: s["phase"] == "reveal")
        assert path(state) == 1
        return float(at - beat + state["remaining_ms"] / 1000)  # when the beat began, as the frame tells it

    began = run(until_the_reveal())
    server.kill()  # SIGKILL, in the middle of the beat
    server.start()

    async def after_restart() -> None:
        bob = await timed(server.ws)
        first = await bob.hello(code, tokens["Bob"])
        if first["phase"] == "reveal":  # the restart was quick: the beat goes on where it was
            assert path(first) == 1 and first["remaining_ms"] <= (began + beat - time.monotonic()) * 1000 + 500
        turned = await bob.until(lambda s: s["phase"] == "playing" and path(s) == 2, timeout=beat + 20)
        assert turned["state"]["reveal"]["deeper"] == [0, 1]
        turned_at, _ = bob.arrived(lambda s: s["phase"] == "playing" and path(s) == 2)
        # (From before the last choice was sent: a true lower bound of the beat's start, where ``began`` is late by
        # however long the reveal's frame waited to be read.)
        assert turned_at >= sent[0] + beat, "the beat was cut short by the restart"

    started = time.monotonic()
    run(after_restart())
    assert started < began + beat, "the restart took longer than the beat: this test saw nothing of it"
