"""All the GPIO devices of one unit, built from its PinConfig on a given pin factory."""

from __future__ import annotations

import logging
from typing import Callable, TypeVar

from gpiozero import LED, PWMLED
from gpiozero.exc import GPIOZeroError
from gpiozero.pins import Factory

from hardware.bell import Bell
from hardware.button import PressButton
from hardware.config import PinConfig
from hardware.errors import DeviceError
from hardware.factory import is_mock
from hardware.lights import Lights

log = logging.getLogger(__name__)

__all__ = ["Board"]

T = TypeVar("T")


class Board:
    """Owns the bell, the BUNCO! button, the optional next button and the lights.

    The pin factory stays the caller's (close it yourself if you made it); close() releases
    the devices. Errors from gpiozero while building come out as hardware.errors.DeviceError
    naming the config key, with whatever was already built closed again.
    """

    def __init__(self, config: PinConfig, pin_factory: Factory) -> None:
        self.config = config
        self.pin_factory = pin_factory
        self._closers: list[Callable[[], None]] = []
        try:
            self.bell: Bell = self._build("bell_pin", lambda: Bell(config, pin_factory))
            self.button: PressButton = self._build("button_pin", lambda: PressButton(
                config.button_pin, bounce_s=config.button_bounce_s, hold_s=config.button_hold_s,
                pin_factory=pin_factory, name="BUNCO! button"))
            self.next_button: PressButton | None = None
            if config.next_pin is not None:
                next_pin = config.next_pin
                self.next_button = self._build("next_pin", lambda: PressButton(
                    next_pin, bounce_s=config.button_bounce_s, hold_s=config.button_hold_s,
                    pin_factory=pin_factory, name="next button"))
            led: LED | PWMLED | None = None
            if config.led_pin is not None:
                led_pin = config.led_pin
                led_class = PWMLED if config.led_pwm else LED
                led = self._build("led_pin", lambda: led_class(
                    led_pin, active_high=config.led_active_high, pin_factory=pin_factory))
            self.lights = Lights(led)
            if led is not None:
                self._closers.pop()  # Lights closes its LED
            self._closers.append(self.lights.close)
        except BaseException:
            self.close()
            raise

    @property
    def is_fake(self) -> bool:
        """True on gpiozero's MockFactory: nothing is wired, the stand-ins drive the pins."""
        return is_mock(self.pin_factory)

    def _build(self, key: str, make: Callable[[], T]) -> T:
        pin = getattr(self.config, key)
        try:
            device = make()
        except GPIOZeroError as exc:
            raise DeviceError(key, f"BCM pin {pin}: {exc}") from exc
        except Exception as exc:
            # lgpio raises its own lgpio.error ("GPIO busy" when another program holds the
            # line), which we cannot import on a desktop; the cause stays chained.
            raise DeviceError(key, f"BCM pin {pin}: {type(exc).__name__}: {exc}") from exc
        self._closers.append(getattr(device, "close"))
        return device

    def close(self) -> None:
        while self._closers:
            closer = self._closers.pop()
            try:
                closer()
            except Exception:
                log.exception("closing %r failed", closer)

    def __enter__(self) -> "Board":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
