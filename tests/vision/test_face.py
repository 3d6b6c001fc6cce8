"""vision.face on drawn dice: both readers read every face of a clean die, and the spot
reader's doubtful reads give way when the hole reader disagrees; a hole reader's 2 gives way
when the spot maps see more pips."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.face as face
from vision.face import CROP, MARGIN, FaceRead, read_face
from vision.spots import SpotsSeen

GRID = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


def _crop(value: int, body=(235, 240, 240), pip=(20, 20, 20), surface=(150, 160, 165)):
    """A die as pips.read_frame hands it over: upright, CROP pixels, its blob a little big."""
    img = np.full((CROP, CROP, 3), surface, np.uint8)
    side, c = CROP / MARGIN, CROP / 2
    lo, hi = int(c - side / 2), int(c + side / 2)
    cv2.rectangle(img, (lo, lo), (hi, hi), body, -1)
    for gx, gy in GRID[value]:
        cv2.circle(img, (int(round(c + gx * 0.28 * side)), int(round(c + gy * 0.28 * side))), 3, pip, -1, cv2.LINE_AA)
    mask = np.zeros((CROP, CROP), np.uint8)
    cv2.rectangle(mask, (lo - 1, lo - 1), (hi + 1, hi + 1), 255, -1)
    return cv2.GaussianBlur(img, (3, 3), 0), mask


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("body,pip", [((235, 240, 240), (20, 20, 20)), ((40, 40, 200), (245, 245, 245))])
def test_both_readers_read_a_clean_die(value, body, pip):
    img, mask = _crop(value, body, pip)
    assert read_face(img, mask).value == value
    assert face._read_holes(img, mask, True).value == value


def test_a_doubtful_spot_read_gives_way_to_a_disagreeing_hole_read(monkeypatch):
    img, mask = _crop(4)
    centre = (CROP / 2, CROP / 2)
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen((2, face.SURE_SPOTS - 0.1, centre, 30.0), 2))
    read = read_face(img, mask)
    assert read.value is None and read.reason == "readers disagree"
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen((4, face.SURE_SPOTS - 0.1, centre, 30.0), 4))
    assert read_face(img, mask).value == 4
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen((2, face.SURE_SPOTS + 0.1, centre, 30.0), 2))
    assert read_face(img, mask) == FaceRead(2, face.SURE_SPOTS + 0.1, "", centre, 30.0)


@pytest.mark.parametrize("seen,value", [(face.SEEN_NOT_2 - 1, 2), (face.SEEN_NOT_2, None)])
def test_a_hole_read_2_gives_way_when_the_spot_maps_see_more_pips(monkeypatch, seen, value):
    img, mask = _crop(2)
    assert face._read_holes(img, mask, True).value == 2
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen(None, seen))
    assert read_face(img, mask).value == value


@pytest.mark.parametrize("value", range(1, 7))
def test_the_spot_maps_count_the_pips_they_see(value):
    from vision.spots import read_spots_seen

    img, mask = _crop(value)
    by_spots = read_spots_seen(img, mask)
    read, seen = by_spots.read, by_spots.seen
    assert seen == value
    # the drawn 6's columns sit too close for the spot reader, which leaves it to the holes
    assert (read[0] if read else None) == (value if value < 6 else None)


def test_the_spot_readers_spare_read_is_taken_only_when_the_hole_reader_reads_nothing(monkeypatch):
    centre = (CROP / 2, CROP / 2)
    spare = (6, 0.9, centre, 30.0)
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen(None, 6, lambda: spare))
    img, mask = _crop(4)
    assert face._read_holes(img, mask, True).value == 4
    assert read_face(img, mask).value == 4  # the hole reader's read stands
    blank = np.full_like(img, 235)
    assert face._read_holes(blank, mask, True).value is None
    assert read_face(blank, mask) == FaceRead(6, 0.9, "", centre, 30.0)
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen(None, 6))
    assert read_face(blank, mask).value is None


def test_a_two_on_the_second_colour_axis_alone_is_not_read(monkeypatch):
    img, mask = _crop(2)
    first, second = face._axes(img, mask)[0], 255 - face._axes(img, mask)[0]
    monkeypatch.setattr(face, "_axis_maps", lambda p, m, s=True: [np.zeros_like(first), second])
    assert face._read_holes(img, mask, True).value is None
    monkeypatch.setattr(face, "_axis_maps", lambda p, m, s=True: [np.zeros_like(first), first])
    assert face._read_holes(img, mask, True).value is None
    monkeypatch.setattr(face, "_axis_maps", lambda p, m, s=True: [first, np.zeros_like(first)])
    assert face._read_holes(img, mask, True).value == 2


def test_a_doubtful_one_needs_the_hole_reader_to_agree(monkeypatch):
    centre = (CROP / 2, CROP / 2)
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen((1, face.SURE_SPOTS - 0.1, centre, 30.0), 1))
    img, mask = _crop(1)
    assert read_face(img, mask).value == 1
    blank = np.full_like(img, 235)
    assert face._read_holes(blank, mask, True).value is None
    assert read_face(blank, mask).value is None


def test_a_face_the_spot_reader_refuses_is_not_read_by_the_hole_reader(monkeypatch):
    # a 2 of flat spots (vision.spots.TWO_FLAT): the hole reader would read the same 2
    img, mask = _crop(2)
    assert face._read_holes(img, mask, True).value == 2
    monkeypatch.setattr(face, "read_spots_seen", lambda p, m: SpotsSeen(None, 2, refused=True))
    read = read_face(img, mask)
    assert read.value is None and read.reason == "a 2 of flat spots or glints"
