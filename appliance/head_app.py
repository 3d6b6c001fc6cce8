"""Wiring the head unit to the network, the bell and the hostess's screen: one loop."""

from __future__ import annotations

import json
import queue
import threading
import logging
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from appliance.head_unit import HeadUnit, Refused
from appliance.nightlog import result_json

log = logging.getLogger(__name__)


@dataclass
class HeadApp:
    unit: HeadUnit
    link: Any                     # appliance.net.head_link.HeadLink
    display: Any = None           # appliance.ui.display.Display
    autostart: bool = True        # start the night once every table is online
    sheet_path: Path | None = None  # the master sheet as JSON, rewritten after every round
    refresh_s: float = 0.25
    notify: Any = None            # appliance.sdnotify-like: called with "WATCHDOG=1" each loop

    web: Any = None               # appliance.web.server.HostessServer: gets the page's state after each change
    page_url: str = ""            # the hostess page's address and the PIN, for the head screen
    pin: str = ""

    def __post_init__(self) -> None:
        self.inputs: queue.Queue[str] = queue.Queue()   # the head's button (gpiozero's thread): "start"
        # the hostess page's actions (the web server's thread): run here, on the head's own thread,
        # because the unit and its SQLite log belong to this thread
        self.calls: queue.Queue[tuple[Callable[[HeadUnit], Any], Future[Any]]] = queue.Queue()
        self._shown = 0.0
        self._pinged = 0.0
        self._rounds_written = -1
        self._published = ""
        self.screen = ""              # the head screen's overlay: "", "qr", "undo" or "confirm:N"
        self._flash: tuple[str, float] | None = None  # what the last tap could not do, for a few seconds
        self._redraw = False

    def submit(self, fn: Callable[[HeadUnit], Any]) -> Future[Any]:
        """From any thread: fn(unit) on the head's thread at its next step; its result or Refused."""
        done: Future[Any] = Future()
        self.calls.put((fn, done))
        return done

    def step(self) -> bool:
        """One pass of the loop; False once the night is over (or the hostess quit)."""
        unit = self.unit
        if self.link.reconnected():
            unit.publish_all()
        for msg in self.link.pump():
            unit.ingest(msg)
        if (not unit.started and self.autostart and unit.trouble is None and len(unit.players) >= 2
                and self.all_online()):
            log.info("head: every table is online: the night starts")
            self._act(HeadUnit.start_night)
        while not self.inputs.empty():
            if self.inputs.get_nowait() == "start" and not unit.started:
                self._act(HeadUnit.start_night)
        while not self.calls.empty():
            fn, done = self.calls.get_nowait()
            if done.set_running_or_notify_cancel():
                try:
                    done.set_result(fn(unit))
                except Exception as exc:  # Refused, or a bug: the page shows it, the head goes on
                    if not isinstance(exc, Refused):
                        log.exception("head: a hostess action failed")
                    done.set_exception(exc)
        unit.tick()
        self._write_sheet()
        if self.web is not None:
            from appliance.web.state import page_state

            state = page_state(unit, self.link.status, self.link.state)
            text = json.dumps(state, sort_keys=True)
            if text != self._published:
                self._published = text
                self.web.publish(state)
        if self.display is not None:
            from appliance.ui.head_controls import read_inputs

            for kind, pos in read_inputs(self.display.size):
                if kind == "quit":
                    return False
                if kind == "start" and not unit.started:  # the hostess's start key
                    self._act(HeadUnit.start_night)
                elif kind == "tap" and pos is not None:
                    self.tap(pos)
            now = time.monotonic()
            if now - self._shown >= self.refresh_s or self._redraw:
                self._shown, self._redraw = now, False
                self.display.show(self.screen_view())
        if self.notify is not None and time.monotonic() - self._pinged >= 1.0:
            self._pinged = time.monotonic()
            self.notify("WATCHDOG=1")
        return unit.phase != "over" or self.web is not None  # the page stays up for the sheet and downloads

    def run(self, stop: threading.Event | None = None, poll_s: float = 0.02) -> int:
        """Until the night is over, or `stop` is set (systemd's SIGTERM: the step under way finishes)."""
        while not (stop is not None and stop.is_set()) and self.step():
            time.sleep(poll_s)
        if self.display is not None and not (stop is not None and stop.is_set()):  # the night's last screen
            self.display.show(self.unit.view(self.link.status, self.link.state))
        return 0

    def _act(self, fn: Callable[[HeadUnit], Any]) -> None:
        """A button or key press: an action that cannot happen now is logged, never raised."""
        try:
            fn(self.unit)
        except Refused as exc:
            log.warning("head: %s", exc)

    # ---- the head's touch screen ------------------------------------------------------
    def screen_view(self) -> Any:
        """The HeadView with the touch buttons and the open overlay."""
        import dataclasses

        from appliance.ui.head_controls import Button, Overlay, qr_rows
        from appliance.ui.view import Banner

        unit = self.unit
        view = unit.view(self.link.status, self.link.state)
        phase = unit.phase
        buttons: list[Button] = []
        if not unit.started:
            buttons.append(Button("start", "Start", unit.trouble is None and len(unit.players) >= 2))
        elif phase == "between":
            buttons.append(Button("next", "Next round"))
        elif phase in ("playing", "ending"):
            buttons.append(Button("undo", "Undo a roll"))
        buttons.append(Button("qr", "Page & PIN"))
        overlay = None
        if self.screen == "qr":
            url = self.page_url or "(no hostess page: bunco head --no-web)"
            overlay = Overlay("The hostess page", (url, f"PIN {self.pin}" if self.pin else "",
                                                   "Scan it with a phone on this Wi-Fi"),
                              (Button("close", "Close"),), qr_rows(self.page_url) if self.page_url else ())
        elif self.screen == "undo":
            rolled = self._last_rolls()
            choices = tuple(Button(f"table:{n}", f"Table {n}: {who} {dice}") for n, (who, dice) in rolled.items())
            overlay = Overlay("Take back the last roll at which table?",
                              () if choices else ("No table has a roll to take back in this round",),
                              (*choices, Button("close", "Cancel")))
        elif self.screen.startswith("confirm:"):
            n = int(self.screen.split(":")[1])
            who, dice = self._last_rolls().get(n, ("", ""))
            overlay = Overlay(f"Take back table {n}'s last roll?", (f"{who}: {dice}",),
                              (Button("yes", "Yes, take it back"), Button("close", "No")))
        banners = view.banners
        if self._flash is not None and time.monotonic() < self._flash[1]:
            banners = (Banner("reroll", self._flash[0]),)
        return dataclasses.replace(view, buttons=tuple(buttons), overlay=overlay, banners=banners)

    def _last_rolls(self) -> dict[int, tuple[str, str]]:
        room = self.unit.night.current if self.unit.started else None
        if room is None:
            return {}
        out = {}
        for n, t in sorted(room.tables.items()):
            if t.rolls:
                out[n] = (t.rolls[-1].roller, " ".join(map(str, t.rolls[-1].dice)))
        return out

    def tap(self, pos: tuple[int, int]) -> None:
        """A touch on the head screen: what is under it, on the screen as last drawn."""
        from appliance.ui.head_controls import control_rects, hit
        from appliance.ui.head_screen import head_layout_for

        view = self.screen_view()
        lay = head_layout_for(self.display.size, len(view.tables), len(view.sheet), view.rounds_in_set)
        key = hit(control_rects(self.display.size, lay.banner, view.buttons, view.overlay), pos)
        if key is not None:
            self.press(key)

    def press(self, key: str) -> None:
        """A head-screen button: the same actions as the page, with the same refusals."""
        self._redraw = True
        actions: dict[str, Callable[[HeadUnit], Any]] = {"start": HeadUnit.start_night,
                                                         "next": HeadUnit.next_round_now}
        if key in actions:
            self._try(actions[key])
        elif key in ("qr", "undo"):
            self.screen = key
        elif key.startswith("table:"):
            self.screen = "confirm:" + key.split(":")[1]
        elif key == "yes" and self.screen.startswith("confirm:"):
            n = int(self.screen.split(":")[1])
            self.screen = ""
            self._try(lambda u: u.undo(n))
        else:
            self.screen = ""

    def _try(self, fn: Callable[[HeadUnit], Any]) -> None:
        try:
            fn(self.unit)
        except Refused as exc:
            self._flash = (str(exc), time.monotonic() + 5.0)

    def all_online(self) -> bool:
        return all(self.link.status.get(n) == "online" for n in range(1, self.unit.tables + 1))

    def _write_sheet(self) -> None:
        """The master sheet on disk after each round: for the hostess's records and the tests."""
        unit = self.unit
        if self.sheet_path is None or not unit.started:
            return
        done = len(unit.night.played)
        if done == self._rounds_written:
            return
        self._rounds_written = done
        sheet = result_json(unit.night.finish()) if unit.night.current is None else None
        if sheet is None:
            return
        tmp = self.sheet_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(sheet, indent=1))
        tmp.replace(self.sheet_path)
