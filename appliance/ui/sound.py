"""A bell chime synthesised in memory and played through pygame.mixer, when there is a sound card.

The real bell is a relay (hardware.bell); this is the on-screen bell's voice for tables
without one, or a laptop demo. A unit without audio must keep running, so a missing sound
card costs one log line and chime() returns False from then on.
"""

from __future__ import annotations

import logging

import numpy as np
import pygame

log = logging.getLogger(__name__)

RATE = 44100
STRIKE_GAP_S = 0.45
# Partials of a struck bell (Risset's bell: ratios to the fundamental, relative
# amplitudes, decay time constants in seconds). Inharmonic on purpose.
BELL_PARTIALS: tuple[tuple[float, float, float], ...] = (
    (0.56, 1.0, 1.2), (0.92, 0.67, 0.9), (1.19, 1.0, 0.65), (1.71, 1.8, 0.55),
    (2.00, 2.67, 0.33), (2.74, 1.67, 0.3), (3.00, 1.46, 0.25), (3.76, 1.33, 0.2),
    (4.07, 1.33, 0.15),
)

_unavailable: str | None = None
_cache: dict[tuple[int, float], pygame.mixer.Sound] = {}


def bell_wave(times: int = 1, base_hz: float = 880.0, length_s: float = 1.4, rate: int = RATE) -> np.ndarray:
    """Mono float samples in [-1, 1]: `times` strikes of a bell, STRIKE_GAP_S apart."""
    n_one = int(length_s * rate)
    t = np.arange(n_one) / rate
    one = np.zeros(n_one)
    for ratio, amp, tau in BELL_PARTIALS:
        one += amp * np.exp(-t / tau) * np.sin(2 * np.pi * base_hz * ratio * t)
    attack = min(n_one, int(0.004 * rate))  # no click at the start
    one[:attack] *= np.linspace(0.0, 1.0, attack)
    release = n_one // 6  # nor at the end
    one[-release:] *= np.linspace(1.0, 0.0, release)
    gap = int(STRIKE_GAP_S * rate)
    wave = np.zeros(n_one + gap * (times - 1))
    for k in range(times):
        wave[k * gap:k * gap + n_one] += one
    return wave / np.max(np.abs(wave))


def _mixer_ready() -> bool:
    global _unavailable
    if _unavailable is not None:
        return False
    if pygame.mixer.get_init():
        return True
    try:
        pygame.mixer.init(frequency=RATE, size=-16, channels=2)
    except pygame.error as exc:
        _unavailable = str(exc) or "no audio device"
        log.warning("no sound: %s (the bell will only show on screen)", _unavailable)
        return False
    return True


def bell_sound(times: int = 1, volume: float = 0.8) -> pygame.mixer.Sound | None:
    """The chime as a mixer Sound (cached), or None without a sound card."""
    if not _mixer_ready():
        return None
    key = (times, volume)
    if key not in _cache:
        rate, size, channels = pygame.mixer.get_init()
        wave = bell_wave(times, rate=rate) * volume
        if size == 32:          # float samples
            samples = wave.astype(np.float32)
        elif size == -16:
            samples = (wave * 32767).astype(np.int16)
        else:
            log.warning("no sound: the mixer runs %d-bit samples, the chime needs 16-bit or float", size)
            return None
        if channels > 1:
            samples = np.repeat(samples[:, None], channels, axis=1)
        _cache[key] = pygame.sndarray.make_sound(np.ascontiguousarray(samples))
    return _cache[key]


def chime(times: int = 1) -> bool:
    """Ring the bell `times` times without blocking; False (quietly) when there is no sound."""
    sound = bell_sound(times)
    if sound is None:
        return False
    sound.play()
    return True


def reset() -> None:
    """Forget a failed start and cached sounds (after plugging in a speaker; for tests)."""
    global _unavailable
    _unavailable = None
    _cache.clear()
