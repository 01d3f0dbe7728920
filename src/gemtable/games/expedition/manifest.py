"""The expedition as one unit: what the table, the pages, the CLI and the bots' registry read."""

from __future__ import annotations

from gemtable.games.expedition import Expedition
from gemtable.games.manifest import Clock, Manifest, Option, Preset

MANIFEST = Manifest(
    game=Expedition,
    dynamics="simultaneous",
    seats="player",
    options=(
        Option("relics", "bool", True, "opt.relics"),
        Option("show_odds", "bool", True, "opt.show_odds"),
        Option("caves", "int", 5, "opt.caves", minimum=1, maximum=20),
        Option("path_split", "choice", "pooled", "opt.path_split", choices=("pooled", "per_card"), offered=False),
        Option("collapse_removes", "int", 1, "opt.collapse_removes", minimum=0, maximum=2, offered=False),
        Option("gem_display", "choice", "gems", "opt.gem_display", choices=("gems", "rubies"), offered=False),
    ),
    presets=(
        Preset("table", "preset.expedition.table"),
        Preset(
            "classic",
            "preset.expedition.classic",
            {"relics": False, "path_split": "per_card", "gem_display": "rubies"},
        ),
    ),
    clock=Clock((5, 8, 10, 15, 20, 30, 60, 100), 10),  # 100: ten times the default, for whoever needs it
    bots=".bots",
    stand_in="cautious",
    named_bots=".bots:bot_from_name",
    page="page.js",
    rules_page="rules.js",
    replay_page="replay.js",
    styles=("page.css",),
    translations=("texts",),
    assets=("replay.*.json", "results.js", "stage.js", "recap.js", "end.css", "rules.*.json"),
    sparring=("cautious", "odds"),
    batch=".batch",
    benchmark=".bench",
    baseline=".baseline",
    probes=".probes",
    card=".card:card",
    default=True,
)
