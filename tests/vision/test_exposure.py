"""An underexposed frame is brought up before it is read; a normal one is left alone."""

from __future__ import annotations

import cv2
import numpy as np

from vision.evaluate import load_set
from vision.exposure import BRIGHT, bright_end, exposed
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
