"""`bunco table`: run one table's unit (camera, BUNCO! button, bell, screen)."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "run a table unit: of a party (the default), or --standalone one-table Bunco"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--standalone", action="store_true", help="one-table Bunco with no head unit")
    p.add_argument("--players", help="standalone: the 2-4 players, comma-separated: A,B,C,D; their seats are "
                   "drawn at random when the night starts (the screen shows them clockwise)")
    p.add_argument("--table", type=int, help="this unit's table number (default: the config's)")
    p.add_argument("--broker", help="host:port of the head's broker (default: the config's, else zeroconf)")
    p.add_argument("--camera", default="picamera",
                   help="picamera | N | URL | replay:DIR | synthetic[:SEED] | none (every roll keyed in by hand)")
    p.add_argument("--data", type=Path, default=Path("/var/lib/bunco/table"), help="where the SQLite log lives")
    p.add_argument("--config", type=Path, help="unit config TOML (table, players, [rules], [pins], [camera], [network])")
    p.add_argument("--headless", action="store_true", help="no window: SDL's dummy driver")
    p.add_argument("--screenshots", type=Path, help="write the screen as PNG here after each round")
    p.add_argument("--fake-gpio", action="store_true", help="gpiozero's MockFactory instead of real pins")
    p.add_argument("--simulated-players", type=int, metavar="SEED",
                   help="players who press BUNCO! on the mock button (tests, demo; needs --fake-gpio)")
    p.add_argument("--seed", type=int, help="seed for the seat draw (default: random)")
    p.add_argument("--four-players", choices=("teams", "individual"),
                   help="house rule for a table of four: two teams (default) or each for herself "
                        "(2-3 players always play each for herself); the config's [rules] four_players")
    p.add_argument("--fast", action="store_true",
                   help="replay and synthetic cameras: frames as fast as they are read, not at camera rate (tests)")


def run(args: argparse.Namespace) -> int:
    import dataclasses
    import random

    from appliance import sdnotify
    from appliance.errors import UserError
    from appliance.table_app import SimulatedPlayers, TableApp, build_board, connect, open_unit
    from appliance.ui.display import Display
    from appliance.unit_config import load_unit_config
    from vision.settle import SettleDetector
    from vision.sources import CameraError, open_source

    config = load_unit_config(args.config)
    if args.table is not None:
        config = dataclasses.replace(config, table=args.table)
    if args.four_players:
        config = dataclasses.replace(config, rules=dataclasses.replace(config.rules, four_players=args.four_players))
    if args.broker:
        config = dataclasses.replace(config, network=dataclasses.replace(config.network, broker=args.broker))
    if args.simulated_players is not None and not args.fake_gpio:
        raise UserError("--simulated-players presses the mock button: add --fake-gpio")
    from appliance.commands.head import players_flag

    # checked before any log is opened: one line naming the flag and the player
    players = players_flag(args.players, at_most=4) if args.players is not None else config.players
    link = None
    if args.standalone:
        unit = open_unit(args.data, players, config, args.seed if args.seed is not None else config.seed)
    else:
        from appliance.net.resolve import broker_for
        from appliance.net.table_link import TableLink
        from appliance.store import EventStore
        from appliance.table_unit import TableUnit

        broker = broker_for(config.network)
        store = EventStore.in_dir(args.data)
        link = TableLink(config.network.party, config.table, broker, store)
        unit = TableUnit(store, (), config.rules, table=config.table, link=link, party=True)
    hand_only = args.camera == "none"
    try:
        source = None if hand_only else open_source(args.camera, pace=not args.fast)
    except CameraError as exc:
        raise UserError(str(exc)) from None
    unit.hand_only = hand_only
    board = build_board(config, args.fake_gpio)
    display = Display(mode="headless" if args.headless else "auto")
    connect(unit, board, display)
    # a synthetic tray knows its dice's size, as `bunco calibrate` would measure it for a camera: how much
    # change is motion (the reader sizes the dice in each frame itself: vision.settle.SettleDetector)
    die_size = config.die_size_px or getattr(source, "die_size_px", None)
    settle = None if hand_only else SettleDetector(expected_dice=config.rules.dice, roi=config.roi,
                                                   die_size_px=die_size)
    sim = SimulatedPlayers(random.Random(args.simulated_players)) if args.simulated_players is not None else None
    app = TableApp(unit, source, settle, board, display, players=sim, screenshot_dir=args.screenshots, link=link,
                   notify=sdnotify.notify)
    if link is not None:
        link.start()
    if unit.ready:
        unit._refresh(())  # noqa: SLF001 - first frame on screen
    else:
        display.show(unit.view())
    stop = sdnotify.stop_on_sigterm()
    sdnotify.ready(f"table {config.table}")
    try:
        return app.run(stop)
    finally:
        sdnotify.stopping()
        if link is not None:
            link.stop()
        if source is not None:
            source.close()
        board.close()
        display.close()
        unit.store.close()
