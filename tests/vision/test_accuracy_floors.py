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

# set: (exact, die recall, most extra dice); measured at ad028d2: byler-d6 0.725 / 0.930 / 1
# and penlington-wood 0.945 / 0.978 / 0 (extra dice there were desk clutter)
FLOORS = {
    "byler-d6": (0.72, 0.93, 4),
    "penlington-wood": (0.925, 0.97, 3),
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_accuracy_floor(dice_sets, name):
    cv2.setNumThreads(1)
    score = evaluate_set(dice_sets / name, read_frame)
    assert score.n == len(list((dice_sets / name / "images").iterdir()))
    _holds(score, FLOORS[name])


def _holds(score, floor: tuple[float, float, int]) -> None:
    """The score is at or above the floor's exact and die recall, at or below its extra dice."""
    exact, recall, extra = floor
    assert score.exact >= exact, score.as_dict()
    assert score.die_recall >= recall, score.as_dict()
    assert score.extra_dice <= extra, score.as_dict()


# (set, change): (exact, die recall, most extra dice) on the odd-indexed photos (rules are
# tuned on the even half and checked on the odd one); measured at ad028d2: byler-d6
# dark0.6 0.63 / 0.903 / 0, blur1 0.53 / 0.867 / 1, jpeg40 0.40 / 0.808 / 0, scale0.6
# 0.54 / 0.876 / 1; penlington-wood 0.910 / 0.960 / 3, 0.910 / 0.962 / 4, 0.910 / 0.979 / 4,
# 0.910 / 0.971 / 8
CHANGED_FLOORS = {
    ("byler-d6", "dark0.6"): (0.60, 0.885, 3),
    ("byler-d6", "blur1"): (0.50, 0.85, 3),
    ("byler-d6", "jpeg40"): (0.37, 0.79, 3),
    ("byler-d6", "scale0.6"): (0.51, 0.86, 3),
    ("penlington-wood", "dark0.6"): (0.88, 0.95, 5),
    ("penlington-wood", "blur1"): (0.88, 0.95, 7),
    ("penlington-wood", "jpeg40"): (0.88, 0.965, 7),
    ("penlington-wood", "scale0.6"): (0.88, 0.96, 11),
    # the camera nudged by a pixel or turned by a degree: the same scene on another sampling
    # grid (measured at 248d677: byler-d6 shift1 0.65 / 0.907 / 0, turn1 0.61 / 0.896 / 0;
    # penlington-wood 0.923 / 0.975 / 6, 0.942 / 0.983 / 2)
    ("byler-d6", "shift1"): (0.62, 0.89, 3),
    ("byler-d6", "turn1"): (0.58, 0.88, 3),
    ("penlington-wood", "shift1"): (0.90, 0.96, 9),
    ("penlington-wood", "turn1"): (0.91, 0.97, 5),
}


@pytest.mark.parametrize("name,change", sorted(CHANGED_FLOORS))
def test_accuracy_floor_on_changed_pictures(dice_sets, name, change):
    cv2.setNumThreads(1)
    score = evaluate_set(dice_sets / name, read_frame, lambda i, _: i % 2 == 1, CHANGES[change])
    _holds(score, CHANGED_FLOORS[name, change])
