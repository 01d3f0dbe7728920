"""The rules a Booty Hunter table plays by, and its presets.

The reading leaves one choice to the host: how diamonds are scored.

* ``every-area`` — mode 1, the default: every area touching a diamond scores.
* ``largest-area`` — mode 2: per diamond, only the largest touching area(s) score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gemtable.games.api import JSON, BadRules
from gemtable.games.booty.scoring import EVERY_AREA, LARGEST_AREA, MODES

PLAYERS = 3
ROUNDS = 12
PLACEMENTS = ROUNDS * PLAYERS
"""The game ends after this many tiles are placed (or when the bag runs out)."""


@dataclass(frozen=True)
class BootyRules:
    """The rules a table plays by."""

    preset: str = "every-area"
    scoring: int = EVERY_AREA
    """1: every area touching a diamond scores; 2: only the largest touching area(s)."""

    def __post_init__(self) -> None:
        if type(self.scoring) is not int or self.scoring not in MODES:
            raise BadRules("scoring must be 1 (every area) or 2 (largest area)")
        if self.preset not in PRESETS_BY_MODE.values():
            raise BadRules(f"unknown preset {self.preset!r}; known: {', '.join(PRESETS)}")

    def to_json(self) -> JSON:
        return {"preset": self.preset, "scoring": self.scoring}

    @classmethod
    def from_json(cls, data: JSON) -> BootyRules:
        if not isinstance(data, Mapping):
            raise BadRules("rules must be a JSON object")
        unknown = set(data) - {"preset", "scoring"}
        if unknown:
            raise BadRules(f"unknown rules option {sorted(unknown)[0]!r}")
        return cls(preset=data.get("preset", "every-area"), scoring=data.get("scoring", EVERY_AREA))


PRESETS_BY_MODE: dict[int, str] = {EVERY_AREA: "every-area", LARGEST_AREA: "largest-area"}
PRESETS: dict[str, BootyRules] = {name: BootyRules(name, mode) for mode, name in PRESETS_BY_MODE.items()}

HOST_OPTIONS = frozenset({"scoring"})
"""What a host may change on top of a preset."""


def rules_for(preset: str, options: Mapping[str, Any] | None = None) -> BootyRules:
    """The rules of ``preset`` with a host's ``options`` applied."""
    try:
        base = PRESETS[preset]
    except KeyError:
        raise BadRules(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}") from None
    options = options or {}
    unknown = set(options) - HOST_OPTIONS
    if unknown:
        raise BadRules(f"unknown rules option {sorted(unknown)[0]!r}")
    return BootyRules(base.preset, options.get("scoring", base.scoring))


__all__ = ["HOST_OPTIONS", "PLACEMENTS", "PLAYERS", "PRESETS", "ROUNDS", "BootyRules", "rules_for"]
