"""``gemtable serve`` with some limits changed, for tests only.

    python serve_tuned.py '{"hello_seconds": 2}' serve --port 8123 ...

The first argument is a JSON object of :class:`gemtable.server.limits.Limits` fields; the rest is the
ordinary command line.  Everything else is the production server.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace

import gemtable.server.run as run
from gemtable.cli import main
from gemtable.server.limits import Limits

overrides = json.loads(sys.argv[1])
setattr(run, "Limits", lambda: replace(Limits(), **overrides))  # noqa: B010  (the server reads run.Limits)
sys.exit(main(sys.argv[2:]))
