"""Synthetic rolls: real labelled crops (drawn dice without the photos), and a truth that matches the frames."""

from __future__ import annotations

import csv
import random

import numpy as np
import pytest

from vision.synthetic import DICE_ROOT, DRAWN_LOOKS, Empty, Hand, Roll, SyntheticRolls, crop_bank, drawn_bank


def test_crops_are_real_labelled_dice(dice_sets):
    crops = crop_bank(str(DICE_ROOT))
    assert len(crops) > 200
    assert {c.value for c in crops} == {1, 2, 3, 4, 5, 6}
    with (DICE_ROOT / "byler-d6" / "boxes.csv").open(newline="") as f:
        labelled = {(r["file"], int(r["value"])) for r in csv.DictReader(f)}
    assert all((c.source, c.value) in labelled for c in crops)
    for c in crops[:50]:
        assert c.image.shape[:2] == c.mask.shape and 0 <= c.mask.min() and c.mask.max() <= 1
        assert 20 < c.edge_px < 70


@pytest.mark.parametrize("body, pip", DRAWN_LOOKS)
def test_drawn_crops_are_whole_dice_of_every_value(body, pip):
    """Without the photos the camera draws its dice: each crop is one die, its mask the die's
    exact coverage (opaque inside, clear at the corners of the patch), pips standing out."""
    crops = drawn_bank(body, pip)
    assert [c.value for c in crops] == [v for v in range(1, 7) for _ in range(3)]
    for c in crops:
        h, w = c.mask.shape
        assert c.image.shape == (h, w, 3) and 0 <= c.mask.min() and c.mask.max() <= 1
        assert c.mask[h // 2, w // 2] > 0.99 and c.mask[0, 0] < 0.01 and c.mask[-1, -1] < 0.01
        # the die covers about its side squared (rounded corners take a little)
        assert 0.85 < c.mask.sum() / c.edge_px**2 < 1.1
        assert c.contrast > 60


def test_without_the_photos_the_camera_draws_its_dice(tmp_path):
    src = SyntheticRolls([Roll((1, 4, 6), rest_s=0.2)], rng=random.Random(3), fps=10, root=str(tmp_path))
    assert all(c.source.startswith("drawn:") for c in src.crops)
    frames = [f for _, f in src]
    assert frames[-1].shape == (480, 640, 3) and src.truth[0].values == (1, 4, 6)


def test_truth_matches_the_frames():
    src = SyntheticRolls([Roll((2, 3, 5), rest_s=0.5), Empty(0.2), Roll((6, 6, 1), hidden=1, rest_s=0.5)],
                         rng=random.Random(9), fps=20, noise=0.0)
    frames = [f for _, f in src]
    first, second = src.truth
    assert (first.values, first.hidden, second.values, second.hidden) == ((2, 3, 5), 0, (1, 6, 6), 1)
    for tr in src.truth:
        rest = frames[tr.rest_index]
        assert all(np.array_equal(rest, frames[i]) for i in range(tr.rest_index, tr.end_index + 1))
        assert not np.array_equal(rest, frames[tr.rest_index - 2])  # still tumbling just before
        assert tr.rest_time == tr.rest_index / 20
    assert second.start_index > first.end_index
    assert len(frames) == second.end_index + 1


def test_same_seed_same_frames_and_hands_are_drawn():
    def make():
        return SyntheticRolls([Roll((1, 2, 3), rest_s=0.2), Hand(hold_s=0.2)], rng=random.Random(4), fps=10)

    a = [f for _, f in make()]
    b = [f for _, f in make()]
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))
    src = make()
    held = [f for _, f in src if src.scene.hand is not None]
    assert held
    skin = np.mean([np.all(np.abs(f.astype(int) - (118, 150, 205)) < 40, axis=2).mean() for f in held])
    assert skin > 0.03  # a hand-sized patch of skin colour


def test_endless_mode_keeps_rolling():
    src = SyntheticRolls(None, rng=random.Random(1), fps=10, n_dice=4)
    stamps = [src.read()[0] for _ in range(120)]
    assert stamps[-1] == pytest.approx(11.9)
    assert len(src.truth) >= 2 and all(len(t.values) == 4 for t in src.truth)


def test_bad_scripts_are_refused():
    with pytest.raises(ValueError, match="hidden=4 but only 3 dice"):
        SyntheticRolls([Roll((1, 2, 3), hidden=4)]).read()
    with pytest.raises(TypeError, match="not a script step"):
        SyntheticRolls(["roll"]).read()
