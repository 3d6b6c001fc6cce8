"""The bell's patterns, read back from gpiozero's mock pin history."""

from __future__ import annotations


import pytest
from gpiozero.pins.mock import MockPWMPin
from gpiozero.tones import Tone

from hardware.bell import FANFARE_NOTES, RING_NOTE, patterns_for
from hardware.config import PinConfig
from hardware.mockpins import pulses

# (pattern, number of rings) for a relay or plain buzzer
RINGS = [("ring_start", 1), ("ring_end", 3), ("fanfare", len(FANFARE_NOTES)), ("chirp", 2)]


def play_and_wait(board, name: str) -> None:
    board.bell.play(name)
    assert board.bell.wait_idle(5), f"{name} did not finish"


@pytest.mark.parametrize(("name", "rings"), RINGS)
def test_relay_is_active_low_by_default(make_board, factory, name: str, rings: int) -> None:
    board = make_board()
    pin = factory.pin(board.config.bell_pin)
    assert pin.state == 1  # relay off = input high, from the moment the bell exists
    pin.clear_states()
    play_and_wait(board, name)
    # every ring pulls the pin low, then it goes back high; nothing else happens
    pin.assert_states([1, 0, 1] * 1)
    assert [st.state for st in pin.states] == [1] + [0, 1] * rings
    assert pin.state == 1


def test_relay_active_high_when_configured(make_board, factory) -> None:
    board = make_board(bell_active_high=True)
    pin = factory.pin(board.config.bell_pin)
    assert pin.state == 0
    pin.clear_states()
    play_and_wait(board, "ring_end")
    assert [st.state for st in pin.states] == [0, 1, 0, 1, 0, 1, 0]


def test_ring_lengths_are_the_settings(make_board, factory) -> None:
    board = make_board(ring_s=0.06, gap_s=0.08)
    pin = factory.pin(board.config.bell_pin)
    pin.clear_states()
    play_and_wait(board, "ring_end")
    on = pulses(pin.states, active_high=False)
    # each PinState holds the time since the previous change: a change to 0 (on) after the
    # first one ends a gap between rings
    off = [st.timestamp for st in pin.states[3:] if st.state == 0]
    assert len(on) == 3 and len(off) == 2
    assert on == pytest.approx([st.timestamp for st in pin.states[2::2]])
    # Event.wait never returns early; the upper bound is loose for a busy machine
    assert all(0.06 <= s < 0.06 + 0.25 for s in on), on
    assert all(0.08 - 0.005 <= s < 0.08 + 0.25 for s in off), off


def test_buzzer_is_active_high_by_default(make_board, factory) -> None:
    board = make_board(bell_kind="buzzer")
    pin = factory.pin(board.config.bell_pin)
    pin.clear_states()
    play_and_wait(board, "chirp")
    assert [st.state for st in pin.states] == [0, 1, 0, 1, 0]


class FrequencyPin(MockPWMPin):
    """A MockPWMPin that also remembers every frequency it was given (the notes played)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.frequencies: list[float | None] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.frequencies.append(value)


def test_tonal_buzzer_plays_the_fanfare_tune(make_board, factory) -> None:
    pin = factory.pin(22, pin_class=FrequencyPin)
    board = make_board(bell_kind="tonal", bell_pin=22)
    pin.clear_states()
    pin.frequencies.clear()
    play_and_wait(board, "fanfare")
    notes = [f for f in pin.frequencies if f is not None]
    assert notes == pytest.approx([Tone(n).frequency for n, _ in FANFARE_NOTES])
    # each note sounds at 50 % duty and is followed by silence (frequency None -> 0.0)
    assert [st.state for st in pin.states] == [0.0] + [0.5, 0.0] * len(FANFARE_NOTES)


@pytest.mark.parametrize(("name", "rings"), RINGS)
def test_tonal_buzzer_rings_every_pattern(make_board, factory, name: str, rings: int) -> None:
    pin = factory.pin(22, pin_class=FrequencyPin)
    board = make_board(bell_kind="tonal", bell_pin=22)
    pin.frequencies.clear()
    play_and_wait(board, name)
    assert len([f for f in pin.frequencies if f is not None]) == rings
    if name in ("ring_start", "ring_end"):
        assert [f for f in pin.frequencies if f] == pytest.approx([Tone(RING_NOTE).frequency] * rings)
    assert pin.frequency is None  # silent afterwards


def test_ringing_never_blocks_the_caller(make_board, factory, recorder) -> None:
    board = make_board(ring_s=0.3, gap_s=0.3)
    started = recorder()
    board.bell.on_ring(started)
    board.bell.ring_end()  # 1.5 s of pattern
    # it returned; the pattern is still ahead of us
    assert board.bell.busy and not board.bell.wait_idle(0)
    assert started.wait(1) and started.calls == ["ring_end"]
    board.bell.stop()
    assert board.bell.wait_idle(2)
    assert factory.pin(board.config.bell_pin).state == 1  # stopped = relay released


def test_patterns_play_in_order_and_listeners_hear_each(make_board, recorder) -> None:
    board = make_board()
    heard = recorder()
    board.bell.on_ring(heard)
    board.bell.ring_start()
    board.bell.fanfare()
    board.bell.chirp()
    board.bell.ring_end()
    assert board.bell.wait_idle(5)
    assert heard.calls == ["ring_start", "fanfare", "chirp", "ring_end"]


def test_a_broken_listener_does_not_silence_the_bell(make_board, factory, recorder, caplog) -> None:
    board = make_board()

    def broken(name: str) -> None:
        raise RuntimeError("screen went away")

    board.bell.on_ring(broken)
    good = recorder()
    board.bell.on_ring(good)
    pin = factory.pin(board.config.bell_pin)
    pin.clear_states()
    play_and_wait(board, "ring_start")
    assert good.calls == ["ring_start"]
    assert [st.state for st in pin.states] == [1, 0, 1]
    assert "screen went away" in caplog.text


def test_stop_drops_queued_patterns_but_later_ones_play(make_board, recorder) -> None:
    board = make_board(ring_s=0.2)
    heard = recorder()
    board.bell.on_ring(heard)
    for _ in range(3):
        board.bell.ring_end()
    assert heard.wait(1)
    board.bell.stop()
    assert board.bell.wait_idle(2)
    board.bell.chirp()
    assert board.bell.wait_idle(2)
    assert heard.calls == ["ring_end", "chirp"]


def test_unknown_pattern_is_refused(make_board) -> None:
    with pytest.raises(ValueError, match="known: ring_start"):
        make_board().bell.play("gong")


def test_pattern_table_uses_the_config() -> None:
    p = patterns_for(PinConfig(ring_s=1.0, gap_s=0.5, chirp_s=0.05))
    assert [s.seconds for s in p["ring_end"]] == [1.0, 0.5, 1.0, 0.5, 1.0]
    assert [s.on for s in p["ring_end"]] == [True, False, True, False, True]
    assert sum(s.on for s in p["chirp"]) == 2 and all(s.seconds == 0.05 for s in p["chirp"])
