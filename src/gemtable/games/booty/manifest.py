"""Booty Hunter as one unit: what the table, the pages, the CLI and the bots' registry read."""

from __future__ import annotations

from gemtable.games.booty.game import BootyHunter
from gemtable.games.booty.scoring import EVERY_AREA, LARGEST_AREA, MODES, TIES, TOUCHING
from gemtable.games.manifest import Clock, Manifest, Option, Preset

MANIFEST = Manifest(
    game=BootyHunter,
    dynamics="turns",
    seats="chair",
    options=(
        Option("scoring", "choice", EVERY_AREA, "opt.scoring", choices=MODES, offered=False),
        Option("touching", "choice", "scores", "opt.touching", choices=TOUCHING, hint="opt.touching_hint"),
        Option("tie", "choice", "share", "opt.tie", choices=TIES, hint="opt.tie_hint"),
    ),
    presets=(
        Preset("every-area", "preset.booty.every-area", {"scoring": EVERY_AREA}),
        Preset("largest-area", "preset.booty.largest-area", {"scoring": LARGEST_AREA}),
    ),
    clock=Clock((30, 45, 60, 90, 120), 60),
    bots=".bots",
    stand_in="greedy",
    page="page.js",
    rules_page="rules.js",
    replay_page="replay.js",
    styles=("page.css",),
    translations=("texts",),
    assets=("replay.*.json", "tiles.json", "rules.*.json", "draw.js", "results.js", "stage.css"),
    report=".report:print_report",
    probes=".probes",
    card=".card:card",
    sparring=("greedy", "random"),
    bot_people=("Anne Bonny", "Barbarossa", "Calico Jack", "Grace", "Kidd", "Mary Read", "Morgan", "Zheng Yi"),
)
