"""The words a game of the expedition is made of: its two moves and its phases, shared by the state and its
views (so that neither imports the other to know them)."""

from __future__ import annotations

DEEPER = "deeper"
CAMP = "camp"
MOVES: tuple[str, str] = (DEEPER, CAMP)

ROSTER, CHOOSE, OVER = "roster", "choose", "over"
"""Between caves (who goes in next), a choice open, the game over."""

__all__ = ["CAMP", "CHOOSE", "DEEPER", "MOVES", "OVER", "ROSTER"]
