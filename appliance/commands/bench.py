"""`bunco bench WHAT ...`: measured speed and accuracy; each WHAT lives in appliance.benchmarks."""

from __future__ import annotations

import argparse
import importlib

HELP = "benchmarks: speed and accuracy (bench vision DIR ...)"

# WHAT -> module under appliance.benchmarks. Each module has add_arguments(parser) and
# run(args) -> exit code. Others add their benchmark here with one line.
BENCHMARKS: dict[str, str] = {
    "vision": "vision",
    "table": "table",
    "net": "net",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    for name, module_name in BENCHMARKS.items():
        module = importlib.import_module(f"appliance.benchmarks.{module_name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_bench=module.run)


def run(args: argparse.Namespace) -> int:
    return int(args._bench(args) or 0)
