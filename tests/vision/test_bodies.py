"""Die bodies: the die size when no blob is square."""

from __future__ import annotations

import cv2
import numpy as np

from vision.bodies import blobs, die_size, die_size_inscribed
from vision.evaluate import load_set
from vision.pips import read_frame


def _pair_and_cable() -> np.ndarray:
    """Two 20 px dice run together, and a cable with a bead 36 px wide on it (no square blob)."""
    mask = np.zeros((200, 320), np.uint8)
    cv2.rectangle(mask, (40, 60), (79, 79), 255, -1)  # the pair: 40 x 20
    cv2.line(mask, (120, 150), (310, 150), 255, 6)  # the cable
    cv2.circle(mask, (200, 150), 18, 255, -1)  # its bead
    return mask


def test_the_pairs_circle_sets_the_die_size_not_a_cables_bead():
    mask = _pair_and_cable()
    cands = blobs(mask, 5)
    assert die_size(cands) is None  # neither is square
    # one blob each: as dense a run as each other; the pair is the compact one
    assert abs(die_size_inscribed(cands, mask) - 20.0) < 3.0


def test_a_pale_single_die_beside_a_cable_is_sized_by_itself(dice_sets):
    """penlington-wood dice_8: a pale 1 whose closed blob is not square, a cable's bead bigger.

    The bead's circle made the die twice its size and the die was not read.
    """
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "dice_8.jpg")
    assert read_frame(cv2.imread(str(image.path))).values == image.values
