"""Another site's page cannot lock a guest out of their table (issue 21, finding 1), through a real server
with a party's limits.

The review's page loaded ``<img src="http://SERVER/api/tables/QQQx/qr.svg">`` 14 times every 5 s: its
visitor's address spent its tries at guessing codes, and then even a ``hello`` with the visitor's own seat
token got ``slow-down`` — a phone that dropped could not get back, and its chair went to the queue.  Now a
lookup that another site's page makes (``Sec-Fetch-Site: cross-site``, a foreign ``Referer`` or ``Origin``)
is refused before it looks anything up, and a token the table issued is never refused by the limit.
"""

from __future__ import annotations

import http.client
import json
from typing import Any

from gemtable.client import Client
from gemtable.server.limits import Limits
from tests.security.conftest import clean_log
from tests.security.test_refusals import phone_from, unknown_codes
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

TRIES = int(Limits().lookup_burst)

IMAGE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}
"""What a browser sends with an ``<img>`` of another site's page."""
FOREIGN = [
    {**IMAGE, "Referer": "http://evil.example/page.html"},
    IMAGE,
    {"Referer": "http://evil.example/"},  # a browser without Sec-Fetch-* headers
    {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"},  # a fetch
    {"Origin": "null"},
    {"Sec-Fetch-Site": "same-site"},  # another port of this host: another program's page
]


def get(server: ServerProcess, path: str, source: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        kind = response.getheader("content-type", "")
        return response.status, json.loads(body) if kind.startswith("application/json") else body
    finally:
        conn.close()


def test_another_sites_page_cannot_spend_a_guests_tries(production: ServerProcess) -> None:
    code = production.create_table()
    source = "127.43.0.1"
    guesses = unknown_codes(production, {code}, 14)
    own = f"http://127.0.0.1:{production.port}"

    async def join() -> Client:
        ann = await phone_from(production, source)
        await ann.join(code, "Ann")
        await ann.close()  # her phone sleeps
        return ann

    ann = run(join())
    for round_ in range(3):  # the review's page, three times over
        for i, guess in enumerate(guesses):
            headers = FOREIGN[(i + round_) % len(FOREIGN)]
            status, body = get(production, f"/api/tables/{guess}/qr.svg", source, headers)
            assert (status, body["error"]) == (403, "cross-origin"), (headers, status, body)
    for path in (f"/api/tables/{code}", f"/api/tables/{code}/qr.svg", f"/api/tables/{guesses[0]}/games/1"):
        status, body = get(production, path, source, {**IMAGE, "Referer": "http://evil.example/"})
        assert (status, body["error"]) == (403, "cross-origin"), path
        assert "another site" in body["message"]
    # None of it spent a try: the guest's own page, and our own pages' requests, are served as ever.
    assert get(production, f"/api/tables/{code}", source, {"Sec-Fetch-Site": "same-origin"})[0] == 200
    assert get(production, f"/api/tables/{code}/qr.svg", source, {"Referer": own + f"/t/{code}"})[0] == 200
    assert get(production, f"/api/tables/{code}", source, {"Sec-Fetch-Site": "none"})[0] == 200  # typed in

    async def back() -> None:
        phone = await phone_from(production, source)
        state = await phone.hello(code, ann.token)
        assert state["me"]["name"] == "Ann" and not phone.errors
        watcher = await phone_from(production, source)
        assert (await watcher.hello(code))["code"] == code and not watcher.errors
        await phone.close()
        await watcher.close()

    run(back())
    # Misses from the guest's address itself (no cross-site headers: a program) still count as before.
    statuses = [get(production, f"/api/tables/{guess}", source)[0] for guess in guesses[: TRIES + 1]]
    assert statuses == [404] * TRIES + [429]
    clean_log(production)


def test_a_token_the_table_issued_is_never_refused_by_the_guessing_limit(production: ServerProcess) -> None:
    """An address out of tries: its phones' own seat tokens still open their table, again and again, and so
    do a removed or banned person's (who are told so); a made-up token, or a right token with a wrong code,
    is refused like any guess (``slow-down``), so it cannot tell whether a code exists."""
    code = production.create_table()
    source, eve_source, kim_source = "127.44.0.1", "127.44.0.2", "127.44.0.3"
    misses = unknown_codes(production, {code}, TRIES + 2)

    async def scenario() -> None:
        ann = await phone_from(production, source)
        await ann.join(code, "Ann")  # the host
        bob = await phone_from(production, source)
        await bob.join(code, "Bob")
        eve = await phone_from(production, eve_source)
        await eve.join(code, "Eve")
        kim = await phone_from(production, kim_source)
        await kim.join(code, "Kim")
        assert ann.state and eve.person is not None and kim.person is not None
        await ann.remove(eve.person, ban=True)
        await ann.remove(kim.person)
        await ann.until(lambda s: not any(p["name"] in ("Eve", "Kim") for p in s["people"]))
        await bob.close()
        for address in (source, eve_source, kim_source):  # every address spend every try on real misses
            guesser = await phone_from(production, address)
            answers = []
            for guess in misses:
                answers.append((await guesser.hello(guess)) or guesser.errors[-1]["code"])
            assert answers[:TRIES] == ["no-table"] * TRIES and answers[TRIES:] == ["slow-down"] * 2
            await guesser.close()
        for _ in range(5):  # Bob's phone drops and comes back, and back
            phone = await phone_from(production, source)
            state = await phone.hello(code, bob.token)
            assert state["me"]["name"] == "Bob" and not phone.errors
            await phone.close()
        refused = await phone_from(production, source)
        for token, at in (("made-up-token-" + "x" * 20, code), (bob.token, misses[0]), (None, code)):
            seen = len(refused.errors)
            await refused.send({"type": "hello", "v": 2, "code": at, "token": token})
            assert (await refused.error(after=seen))["code"] == "slow-down", token
        banned = await phone_from(production, eve_source)
        await banned.send({"type": "hello", "v": 2, "code": code, "token": eve.token})
        assert (await banned.error())["code"] == "banned"
        removed = await phone_from(production, kim_source)
        await removed.send({"type": "hello", "v": 2, "code": code, "token": kim.token})
        assert (await removed.error())["code"] == "removed"
        for phone in (ann, eve, kim, refused, banned, removed):
            await phone.close()

    run(scenario())
    clean_log(production)
