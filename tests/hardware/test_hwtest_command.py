"""`bunco hwtest` on fake pins: it must finish, report what the pins did, and never hang."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from appliance.cli import main

FAST_TOML = """
[pins]
ring_s = 0.04
gap_s = 0.03
note_s = 0.02
chirp_s = 0.015
button_bounce_s = 0.02
button_hold_s = 0.15
"""


@pytest.fixture
def fast_config(tmp_path: Path) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(FAST_TOML)
    return path


def test_hwtest_on_fake_pins_sees_everything(fast_config, capsys) -> None:
    rc = main(["hwtest", "--fake-gpio", "--config", str(fast_config), "--light-s", "0.25", "--timeout", "5"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "pin factory: MockFactory" in out
    # each bell pattern's pulses, counted on the mock pin
    assert re.search(r"one ring.*\n  pin BCM 22: 1 pulse\(s\)", out)
    assert re.search(r"three rings.*\n  pin BCM 22: 3 pulse\(s\)", out)
    assert re.search(r"fanfare\n  pin BCM 22: 6 pulse\(s\)", out)
    assert re.search(r"chirp\n  pin BCM 22: 2 pulse\(s\)", out)
    for state in ("idle", "your turn", "Bunco (fast blink)", "network lost", "off"):
        assert f"light: {state}" in out
    assert re.search(r"Bunco \(fast blink\)\n  pin BCM 18: [2-9] change", out)
    assert out.count("(fake pins: pressed in software)") == 3
    assert "result: press seen, hold seen, next seen" in out


def test_hwtest_without_a_press_times_out_and_fails(tmp_path, capsys) -> None:
    path = tmp_path / "t.toml"
    path.write_text(FAST_TOML + "next_pin = false\nled_pin = false\n")
    rc = main(["hwtest", "--fake-gpio", "--no-simulate", "--config", str(path),
               "--light-s", "0", "--timeout", "0.2"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "saw NO press in 0.2 s" in out and "saw NO hold in 0.2 s" in out
    assert "lights: no LED wired, skipped" in out
    assert "result: press NOT seen, hold NOT seen" in out and "next" not in out.split("result:")[1]


def test_hwtest_bad_pins_name_the_key_and_file(tmp_path, capsys) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[pins]\nbell_pin = 17\n")
    rc = main(["hwtest", "--fake-gpio", "--config", str(path)])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"pins.button_pin in {path}: BCM pin 17 is already used by bell_pin" in err
    assert err.count("\n") == 1  # one line, no traceback


def test_hwtest_missing_config_is_one_line(tmp_path, capsys) -> None:
    rc = main(["hwtest", "--fake-gpio", "--config", str(tmp_path / "nope.toml")])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot read" in err and err.count("\n") == 1
