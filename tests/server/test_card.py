"""The result card (``server/card.py``) from records made by a table in this process: both games, hostile names
and broken records.  (Served by a real server in ``test_night_kept.py``, looked at in Chromium in
``tests/web/test_night_kept.py``.)"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from gemtable.games.booty.card import COLOURS
from gemtable.server.card import SEAT_COLOURS, SEAT_SHAPES, _place, _texts, card_svg
from gemtable.table import RESULTS
from tests.server.test_night_kept import SVG, texts
from tests.table._helpers import choose, inside, run_clock, started

WEB = Path(__file__).resolve().parents[2] / "src" / "gemtable"


def expedition_record(names: list[str]) -> dict[str, Any]:
    """A whole game of 3 caves: the first player walks out at the first card of each, the others go on."""
    table, pids = started(names, script=[["5", "spiders", "7", "spiders"]] * 3, options={"caves": 3})
    now = 0.0
    while table.moment.phase != RESULTS:
        now += 1
        for i, pid in enumerate(pids):
            if pid in inside(table):
                choose(table, pid, "camp" if i == 0 else "deeper", now)
        now = run_clock(table, now, lambda t: t.moment.phase in ("playing", RESULTS))
    return dict(table.log.records[1])


def test_the_expedition_card_has_places_marks_bars_and_the_chest_cave_by_cave() -> None:
    record = expedition_record(["Ann", "Bob", "Cy", "Dee"])
    svg = card_svg({**record, "finished_at": 1_750_000_000.0})
    lines = texts(svg)
    assert lines[0] == "The expedition · Game 1" and re.search(r"Table TEST · 2025-06-\d\d \d\d:\d\d", lines[1])
    assert "\u2068Ann\u2069 wins!" in lines and lines.count("2nd") == 3 and "1st" in lines
    root = ET.fromstring(svg)
    assert "Ann" in (root.findtext(f"{SVG}title") or "") and "1st \u2068Ann\u2069: 6" in (
        root.findtext(f"{SVG}desc") or ""
    )
    assert "Chest cave by cave" in lines and "Cave" in lines and {"1", "2", "3"} <= set(lines)
    bars = [rect for rect in root.iter(f"{SVG}rect") if rect.get("stroke-width") == "1.5"]
    assert len(bars) == 3 * 4  # a bar per cave per seat
    assert len([shape for shape in root.iter() if shape.get("fill") == SEAT_COLOURS[3]]) >= 1 + 3  # Dee's mark


def test_the_booty_hunter_card_draws_each_colour_as_its_lettered_tile() -> None:
    table, pids = started(["Ann", "Bob", "Cy"], game="booty")
    table.end(pids[0], 5.0)
    svg = card_svg({**table.log.records[1], "scores": [4, 9, 0], "winners": [1]}, "en")
    lines = texts(svg)
    assert lines[0] == "Booty Hunter · Game 1" and "\u2068Bob\u2069 wins!" in lines
    assert "Ann ended this game early: the scores as they stood." in [
        line.replace("\u2068", "").replace("\u2069", "") for line in lines
    ]
    assert {"R", "B", "Y"} <= set(lines) and "\u2068Bob\u2069 · Blue" in lines and "Chest cave by cave" not in lines
    root = ET.fromstring(svg)
    fills = {rect.get("fill") for rect in root.iter(f"{SVG}rect")}
    assert {fill for fill, _ in COLOURS} <= fills


def test_a_hostile_or_broken_record_still_makes_a_well_formed_card() -> None:
    names = {"0": "a\x01b\ud800c\u202ed</text><script>", "1": "&amp;", "2": "   "}
    lines = texts(card_svg({"game": "expedition", "table": "<x>", "number": 2, "names": names, "scores": [1, 2, 0]}))
    assert "\u2068abcd</text><script>\u2069" in lines and "\u2068&amp;\u2069" in lines and "\u2068#3\u2069" in lines
    broken: list[dict[str, Any]] = [{}, {"game": "chess", "scores": "x", "final": [], "names": None}]
    broken += [{"scores": [True, None, 3]}, {"scores": [1], "names": {"0": "A"}, "finished_at": 1e99}]
    for record in broken:
        assert texts(card_svg(record, "xx"))  # an unknown game and language too: English, no chart


def test_the_card_draws_the_seats_as_the_pages_do() -> None:
    style = (WEB / "web" / "static" / "js" / "seat-style.js").read_text("utf-8")
    colours = re.search(r"const COLOURS = \[(.*?)\];", style, re.S)
    shapes = re.search(r"const SHAPES = \[(.*?)\];", style, re.S)
    assert colours and shapes
    assert tuple(re.findall(r"'(#[0-9a-f]{6})'", colours[1])) == SEAT_COLOURS
    assert tuple(re.findall(r"'(\w+)'", shapes[1])) == SEAT_SHAPES
    draw = (WEB / "games" / "booty" / "web" / "draw.js").read_text("utf-8")
    found = re.findall(r"\{ fill: '(#[0-9a-f]{6})', ink: '(#[0-9a-f]{6})' \}", draw)
    assert tuple(found) == COLOURS


def test_places_are_said_in_the_cards_language() -> None:
    english, japanese = _texts("en", ""), _texts("ja", "")
    assert [_place(english, n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        *("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"),
    ]
    assert _place(japanese, 2) == "2位"
