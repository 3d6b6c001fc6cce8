"""A demo party on one machine, with nothing but this machine.

For now one table: four simulated players, a synthetic camera that throws real die crops
cut from the shared photographs into a tray, the real pip reader and settle stage, the
real gpiozero button on a mock pin pressed by the players (who now and then forget), the
bell shown on screen, the screen in a window or, with no display, written as PNG files.
The full party (head unit and three tables over MQTT) is the next step.
"""

from __future__ import annotations

import logging
import os
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

from appliance.game.rules import HouseRules
from appliance.nightlog import replay, result_json, result_text
from appliance.store import EventStore
from appliance.table_app import SimulatedPlayers, TableApp, build_board, connect
from appliance.table_unit import TableUnit, game_log
from appliance.unit_config import UnitConfig

log = logging.getLogger(__name__)

DEMO_PLAYERS = ("Stacy", "Carol", "Wanda", "Hannah")
DEMO_DIE_PX = 48.0  # a Pi camera 40 cm above a 30 cm tray sees a 16 mm die at about this size


@dataclass
class DemoOutcome:
    rounds: int
    standings: list[str]
    prizes: dict[str, str | None]
    replay_matches: bool
    screens: Path | None


def open_display(headless: bool):
    from appliance.ui.display import Display, DisplayError

    if headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return Display(mode="headless"), True
    try:
        return Display(mode="window"), False
    except DisplayError as exc:
        log.info("no window (%s): running headless", exc)
        return Display(mode="headless"), True


def run_demo(*, rounds: int | None, fast: bool, headless: bool, seed: int, out: Path | None,
             data: Path | None, printer=print) -> DemoOutcome:
    from vision.settle import SettleDetector
    from vision.sources import open_source

    rules = HouseRules(sets=1, points_to_win=11 if fast else 21)
    display, is_headless = open_display(headless)
    screens = out if out is not None else (Path(tempfile.mkdtemp(prefix="bunco-demo-")) if is_headless else None)
    data_dir = data or Path(tempfile.mkdtemp(prefix="bunco-demo-data-"))
    store = EventStore.in_dir(data_dir)
    unit = TableUnit(store, DEMO_PLAYERS, rules, seed=seed)
    board = build_board(UnitConfig(), fake_gpio=True)
    connect(unit, board, display)
    board.bell.on_ring(lambda pattern: printer(f"  (bell: {pattern.replace('_', ' ')})"))
    source = open_source(f"synthetic:{seed}", pace=not fast and not is_headless, die_px=DEMO_DIE_PX)
    settle = SettleDetector(expected_dice=rules.dice)

    def round_end(u: TableUnit) -> None:
        played = u.night.played[-1] if u.night.current is None else None
        room = u.night.current
        results = played.results if played else room.results()
        set_no, round_no = (played.set_no, played.round_no) if played else (room.setup.set_no, room.setup.round_no)
        for r in results:
            teams = " vs ".join(f"{'/'.join(p)} {pts}" for p, pts in r.teams)
            printer(f"set {set_no} round {round_no}: {teams}  -> winners {', '.join(r.winners)}")

    app = TableApp(unit, source, settle, board, display, players=SimulatedPlayers(random.Random(seed)),
                   screenshot_dir=screens, on_round_end=round_end, max_rounds=rounds)
    try:
        app.run()
        result = unit.night.finish()
        again = replay(game_log(store), source="demo export")
        matches = result_json(again) == result_json(result)
        printer("")
        printer(result_text(result))
        printer("")
        printer(f"re-scored from the unit's log with bunco replay: {'same result' if matches else 'DIFFERENT'}")
        if screens is not None:
            display.screenshot(screens / "table1-final.png")
            printer(f"screens written to {screens}")
        printer(f"the unit's log: {store.path}")
        return DemoOutcome(len(result.rounds), list(result.standings), result.prizes, matches, screens)
    finally:
        source.close()
        board.close()
        display.close()
        store.close()
