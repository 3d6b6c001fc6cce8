"""The networks' training data that needs no torch: recolouring, round spots, crowded trays."""

from __future__ import annotations

import numpy as np

from vision.drawn import background, draw_die, random_look, random_pose
from vision.training.data import drawn_frame, recolour, spot


def _ivory_die(rng: np.random.Generator) -> np.ndarray:
    img = np.full((96, 96, 3), 120, np.uint8)
    draw_die(img, random_look(rng, "white", "black"), random_pose(rng, 5, 48, 48, 48, max_tilt=0.0), rng)
    return img


def test_recolour_keeps_the_pips_apart_from_the_body_in_new_colours():
    rng = np.random.default_rng(7)
    die = _ivory_die(rng)
    body, pip = die[48, 48 - 14].astype(float), die[48, 48].astype(float)  # a five: a pip at the centre
    assert np.linalg.norm(body - pip) > 150
    means = []
    for _ in range(50):
        out = recolour(die, rng)
        assert out.shape == die.shape and out.dtype == np.uint8
        # gains of 0.6-1.3: the contrast shrinks at most to 0.6 (less where a channel clips)
        assert np.linalg.norm(out[48, 48 - 14].astype(float) - out[48, 48].astype(float)) > 0.35 * np.linalg.norm(body - pip)
        means.append(out.reshape(-1, 3).mean(axis=0))
    # and the colours are new: the mean colour wanders well away from the grey it was
    assert np.ptp(np.array(means), axis=0).min() > 60


def test_spot_draws_a_round_thing_in_the_middle_of_a_bare_floor():
    rng = np.random.default_rng(3)
    for _ in range(20):
        floor = background(rng, 150, 150, "paper")
        img = floor.copy()
        spot(img, rng, 75, 75, 48)
        changed = np.abs(img.astype(int) - floor.astype(int)).max(axis=2) > 20
        ys, xs = np.nonzero(changed)
        assert changed.any()
        # centred on the die's place, and no wider than 0.7 x its side (plus a soft edge)
        assert abs(xs.mean() - 75) < 10 and abs(ys.mean() - 75) < 10
        assert xs.max() - xs.min() < 0.7 * 48 + 12


def test_some_finder_trays_are_crowds_of_small_dice_lying_against_each_other():
    rng = np.random.default_rng(11)
    frames = [drawn_frame(rng) for _ in range(60)]
    crowds = [f for f in frames if len(f.centres) > 10]  # other trays hold 0-10
    assert 6 <= len(crowds) <= 30  # CROWD_P of 60, give or take
    touching = 0
    for f in crowds:
        assert np.median(f.sides) < 65  # small dice: 10-40 px (+12 %), a box up to 1.45 x that turned and tilted
        d = np.hypot(*(f.centres[:, None] - f.centres[None]).transpose(2, 0, 1))
        np.fill_diagonal(d, np.inf)
        touching += int((d.min(axis=1) < 1.15 * f.sides).sum())
    assert touching > 0.4 * sum(len(f.centres) for f in crowds)
