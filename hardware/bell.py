"""The bell: a relay bell, a plain buzzer or a tonal buzzer, ringing named patterns.

Patterns play on one background thread, one after another, so the game loop that asks for a ring
never waits for it; the listeners (the screen showing the bell, the sound card on a desktop)
hear the pattern name the moment it starts.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from typing import Callable

from gpiozero import Buzzer, DigitalOutputDevice, TonalBuzzer
from gpiozero.pins import Factory

from hardware.config import PinConfig

log = logging.getLogger(__name__)

__all__ = ["Bell", "Step", "PATTERNS", "patterns_for"]

PATTERNS: tuple[str, ...] = ("ring_start", "ring_end", "fanfare", "chirp")


@dataclass(frozen=True)
class Step:
    """One piece of a pattern: sound (`on`) or silence for `seconds`.

    `note` is what a tonal buzzer plays during an `on` step (a relay or plain buzzer just
    switches on); gpiozero.tones.Tone understands it.
    """

    on: bool
    seconds: float
    note: str | None = None


RING_NOTE = "E5"
# "Charge!": G4 C5 E5 G5 - E5 G5, the last note long. All inside A3..A5, the range of a
# TonalBuzzer with its default mid tone A4 and one octave.
FANFARE_NOTES: tuple[tuple[str, float], ...] = (
    ("G4", 1), ("C5", 1), ("E5", 1), ("G5", 2), ("E5", 1), ("G5", 4))


def patterns_for(config: PinConfig) -> dict[str, tuple[Step, ...]]:
    """The four patterns, timed by the config's ring lengths."""
    ring = Step(True, config.ring_s, RING_NOTE)
    gap = Step(False, config.gap_s)
    # Notes are detached by a short silence: a tune reads better, and a relay bell needs the
    # gap to strike again.
    fanfare: list[Step] = []
    for note, beats in FANFARE_NOTES:
        fanfare.append(Step(True, config.note_s * beats, note))
        fanfare.append(Step(False, config.note_s / 3))
    fanfare.pop()  # no trailing silence
    chirp = (Step(True, config.chirp_s, "A5"), Step(False, config.chirp_s), Step(True, config.chirp_s, "A3"))
    return {
        "ring_start": (ring,),
        "ring_end": (ring, gap, ring, gap, ring),
        "fanfare": tuple(fanfare),
        "chirp": chirp,
    }


class _Driver:
    """One physical bell output; `sound(step)` switches it on for a step, `silence()` off."""

    def __init__(self, config: PinConfig, pin_factory: Factory) -> None:
        self.kind = config.bell_kind
        self.device: DigitalOutputDevice | Buzzer | TonalBuzzer
        if self.kind == "relay":
            self.device = DigitalOutputDevice(
                config.bell_pin, active_high=config.bell_is_active_high, initial_value=False,
                pin_factory=pin_factory)
        elif self.kind == "buzzer":
            self.device = Buzzer(
                config.bell_pin, active_high=config.bell_is_active_high, initial_value=False,
                pin_factory=pin_factory)
        else:
            self.device = TonalBuzzer(config.bell_pin, pin_factory=pin_factory)

    def sound(self, step: Step) -> None:
        if isinstance(self.device, TonalBuzzer):
            self.device.play(step.note or RING_NOTE)
        else:
            self.device.on()

    def silence(self) -> None:
        if isinstance(self.device, TonalBuzzer):
            self.device.stop()
        else:
            self.device.off()

    def close(self) -> None:
        self.device.close()


_CLOSE = object()


class Bell:
    """Rings patterns without blocking: ring_start(), ring_end(), fanfare(), chirp()."""

    def __init__(self, config: PinConfig, pin_factory: Factory) -> None:
        self.patterns = patterns_for(config)
        self._driver = _Driver(config, pin_factory)
        self._queue: queue.Queue[object] = queue.Queue()
        self._listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        self._pending = 0
        self._idle = threading.Event()
        self._idle.set()
        # One cancel event per queued pattern: stop() sets them all, so a pattern that the
        # worker is just picking up is cancelled too, and a later play() is not.
        self._live: list[threading.Event] = []
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="bunco-bell", daemon=True)
        self._thread.start()

    @property
    def device(self) -> DigitalOutputDevice | Buzzer | TonalBuzzer:
        """The gpiozero device (tests read its pin's history)."""
        return self._driver.device

    @property
    def kind(self) -> str:
        return self._driver.kind

    def on_ring(self, listener: Callable[[str], None]) -> None:
        """Call `listener(pattern_name)` (on the bell's thread) whenever a pattern starts."""
        self._listeners.append(listener)

    def ring_start(self) -> None:
        """One ring: the round starts."""
        self.play("ring_start")

    def ring_end(self) -> None:
        """Three rings: the round ends."""
        self.play("ring_end")

    def fanfare(self) -> None:
        """A Bunco!"""
        self.play("fanfare")

    def chirp(self) -> None:
        """Two very short blips: something went wrong (a false call, an unreadable roll)."""
        self.play("chirp")

    def play(self, name: str) -> None:
        """Queue a pattern by name; returns at once. Patterns play in the order asked."""
        if name not in self.patterns:
            raise ValueError(f"unknown bell pattern {name!r}; known: {', '.join(self.patterns)}")
        with self._lock:
            if self._closed:
                raise RuntimeError("the bell is closed")
            cancel = threading.Event()
            self._live.append(cancel)
            self._pending += 1
            self._idle.clear()
            self._queue.put((name, cancel))

    def stop(self) -> None:
        """Silence the bell now and forget the queued patterns."""
        with self._lock:
            for cancel in self._live:
                cancel.set()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued pattern has played; True unless the timeout ran out."""
        return self._idle.wait(timeout)

    @property
    def busy(self) -> bool:
        return not self._idle.is_set()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.stop()
        self._queue.put(_CLOSE)
        self._thread.join(timeout=5)
        self._driver.close()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _CLOSE:
                return
            assert isinstance(item, tuple)
            name, cancel = item
            if cancel.is_set():
                self._done(cancel)
                continue
            for listener in list(self._listeners):
                try:
                    listener(name)
                except Exception:  # a broken listener must not silence the bell
                    log.exception("bell listener %r failed on %s", listener, name)
            try:
                for step in self.patterns[name]:
                    if step.on:
                        self._driver.sound(step)
                    else:
                        self._driver.silence()
                    if cancel.wait(step.seconds):
                        break
            except Exception:
                log.exception("bell pattern %s failed", name)
            finally:
                try:
                    self._driver.silence()
                except Exception:
                    log.exception("could not silence the bell")
                self._done(cancel)

    def _done(self, cancel: threading.Event) -> None:
        with self._lock:
            self._live.remove(cancel)
            self._pending -= 1
            if self._pending == 0:
                self._idle.set()
