"""What Booty Hunter's result card (``gemtable.server.card``) draws: each seat as its land's colour, a tile with
its letter, and the colour's name beside the player's (the seats are the three colours).  Pure."""

from __future__ import annotations

from gemtable.games.api import JSON

COLOURS = (("#e8603a", "#000000"), ("#12347a", "#ffffff"), ("#ffdf6b", "#000000"))
"""Each colour's fill and the ink printed on it, as ``web/draw.js`` has them (a test keeps the two the same)."""


def card(record: JSON) -> JSON:
    """``{"marks": {seat: {"fill", "ink", "letter", "label"}}}``."""
    marks = {
        str(seat): {"fill": fill, "ink": ink, "letter": f"bh.letter{seat}", "label": f"bh.colour{seat}"}
        for seat, (fill, ink) in enumerate(COLOURS)
    }
    return {"marks": marks}
