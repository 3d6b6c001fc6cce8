"""vision.numeric.median is np.median, value for value, on what the reader measures."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.numeric import median


def test_median_is_numpys_on_whole_numbers_with_many_ties():
    rng = np.random.default_rng(0)
    for n in (1, 2, 3, 4, 19200, 19201):  # a noise measure's sizes (exposure.noise_sd): even and odd
        a = np.abs(rng.normal(0, 3, n)).astype(np.int16)
        assert median(a) == float(np.median(a)), n
    assert median(np.array([3, 3, 3, 4], np.uint8)) == 3.0
    assert median(np.array([1, 2, 4, 6], np.int16)) == 3.0


def test_median_is_numpys_on_floats_in_their_own_type():
    rng = np.random.default_rng(1)
    for n in (2, 7, 1500, 8534, 8535):
        for dtype in (np.float32, np.float64):
            a = rng.normal(0, 30, n).astype(dtype)
            assert median(a) == float(np.median(a)), (n, dtype)
            assert median(a.reshape(-1, 2) if n % 2 == 0 else a) == float(np.median(a)), (n, dtype)


def test_median_on_a_frames_edge_strength(dice_sets):
    # the sample bodies.foreground_dist takes: every third Sobel strength each way
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg"))
    grey = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    mag = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    for a in (mag[::3, ::3], mag[1::3, ::3], mag[:-1:3, :-1:3]):
        assert median(a) == float(np.median(a))


def test_median_of_nothing_is_nan():
    assert math.isnan(median(np.zeros(0, np.float32)))
