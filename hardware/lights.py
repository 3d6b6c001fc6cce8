"""The status LED (or the BUNCO! button's own LED): one look per table state.

Blinking and pulsing run on gpiozero's own background threads (LED.blink, PWMLED.pulse), so
show() returns at once and a new state simply replaces the old pattern.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from gpiozero import LED, PWMLED

log = logging.getLogger(__name__)

__all__ = ["Lights", "LIGHT_STATES"]

LIGHT_STATES: tuple[str, ...] = ("off", "idle", "your_turn", "bunco", "network_lost")

IDLE_LEVEL = 0.15          # PWM: a dim glow says "powered, nothing to do"
IDLE_BLIP = (0.05, 1.95)   # on/off seconds for a plain LED: a heartbeat blip
BUNCO_BLINK = (0.1, 0.1)   # fast blink
LOST_PULSE = (1.0, 1.0)    # fade in/out seconds (PWM), or on/off seconds (plain LED)


class Lights:
    """show(state) with state in LIGHT_STATES; with no LED wired it only remembers the state."""

    def __init__(self, led: LED | PWMLED | None) -> None:
        self.led = led
        self._state = "off"
        self._lock = threading.Lock()
        self._listeners: list[Callable[[str], None]] = []
        if led is not None:
            led.off()

    @property
    def state(self) -> str:
        return self._state

    def on_change(self, listener: Callable[[str], None]) -> None:
        """Call `listener(state)` after each change (a screen can mirror the LED)."""
        self._listeners.append(listener)

    def show(self, state: str) -> None:
        if state not in LIGHT_STATES:
            raise ValueError(f"unknown light state {state!r}; known: {', '.join(LIGHT_STATES)}")
        with self._lock:
            if state == self._state:
                return  # do not restart a blink that is already running
            self._state = state
            if self.led is not None:
                self._apply(self.led, state)
        for listener in list(self._listeners):
            try:
                listener(state)
            except Exception:
                log.exception("lights listener %r failed on %s", listener, state)

    @staticmethod
    def _apply(led: LED | PWMLED, state: str) -> None:
        pwm = isinstance(led, PWMLED)
        if state == "off":
            led.off()
        elif state == "idle":
            if pwm:
                led.value = IDLE_LEVEL
            else:
                led.blink(*IDLE_BLIP)
        elif state == "your_turn":
            led.on()
        elif state == "bunco":
            led.blink(*BUNCO_BLINK)
        elif state == "network_lost":
            if pwm:
                led.pulse(*LOST_PULSE)
            else:
                led.blink(*LOST_PULSE)

    def close(self) -> None:
        if self.led is not None:
            self.led.close()
