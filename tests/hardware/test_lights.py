"""The status LED's looks, read back from the mock PWM pin."""

from __future__ import annotations

import time

import pytest

from hardware.lights import IDLE_LEVEL, LIGHT_STATES


def levels_over(pin, seconds: float) -> list[float]:
    """What the pin does in the next `seconds`: for "nothing changes" checks."""
    pin.clear_states()
    time.sleep(seconds)
    return [float(st.state) for st in pin.states]


def levels_until(pin, enough, timeout: float = 5.0) -> list[float]:
    """The pin's levels from now until `enough(levels)` holds: a blink thread starved by a busy
    machine only makes this wait longer, it cannot make it fail."""
    pin.clear_states()
    deadline = time.monotonic() + timeout
    while True:
        seen = [float(st.state) for st in pin.states]
        if enough(seen) or time.monotonic() > deadline:
            return seen
        time.sleep(0.01)


def test_pwm_led_states(make_board, factory) -> None:
    board = make_board()
    pin = factory.pin(board.config.led_pin)
    assert pin.function == "output" and pin.state == 0

    board.lights.show("idle")
    assert pin.state == pytest.approx(IDLE_LEVEL)  # a dim glow, steady
    assert levels_over(pin, 0.1) == [pytest.approx(IDLE_LEVEL)]

    board.lights.show("your_turn")
    assert pin.state == 1.0
    assert levels_over(pin, 0.1) == [1.0]

    board.lights.show("bunco")  # fast blink: 0.1 s on, 0.1 s off
    seen = levels_until(pin, lambda seen: len(seen) >= 4)
    assert set(seen) == {0.0, 1.0} and len(seen) >= 4

    board.lights.show("network_lost")  # slow pulse: fades, so levels between 0 and 1
    seen = levels_until(pin, lambda seen: len(seen) >= 5)
    assert any(0.0 < v < 1.0 for v in seen) and len(seen) >= 5

    board.lights.show("off")
    time.sleep(0.05)
    assert levels_over(pin, 0.1) == [0.0]
    assert board.lights.state == "off"


def test_plain_led_states(make_board, factory) -> None:
    board = make_board(led_pwm=False)
    pin = factory.pin(board.config.led_pin)
    board.lights.show("your_turn")
    assert pin.state == 1
    board.lights.show("bunco")
    assert set(levels_until(pin, lambda seen: set(seen) == {0, 1})) == {0, 1}
    board.lights.show("idle")  # no PWM: a short blip every 2 s instead of a glow
    assert levels_until(pin, lambda seen: len(seen) >= 2)[:2] in ([0, 1], [1, 0])
    board.lights.show("network_lost")  # no PWM: slow blink, nothing in between
    assert set(levels_until(pin, lambda seen: len(seen) >= 3)) <= {0, 1}
    board.lights.show("off")
    assert pin.state == 0


def test_active_low_led(make_board, factory) -> None:
    board = make_board(led_pwm=False, led_active_high=False)
    pin = factory.pin(board.config.led_pin)
    assert pin.state == 1  # off
    board.lights.show("your_turn")
    assert pin.state == 0


def test_same_state_again_does_not_restart_the_blink(make_board, factory, recorder) -> None:
    board = make_board()
    changes = recorder()
    board.lights.on_change(changes)
    board.lights.show("bunco")
    thread = board.lights.led._blink_thread
    board.lights.show("bunco")
    assert board.lights.led._blink_thread is thread
    assert changes.calls == ["bunco"]


def test_unknown_state_is_refused(make_board) -> None:
    board = make_board()
    with pytest.raises(ValueError, match="known: off, idle"):
        board.lights.show("party")
    assert board.lights.state == "off"


def test_no_led_wired_still_tracks_the_state(make_board, recorder) -> None:
    board = make_board(led_pin=None)
    changes = recorder()
    board.lights.on_change(changes)
    for state in LIGHT_STATES[1:]:
        board.lights.show(state)
    assert board.lights.led is None
    assert changes.calls == list(LIGHT_STATES[1:])
