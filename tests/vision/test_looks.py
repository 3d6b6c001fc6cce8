"""A face that reads nothing on its crop's sampling grid gets more looks on moved grids (vision.face.LOOKS).

The tests read real byler-d6 photos with every die crop moved by a part of a pixel, as a
camera that does not see our exact pixels would: the die must read the same at each offset.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.face as face
import vision.pips as pips
import vision.spots as spots

# frame pixels the crop centre is moved by: a grid of whole and half pixels and two odd parts
OFFSETS = [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5), (1.0, 0.0), (0.0, 1.0), (-0.5, 0.25), (0.25, -0.75)]


def test_a_pieces_blob_is_not_die_shaped():
    # a die's piece beside a wall's strip (byler-d6 111457 without the strip rule): a long
    # mask, a third of a die; the blob keeps it from reading, not the grid (LOOK_SQUARE, LOOK_AREA)
    mask = np.zeros((face.CROP, face.CROP), np.uint8)
    mask[10:30, 4:36] = 255
    assert not face._die_shaped(mask)  # too small (LOOK_AREA)
    mask[:] = 0
    mask[2:38, 9:35] = 255  # 36 x 26: big enough, too long (LOOK_SQUARE)
    assert np.count_nonzero(mask) >= face.LOOK_AREA * (face.CROP / face.MARGIN) ** 2
    assert not face._die_shaped(mask)
    mask[3:37, 3:37] = 255
    assert face._die_shaped(mask)


def _reads_at_offsets(dice_sets, monkeypatch, name, centre):
    """Per offset, the values read_frame reads within 20 px of centre ('u' for a re-roll asked there)."""
    frame = cv2.imread(str(dice_sets / "byler-d6" / "images" / name))
    out = []
    for dx, dy in OFFSETS:
        def moved(fr, c, side, angle, dx=dx, dy=dy):
            return face.crop_die(fr, (c[0] + dx, c[1] + dy), side, angle)
        monkeypatch.setattr(pips, "crop_die", moved)
        reading = pips.read_frame(frame)
        near = [d.value for d in reading.dice if np.hypot(d.box[0][0] - centre[0], d.box[0][1] - centre[1]) < 20]
        near += ["u" for u in reading.unreadable if np.hypot(u.box[0][0] - centre[0], u.box[0][1] - centre[1]) < 20]
        out.append(tuple(near))
    return out


# (111316's 4 at (543, 295) read at all eight offsets with three looks; with the two looks
# that read more over the four grids it is a re-roll at (-0.5, 0.25))
@pytest.mark.parametrize("name,centre,value", [("IMG_20191208_112530.jpg", (349, 124), 6),
                                               ("IMG_20191209_100150.jpg", (438, 219), 5)])
def test_a_die_reads_the_same_wherever_its_crop_starts(dice_sets, monkeypatch, name, centre, value):
    # byler-d6 dice that read nothing on one or two of eight crop offsets without the looks
    assert _reads_at_offsets(dice_sets, monkeypatch, name, centre) == [(value,)] * len(OFFSETS)
    monkeypatch.setattr(face, "LOOKS", ())
    monkeypatch.setattr(pips, "TURN", False)  # (an unclear part's die's square is read again there)
    # (without the looks, the maps faded towards the outline read 100150's 5 where it read nothing: off here)
    monkeypatch.setattr(spots, "OUTLINE_BAND", 0.0)
    # (nor does a hole reader's 1 veto 112530's half sure 6 there, NOT_1_VETO, and it reads at every offset: off here)
    monkeypatch.setattr(face, "NOT_1_VETO", ())
    assert (value,) in _reads_at_offsets(dice_sets, monkeypatch, name, centre)
    assert ("u",) in _reads_at_offsets(dice_sets, monkeypatch, name, centre)


def test_looks_read_no_small_counts(monkeypatch):
    # a 1-3 is what glare or a side face makes on every grid alike: the looks take 4-6 only
    patch = np.zeros((face.CROP, face.CROP, 3), np.uint8)
    mask = np.zeros((face.CROP, face.CROP), np.uint8)
    mask[3:37, 3:37] = 255
    calls = []

    def three(p, m, second_axis):
        calls.append(1)
        return face.FaceRead(3, 1.0, "", (20.0, 20.0), 30.0), 3
    monkeypatch.setattr(face, "_read_once", three)
    assert face._look_again(patch, mask, True) is None
    assert len(calls) == 1  # the first look's 3 ends the looks
    monkeypatch.setattr(face, "LOOK_LEAST", 3)
    assert face._look_again(patch, mask, True).value == 3
