"""A finished game's replay: its steps computed from its record by the game's own rules
(:func:`gemtable.games.replay_steps`), with the words of one language, as the replay page
(``/t/CODE/games/N/replay``) fetches them and as ``gemtable replay FILE --html`` writes them into one file.

The replay of a game is made from its record alone, and a table's store holds the record of a finished game
only: a game still being played has none, so nothing of its deck can come out here.  See ``docs/pages.md``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gemtable.games import GameRecord, find_manifest, replay_steps
from gemtable.games.manifest import Manifest
from gemtable.server.pages import WEB, game_web

LANGS = ("en", "hu", "ja")
"""The languages a replay's words come in (the first when another is asked for)."""


def replay_json(raw: Mapping[str, Any], lang: str = "en") -> dict[str, Any]:
    """The replay of the finished game ``raw`` (a table's record, or a bare :class:`GameRecord`'s JSON), its
    words in ``lang``: the record's facts, every step with a spectator's view after it, and the strings.  A record
    that does not replay, or does not end, is a :class:`BadRecord`."""
    record = GameRecord.from_json(raw)
    manifest = find_manifest(record.game)
    steps = replay_steps(record, manifest.simultaneous, finished=True)
    rules = steps[0]["view"].get("rules", record.rules) if steps and isinstance(steps[0]["view"], dict) else None
    for step in steps:  # the rules once, not in every step's view
        if isinstance(step["view"], dict) and step["view"].get("rules") == rules:
            del step["view"]["rules"]
    names = raw.get("names")
    lang = lang if lang in LANGS else LANGS[0]
    return {
        "game": record.game,
        "table": raw.get("table") if isinstance(raw.get("table"), str) else None,
        "number": raw.get("number") if isinstance(raw.get("number"), int) else None,
        "names": {str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {},
        "rules": rules if rules is not None else record.rules,
        "scores": record.scores,
        "winners": record.winners,
        "ended": raw.get("ended") is not None,
        "drawing": manifest.url(manifest.replay_page),
        "steps": steps,
        "lang": lang,
        "strings": strings(manifest, lang),
    }


def strings(manifest: Manifest, lang: str) -> dict[str, Any]:
    """The words a replay of ``manifest``'s game uses in ``lang``: the shared ones of the replay page, the
    game's own texts and its replay's (``replay.<lang>.json`` beside its ``replay_page``)."""
    found: dict[str, Any] = {}
    folder = game_web(manifest)
    files = [WEB / "static" / "i18n" / f"replay.{lang}.json"]
    if folder is not None:
        files += [folder / f"{stem}.{lang}.json" for stem in manifest.translations]
        files.append(folder / f"replay.{lang}.json")
    for path in files:
        if path.is_file():
            found.update(json.loads(path.read_text("utf-8")))
    return found


def replay_html(doc: Mapping[str, Any]) -> str:
    """The replay ``doc`` (:func:`replay_json`) as one page that needs nothing else: the replay page's HTML with
    its style sheets, its script, the game's drawing module and the steps inside it, and no address of anything
    (it opens from a file, with no network)."""
    manifest = find_manifest(str(doc["game"]))
    folder = game_web(manifest)
    drawing = ""
    if manifest.replay_page is not None and folder is not None:
        drawing = (folder / manifest.replay_page).read_text("utf-8")
    player = (WEB / "static" / "js" / "replay.js").read_text("utf-8")
    css = "\n".join((WEB / "static" / "css" / name).read_text("utf-8") for name in ("app.css", "replay.css"))
    page = (WEB / "replay.html").read_text("utf-8")
    head, _, rest = page.partition("<!-- the page's files -->")
    _, _, rest = rest.partition("<!-- end of the page's files -->")
    inline = (
        f"<style>\n{_safe(css, 'style')}\n</style>\n"
        f'<script type="application/json" id="replay-data">{_json({**doc, "drawing": None})}</script>\n'
        f'<script type="text/plain" id="replay-game">{_safe(drawing, "script")}</script>\n'
        f'<script type="module">\n{_safe(player, "script")}\n</script>\n'
    )
    head = head.replace('<html lang="en">', f'<html lang="{doc.get("lang", "en")}">')
    return (head + inline + rest).replace('<a class="brand" href="/">', '<a class="brand" href="#main">')


def _json(data: object) -> str:
    """JSON that cannot end the ``<script>`` element it is in (every ``<`` escaped)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _safe(text: str, element: str) -> str:
    """A style sheet's or a script's text, checked not to end its element early."""
    if f"</{element}" in text.lower():
        raise ValueError(f"a page file holds </{element}>, which would end its element")
    return text


__all__ = ["LANGS", "replay_html", "replay_json", "strings"]
