"""gemtable: a self-hosted game table for friends, each playing on their own phone."""

__version__ = "0.1.0"
