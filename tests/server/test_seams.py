"""The names of other libraries' insides that the server still uses, checked against the installed releases.

``server/websocket.py`` and ``server/guard.py`` subclass uvicorn's protocols and read a few attributes that
are not those libraries' public API (pyproject.toml holds uvicorn, websockets and h11 to the release series
tested; ``scripts/test --latest`` tries the newest).  An upgrade that renames or removes one must fail here,
naming it, not as a phone that silently stops getting its messages."""

from __future__ import annotations

import asyncio
import inspect
import re

import h11
import pytest
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.server import ServerProtocol

# (where, attribute): set on an instance in __init__ (found in its source), or defined on the class.
PROTOCOL_ATTRIBUTES = [
    "read_paused",
    "queue",
    "writable",
    "initial_response",
    "close_sent",
    "handshake_complete",
    "request",
    "response",
]
PROTOCOL_METHODS = [
    "send_receive_event_to_app",
    "send_keepalive_ping",
    "handle_connect",
    "data_received",
    "start_keepalive",
]
CONNECTION_ATTRIBUTES = ["writes", "expect_continuation_frame", "parser", "available_extensions", "extensions"]
H11_ATTRIBUTES = ["conn", "client", "transport", "loop", "flow", "timeout_keep_alive_handler", "on_response_complete"]


def _assigned(cls: type, name: str) -> bool:
    """Whether ``self.NAME`` is assigned (``self.NAME = …`` or ``self.NAME: T = …``) anywhere in the class or its
    bases (``__init__``, ``connection_made``…)."""
    pattern = re.compile(rf"self\.{name}\b\s*(:[^=\n]*)?=[^=]")
    return any(
        pattern.search(inspect.getsource(base))
        for base in cls.__mro__
        if base.__module__ not in ("builtins", "asyncio")
    )


@pytest.mark.parametrize("name", PROTOCOL_ATTRIBUTES)
def test_uvicorn_sansio_protocol_still_has(name: str) -> None:
    assert _assigned(WebSocketsSansIOProtocol, name) or hasattr(WebSocketsSansIOProtocol, name), (
        f"uvicorn's WebSocketsSansIOProtocol no longer has {name!r}: server/websocket.py uses it"
    )


@pytest.mark.parametrize("name", PROTOCOL_METHODS)
def test_uvicorn_sansio_protocol_still_has_method(name: str) -> None:
    assert callable(getattr(WebSocketsSansIOProtocol, name, None)), (
        f"uvicorn's WebSocketsSansIOProtocol no longer has the method {name!r}: server/websocket.py overrides it"
    )


@pytest.mark.parametrize(
    ("name", "used"),
    [("queue", {"put_nowait", "get", "empty", "qsize"}), ("writable", {"set", "clear", "is_set", "wait"})],
)
def test_uvicorn_uses_only_what_the_light_queue_and_flag_have(name: str, used: set[str]) -> None:
    """``SmallDeflate`` swaps uvicorn's ``asyncio.Queue`` and ``asyncio.Event`` for ``Inbox`` and ``Flag``, which
    have only the methods uvicorn calls (and ``websocket.py`` itself): a new call fails here, not at a party."""
    from gemtable.server import websocket as ws

    called = set()
    for base in WebSocketsSansIOProtocol.__mro__:
        if base.__module__.startswith("uvicorn"):
            called |= set(re.findall(rf"self\.{name}\.(\w+)", inspect.getsource(base)))
    called |= set(re.findall(rf"self\.{name}\.(\w+)", inspect.getsource(ws)))
    assert called <= used, f"uvicorn's protocol now calls {sorted(called - used)} on self.{name}"
    light = ws.Inbox if name == "queue" else ws.Flag
    assert all(callable(getattr(light, method)) for method in used)


def test_uvicorn_lets_go_of_nothing_it_reads_after_start_keepalive() -> None:
    """``SmallDeflate.start_keepalive`` drops the handshake's ``request`` and ``response``: uvicorn must call it
    only after it has sent the response, and read neither after (its source, in that order)."""
    source = inspect.getsource(WebSocketsSansIOProtocol)
    start = source.index("self.start_keepalive()")
    assert source.rindex("self.conn.send_response(self.response)", 0, start) < start
    after = source[start:]
    assert "self.request" not in after and "self.response" not in after, (
        "uvicorn reads request/response after start_keepalive: server/websocket.py frees them there"
    )


@pytest.mark.parametrize("name", CONNECTION_ATTRIBUTES)
def test_websockets_connection_still_has(name: str) -> None:
    assert _assigned(ServerProtocol, name) or hasattr(ServerProtocol, name), (
        f"websockets' ServerProtocol no longer has {name!r}: server/websocket.py uses it"
    )


@pytest.mark.parametrize("name", H11_ATTRIBUTES)
def test_uvicorn_h11_protocol_still_has(name: str) -> None:
    assert _assigned(H11Protocol, name) or hasattr(H11Protocol, name), (
        f"uvicorn's H11Protocol no longer has {name!r}: server/guard.py uses it"
    )


def test_h11_states_the_guard_reads() -> None:
    assert {h11.IDLE, h11.SEND_BODY} and h11.Connection(h11.SERVER).their_state is h11.IDLE


def test_asyncio_socket_transport_still_has_its_read_callback() -> None:
    """``SmallDeflate.connection_lost`` breaks the transport's cycle through ``_read_ready_cb`` (it checks for the
    name first, so a rename costs memory, not correctness: this says so loudly)."""
    from asyncio import selector_events

    transport = getattr(selector_events, "_SelectorSocketTransport")  # noqa: B009 (a private name, on purpose)
    assert "self._read_ready_cb" in inspect.getsource(transport), (
        "asyncio's socket transport no longer has _read_ready_cb: server/websocket.py's cycle breaking is a no-op"
    )
    assert all(callable(getattr(asyncio.Protocol, name)) for name in ("pause_writing", "resume_writing"))
