"""A finished game's result card: one SVG picture made here from the game's record, with no imaging library and
no outside service (``GET /api/tables/CODE/games/N/card.svg``, ``docs/protocol.md``).

The card shows what the results page shows, for keeping after the night: the game and its number, the table,
the date, the winner line, each seat's place, mark, name and score with a bar, and the game's own chart when it
has one (a game's manifest names a ``card`` function that says what more to draw: marks of its own, a chart;
see :data:`CardParts`).  Its words are the pages' (``web/static/i18n`` and the game's own texts), in the language
asked for (``?lang=hu``).

Names are a player's own text: every piece of text is escaped, characters XML cannot hold are dropped, and a
name is wrapped in a Unicode isolate (FSI … PDI) with its own direction controls removed, so a right-to-left
name never reorders what stands beside it.  The picture carries no style sheet and no script (presentation
attributes only): it draws the same as a file, in an ``<img>`` and as a page of its own under the server's
Content-Security-Policy.
"""

from __future__ import annotations

import html
import json
import logging
import math
import re
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from gemtable.games import GameError, Manifest, find_manifest, game_part
from gemtable.server.pages import WEB, game_web
from gemtable.table.night import Standing

log = logging.getLogger("gemtable")

CardParts = dict[str, Any]
"""What a game's ``card`` function (its manifest's ``card``, called with the record) returns; every key optional:

* ``marks``: ``{seat: {"fill", "ink", "letter", "label"}}`` — a seat drawn as a lettered tile of its colour
  instead of the shared seat style (``letter`` and ``label`` are translation keys: the tile's letter and a word
  after the name, such as its colour's name);
* ``chart``: ``{"title", "x", "series": {seat: [values]}}`` — a bar chart, one group of bars per step (``title``
  and ``x``, the steps' name, are translation keys)."""

SEAT_COLOURS = (
    "#0b4a8b",
    "#b3261e",
    "#1e6b34",
    "#6a3d9a",
    "#8a4b08",
    "#00707a",
    "#a3195b",
    "#4a4a4a",
    "#c2410c",
    "#3f6212",
    "#1d4ed8",
    "#14110f",
    "#be185d",
    "#92400e",
    "#4338ca",
    "#0f5132",
)
"""The seats' colours, as ``web/static/js/seat-style.js`` has them (a test keeps the two the same)."""
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "star", "hexagon", "down", "pentagon")
"""The seats' marks, as ``seat-style.js`` has them: seat n has shape n mod 8, filled for the first eight."""

WIDTH = 800
INK = "#1f1a14"
MUTED = "#5d554b"
LINE = "#e6dfd2"
PAPER = "#fbf8f1"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans CJK JP', 'Noto Color Emoji', sans-serif"
STAR = "M12 1.8l3 6.6 7.2.8-5.4 4.9 1.5 7.1L12 17.6l-6.3 3.6 1.5-7.1-5.4-4.9 7.2-.8z"
"""The winner's star (``icons.js``), 24 units across."""
LANGS = ("en", "hu", "ja")
NAME_WIDTH = 330
"""Pixels a name may take on a row; a longer one is squeezed to fit (a name has at most 24 characters)."""
DIRECTION_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])


@dataclass(frozen=True)
class Row:
    seat: int
    place: int
    name: str
    score: int
    won: bool


def card_svg(record: Mapping[str, Any], lang: str = "en") -> bytes:
    """The result card of a finished game's ``record``, as UTF-8 SVG, its words in ``lang`` (English if unknown)."""
    lang = lang if lang in LANGS else "en"
    manifest = _manifest(str(record.get("game", "")))
    words = _texts(lang, manifest.name if manifest else "")
    parts = _parts(manifest, record)
    rows = _rows(record)
    number = _whole(record.get("number")) or 0
    title = f"{_t(words, f'game.{manifest.name}') if manifest else str(record.get('game', ''))} · "
    title += _t(words, "results.game_no", n=number)
    winners = [row for row in rows if row.won]
    if len(winners) == 1:
        win_line = _t(words, "results.winner", name=_iso(winners[0].name))
    elif winners:
        win_line = _t(words, "results.winners", names=", ".join(_iso(row.name) for row in winners))
    else:
        win_line = ""
    ended = record.get("ended")
    ended_line = ""
    if isinstance(ended, dict):
        by = ended.get("by") if isinstance(ended.get("by"), str) else _t(words, "news.someone")
        ended_line = _t(words, "results.ended", by=_iso(str(by)))
    sub = [_t(words, "lobby.title", code=str(record.get("table", "")))]
    when = record.get("finished_at")
    if isinstance(when, int | float) and 0 < when < 2**40:
        sub.append(time.strftime("%Y-%m-%d %H:%M", time.localtime(when)))
    marks = _dict(parts.get("marks"))
    look = _looks(record)

    out: list[str] = []
    y = 58
    out.append(_text(28, y, title, 32, weight="700", width=WIDTH - 56))
    y += 34
    out.append(_text(28, y, " · ".join(sub), 18, fill=MUTED))
    if win_line:
        y += 50
        out.append(f'<path d="{STAR}" transform="translate(28 {y - 27}) scale(1.4)" fill="#e0a400" stroke="#5a4300"/>')
        out.append(_text(70, y, win_line, 26, weight="700", width=WIDTH - 98))
    if ended_line:
        y += 34
        out.append(_text(28, y, ended_line, 18, fill=MUTED, width=WIDTH - 56))
    y += 22
    best = max([row.score for row in rows] + [1])
    for row in rows:
        out.append(_row(row, y, best, marks.get(str(row.seat)), words, look(row.seat)))
        y += 48
    chart = _dict(parts.get("chart")) or None
    desc = "; ".join(f"{_place(words, row.place)} {_iso(row.name)}: {row.score}" for row in rows)  # said of it
    if chart:
        drawn, y = _chart(chart, y + 24, words, marks, look)
        out.append(drawn)
    y += 30
    out.append(_text(WIDTH - 28, y, "gemtable", 16, fill=MUTED, anchor="end"))
    height = y + 20
    label = f"{title}. {win_line}".strip()
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-labelledby="card-title card-desc" font-family="{_escape(FONT)}" fill="{INK}">'
        f'<title id="card-title">{_escape(label)}</title><desc id="card-desc">{_escape(desc)}</desc>'
        f'<rect width="{WIDTH}" height="{height}" rx="18" fill="{PAPER}" stroke="{LINE}" stroke-width="2"/>'
    )
    return (head + "".join(out) + "</svg>\n").encode("utf-8")


def night_svg(code: str, games: list[Mapping[str, Any]], board: list[Standing], lang: str = "en") -> bytes:
    """The night's card of table ``code``: its standings (``table/night.py``) over its finished ``games``
    (their records, oldest first), as UTF-8 SVG, its words in ``lang``."""
    lang = lang if lang in LANGS else "en"
    words = _texts(lang, "")
    title = _t(words, "night.standings")
    sub = [_t(words, "lobby.title", code=code), _t(words, "night.games", n=len(games))]
    times = [w for g in games if isinstance(w := g.get("finished_at"), int | float) and 0 < w < 2**40]
    if times:
        sub.insert(1, time.strftime("%Y-%m-%d", time.localtime(max(times))))
    out = [_text(28, 58, title, 32, weight="700", width=WIDTH - 56)]
    out.append(_text(28, 92, " · ".join(sub), 18, fill=MUTED, width=WIDTH - 56))
    y = 128
    out.append(_text(104, y, _t(words, "night.col_who"), 15, fill=MUTED))
    out.append(_text(470, y, _t(words, "night.col_games"), 15, fill=MUTED, anchor="middle", width=150))
    out.append(_text(584, y, _t(words, "night.col_points"), 15, fill=MUTED, anchor="end", width=70))
    y += 8
    best = max([entry.points for entry in board] + [1])
    for entry in board:
        base = y + 32
        if entry.place == 1:
            out.append(f'<rect x="16" y="{y}" width="{WIDTH - 32}" height="46" rx="8" fill="#fff6d6"/>')
            out.append(f'<path d="{STAR}" transform="translate(68 {base - 20})" fill="#e0a400" stroke="#5a4300"/>')
        out.append(f'<line x1="16" x2="{WIDTH - 16}" y1="{y + 47}" y2="{y + 47}" stroke="{LINE}"/>')
        out.append(_text(28, base, _place(words, entry.place), 20, weight="700"))
        name = _iso(_name(entry.name, 0)) + (f" · {_t(words, 'night.bot')}" if entry.bot else "")
        out.append(_text(104, base, name, 24, width=280))
        out.append(_text(470, base, f"{entry.wins} / {entry.games}", 20, fill=MUTED, anchor="middle"))
        out.append(_text(584, base, str(entry.points), 24, weight="700", anchor="end"))
        length = round(176 * max(0, entry.points) / best, 1)
        if length:
            out.append(f'<rect x="596" y="{base - 20}" width="{max(length, 3)}" height="22" rx="4" fill="#0b4a8b"/>')
        y += 48
    y += 34
    out.append(_text(28, y, _t(words, "night.how"), 15, fill=MUTED, width=WIDTH - 56))
    y += 30
    out.append(_text(WIDTH - 28, y, "gemtable", 16, fill=MUTED, anchor="end"))
    height = y + 20
    label = f"{title} · {_t(words, 'lobby.title', code=code)}"
    desc = "; ".join(
        f"{_place(words, e.place)} {_iso(_name(e.name, 0))}: {_t(words, 'night.points', n=e.points)}" for e in board
    )
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-labelledby="card-title card-desc" font-family="{_escape(FONT)}" fill="{INK}">'
        f'<title id="card-title">{_escape(label)}</title><desc id="card-desc">{_escape(desc)}</desc>'
        f'<rect width="{WIDTH}" height="{height}" rx="18" fill="{PAPER}" stroke="{LINE}" stroke-width="2"/>'
    )
    return (head + "".join(out) + "</svg>\n").encode("utf-8")


# --- the rows -----------------------------------------------------------------------------------------------


def _rows(record: Mapping[str, Any]) -> list[Row]:
    """Each seat that played, best first: its place (a tie shares it), name, score and whether it won."""
    scores = [score if (score := _whole(value)) is not None else 0 for value in _list(record.get("scores"))]
    winners = {seat for value in _list(record.get("winners")) if (seat := _whole(value)) is not None}
    names = _dict(record.get("names"))
    final = _dict(record.get("final"))
    players = [p.get("seat") for p in _list(final.get("players")) if isinstance(p, dict)]
    seats = [seat for seat in players if isinstance(seat, int) and 0 <= seat < len(scores)]
    if not seats:
        seats = [seat for seat in range(len(scores)) if str(seat) in names or seat in winners]
    seats = sorted(set(seats), key=lambda seat: (-scores[seat], seat))
    return [
        Row(
            seat,
            1 + sum(1 for other in seats if scores[other] > scores[seat]),
            _name(names.get(str(seat)), seat),
            scores[seat],
            seat in winners,
        )
        for seat in seats
    ]


def _looks(record: Mapping[str, Any]) -> Callable[[int], int]:
    """Seat → its player's look (the colour and mark they keep across a table's games: ``record["looks"]``; the
    seat's own where the record has none)."""
    looks = {int(k): v for k, v in _dict(record.get("looks")).items() if str(k).isdigit() and isinstance(v, int)}
    return lambda seat: looks.get(seat, seat) % 16


def _row(row: Row, y: int, best: int, mark: Any, words: Mapping[str, Any], style: int) -> str:
    base = y + 32
    parts = []
    if row.won:
        parts.append(f'<rect x="16" y="{y}" width="{WIDTH - 32}" height="46" rx="8" fill="#fff6d6"/>')
    parts.append(f'<line x1="16" x2="{WIDTH - 16}" y1="{y + 47}" y2="{y + 47}" stroke="{LINE}"/>')
    parts.append(_text(28, base, _place(words, row.place), 20, weight="700"))
    label = ""
    if isinstance(mark, dict):
        parts.append(_tile(112, base - 8, 14, mark, words))
        label = _t(words, str(mark.get("label", ""))) if mark.get("label") else ""
    else:
        parts.append(_seat_mark(style, 112, base - 8, 11))
    name = _iso(row.name) + (f" · {label}" if label else "")
    parts.append(_text(136, base, name, 24, width=NAME_WIDTH))
    parts.append(_text(572, base, str(row.score), 24, weight="700", anchor="end"))
    length = round(176 * max(0, row.score) / best, 1)
    if length:
        fill, stroke = _bar_paint(style, mark)
        parts.append(
            f'<rect x="592" y="{base - 20}" width="{max(length, 3)}" height="22" rx="4" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="2"/>'
        )
    return "".join(parts)


def _bar_paint(seat: int, mark: Any) -> tuple[str, str]:
    if isinstance(mark, dict):
        return _colour(mark.get("fill")), INK
    colour = SEAT_COLOURS[seat % 16]
    return (colour if seat % 16 < 8 else "#ffffff"), colour


# --- the chart ----------------------------------------------------------------------------------------------


def _chart(
    chart: Mapping[str, Any], top: int, words: Mapping[str, Any], marks: Mapping[str, Any], look: Callable[[int], int]
) -> tuple[str, int]:
    """A game's chart: per step (a cave), one bar per seat in its own colour with its mark on top."""
    raw = _dict(chart.get("series"))
    series: list[tuple[int, list[int]]] = []
    for key, values in sorted(raw.items(), key=lambda item: int(item[0]) if str(item[0]).isdigit() else 0):
        if str(key).isdigit() and isinstance(values, list):
            series.append((int(key), [v if (v := _whole(value)) is not None else 0 for value in values]))
    steps = max([len(values) for _, values in series] + [0])
    if not series or not steps:
        return "", top
    out = [_text(28, top, _t(words, str(chart.get("title", ""))), 20, weight="700")]
    left, right, plot_top, plot_h = 70, WIDTH - 28, top + 22, 200
    most = _nice_max(max(v for _, values in series for v in values))
    for tick in (0, most // 2, most):
        ty = plot_top + plot_h - plot_h * tick / most
        out.append(f'<line x1="{left}" x2="{right}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#ddd5c7"/>')
        out.append(_text(left - 10, round(ty + 5), str(tick), 14, fill=MUTED, anchor="end"))
    group = (right - left) / steps
    bar = min(group * 0.8 / len(series), 40.0)  # (a game of one cave and two players: no slabs)
    for step in range(steps):
        gx = left + step * group + (group - bar * len(series)) / 2
        for k, (seat, values) in enumerate(series):
            value = values[step] if step < len(values) else 0
            h = plot_h * max(0, value) / most
            x = gx + k * bar
            fill, stroke = _bar_paint(look(seat), marks.get(str(seat)))
            out.append(
                f'<rect x="{x + 1:.1f}" y="{plot_top + plot_h - h:.1f}" width="{max(bar - 2, 1):.1f}" '
                f'height="{h:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'
            )
            if bar >= 12 and not isinstance(marks.get(str(seat)), dict):
                r = min(bar / 2 - 1.5, 6.0)
                out.append(_seat_mark(look(seat), x + bar / 2, plot_top + plot_h - h - r - 3, r))
        out.append(
            _text(
                round(left + (step + 0.5) * group),
                plot_top + plot_h + 22,
                str(step + 1),
                14,
                fill=MUTED,
                anchor="middle",
            )
        )
    bottom = plot_top + plot_h + 48
    out.append(_text((left + right) // 2, bottom, _t(words, str(chart.get("x", ""))), 16, fill=MUTED, anchor="middle"))
    return "".join(out), bottom


def _nice_max(value: int) -> int:
    """The top of the value axis, as ``chart.js`` makes it: a round, even number at or above the largest value."""
    least = max(2, value)
    step: int = 10 ** (len(str(least)) - 1)
    for m in (1, 2, 3, 4, 5, 6, 8, 10):
        if m * step >= least and (m * step) % 2 == 0:
            return m * step
    return least + least % 2


# --- marks ---------------------------------------------------------------------------------------------------


def _seat_mark(seat: int, x: float, y: float, r: float) -> str:
    """Seat n's mark centred on (x, y), about 2r across: ``seatMarker`` of ``seat-style.js``."""
    i = seat % 16
    colour = SEAT_COLOURS[i]
    paint = (
        f'fill="{colour}" stroke="{colour}" stroke-width="1"'
        if i < 8
        else f'fill="#fff" stroke="{colour}" stroke-width="2"'
    )
    shape = SEAT_SHAPES[i % 8]
    if shape == "circle":
        return f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" {paint}/>'
    if shape == "square":
        return (
            f'<rect x="{x - r * 0.9:.2f}" y="{y - r * 0.9:.2f}" width="{r * 1.8:.2f}" height="{r * 1.8:.2f}" {paint}/>'
        )
    up = -1.5707963267948966
    points = {
        "triangle": (3, x, y + r * 0.15, r * 1.15, up, None),
        "down": (3, x, y - r * 0.15, r * 1.15, -up, None),
        "diamond": (4, x, y, r * 1.15, up, None),
        "star": (10, x, y, r * 1.25, up, r * 0.5625),
        "hexagon": (6, x, y, r * 1.05, 0.0, None),
        "pentagon": (5, x, y, r * 1.08, up, None),
    }[shape]
    return f'<polygon points="{_ring(*points)}" {paint}/>'


def _ring(n: int, x: float, y: float, r: float, turn: float, inner: float | None) -> str:
    found = []
    for k in range(n):
        a = turn + 2 * math.pi * k / n
        q = inner if (k % 2 and inner is not None) else r
        found.append(f"{x + q * math.cos(a):.2f},{y + q * math.sin(a):.2f}")
    return " ".join(found)


def _tile(x: float, y: float, r: float, mark: Mapping[str, Any], words: Mapping[str, Any]) -> str:
    """A seat drawn as a lettered tile of its colour (a game's own ``marks``)."""
    fill, ink = _colour(mark.get("fill")), _colour(mark.get("ink"))
    letter = _t(words, str(mark.get("letter", ""))) if mark.get("letter") else ""
    return (
        f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" rx="5" fill="{fill}" '
        f'stroke="{INK}" stroke-width="1.5"/>'
        + _text(round(x), round(y + r * 0.45), letter[:2], round(r * 1.2), weight="700", fill=ink, anchor="middle")
    )


def _colour(value: Any) -> str:
    return value if isinstance(value, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", value) else "#888888"


# --- words ---------------------------------------------------------------------------------------------------


def _place(words: Mapping[str, Any], place: int) -> str:
    """The place ("1st", "2.", "1位") in the card's language (English ordinals by their plural rule)."""
    n = place % 100
    if words.get("_lang") == "en":
        category = {1: "one", 2: "two", 3: "few"}.get(place % 10, "other") if not 11 <= n <= 13 else "other"
    else:
        category = "other"
    return _t(words, f"card.place_{category}", n=place)


def _t(words: Mapping[str, Any], key: str, **values: Any) -> str:
    """The text of ``key`` with its ``{placeholders}`` filled (``{n}`` also picks a plural form)."""
    text = words.get(key, key)
    if isinstance(text, dict):
        text = text.get("one" if values.get("n") == 1 and words.get("_lang") == "en" else "other", "")
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m[1], m[0])), str(text))


@cache
def _texts(lang: str, game: str) -> dict[str, Any]:
    """The pages' words in ``lang``: the shared ones, the night's and the card's, and the game's own."""
    found: dict[str, Any] = {"_lang": lang}
    folder = WEB / "static" / "i18n"
    for path in (folder / f"{lang}.json", folder / f"night.{lang}.json"):
        found.update(_json(path))
    manifest = _manifest(game)
    web = game_web(manifest) if manifest else None
    if manifest and web:
        for stem in manifest.translations:
            found.update(_json(web / f"{stem}.{lang}.json"))
    return found


def _json(path: Any) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _manifest(name: str) -> Manifest | None:
    try:
        return find_manifest(name) if name else None
    except GameError:
        return None


def _parts(manifest: Manifest | None, record: Mapping[str, Any]) -> CardParts:
    """What the game adds to its card (its manifest's ``card``); nothing if it has none or it fails."""
    if manifest is None or not manifest.card:
        return {}
    try:
        parts = game_part(manifest, manifest.card)(record)
    except Exception:
        log.exception("the result card of a %s game: its card function failed", manifest.name)
        return {}
    return parts if isinstance(parts, dict) else {}


# --- text -----------------------------------------------------------------------------------------------------


def _text(
    x: float,
    y: float,
    text: str,
    size: int,
    *,
    weight: str = "400",
    fill: str = INK,
    anchor: str = "start",
    width: int | None = None,
) -> str:
    """One line of text; squeezed to ``width`` pixels when it would be wider (by an estimate of its glyphs)."""
    fit = ""
    if width is not None and _estimate(text, size) > width:
        fit = f' textLength="{width}" lengthAdjust="spacingAndGlyphs"'
    bold = f' font-weight="{weight}"' if weight != "400" else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}"{bold} fill="{fill}" text-anchor="{anchor}"{fit}>'
        f"{_escape(text)}</text>"
    )


def _estimate(text: str, size: int) -> float:
    """The width of ``text`` in pixels, roughly: a wide (CJK) character or an emoji 1 em, another 0.6 em."""
    total = 0.0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\u2068\u2069":
            continue
        wide = unicodedata.east_asian_width(ch) in "WF" or ord(ch) >= 0x1F000
        total += 1.0 if wide else 0.6
    return total * size


def _name(value: Any, seat: int) -> str:
    """A seat's name as the card shows it: its own direction controls removed (it is isolated as a whole)."""
    if not isinstance(value, str) or not value.strip():
        return f"#{seat + 1}"
    return value.translate(DIRECTION_CONTROLS)


def _iso(name: str) -> str:
    """``name`` isolated (FSI … PDI): a right-to-left name does not reorder the text around it."""
    return f"\u2068{name}\u2069"


_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _escape(text: str) -> str:
    """Text as XML character data or an attribute's value: escaped, and the characters XML cannot hold dropped."""
    return html.escape(_NOT_XML.sub("", text), quote=True)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


__all__ = ["SEAT_COLOURS", "SEAT_SHAPES", "CardParts", "card_svg", "night_svg"]
