"""`bunco simulate`: whole nights with random dice, through the same engine."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from appliance.errors import UserError

HELP = "play whole nights with random dice and print standings, prizes and roll rates"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=12, help="how many players (default 12)")
    p.add_argument("--sets", type=int, help="sets of 6 rounds (default: the house rules')")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--nights", type=int, default=1, help="play this many nights (seeds seed, seed+1, ...)")
    p.add_argument("--rules", type=Path, help="house rules TOML file")
    p.add_argument("--forget", type=float, default=0.0, help="chance a player forgets to call a Bunco")
    p.add_argument("--log", type=Path, help="write the (first) night's log here, for bunco replay")
    p.add_argument("--json", action="store_true", help="print the (first) night's result as JSON")


def run(args: argparse.Namespace) -> int:
    from appliance.config import load_rules
    from appliance.game.rules import HouseRules
    from appliance.nightlog import dumps, result_json, result_text
    from appliance.simulate import RollStats, simulate_night

    rules = load_rules(args.rules) if args.rules else HouseRules()
    if args.sets is not None:
        rules = HouseRules.from_mapping({**rules.to_mapping(), "sets": args.sets}, source="--sets")
    if args.players < 2:
        raise UserError("--players must be at least 2")
    if args.nights < 1:
        raise UserError("--nights must be at least 1")
    players = tuple(f"Player {i:02d}" for i in range(1, args.players + 1))
    total = RollStats()
    first = None
    log_lines: list[str] = []
    for n in range(args.nights):
        emit = (lambda line: log_lines.append(dumps(line))) if n == 0 and args.log else None
        result, stats = simulate_night(players, rules, args.seed + n, forget=args.forget, emit=emit)
        total.add(stats)
        first = first or result
    if args.log:
        args.log.write_text("\n".join(log_lines) + "\n", encoding="utf-8")
    assert first is not None
    if args.json:
        print(json.dumps(result_json(first)))
        return 0
    print(result_text(first))
    print()
    k = rules.dice
    exact_bunco, exact_mini = 1 / 6 ** k, 5 / 6 ** k
    print(f"{args.nights} night(s), {total.rolls} rolls of {k} dice:")
    print(f"  Bunco rate       {total.buncos / max(total.rolls, 1):.5f}   exact {exact_bunco:.5f} (1/{6 ** k})")
    print(f"  mini-Bunco rate  {total.mini_buncos / max(total.rolls, 1):.5f}   exact {exact_mini:.5f} (5/{6 ** k})")
    return 0
