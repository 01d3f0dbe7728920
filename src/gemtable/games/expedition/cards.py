"""The cards of the expedition deck, as small integers.

A card is an ``int`` so that the engine's hot path stays cheap:

* a treasure is its gem value, 1 to 17;
* a hazard is ``-1 - k`` for the hazard kind ``k`` (0 snakes … 4 rockfall);
* a relic is ``0``.

``card_name`` and ``parse_card`` turn them into the words used in scripts,
records and on the wire ("7", "spiders", "relic"), and back.
"""

from __future__ import annotations

from gemtable.games.api import BadRules

RELIC = 0
HAZARD_KINDS: tuple[str, ...] = ("snakes", "spiders", "mummies", "fire", "rockfall")


def hazard(kind: str) -> int:
    """The card of a hazard kind."""
    return -1 - HAZARD_KINDS.index(kind)


def hazard_kind(card: int) -> str:
    """The kind of a hazard card."""
    return HAZARD_KINDS[-1 - card]


def card_name(card: int) -> str:
    if card > 0:
        return str(card)
    if card == RELIC:
        return "relic"
    return hazard_kind(card)


TAKEN_RELIC = -99
"""A relic card that a lone leaver carried out: it stays on the path as an empty slot."""


def path_card_name(card: int) -> str:
    """The name of a card as it lies on the path ("relic-taken" once carried out)."""
    return "relic-taken" if card == TAKEN_RELIC else card_name(card)


def parse_card(name: str) -> int:
    """The card called ``name``; :class:`BadRules` when there is none."""
    if not isinstance(name, str):  # a script comes from a host's JSON: anything at all
        raise BadRules(f"a card is named by a string, not {name!r:.40}")
    if name == "relic":
        return RELIC
    if name in HAZARD_KINDS:
        return hazard(name)
    if name.isascii() and name.isdigit() and len(name) <= 2 and int(name) > 0:
        return int(name)
    raise BadRules(f"unknown card {name[:40]!r}")
