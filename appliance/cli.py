"""The one console command, `bunco`, and its subcommands."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from appliance.errors import UserError

# Subcommand name -> module under appliance.commands. Order is the order `--help` lists them.
COMMANDS: dict[str, str] = {
    "demo": "demo",
    "replay": "replay",
    "simulate": "simulate",
    "table": "table",
    "head": "head",
    "export": "export",
    "read": "read",
    "bench": "bench",
    "hwtest": "hwtest",
    "calibrate": "calibrate",
    "setup-broker": "setup_broker",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bunco", description="The Bunco table appliance.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"appliance.commands.{module_name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args._run(args) or 0)
    except UserError as exc:
        print(f"bunco {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
