"""`bunco export`: the night from a unit's log, for `bunco replay` or a spreadsheet."""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

from appliance.errors import UserError

HELP = "write the night from a unit's log: JSON lines for bunco replay, or scorecards as CSV"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, required=True, help="the unit's data folder")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="JSON lines that bunco replay reads (default)")
    fmt.add_argument("--csv", action="store_true", help="scorecards as CSV")
    p.add_argument("--out", type=Path, help="write here instead of standard output")


def export_lines(data: Path) -> list[str]:
    from appliance.store import FILENAME, EventStore
    from appliance.table_unit import game_log

    if not (data / FILENAME).exists():
        raise UserError(f"no unit log in {data} (looked for {FILENAME})")
    store = EventStore.in_dir(data)
    try:
        return game_log(store)
    finally:
        store.close()


def scorecards_csv(lines: list[str]) -> str:
    from appliance.nightlog import replay

    result = replay(lines, source="export")
    out = io.StringIO()
    writer = csv.writer(out)
    rounds = len(result.rounds)
    writer.writerow(["place", "player", *[f"r{i + 1}" for i in range(rounds)], "wins", "losses",
                     "buncos", "mini_buncos", "wipeouts"])
    for place, name in enumerate(result.standings, start=1):
        c = result.cards[name]
        writer.writerow([place, name, *c.marks, c.wins, c.losses, c.buncos, c.mini_buncos, c.wipeouts])
    return out.getvalue()


def run(args: argparse.Namespace) -> int:
    lines = export_lines(args.data)
    text = scorecards_csv(lines) if args.csv else "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
