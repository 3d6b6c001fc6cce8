"""Which BCM pin drives what, and the bell and button timings: the `[pins]` table of a unit's config.

Every check happens here, before gpiozero is touched, so that a typo in the config file becomes
one sentence naming the key and the file instead of a gpiozero traceback on the party night.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, fields
from typing import Any, Literal, Mapping

from hardware.errors import PinConfigError

__all__ = ["PinConfig", "PinConfigError", "BELL_KINDS", "BCM_PINS", "PIN_KEYS"]

BellKind = Literal["relay", "buzzer", "tonal"]
BELL_KINDS: tuple[str, ...] = ("relay", "buzzer", "tonal")
# The 40-pin header of every Pi since the B+ exposes BCM 0..27.
BCM_PINS = range(0, 28)
# Keys holding a pin; the order is the order conflicts are reported in.
PIN_KEYS: tuple[str, ...] = ("bell_pin", "button_pin", "next_pin", "led_pin")
_OPTIONAL_PINS = frozenset({"next_pin", "led_pin"})
_LENGTH_LIMITS: dict[str, tuple[float, float]] = {
    # key: (smallest, largest) in seconds; 0 is allowed only where it means "none".
    "ring_s": (0.02, 10.0),
    "gap_s": (0.02, 10.0),
    "note_s": (0.02, 2.0),
    "chirp_s": (0.01, 1.0),
    "button_bounce_s": (0.0, 0.5),
    "button_hold_s": (0.02, 30.0),
}


@dataclass(frozen=True)
class PinConfig:
    """The wiring of one unit. Defaults match hardware/WIRING.md.

    Pins are BCM numbers. `next_pin` and `led_pin` may be None (not wired); in a TOML file that
    is written `false`, since TOML has no null. `bell_active_high` None means "the usual for this
    bell kind": active-low for a relay (most relay boards switch on a low input), active-high
    for a buzzer; a tonal buzzer is PWM-driven and has no polarity setting.
    """

    bell_pin: int = 22
    bell_kind: BellKind = "relay"
    bell_active_high: bool | None = None
    ring_s: float = 0.5
    gap_s: float = 0.35
    note_s: float = 0.15
    chirp_s: float = 0.06
    button_pin: int = 17
    button_bounce_s: float = 0.05
    button_hold_s: float = 2.0
    next_pin: int | None = 27
    led_pin: int | None = 18
    led_pwm: bool = True
    led_active_high: bool = True

    def __post_init__(self) -> None:
        self._validate()

    @property
    def bell_is_active_high(self) -> bool:
        """The polarity actually used for the bell output."""
        if self.bell_active_high is not None:
            return self.bell_active_high
        return self.bell_kind != "relay"

    def pins(self) -> dict[str, int]:
        """key -> BCM pin, for the wired devices only."""
        return {k: getattr(self, k) for k in PIN_KEYS if getattr(self, k) is not None}

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], source: str | None = None) -> "PinConfig":
        """Build from a config table (e.g. TOML `[pins]`); missing keys take the defaults.

        Raises PinConfigError naming the key (and `source`, the file) for an unknown key, a
        wrong type, a pin outside BCM 0-27 or two devices on one pin.
        """
        if not isinstance(mapping, Mapping):
            raise PinConfigError("(table)", f"expected a table of settings, got {type(mapping).__name__}", source)
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in mapping.items():
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f" (did you mean {close[0]}?)" if close else f"; known keys: {', '.join(known)}"
                raise PinConfigError(str(key), f"unknown setting{hint}", source)
            kwargs[key] = _coerce(key, value, source)
        try:
            return cls(**kwargs)
        except PinConfigError as exc:
            raise PinConfigError(exc.key, exc.problem, source) from None

    def _validate(self) -> None:
        if self.bell_kind not in BELL_KINDS:
            raise PinConfigError("bell_kind", f"must be one of {', '.join(BELL_KINDS)}, not {self.bell_kind!r}")
        for key in PIN_KEYS:
            value = getattr(self, key)
            if value is None and key in _OPTIONAL_PINS:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise PinConfigError(key, f"must be a BCM pin number, not {value!r}")
            if value not in BCM_PINS:
                raise PinConfigError(
                    key, f"BCM pin {value} does not exist on the 40-pin header (BCM 0-27)")
        seen: dict[int, str] = {}
        for key, pin in self.pins().items():
            if pin in seen:
                raise PinConfigError(key, f"BCM pin {pin} is already used by {seen[pin]}")
            seen[pin] = key
        for key, (low, high) in _LENGTH_LIMITS.items():
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise PinConfigError(key, f"must be a number of seconds, not {value!r}")
            if not low <= value <= high:
                raise PinConfigError(key, f"{value} s is outside {low}-{high} s")
        if self.button_hold_s <= 2 * self.button_bounce_s:
            raise PinConfigError(
                "button_hold_s",
                f"{self.button_hold_s} s must be longer than twice button_bounce_s "
                f"({self.button_bounce_s} s), or every press would count as a hold")
        for key in ("led_pwm", "led_active_high"):
            if not isinstance(getattr(self, key), bool):
                raise PinConfigError(key, f"must be true or false, not {getattr(self, key)!r}")
        if self.bell_active_high is not None and not isinstance(self.bell_active_high, bool):
            raise PinConfigError("bell_active_high", f"must be true or false, not {self.bell_active_high!r}")
        if self.bell_kind == "tonal" and self.bell_active_high is False:
            raise PinConfigError(
                "bell_active_high", "a tonal buzzer is driven by PWM and cannot be active-low")


def _coerce(key: str, value: Any, source: str | None) -> Any:
    """Type checks for values read from a file; TOML `false` means "not wired" for optional pins."""
    if key in _OPTIONAL_PINS and value is False:
        return None
    if key in PIN_KEYS:
        if isinstance(value, bool) or not isinstance(value, int):
            extra = " (or false when not wired)" if key in _OPTIONAL_PINS else ""
            raise PinConfigError(key, f"must be a BCM pin number{extra}, not {value!r}", source)
        return value
    if key in _LENGTH_LIMITS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise PinConfigError(key, f"must be a number of seconds, not {value!r}", source)
        return float(value)
    if key in ("led_pwm", "led_active_high", "bell_active_high"):
        if not isinstance(value, bool):
            raise PinConfigError(key, f"must be true or false, not {value!r}", source)
        return value
    if key == "bell_kind":
        if not isinstance(value, str):
            raise PinConfigError(key, f"must be one of {', '.join(BELL_KINDS)}, not {value!r}", source)
        return value.strip().lower()
    return value
