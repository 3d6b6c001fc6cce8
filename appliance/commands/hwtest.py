"""`bunco hwtest`: the installer's self-test of a freshly wired unit (like gpiozero's pintest).

It rings each bell pattern, shows each light state, then waits for a press and a hold of the
BUNCO! button (and a press of the next button when one is configured) and prints what it saw.
On fake pins (`--fake-gpio`, or no GPIO chip) it presses the mock pins itself unless told not
to, so it runs anywhere; every wait has a timeout, so it never hangs.
"""

from __future__ import annotations

import argparse
import threading
import time
import tomllib
from pathlib import Path
from typing import Any, TextIO

HELP = "self-test the wiring: ring the bell, light the LED, wait for the buttons"

BELL_WORDS = {
    "ring_start": "one ring (round starts)",
    "ring_end": "three rings (round ends)",
    "fanfare": "the Bunco fanfare",
    "chirp": "the error chirp",
}
LIGHT_WORDS = {
    "idle": "idle (dim glow, or a heartbeat blip)",
    "your_turn": "your turn (steady on)",
    "bunco": "Bunco (fast blink)",
    "network_lost": "network lost (slow pulse)",
    "off": "off",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="the unit's TOML config; its [pins] table is tested (default: the built-in pins)")
    parser.add_argument("--fake-gpio", action="store_true",
                        help="use gpiozero's MockFactory instead of the real pins")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S",
                        help="seconds to wait for each button action (default 30)")
    parser.add_argument("--light-s", type=float, default=2.0, metavar="S",
                        help="seconds to show each light state (default 2)")
    parser.add_argument("--no-simulate", action="store_true",
                        help="on fake pins, do not press the buttons in software; just wait (and time out)")


def load_pin_config(path: Path | None) -> Any:
    """PinConfig from the [pins] table of a TOML file, or the defaults."""
    from appliance.errors import ConfigError, UserError
    from hardware.config import PinConfig, PinConfigError

    if path is None:
        return PinConfig()
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path} is not valid TOML: {exc}") from exc
    try:
        return PinConfig.from_mapping(data.get("pins", {}), source=str(path))
    except PinConfigError as exc:
        raise ConfigError(f"pins.{exc.key}", exc.problem, exc.source) from exc


def run(args: argparse.Namespace) -> int:
    from appliance.errors import UserError
    from hardware.board import Board
    from hardware.errors import HardwareError
    from hardware.factory import make_pin_factory

    if args.timeout <= 0 or args.light_s < 0:
        raise UserError("--timeout must be above 0 and --light-s not below 0")
    config = load_pin_config(args.config)
    factory = make_pin_factory(args.fake_gpio)
    try:
        try:
            board = Board(config, factory)
        except HardwareError as exc:
            raise UserError(str(exc)) from exc
        with board:
            return HardwareTest(board, args.timeout, args.light_s,
                                simulate=board.is_fake and not args.no_simulate).run()
    finally:
        factory.close()


class HardwareTest:
    """The steps of the self-test; prints as it goes, returns 0 when every button was seen."""

    def __init__(self, board: Any, timeout: float, light_s: float, simulate: bool,
                 out: TextIO | None = None) -> None:
        self.board = board
        self.timeout = timeout
        self.light_s = light_s
        self.simulate = simulate
        self.out = out

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> int:
        cfg = self.board.config
        fake = self.board.is_fake
        self.say(f"pin factory: {type(self.board.pin_factory).__name__}"
                 + (" (fake pins: nothing is wired)" if fake else ""))
        polarity = "active-high" if cfg.bell_is_active_high else "active-low"
        self.say(f"bell: {cfg.bell_kind} on BCM {cfg.bell_pin}"
                 + ("" if cfg.bell_kind == "tonal" else f", {polarity}"))
        self.say(f"BUNCO! button: BCM {cfg.button_pin} (to ground), hold {cfg.button_hold_s:g} s")
        self.say(f"next button: {'BCM %d' % cfg.next_pin if cfg.next_pin is not None else 'not wired'}")
        led = "not wired" if cfg.led_pin is None else (
            f"BCM {cfg.led_pin}, {'PWM' if cfg.led_pwm else 'on/off'}")
        self.say(f"LED: {led}")
        self.bell_steps(fake)
        self.light_steps(fake)
        seen = {"press": self.wait_button(self.board.button, "press"),
                "hold": self.wait_button(self.board.button, "hold")}
        if self.board.next_button is not None:
            seen["next"] = self.wait_button(self.board.next_button, "press")
        self.say("result: " + ", ".join(f"{k} {'seen' if v else 'NOT seen'}" for k, v in seen.items()))
        return 0 if all(seen.values()) else 1

    def bell_steps(self, fake: bool) -> None:
        from hardware.mockpins import pulses

        bell = self.board.bell
        pin = bell.device.pin if bell.kind != "tonal" else bell.device.pwm_device.pin
        active_high = True if bell.kind == "tonal" else self.board.config.bell_is_active_high
        for name in bell.patterns:
            if fake:
                pin.clear_states()
            self.say(f"bell: {BELL_WORDS.get(name, name)}" + ("" if fake else ", listen"))
            bell.play(name)
            longest = sum(step.seconds for step in bell.patterns[name]) + 5.0
            if not bell.wait_idle(longest):
                self.say(f"  the {name} pattern did not finish in {longest:.1f} s")
                bell.stop()
                continue
            if fake:
                lengths = pulses(pin.states, active_high)
                self.say(f"  pin BCM {pin.info.name.removeprefix('GPIO')}: {len(lengths)} pulse(s) "
                         + ", ".join(f"{s:.2f}" for s in lengths) + " s")
            time.sleep(0.3 if not fake else 0.0)

    def light_steps(self, fake: bool) -> None:
        lights = self.board.lights
        if lights.led is None:
            self.say("lights: no LED wired, skipped")
            return
        pin = lights.led.pin
        for state in ("idle", "your_turn", "bunco", "network_lost", "off"):
            if fake:
                pin.clear_states()
            self.say(f"light: {LIGHT_WORDS[state]}" + ("" if fake else f", look ({self.light_s:g} s)"))
            lights.show(state)
            time.sleep(self.light_s)
            if fake:
                levels = sorted({round(float(s.state), 2) for s in pin.states})
                self.say(f"  pin BCM {pin.info.name.removeprefix('GPIO')}: {len(pin.states) - 1} change(s), "
                         f"levels {levels}")

    def wait_button(self, button: Any, action: str) -> bool:
        done = threading.Event()
        seen: list[float] = []

        def heard(t: float) -> None:
            seen.append(t)
            done.set()

        (button.on_press if action == "press" else button.on_hold)(heard)
        what = "press and release it" if action == "press" else f"hold it down for {button.hold_s:g} s"
        self.say(f"{button.name}: {what} now (waiting up to {self.timeout:g} s)")
        start = time.monotonic()
        if self.simulate:
            (button.simulate_press if action == "press" else button.simulate_hold)()
            self.say("  (fake pins: pressed in software)")
        ok = done.wait(self.timeout)
        if ok:
            when = "went down" if action == "press" else "was recognised"
            self.say(f"  saw the {action}: it {when} {seen[0] - start:+.2f} s after asking"
                     + (f" ({button.bounces} bounce edge(s) ignored)" if button.bounces else ""))
        else:
            self.say(f"  saw NO {action} in {self.timeout:g} s")
        # Let the release of a hold pass before the next step listens.
        button.device.wait_for_inactive(timeout=min(self.timeout, button.hold_s + 1.0))
        time.sleep(button.bounce_s * 2)
        return ok
