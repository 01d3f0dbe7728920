"""Booty Hunter: a 3-player tile-laying diamond game.

Modules, each one idea:

* :mod:`~gemtable.games.booty.tiles` — slices, tiles and the tile set (``tiles.json``);
* :mod:`~gemtable.games.booty.board` — cells, placements, legality, diamonds;
* :mod:`~gemtable.games.booty.scoring` — areas and the count, in both modes;
* :mod:`~gemtable.games.booty.rules` — presets and host options;
* :mod:`~gemtable.games.booty.state` — turns, drawing, setting aside, the end;
* :mod:`~gemtable.games.booty.view` — what a seat may see;
* :mod:`~gemtable.games.booty.game` — the :class:`BootyHunter` game class;
* :mod:`~gemtable.games.booty.manifest` — the game as one unit: options, bots, pages, report.

Beside the rules, and never imported by them: the bots (:mod:`gemtable.games.booty.bots`) and the simulation
report (:mod:`gemtable.games.booty.report`), which the manifest names.

The rules as implemented are in ``docs/booty-hunter.md``.
"""

from __future__ import annotations

from gemtable.games.booty.board import Board, Placement
from gemtable.games.booty.game import BootyHunter
from gemtable.games.booty.rules import BootyRules
from gemtable.games.booty.state import BootyState
from gemtable.games.booty.view import BootyView

__all__ = ["Board", "BootyHunter", "BootyRules", "BootyState", "BootyView", "Placement"]
