"""The dice reader: a frame in, the dice's values out (vision.dice's FrameReading).

read_frame is the one entry point (settle, calibrate, `bunco read`, the benchmarks, the table).
Two small networks do the work (vision.models): the finder says where the dice are and how big,
the face reader says which face each one shows. A die the face net is unsure of, or calls "not a
readable die" while the finder is sure a die lies there, is Unreadable: the table asks for a
re-roll rather than score a guess. A find the face net calls "not a die" and the finder was not
sure of is dropped (a stray find on the floor or a hand).
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.dice import Die, FrameReading, Unreadable
from vision.drawn import cut_square
from vision.models.face.face import CROP_GROW, FaceReader
from vision.models.finder.finder import INPUT as FINDER_INPUT
from vision.models.finder.finder import Finder

# Thresholds, chosen on the validation photos of the three shared sets (122 photos, 828 dice) with
# the networks of vision b20252e (the face net was retrained since; not swept again), the nets run
# once and the thresholds swept offline (FIND_AT 0.3-0.7, SURE_DIE 0.5-0.7 or off, READ_AT 0-0.9),
# ranked by the sum of image-exact with wrong dice counted apart: at 0.4 / 0.5 / 0.6 with TURNS 4,
# byler-d6 exact 45.2 % (316 dice, recall 87.0 %, 3 wrong, 10 extra), penlington-wood 74.6 % (195,
# 92.8 %, 1 wrong, 11 extra), rune55-trays 4.8 % (317, 57.7 %, 2 wrong, 0 extra). READ_AT 0.5 read a
# few more dice and 2-11 more wrong; FIND_AT 0.3 found a few more and as many extra; SURE_DIE
# changed nothing (the face net's "not a die" agreed with the finder's doubt). With the 85298b8 face
# net: 50.0 % (89.6 %, 1 wrong, 0 extra), 83.1 % (89.7 %, 0, 2), 9.5 % (58.0 %, 6, 0).
FIND_AT = 0.4  # the finder's heat over which a peak is a die candidate
SURE_DIE = 0.5  # a candidate this sure is a die: "not a die" from the face net makes it Unreadable
READ_AT = 0.6  # the face net's confidence under which a die is Unreadable (asks for a re-roll)
# die_size_px, when the caller knows it: finds whose side is off by more than this factor are not
# dice of this tray (a pip read as a tiny die, a hand's knuckle as a big one)
SIZE_FACTOR = 2.0
MAX_FINDS = 24  # more candidates than any tray holds: the rest are noise, not worth a face read

# quarter turns of each crop the face net reads, probabilities averaged (see FaceReader): against
# one, the same thresholds gave exact within 3 points either way and fewer wrong dice (byler-d6 3
# not 4, penlington-wood 1 not 3, rune55-trays 2 not 9), for four face reads a die
TURNS = 4
TRIM = True  # the finder skips the letterbox's black rows past the picture (see finder.letterbox)

_FINDER = Finder(FIND_AT, trim=TRIM)
_FACES = FaceReader(TURNS)

Roi = tuple[int, int, int, int]


def read_frame(frame_bgr: np.ndarray, *, die_size_px: float | None = None,
               roi: Roi | None = None) -> FrameReading:
    """Read every die in the frame (in the roi only when one is given: x, y, w, h in pixels).

    die_size_px is the die edge the caller measured (`bunco calibrate`), or None: the finder sizes
    each die itself either way; a known size only drops finds of another size.
    """
    t0 = time.perf_counter()
    if frame_bgr.ndim == 2:  # a grey camera: the networks take three channels
        frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    ox = oy = 0
    view = frame_bgr
    if roi is not None:
        x, y, w, h = roi
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(frame_bgr.shape[1], int(x + w)), min(frame_bgr.shape[0], int(y + h))
        if x1 <= x0 or y1 <= y0:
            return FrameReading(ms=(time.perf_counter() - t0) * 1000.0)
        view, ox, oy = frame_bgr[y0:y1, x0:x1], x0, y0
    # a roi is scaled as its whole frame would be: the dice keep the size the finder knows them at
    finds = _FINDER(view, FINDER_INPUT / max(frame_bgr.shape[:2]))[:MAX_FINDS]
    if die_size_px:
        finds = [f for f in finds if 1 / SIZE_FACTOR <= f.side / die_size_px <= SIZE_FACTOR]
    # crops from the whole frame: a die at the roi's edge keeps the floor beyond it, not a smear
    reads = _FACES([cut_square(frame_bgr, f.xc + ox, f.yc + oy, CROP_GROW * f.side) for f in finds])
    dice: list[Die] = []
    unreadable: list[Unreadable] = []
    for f, r in zip(finds, reads):
        box = ((f.xc + ox, f.yc + oy), (f.side, f.side), 0.0)
        if r.value is None:
            if f.score >= SURE_DIE:  # a die, but no face to read: cocked, or under a hand
                unreadable.append(Unreadable(box, "cocked"))
        elif r.confidence < READ_AT:
            unreadable.append(Unreadable(box, "unclear"))
        else:
            dice.append(Die(r.value, box, r.confidence))
    sides = [f.side for f in finds]
    size = float(np.median(sides)) if sides else die_size_px
    return FrameReading(tuple(dice), tuple(unreadable), size, (time.perf_counter() - t0) * 1000.0)


__all__ = ["read_frame"]
