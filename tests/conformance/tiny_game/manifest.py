"""Pick, registered through the same manifest as every game."""

from __future__ import annotations

from gemtable.games.manifest import Clock, Manifest, Option, Preset
from tests.conformance.tiny_game import Pick

MANIFEST = Manifest(
    game=Pick,
    dynamics="simultaneous",
    seats="chair",
    options=(Option("rounds", "int", 3, "opt.rounds", minimum=1, maximum=9),),
    presets=(Preset("short", "preset.pick.short"),),
    clock=Clock((5, 10), 5),
    bots=".bots",
    stand_in="random",
    probes=".probes",
    page="page.js",
    rules_page="rules.js",
    styles=("page.css",),
    translations=("texts",),
)
