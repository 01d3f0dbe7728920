"""Keep-alive pings go to silent phones only (``server/websocket.py``): a phone that speaks is not pinged, one
that falls silent is pinged an interval after its last word and closed if it does not answer.

Each test drives a real server through a raw socket and the ``websockets`` sans-I/O client, which shows every
frame — pings included — and answers a ping only when the test sends what it queued."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from tests.server.harness import ServerProcess

PING = 1.0
"""The server's keep-alive interval in these tests (``GEMTABLE_WS_PING_SECONDS``), and its pong timeout."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data")
    proc.env = {"GEMTABLE_WS_PING_SECONDS": str(PING)}
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


class RawPhone:
    """One WebSocket, frame by frame."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, ws: ClientProtocol) -> None:
        self.reader, self.writer, self.ws = reader, writer, ws
        self.pings: list[float] = []
        """When each ping frame arrived (``time.monotonic``)."""
        self.texts: list[dict[str, object]] = []
        self.closed = False

    @classmethod
    async def open(cls, server: ServerProcess) -> RawPhone:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        ws = ClientProtocol(parse_uri(server.ws))
        ws.send_request(ws.connect())
        phone = cls(reader, writer, ws)
        phone.flush()
        while ws.state is State.CONNECTING:
            await phone.read(10)
        assert ws.state is State.OPEN, ws.handshake_exc
        return phone

    def flush(self) -> None:
        """Send what the protocol queued: our messages, and pongs to the pings read so far."""
        self.writer.write(b"".join(self.ws.data_to_send()))

    def drop_queued(self) -> None:
        """Forget what the protocol queued (the pongs it would answer with): a phone that does not answer."""
        self.ws.data_to_send()

    def say(self, message: dict[str, object]) -> float:
        self.ws.send_text(json.dumps(message).encode())
        self.flush()
        return time.monotonic()

    async def read(self, timeout: float) -> None:
        """Read what arrives within ``timeout`` seconds (at least one chunk, or none if nothing came)."""
        try:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
        except TimeoutError:
            return
        if not data:
            self.closed = True
            self.ws.receive_eof()
        else:
            self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                continue
            assert isinstance(event, Frame)
            if event.opcode is Opcode.PING:
                self.pings.append(time.monotonic())
            elif event.opcode is Opcode.TEXT:
                self.texts.append(json.loads(bytes(event.data)))
            elif event.opcode is Opcode.CLOSE:
                self.closed = True

    async def read_until(self, done: Callable[[], object], seconds: float, answer: bool) -> None:
        """Read until ``done()`` or for ``seconds`` at most; answer pings or not."""
        until = time.monotonic() + seconds
        while not self.closed and not done() and (left := until - time.monotonic()) > 0:
            await self.read(left)
            if answer:
                self.flush()
            else:
                self.drop_queued()

    async def read_for(self, seconds: float, answer: bool) -> None:
        await self.read_until(lambda: False, seconds, answer)

    def close(self) -> None:
        self.writer.close()


def test_a_silent_phone_is_pinged_and_closed_when_it_does_not_answer(server: ServerProcess) -> None:
    code = server.create_table()

    async def scenario() -> tuple[float, list[float], bool, list[str]]:
        phone = await RawPhone.open(server)
        said = phone.say({"type": "hello", "v": 2, "code": code})
        await phone.read_until(lambda: phone.pings, 10 * PING + 10, answer=False)
        await phone.read_for(10 * PING + 10, answer=False)  # no pong: the server gives up on it
        phone.close()
        return said, phone.pings, phone.closed, [str(t["type"]) for t in phone.texts]

    said, pings, closed, kinds = asyncio.run(scenario())
    assert kinds[:2] == ["welcome", "state"]
    assert pings, "a silent phone is pinged"
    assert pings[0] - said >= PING * 0.9, "not before it has been silent for an interval"
    assert closed, "a phone that does not answer the ping is closed"


def test_a_phone_that_speaks_is_not_pinged_until_it_falls_silent_and_an_answer_keeps_it(
    server: ServerProcess,
) -> None:
    code = server.create_table()

    async def scenario() -> tuple[int, int, float, list[float], bool]:
        phone = await RawPhone.open(server)
        last = phone.say({"type": "hello", "v": 2, "code": code})
        talking_until = time.monotonic() + 4 * PING
        while time.monotonic() < talking_until:  # a word every quarter of an interval, as a page's ping is
            await phone.read_for(PING / 4, answer=True)
            last = phone.say({"type": "ping"})
        pings_while_talking = len(phone.pings)
        pongs = sum(1 for t in phone.texts if t["type"] == "pong")
        # Silent now: pinged an interval after its last word; it answers, so it stays.
        await phone.read_for(3 * PING + 1, answer=True)
        phone.close()
        return pings_while_talking, pongs, last, phone.pings, phone.closed

    pings_while_talking, pongs, last, pings, closed = asyncio.run(scenario())
    assert pongs >= 8, "the server answered the phone's pings"
    assert pings_while_talking == 0, "a phone that spoke within the interval is not pinged"
    assert pings, "once silent, it is pinged"
    assert pings[0] - last >= PING * 0.9
    assert not closed, "a phone that answers its pings stays connected"
