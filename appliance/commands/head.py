"""`bunco head`: the head unit (broker link, round control, bell, master sheet, hostess screen)."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

HELP = "run the head unit: round control, the bell, the master score sheet, the hostess screen"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=Path("/var/lib/bunco/head"), help="where the master log lives")
    p.add_argument("--config", type=Path, help="unit config TOML ([network], [rules], [pins], players)")
    p.add_argument("--roster", type=Path, help="players: a TOML file (players = [...]) or a CSV, one name a row")
    p.add_argument("--players", help="players, comma-separated (instead of a roster)")
    p.add_argument("--broker", help="host:port of the broker (default: the config's, else 127.0.0.1:1883)")
    p.add_argument("--embedded-broker", action="store_true",
                   help="run an MQTT broker in this process (one machine: a laptop, the demo)")
    p.add_argument("--countdown", type=float, default=15.0, help="seconds between a round's results and the next bell")
    p.add_argument("--no-autostart", action="store_true",
                   help="wait for the hostess (space / the button) instead of starting when every table is online")
    p.add_argument("--sheet", type=Path, help="write the master sheet as JSON here after each round")
    p.add_argument("--headless", action="store_true", help="no window: SDL's dummy driver")
    p.add_argument("--fake-gpio", action="store_true", help="gpiozero's MockFactory instead of real pins")
    p.add_argument("--seed", type=int, help="seed for the seat draw (default: random)")


def read_roster(path: Path) -> tuple[str, ...]:
    from appliance.config import read_toml
    from appliance.errors import ConfigError, UserError

    if path.suffix == ".toml":
        players = read_toml(path).get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise ConfigError("players", "must be a list of names", str(path))
        return tuple(p.strip() for p in players)
    try:
        with path.open(newline="") as f:
            rows = [r[0].strip() for r in csv.reader(f) if r and r[0].strip()]
    except OSError as exc:
        raise UserError(f"cannot read the roster {path}: {exc.strerror}") from None
    if rows and rows[0].lower() in ("name", "player"):
        rows = rows[1:]
    return tuple(rows)


def run(args: argparse.Namespace) -> int:
    import logging
    import random

    from appliance import sdnotify
    from appliance.errors import UserError
    from appliance.head_app import HeadApp
    from appliance.head_unit import HeadSignals, HeadUnit
    from appliance.net.client import Broker
    from appliance.net.head_link import HeadLink
    from appliance.store import EventStore
    from appliance.table_app import build_board
    from appliance.ui.display import Display
    from appliance.unit_config import load_unit_config

    config = load_unit_config(args.config)
    net = config.network
    players = (read_roster(args.roster) if args.roster else
               tuple(p.strip() for p in args.players.split(",")) if args.players else config.players)
    store = EventStore.in_dir(args.data)
    if len(store) == 0 and len(players) < 4:
        raise UserError("a party needs at least 4 players: --roster FILE, --players A,B,... or players = [...]")
    embedded = None
    host, port = (args.broker.rsplit(":", 1) if args.broker else (net.host_port() or ("127.0.0.1", "1883")))
    port = int(port)
    if args.embedded_broker:
        from appliance.net.embedded import EmbeddedBroker

        embedded = EmbeddedBroker(host=host if host != "localhost" else "127.0.0.1", port=port)
        port = embedded.start()
    advertiser = None
    try:
        from appliance.net.discovery import Advertiser

        advertiser = Advertiser()
        advertiser.start(net.party, port)
    except Exception as exc:  # discovery is a convenience: tables can be given the host
        logging.getLogger(__name__).warning("not advertising the head unit with zeroconf: %s", exc)
        advertiser = None
    board = build_board(config, args.fake_gpio)
    display = Display(mode="headless" if args.headless else "auto")
    link = HeadLink(net.party, Broker(host, port, net.username, net.password()))
    seed = args.seed if args.seed is not None else (config.seed if config.seed is not None else random.randrange(2**31))
    unit = HeadUnit(store, players, config.rules, seed, net=link,
                    signals=HeadSignals(bell=board.bell.play, show=display.show), countdown_s=args.countdown)
    app = HeadApp(unit, link, display, autostart=not args.no_autostart, sheet_path=args.sheet,
                  notify=sdnotify.notify)
    board.button.on_press(lambda t: app.inputs.put("start"))
    link.start()
    stop = sdnotify.stop_on_sigterm()
    sdnotify.ready(f"party {net.party}: {len(unit.players)} players at {unit.tables} tables")
    try:
        return app.run(stop)
    finally:
        sdnotify.stopping()
        link.stop()
        if advertiser is not None:
            advertiser.close()
        if embedded is not None:
            embedded.stop()
        board.close()
        display.close()
        store.close()
