"""An underexposed frame is brought up before it is read, a noisy one smoothed; a normal one is left alone."""

from __future__ import annotations

import cv2
import numpy as np

from vision.evaluate import load_set
from vision import exposure
from vision.exposure import BRIGHT, NOISE_AT, bright_end, denoised, exposed, noise_sd
from vision.pips import read_frame

# dice_sets: the shared photo sets (tests/vision/conftest.py)


def test_every_shared_photo_is_left_as_it_is(dice_sets):
    for name in ("penlington-wood", "byler-d6"):
        for image in load_set(dice_sets / name)[::10]:
            frame = cv2.imread(str(image.path))
            assert exposed(frame) is frame, image.file


def test_a_dark_frame_is_brought_up_to_a_normal_bright_end(dice_sets):
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg"))
    for dim in (0.3, 0.5, 0.8):
        dark = cv2.convertScaleAbs(frame, alpha=dim)
        assert abs(bright_end(exposed(dark)) - BRIGHT) <= 4, dim


def test_a_black_frame_stays_black():
    black = np.zeros((48, 64, 3), np.uint8)
    assert not exposed(black).any()


def test_dark_photos_are_read_as_the_normal_ones(dice_sets):
    # at 60 % exposure the pips' contrast falls under the reader's floors; brought back
    # up, each of these photos reads its labelled dice again
    images = {i.file: i for i in load_set(dice_sets / "penlington-wood")}
    for file in ("dice_10.jpg", "six_3.jpg", "four_1.jpg", "three_10.jpg", "two_30.jpg"):
        image = images[file]
        frame = cv2.imread(str(image.path))
        assert read_frame(frame).values == image.values, file
        assert read_frame(cv2.convertScaleAbs(frame, alpha=0.6)).values == image.values, file


def test_only_a_noisy_frame_is_smoothed(dice_sets):
    # the shared photos, and every other change vision.retake makes of them (blur, JPEG, scale, tone), measure far
    # under NOISE_AT and are read as they are; the noise of a small sensor in poor light is measured at its sd
    from vision.retake import CHANGES

    for name in ("penlington-wood", "byler-d6"):
        for image in load_set(dice_sets / name)[::20]:
            shot = cv2.imread(str(image.path))
            for change, make in CHANGES.items():
                frame = exposed(make(shot))
                if change == "noise8":
                    # 8 a channel is 8 * 0.67 in the grey (exposure.py's _GREY_SD)
                    assert 4.5 <= noise_sd(frame) <= 6.5, (image.file, noise_sd(frame))
                    assert denoised(frame) is not frame
                else:
                    assert noise_sd(frame) < NOISE_AT / 2, (image.file, change)
                    assert denoised(frame) is frame, (image.file, change)


def _noisy_reads(dice_sets, file, boxes, sds):
    """What read_frame reads in a byler-d6 photo's labelled boxes (by index), the photo noised at each sd."""
    from vision.retake import _noise

    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == file)
    shot = cv2.imread(str(image.path))
    h, w = shot.shape[:2]
    at = [image.boxes(w, h)[j] for j in boxes]
    frames = [_noise(sd)(shot) for sd in sds]
    return [b.value for b in at], lambda: [[[d.value for d in read_frame(f).dice if b.contains(*d.box[0])] for b in at]
                                          for f in frames]


def test_a_noisy_heap_is_read_smoothed(dice_sets, monkeypatch):
    # byler-d6 111316 (odd): a heap of dice under noise of sd 8 and 10 read nothing at all (its noisy foreground cut
    # no die); smoothed (DENOISE), its 3, 4 and two 5s read
    labels, reads = _noisy_reads(dice_sets, "IMG_20191208_111316.jpg", (6, 14, 20, 21), (8.0, 10.0))
    assert reads() == [[[v] for v in labels]] * 2
    monkeypatch.setattr(exposure, "DENOISE", False)
    assert reads() == [[[]] * 4] * 2


def test_a_noisy_5_is_read_smoothed(dice_sets, monkeypatch):
    # byler-d6 112010's 5 (even) under noise of sd 6 and 8: read as a 4 unsmoothed (its centre pip lost in the
    # noise), a 5 smoothed
    labels, reads = _noisy_reads(dice_sets, "IMG_20191208_112010.jpg", (2,), (6.0, 8.0))
    assert labels == [5]
    assert reads() == [[[5]], [[5]]]
    monkeypatch.setattr(exposure, "DENOISE", False)
    assert reads() == [[[4]], [[4]]]
