"""The words a game of the expedition is made of: its two moves and its phases, shared by the state and its
views (so that neither imports the other to know them)."""

from __future__ import annotations

DEEPER = "deeper"
CAMP = "camp"
MOVES: tuple[str, str] = (DEEPER, CAMP)

ROSTER, CHOOSE, REVEAL, OVER = "roster", "choose", "reveal", "over"
"""Between caves (who goes in next), a choice open, a reveal held before the next card (the table's beat), the
game over."""

__all__ = ["CAMP", "CHOOSE", "DEEPER", "MOVES", "OVER", "REVEAL", "ROSTER"]
