"""Chests can be counted (issue 13, finding 8): what docs/security.md and the rules page now say, shown to be
true.  A spectator who adds up what each reveal shows — what every leaver carried out, and their share of the
path — and the relics everyone holds (public), knows every chest exactly, at every moment of the game; as at
a real table, where everyone sees what goes into a chest.  Nobody's phone but the owner's *shows* a chest
before the game is over."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import play_until_over, run

ROOT = Path(__file__).resolve().parents[2]
TEXTS = ROOT / "src" / "gemtable" / "games" / "expedition" / "web"
"""The expedition's own texts (``texts.LANG.json``, in its folder: its phones and its rules page load them)."""


def count_chests(frames: list[str]) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """Every chest, rebuilt from a spectator's frames; and the spectator's states."""
    chests: dict[int, int] = {}
    seen: set[str] = set()
    states = [json.loads(f)["table"] for f in frames if json.loads(f)["type"] == "state"]
    for table in states:
        game = table["state"]
        if game is None or game["reveal"] is None:
            continue
        key = json.dumps([table["game_number"], game["cave"], len(game["path"]), game["reveal"]])
        if key in seen:  # the same reveal, still on show
            continue
        seen.add(key)
        reveal = game["reveal"]
        for seat, carried in zip(reveal["leavers"], reveal["banked"], strict=True):
            chests[seat] = chests.get(seat, 0) + carried + reveal["path_share"]
    return chests, states


def test_a_spectator_who_keeps_count_knows_every_chest(server: ServerProcess) -> None:
    code = server.create_table(seconds=30, pause=0.5)

    async def scenario() -> tuple[list[str], dict[str, Any]]:
        host, guest = await Client.open(server.ws), await Client.open(server.ws)
        await host.join(code, "Ann")
        await guest.join(code, "Bob")
        for bot in ("cautious", "bold"):
            await host.add_bot(bot)
        spectator = await Client.open(server.ws)
        await spectator.hello(code)
        await host.start()
        await host.until(lambda s: s["phase"] == "playing")
        await asyncio.gather(play_until_over([host], "deeper"), play_until_over([guest], "camp"))
        final = await spectator.until(lambda s: s["state"] is not None and s["state"]["phase"] == "over")
        frames = list(spectator.frames)
        for phone in (host, guest, spectator):
            await phone.close()
        return frames, final

    frames, final = run(scenario())
    chests, states = count_chests(frames)
    game = final["state"]
    assert len(states) > 10
    # Before the end, the spectator was never shown a chest…
    for table in states:
        if table["state"] is not None and table["state"]["phase"] != "over":
            assert all(p["chest"] is None for p in table["state"]["players"])
    # …yet its count, plus the relics everyone holds in the open, is every final score exactly.
    counted = [chests.get(p["seat"], 0) + sum(p["relics"]) for p in game["players"]]
    assert counted == [game["scores"][p["seat"]] for p in game["players"]]
    assert [chests.get(p["seat"], 0) for p in game["players"]] == [p["chest"] for p in game["players"]]
    assert sum(chests.values()) > 0


def test_the_rules_and_the_phone_do_not_call_a_chest_secret() -> None:
    """The rules page says a chest can be counted, in every language; the phone's note under "Your chest"
    says only that the others' phones do not show it."""
    words = {"en": "keeps count", "hu": "számolja", "ja": "数えていれば"}
    for lang, word in words.items():
        texts = json.loads((TEXTS / f"rules.{lang}.json").read_text())  # the rules page's own words
        assert word in texts["rules.exp.camp"], lang
    assert json.loads((TEXTS / "texts.en.json").read_text())["exp.chest_secret"] == "not shown on the others' phones"
    doc = (ROOT / "docs" / "security.md").read_text()
    assert "Chests can be counted" in doc
