"""The lobby through the pages: the host's bots, a full table and the queue, an onlooker, a TV."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.crowd import Crowd
from tests.web.test_play import join, small_targets

pytestmark = pytest.mark.browser


def test_bots_fill_the_chairs_and_a_ninth_person_watches_from_the_queue(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    gus = browser.phone("gus")
    join(gus, code, "Gus")
    _, games = server.get("/api/games")
    strategies = next(g for g in games["games"] if g["name"] == "expedition")["bots"]
    options = gus.locator("#bot-kind option")
    expect(options).to_have_count(len(strategies))
    assert sorted(options.evaluate_all("els => els.map(e => e.value)")) == sorted(strategies)

    # The host adds a bot of each strategy, tap after tap, removes one, then fills every chair.  The list
    # grows as they sit down, but the button stays under the finger (it is above the list): no tap lands on
    # a row that slid there (it did, when the button was below the list: quick taps were lost).
    where = gus.locator("#add-bot").bounding_box()
    for strategy in strategies:
        gus.locator("#bot-kind").select_option(strategy)
        gus.locator("#add-bot").tap()
    people = gus.locator("#people .person:not(.empty)")
    expect(people).to_have_count(1 + len(strategies))
    assert gus.locator("#add-bot").bounding_box() == where
    monte = gus.locator("#people .is-bot").filter(has_text="Monte Carlo")
    expect(monte).to_contain_text("Monte Carlo bot")  # a bot has a name; its strategy is shown beside it
    name = monte.locator(".name").text_content()
    bot_names = gus.locator("#people .is-bot .name").all_text_contents()
    assert len(set(bot_names)) == len(strategies), bot_names
    gus.get_by_role("button", name=f"Remove {name}").tap()
    expect(people).to_have_count(len(strategies))
    expect(gus.locator("#people")).not_to_contain_text("Monte Carlo")
    while people.count() < 8:
        before = people.count()
        gus.locator("#add-bot").tap()
        expect(people).to_have_count(before + 1)
    expect(gus.locator("#lobby-count")).to_have_text("8 of 8 chairs taken")
    expect(gus.locator("#add-bot")).to_be_disabled()
    shot(gus, "phone-11-lobby-full")

    # Someone opens the link: a name prompt over the table, as an onlooker.
    hal = browser.phone("hal")
    hal.goto(f"/t/{code}")
    expect(hal.get_by_label("Your name")).to_be_visible()
    expect(hal.locator("#lobby-count")).to_have_text("8 of 8 chairs taken")
    # They join: every chair is taken, but a bot gives its chair at once (nobody sits out a lobby for a bot),
    # and every screen says so.
    last_bot = bot_names_now(gus)[-1]
    hal.get_by_label("Your name").fill("Hal")
    hal.locator("#join-go").tap()
    expect(gus.locator("#toast")).to_contain_text(f"{last_bot} (bot) gave its chair to Hal.")
    expect(hal.locator("#people")).to_contain_text("Hal")
    expect(hal.locator("#banner")).to_be_hidden()
    expect(gus.locator("#people")).not_to_contain_text(last_bot)
    shot(gus, "phone-lobby-gave-chair")
    # Humans only now (five more, from the Python client): the ninth person watches from the queue.
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, *[f"Guest {i}" for i in range(len(bot_names_now(gus)))])
        expect(gus.locator("#people .is-bot")).to_have_count(0)
        ivy = browser.phone("ivy")
        join(ivy, code, "<i>Ivy</i>")  # a name is text, never markup
        expect(ivy.locator("#banner")).to_contain_text("Watching — number 1 in the queue for a chair.")
        expect(gus.locator("#queue")).to_contain_text("<i>Ivy</i>")
        expect(gus.locator("#queue i")).to_have_count(0)
        jo = browser.phone("jo")
        join(jo, code, "Jo")
        expect(jo.locator("#banner")).to_contain_text("Watching — number 2 in the queue for a chair.")
        shot(ivy, "phone-12-watching")
        assert not small_targets(ivy), small_targets(ivy)

        # A TV on the same table shows the queue too, and the big join code.
        tv = browser.tv()
        tv.goto(f"/t/{code}/tv")
        expect(tv.locator("#queue")).to_contain_text("<i>Ivy</i>")
        expect(tv.locator(".tv-code")).to_contain_text(code)

        # The host removes a guest (connected: the host may): the first in the queue takes the chair.
        gus.get_by_role("button", name="Manage Guest 0").tap()
        gus.locator("#host-sheet").get_by_role("button", name="Remove Guest 0", exact=True).tap()
        gus.locator("#sure").get_by_role("button", name="Yes, remove").tap()  # (asked once)
        expect(ivy.locator("#banner")).to_be_hidden()
        expect(ivy.locator("#people")).to_contain_text("Ivy")
        expect(jo.locator("#banner")).to_contain_text("number 1 in the queue")
        expect(tv.locator("#lobby-news")).to_contain_text("Gus removed Guest 0 from the table.")
        assert crowd.do(lambda c: _removed(c["Guest 0"]))["by"] == "Gus"
    finally:
        crowd.close()


def bot_names_now(page: Any) -> list[str]:
    return [n.strip() for n in page.locator("#people .is-bot .name").all_text_contents()]


async def _removed(client: Any) -> Any:
    await client._wait(lambda: client.removed is not None)
    return client.removed


def test_the_invite_sheet_shows_the_qr_code_and_link_from_any_phone(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    jo = browser.phone("jo")
    join(jo, code, "Jo")
    jo.locator("#invite-btn").tap()
    sheet = jo.locator("#invite")
    expect(sheet).to_be_visible()
    expect(sheet.locator(".qr")).to_be_visible()
    public = server.get("/api/server")[1]["public_url"]  # the address phones use, not the page's own
    assert public == browser.base  # the test server runs with --public-url http://gemtable.test:PORT
    expect(sheet.locator("#invite-link")).to_have_value(f"{public}/t/{code}")
    sheet.locator("#invite-tv").tap()  # what to open on the TV, not the TV page on this phone
    expect(sheet.locator("#tv-how")).to_contain_text(f"{public}/tv")
    shot(jo, "phone-13-invite")
    jo.locator("#invite-close").tap()
    expect(sheet).to_be_hidden()
