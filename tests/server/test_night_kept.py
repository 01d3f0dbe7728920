"""The night is kept (issue 41): a finished game's record as a file, its result card (an SVG made by the server),
and the table's list of the night's games, through a real server and its SQLite file — and after a restart."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from typing import Any

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import key, run, to_act

HOSTILE = ['<b>Réka & "Ben"</b>', "שלום עולם", "Gergő 🎲"]
"""Names as players type them: markup, an ampersand, quotes, right-to-left script, an emoji."""
SVG = "{http://www.w3.org/2000/svg}"


def play_short_game(server: ServerProcess, names: list[str]) -> str:
    """A table where ``names`` play one short cave: the first walks out at the first card (3 gems), the others
    go deeper into two Spiders.  The code of the table, its game 1 finished."""
    code = server.create_table(script=[["5", "spiders", "spiders"]], options={"caves": 1}, seconds=10, pause=0.5)

    async def scenario() -> None:
        clients = [await Client.open(server.ws) for _ in names]
        for client, name in zip(clients, names, strict=True):
            await client.join(code, name)
        await clients[0].until(lambda s: len(s["people"]) == len(names))
        await clients[0].start()

        async def play(client: Client, move: str) -> None:
            done: set[tuple[int, int, int]] = set()
            while True:
                s = await client.until(lambda s: s["phase"] == "results" or (to_act(s) and key(s) not in done), 30)
                if s["phase"] == "results":
                    return
                done.add(key(s))
                await client.choose(move)

        await asyncio.gather(*(play(c, "camp" if i == 0 else "deeper") for i, c in enumerate(clients)))
        for client in clients:
            await client.close()

    run(scenario())
    return code


def fetch(server: ServerProcess, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(server.base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def texts(svg: bytes) -> list[str]:
    """Every line of text of an SVG, as a reader gets it (which also proves it is well-formed XML)."""
    root = ET.fromstring(svg)
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def test_a_finished_game_is_kept_as_a_record_a_card_and_a_line_of_the_night(server: ServerProcess) -> None:
    code = play_short_game(server, HOSTILE)
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200 and record["winners"] == [0] and record["scores"] == [3, 0, 0]
    assert isinstance(record["finished_at"], float)

    # The record as a file: the same JSON, named, to download; nothing in it a finished game's page does not show.
    status, headers, body = fetch(server, f"/api/tables/{code}/games/1/record.json")
    assert status == 200 and headers["content-type"] == "application/json"
    assert headers["content-disposition"] == f'attachment; filename="gemtable-{code}-game-1.json"'
    assert json.loads(body) == record
    assert set(record) <= {
        *("game", "rules", "seats", "seed", "script", "inputs", "scores", "winners", "names", "bots", "table"),
        *("number", "history", "left", "stand_ins", "ended", "final", "finished_at", "looks"),
    }
    assert "token" not in body.decode() and "address" not in body.decode()

    # The result card: well-formed whatever the names, each name as text (never markup), RTL isolated.
    status, headers, svg = fetch(server, f"/api/tables/{code}/games/1/card.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert headers["content-disposition"] == f'inline; filename="gemtable-{code}-game-1.svg"'
    lines = texts(svg)
    root = ET.fromstring(svg)
    assert root.get("role") == "img" and root.find(f"{SVG}title") is not None
    assert not list(root.iter(f"{SVG}b")) and b"<script" not in svg and b"<b>" not in svg
    for name in HOSTILE:
        assert f"\u2068{name}\u2069" in lines, (name, lines)
    assert "1st" in lines and "2nd" in lines and "Chest cave by cave" in lines
    assert f"\u2068{HOSTILE[0]}\u2069 wins!" in lines
    hungarian = texts(fetch(server, f"/api/tables/{code}/games/1/card.svg?lang=hu")[2])
    assert any(line.endswith("1. játék") for line in hungarian) and "1." in hungarian

    # The night: game 1 and its winner.
    status, night = server.get(f"/api/tables/{code}/games")
    assert status == 200 and [g["number"] for g in night["games"]] == [1]
    assert night["games"][0]["winners"] == [0] and night["games"][0]["names"]["0"] == HOSTILE[0]
    status, page = server.get(f"/t/{code}/night")
    assert status == 200 and b"night.js" in page

    for path in ("games/2", "games/2/card.svg", "games/2/record.json", "games/99/card.svg"):
        status, headers, body = fetch(server, f"/api/tables/{code}/{path}")
        assert status == 404 and json.loads(body)["error"] == "no-record", path
    status, headers, body = fetch(server, f"/api/tables/{code}/games/x/card.svg")
    assert status == 400 and json.loads(body)["message"] == "a game number is a whole number"
    for path in ("QQQQ/games", "QQQQ/games/1/card.svg", "QQQQ/games/1/record.json", "<b>/games"):
        status, headers, body = fetch(server, f"/api/tables/{path}")
        assert status == 404 and json.loads(body)["message"], path
    status, headers, body = fetch(server, f"/api/tables/{code}/games/1/card.svg", **{"Sec-Fetch-Site": "cross-site"})
    assert status == 403  # another site's page cannot spend its visitor's tries with an <img>

    # After a restart the night is still there, from the store.
    server.stop()
    server.start()
    status, again = server.get(f"/api/tables/{code}/games")
    assert status == 200 and again == night
    assert fetch(server, f"/api/tables/{code}/games/1/card.svg")[2] == svg


def test_the_record_names_nothing_secret_of_a_game_under_way(server: ServerProcess) -> None:
    """Only a finished game has a record: one under way (its deck still hidden) is a 404 like a game never played."""
    code = server.create_table(script=[["5", "7", "9"]], options={"caves": 1}, seconds=30)

    async def scenario() -> Any:
        ann, bob = Client.connect(server.ws), Client.connect(server.ws)
        async with ann as a, bob as b:
            await a.join(code, "Ann")
            await b.join(code, "Bob")
            await a.until(lambda s: len(s["people"]) == 2)
            await a.start()
            await a.until(lambda s: s["phase"] == "playing")
            return [fetch(server, f"/api/tables/{code}/games/1{tail}")[0] for tail in ("", "/card.svg", "/record.json")]

    assert run(scenario()) == [404, 404, 404]
    assert server.get(f"/api/tables/{code}/games") == (200, {"code": code, "games": [], "standings": []})


def play_night(server: ServerProcess, names: list[str], campers: list[set[int]], watcher: str | None = None) -> str:
    """A table where ``names`` play one short cave per game, a game for each set of ``campers``: those walk out at
    the first card (a 5), the others go deeper into two Spiders.  The table's code, its games finished.  With
    ``watcher``, a person of that name arrives during the last game's cave and predicts its first decision (the
    campers walk out, the next card does not collapse the cave: right, and scored)."""
    code = server.create_table(script=[["5", "spiders", "spiders"]], options={"caves": 1}, seconds=10, pause=0.5)

    async def scenario() -> None:
        clients = [await Client.open(server.ws) for _ in names]
        for client, name in zip(clients, names, strict=True):
            await client.join(code, name)
        await clients[0].until(lambda s: len(s["people"]) == len(names))
        for number, out in enumerate(campers, 1):
            await clients[0].start()
            if watcher is not None and number == len(campers):
                await clients[0].until(lambda s: s["phase"] == "playing")
                late = await Client.open(server.ws)
                await late.join(code, watcher)
                asked = await late.until(lambda s: ((s["me"] or {}).get("audience") or {}).get("open") is not None)
                question = asked["me"]["audience"]["open"]
                await late.predict(question["key"], out=sorted(out), collapse=False)
                await late.until(lambda s: s["me"]["audience"]["mine"] is not None)
                clients.append(late)

            async def play(index: int, client: Client, number: int = number, out: set[int] = out) -> None:
                done: set[tuple[int, int, int]] = set()
                while True:
                    s = await client.until(
                        lambda s: (
                            (s["phase"] == "results" and s["results"] == list(range(1, number + 1)))
                            or (s["phase"] == "playing" and to_act(s) and key(s) not in done)
                        ),
                        30,
                    )
                    if s["phase"] == "results":
                        return
                    done.add(key(s))
                    await client.choose("camp" if index in out else "deeper")

            await asyncio.gather(*(play(i, c) for i, c in enumerate(clients[: len(names)])))
        for client in clients:
            await client.close()

    run(scenario())
    return code


NIGHT = [
    {"name": "Ann", "bot": False, "place": 1, "points": 5, "wins": 2, "games": 2, "places": [[1, 1], [2, 1]]},
    {"name": "Bob", "bot": False, "place": 2, "points": 2, "wins": 1, "games": 2, "places": [[1, 2], [2, 1]]},
    {"name": "Cleo", "bot": False, "place": 3, "points": 0, "wins": 0, "games": 2, "places": [[1, 2], [2, 3]]},
]
"""The standings of :func:`play_night` with Ann, Bob and Cleo, Ann walking out alone, then Ann and Bob."""


def test_the_nights_standings_add_up_its_games_and_survive_a_kill(server: ServerProcess) -> None:
    """Two games at one table: Ann walks out alone with 3 gems in the first; Ann and Bob walk out together in the
    second (2 each).  The night's standings (points by place, ``table/night.py``) add them up, in
    the night's list and its card, and are the same after the server is killed (SIGKILL) and started again."""
    code = play_night(server, ["Ann", "Bob", "Cleo"], [{0}, {0, 1}])
    status, night = server.get(f"/api/tables/{code}/games")
    assert status == 200 and [g["scores"] for g in night["games"]] == [[3, 0, 0], [2, 2, 0]]
    assert [g["places"] for g in night["games"]] == [{"0": 1, "1": 2, "2": 2}, {"0": 1, "1": 1, "2": 3}]
    assert night["standings"] == NIGHT
    status, first = server.get(f"/api/tables/{code}/games?through=1")  # as they stood after game 1
    assert status == 200 and first["games"] == night["games"]
    assert [(e["name"], e["points"], e["places"]) for e in first["standings"]] == [
        ("Ann", 3, [[1, 1]]),
        ("Bob", 0, [[1, 2]]),
        ("Cleo", 0, [[1, 2]]),
    ]
    assert server.get(f"/api/tables/{code}/games?through=x")[1] == night  # (not a number: the whole night)
    status, headers, svg = fetch(server, f"/api/tables/{code}/night.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert headers["content-disposition"] == f'inline; filename="gemtable-{code}-night.svg"'
    lines = texts(svg)
    assert "The night's standings" in lines and "Points" in lines and "2 / 2" in lines and "5" in lines
    desc = ET.fromstring(svg).find(f"{SVG}desc")
    assert desc is not None and "1st \u2068Ann\u2069: 5 points" in "".join(desc.itertext())
    assert [line for line in lines if line in {"1st", "2nd", "3rd"} or line.startswith("\u2068")] == [
        "1st",
        "\u2068Ann\u2069",
        "2nd",
        "\u2068Bob\u2069",
        "3rd",
        "\u2068Cleo\u2069",
    ]
    assert "今夜の順位" in texts(fetch(server, f"/api/tables/{code}/night.svg?lang=ja")[2])
    assert fetch(server, "/api/tables/QQQQ/night.svg")[0] == 404
    assert fetch(server, f"/api/tables/{code}/night.svg", **{"Sec-Fetch-Site": "cross-site"})[0] == 403

    server.kill()  # SIGKILL: no clean shutdown
    server.start()
    assert server.get(f"/api/tables/{code}/games") == (200, night)
    assert fetch(server, f"/api/tables/{code}/night.svg")[2] == svg
