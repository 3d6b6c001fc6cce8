"""Errors of the hardware package.

They live here, not in `appliance.errors`, because hardware/ must never import appliance; the
command layer translates them into the CLI's one-line errors.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Something about the wiring or the GPIO chip that a person can fix."""


class PinConfigError(HardwareError):
    """A bad `[pins]` setting; the message always names the key, and the file when known."""

    def __init__(self, key: str, problem: str, source: str | None = None) -> None:
        self.key = key
        self.problem = problem
        self.source = source
        where = f" in {source}" if source else ""
        super().__init__(f"pins.{key}{where}: {problem}")


class DeviceError(HardwareError):
    """gpiozero refused a device (pin busy, pin missing on this board); names the config key."""

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"pins.{key}: {problem}")
