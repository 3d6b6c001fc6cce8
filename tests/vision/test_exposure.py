"""An underexposed frame is brought up before it is read, a noisy one smoothed; a normal one is left alone."""

from __future__ import annotations

import cv2
import numpy as np

from vision.evaluate import load_set
from vision import exposure
from vision.exposure import BRIGHT, NOISE_AT, bright_end, denoised, exposed, noise_sd

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
