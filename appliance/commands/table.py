"""`bunco table`: run one table's unit (camera, BUNCO! button, bell, screen)."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "run a table unit (standalone one-table Bunco for now)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--standalone", action="store_true",
                   help="one-table Bunco with no head unit (the party link is not built yet: required)")
    p.add_argument("--players", help="standalone seating, clockwise: A,B,C,D (2-4 names)")
    p.add_argument("--camera", default="picamera", help="picamera | N | URL | replay:DIR | synthetic[:SEED]")
    p.add_argument("--data", type=Path, default=Path("/var/lib/bunco/table"), help="where the SQLite log lives")
    p.add_argument("--config", type=Path, help="unit config TOML (table, players, [rules], [pins], [camera])")
    p.add_argument("--headless", action="store_true", help="no window: SDL's dummy driver")
    p.add_argument("--screenshots", type=Path, help="write the screen as PNG here after each round")
    p.add_argument("--fake-gpio", action="store_true", help="gpiozero's MockFactory instead of real pins")
    p.add_argument("--seed", type=int, help="seed for the seat draw (default: random)")


def run(args: argparse.Namespace) -> int:
    from appliance.errors import UserError
    from appliance.table_app import TableApp, build_board, connect, open_unit
    from appliance.ui.display import Display
    from appliance.unit_config import load_unit_config
    from vision.settle import SettleDetector
    from vision.sources import CameraError, open_source

    if not args.standalone:
        raise UserError("only --standalone is built so far: the head-unit link is a later step")
    config = load_unit_config(args.config)
    players = tuple(p.strip() for p in args.players.split(",")) if args.players else config.players
    unit = open_unit(args.data, players, config, args.seed if args.seed is not None else config.seed)
    try:
        source = open_source(args.camera, pace=True)
    except CameraError as exc:
        raise UserError(str(exc)) from None
    board = build_board(config, args.fake_gpio)
    display = Display(mode="headless" if args.headless else "auto")
    connect(unit, board, display)
    unit._refresh(())  # noqa: SLF001 - first frame on screen
    settle = SettleDetector(expected_dice=config.rules.dice, roi=config.roi, die_size_px=config.die_size_px)
    app = TableApp(unit, source, settle, board, display, screenshot_dir=args.screenshots)
    try:
        return app.run()
    finally:
        source.close()
        board.close()
        display.close()
        unit.store.close()
