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

    source = "stdin" if args.log == "-" else args.log
    try:
        if args.log == "-":
            with open(sys.stdin.fileno(), encoding="utf-8", closefd=False) as f:
                result = replay(f, source=source)
        else:
            with Path(args.log).open(encoding="utf-8") as f:
                result = replay(f, source=source)
    except OSError as exc:
        raise UserError(f"cannot read {source}: {exc.strerror}") from None
    except UnicodeDecodeError:
        # A night's log is UTF-8 JSON lines (bunco export); a photo or a database is not.
        raise UserError(f"{source}: not a night's log (not UTF-8 text; bunco export writes one)") from None
    print(json.dumps(result_json(result)) if args.json else result_text(result))
    return 0
