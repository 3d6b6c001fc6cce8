"""The spot reader on drawn dice: every face, both polarities, any size; no face, no guess."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.spots import read_spots

# pip places on a 3x3 grid (column, row), -1..1
FACES = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def _die(value: int, side: int, body, pip, surface=(150, 160, 165), angle: float = 0.0, pitch: float = 0.27):
    """A drawn die of edge `side` on a plain surface, its crop and its blob mask."""
    n = int(side * 1.3)
    img = np.full((n, n, 3), surface, np.uint8)
    c = n / 2
    rect = ((c, c), (side, side), angle)
    box = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillPoly(img, [box], body)
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    for gx, gy in FACES[value]:
        x, y = rot @ (np.array([gx, gy]) * pitch * side) + c
        cv2.circle(img, (int(round(x)), int(round(y))), max(1, int(round(0.08 * side))), pip, -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    mask = np.zeros((n, n), np.uint8)
    cv2.fillPoly(mask, [cv2.boxPoints(((c, c), (side * 1.08, side * 1.08), angle)).astype(np.int32)], 255)
    return img, mask


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("side", [28, 44, 70])
@pytest.mark.parametrize("body,pip", [((235, 240, 240), (20, 20, 20)),  # black pips on ivory
                                      ((40, 40, 200), (245, 245, 245)),  # white pips on red
                                      ((30, 30, 30), (60, 60, 210))])  # red pips on black
def test_every_face_both_polarities_any_size(value, side, body, pip):
    img, mask = _die(value, side, body, pip, angle=17.0)
    read = read_spots(img, mask)
    assert read is not None and read[0] == value, read


def test_a_plain_body_is_not_read():
    img, mask = _die(1, 44, (235, 240, 240), (235, 240, 240))
    assert read_spots(img, mask) is None


def test_a_stripe_is_not_a_pip():
    img, mask = _die(1, 44, (235, 240, 240), (235, 240, 240))
    cv2.line(img, (10, 30), (48, 30), (20, 20, 20), 3)
    assert read_spots(img, mask) is None
