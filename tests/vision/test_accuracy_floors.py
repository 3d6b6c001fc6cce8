"""Accuracy floors of the dice reader (vision.reader.read_frame): a regression fails here.

On the validation photos of each shared set (vision.split: photos the networks never trained on)
and on drawn trays of the colours the photo sets lack (these run without the photos). The floors sit a little under
what the shipped networks measure (the numbers beside each); retrain, measure, then move them.
"""

from __future__ import annotations

import cv2
import pytest

from vision.evaluate import DRAWN_SETS, evaluate_drawn, evaluate_set
from vision.reader import read_frame
from vision.retake import CHANGES
from vision.split import is_validation

# dice_sets: the shared photo sets (tests/vision/conftest.py)

# set: (exact, die recall, most extra dice, most wrong dice) on the validation photos; measured with the
# networks of this commit at FIND_AT 0.3, READ_AT 0.5, SURE 0.9, faces cut at 1.45 x the found side: byler-d6
# 0.881 / 0.9842 / 0 / 2, penlington-wood 0.9831 / 0.9846 / 0 / 0, rune55-trays 0.2381 / 0.8233 / 1 / 6 (FIND_AT
# 0.4: the same but penlington-wood 0.9492 / 0.9744 / 0 / 0, rune55-trays' recall 0.8202; cut at
# 1.3: 0.881 / 0.9842 / 0 / 2, 0.9322 / 0.9744 / 2 / 0, 0.1905 / 0.8328 / 2 / 6; session 32's finder, trained
# on crowds of touching dice, and a face net trained on its false finds; the pair before it: byler-d6 0.9048 /
# 0.9873 / 0 / 2, penlington-wood 0.9831 / 0.9846 / 1 / 0, rune55-trays 0.1905 / 0.8328 / 1 / 6; a finder
# merely reseeded has read penlington-wood 0.932; the hand-tuned pip reader, tuned on these very photos:
# 0.8333 / 0.9652 / 0 / 2, 0.8983 / 0.959 / 0 / 0, 0 / 0.2177 / 21 / 30)
FLOORS = {
    "byler-d6": (0.85, 0.97, 2, 3),
    "penlington-wood": (0.95, 0.96, 3, 2),
    "rune55-trays": (0.14, 0.8, 4, 10),
}
# the same photos as another camera would take them (vision.retake), measured: byler-d6 in grey, as a
# monochrome dice-tower camera sees it, 0.5952 / 0.9241 / 0 / 2 (its coloured dice's pips lose their
# contrast; cut at 1.3: 0.5714 / 0.9241 / 0 / 2); byler-d6 through a shaken camera (motion7), 0.7381 / 0.9494 /
# 0 / 3 (cut at 1.3: 0.7619 / 0.962 / 0 / 5; 0.4762 / 0.8386 / 0 / 13 before the face net trained on motion blur)
RETAKE_FLOORS = {
    ("byler-d6", "grey"): (0.5, 0.9, 2, 6),
    ("byler-d6", "motion7"): (0.66, 0.93, 2, 6),
}


def _validation(name: str):
    return lambda _i, image: is_validation(name, image.file)


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_accuracy_floor_on_the_validation_photos(dice_sets, name, holds):
    cv2.setNumThreads(1)
    score = evaluate_set(dice_sets / name, read_frame, _validation(name))
    assert score.n == sum(is_validation(name, p.name) for p in (dice_sets / name / "images").iterdir())
    holds(score, FLOORS[name])


@pytest.mark.parametrize("name, change", sorted(RETAKE_FLOORS))
def test_accuracy_floor_on_retaken_validation_photos(dice_sets, name, change, holds):
    cv2.setNumThreads(1)
    holds(evaluate_set(dice_sets / name, read_frame, _validation(name), CHANGES[change]), RETAKE_FLOORS[(name, change)])


# drawn trays, 40 a set (bunco bench vision --drawn); measured: red/white 0.975 / 0.9917 / 0 / 0, pink/black,
# black/white and blue/white 1.0 / 1.0 / 0 / 0, mixed 1-8 (1-8 dice a tray, any looks, 170 dice) 0.85 /
# 0.9588 / 0 / 0 (0.825 / 0.9529 at FIND_AT 0.4; marbled dice with pips of the marble's colours, and crowds; the pip reader on the first four:
# exact 0.675, 0.675, 0.575, 0.575); touching 3 (three dice pushed together) 0.85 / 0.9333 / 0 / 1, camouflage 3
# (dice of the surface's colour) 0.9 / 0.9667 / 0 / 0 (cut at 1.3: mixed 0.775 / 0.941 / 0 / 2, touching 0.825 /
# 0.933 / 0 / 1, camouflage 0.875 / 0.958 / 0 / 0, the others the same)
DRAWN_FLOORS = {
    "red/white": (0.92, 0.97, 1, 1),
    "pink/black": (0.95, 0.98, 1, 1),
    "black/white": (0.95, 0.98, 1, 1),
    "blue/white": (0.95, 0.98, 1, 1),
    "mixed 1-8": (0.7, 0.92, 2, 4),
    "touching 3": (0.8, 0.9, 1, 3),
    "camouflage 3": (0.75, 0.9, 1, 2),
}


@pytest.mark.parametrize("name", sorted(DRAWN_FLOORS))
def test_accuracy_floor_on_drawn_dice(name, holds):
    cv2.setNumThreads(1)
    holds(evaluate_drawn(read_frame, DRAWN_SETS[name], 40), DRAWN_FLOORS[name])
