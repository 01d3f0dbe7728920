"""A table's settings — what the host chose — and the one place they are checked.

A new table's settings (``POST /api/tables``) and the host's changes between games (the ``settings``
command, in the lobby and at the results) go through the same checks here, so the two can never disagree
on what a table may be.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gemtable.games import GameError, default_game, find_manifest
from gemtable.games.api import JSON
from gemtable.table.errors import TableError

ABSENT_GRACE = 60.0
"""Seconds a phone may be gone before its person is *absent*: in the lobby and at the results an
absent player's chair goes to the first connected watcher, and an absent host hands the role to
someone connected (at any time).  Counted from the disconnection, or from a restart."""
COUNTDOWN = 5.0
"""Seconds between the host's ``start`` (or "Play again") and the game's first round: every screen counts
them down, and the host may cancel.  A new game never starts by surprise."""
SECONDS = (1.0, 120.0)
"""The seconds a decision (or a turn) may be given."""
PAUSE = (0.5, 60.0)
"""The seconds between rounds."""
COUNTDOWNS = (0.0, 30.0)
"""The seconds of a start's countdown (0: none, for tests and demonstrations)."""
BEAT = 2.0
"""Seconds every screen shows a reveal on its own (everyone's choice: who walks out, what they bank, who takes
the relic, the split of the path) before the game goes on (the expedition's next card)."""
BEATS = (0.0, 10.0)
"""The seconds of the reveal's beat (0: none, the next card at once)."""
LAST_CALL = 1.0
"""Seconds a simultaneous decision waits after its last choice before the reveal, so that the last to choose (or
anyone) may still change their mind: a slip of the thumb on the last tap is not final at once."""
LAST_CALLS = (0.0, 3.0)
ABSENT = (1.0, 3600.0)
CHANGEABLE = ("game", "preset", "options", "seconds", "pause", "turn_clock", "beat", "hold_silent", "ready_check")
"""The settings a host may change between games (``revised``, the ``settings`` message)."""


@dataclass
class Settings:
    """What the host chose when creating the table (and changed since, between games)."""

    game: str
    preset: str
    options: dict[str, Any]
    rules: JSON
    seconds: float = 10.0
    """Seconds per decision (per turn, for a turn-based game with the turn clock on)."""
    pause: float = 6.0
    """Seconds between rounds."""
    turn_clock: bool = True
    """Whether decisions (simultaneous games) or turns (turn-based ones) have a clock: at the deadline a silent
    player's default move is made for them.  Off, a decision waits for every connected phone (a phone gone for
    the absence grace counts as silent), and a turn for its player (a phone gone for ``TURN_GRACE`` has its
    default move made).  The wire keeps the name ``turn_clock`` for both."""
    script: JSON | None = None
    """A scripted deck or bag (tests and demos); None for a shuffled one."""
    absent_grace: float = ABSENT_GRACE
    """Seconds before a gone phone's person is absent (see :data:`ABSENT_GRACE`)."""
    countdown: float = 0.0
    """Seconds of a start's countdown: :data:`COUNTDOWN` for a table the server creates (``new_settings``); none
    for settings made without one (a log from before the countdown existed is rebuilt as it was played)."""
    beat: float = 0.0
    """Seconds of the reveal's beat, in a game that holds its reveals (``games.api.Beats``): :data:`BEAT` for a
    table the server creates; none for settings made without one (an older log is rebuilt as it was played)."""
    last_call: float = 0.0
    """Seconds between the last choice of a simultaneous decision and its reveal, during which anyone may still
    change their choice (another change starts it again): :data:`LAST_CALL` for a table the server creates; none
    for settings made without it (an older log is rebuilt as it was played)."""
    ready_check: bool = False
    """Whether the host's start (and Play again) waits for every seated player to say they are ready before its
    countdown (the host may start anyway): on for a table the server creates; off for settings made without it
    (an older log is rebuilt as it was played)."""
    hold_silent: bool = False
    """Whether a decision nobody answered holds instead of revealing (the table's reading of "silence means
    camp", ``docs/expedition.md``): at the deadline, when no player to act (not counting bots) chose a move,
    the table pauses and asks "Is everyone here?"; any player or the host lifts it, and the decision gets its
    whole clock again.  One hold per decision.  On for a table the server creates; off for settings made
    without it (an older log is rebuilt as it was played)."""

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "preset": self.preset,
            "options": self.options,
            "rules": self.rules,
            "seconds": self.seconds,
            "pause": self.pause,
            "turn_clock": self.turn_clock,
            "script": self.script,
            "absent_grace": self.absent_grace,
            "countdown": self.countdown,
            "beat": self.beat,
            "hold_silent": self.hold_silent,
            "last_call": self.last_call,
            "ready_check": self.ready_check,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Settings as an event holds them (a log from before a field existed gets its default)."""
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})


def new_settings(data: object, allow_scripts: bool = False) -> Settings:
    """A new table's settings from a host's choices (``game``, ``preset``, ``options``, ``seconds``, ``pause``,
    ``turn_clock``, ``beat``, ``absent_grace``, ``countdown``, ``last_call``, ``hold_silent``, ``script``);
    :class:`TableError` ``bad-request`` when they are not a table's."""
    if not isinstance(data, dict):
        raise TableError("bad-request", "send the table's settings as a JSON object")
    try:
        manifest = find_manifest(str(data.get("game") or default_game()))
        game = manifest.game
        script = data.get("script")
        if script is not None and not allow_scripts:
            raise TableError("bad-request", "scripted decks are switched off on this server")
        base = Settings(
            game.name,
            manifest.preset(None).name,
            {},
            None,
            script=script,
            beat=BEAT,
            hold_silent=True,
            ready_check=True,
        )
        settings = _revised(base, data, "bad-request")
        settings.absent_grace = _number(data.get("absent_grace", ABSENT_GRACE), "absent_grace", *ABSENT, "bad-request")
        settings.countdown = _number(data.get("countdown", COUNTDOWN), "countdown", *COUNTDOWNS, "bad-request")
        settings.last_call = _number(data.get("last_call", LAST_CALL), "last_call", *LAST_CALLS, "bad-request")
        if script is not None:
            game.new(settings.rules, game.seats_per_game, 0, script)  # validates the script
        return settings
    except GameError as exc:
        raise TableError("bad-request", str(exc)) from None


def revised(settings: Settings, changes: object) -> Settings:
    """The settings after the host's changes between games (``game``, ``preset``, ``options``, ``seconds``,
    ``pause``, ``turn_clock``, ``beat``, ``hold_silent``); :class:`TableError` ``bad-settings``.  Another ``game``
    starts from that game's default preset, options and clock (and no scripted deck), then takes the other
    changes."""
    if not isinstance(changes, dict):
        raise TableError("bad-settings", "send the settings as an object")
    unknown = set(changes) - set(CHANGEABLE)
    if unknown:
        raise TableError("bad-settings", f"these settings cannot be changed: {', '.join(sorted(unknown))}")
    try:
        game = changes.get("game", settings.game)
        if game != settings.game:  # another game at the same table: its own preset, options and clock
            if not isinstance(game, str):
                raise TableError("bad-settings", "game must be the name of a game")
            manifest = find_manifest(game)
            settings = replace(
                settings,
                game=manifest.name,
                preset=manifest.preset(None).name,
                options={},
                seconds=manifest.clock.default,
                script=None,
            )
        return _revised(settings, changes, "bad-settings")
    except GameError as exc:
        raise TableError("bad-settings", str(exc)) from None


def _revised(base: Settings, data: Mapping[str, Any], code: str) -> Settings:
    manifest = find_manifest(base.game)
    options = data.get("options", base.options)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise TableError(code, "options must be an object")
    preset = data.get("preset", base.preset)
    preset = manifest.preset(str(preset) if preset else None).name
    rules = manifest.rules_json(preset, options)
    seconds = _number(data.get("seconds", base.seconds), "seconds", *SECONDS, code)
    pause = _number(data.get("pause", base.pause), "pause", *PAUSE, code)
    beat = _number(data.get("beat", base.beat), "beat", *BEATS, code)
    turn_clock = data.get("turn_clock", base.turn_clock)
    if not isinstance(turn_clock, bool):
        turn_clock = bool(turn_clock) if code == "bad-request" else _no_bool("turn_clock", code)
    hold_silent = data.get("hold_silent", base.hold_silent)
    if not isinstance(hold_silent, bool):
        hold_silent = bool(hold_silent) if code == "bad-request" else _no_bool("hold_silent", code)
    ready_check = data.get("ready_check", base.ready_check)
    if not isinstance(ready_check, bool):
        ready_check = bool(ready_check) if code == "bad-request" else _no_bool("ready_check", code)
    return replace(
        base,
        preset=preset,
        options=dict(options),
        rules=rules,
        seconds=seconds,
        pause=pause,
        turn_clock=turn_clock,
        beat=beat,
        hold_silent=hold_silent,
        ready_check=ready_check,
    )


def _no_bool(name: str, code: str) -> bool:
    raise TableError(code, f"{name} must be true or false")


def _number(value: Any, name: str, low: float, high: float, code: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise TableError(code, f"{name} must be a number from {low:g} to {high:g}")
    return float(value)


__all__ = ["ABSENT_GRACE", "BEAT", "CHANGEABLE", "COUNTDOWN", "Settings", "TableError", "new_settings", "revised"]
