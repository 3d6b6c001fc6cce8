"""`bunco replay LOG`: re-score a night from its JSON-lines log."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from appliance.errors import UserError

HELP = "re-score a night from its JSON-lines log (bunco export writes one)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="the night's log, JSON lines ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from appliance.nightlog import replay, result_json, result_text

    if args.log == "-":
        result = replay(sys.stdin, source="stdin")
    else:
        path = Path(args.log)
        try:
            with path.open(encoding="utf-8") as f:
                result = replay(f, source=str(path))
        except OSError as exc:
            raise UserError(f"cannot read {path}: {exc.strerror}") from None
    print(json.dumps(result_json(result)) if args.json else result_text(result))
    return 0
