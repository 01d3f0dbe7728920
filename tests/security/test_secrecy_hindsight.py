"""What might have been, checked on the wire: no frame names a card of a cave that was never turned, but the one
the rule allows (``games/expedition/hindsight.py``: the card after the last walk-out of the game's last cave).

Differential, as ``test_secrecy_wire.py``: whole games are played twice with the same choices on scripted decks
that differ only in the cards each cave never turned (after a collapse, after everyone walked out); every frame
every phone, the spectator and the TV receive is recorded, and the two rooms' frames must be the same, frame for
frame, for every recipient — but for the hindsight of the seats who walked out of the last cave together at its
last card, which names each room's own next card, in that seat's view alone, once the game is over.  Every frame is
also checked on its own (``view_problems``: a hindsight only in its own seat's view, between caves and at the end),
and no frame names a card of a cave's unturned tail anywhere else.  Version 2 phones (version 1 differs only in how a
choice is told, which ``test_secrecy_wire.py`` covers in both)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any

from tests.security.conftest import clean_log
from tests.security.test_secrecy_wire import Room, check_every_frame, played, side_by_side
from tests.server.harness import ServerProcess

Plan = Callable[[int, int, int], str]
"""(cave, cards on the path, who) -> the move."""


def plan_a(cave: int, cards: int, who: int) -> str:
    """Cave 1: Ann and Bob walk out, one card apart, before the second spiders buries Cat and Dan.  Cave 2: all
    four walk out at the second card (the third goes back into the deck: untold).  Cave 3, the last: Ann walks
    out, the other three together at the third card (the fourth is named to them, and to nobody else)."""
    if cave == 1:
        return "camp" if (who, cards) in ((0, 1), (1, 2)) else "deeper"
    if cave == 2:
        return "camp" if cards == 2 else "deeper"
    return "camp" if (who == 0 and cards == 1) or cards == 3 else "deeper"


def plan_b(cave: int, cards: int, who: int) -> str:
    """Cave 1: one by one, Dan alone last at the fourth card (the fifth goes back).  Cave 2, the last: Ann and Bob
    walk out at the first mummies; the second buries Cat and Dan (nothing unturned is named)."""
    if cave == 1:
        return "camp" if cards == 1 + who else "deeper"
    return "camp" if who < 2 and cards == 3 else "deeper"


# The cards played in each cave, then two tails that differ: cards never turned.
PLAYED_A = [["5", "9", "spiders", "4", "spiders"], ["7", "3"], ["11", "fire", "2"]]
PLAYED_B = [["2", "13", "relic", "5"], ["1", "14", "mummies", "mummies"]]
TAILS = (["15", "rockfall", "17"], ["mummies", "14", "1"])


def scripts(played: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    return tuple([cave + tail for cave in played] for tail in TAILS)  # type: ignore[return-value]


async def play(room: Room, plan: Plan) -> None:
    """The whole game, one choice at a time (each followed by everyone having what it caused)."""
    while True:
        await room.settle()
        view = room.spectator.state or {}
        if view.get("phase") == "results":
            return
        game = view.get("state") or {}
        acted = False
        if view.get("phase") == "playing" and game.get("phase") == "choose":
            for who, player in enumerate(room.players):
                me = (player.state or {}).get("me") or {}
                if me.get("moves") and me.get("choice") is None:
                    await room.choose(who, plan(game["cave"], len(game["path"]), who))
                    acted = True
        if not acted:
            await asyncio.sleep(0.05)


def hindsight_of(frame: dict[str, Any]) -> Any:
    game = frame["table"]["state"] if frame["type"] == "state" else None
    return game.get("hindsight") if game else None


def without_hindsight(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = json.loads(json.dumps(frames))
    for frame in out:
        if frame["type"] == "state" and frame["table"]["state"]:
            frame["table"]["state"]["hindsight"] = None
    return out


def named_cards(raw: str) -> set[str]:
    """Every card a frame names: on the path, the collapse's, the removed, a hindsight's."""
    found = set(re.findall(r'"card":"([a-z0-9-]+)"', raw.replace(" ", "")))
    found |= set(re.findall(r'"collapsed_by":"([a-z]+)"', raw.replace(" ", "")))
    for removed in re.findall(r'"removed":\[([^\]]*)\]', raw.replace(" ", "")):
        found |= set(re.findall(r'"([a-z]+)"', removed))
    return found


Told = tuple[dict[str, Any], dict[str, list[Any]]]
"""The final frame of each of a room's recipients, and what each was told cave after cave, by name."""


def check(rooms: tuple[Room, Room], turned: list[list[str]], named: dict[int, str]) -> Told:
    """Two rooms played alike on decks whose tails differ; ``named``: who is told which card after the last cave
    (room A's tail, room B's tail: the tails' first cards), everyone else nothing of a tail.  What the first
    room's recipients were told."""
    a, b = rooms
    tails = [set(tail) for tail in TAILS]
    for i, (recipient_a, recipient_b) in enumerate(zip(a.everyone, b.everyone, strict=True)):
        frames_a, frames_b = a.frames(recipient_a), b.frames(recipient_b)
        assert len(frames_a) == len(frames_b) > 20
        assert without_hindsight(frames_a) == without_hindsight(frames_b)  # a tail changes nothing else, ever
        for frames, raws, room in ((frames_a, recipient_a.frames, 0), (frames_b, recipient_b.frames, 1)):
            over = False
            for frame, raw in zip(frames, [r for r in raws if json.loads(r)["type"] != "pong"], strict=True):
                hindsight = hindsight_of(frame)
                over = over or (frame["type"] == "state" and frame["table"]["phase"] == "results")
                cards = named_cards(raw)
                if i in named and over and hindsight and hindsight.get("kind") != "rode":
                    assert hindsight["card"] == TAILS[room][0]  # the one card the rule allows, to them alone
                    cards.discard(TAILS[room][0])
                assert not cards & tails[room] - set().union(*(set(cave) for cave in turned)), (i, raw)
        told_a = [hindsight_of(f) for f in frames_a if hindsight_of(f)]
        told_b = [hindsight_of(f) for f in frames_b if hindsight_of(f)]
        if i in named:
            assert told_a[-1]["card"] == named[i] and told_a != told_b
        else:
            assert told_a == told_b
        if i >= len(a.players):  # the spectator and the TV: nobody's
            assert not told_a
    for each in rooms:
        check_every_frame(each)
    names = ["Ann", "Bob", "Cat", "Dan", "spectator", "tv"]
    told: dict[str, list[Any]] = {name: [] for name in names}
    for name, client in zip(names, a.everyone, strict=True):
        for frame in a.frames(client):
            if hindsight_of(frame) and hindsight_of(frame) not in told[name][-1:]:
                told[name].append(hindsight_of(frame))
    return {name: a.frames(c)[-1] for name, c in zip(names, a.everyone, strict=True)}, told


def four_rooms(scripted: ServerProcess) -> tuple[tuple[Room, Room], tuple[Room, Room]]:
    """Both games, each in two rooms, all four at once (each room waits only for what it caused)."""
    Room.version = 2

    async def pair(turned: list[list[str]], plan: Plan) -> tuple[Room, Room]:
        first, second = scripts(turned)
        rooms = (
            await Room(scripted, first, caves=len(turned)).open(),
            await Room(scripted, second, caves=len(turned)).open(),
        )
        await asyncio.gather(*(room.start() for room in rooms))
        return await side_by_side(rooms, *(play(room, plan) for room in rooms))

    async def both() -> tuple[tuple[Room, Room], tuple[Room, Room]]:
        return await asyncio.gather(pair(PLAYED_A, plan_a), pair(PLAYED_B, plan_b))

    return played(both())  # type: ignore[no-any-return]


def last_told(frames: dict[str, Any], name: str) -> Any:
    return frames[name]["table"]["state"]["hindsight"]


def test_collapses_and_walk_outs_never_tell_a_card_kept_for_later(scripted: ServerProcess) -> None:
    game_a, game_b = four_rooms(scripted)
    # Game A: room A's last-cave tail begins with 15, room B's with mummies (a first mummies: harmless).
    final, told = check(game_a, PLAYED_A, named={1: "15", 2: "15", 3: "15"})
    assert told["Ann"][:2] == [{"kind": "treasure", "card": "9", "gems": 2}, {"kind": "kept"}]
    assert told["Cat"][:2] == [{"kind": "rode"}, {"kind": "kept"}]
    assert last_told(final, "Ann") == {"kind": "hazard", "card": "fire"}
    assert last_told(final, "Bob") == {"kind": "treasure", "card": "15", "gems": 15}  # the others walked out too
    assert last_told(final, "spectator") is None
    awards = final["tv"]["table"]["state"]["awards"]
    assert awards["unluckiest"] == {"seat": 2, "cave": 1, "gems": 6}  # Cat and Dan each lost 1 + 3 + 2: the lower seat
    assert awards == final["Ann"]["table"]["state"]["awards"]
    # Game B: its last cave collapses, and nothing unturned is named.
    final, told = check(game_b, PLAYED_B, named={})
    assert told["Dan"][0] == {"kind": "kept"}  # alone, last out of cave 1: the card after goes back
    assert told["Bob"][0] == {"kind": "relic", "card": "relic"}
    assert told["Cat"][0] == {"kind": "treasure", "card": "5", "gems": 2}  # shared with Dan
    assert last_told(final, "Ann") == {"kind": "collapse", "card": "mummies", "gems": 4, "relics": 0}
    assert last_told(final, "Dan") == {"kind": "rode"}
    # Dan last out of cave 1 (9 gems), Ann and Bob of cave 2 (4 each): Dan banked most.
    assert final["tv"]["table"]["state"]["awards"]["last_out"] == {"seat": 3, "caves": 1}
    clean_log(scripted)
