"""The bell chime: a real synthesised waveform, played through SDL's dummy audio driver."""

import logging

import numpy as np
import pygame
import pytest

from appliance.ui import sound


@pytest.fixture(autouse=True)
def fresh_mixer():
    pygame.mixer.quit()
    sound.reset()
    yield
    pygame.mixer.quit()
    sound.reset()


def test_bell_wave_is_normalised_and_decays():
    wave = sound.bell_wave(times=1, rate=8000)
    assert len(wave) == int(1.4 * 8000)
    assert np.max(np.abs(wave)) == pytest.approx(1.0)
    tenth = len(wave) // 10
    rms = lambda a: float(np.sqrt(np.mean(a ** 2)))  # noqa: E731
    assert rms(wave[-tenth:]) < rms(wave[:tenth]) / 10        # a bell rings out
    assert abs(wave[0]) < 0.01 and abs(wave[-1]) < 0.01         # no click at either end


def test_three_strikes_make_three_onsets():
    rate = 8000
    wave = sound.bell_wave(times=3, rate=rate)
    gap = int(sound.STRIKE_GAP_S * rate)
    assert len(wave) == int(1.4 * rate) + 2 * gap
    env = np.abs(wave)
    win = int(0.02 * rate)
    # Just after each strike the sound is louder than just before it.
    for k in (1, 2):
        before = env[k * gap - win:k * gap].mean()
        after = env[k * gap + win:k * gap + 2 * win].mean()
        assert after > 1.3 * before


def test_chime_plays_through_the_mixer(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    assert sound.chime(3) is True
    rate, _size, channels = pygame.mixer.get_init()
    snd = sound.bell_sound(3)
    assert snd is not None
    assert snd.get_length() == pytest.approx(1.4 + 2 * sound.STRIKE_GAP_S, abs=0.01)
    samples = pygame.sndarray.array(snd)
    assert samples.shape[0] == pytest.approx(rate * snd.get_length(), abs=2)
    assert np.abs(samples).max() > 20000                      # loud enough, not clipped silence


def test_no_sound_card_is_one_log_line_and_false(monkeypatch, caplog):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no_such_audio_driver")
    with caplog.at_level(logging.WARNING, logger="appliance.ui.sound"):
        assert sound.chime() is False
        assert sound.chime(3) is False
    lines = [r for r in caplog.records if r.name == "appliance.ui.sound"]
    assert len(lines) == 1
    assert "no sound" in lines[0].getMessage()
