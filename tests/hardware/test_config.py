"""PinConfig: defaults, and every bad setting named by its key and file."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from hardware.config import PIN_KEYS, PinConfig, PinConfigError

WIRING = Path(__file__).resolve().parents[2] / "hardware" / "WIRING.md"


def test_defaults_are_valid_and_distinct() -> None:
    cfg = PinConfig()
    pins = cfg.pins()
    assert set(pins) == set(PIN_KEYS)
    assert len(set(pins.values())) == len(pins)
    assert cfg.bell_kind == "relay" and cfg.bell_is_active_high is False  # relay boards: active-low
    assert cfg.button_hold_s == 2.0


def test_wiring_table_shows_the_default_pins() -> None:
    """The README's wiring table must not drift from the code's defaults."""
    text = WIRING.read_text()
    cfg = PinConfig()
    for key, pin in cfg.pins().items():
        row = next((line for line in text.splitlines() if f"`{key}`" in line and line.startswith("|")), None)
        assert row is not None, f"no table row for {key}"
        assert re.search(rf"\|\s*{pin}\s*\|", row), f"{key}: default {pin} not in row {row!r}"


def test_from_mapping_reads_a_toml_pins_table() -> None:
    data = tomllib.loads("""
[pins]
bell_pin = 5
bell_kind = "buzzer"
button_pin = 6
next_pin = false
led_pin = 13
led_pwm = false
ring_s = 1
button_hold_s = 1.5
""")
    cfg = PinConfig.from_mapping(data["pins"], source="unit.toml")
    assert (cfg.bell_pin, cfg.button_pin, cfg.next_pin, cfg.led_pin) == (5, 6, None, 13)
    assert cfg.bell_kind == "buzzer" and cfg.bell_is_active_high is True
    assert cfg.led_pwm is False and cfg.ring_s == 1.0 and isinstance(cfg.ring_s, float)
    assert cfg.pins() == {"bell_pin": 5, "button_pin": 6, "led_pin": 13}


@pytest.mark.parametrize(
    ("mapping", "key", "words"),
    [
        ({"buton_pin": 4}, "buton_pin", "did you mean button_pin"),
        ({"bell_pin": "17"}, "bell_pin", "BCM pin number"),
        ({"bell_pin": True}, "bell_pin", "BCM pin number"),
        ({"led_pin": 1.5}, "led_pin", "BCM pin number"),
        ({"bell_pin": 28}, "bell_pin", "does not exist"),
        ({"button_pin": -1}, "button_pin", "does not exist"),
        ({"led_pin": 40}, "led_pin", "BCM 0-27"),
        ({"button_pin": 22}, "button_pin", "already used by bell_pin"),
        ({"led_pin": 17}, "led_pin", "already used by button_pin"),
        ({"ring_s": "long"}, "ring_s", "number of seconds"),
        ({"ring_s": 0}, "ring_s", "outside"),
        ({"button_hold_s": 0.05}, "button_hold_s", "twice button_bounce_s"),
        ({"bell_kind": "gong"}, "bell_kind", "relay, buzzer, tonal"),
        ({"bell_kind": "tonal", "bell_active_high": False}, "bell_active_high", "cannot be active-low"),
        ({"led_pwm": "yes"}, "led_pwm", "true or false"),
    ],
)
def test_bad_settings_name_the_key_and_the_file(mapping: dict, key: str, words: str) -> None:
    with pytest.raises(PinConfigError) as info:
        PinConfig.from_mapping(mapping, source="/etc/bunco/table.toml")
    err = info.value
    assert err.key == key and err.source == "/etc/bunco/table.toml"
    assert str(err).startswith(f"pins.{key} in /etc/bunco/table.toml: ")
    assert words in str(err)


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(PinConfigError, match=r"^pins\.next_pin: BCM pin 22 is already used by bell_pin"):
        PinConfig(next_pin=22)


def test_unwired_optional_pins_never_conflict() -> None:
    cfg = PinConfig.from_mapping({"next_pin": False, "led_pin": False})
    assert cfg.next_pin is None and cfg.led_pin is None
    with pytest.raises(PinConfigError, match="button_pin"):
        PinConfig.from_mapping({"button_pin": False})  # the BUNCO! button is not optional


def test_bell_polarity_follows_the_kind_unless_set() -> None:
    assert PinConfig(bell_kind="relay").bell_is_active_high is False
    assert PinConfig(bell_kind="buzzer").bell_is_active_high is True
    assert PinConfig(bell_kind="tonal").bell_is_active_high is True
    assert PinConfig(bell_kind="relay", bell_active_high=True).bell_is_active_high is True


@given(st.lists(st.integers(0, 27), min_size=4, max_size=4))
def test_any_four_pins_build_exactly_when_distinct(pins: list[int]) -> None:
    mapping = dict(zip(PIN_KEYS, pins))
    if len(set(pins)) == 4:
        assert PinConfig.from_mapping(mapping).pins() == mapping
    else:
        with pytest.raises(PinConfigError) as info:
            PinConfig.from_mapping(mapping)
        key = info.value.key
        assert key in PIN_KEYS
        # the key named is the later of the two that share a pin
        assert mapping[key] in [mapping[k] for k in PIN_KEYS[: PIN_KEYS.index(key)]]
