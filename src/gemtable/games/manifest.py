"""A game as one unit: everything the rest of gemtable needs to know about it, declared once.

A game's folder holds its rules and a ``manifest.py`` whose ``MANIFEST`` is a :class:`Manifest`.  The
registry (``gemtable.games``) lists the manifests; the table, the bots' registry, the CLI, the bench tools,
the server and the pages read them, and none of them names a game.

Declared, never inferred:

* ``dynamics`` — ``"simultaneous"`` (every seat asked decides at once, in secret, revealed together) or
  ``"turns"`` (one seat after another, in the open);
* ``seats`` — who owns a seat of the game: ``"player"`` (a player keeps their seat, and a newcomer in a freed
  chair gets a fresh one) or ``"chair"`` (a seat is a place at the table, and a newcomer plays on with it);
* ``options`` — what a host may change on top of a preset, each with its type, range, default and the
  translation key of its label (:class:`Option`); ``presets`` name the starting points and the option values
  each sets (:class:`Preset`);
* ``bots`` — the module holding the game's bots (its ``register()`` registers them), imported when first
  needed, so the rules never import a bot; ``stand_in`` — the one of them that plays for a person whose phone
  stays gone; ``named_bots`` — the function that makes a bot from a name that is its own rule
  (``threshold=8``), if the game has such bots;
* ``page``, ``rules_page``, ``replay_page``, ``styles``, ``translations``, ``assets`` — the web files that belong
  to the game, relative to its folder's ``web/`` (served at ``/games/<name>/``);
* ``report`` — ``"module:function"`` of its simulation report (``gemtable simulate <game>``), or None for
  the generic tournament; ``sparring``, ``batch`` and ``benchmark`` — the strategy lab's and the benchmarks'
  game-specific parts, named by module (``baseline``: the benchmark's minimal room server of the game);
  ``probes`` — the module of what the load, soak and fuzz tools need
  of the game (:class:`gemtable.games.api.Probes`);
* ``default`` — whether a table plays this game when nobody says which (one game says so).

Modules are named relative to the game's folder (``".bots"``, ``".report:print_report"``): a game is one
folder, wherever it lives.  The manifest is pure data, standard library only, like the rules it describes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from gemtable.games.api import JSON, BadRules, Game

Dynamics = Literal["simultaneous", "turns"]
SeatOwner = Literal["player", "chair"]
OptionType = Literal["bool", "int", "choice"]

WEB_URL = "/games/{name}/"
"""Where the server serves a game's ``web/`` folder (the paths a manifest names are relative to it)."""
NAME = re.compile(r"[a-z][a-z0-9-]*")
"""A game's name: lower-case letters, digits and dashes (it is part of URLs)."""
WEB_PATH = re.compile(r"(?:[A-Za-z0-9_*][A-Za-z0-9_.*-]*/)*[A-Za-z0-9_*][A-Za-z0-9_.*-]*")
"""A path inside a game's ``web/`` folder: relative, forward slashes, no ``..`` (``*`` matches a language)."""


@dataclass(frozen=True)
class Option:
    """One thing a host may change: ``key`` is the rules' field, ``label`` a translation key."""

    key: str
    type: OptionType
    default: JSON
    label: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[JSON, ...] = ()
    """For ``choice``: the values allowed (each shown with the label ``<label>.<value>``)."""
    hint: str | None = None
    """A translation key of a longer explanation, if any."""
    offered: bool = True
    """Whether the start page offers it; False for an option the presets set (the server takes it all the same)."""

    def __post_init__(self) -> None:
        self.check(self.default)

    def check(self, value: JSON) -> JSON:
        """``value`` if it fits this option; :class:`BadRules` naming the option otherwise."""
        if self.type == "bool":
            if not isinstance(value, bool):
                raise BadRules(f"{self.key} must be true or false")
        elif self.type == "int":
            if type(value) is not int:
                raise BadRules(f"{self.key} must be a whole number")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise BadRules(f"{self.key} must be from {self.minimum} to {self.maximum}")
        elif value not in self.choices or type(value) is bool:
            raise BadRules(f"{self.key} must be one of {', '.join(map(str, self.choices))}")
        return value

    def to_json(self) -> JSON:
        data: dict[str, Any] = {"key": self.key, "type": self.type, "default": self.default, "label": self.label}
        if self.type == "int":
            data["min"], data["max"] = self.minimum, self.maximum
        if self.type == "choice":
            data["choices"] = list(self.choices)
        if self.hint:
            data["hint"] = self.hint
        data["offered"] = self.offered
        return data


@dataclass(frozen=True)
class Preset:
    """A starting point: its name (as the rules know it), a label key, and the option values it sets."""

    name: str
    label: str
    options: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"name": self.name, "label": self.label, "options": dict(self.options)}


@dataclass(frozen=True)
class Clock:
    """The seconds a host may give a decision (simultaneous) or a turn (turn by turn)."""

    choices: tuple[int, ...]
    default: int

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError("the default seconds must be one of the choices")


@dataclass(frozen=True)
class Manifest:
    """Everything about one game, in one place.  See the module documentation."""

    game: type[Game]
    dynamics: Dynamics
    seats: SeatOwner
    options: tuple[Option, ...]
    presets: tuple[Preset, ...]
    clock: Clock
    bots: str
    """The module of the game's bots; its ``register()`` registers them."""
    stand_in: str
    """The bot that plays for a person whose phone stays gone (one of those ``bots`` registers)."""
    named_bots: str | None = None
    """``"module:function"``: the bot a name stands for when the name is its own rule (``threshold=8``), or
    None; the function returns None for a name it does not know."""
    page: str | None = None
    """The ES module (in the game's ``web/`` folder) that draws the game; None: the shared stand-in that says
    the board is not built yet."""
    rules_page: str | None = None
    replay_page: str | None = None
    """The ES module (in ``web/``) that draws one step of a finished game's replay (``/t/CODE/games/N/replay``,
    ``gemtable replay --html``), or None: the replay lists the steps' moves without a drawing.  It imports nothing
    (the replay page hands it what it needs), so that ``gemtable replay --html`` can carry it inside one file; its
    words are in ``replay.<lang>.json`` beside it."""
    """The ES module (in ``web/``) whose ``render(preset, query)`` builds ``/rules/<game>``, if any."""
    styles: tuple[str, ...] = ()
    """Style sheets (in ``web/``)."""
    translations: tuple[str, ...] = ()
    """Translation files (in ``web/``), each ``<stem>.<lang>.json`` in every language, merged into every page's
    dictionary (the game's title ``game.<name>``, its presets ``preset.<name>.<preset>``, its options'
    labels)."""
    assets: tuple[str, ...] = ()
    """Other files (in ``web/``) that belong to the game (``*`` matches a language)."""
    report: str | None = None
    """``"module:function"`` printing the game's simulation report, or None for the generic tournament."""
    bot_people: tuple[str, ...] = ()
    """Names a table gives this game's bots, in order (empty: the bots' registry's usual names)."""
    sparring: tuple[str, ...] = ()
    """The built-in bots a user's bot (or a sweep) plays against in ``gemtable simulate`` when none are named."""
    batch: str | None = None
    """The module of the game's strategy-lab batch mode (``play_tournament``, ``rule_of``): it plays the game's
    threshold bots vectorised, and their family is what ``--sweep`` ranges over.  None: no batch, no sweep."""
    benchmark: str | None = None
    """The module of the game's engine benchmark (``engine``, ``decisions``): ``gemtable bench engine`` and
    ``gemtable bench bots`` run the default game's."""
    baseline: str | None = None
    """The module of a minimal room server of the game, written with the ``websockets`` library alone: the
    yardstick ``gemtable bench server --baseline`` measures gemtable against (``python -m`` runs it)."""
    probes: str | None = None
    """The module of the game's probes (:class:`gemtable.games.api.Probes`): an honest move, what identifies a
    decision, the game's invariants; the load, soak and fuzz tools play the game through them."""
    card: str | None = None
    """``"module:function"``: what the game's result card (``server/card.py``) draws beyond the standings — marks
    of its own, a chart — from a finished game's record; None: the standings alone.  Pure: it reads the record."""
    default: bool = False
    """Whether this is the game a table plays when nobody says which."""
    package: str = ""
    """The game's folder as a Python package (``gemtable.games.booty``): where its ``web/`` folder is found and
    its modules are named from.  The registry sets it to the package of the manifest's module (a manifest
    lives in its game's folder)."""

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name):
            raise ValueError(f"a game's name is lower-case letters, digits and dashes, not {self.name!r}")
        paths = [self.page, self.rules_page, self.replay_page, *self.styles, *self.translations, *self.assets]
        for path in (p for p in paths if p is not None):
            if not WEB_PATH.fullmatch(path) or ".." in path.split("/"):
                raise ValueError(f"{path!r} is not a path inside the game's web folder")
        if self.dynamics not in ("simultaneous", "turns"):
            raise ValueError(f"dynamics must be simultaneous or turns, not {self.dynamics!r}")
        if self.seats not in ("player", "chair"):
            raise ValueError(f"seats belong to a player or a chair, not {self.seats!r}")
        keys = {option.key for option in self.options}
        for preset in self.presets:
            for key, value in preset.options.items():
                if key not in keys:
                    raise ValueError(f"preset {preset.name!r} sets {key!r}, which is no option")
                self.option(key).check(value)

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def simultaneous(self) -> bool:
        return self.dynamics == "simultaneous"

    @property
    def seats_belong_to_chairs(self) -> bool:
        return self.seats == "chair"

    def module(self, ref: str) -> tuple[str, str]:
        """A module the manifest names (``".bots"``, ``".report:print_report"``), as an absolute module name and
        the attribute after the colon (``""`` when none)."""
        module, _, attribute = ref.partition(":")
        if module.startswith("."):
            if not self.package:
                raise ValueError(f"{self.name}: {ref!r} is relative, but the manifest knows no package")
            module = self.package + module
        return module, attribute

    def option(self, key: str) -> Option:
        for option in self.options:
            if option.key == key:
                return option
        raise BadRules(f"unknown rules option {key!r}")

    def preset(self, name: str | None) -> Preset:
        """The preset called ``name`` (the first when None); :class:`BadRules` when there is none."""
        for preset in self.presets:
            if name is None or preset.name == name:
                return preset
        raise BadRules(f"unknown preset {name!r}; known: {', '.join(p.name for p in self.presets)}")

    def rules_json(self, preset: str | None, options: Mapping[str, JSON]) -> JSON:
        """A host's choice checked against the schema, then by the rules themselves; the full rules."""
        chosen = self.preset(preset)
        checked = {key: self.option(key).check(value) for key, value in options.items()}
        return self.game.rules_json(chosen.name, checked)

    def to_json(self) -> JSON:
        """What ``/api/games`` serves: enough for a page to offer the game and draw it."""
        game = self.game
        return {
            "name": game.name,
            "title": game.title,
            "players": [game.min_seats, game.max_seats],
            "dynamics": self.dynamics,
            "seats": self.seats,
            "options": [option.to_json() for option in self.options],
            "presets": [preset.to_json() for preset in self.presets],
            "seconds": {"choices": list(self.clock.choices), "default": self.clock.default},
            "page": self.url(self.page),
            "rules_page": self.url(self.rules_page),
            "styles": [self.url(style) for style in self.styles],
            "translations": [self.url(stem) for stem in self.translations],
        }

    @property
    def web_url(self) -> str:
        """Where the server serves this game's ``web/`` folder."""
        return WEB_URL.format(name=self.name)

    def url(self, path: str | None) -> str | None:
        """The address of a file of this game's ``web/`` folder (None for None)."""
        return None if path is None else self.web_url + path


__all__ = ["WEB_URL", "Clock", "Dynamics", "Manifest", "Option", "Preset", "SeatOwner"]
