"""What the expedition's result card (``gemtable.server.card``) draws beyond the standings: each chest cave by
cave, from the final view its record carries (``final``), as the results page's chart does.  Pure: it reads
the record and nothing else."""

from __future__ import annotations

from gemtable.games.api import JSON


def card(record: JSON) -> JSON:
    """``{"chart": {"title", "x", "series": {seat: [chest after each cave]}}}``, or ``{}`` for a record without
    its final view."""
    final = record.get("final") if isinstance(record, dict) else None
    players = final.get("players") if isinstance(final, dict) else None
    series: dict[str, list[int]] = {}
    for player in players if isinstance(players, list) else []:
        if not isinstance(player, dict) or not isinstance(player.get("seat"), int):
            continue
        chest = player.get("chest_by_cave")
        if isinstance(chest, list) and chest and all(isinstance(v, int) and not isinstance(v, bool) for v in chest):
            series[str(player["seat"])] = list(chest)
    if not series:
        return {}
    return {"chart": {"title": "results.chart", "x": "results.cave", "series": series}}
