"""What might have been: what one more card would have done to each explorer of a cave, and the game's awards.

Pure: it reads a cave's summary (:class:`CaveEnd`, which the state makes when a cave ends) and nothing else.
The rules, as ``docs/expedition.md`` tells them to players:

* An explorer who walked out when ``k`` cards lay on the path is told what card ``k + 1`` would have done to
  them had they gone deeper instead, everyone else choosing as they did: a treasure shared with the explorers
  who really went deeper and them (rounded down), a first hazard of its kind (no harm), a relic (it lies on the
  path: nobody takes one by going deeper), or a second hazard of a kind, which buries them — it would have cost
  what the walk-out put in their chest from this cave (the gems and any relics carried out).
* Card ``k + 1`` is on the path when someone went deeper at that reveal (it is public).  When everybody inside
  walked out together, it was never turned: it is named only when nothing follows the cave (the game's last
  cave, or a game the host ended), since every card not turned goes back into the deck for the caves to come
  and the next cave's shuffle draws from the same generator.  Otherwise it stays untold (``kept``).
* An explorer still inside when the cave ended (a collapse, or a deck that ran out) rode it to the end.

The awards read every cave of a finished game (see :func:`awards`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gemtable.games.api import JSON
from gemtable.games.expedition.cards import RELIC, card_name

RODE = "rode"
"""Inside when the cave ended: nothing more to tell."""
TREASURE = "treasure"
HAZARD = "hazard"
"""A first hazard of its kind: a warning, no harm."""
COLLAPSE = "collapse"
ANOTHER_RELIC = "relic"
KEPT = "kept"
"""The next card was never turned and goes back into the deck for the caves to come: not told."""
NO_CARD = "none"
"""There was no next card (a scripted deck, or the whole deck, ran out)."""


@dataclass(frozen=True)
class CaveEnd:
    """What a finished cave leaves to tell, all of it public once the cave is over (``next_card`` is set only
    when it may be named: see the module's documentation)."""

    number: int
    path: tuple[int, ...]
    """The cards in the order they were turned (a relic as ``RELIC`` even once carried out)."""
    explorers: tuple[int, ...]
    """The seats that walked in, in seat order."""
    left_at: Mapping[int, int]
    """Each seat that walked out: how many cards lay on the path when it did."""
    banked: Mapping[int, int]
    """Gems each seat put in its chest from this cave (walked out, or inside when the deck ran out)."""
    relics: Mapping[int, tuple[int, ...]]
    """The values of the relics each seat carried out of this cave."""
    lost: Mapping[int, int]
    """Gems each seat inside at a collapse lost."""
    collapsed_by: int | None
    path_left: int
    """Loose gems still on the path when the cave ended (back to the supply)."""
    next_card: int | None
    """The card after the last one turned, when it may be named (``has_next``); None otherwise."""
    has_next: bool
    """Whether ``next_card`` is told: the cave ended with everyone walking out, nothing follows it, and there
    was a next card."""
    kept: bool
    """Whether the card after the last is untold because it goes back into the deck for later caves."""
    ran_out: bool = False
    """Whether the deck ran out with explorers inside (they walked out with what they carried)."""


def what_might_have_been(cave: CaveEnd, seat: int) -> JSON:
    """What one more card would have done to ``seat`` (see the module's documentation), or None for a seat that
    was not in the cave.  ``{"kind", "card"?, "gems"?, "relics"?}``: ``card`` the next card's name, ``gems`` what
    a treasure gave or a collapse cost, ``relics`` how many relics a collapse cost."""
    if seat not in cave.explorers:
        return None
    k = cave.left_at.get(seat)
    if k is None:
        return {"kind": RODE}
    if k < len(cave.path):
        card = cave.path[k]
    elif cave.has_next and cave.next_card is not None:
        card = cave.next_card
    else:
        return {"kind": KEPT if cave.kept else NO_CARD}
    name = card_name(card)
    if card > 0:
        stayers = 1 + sum(1 for s in cave.explorers if s != seat and cave.left_at.get(s, k + 1) > k)
        return {"kind": TREASURE, "card": name, "gems": card // stayers}
    if card == RELIC:
        return {"kind": ANOTHER_RELIC, "card": name}
    if card in cave.path[:k]:
        relics = cave.relics.get(seat, ())
        return {"kind": COLLAPSE, "card": name, "gems": cave.banked.get(seat, 0), "relics": len(relics)}
    return {"kind": HAZARD, "card": name}


def awards(caves: Sequence[CaveEnd]) -> JSON:
    """A finished game's awards, each None when nobody earned it:

    * ``boldest`` — the richest walk-out: the most a seat carried out of a cave at once (gems plus relic values);
      a tie goes to the later walk-out in its cave (more cards on the path), then the earlier cave, then the
      lower seat.  ``{"seat", "cave", "gems", "relics", "card"}`` (``card``: cards on the path then).
    * ``last_out`` — the cave's last survivor, most often: in each cave, the seats that walked out (or rode out
      a deck that ran out) last of all, alive; the seat that was so in the most caves, a tie going to the one
      that banked more in those caves, then to the lower seat.  ``{"seat", "caves"}``.
    * ``left_behind`` — the richest path left behind: the cave that ended with the most loose gems on its path,
      a tie going to the earlier cave.  ``{"cave", "gems"}``.
    * ``unluckiest`` — the most gems lost in one collapse; a tie goes to the earlier cave, then the lower seat.
      ``{"seat", "cave", "gems"}``.
    """
    return {
        "boldest": _boldest(caves),
        "last_out": _last_out(caves),
        "left_behind": _left_behind(caves),
        "unluckiest": _unluckiest(caves),
    }


def _boldest(caves: Sequence[CaveEnd]) -> JSON:
    best: tuple[int, int, int, int] | None = None
    found: JSON = None
    for cave in caves:
        for seat, gems in cave.banked.items():
            relics = sum(cave.relics.get(seat, ()))
            card = cave.left_at.get(seat, len(cave.path))
            key = (gems + relics, card, -cave.number, -seat)
            if gems + relics > 0 and (best is None or key > best):
                best = key
                found = {"seat": seat, "cave": cave.number, "gems": gems, "relics": relics, "card": card}
    return found


def _last_survivors(cave: CaveEnd) -> list[int]:
    """The seats that left the cave alive last of all (a deck that ran out: those inside, after every walk-out)."""
    alive = dict(cave.left_at)
    if cave.ran_out:
        alive.update((s, len(cave.path) + 1) for s in cave.explorers if s not in cave.left_at)
    if not alive:
        return []
    last = max(alive.values())
    return sorted(s for s, at in alive.items() if at == last)


def _last_out(caves: Sequence[CaveEnd]) -> JSON:
    count: dict[int, int] = {}
    banked: dict[int, int] = {}
    for cave in caves:
        for seat in _last_survivors(cave):
            count[seat] = count.get(seat, 0) + 1
            banked[seat] = banked.get(seat, 0) + cave.banked.get(seat, 0) + sum(cave.relics.get(seat, ()))
    if not count:
        return None
    seat = min(count, key=lambda s: (-count[s], -banked[s], s))
    return {"seat": seat, "caves": count[seat]}


def _left_behind(caves: Sequence[CaveEnd]) -> JSON:
    best = max(caves, key=lambda cave: (cave.path_left, -cave.number), default=None)
    if best is None or best.path_left <= 0:
        return None
    return {"cave": best.number, "gems": best.path_left}


def _unluckiest(caves: Sequence[CaveEnd]) -> JSON:
    losses = [(gems, -cave.number, -seat) for cave in caves for seat, gems in cave.lost.items() if gems > 0]
    if not losses:
        return None
    gems, cave, seat = max(losses)
    return {"seat": -seat, "cave": -cave, "gems": gems}
