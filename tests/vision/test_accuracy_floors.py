"""Accuracy floors on the shared photo sets: a regression of the reader fails here.

The floors sit a little below what the reader measures today (see the vision issue
note); they are far below the targets in the issue and are raised as it improves.
"""

from __future__ import annotations


import cv2
import pytest

from vision.evaluate import evaluate_set
from vision.pips import read_frame

# dice_sets: the shared photo sets (tests/vision/conftest.py)

# set: (exact, die recall, most extra dice); the spot reader first, the hole reader when
# it is unsure, blobs cut by the camera's view not read, dice run together cut at their
# cores, pale dice found by their pips, oblique dice at their top end: measured byler-d6
# 0.57 / 0.845 / 1 and penlington-wood 0.845 / 0.931 / 8 (the extra dice are desk clutter)
FLOORS = {
    "byler-d6": (0.54, 0.82, 6),
    "penlington-wood": (0.82, 0.91, 15),
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_accuracy_floor(dice_sets, name):
    cv2.setNumThreads(1)
    score = evaluate_set(dice_sets / name, read_frame)
    exact, recall, extra = FLOORS[name]
    assert score.n == len(list((dice_sets / name / "images").iterdir()))
    assert score.exact >= exact, score.as_dict()
    assert score.die_recall >= recall, score.as_dict()
    assert score.extra_dice <= extra, score.as_dict()
