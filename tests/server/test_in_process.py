"""The HTTP API, the phones' endpoint and the hub in this very process, through Starlette's ``TestClient`` (the
app, its middleware and its lifespan as ``gemtable serve`` puts them together, on a memory store).

Every other server test runs a real ``gemtable serve`` process — the room as it is — and those stay the proof;
these are the few that let a debugger, a profiler or the coverage of pytest's own process see the API and the
hub at work: every route answered and refused as documented, and a whole game played by a phone and a bot
over the WebSocket, recorded and replayed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from gemtable.games import GameRecord, game_names, replay
from gemtable.server import protocol
from gemtable.server.app import create_app
from gemtable.server.limits import Limits
from gemtable.server.site import Site
from gemtable.store import MemoryStore
from tests.conformance.conftest import register_tiny_game

BASE = "http://127.0.0.1:8000"


@pytest.fixture
def client() -> Iterator[TestClient]:
    register_tiny_game()  # a game known to this process only, as GEMTABLE_GAMES would make it
    site = Site.build(8000, listen="127.0.0.1", interfaces=[], hostname="")
    app = create_app(MemoryStore(), allow_scripts=True, site=site)
    with TestClient(app, base_url=BASE) as test_client:  # runs the lifespan: the hub starts and stops
        yield test_client


def test_the_catalogue_lists_every_game_with_its_own_files_and_bots(client: TestClient) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    games = {game["name"]: game for game in response.json()["games"]}
    assert list(games) == game_names() and {"expedition", "booty", "pick"} <= set(games)
    assert response.json()["protocol"] == protocol.VERSION
    for name, game in games.items():
        assert game["page"] == f"/games/{name}/page.js" and game["bots"]
        assert client.get(game["page"]).status_code == 200  # served from the game's own folder
    assert client.get("/healthz").text == "ok"
    assert client.get("/api/schema").json()["version"] == protocol.VERSION
    assert client.get("/api/node").json()["runs"] == 0
    assert client.get("/api/server").json()["public_url"].startswith("http://")


def test_creating_a_table_is_checked_before_anything_is_made(client: TestClient) -> None:
    form = client.post(
        "/api/tables", content="game=pick", headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert form.status_code == 415 and form.json()["error"] == "bad-request"
    broken = client.post("/api/tables", content="{", headers={"content-type": "application/json"})
    assert broken.status_code == 400
    huge = client.post("/api/tables", json={"game": "pick", "name": "x" * 100_000})
    assert huge.status_code == 413 and huge.json()["error"] == "too-large"
    unknown = client.post("/api/tables", json={"game": "chess"})
    assert unknown.status_code == 400 and "chess" in unknown.json()["message"]
    foreign = client.post("/api/tables", json={"game": "pick"}, headers={"origin": "https://evil.example"})
    assert foreign.status_code == 403 and foreign.json()["error"] == "cross-origin"
    assert client.get("/api/tables/QQQQ").status_code == 404
    assert client.get("/api/tables/QQQQ/games/x").status_code == 400
    assert client.get("/api/tables/QQQQ/games/0").status_code == 404
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400  # the Host check
    made = client.post("/api/tables", json={"game": "pick", "seconds": 5})
    assert made.status_code == 201
    code = made.json()["code"]
    summary = client.get(f"/api/tables/{code}").json()
    assert (summary["game"], summary["phase"], summary["chairs"], summary["taken"]) == ("pick", "lobby", 2, 0)
    qr = client.get(f"/api/tables/{code}/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml" and b"<svg" in qr.content


def until(ws: WebSocketTestSession, test: Any, limit: int = 200) -> dict[str, Any]:
    """The first message from the server for which ``test`` is true."""
    for _ in range(limit):
        message: dict[str, Any] = json.loads(ws.receive_text())
        if test(message):
            return message
    raise AssertionError("the server never sent it")


def test_a_whole_game_through_the_hub_recorded_and_replayed(client: TestClient) -> None:
    code = client.post("/api/tables", json={"game": "pick", "seconds": 5, "pause": 0.5}).json()["code"]
    with client.websocket_connect("/ws", headers={"host": "127.0.0.1:8000"}) as ws:
        ws.send_text(json.dumps({"type": "join", "code": code, "name": "Ann"}))
        welcome = until(ws, lambda m: m["type"] == "welcome")
        assert welcome["token"] and welcome["code"] == code
        ws.send_text(json.dumps({"type": "add_bot", "bot": "random"}))
        until(ws, lambda m: m["type"] == "state" and len(m["table"]["people"]) == 2)
        ws.send_text(json.dumps({"type": "teleport"}))
        assert until(ws, lambda m: m["type"] == "error")["code"] == "unknown-type"
        ws.send_text(json.dumps({"type": "start"}))
        picks = ["3", "1", "2"]
        state = until(ws, lambda m: m["type"] == "state" and bool(m["table"]["me"]["moves"]))
        for pick in picks:
            decision = state["table"]["decision"]
            ws.send_text(json.dumps({"type": "choose", "move": "9", "decision": decision}))
            assert until(ws, lambda m: m["type"] == "error")["code"] == "illegal-move"
            ws.send_text(json.dumps({"type": "choose", "move": pick, "decision": decision}))
            state = until(ws, lambda m, d=decision: m["type"] == "state" and m["table"]["decision"] > d)
        assert state["table"]["phase"] == "results"
    scores = state["table"]["state"]["scores"]
    record = client.get(f"/api/tables/{code}/games/1").json()
    assert record["game"] == "pick" and record["scores"] == scores
    assert [move for seat, move in (i for i in record["inputs"] if i[0] != "round") if seat == 0] == picks
    again = replay(GameRecord.from_json(record))
    assert again.is_over() and again.scores() == scores


def test_binary_frames_take_from_the_rate_and_strike_out_like_any_bad_message(client: TestClient) -> None:
    """A binary frame is refused with an error, takes from the connection's message rate and counts as a strike:
    a device sending nothing but binary frames is closed (1008) after ``strikes_before_close`` of them, as one
    sending bad text is (it was answered for ever, 13,559 frames a second from four sockets)."""
    strikes = Limits().strikes_before_close
    with client.websocket_connect("/ws", headers={"host": "127.0.0.1:8000"}) as ws:
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(strikes + 5):
                ws.send_bytes(b'{"type": "ping"}')
                codes.append(json.loads(ws.receive_text())["code"])
        assert closed.value.code == 1008
        assert len(codes) == strikes and set(codes) <= {"binary", "slow-down"} and "binary" in codes
