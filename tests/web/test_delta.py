"""Protocol version 2 in the page: a secret choice comes as a small ``chosen`` message, and a page that
misses one asks for the whole state.

The messages of a real game (from a real server, to real phones) are applied by the pages' own
``static/js/delta.js`` in Chromium and by ``gemtable.table.view.apply_choices`` in Python: both must give
the state the server itself shows at that moment.  And a real phone page whose WebSocket loses one
message (Playwright's WebSocket routing drops it on the way) notices the missing number, asks for the
whole state, and shows the table as it is.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from gemtable.client import Client
from gemtable.table.view import apply_choices
from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import join, tap

pytestmark = pytest.mark.browser

LONG = [["5", "7", "11", "13", "spiders", "spiders"]] * 5


def drop_clock(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "remaining_ms"}


async def a_real_game(server: ServerProcess) -> tuple[list[list[str]], list[dict[str, Any]]]:
    """Three phones and an onlooker play two cards and start a third (Bob changes his mind): each one's
    frames, and the whole state each of them is then sent on asking (``sync``): the truth to reach."""
    code = server.create_table(script=LONG, seconds=60, pause=0.5)
    ann, bob, cat, eve = [await Client.open(server.ws) for _ in range(4)]
    await ann.join(code, "Ann")
    await bob.join(code, "Bob")
    await cat.join(code, "Cat")
    await eve.hello(code)
    await ann.start()
    everyone = (ann, bob, cat, eve)
    for card in (1, 2, 3):

        def shown(s: dict[str, Any], card: int = card) -> bool:
            return len((s["state"] or {}).get("path", [])) == card

        await asyncio.gather(*(c.until(shown) for c in everyone))
        await bob.choose("camp" if card == 1 else "deeper")
        await bob.until(lambda s: s["me"]["choice"] is not None)
        await bob.choose("deeper")
        await ann.choose("camp" if card == 3 else "deeper")
        await ann.until(lambda s: s["me"]["choice"] is not None)
        if card < 3:
            await cat.choose("deeper")  # the last choice: the reveal
    await asyncio.gather(*(c.until(lambda s: sum(p["chosen"] for p in s["people"]) == 2) for c in everyone))
    frames = [[f for f in c.frames if json.loads(f)["type"] in ("state", "chosen")] for c in everyone]
    truths = []
    for client in everyone:
        seen = len(client.frames)
        await client.send({"type": "sync", "v": 2})
        truths.append(await client.until(lambda s: True, after=seen))
    for client in everyone:
        await client.close()
    return frames, truths


def test_the_page_applies_chosen_messages_as_the_server_shows_them(server: ServerProcess, browser: Browser) -> None:
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        frames, truths = pool.submit(asyncio.run, a_real_game(server)).result()
    assert all(any('"chosen"' in f for f in mine) for mine in frames)  # the game did send some
    page = browser.phone("reader")
    page.goto("/")
    in_page = page.evaluate(
        """async (all) => {
        const { applyChosen, Sequence } = await import('/static/js/delta.js');
        return all.map((frames) => {
            const seq = new Sequence();
            let table = null;
            const steps = [];
            for (const raw of frames) {
                const msg = JSON.parse(raw);
                const step = seq.take(msg);
                steps.push(step);
                if (step === 'state') table = msg.table;
                if (step === 'chosen') table = applyChosen(table, msg);
            }
            return { table, steps };
        });
    }""",
        frames,
    )
    for mine, truth, got in zip(frames, truths, in_page, strict=True):
        state: dict[str, Any] | None = None
        for raw in mine:
            msg = json.loads(raw)
            state = (
                msg["table"] if msg["type"] == "state" else apply_choices(state or {}, msg["people"], msg.get("choice"))
            )
        assert state is not None
        assert set(got["steps"]) <= {"state", "chosen"}  # nothing missing: never a sync
        assert drop_clock(got["table"]) == drop_clock(truth) == drop_clock(state)


def test_a_page_that_misses_a_message_asks_for_the_whole_state(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)
    ann = browser.phone("ann")
    sent: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        real = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            sent.append(json.loads(message))
            real.send(message)

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg["type"] == "chosen" and not dropped:
                dropped.append(msg)  # lost on the way: the page never gets it
                return
            ws.send(message)

        ws.on_message(from_page)
        real.on_message(from_server)

    ann.route_web_socket("**/ws", route)
    join(ann, code, "Ann")
    bob, cat = browser.phone("bob"), browser.phone("cat")
    join(bob, code, "Bob")
    join(cat, code, "Cat")
    ann.locator("#start").tap()
    for page in (ann, bob, cat):
        expect(page.locator("#move-deeper")).to_be_visible()
    tap(bob, "deeper")  # Ann's page does not hear of it
    expect(bob.locator(".choice-note")).to_contain_text("Your choice: Deeper")
    for _ in range(50):  # the room hears of it within the pacer's interval; Playwright runs the route meanwhile
        if dropped:
            break
        ann.wait_for_timeout(100)
    assert [d["people"] for d in dropped] == [[2]]
    assert not any(m["type"] == "sync" for m in sent)
    tap(cat, "camp")  # the next number: Ann's page sees one missing, and asks for the whole state
    expect(cat.locator(".choice-note")).to_contain_text("Your choice: Camp")
    expect(ann.locator("main")).to_contain_text("Bob")
    for _ in range(50):
        if any(m["type"] == "sync" for m in sent):
            break
        ann.wait_for_timeout(100)
    assert [m["type"] for m in sent].count("sync") == 1
    people = ann.locator(".people, #people, main")
    expect(people.first).to_contain_text("has chosen")
    # Bob and Cat both show as having chosen on Ann's page: the whole state repaired what was lost.
    assert ann.evaluate("() => document.body.innerText.split('has chosen').length - 1") >= 2
    tap(ann, "deeper")  # everyone has chosen: the reveal, on every phone
    for page in (ann, bob, cat):
        expect(page.locator("main")).to_contain_text("Cave 1")
        expect(page.locator("#live")).to_contain_text("new card: 7 gems")
