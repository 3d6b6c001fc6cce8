"""`bunco bench table`: dice at rest -> new tally on screen, and the unit's peak memory.

The whole table unit runs: synthetic camera (real die crops), settle stage, real reader,
the engine with its SQLite log, the screen under SDL's dummy driver, gpiozero mock pins.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
from pathlib import Path

HELP = "table unit latency (dice at rest -> tally on screen) and peak memory over a round"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rounds", type=int, default=1, help="rounds to play (default 1)")
    p.add_argument("--size", default="800x480", help="screen size WxH (default 800x480)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON object: p50_ms, p95_ms, rss_mb, ...")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def run(args: argparse.Namespace) -> int:
    import cv2

    from appliance.game.rules import HouseRules
    from appliance.store import EventStore
    from appliance.table_app import Latency, SimulatedPlayers, TableApp, build_board, connect
    from appliance.table_unit import TableUnit
    from appliance.ui.display import Display
    from appliance.unit_config import UnitConfig
    from vision.settle import SettleDetector
    from vision.sources import open_source

    cv2.setNumThreads(1)
    w, h = (int(v) for v in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory(prefix="bunco-bench-") as tmp:
        store = EventStore.in_dir(Path(tmp))
        unit = TableUnit(store, ("Stacy", "Carol", "Wanda", "Hannah"), HouseRules(sets=1), seed=args.seed)
        board = build_board(UnitConfig(), fake_gpio=True)
        display = Display(mode="headless", size=(w, h))
        connect(unit, board, display)
        source = open_source(f"synthetic:{args.seed}", die_px=48.0)
        latency = Latency()
        app = TableApp(unit, source, SettleDetector(expected_dice=3), board, display,
                       players=SimulatedPlayers(random.Random(args.seed)), latency=latency,
                       max_rounds=args.rounds)
        try:
            app.run()
        finally:
            source.close()
            board.close()
            display.close()
            store.close()
    result = {
        "p50_ms": round(statistics.median(latency.samples_ms), 1) if latency.samples_ms else None,
        "p95_ms": round(percentile(latency.samples_ms, 0.95), 1),
        "rss_mb": round(app.peak_rss_mb, 1),
        "readings": len(latency.samples_ms),
        "frame_ms_p50": round(statistics.median(latency.frame_ms), 2),
        "frame_ms_p95": round(percentile(latency.frame_ms, 0.95), 2),
        "screen": f"{w}x{h}",
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"readings {result['readings']}  dice at rest -> tally on screen: p50 {result['p50_ms']} ms, "
              f"p95 {result['p95_ms']} ms (settle window included)")
        print(f"every frame (settle + reader): p50 {result['frame_ms_p50']} ms, p95 {result['frame_ms_p95']} ms")
        print(f"peak memory (RSS) {result['rss_mb']} MB")
    return 0
