"""``python -m tools soak|fuzz|hello_flood|http_attacks|log_growth|pairs``: the testing tools, from the repository (see
``tools/__init__.py``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tools import hello_flood, http_attacks, log_growth, pairs, soak


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools", description="The tools that test gemtable.")
    kinds = parser.add_subparsers(metavar="TOOL")
    soak.add_arguments(kinds)  # soak, and fuzz
    hello_flood.add_arguments(kinds)
    http_attacks.add_arguments(kinds)
    log_growth.add_arguments(kinds)
    pairs.add_arguments(kinds)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
