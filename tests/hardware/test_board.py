"""Board: building, conflicts at gpiozero's level, closing."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockPWMPin

from hardware.board import Board
from hardware.config import PinConfig
from hardware.errors import DeviceError


def test_board_builds_every_device_on_its_pin(make_board, factory) -> None:
    board = make_board()
    assert board.is_fake
    cfg = board.config
    for key, pin in cfg.pins().items():
        assert factory.pin(pin).function == ("input" if key.endswith("button_pin") or key == "next_pin" else "output"), key
    assert board.next_button is not None and board.lights.led is not None


def test_a_pin_already_reserved_is_a_clear_error_naming_the_key(make_board, factory) -> None:
    make_board()
    with pytest.raises(DeviceError) as info:
        Board(PinConfig(), factory)  # a second board wants the same pins
    assert info.value.key == "bell_pin"
    assert str(info.value).startswith("pins.bell_pin: BCM pin 22")


def test_a_failed_build_releases_what_it_took(factory) -> None:
    # the LED pin is taken by something else: the bell and buttons built before it must be freed
    from gpiozero import LED
    blocker = LED(18, pin_factory=factory)
    with pytest.raises(DeviceError) as info:
        Board(PinConfig(), factory)
    assert info.value.key == "led_pin"
    blocker.close()
    with Board(PinConfig(), factory) as board:  # everything is free again
        assert board.lights.led is not None


def test_close_frees_the_pins(factory) -> None:
    board = Board(PinConfig(), factory)
    board.close()
    board.close()  # twice is harmless
    Board(PinConfig(), factory).close()


def test_simulation_refused_on_a_real_pin(make_board, factory) -> None:
    board = make_board()
    assert board.button.can_simulate

    class NotAMock:  # stands in for a real pin object (an lgpio pin)
        pass

    real_pin = board.button.device._pin
    board.button.device._pin = NotAMock()
    try:
        assert not board.button.can_simulate
        with pytest.raises(RuntimeError, match="real GPIO pin"):
            board.button.simulate_press()
    finally:
        board.button.device._pin = real_pin
    assert isinstance(real_pin, MockPWMPin)
