"""Booty Hunter as a kind of game: its name, seats and how to start one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gemtable.games.api import JSON, BadRules
from gemtable.games.booty.rules import PLAYERS, BootyRules, rules_for
from gemtable.games.booty.state import BootyState


class BootyHunter:
    """A 3-player tile-laying game: lay tiles, pair gem halves into diamonds, touch them with your land."""

    name: ClassVar[str] = "booty"
    title: ClassVar[str] = "Booty Hunter"
    min_seats: ClassVar[int] = PLAYERS
    max_seats: ClassVar[int] = PLAYERS
    seats_per_game: ClassVar[int] = PLAYERS
    """A seat belongs to its chair (its colour): a newcomer in that chair plays on with it."""

    @classmethod
    def rules_json(cls, preset: str, options: Mapping[str, JSON]) -> JSON:
        return rules_for(preset, options).to_json()

    @classmethod
    def new(cls, rules: JSON, seats: int, seed: int, script: JSON | None = None) -> BootyState:
        if seats != PLAYERS:
            raise BadRules("Booty Hunter is a game for exactly 3 seats")
        if type(seed) is not int:
            raise BadRules("the seed must be a whole number")
        return BootyState(BootyRules.from_json(rules), seed, script)


__all__ = ["BootyHunter"]
