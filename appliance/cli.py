"""The one console command, `bunco`, and its subcommands."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
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
        code = int(args._run(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:
        return _reader_went_away()
    except UserError as exc:
        print(f"bunco {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _reader_went_away() -> int:
    """`bunco replay LOG | head`: the reader has what it wanted; stop quietly, as `cat` would.

    The Python documentation's recipe (signal module, "Note on SIGPIPE"): point stdout at
    /dev/null so the interpreter's last flush cannot raise again. Restoring SIG_DFL instead
    would also kill the long-running units on a closed socket, so it is not used.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
