"""The conformance suite registers the test-only game (``tiny_game``) the way any extra game is registered:
by naming its manifest module in ``GEMTABLE_GAMES``, which the registry and the server process both read."""

from __future__ import annotations

import os

from gemtable.games import EXTRA, manifests

TINY = "tests.conformance.tiny_game.manifest"


def register_tiny_game() -> None:
    """Read ``GEMTABLE_GAMES`` with the tiny game in it, as a server started with it would."""
    before = os.environ.get(EXTRA)
    os.environ[EXTRA] = TINY
    try:
        manifests()
    finally:
        if before is None:
            del os.environ[EXTRA]
        else:
            os.environ[EXTRA] = before


register_tiny_game()


# The browser tests' fixtures (one Chromium per module, a browser per test, screenshots), for the tiny game's
# pages (``test_tiny_game_web.py``, whose own ``server`` knows the game).
from tests.web.conftest import browser, chromium, shot  # noqa: E402, F401
