"""The BUNCO! button (and the optional "next" button): debounced presses and holds.

A press is reported when the button is let go, if it was not held: a hold means "undo the last
roll", and reporting the press at the moment it went down would call a Bunco the player never
meant. The press still carries the monotonic time it went down, so the game can order it
against the camera's rolls.

Debouncing is done twice on purpose: gpiozero's `bounce_time` hands it to the pin driver on a Pi,
and our own "stable for bounce_s" filter runs on top. The second is the one that also works
on gpiozero's MockPin (which ignores bounce_time), so the tests exercise it; a clean edge costs
only bounce_s of delay.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from gpiozero import Button
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockPin

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
        self._lock = threading.Lock()
        self._pressed = self.device.is_pressed
        self._down_t: float | None = None
        self._held = False
        self._burst_start: float | None = None
        self._burst_edges = 0
        self._timer: threading.Timer | None = None
        self._generation = 0  # a timer that fires after a newer edge cancelled it must do nothing
        self._closed = False
        self.bounces = 0  # edges ignored as contact bounce, for `bunco hwtest`
        self.device.when_activated = self._edge
        self.device.when_deactivated = self._edge
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
        return self._pressed

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
        """A short press, returning at once; the release follows after the debounce window."""
        self.simulate_down()
        self._later(max(2 * self.bounce_s, 0.02) + 0.03, self.simulate_up)

    def simulate_hold(self) -> None:
        """A hold, returning at once; the release follows just after the hold time."""
        self.simulate_down()
        self._later(self.hold_s + self.bounce_s + 0.15, self.simulate_up)

    def _mock_pin(self) -> MockPin:
        pin = self.device.pin
        if not isinstance(pin, MockPin):
            raise RuntimeError(
                f"the {self.name} is on a real GPIO pin; only a mock pin (gpiozero MockFactory) "
                "can be pressed in software")
        return pin

    def _later(self, delay: float, action: Callable[[], None]) -> None:
        def run() -> None:
            if not self._closed:
                action()
        timer = threading.Timer(delay, run)
        timer.daemon = True
        timer.start()

    # -- edges from gpiozero (its pin thread) ----------------------------------------------------
    def _edge(self) -> None:
        t = time.monotonic()
        with self._lock:
            if self._closed:
                return
            if self._burst_start is None:
                self._burst_start = t
            self._burst_edges += 1
            if self._timer is not None:
                self._timer.cancel()
            self._generation += 1
            generation = self._generation
            if self.bounce_s <= 0:
                self._timer = None
            else:
                self._timer = threading.Timer(self.bounce_s, self._settle, (generation,))
                self._timer.daemon = True
                self._timer.start()
                return
        self._settle(generation)

    def _settle(self, generation: int) -> None:
        """The pin has been quiet for bounce_s: compare its level with the last stable one."""
        fire: list[Listener] = []
        down_t = 0.0
        with self._lock:
            if self._closed or self._burst_start is None or generation != self._generation:
                return
            start, edges = self._burst_start, self._burst_edges
            self._burst_start, self._burst_edges, self._timer = None, 0, None
            pressed = self.device.is_pressed
            if pressed == self._pressed:
                self.bounces += edges
                log.debug("%s: %d edge(s) of bounce ignored", self.name, edges)
                return
            self.bounces += edges - 1
            self._pressed = pressed
            if pressed:
                self._down_t = start
                self._held = False
            else:
                if not self._held and self._down_t is not None:
                    down_t = self._down_t
                    fire = self._press_listeners
                self._down_t = None
        for listener in list(fire):
            self._call(listener, down_t, "press")

    def _on_held(self) -> None:
        t = time.monotonic()
        with self._lock:
            if self._closed or self._held:
                return
            self._held = True
        for listener in list(self._hold_listeners):
            self._call(listener, t, "hold")

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
        self.device.close()
