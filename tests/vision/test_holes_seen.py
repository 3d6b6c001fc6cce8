"""A face the spot maps saw no pip-like spot on gets no hole reading (vision.face.HOLES_SEEN).

Such faces (a tray's edge, a cable, a shadow, a side face) are the dearest reads: every map
and every later reader runs and reads nothing. The early answer must be the full reader's
on them, and a face whose spots were seen but not read still has the hole reader's turn.
"""

from __future__ import annotations

import cv2
import pytest

import vision.face as face
import vision.pips as pips
from vision.retake import CHANGES
from vision.spots import read_spots_seen


def _crops(dice_sets, monkeypatch, setname, name, change="none"):
    """Every (patch, mask, second_axis) read_frame gives the face reader on a photo (changed by vision.retake)."""
    crops = []
    read = face.read_face

    def keep(patch, mask, second_axis=True):
        crops.append((patch.copy(), mask.copy(), second_axis))
        return read(patch, mask, second_axis)

    monkeypatch.setattr(pips, "read_face", keep)
    pips.read_frame(CHANGES[change](cv2.imread(str(dice_sets / setname / "images" / name))))
    monkeypatch.setattr(pips, "read_face", read)
    return crops


def _count_holes(monkeypatch) -> list:
    calls: list = []
    read = face._read_holes

    def counted(*args, **kwargs):
        calls.append(1)
        return read(*args, **kwargs)

    monkeypatch.setattr(face, "_read_holes", counted)
    return calls


def test_faces_without_spots_answer_early_as_the_full_reader(dice_sets, monkeypatch):
    # penlington-wood six_27: the tray's edges and the dice's side faces around three 6s
    crops = _crops(dice_sets, monkeypatch, "penlington-wood", "six_27.jpg")
    spotless = []
    for c in crops:
        seen = read_spots_seen(c[0], c[1])
        if seen.read is None and not seen.refused and seen.seen == 0:
            spotless.append(c)
    assert len(spotless) >= 5
    calls = _count_holes(monkeypatch)
    early = [face.read_face(*c).value for c in spotless]
    assert calls == []  # answered before the hole reader
    monkeypatch.setattr(face, "HOLES_SEEN", 0)
    full = [face.read_face(*c).value for c in spotless]
    assert len(calls) >= len(spotless)  # the full reader gives each to the hole reader ...
    assert early == full == [None] * len(spotless)  # ... which reads nothing there either


def test_a_face_of_seen_spots_still_has_the_hole_readers_turn(dice_sets, monkeypatch):
    # byler-d6 111304: a 4 the spot reader leaves unread, its spots seen; the hole reader reads it
    crops = _crops(dice_sets, monkeypatch, "byler-d6", "IMG_20191208_111304.jpg")
    hard = [c for c in crops if read_spots_seen(c[0], c[1]).read is None and read_spots_seen(c[0], c[1]).seen > 0]
    calls = _count_holes(monkeypatch)
    reads = [face.read_face(*c).value for c in hard]
    assert 4 in reads
    assert len(calls) >= len(hard)  # none answered early
    monkeypatch.setattr(face, "HOLES_SEEN", 0)
    assert [face.read_face(*c).value for c in hard] == reads


@pytest.mark.parametrize("name,change,values", [("six_27.jpg", "scale0.6", [6, 6, 6]),
                                                ("six_50.jpg", "gamma1.5", [6, 6, 6, 6, 6])])
def test_no_stray_die_of_holes_where_no_spot_was_seen(dice_sets, monkeypatch, name, change, values):
    # the hole reader read a side face or the tray's edge as a 1 or a 2 there: extra dice
    frame = CHANGES[change](cv2.imread(str(dice_sets / "penlington-wood" / "images" / name)))
    assert sorted(d.value for d in pips.read_frame(frame).dice) == values
    monkeypatch.setattr(face, "HOLES_SEEN", 0)
    assert len(pips.read_frame(frame).dice) > len(values)
