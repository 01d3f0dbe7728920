"""The expedition: a press-your-luck cave game in the family of Diamant / Incan Gold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gemtable.games.api import JSON, BadRules
from gemtable.games.expedition.cards import HAZARD_KINDS, RELIC, card_name, parse_card
from gemtable.games.expedition.rules import PRESETS, ExpeditionRules, rules_for
from gemtable.games.expedition.state import CAMP, DEEPER, MAX_SEATS, ExpeditionState
from gemtable.games.expedition.view import ExpeditionView


class Expedition:
    """The game as the registry knows it."""

    name: ClassVar[str] = "expedition"
    title: ClassVar[str] = "The expedition"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    seats_per_game: ClassVar[int] = MAX_SEATS

    @classmethod
    def rules_json(cls, preset: str, options: Mapping[str, JSON]) -> JSON:
        return rules_for(preset, options).to_json()

    @classmethod
    def new(cls, rules: JSON, seats: int, seed: int, script: JSON | None = None) -> ExpeditionState:
        parsed = rules if isinstance(rules, ExpeditionRules) else ExpeditionRules.from_json(rules)
        if script is not None and (not isinstance(script, list) or not all(isinstance(cave, list) for cave in script)):
            raise BadRules("a script is a list of caves, each a list of card names")
        return ExpeditionState(parsed, seats, seed, script)


__all__ = [
    "CAMP",
    "DEEPER",
    "HAZARD_KINDS",
    "PRESETS",
    "RELIC",
    "Expedition",
    "ExpeditionRules",
    "ExpeditionState",
    "ExpeditionView",
    "card_name",
    "parse_card",
    "rules_for",
]
