"""The picture changes that stand in for other cameras: each gives a frame of the kind read_frame takes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.retake import CHANGES


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_each_change_gives_a_colour_frame_and_the_same_one_every_time(dice_sets, name):
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg"))
    out = CHANGES[name](frame)
    assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3
    assert np.array_equal(out, CHANGES[name](frame))
    if name.startswith("scale"):
        f = float(name[5:])
        assert out.shape[:2] == (round(480 * f), round(640 * f))
    else:
        assert out.shape == frame.shape
    assert (name == "none") == np.array_equal(out, frame)


def test_darker_changes_are_darker(dice_sets):
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg"))
    assert CHANGES["dark0.6"](frame).mean() < 0.65 * frame.mean()
    assert CHANGES["gamma1.5"](frame).mean() < frame.mean()


def test_grey_is_one_channel_three_times(dice_sets):
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg"))
    out = CHANGES["grey"](frame)
    assert np.array_equal(out[..., 0], out[..., 1]) and np.array_equal(out[..., 1], out[..., 2])
    assert abs(float(out.mean()) - float(frame.mean())) < 10


def test_a_shift_moves_the_picture_by_whole_pixels(dice_sets):
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg"))
    out = CHANGES["shift1"](frame)
    assert np.array_equal(out[1:, 1:], frame[:-1, :-1])
    out = CHANGES["shift3"](frame)
    assert np.array_equal(out[2:, 3:], frame[:-2, :-3])


def test_a_turn_moves_the_corners_and_keeps_the_middle(dice_sets):
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg")).astype(np.int16)
    out = CHANGES["turn1"](frame.astype(np.uint8)).astype(np.int16)
    middle = (slice(230, 250), slice(310, 330))
    # one degree moves the middle by under a pixel, the corners (~400 px out) by ~7
    assert np.abs(out[middle] - frame[middle]).mean() < np.abs(out[:40, :40] - frame[:40, :40]).mean()


def test_a_shaken_camera_smears_a_point_into_a_streak_along_its_angle():
    frame = np.zeros((41, 41, 3), np.uint8)
    frame[20, 20] = 255
    out = CHANGES["motion7"](frame)[..., 0]
    ys, xs = np.nonzero(out)
    # the point's light is spread over a streak 7 px long at 30 degrees (OpenCV's angles turn
    # counter-clockwise on screen, so the streak rises to the right), not over a blob
    assert 5 <= xs.max() - xs.min() <= 8 and 2 <= ys.max() - ys.min() <= 5
    slope = np.polyfit(xs, ys, 1, w=out[ys, xs].astype(float))[0]
    assert -0.8 < slope < -0.3
    assert out.max() < 255 // 3
