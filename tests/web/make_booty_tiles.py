"""Write the pages' copy of the Booty Hunter tile set: src/gemtable/games/booty/web/tiles.json.

The rules page draws every tile from this file.  It is the engine's tile list
(src/gemtable/games/booty/tiles.json), written compactly, one tile a line; a
test (tests/web/test_booty.py) checks that the copy equals the engine's file.

    .venv/bin/python -m tests.web.make_booty_tiles
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "src" / "gemtable" / "games" / "booty" / "tiles.json"
COPY = ROOT / "src" / "gemtable" / "games" / "booty" / "web" / "tiles.json"


def text() -> str:
    """The copy's text, from the engine's tile list."""
    tiles = json.loads(ENGINE.read_text(encoding="utf-8"))["tiles"]
    lines = [json.dumps(tile, separators=(",", ":"), ensure_ascii=False) for tile in tiles]
    return '{"from":"src/gemtable/games/booty/tiles.json","tiles":[\n' + ",\n".join(lines) + "\n]}\n"


def main() -> None:
    COPY.write_text(text(), encoding="utf-8")
    print(f"wrote {COPY.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
