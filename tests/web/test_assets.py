"""The pages' files, without a browser: translations, manifest, icons, no HTML built from data."""

from __future__ import annotations

import json
import re
import struct
import zlib
from pathlib import Path

import pytest

from gemtable.bots import bot_names
from gemtable.games import manifests
from gemtable.server.pages import game_web
from tests.web import make_icons

WEB = Path(__file__).resolve().parents[2] / "src" / "gemtable" / "web"
STATIC = WEB / "static"
LANGS = ("en", "hu", "ja")


def translations(lang: str, stem: Path | None = None) -> dict[str, object]:
    """The shared texts of ``lang`` merged with every game's own (the files its manifest names), as the pages
    merge them; or only the file ``stem``."""
    if stem is not None:
        return dict(json.loads(stem.with_name(f"{stem.name}.{lang}.json").read_text(encoding="utf-8")))
    merged = dict(json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))
    for stem in [*shared_stems(), *game_stems(), *replay_stems()]:
        merged.update(translations(lang, stem))
    return merged


def shared_stems() -> list[Path]:
    """The shared text files a module loads with itself (``loadTexts``: story.js's ``news``), without ``.LANG.json``."""
    return sorted({path.with_name(path.name.split(".")[0]) for path in (STATIC / "i18n").glob("*.*.json")})


def game_stems() -> list[Path]:
    """Every game's translation files (without ``.LANG.json``), in its own web folder."""
    return [web / stem for manifest in manifests() if (web := game_web(manifest)) for stem in manifest.translations]


def replay_stems() -> list[Path]:
    """The words of each game's replay module (``replay.LANG.json`` beside its ``replay_page``): the replay page
    alone loads them (server/replay.py), so that no other page of the game carries them."""
    return [web / "replay" for manifest in manifests() if manifest.replay_page and (web := game_web(manifest))]


def test_every_game_names_translation_files_in_every_language() -> None:
    assert game_stems()
    for stem in game_stems():
        for lang in LANGS:
            assert stem.with_name(f"{stem.name}.{lang}.json").is_file(), f"{stem}.{lang}.json"


def placeholders(value: object) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {name for text in texts for name in re.findall(r"\{(\w+)\}", str(text))}


@pytest.mark.parametrize("lang", ["hu", "ja"])
def test_every_language_has_every_text_with_the_same_placeholders(lang: str) -> None:
    for stem in [*shared_stems(), *game_stems(), *replay_stems()]:
        assert set(translations(lang, stem)) == set(translations("en", stem)), stem
    english = translations("en")
    other = translations(lang)
    assert set(other) == set(english), set(other) ^ set(english)
    for key, value in english.items():
        assert other[key], f"{lang}: {key} is empty"
        assert placeholders(other[key]) <= placeholders(value) | {"n"}, f"{lang}: {key}"
        assert placeholders(value) - {"n"} <= placeholders(other[key]), f"{lang}: {key} drops a placeholder"


def test_the_scripts_use_only_keys_that_exist() -> None:
    english = translations("en")
    used: set[str] = set()
    for path in [*(STATIC / "js").glob("*.js"), *WEB.glob("*.html"), *game_scripts()]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\('([a-z_]+\.[a-z_.\-]+)'", text))
        used |= set(re.findall(r'data-i18n(?:-\w+)?="([a-z_]+\.[a-z_.\-]+)"', text))
    assert len(used) > 100
    missing = {key for key in used if key not in english}
    assert not missing, missing


def game_scripts() -> list[Path]:
    return [path for manifest in manifests() if (web := game_web(manifest)) for path in sorted(web.rglob("*.js"))]


def test_no_script_builds_html_from_strings() -> None:
    assert game_scripts()
    for path in [*(STATIC / "js").glob("*.js"), *game_scripts()]:
        text = path.read_text(encoding="utf-8")
        for word in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert word not in text, f"{path.name} uses {word}"


def test_the_manifest_names_icons_that_exist() -> None:
    manifest = json.loads((WEB / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        path = STATIC / icon["src"].removeprefix("/static/")
        assert path.is_file(), icon["src"]
        sizes.add(icon["sizes"])
        if icon["type"] == "image/png":
            assert png_size(path.read_bytes()) == tuple(int(n) for n in icon["sizes"].split("x"))
    assert {"192x192", "512x512", "any"} <= sizes


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, after checking its signature, chunk CRCs and pixel data."""
    width, height, _ = png_pixels(data)
    return width, height


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """A PNG's width, height and pixels as RGBA rows (each after its filter byte), after checking its signature,
    chunk CRCs and pixel data: 8-bit RGBA, or 8-bit indexed (a palette, its alpha in tRNS), unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size, kind_of, palette, alpha = 8, b"", (0, 0), 0, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, kind
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
            assert body[8] == 8 and body[9] in (3, 6), "8-bit RGBA or 8-bit indexed"
            kind_of = body[9]
        elif kind == b"PLTE":
            palette = body
        elif kind == b"tRNS":
            alpha = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height = size
    raw = zlib.decompress(idat)
    if kind_of == 6:
        assert len(raw) == height * (1 + 4 * width)
        return width, height, raw
    assert len(raw) == height * (1 + width) and palette and len(palette) % 3 == 0
    colours = [
        palette[i : i + 3] + bytes([alpha[i // 3] if i // 3 < len(alpha) else 255]) for i in range(0, len(palette), 3)
    ]
    rows = []
    for y in range(height):
        row = raw[y * (1 + width) : (y + 1) * (1 + width)]
        assert row[0] == 0, "unfiltered rows"
        rows.append(b"\0" + b"".join(colours[i] for i in row[1:]))
    return width, height, b"".join(rows)


def test_the_icons_are_the_ones_the_generator_draws() -> None:
    assert (STATIC / "icons" / "icon.svg").read_text() == make_icons.svg()
    assert (STATIC / "icons" / "icon-192.png").read_bytes() == make_icons.png(192)
    # Written with a palette, they are still exactly the picture drawn.
    for name, size, maskable in (("icon-192", 192, False), ("icon-512", 512, False), ("icon-maskable-512", 512, True)):
        assert png_pixels((STATIC / "icons" / f"{name}.png").read_bytes())[2] == make_icons.rgba(size, maskable), name


def test_every_text_a_manifest_names_exists() -> None:
    """The start page labels a game, its presets and its options with the keys its manifest gives."""
    for lang in LANGS:
        texts = translations(lang)
        for manifest in manifests():
            if not manifest.translations:
                continue  # a game without texts of its own (the test-only one) shows its keys' fallbacks
            keys = {f"game.{manifest.name}", *(preset.label for preset in manifest.presets)}
            keys |= {f"bot.{bot}" for bot in bot_names(manifest.name)}  # a bot's kind, beside its person's name
            for option in manifest.options:
                if option.offered:
                    keys |= {option.label, *(f"{option.label}.{value}" for value in option.choices)}
                    keys |= {option.hint} if option.hint else set()
            assert keys <= set(texts), (lang, manifest.name, keys - set(texts))


def test_a_games_scripts_find_their_words_in_its_own_texts_or_the_shared_ones() -> None:
    """A game's page never leans on another game's texts (the pages merge them all, so it would seem to work)."""
    for manifest in manifests():
        web = game_web(manifest)
        if web is None:
            continue
        own: dict[str, object] = {}
        for stem in manifest.translations:
            own.update(translations("en", web / stem))
        shared = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
        if manifest.replay_page:  # its replay module's words, and the replay page's it is handed
            own.update(translations("en", web / "replay"))
            shared.update(translations("en", STATIC / "i18n" / "replay"))
        used = set()
        for path in sorted(web.rglob("*.js")):
            used |= set(re.findall(r"\bt\('([a-z_]+\.[a-z_.\-]+)'", path.read_text(encoding="utf-8")))
        assert used, manifest.name
        assert not used - set(own) - set(shared), (manifest.name, used - set(own) - set(shared))


def test_each_rules_page_s_own_words_are_complete_in_every_language() -> None:
    """A game's rules page may keep its long texts beside it (``rules.LANG.json``, read with ``r('key')``) so that
    the table's phone does not carry them: every key it reads exists, in every language, with its placeholders."""
    checked = 0
    for manifest in manifests():
        web = game_web(manifest)
        if web is None or not manifest.rules_page or not (web / "rules.en.json").is_file():
            continue
        english = json.loads((web / "rules.en.json").read_text(encoding="utf-8"))
        used = set(re.findall(r"\br\('([a-z_0-9.]+)'", (web / manifest.rules_page).read_text(encoding="utf-8")))
        assert used, manifest.game.name
        assert used <= set(english), (manifest.game.name, used - set(english))
        for lang in ("hu", "ja"):
            other = json.loads((web / f"rules.{lang}.json").read_text(encoding="utf-8"))
            assert set(other) == set(english), (manifest.game.name, lang, set(other) ^ set(english))
            for key, text in english.items():
                assert placeholders(text) <= placeholders(other[key]), (manifest.game.name, lang, key)
        checked += 1
    assert checked >= 2
