"""A press the pin saw reaches the game exactly once, while the table loop is busy reading frames.

The table loop (settle + the reader, in Python) holds the GIL for most of each frame; gpiozero's
callbacks and the debounce timer wait for it. A tap of 60 ms with the 50 ms debounce window used
to be judged by when those threads got to run, and was lost whenever they ran late. The presses
here are driven on gpiozero's MockPin from another thread while the real loop runs.
"""

from __future__ import annotations

import os
import random
import threading
import time

import pytest

from vision.synthetic import DICE_ROOT

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

pytestmark = pytest.mark.skipif(not (DICE_ROOT / "byler-d6").is_dir(), reason="needs ../shared/dice")

PRESSES_S = (0.06, 0.1, 0.3) * 3


def test_presses_of_60_100_300_ms_while_reading_frames_count_once_each(tmp_path):
    from appliance.game.rules import HouseRules
    from appliance.store import EventStore
    from appliance.table_app import TableApp, build_board, connect
    from appliance.table_unit import TableUnit
    from appliance.unit_config import UnitConfig
    from vision.settle import SettleDetector
    from vision.synthetic import Roll, SyntheticRolls

    config = UnitConfig()
    assert config.pins.button_bounce_s == 0.05 and config.pins.button_hold_s == 2.0  # the shipped values
    unit = TableUnit(EventStore.in_dir(tmp_path), ("Ann", "Bea", "Cat", "Dot"), HouseRules(sets=1), seed=3)
    board = build_board(config, fake_gpio=True)
    connect(unit, board, None)
    pressed: list[float] = []
    board.button.on_press(pressed.append)
    reached: list[int] = []
    unit.press = lambda: reached.append(1) or ()  # what the loop hands the game, counted
    source = SyntheticRolls([Roll((v, 2, 3)) for v in (1, 4, 6, 5, 2, 3) * 10], rng=random.Random(5),
                            root=str(DICE_ROOT), die_px=48.0)
    app = TableApp(unit=unit, source=source, settle=SettleDetector(expected_dice=3), board=board)
    pin = board.pin_factory.pin(config.pins.button_pin)
    done = threading.Event()
    frames_while_pressing: list[int] = []

    def finger() -> None:
        for seconds in PRESSES_S:
            frames_while_pressing.append(app._frames)
            pin.drive_low()
            time.sleep(seconds)  # the waveform itself: how long the finger stays down
            pin.drive_high()
            time.sleep(0.15)     # and the gap before the next press
        done.set()

    thread = threading.Thread(target=finger, daemon=True)
    try:
        thread.start()
        while not done.is_set():
            assert app.step(), "the synthetic stream ended before the presses did"
        thread.join()
        assert board.button.wait_idle(5)  # the last release is judged bounce_s after it
        app.step()  # and the loop hands it to the game
    finally:
        board.close()
    assert frames_while_pressing[-1] > frames_while_pressing[0]  # the loop really was reading meanwhile
    assert len(pressed) == len(PRESSES_S)
    assert len(reached) == len(PRESSES_S)
