"""What the table says when it refuses a command (its own module, so that every part of the table can raise
it without importing the table)."""

from __future__ import annotations


class TableError(ValueError):
    """A command the table refuses; ``code`` is for machines, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


__all__ = ["TableError"]
