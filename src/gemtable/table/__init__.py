"""A game-agnostic table: chairs, people, the game in play and its clock (pure, no I/O)."""

from gemtable.table.people import Person, Status
from gemtable.table.table import LOBBY, PAUSE, PLAYING, RESULTS, REVEAL, Settings, Table, TableError, clean_name
from gemtable.table.view import table_view

__all__ = [
    "LOBBY",
    "PAUSE",
    "PLAYING",
    "RESULTS",
    "REVEAL",
    "Person",
    "Settings",
    "Status",
    "Table",
    "TableError",
    "clean_name",
    "table_view",
]
