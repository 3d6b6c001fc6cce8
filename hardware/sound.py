"""The bell's patterns as audio samples, for a desktop without a bell (the screen plays them).

The same Step tables that drive the pin are rendered here, so the sound card rings exactly the
pattern the relay would. A relay bell becomes a struck bell (a few inharmonic partials dying
away); a buzzer a plain square-ish tone; a tonal buzzer its notes.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from gpiozero.tones import Tone

from hardware.bell import RING_NOTE, Step

__all__ = ["render", "SAMPLE_RATE"]

SAMPLE_RATE = 44100
# Partials of a small bell relative to its strike note, with their loudness and decay rate (1/s).
_BELL_PARTIALS: tuple[tuple[float, float, float], ...] = (
    (0.5, 0.35, 2.0), (1.0, 1.0, 3.0), (1.19, 0.45, 4.0), (1.5, 0.3, 5.0),
    (2.0, 0.4, 6.0), (2.52, 0.2, 8.0), (3.0, 0.15, 10.0))
_BELL_TAIL_S = 0.6  # a struck bell rings on after the striker stops
_FADE_S = 0.004     # tiny fades so tones start and stop without clicks


def render(steps: Sequence[Step], kind: str = "relay", sample_rate: int = SAMPLE_RATE,
           volume: float = 0.6) -> np.ndarray:
    """Mono int16 samples of one pattern.

    kind "relay": each on-step strikes a bell at its start, which rings through the gaps and
    `_BELL_TAIL_S` past the end; "buzzer"/"tonal": a tone exactly as long as each on-step
    (the buzzer at the ring note, the tonal buzzer at the step's note).
    """
    if kind not in ("relay", "buzzer", "tonal"):
        raise ValueError(f"unknown bell kind {kind!r}")
    starts = np.cumsum([0.0] + [s.seconds for s in steps])
    total = float(starts[-1]) + (_BELL_TAIL_S if kind == "relay" else 0.0)
    out = np.zeros(int(round(total * sample_rate)) + 1, dtype=np.float64)
    for step, start in zip(steps, starts[:-1]):
        if not step.on:
            continue
        first = int(round(start * sample_rate))
        if kind == "relay":
            length = len(out) - first
            t = np.arange(length) / sample_rate
            base = Tone(RING_NOTE).frequency
            wave = sum(a * np.exp(-d * t) * np.sin(2 * np.pi * base * r * t) for r, a, d in _BELL_PARTIALS)
        else:
            length = int(round(step.seconds * sample_rate))
            t = np.arange(length) / sample_rate
            freq = Tone(step.note or RING_NOTE).frequency if kind == "tonal" else Tone(RING_NOTE).frequency
            phase = 2 * np.pi * freq * t
            # a piezo's square wave, softened: fundamental plus odd harmonics
            wave = np.sin(phase) + np.sin(3 * phase) / 3 + np.sin(5 * phase) / 5
        wave = np.asarray(wave, dtype=np.float64)
        fade = min(int(_FADE_S * sample_rate), len(wave) // 2)
        if fade:
            ramp = np.linspace(0.0, 1.0, fade)
            wave[:fade] *= ramp
            if kind != "relay":
                wave[-fade:] *= ramp[::-1]
        out[first:first + len(wave)] += wave[: len(out) - first]
    peak = float(np.max(np.abs(out))) if len(out) else 0.0
    if peak > 0:
        out *= volume / peak
    return np.round(out * 32767).astype(np.int16)
