"""A small Python client of the gemtable protocol, for tests, benchmarks and remote bots.

    async with Client.connect("ws://127.0.0.1:8000/ws") as client:
        await client.join("ABCD", "Ann")
        state = await client.until(lambda s: s["phase"] == "playing")
        await client.choose("deeper")

The client keeps the latest state the server sent (``client.state``), the
errors it received (``client.errors``) and the seat token (``client.token``).
It speaks the protocol's own types (``gemtable.server.protocol``) both ways, in
version 2: a ``chosen`` message is applied to the state it follows; a missing
``seq`` (a message lost) asks the server for the whole state again (``sync``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from types import TracebackType
from typing import Any

import msgspec
import websockets
from websockets.asyncio.client import ClientConnection

from gemtable.server import protocol as p
from gemtable.table.view import apply_choices

State = dict[str, Any]


class ServerError(RuntimeError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Client:
    def __init__(self, ws: ClientConnection, version: p.Version = p.VERSION) -> None:
        self.ws = ws
        self.version = version
        """The protocol version its ``hello`` and ``join`` speak (1: a whole state after every change)."""
        self.state: State | None = None
        self.person: int | None = None
        self.token: str | None = None
        self.code: str | None = None
        self.errors: list[dict[str, Any]] = []
        self.frames: list[str] = []
        """Every frame received, raw (for secrecy tests)."""
        self.replaced = False
        self.removed: dict[str, Any] | None = None
        """The ``removed`` message, once the host removed this phone's person (``ban``, ``by``, ``message``)."""
        self.closed = False
        self.ended: str | None = None
        """Why the connection ended, once it has (the close frame, or the client's own error)."""
        self.seq = 0
        """The ``seq`` of the last table message taken (a ``state`` or a ``chosen``)."""
        self.syncs = 0
        """How many times a missing message made this client ask for the whole state."""
        self._syncing = False
        self._changed = asyncio.Condition()
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, url: str, version: p.Version = p.VERSION, source: str | None = None) -> Client:
        """A phone connected to ``url``; ``source``: the local address it connects from (a loopback address of its
        own in the tests: another household, with its own budgets)."""
        if source is None:
            return cls(await websockets.connect(url, max_size=2**22, open_timeout=10), version)
        return cls(await websockets.connect(url, max_size=2**22, open_timeout=10, local_addr=(source, 0)), version)

    @classmethod
    def connect(cls, url: str) -> _Connecting:
        return _Connecting(url)

    async def close(self) -> None:
        self._reader.cancel()
        await self.ws.close()

    async def send(self, message: p.ClientMessage | dict[str, Any]) -> None:
        """A protocol message (or, for tests of bad input, any JSON object)."""
        if isinstance(message, dict):
            await self.ws.send(json.dumps(message))
        else:
            await self.ws.send(p.encode(message).decode())

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    # --- the protocol ----------------------------------------------------------------------

    async def hello(self, code: str, token: str | None = None, tv: bool = False) -> State:
        """Open a table (with a seat token, or as an onlooker): its state, or ``{}`` if the token was refused
        (the error is in ``errors``)."""
        self.code = code
        seen = len(self.frames)
        await self.send(p.Hello(v=self.version, code=code, token=token, tv=tv))
        if token:
            self.token = token
        # The table's state; or, for a token the table refuses, only the error (a refusal tells nothing more).
        await self._wait(lambda: (self.state is not None and len(self.frames) > seen) or bool(self.errors_since(seen)))
        return self.state or {}

    async def join(self, code: str, name: str) -> State:
        self.code = code
        seen = len(self.frames)
        await self.send(p.Join(v=self.version, code=code, name=name))
        await self._wait(lambda: self.token is not None or len(self.errors_since(seen)) > 0)
        if self.token is None:
            error = self.errors_since(seen)[-1]
            raise ServerError(error["code"], error["message"])
        return await self.until(lambda s: s.get("me") is not None)

    async def choose(self, move: str, decision: int | None = None) -> None:
        await self.send(p.Choose(move=move, decision=decision))

    async def predict(
        self, key: str, out: list[int] | None = None, collapse: bool | None = None, leader: int | None = None
    ) -> None:
        """A watcher's prediction of the audience's open question (``me.audience.open``)."""
        await self.send(p.Predict(key=key, out=out, collapse=collapse, leader=leader))

    async def start(self) -> None:
        """The host starts a game (a countdown first, unless the table has none)."""
        await self.send(p.Start())

    async def cancel_start(self) -> None:
        await self.send(p.CancelStart())

    async def pause(self) -> None:
        await self.send(p.Pause())

    async def resume(self) -> None:
        await self.send(p.Resume())

    async def end(self) -> None:
        """The host ends the game now (straight to the results)."""
        await self.send(p.End())

    async def hand_host(self, person: int) -> None:
        await self.send(p.Host(person=person))

    async def change_settings(self, **changes: Any) -> None:
        """The host changes the settings between games: ``game`` (another game at the same table), ``preset``,
        ``options``, ``seconds``, ``pause``, ``turn_clock``, ``beat``, ``hold_silent``."""
        await self.send(p.ChangeSettings(**changes))

    async def extra_time(self, person: int, factor: int) -> None:
        """The host gives ``person`` more time per decision: ``factor`` 2 or 3, 0 (no clock), 1 (as everyone)."""
        await self.send(p.ExtraTime(person=person, factor=factor))

    async def unban(self, ban: int) -> None:
        await self.send(p.Unban(ban=ban))

    async def leave(self) -> None:
        await self.send(p.Leave())

    async def add_bot(self, bot: str) -> None:
        await self.send(p.AddBot(bot=bot))

    async def remove_bot(self, chair: int) -> None:
        await self.send(p.RemoveBot(chair=chair))

    async def remove(self, person: int, ban: bool = False) -> None:
        """The host removes someone (and, with ``ban``, keeps them out until the ban is lifted)."""
        await self.send(p.Remove(v=self.version, person=person, ban=ban))

    # --- waiting ---------------------------------------------------------------------------

    async def until(self, test: Callable[[State], bool], timeout: float = 15.0, after: int = 0) -> State:
        """The first state (received after frame ``after``) for which ``test`` is true — that state, even if
        newer ones have come since (a phone that changes its mind quickly passes through states)."""
        found: list[State] = []

        def ready() -> bool:
            if self.state is not None and len(self.frames) > after and test(self.state):
                found.append(self.state)
                return True
            return False

        await self._wait(ready, timeout)
        return found[0]

    async def error(self, timeout: float = 10.0, after: int = 0) -> dict[str, Any]:
        """The first error received after error number ``after``."""
        await self._wait(lambda: len(self.errors) > after, timeout)
        return self.errors[after]

    def errors_since(self, frame: int) -> list[dict[str, Any]]:
        out = []
        for raw in self.frames[frame:]:
            data = json.loads(raw)
            if data.get("type") == "error":
                out.append(data)
        return out

    async def _wait(self, ready: Callable[[], bool], timeout: float = 15.0) -> None:
        """Until ``ready()`` is true (it is not asked again once it was: the reader may have moved on since)."""
        met = False

        def done() -> bool:
            nonlocal met
            met = met or ready()
            return met or self.closed

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(done), timeout)
        if not met:
            raise ConnectionError(f"the connection ended ({self.ended})")

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                self.frames.append(text)
                with contextlib.suppress(msgspec.MsgspecError):  # not the protocol: kept raw, in frames
                    self._take(p.decode_server(text))
                async with self._changed:
                    self._changed.notify_all()
            self.ended = f"closed with {self.ws.close_code} {self.ws.close_reason!r}"
        except websockets.ConnectionClosed as exc:
            self.ended = str(exc)
        except BaseException as exc:
            self.ended = f"client error: {exc!r}"
            raise
        finally:
            self.closed = True
            async with self._changed:
                self._changed.notify_all()

    def _take(self, message: p.ServerMessage) -> None:
        if isinstance(message, p.State):
            self.state = message.table
            self.seq = message.seq
            self._syncing = False
        elif isinstance(message, p.Chosen):
            if self._syncing:
                return  # the whole state asked for is on its way
            if self.state is None or message.seq != self.seq + 1:
                self._sync()
                return
            self.seq = message.seq
            self.state = apply_choices(self.state, message.people, message.choice)
        elif isinstance(message, p.Welcome):
            self.person = message.person
            if message.token:
                self.token = message.token
        elif isinstance(message, p.Error):
            self.errors.append(msgspec.to_builtins(message))
        elif isinstance(message, p.Replaced):
            self.replaced = True
        elif isinstance(message, p.Removed):
            self.removed = msgspec.to_builtins(message)
            self.person = None

    def _sync(self) -> None:
        """A table message was missed: ask for the whole state (once until it comes)."""
        self._syncing = True
        self.syncs += 1
        task = asyncio.ensure_future(self.send(p.Sync()))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())


class _Connecting:
    def __init__(self, url: str) -> None:
        self.url = url
        self.client: Client | None = None

    async def __aenter__(self) -> Client:
        self.client = await Client.open(self.url)
        return self.client

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.client is not None:
            await self.client.close()
