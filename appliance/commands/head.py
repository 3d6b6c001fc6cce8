"""`bunco head`: the head unit (broker link, round control, bell, master sheet, hostess screen)."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from appliance.head_app import HeadApp
    from appliance.web.server import HostessServer

HELP = "run the head unit: round control, the bell, the master score sheet, the hostess screen"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=Path("/var/lib/bunco/head"), help="where the master log lives")
    p.add_argument("--config", type=Path, help="unit config TOML ([network], [rules], [pins], players)")
    p.add_argument("--roster", type=Path, help="players: a TOML file (players = [...]) or a CSV, one name a row "
                   "(or none: the hostess types them on the page)")
    p.add_argument("--players", help="players, comma-separated (instead of a roster); seats are drawn at random")
    p.add_argument("--broker", help="host:port of the broker (default: the config's, else 127.0.0.1:1883)")
    p.add_argument("--embedded-broker", action="store_true",
                   help="run an MQTT broker in this process (one machine: a laptop, the demo)")
    p.add_argument("--countdown", type=float, default=15.0, help="seconds between a round's results and the next bell")
    p.add_argument("--no-autostart", action="store_true",
                   help="wait for the hostess (space / the button) instead of starting when every table is online")
    p.add_argument("--sheet", type=Path, help="write the master sheet as JSON here after each round")
    p.add_argument("--headless", action="store_true", help="no window: SDL's dummy driver")
    p.add_argument("--fake-gpio", action="store_true", help="gpiozero's MockFactory instead of real pins")
    p.add_argument("--no-gpio", action="store_true",
                   help="no pins at all: the head Pi's GPIO (button, bell) belongs to table 1's unit")
    p.add_argument("--web-port", type=int, default=0,
                   help="the hostess page's port (default 0: a free one, shown on the head screen; a Pi: 8080)")
    p.add_argument("--no-web", action="store_true", help="no hostess page")
    p.add_argument("--pin-file", type=Path,
                   help="the hostess PIN (made there, mode 0600, if missing; default: a new PIN each run)")
    p.add_argument("--seed", type=int, help="seed for the seat draw (default: random)")


def read_roster(path: Path) -> tuple[str, ...]:
    """A roster file's names, checked (appliance.game.players): a bad one names the file and the player."""
    from appliance.config import read_toml
    from appliance.errors import ConfigError, UserError
    from appliance.game.players import PlayerError, check_players

    if path.suffix == ".toml":
        players = read_toml(path).get("players")
        if not isinstance(players, list):
            raise ConfigError("players", "must be a list of names", str(path))
        try:
            return check_players(players)
        except PlayerError as exc:
            raise ConfigError("players", str(exc), str(path)) from None
    try:
        with path.open(newline="") as f:
            rows = [r[0] if r else "" for r in csv.reader(f)]
    except OSError as exc:
        raise UserError(f"cannot read the roster {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise UserError(f"the roster {path} is not a CSV of names: {exc}") from None
    while rows and not rows[-1].strip():  # a file's closing blank lines are not players
        rows.pop()
    if rows and rows[0].strip().lower() in ("name", "player"):
        rows = rows[1:]
    try:
        return check_players(rows)
    except PlayerError as exc:
        raise UserError(f"{path}: {exc}") from None


def players_flag(text: str, flag: str = "--players", at_most: int | None = None) -> tuple[str, ...]:
    """A comma-separated list from the command line, checked: one line naming the flag and the player."""
    from appliance.errors import UserError
    from appliance.game.players import PlayerError, check_players

    try:
        return check_players(text.split(","), at_most=at_most)
    except PlayerError as exc:
        raise UserError(f"{flag}: {exc}") from None


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
    # checked before the log is opened: a bad list names the player and nothing is written
    players = (read_roster(args.roster) if args.roster else
               players_flag(args.players) if args.players is not None else config.players)
    store = EventStore.in_dir(args.data)
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
    board = None if args.no_gpio else build_board(config, args.fake_gpio)
    display = Display(mode="headless" if args.headless else "auto")
    link = HeadLink(net.party, Broker(host, port, net.username, net.password()))
    seed = args.seed if args.seed is not None else (config.seed if config.seed is not None else random.randrange(2**31))
    bell = board.bell.play if board is not None else (lambda pattern: None)  # table 1 rings what it hears
    unit = HeadUnit(store, players, config.rules, seed, net=link,
                    signals=HeadSignals(bell=bell, show=display.show), countdown_s=args.countdown)
    app = HeadApp(unit, link, display, autostart=not args.no_autostart, sheet_path=args.sheet,
                  notify=sdnotify.notify)
    if board is not None:
        board.button.on_press(lambda t: app.inputs.put("start"))
    web = None if args.no_web else start_web(app, args.web_port, args.pin_file)
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
        if web is not None:
            web.stop()
        if embedded is not None:
            embedded.stop()
        if board is not None:
            board.close()
        display.close()
        store.close()


def start_web(app: "HeadApp", port: int, pin_file: Path | None, host: str = "0.0.0.0") -> "HostessServer":
    """The hostess page on `port`; its address and the PIN go to the head screen (and the log)."""
    import logging

    from appliance.errors import UserError
    from appliance.web.auth import PinGate, new_pin, read_or_make_pin
    from appliance.web.server import HostessServer

    try:
        pin = read_or_make_pin(pin_file) if pin_file is not None else new_pin()
    except (OSError, ValueError) as exc:
        raise UserError(f"--pin-file {pin_file}: {exc}") from None
    from appliance.web.state import page_state

    server = HostessServer(app.submit, PinGate(pin), host=host, port=port,
                           state=page_state(app.unit, app.link.status, app.link.state))
    try:
        server.start()
    except OSError as exc:
        raise UserError(f"--web-port {port}: cannot serve the hostess page: {exc.strerror or exc}") from None
    app.web = server
    app.page_url, app.pin = server.url(), pin
    logging.getLogger(__name__).info("the hostess page: %s", app.page_url)
    return server
