"""The bell patterns rendered as audio: right length, right notes, silence where the pin is off."""

from __future__ import annotations

import numpy as np
import pytest
from gpiozero.tones import Tone

from hardware.bell import FANFARE_NOTES, patterns_for
from hardware.config import PinConfig
from hardware.sound import SAMPLE_RATE, render

PATTERNS = patterns_for(PinConfig())


def dominant_hz(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.fft.rfftfreq(len(samples), 1 / SAMPLE_RATE)[np.argmax(spectrum)])


def test_tonal_fanfare_plays_its_notes_in_order() -> None:
    steps = PATTERNS["fanfare"]
    audio = render(steps, "tonal")
    assert audio.dtype == np.int16
    assert len(audio) == pytest.approx(sum(s.seconds for s in steps) * SAMPLE_RATE, abs=2)
    t = 0.0
    heard = []
    for step in steps:
        a, b = int(t * SAMPLE_RATE), int((t + step.seconds) * SAMPLE_RATE)
        chunk = audio[a:b].astype(float)
        if step.on:
            heard.append(dominant_hz(chunk))
        else:
            assert np.max(np.abs(chunk)) < 50  # the gap between notes is silent
        t += step.seconds
    expected = [Tone(n).frequency for n, _ in FANFARE_NOTES]
    # FFT bins of the shortest note are ~7 Hz wide
    assert heard == pytest.approx(expected, abs=12)


def test_buzzer_is_silent_between_rings() -> None:
    steps = PATTERNS["ring_end"]
    audio = render(steps, "buzzer").astype(float)
    ring, gap = steps[0].seconds, steps[1].seconds
    on = audio[: int(ring * SAMPLE_RATE)]
    off = audio[int((ring + 0.01) * SAMPLE_RATE): int((ring + gap - 0.01) * SAMPLE_RATE)]
    assert np.sqrt(np.mean(on ** 2)) > 3000 and np.max(np.abs(off)) == 0
    assert np.max(np.abs(audio)) == pytest.approx(0.6 * 32767, rel=0.01)


def test_relay_bell_is_struck_once_per_ring_and_rings_on() -> None:
    steps = PATTERNS["ring_end"]
    audio = render(steps, "relay").astype(float)
    length = sum(s.seconds for s in steps)
    assert len(audio) > length * SAMPLE_RATE  # the last strike rings past the pattern
    # loudness in 20 ms windows: it jumps at each of the three strikes and decays between
    win = int(0.02 * SAMPLE_RATE)
    rms = np.sqrt(np.mean(audio[: len(audio) // win * win].reshape(-1, win) ** 2, axis=1))
    jumps = np.flatnonzero(rms[1:] > 1.5 * rms[:-1] + 100) + 1
    strikes = [0.0, steps[0].seconds + steps[1].seconds, 2 * (steps[0].seconds + steps[1].seconds)]
    assert len(jumps) >= 2
    for s in strikes[1:]:
        assert any(abs(j * 0.02 - s) <= 0.03 for j in jumps), (s, jumps * 0.02)
    assert rms[-1] < rms.max() / 4  # it has died away by the end


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        render(PATTERNS["chirp"], "gong")
