"""The dice reader: a frame in, the dice's values out (vision.dice's FrameReading).

read_frame is the one entry point (settle, calibrate, `bunco read`, the benchmarks, the table).
Two small networks do the work (vision.models): the finder says where the dice are and how big,
the face reader says which face each one shows. A die the face net is unsure of is Unreadable: the
table asks for a re-roll rather than score a guess. A find the face net calls "not a readable die"
is dropped, whatever the finder thought of it: a round hole in the tray's rim, a hand, or a cocked
die. A cocked die then leaves the tray a die short, which the caller that knows how many dice were
rolled (vision.settle) already turns into a re-roll.
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

# Thresholds, chosen on the validation photos of the three shared sets (122 photos, 828 dice): the nets
# run once a photo and FIND_AT 0.2-0.5 x READ_AT 0-0.9 swept offline. READ_AT trades wrong dice for
# re-rolls: at FIND_AT 0.4, READ_AT 0 / 0.5 / 0.6 read byler-d6 85.7 / 85.7 / 73.8 % of photos exactly with
# 4 / 3 / 2 dice wrong, penlington-wood 94.9 / 93.2 / 93.2 % with 2 / 2 / 1, rune55-trays 19.0 % at each with
# 23 / 7 / 4 (the networks of session 20). A wrong die is scored unless a player sees it; a re-roll costs a
# throw: 0.5 takes two thirds of the wrong dice away for a few re-rolls, 0.6 costs byler-d6 five more photos
# for one die fewer. The 72-epoch face net (session 22, turns and all), READ_AT 0.4 / 0.5 / 0.6: byler-d6
# 90.5 / 85.7 / 81.0 % with 3 / 2 / 2 wrong, penlington-wood 93.2 % with 1 / 0 / 0, rune55-trays 23.8 % with
# 13 / 7 / 5: 0.4 reads two more byler-d6 photos for eight more wrong dice in all, so 0.5 stayed. The face
# net trained with motion blur (session 23, the reader as shipped): byler-d6 88.1 / 85.7 / 83.3 % with 3 / 3 /
# 2 wrong, penlington-wood 98.3 % with 0 at each, rune55-trays 28.6 / 23.8 / 23.8 % with 10 / 7 / 5: 0.4 buys
# two photos for three more wrong dice, so 0.5 stays. Session 34 (FIND_AT 0.3), byler-d6 with both networks
# left out (200 photos), READ_AT 0.5 / 0.6 / 0.7: 68.5 / 61.0 / 55.0 % exact with 24 / 12 / 10 dice wrong (seed 2:
# 66.0 / 63.5 / 57.5 %, 24 / 16 / 9), its validation photos seen 88.1 / 81.0 / 76.2 % with 2 / 1 / 1: on a new
# kind 0.6 halves the wrong dice for 15 photos more asking a re-roll. 0.5 stays; the trade is the issue's.
# FIND_AT: the face net drops most stray finds as "not a die", so a lower heat costs little; session 34
# (the crowds finder, cuts at 1.45), FIND_AT 0.4 / 0.35 / 0.3 / 0.25: penlington-wood's validation photos
# 94.9 / 98.3 / 98.3 / 98.3 % exact (two plain dice at heat 0.37 and 0.40), its training photos (0.4 to 0.3) 96.8 /
# 97.6 / 98.4 %, byler-d6's 81.6 / 82.9 / 82.9 %, rune55-trays' 38.5 / 38.5 / 37.2 %, no more dice wrong, at most one
# extra die more; byler-d6 with both networks left out (200 photos, two seeds) 65.5 / 67.0 / 68.5 / 69.0 % and
# (0.4 to 0.3) 64.0 / 65.0 / 66.0 %, the same 24 dice wrong; rune55-trays so (99 photos) 37 / 47 / 56 / 73 extra dice (its
# speckled carpet), 57 / 57 / 55 / 52 wrong. 0.3 before the unseen carpet's stray finds grow fast.
FIND_AT = 0.3  # the finder's heat over which a peak is a die candidate
READ_AT = 0.5  # the face net's confidence under which a die is Unreadable (asks for a re-roll)
# die_size_px, when the caller knows it: finds whose side is off by more than this factor are not
# dice of this tray (a pip read as a tiny die, a hand's knuckle as a big one)
SIZE_FACTOR = 2.0
MAX_FINDS = 64  # more than any photo of the shared sets holds (48): the rest are noise, not worth a face read

# quarter turns of each crop the face net reads, probabilities averaged (see FaceReader), but only for
# a die whose first read is under SURE. Against reading each die once, at the same thresholds:
# byler-d6 85.7 % of photos exact not 83.3 %, penlington-wood 93.2 % either way, rune55-trays 19.0 % not
# 14.3 %, with as many dice wrong (12 in all) and fewer re-rolls on the first two (2 not 5). Turning only
# the unsure dice reads exactly as turning every die (SURE 0.8 and 0.9 alike, validation photos and drawn
# trays) for 1.2-1.5 face reads a die at 0.9 (2.1 on rune55-trays) instead of 4. Session 30, SURE 0.8: the
# same reads of every validation photo (and of byler-d6's grey, motion7 and jpeg40 retakes and the 40-tray
# drawn sets) for 18 % fewer face passes (2,381 against 2,921), but over all 99 rune55-trays photos 2 more
# dice wrong (23 against 21); 0.7 already reads a validation die wrong more, 2 turns not 4 moves photos both
# ways (grey +2, motion7 -2) for 24 % fewer passes. A wrong die costs more than a millisecond: 0.9 and 4 stay
TURNS = 4
SURE = 0.9
TRIM = True  # the finder skips the letterbox's black rows past the picture (see finder.letterbox)

_FINDER = Finder(FIND_AT, trim=TRIM)
_FACES = FaceReader(TURNS, sure=SURE)

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
            continue
        if r.confidence < READ_AT:
            unreadable.append(Unreadable(box, "unclear"))
        else:
            dice.append(Die(r.value, box, r.confidence))
    sides = [f.side for f in finds]
    size = float(np.median(sides)) if sides else die_size_px
    return FrameReading(tuple(dice), tuple(unreadable), size, (time.perf_counter() - t0) * 1000.0)


__all__ = ["read_frame"]
