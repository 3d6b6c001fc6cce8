"""A demo party on one machine, with nothing but this machine.

The embedded MQTT broker, the head unit and three table units (12 players), talking
exactly as they do at a party. Each table has a synthetic camera that throws real die
crops cut from the shared photographs into a tray (dice moving, then at rest), the real
settle stage and dice reader, and a real gpiozero button on a mock pin pressed by
simulated players (who now and then forget, or press for nothing). The bell is shown,
printed and - with a window - heard. All four screens share one window; with no display
they are written as PNG files and the night is printed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from appliance.game.rules import HouseRules
from appliance.head_app import HeadApp
from appliance.head_unit import HeadSignals, HeadUnit
from appliance.net.client import Broker
from appliance.net.head_link import HeadLink
from appliance.net.table_link import TableLink
from appliance.nightlog import replay, result_json, result_text
from appliance.store import EventStore
from appliance.table_app import SimulatedPlayers, TableApp, build_board, connect
from appliance.table_unit import TableUnit
from appliance.ui.view import Banner
from appliance.unit_config import UnitConfig

log = logging.getLogger(__name__)

DEMO_PLAYERS = ("Stacy", "Carol", "Wanda", "Hannah", "Betty", "Dolores",
                "Fran", "Gloria", "Irene", "June", "Kay", "Lois")
DEMO_PARTY = "demo"
SHORT_NIGHT = 2     # rounds, when nobody is watching (a server, CI)
DEMO_DIE_PX = 48.0
FINAL_SCREENS_S = 60.0  # a windowed demo keeps its last screens up this long (or until a key)  # a Pi camera 40 cm above a 30 cm tray sees a 16 mm die at about this size


@dataclass
class DemoOutcome:
    rounds: int
    standings: list[str]
    prizes: dict[str, str | None]
    replay_matches: bool
    screens: Path | None


def open_display(headless: bool, size: tuple[int, int]):
    from appliance.ui.display import Display, DisplayError

    if headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return Display(mode="headless", size=size), True
    try:
        return Display(mode="window", size=size, title="Bunco demo party"), False
    except DisplayError as exc:
        log.info("no window (%s): running headless", exc)
        return Display(mode="headless", size=size), True


def run_demo(*, rounds: int | None, fast: bool, headless: bool, seed: int, out: Path | None,
             data: Path | None, printer=print, web_port: int | None = 0) -> DemoOutcome:
    """`web_port`: the hostess page (0: a free port; None: none)."""
    with contextlib.ExitStack() as stack:  # whatever fails half-way, everything opened is closed
        return _run(stack, rounds=rounds, fast=fast, headless=headless, seed=seed, out=out, data=data,
                    printer=printer, web_port=web_port)


def _run(stack: contextlib.ExitStack, *, rounds: int | None, fast: bool, headless: bool, seed: int,
         out: Path | None, data: Path | None, printer, web_port: int | None = 0) -> DemoOutcome:
    from appliance.net.embedded import EmbeddedBroker
    from appliance.ui.wall import Wall
    from vision.settle import SettleDetector
    from vision.sources import open_source

    display, is_headless = open_display(headless, Wall.size())
    stack.callback(display.close)
    if is_headless and rounds is None:
        rounds, fast = SHORT_NIGHT, True
        printer(f"no display: a short night ({SHORT_NIGHT} rounds of 11 points, unpaced); "
                "--rounds N for more, up to 6")
    rules = HouseRules(sets=1, points_to_win=11 if fast else 21)
    wall = Wall(display)
    screens = out if out is not None else (Path(tempfile.mkdtemp(prefix="bunco-demo-")) if is_headless else None)
    data_dir = data or Path(tempfile.mkdtemp(prefix="bunco-demo-data-"))
    audible = not is_headless

    broker = EmbeddedBroker()
    port = broker.start()
    stack.callback(broker.stop)
    where = Broker("127.0.0.1", port)
    printer(f"embedded MQTT broker on 127.0.0.1:{port}; party {DEMO_PARTY!r}, {len(DEMO_PLAYERS)} players")

    head_board = build_board(UnitConfig(), fake_gpio=True)
    stack.callback(head_board.close)

    def head_bell(pattern: str) -> None:
        head_board.bell.play(pattern)
        printer(f"  (head bell: {pattern.replace('_', ' ')})")
        if audible and pattern in ("ring_start", "ring_end"):
            from appliance.ui.sound import chime

            chime(1 if pattern == "ring_start" else 3)

    head_link = HeadLink(DEMO_PARTY, where)
    head_store = EventStore.in_dir(data_dir / "head")
    stack.callback(head_store.close)
    head = HeadUnit(head_store, DEMO_PLAYERS, rules, seed=seed, net=head_link,
                    signals=HeadSignals(bell=head_bell, show=wall.panes[0].show),
                    countdown_s=1.0 if fast else 5.0)
    head_app = HeadApp(head, head_link, display=None, sheet_path=data_dir / "sheet.json")
    if web_port is not None:  # the hostess page, as on a party's head unit (a new PIN each demo)
        from appliance.commands.head import start_web

        web = start_web(head_app, web_port, None)
        stack.callback(web.stop)
        printer(f"the hostess page: http://127.0.0.1:{web.port}/ (on this network: {web.url()}), PIN {head_app.pin}")
    head_link.start()
    stack.callback(head_link.stop)

    tables: list[TableApp] = []
    for n in (1, 2, 3):
        store = EventStore.in_dir(data_dir / f"table{n}")
        stack.callback(store.close)
        link = TableLink(DEMO_PARTY, n, where, store)
        unit = TableUnit(store, (), rules, table=n, link=link, party=True)
        board = build_board(UnitConfig(table=n), fake_gpio=True)
        stack.callback(board.close)
        connect(unit, board, None)
        unit.signals = dataclasses.replace(unit.signals, show=wall.panes[n].show)
        source = open_source(f"synthetic:{seed * 10 + n}", pace=not fast and not is_headless, die_px=DEMO_DIE_PX)
        stack.callback(source.close)
        app = TableApp(unit, source, SettleDetector(expected_dice=rules.dice), board, None,
                       players=SimulatedPlayers(random.Random(seed * 10 + n)), link=link)
        link.start()
        stack.callback(link.stop)
        tables.append(app)

    played = 0
    drawn = 0.0
    quitted = False
    while True:
        going = head_app.step()
        for app in tables:
            app.step()
        if time.monotonic() - drawn >= 0.5:  # the hostess's screen: live, but not every frame
            drawn = time.monotonic()
            wall.panes[0].show(head.view(head_link.status, head_link.state))
        wall.flip()
        if display.mode != "headless" and _quit_asked(display):
            printer("stopped by the person at the keyboard")
            quitted = True
            break
        if head.started and len(head.night.played) > played:
            played = len(head.night.played)
            _print_round(head, printer)
            if screens is not None:
                wall.flip(force=True)
                wall.screenshot(screens / f"party-round{played}.png")
            if rounds is not None and played >= rounds:
                break
        if not going or head.phase == "over":  # (with the page, the head app would serve on)
            break
    result = head.night.finish()
    again = replay(head.export_lines(), source="head export")
    matches = result_json(again) == result_json(result)
    printer("")
    printer(result_text(result))
    printer("")
    printer(f"re-scored from the head's export with bunco replay: {'same result' if matches else 'DIFFERENT'}")
    final = head.view(head_link.status, head_link.state)
    if not head.night.over:  # stopped after --rounds: no countdown to a round that will not come
        final = dataclasses.replace(final, banners=(Banner("bell", f"Demo over after {len(head.night.played)} "
                                                            f"round{'s' if len(head.night.played) != 1 else ''}"),))
    wall.panes[0].show(final)
    wall.flip(force=True)
    if screens is not None:
        wall.screenshot(screens / "party-final.png")
        for i, pane in enumerate(wall.panes):
            pane.screenshot(screens / ("head.png" if i == 0 else f"table{i}.png"))
        printer(f"screens written to {screens}")
    printer(f"the logs: {data_dir} (bunco export --data {data_dir / 'head'})")
    if not is_headless and not quitted:
        printer(f"the final screens stay up: press a key (or wait {FINAL_SCREENS_S} s)")
        _hold_final(FINAL_SCREENS_S)
    return DemoOutcome(len(result.rounds), list(result.standings), result.prizes, matches, screens)


def _hold_final(seconds: float) -> None:
    """Keep the window (the prizes, each table's end) up until a key, a click or a touch, or `seconds`."""
    import pygame

    deadline = time.monotonic() + seconds
    pygame.event.clear()
    while (left := deadline - time.monotonic()) > 0:
        event = pygame.event.wait(max(1, round(min(left, 1.0) * 1000)))
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN, pygame.QUIT):
            return


def _quit_asked(display) -> bool:
    from appliance.ui.display import Input

    return Input.QUIT in display.pump()


def _print_round(head: HeadUnit, printer) -> None:
    r = head.night.played[-1]
    for t in r.results:
        teams = " vs ".join(f"{'/'.join(p)} {pts}" for p, pts in t.teams)
        printer(f"set {r.set_no} round {r.round_no} table {t.table}: {teams}  -> winners {', '.join(t.winners)}")
