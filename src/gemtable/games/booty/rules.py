"""The rules a Booty Hunter table plays by, and its presets.

The reading leaves three choices to the host.  How diamonds are scored, as presets:

* ``every-area`` — mode 1, the default: every area touching a diamond scores.
* ``largest-area`` — mode 2: per diamond, only the largest touching area(s) score.

And the two points the seed leaves open, as options (today's reading the default; see
:class:`~gemtable.games.booty.scoring.Counting`): ``touching`` (``scores`` / ``void``: does a
diamond touching another diamond score nothing at all?) and ``tie`` (``share`` / ``none``: in
mode 2, do areas tied for the greatest size all score, or none?).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gemtable.games.api import JSON, BadRules
from gemtable.games.booty.scoring import EVERY_AREA, LARGEST_AREA, MODES, TIES, TOUCHING, Counting

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
    touching: str = "scores"
    """A diamond touching another diamond: ``scores`` as usual (the default) or is ``void``."""
    tie: str = "share"
    """Mode 2, areas tied for the greatest size: all score (``share``, the default) or ``none`` does."""

    def __post_init__(self) -> None:
        if type(self.scoring) is not int or self.scoring not in MODES:
            raise BadRules("scoring must be 1 (every area) or 2 (largest area)")
        if not isinstance(self.touching, str) or self.touching not in TOUCHING:
            raise BadRules(f"touching must be one of {', '.join(TOUCHING)}")
        if not isinstance(self.tie, str) or self.tie not in TIES:
            raise BadRules(f"tie must be one of {', '.join(TIES)}")
        if self.preset not in PRESETS_BY_MODE.values():
            raise BadRules(f"unknown preset {self.preset!r}; known: {', '.join(PRESETS)}")

    @property
    def counting(self) -> Counting:
        return Counting(self.scoring, self.touching, self.tie)

    def to_json(self) -> JSON:
        return {"preset": self.preset, "scoring": self.scoring, "touching": self.touching, "tie": self.tie}

    @classmethod
    def from_json(cls, data: JSON) -> BootyRules:
        if not isinstance(data, Mapping):
            raise BadRules("rules must be a JSON object")
        unknown = set(data) - {"preset", "scoring", "touching", "tie"}
        if unknown:
            raise BadRules(f"unknown rules option {sorted(unknown)[0]!r}")
        return cls(
            preset=data.get("preset", "every-area"),
            scoring=data.get("scoring", EVERY_AREA),
            touching=data.get("touching", "scores"),
            tie=data.get("tie", "share"),
        )


PRESETS_BY_MODE: dict[int, str] = {EVERY_AREA: "every-area", LARGEST_AREA: "largest-area"}
PRESETS: dict[str, BootyRules] = {name: BootyRules(name, mode) for mode, name in PRESETS_BY_MODE.items()}

HOST_OPTIONS = frozenset({"scoring", "touching", "tie"})
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
    return BootyRules(
        base.preset,
        options.get("scoring", base.scoring),
        options.get("touching", base.touching),
        options.get("tie", base.tie),
    )


__all__ = ["HOST_OPTIONS", "PLACEMENTS", "PLAYERS", "PRESETS", "ROUNDS", "BootyRules", "rules_for"]
