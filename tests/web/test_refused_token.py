"""A page whose stored seat token is refused (a forged one, or one of a seat that is gone): the server says
only ``unknown-token`` (issue 13, finding 6), and the page forgets the token, looks on and offers the name
prompt — and the phone can join."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import join

pytestmark = pytest.mark.browser


def test_a_refused_token_leaves_a_page_that_looks_on_and_can_join(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    eve = browser.phone("eve")
    eve.add_init_script(f"localStorage.setItem('gemtable.token.{code}', {json.dumps('A' * 32)})")
    eve.goto(f"/t/{code}")
    expect(eve.get_by_label("Your name")).to_be_visible()
    expect(eve.locator("#lobby-title")).to_have_text(f"Table {code}")  # it looks on: the table's state came
    expect(eve.locator("main")).to_contain_text("Ann")
    assert eve.evaluate(f"localStorage.getItem('gemtable.token.{code}')") is None
    shot(eve, "phone-refused-token")
    eve.get_by_label("Your name").fill("Eve")
    eve.locator("#join-go").tap()
    expect(eve.locator("#who")).to_have_text("Eve")
    expect(ann.locator("main")).to_contain_text("Eve")
