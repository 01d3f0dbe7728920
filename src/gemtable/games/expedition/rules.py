"""The rules of the expedition as one typed object, and its presets.

Every point on which the readings differ is a field here, so that a host can
choose and tests can cover each one:

* ``table`` — the table's reading (seed 002), the default;
* ``classic`` — classic Diamant (seed 000): 3 to 8 players, no relics unless the
  relic variant is switched on, the path shared card by card, gems shown as
  rubies and diamonds (a diamond is five rubies).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from gemtable.games.api import JSON, BadRules
from gemtable.games.expedition.cards import RELIC, hazard

PathSplit = Literal["pooled", "per_card"]
GemDisplay = Literal["gems", "rubies"]

TREASURES: tuple[int, ...] = (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)


@dataclass(frozen=True)
class ExpeditionRules:
    """The rules a table plays by."""

    preset: str = "table"
    min_players: int = 2
    max_players: int = 8
    caves: int = 5
    treasures: tuple[int, ...] = TREASURES
    hazard_copies: int = 3
    relics: bool = True
    """One relic joins the deck at the start of every cave."""
    relic_values: tuple[int, ...] = (5, 5, 5, 10, 10)
    """Worth of the first, second, … relic carried out of any cave."""
    path_split: PathSplit = "pooled"
    """``pooled``: leavers share all loose gems of the path as one pile;
    ``per_card``: they share each card's gems separately (classic Diamant)."""
    collapse_removes: int = 1
    """Copies of the collapsing hazard that leave the game (0 to 2)."""
    gem_display: GemDisplay = "gems"
    """How pages show gems: plain gems, or rubies and diamonds (5 rubies)."""
    show_odds: bool = True
    """Whether views carry the chance that the next card collapses the cave."""

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players <= 8:
            raise BadRules("players must be 1 <= min <= max <= 8")
        if not 1 <= self.caves <= 20:
            raise BadRules("caves must be between 1 and 20")
        if not self.treasures or any(not 0 < t < 100 for t in self.treasures):
            raise BadRules("treasures must be gem values between 1 and 99")
        if not 1 <= self.hazard_copies <= 5:
            raise BadRules("hazard copies must be between 1 and 5")
        if not self.relic_values or any(v < 0 for v in self.relic_values):
            raise BadRules("relic values must be a non-empty list of non-negative numbers")
        if self.path_split not in ("pooled", "per_card"):
            raise BadRules("path split must be 'pooled' or 'per_card'")
        if not 0 <= self.collapse_removes <= min(2, self.hazard_copies):
            raise BadRules("a collapse removes 0, 1 or 2 copies")
        if self.gem_display not in ("gems", "rubies"):
            raise BadRules("gem display must be 'gems' or 'rubies'")

    def relic_value(self, nth: int) -> int:
        """Worth of the ``nth`` relic carried out (0-based); later ones keep the last value."""
        values = self.relic_values
        return values[nth] if nth < len(values) else values[-1]

    def base_deck(self) -> list[int]:
        """Treasures and hazards of a new game, before any relic or removal."""
        deck = list(self.treasures)
        for kind in range(5):
            deck.extend([-1 - kind] * self.hazard_copies)
        return deck

    def to_json(self) -> JSON:
        """The rules as JSON (a fresh object each time; the rules never change, so the walk over the
        fields is done once per rules object and kept)."""
        cached: JSON | None = self.__dict__.get("_json")
        if cached is None:
            cached = {f.name: getattr(self, f.name) for f in fields(self)}
            object.__setattr__(self, "_json", cached)
        return {**cached, "treasures": list(self.treasures), "relic_values": list(self.relic_values)}

    @classmethod
    def from_json(cls, data: JSON) -> ExpeditionRules:
        if not isinstance(data, Mapping):
            raise BadRules("rules must be a JSON object")
        return _build(cls(), data, allow_all=True)


PRESETS: dict[str, ExpeditionRules] = {
    "table": ExpeditionRules(),
    "classic": ExpeditionRules(
        preset="classic",
        min_players=3,
        relics=False,
        path_split="per_card",
        gem_display="rubies",
    ),
}

HOST_OPTIONS = frozenset({"relics", "path_split", "collapse_removes", "gem_display", "show_odds", "caves"})
"""Fields a host may change on top of a preset when creating a table."""


def rules_for(preset: str, options: Mapping[str, Any] | None = None) -> ExpeditionRules:
    """The rules of ``preset`` with a host's ``options`` applied."""
    try:
        base = PRESETS[preset]
    except KeyError:
        raise BadRules(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}") from None
    return _build(base, options or {}, allow_all=False)


def _build(base: ExpeditionRules, data: Mapping[str, Any], allow_all: bool) -> ExpeditionRules:
    known = {f.name: f for f in fields(ExpeditionRules)}
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known or (not allow_all and key not in HOST_OPTIONS):
            raise BadRules(f"unknown rules option {key!r}")
        changes[key] = _typed(key, value)
    return replace(base, **changes)


def _typed(key: str, value: Any) -> Any:
    if key in ("treasures", "relic_values"):
        if not isinstance(value, list | tuple) or not all(type(v) is int for v in value):
            raise BadRules(f"{key} must be a list of whole numbers")
        return tuple(value)
    if key in ("relics", "show_odds"):
        if not isinstance(value, bool):
            raise BadRules(f"{key} must be true or false")
        return value
    if key in ("min_players", "max_players", "caves", "hazard_copies", "collapse_removes"):
        if type(value) is not int:
            raise BadRules(f"{key} must be a whole number")
        return value
    if not isinstance(value, str):
        raise BadRules(f"{key} must be text")
    return value


def deck_size(rules: ExpeditionRules) -> int:
    """Cards in the first cave's deck."""
    return len(rules.base_deck()) + (1 if rules.relics else 0)


__all__ = ["HOST_OPTIONS", "PRESETS", "RELIC", "ExpeditionRules", "deck_size", "hazard", "rules_for"]
