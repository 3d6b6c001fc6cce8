"""Fixtures for the hardware tests: gpiozero's own MockFactory, reset after every test."""

from __future__ import annotations

import threading
from typing import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.board import Board
from hardware.config import PinConfig
from hardware.factory import make_mock_factory

# Short lengths keep the suite fast; the logic does not depend on them.
FAST = dict(ring_s=0.04, gap_s=0.03, note_s=0.02, chirp_s=0.015,
            button_bounce_s=0.02, button_hold_s=0.15)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    before = Device.pin_factory
    f = make_mock_factory()
    yield f
    f.reset()
    f.close()
    assert Device.pin_factory is before, "hardware/ must not set gpiozero's global pin factory"


@pytest.fixture
def make_board(factory: MockFactory) -> Iterator[Callable[..., Board]]:
    boards: list[Board] = []

    def make(**settings: object) -> Board:
        board = Board(PinConfig(**{**FAST, **settings}), factory)
        boards.append(board)
        return board

    yield make
    for board in boards:
        board.close()


class Recorder:
    """Collects listener calls; wait() blocks on a Condition instead of sleeping."""

    def __init__(self) -> None:
        self.calls: list[object] = []
        self._cond = threading.Condition()

    def __call__(self, value: object) -> None:
        with self._cond:
            self.calls.append(value)
            self._cond.notify_all()

    def wait(self, timeout: float = 3.0, *, n: int = 1) -> bool:
        """True once `n` calls have arrived; False if `timeout` seconds pass first."""
        with self._cond:
            return self._cond.wait_for(lambda: len(self.calls) >= n, timeout)


@pytest.fixture
def recorder() -> Callable[[], Recorder]:
    return Recorder
