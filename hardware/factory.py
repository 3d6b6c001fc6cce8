"""Choosing gpiozero's pin factory: the real one on a Pi, its MockFactory everywhere else.

A desktop, a CI runner or a Pi without the GPIO driver must still run the whole appliance, so the
absence of a GPIO chip is not an error: it is one log line, and the button and bell become
stand-ins driven through gpiozero's own mock pins (the same callback path as real wiring).
"""

from __future__ import annotations

import glob
import logging
import warnings

from gpiozero import Device
from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

log = logging.getLogger(__name__)

__all__ = ["make_pin_factory", "make_mock_factory", "gpio_chips", "is_mock", "GPIOCHIP_GLOB"]

# Where the kernel's GPIO character devices appear (lgpio, the Pi 5 default, opens these).
GPIOCHIP_GLOB = "/dev/gpiochip*"


def make_mock_factory() -> MockFactory:
    """A MockFactory whose pins all support PWM, so PWMLED and TonalBuzzer work on it too."""
    return MockFactory(pin_class=MockPWMPin)


def gpio_chips() -> list[str]:
    return sorted(glob.glob(GPIOCHIP_GLOB))


def is_mock(factory: Factory) -> bool:
    return isinstance(factory, MockFactory)


def make_pin_factory(fake: bool) -> Factory:
    """The pin factory for this machine.

    `fake` (the `--fake-gpio` flag) forces the MockFactory. Otherwise gpiozero picks its default
    (lgpio on a Pi 5, honouring GPIOZERO_PIN_FACTORY); with no GPIO chip present, or when no
    gpiozero driver loads, this falls back to the MockFactory and says so in one log line.
    """
    if fake:
        log.info("GPIO: fake pins (--fake-gpio), gpiozero MockFactory; the button and bell are stand-ins")
        return make_mock_factory()
    chips = gpio_chips()
    if not chips:
        log.info("GPIO: no GPIO chip here (no %s), using gpiozero's MockFactory; "
                 "the button and bell are stand-ins", GPIOCHIP_GLOB)
        return make_mock_factory()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
            factory = Device.pin_factory
        except (BadPinFactory, ImportError, OSError, RuntimeError) as exc:
            tried = "; ".join(str(w.message) for w in caught)
            log.warning("GPIO: %s present but no gpiozero pin factory loads (%s%s); using "
                        "gpiozero's MockFactory, the button and bell are NOT connected. On a Pi 5 "
                        "install lgpio (pip install 'bunco-appliance[pi]').",
                        ", ".join(chips), exc, f"; {tried}" if tried else "")
            return make_mock_factory()
    for w in caught:
        log.debug("GPIO: %s", w.message)
    log.info("GPIO: %s pin factory on %s", type(factory).__name__, ", ".join(chips))
    return factory
