"""Wiring a table unit to its parts: camera -> settle -> unit -> bell, light, screen.

One loop, one thread for the game: gpiozero's callbacks only queue presses; the loop
reads a frame, feeds the settle stage, handles what was pressed, and draws.
"""

from __future__ import annotations

import logging
import random
import resource
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from appliance.errors import ConfigError, UserError
from appliance.store import EventStore
from appliance.table_unit import Signals, TableUnit
from appliance.unit_config import UnitConfig

log = logging.getLogger(__name__)


@dataclass
class SimulatedPlayers:
    """Players for the demo and the tests: they press BUNCO! on the real (mock-pin) button,
    and now and then forget to, or press when there is nothing to call."""

    rng: random.Random
    forget: float = 0.15
    false_press: float = 0.02

    def after_reading(self, unit: TableUnit, notes: tuple[str, ...], press: Callable[[], None]) -> bool:
        if "press_bunco" in notes and self.rng.random() >= self.forget:
            press()
            return True
        if "press_bunco" not in notes and self.rng.random() < self.false_press:
            press()
            return True
        return False


@dataclass
class Latency:
    """From the frame the dice came to rest to the screen showing the new tally.

    A sample is the settle window in camera time (rest frame -> deciding frame) plus the
    wall time from handing the deciding frame to the settle stage until the new tally is
    drawn and flipped. Frame costs (settle + reader, every frame) are kept too: the unit
    keeps up with the camera only while they stay under the frame interval.
    """

    samples_ms: list[float] = field(default_factory=list)
    frame_ms: list[float] = field(default_factory=list)


@dataclass
class TableApp:
    unit: TableUnit
    source: Any           # vision.sources FrameSource
    settle: Any           # vision.settle.SettleDetector
    board: Any = None     # hardware.board.Board
    display: Any = None   # appliance.ui.display.Display
    players: SimulatedPlayers | None = None
    screenshot_dir: Path | None = None
    latency: Latency | None = None
    on_round_end: Callable[[TableUnit], None] | None = None
    max_rounds: int | None = None
    link: Any = None      # appliance.net.table_link.TableLink in a party
    notify: Callable[[str], Any] | None = None  # systemd's watchdog (appliance.sdnotify.notify)
    peak_rss_mb: float = 0.0

    def __post_init__(self) -> None:
        self._frames = 0
        self._ended = 0

    def finished_rounds(self) -> int:
        return self.unit.night.finished_rounds if self.unit.ready else 0

    def over(self) -> bool:
        return self.unit.ready and self.unit.night.over

    def run(self, stop: threading.Event | None = None) -> int:
        """Until the night or the stream ends, or `stop` is set (systemd's SIGTERM)."""
        while not (stop is not None and stop.is_set()) and self.step():
            pass
        self.peak_rss_mb = max(self.peak_rss_mb, peak_rss_mb())
        return 0

    def step(self) -> bool:
        """One camera frame through the unit; False when the night, the stream or the person ends it.

        The demo drives several units from one thread with this (the screen is one window).
        """
        if self.over():
            if self.display is None or self.display.mode == "headless":
                return False  # tests and benchmarks: the night's end is the run's end
            # a screen someone looks at: the end of the night stays up until the hostess
            # closes the night (stops the unit: systemd) or someone presses Escape
            self.pump_link()
            self._frames += 1
            if self._frames % 30 == 0 and self.notify is not None:
                self.notify("WATCHDOG=1")
            return not self._pump_display(wait_s=0.1)
        self.pump_link()
        if self.source is None:  # no camera: the dice are keyed in; wait for a key or a touch
            return self._step_by_hand()
        item = self.source.read()
        if item is None:
            log.info("the camera stream ended")
            return False
        t, frame = item
        self._frames += 1
        finished = self.finished_rounds()
        started = time.perf_counter()
        settled = self.settle.feed(t, frame)
        if settled is not None:
            notes = self.unit.on_reading(settled.values, unreadable=settled.unreadable,
                                         reroll=settled.reroll_needed, message=settled.message)
            if self.latency is not None:
                window = (settled.read_time - settled.rest_time) * 1000
                self.latency.samples_ms.append(window + (time.perf_counter() - started) * 1000)
            if self.players is not None and self.board is not None:
                if self.players.after_reading(self.unit, notes, self.board.button.simulate_press):
                    self.unit.drain_inputs(timeout=2.0)
        if self.display is not None and self._pump_display():
            return False
        self.unit.drain_inputs()
        if not self._after_round(finished):
            return False
        if self.latency is not None:
            self.latency.frame_ms.append((time.perf_counter() - started) * 1000)
        if self._frames % 30 == 0:
            self.peak_rss_mb = max(self.peak_rss_mb, peak_rss_mb())
            if self.notify is not None:
                self.notify("WATCHDOG=1")
        return True

    def pump_link(self) -> None:
        """What the head unit said since the last frame (a party only)."""
        if self.link is None:
            return
        from appliance.net.messages import CmdMsg

        for msg in self.link.pump():
            if isinstance(msg, CmdMsg):
                self.unit.on_command(msg)
            else:
                self.unit.on_head(msg)
        self.unit.set_network(self.link.state)

    def _step_by_hand(self) -> bool:
        finished = self.finished_rounds()
        if self.display is not None and self._pump_display(wait_s=0.1):
            return False
        self.unit.drain_inputs(timeout=0.0 if self.display is not None else 0.1)
        if not self._after_round(finished):
            return False
        self._frames += 1
        if self._frames % 30 == 0 and self.notify is not None:
            self.notify("WATCHDOG=1")
        return True

    def _pump_display(self, wait_s: float = 0.0) -> bool:
        """Keys and touches; True when the person asked to quit."""
        from appliance.ui.display import Input, Pick

        unit = self.unit
        actions = {Input.BUNCO: unit.press, Input.UNDO: unit.hold, Input.ENTRY: unit.open_entry,
                   Input.ROLL_TAP: unit.tap_roll, Input.OK: unit.ok, Input.CANCEL: unit.cancel,
                   Input.ERASE: unit.erase, Input.TAKE_BACK: unit.take_back, Input.CORRECT: unit.correct}
        for event in self.display.inputs(wait_s):
            if event is Input.QUIT:
                return True
            if isinstance(event, Pick):
                unit.pick(event.face, event.die)
            else:
                actions[event]()
        return False

    def _after_round(self, finished: int) -> bool:
        """If a round ended since `finished` rounds were counted: its screenshot and callback; False
        once max_rounds have ended here (the demo's short night)."""
        if self.finished_rounds() <= finished:
            return True
        self._ended += 1
        self._round_ended()
        return self.max_rounds is None or self._ended < self.max_rounds

    def _round_ended(self) -> None:
        if self.screenshot_dir is not None and self.display is not None:
            index = self.unit.night.finished_rounds - 1
            set_no, round_no = index // 6 + 1, index % 6 + 1
            self.display.screenshot(self.screenshot_dir / f"table{self.unit.table}-set{set_no}-round{round_no}.png")
        if self.on_round_end is not None:
            self.on_round_end(self.unit)


def peak_rss_mb() -> float:
    """Peak resident memory of this process (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_board(config: UnitConfig, fake_gpio: bool) -> Any:
    from hardware.board import Board
    from hardware.errors import DeviceError
    from hardware.factory import make_pin_factory

    try:
        return Board(config.pins, make_pin_factory(fake_gpio))
    except DeviceError as exc:
        raise ConfigError(f"pins.{exc.key}", exc.problem) from None


def connect(unit: TableUnit, board: Any, display: Any) -> None:
    """Point the unit's outputs at the board and the screen, and the button at the unit."""
    rings = {"ring_start": 1, "ring_end": 3}
    audible = display is not None and getattr(display, "mode", "headless") != "headless"

    def bell(pattern: str) -> None:
        board.bell.play(pattern)
        if audible and board.is_fake and pattern in rings:  # a desktop: the sound card stands in
            from appliance.ui.sound import chime

            chime(rings[pattern])

    unit.signals = Signals(bell=bell, light=board.lights.show,
                           show=display.show if display is not None else (lambda view: None))
    board.button.on_press(lambda t: unit.inputs.put(("press", t)))
    board.button.on_hold(lambda t: unit.inputs.put(("hold", t)))


def open_unit(data_dir: Path, players: tuple[str, ...], config: UnitConfig, seed: int | None) -> TableUnit:
    store = EventStore.in_dir(data_dir)
    have_log = len(store) > 0
    if not have_log and not 2 <= len(players) <= 4:
        store.close()
        raise UserError("a standalone table needs 2 to 4 players: --players A,B,C,D (or players = [...] in the config)")
    return TableUnit(store, players, config.rules, seed if seed is not None else random.randrange(2**31),
                     table=config.table)
