"""`bunco demo`: a demo night on this machine alone (no Pi, camera or display needed)."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = ("play a demo party on this machine: embedded broker, head unit, 3 tables, simulated players "
        "(headless without a display)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rounds", type=int, help="stop after this many rounds (default: a whole set of 6 in a window, 2 headless)")
    p.add_argument("--fast", action="store_true", help="no real-time pacing, 11-point rounds")
    p.add_argument("--headless", action="store_true", help="never open a window; write the screens as PNG")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, help="folder for the PNG screens")
    p.add_argument("--data", type=Path, help="folder for the units' logs (default: a fresh temporary one)")
    p.add_argument("--web-port", type=int, default=0,
                   help="the hostess page's port (default: a free one; its address and PIN are printed)")


def run(args: argparse.Namespace) -> int:
    from appliance.demo import run_demo

    outcome = run_demo(rounds=args.rounds, fast=args.fast, headless=args.headless, seed=args.seed,
                       out=args.out, data=args.data, web_port=args.web_port)
    return 0 if outcome.replay_matches else 1
