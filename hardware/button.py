"""The BUNCO! button (and the optional "next" button): debounced presses and holds.

A press is reported when the button is let go, if it was not held: a hold means "undo the last
roll", and reporting the press at the moment it went down would call a Bunco the player never
meant. The press still carries the monotonic time it went down, so the game can order it
against the camera's rolls.

Debouncing is done twice on purpose: gpiozero's `bounce_time` hands it to the pin driver on a Pi,
and our own "stable for bounce_s" filter (hardware.debounce) runs on top. The second is the one
that also works on gpiozero's MockPin (which ignores bounce_time), so the tests exercise it; a
clean edge costs only bounce_s of delay. It judges each edge by the time the pin changed, not by
when a thread got to run, so a press the pin saw is never lost to a busy table loop.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from gpiozero import Button
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockPin

from hardware.debounce import Action, Debouncer

log = logging.getLogger(__name__)

__all__ = ["PressButton", "Listener"]

Listener = Callable[[float], None]


class PressButton:
    """One push button to ground, with the Pi's pull-up. Listeners get `time.monotonic()` floats."""

    def __init__(self, pin: int, *, bounce_s: float, hold_s: float, pin_factory: Factory,
                 name: str = "button") -> None:
        self.name = name
        self.bounce_s = bounce_s
        self.hold_s = hold_s
        self.device = Button(
            pin, pull_up=True, bounce_time=bounce_s or None, hold_time=hold_s,
            pin_factory=pin_factory)
        self._press_listeners: list[Listener] = []
        self._hold_listeners: list[Listener] = []
        self._lock = threading.Condition()  # also tells wait_idle() that an edge was judged
        self._debounce = Debouncer(bounce_s, hold_s, pressed=self.device.is_pressed)
        self._timer: threading.Timer | None = None
        self._generation = 0  # a quiet timer that fires after a newer edge must do nothing
        self._closed = False
        self._release: threading.Timer | None = None  # a simulated press's or hold's pending let-go
        self.device.when_activated = self._activated
        self.device.when_deactivated = self._deactivated
        self.device.when_held = self._on_held

    # -- listeners -------------------------------------------------------------------------------
    def on_press(self, listener: Listener) -> None:
        """Call `listener(t_down)` for each press shorter than the hold time (on release)."""
        self._press_listeners.append(listener)

    def on_hold(self, listener: Listener) -> None:
        """Call `listener(t)` once when the button has been held for hold_s; t = when it was seen."""
        self._hold_listeners.append(listener)

    @property
    def is_pressed(self) -> bool:
        """The debounced state."""
        return self._debounce.pressed

    def wait_idle(self, timeout: float) -> bool:
        """Block until no edge waits to be judged (the last one's bounce window has passed and its
        press, if any, was reported); False if `timeout` seconds pass first. For tests and hwtest:
        a condition to wait on instead of a sleep."""
        with self._lock:
            return self._lock.wait_for(lambda: self._closed or not self._debounce.settling, timeout)

    @property
    def bounces(self) -> int:
        """Edges ignored as contact bounce, for `bunco hwtest`."""
        return self._debounce.bounces

    # -- stand-ins -------------------------------------------------------------------------------
    @property
    def can_simulate(self) -> bool:
        return isinstance(self.device.pin, MockPin)

    def simulate_down(self) -> None:
        """Drive the mock pin low, as a finger on the button does (desktop stand-in: key down)."""
        self._mock_pin().drive_low()

    def simulate_up(self) -> None:
        """Let the mock pin go back high (key up)."""
        self._mock_pin().drive_high()

    def simulate_press(self) -> None:
        """A short press; the release follows after the debounce window. Returns at once, unless an
        earlier simulated press or hold is still to be let go (see _let_go)."""
        self._let_go()
        self.simulate_down()
        self._release = self._later(max(2 * self.bounce_s, 0.02) + 0.03, self.simulate_up)

    def simulate_hold(self) -> None:
        """A hold; the release follows just after the hold time. Returns at once, as simulate_press."""
        self._let_go()
        self.simulate_down()
        self._release = self._later(self.hold_s + self.bounce_s + 0.15, self.simulate_up)

    def _let_go(self, timeout: float = 5.0) -> None:
        """Wait for an earlier simulated press or hold to be let go and judged, as a finger must be
        lifted before it presses again: a press on a button still down is no press. The hold is
        reported while the button is down, so a caller that acts on it can press again before the
        release (a table test did, and lost its Bunco press on a fast machine)."""
        release = self._release
        if release is None or release is threading.current_thread():
            return
        release.join(timeout)
        self.wait_idle(timeout)  # a let-go still in its bounce window would swallow the next press

    def _mock_pin(self) -> MockPin:
        pin = self.device.pin
        if not isinstance(pin, MockPin):
            raise RuntimeError(
                f"the {self.name} is on a real GPIO pin; only a mock pin (gpiozero MockFactory) "
                "can be pressed in software")
        return pin

    def _later(self, delay: float, action: Callable[[], None]) -> threading.Timer:
        def run() -> None:
            if not self._closed:
                action()
        timer = threading.Timer(delay, run)
        timer.daemon = True
        timer.start()
        return timer

    # -- edges from gpiozero (its pin thread) ----------------------------------------------------
    def _edge_time(self) -> float:
        """When the pin changed, on time.monotonic()'s clock, not when this callback got to run.

        gpiozero records the edge's own timestamp on the device (`_last_changed`: on a Pi the
        kernel's event time, CLOCK_MONOTONIC by default; on a MockPin the drive time) just before
        it calls us from the same thread. Its local factories (lgpio's, the mock) tick on
        time.monotonic(); a factory on another clock fails the range check and gets now.
        """
        now = time.monotonic()
        edge = getattr(self.device, "_last_changed", None)
        if isinstance(edge, float) and 0.0 <= now - edge < 60.0:
            return edge
        return now

    def _activated(self) -> None:
        self._edge(True)

    def _deactivated(self) -> None:
        self._edge(False)

    def _edge(self, level: bool) -> None:
        t = self._edge_time()
        with self._lock:
            if self._closed:
                return
            actions = self._debounce.edge(level, t)
            self._arm_quiet_timer()
            self._fire(actions)
            self._lock.notify_all()

    def _arm_quiet_timer(self) -> None:
        """(Re)start the timer that tells the debouncer the pin has been quiet; caller holds the lock."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._generation += 1
        if self._debounce.settling:
            self._timer = threading.Timer(self.bounce_s, self._quiet, (self._generation,))
            self._timer.daemon = True
            self._timer.start()

    def _quiet(self, generation: int) -> None:
        with self._lock:
            if self._closed or generation != self._generation:
                return  # a newer edge came: its own timer (or the edge itself) decides
            self._timer = None
            self._fire(self._debounce.quiet())
            self._lock.notify_all()

    def _on_held(self) -> None:
        t = time.monotonic()
        with self._lock:
            if self._closed:
                return
            self._fire(self._debounce.held(t))  # a quiet timer still due then finds nothing to judge
            self._lock.notify_all()

    def _fire(self, actions: list[Action]) -> None:
        """Listeners run under the lock (reentrant): presses reach them in the order the pin saw
        them, and wait_idle() returns only after they ran. They only queue, so this is quick."""
        for kind, t in actions:
            for listener in list(self._press_listeners if kind == "press" else self._hold_listeners):
                self._call(listener, t, kind)

    def _call(self, listener: Listener, t: float, what: str) -> None:
        try:
            listener(t)
        except Exception:  # a broken listener must not kill gpiozero's event thread
            log.exception("%s %s listener %r failed", self.name, what, listener)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._lock.notify_all()
        self.device.close()
