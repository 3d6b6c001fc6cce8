"""Accuracy floors on the shared photo sets: a regression of the reader fails here.

The floors sit a little below what the reader measures today (see the vision issue
note); they are far below the targets in the issue and are raised as it improves. The
same photos changed as another camera or room would take them (vision.retake) have
floors too: a rule tuned to the shared photos' exact pixels fails there first.
"""

from __future__ import annotations


import cv2
import pytest

from vision.evaluate import evaluate_set
from vision.pips import read_frame
from vision.retake import CHANGES

# dice_sets: the shared photo sets (tests/vision/conftest.py)

# set: (exact, die recall, most extra dice, most wrong dice); measured at the session 15 merge: byler-d6
# 0.79 / 0.9576 / 0 / 13 and penlington-wood 0.9484 / 0.98 / 0 / 0 (a wrong die is one the table
# would score: it is held apart from the unreadable ones, which only cost a re-roll)
FLOORS = {
    "byler-d6": (0.775, 0.953, 3, 15),
    "penlington-wood": (0.935, 0.975, 3, 3),
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_accuracy_floor(dice_sets, name, holds):
    cv2.setNumThreads(1)
    score = evaluate_set(dice_sets / name, read_frame)
    assert score.n == len(list((dice_sets / name / "images").iterdir()))
    holds(score, FLOORS[name])


# (set, change): (exact, die recall, most extra dice, most wrong dice) on the odd-indexed photos
# (rules are tuned on the even half and checked on the odd one); measured at the session 13 merge,
# byler-d6: dark0.6 0.68 / 0.935 / 0 / 11, blur1 0.55 / 0.900 / 0 / 12, jpeg40 0.44 / 0.825 / 0 / 31,
# scale0.6 0.66 / 0.920 / 0 / 16, shift1 0.69 / 0.933 / 0 / 14, turn1 0.67 / 0.925 / 0 / 16;
# penlington-wood: dark0.6 0.916 / 0.968 / 1 / 0, blur1 0.923 / 0.971 / 2 / 5, jpeg40
# 0.955 / 0.987 / 1 / 1, scale0.6 0.929 / 0.981 / 5 / 2, shift1 0.948 / 0.979 / 3 / 2,
# turn1 0.961 / 0.987 / 0 / 1
CHANGED_FLOORS = {
    ("byler-d6", "dark0.6"): (0.64, 0.915, 3, 15),
    ("byler-d6", "blur1"): (0.52, 0.875, 3, 16),
    ("byler-d6", "jpeg40"): (0.41, 0.80, 3, 34),
    ("byler-d6", "scale0.6"): (0.62, 0.895, 3, 20),
    ("penlington-wood", "dark0.6"): (0.90, 0.955, 5, 4),
    ("penlington-wood", "blur1"): (0.90, 0.96, 6, 8),
    ("penlington-wood", "jpeg40"): (0.92, 0.975, 6, 4),
    ("penlington-wood", "scale0.6"): (0.90, 0.965, 9, 5),
    # the camera nudged by a pixel or turned by a degree: the same scene on another sampling grid
    ("byler-d6", "shift1"): (0.66, 0.915, 3, 17),
    ("byler-d6", "turn1"): (0.64, 0.905, 3, 20),
    ("penlington-wood", "shift1"): (0.925, 0.965, 7, 5),
    ("penlington-wood", "turn1"): (0.94, 0.975, 4, 4),
}


@pytest.mark.parametrize("name,change", sorted(CHANGED_FLOORS))
def test_accuracy_floor_on_changed_pictures(dice_sets, name, change, holds):
    cv2.setNumThreads(1)
    score = evaluate_set(dice_sets / name, read_frame, lambda i, _: i % 2 == 1, CHANGES[change])
    holds(score, CHANGED_FLOORS[name, change])
