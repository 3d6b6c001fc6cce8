"""Read the top faces of dice in one frame: pips -> dice, each with value, box, confidence.

Everything is measured in units of the die: the reader first estimates the pip size
from the frame (or takes a calibrated die edge), resizes the frame so a die is about
WORK_DIE_PX wide, and from then on every constant is a fraction of a die edge. Pips
are found in both polarities (dark on light, light on dark or coloured bodies) as
small round blobs of strong local contrast; pips are grouped into faces by spacing
and by an unbroken die body between them, and each group is checked against the
1-6 layouts. What looks like a die but does not read cleanly comes back as
Unreadable, so the table asks for a re-roll instead of guessing.
"""

from __future__ import annotations

import math
import time

import cv2
import numpy as np

from vision.dice import Die, FrameReading, RotatedRect, Unreadable
from vision.segment import Pip, find_pips, estimate_pip_diameter, group_pips
from vision.layout import classify_group

# A pip's diameter as a fraction of the die edge (measured on the shared photo sets:
# 0.13-0.22, median about 0.16).
PIP_PER_DIE = 0.165
# The reader works on a frame scaled so that a die edge is about this many pixels:
# large enough for a pip of ~5 px, small enough to be fast.
WORK_DIE_PX = 36.0
MAX_UPSCALE = 1.6


def read_frame(frame_bgr: np.ndarray, *, die_size_px: float | None = None,
               roi: tuple[int, int, int, int] | None = None) -> FrameReading:
    """Read every die in a BGR frame (optionally only inside roi = x, y, w, h)."""
    t0 = time.perf_counter()
    ox = oy = 0
    if roi is not None:
        x, y, w, h = (int(v) for v in roi)
        frame_bgr = frame_bgr[max(0, y):y + h, max(0, x):x + w]
        ox, oy = max(0, x), max(0, y)
    if frame_bgr.ndim == 3:
        grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    else:
        grey = frame_bgr
    if die_size_px is None:
        pip_d = estimate_pip_diameter(grey)
        if pip_d is None:
            return FrameReading(ms=(time.perf_counter() - t0) * 1000.0)
        die_size_px = pip_d / PIP_PER_DIE
    scale = min(MAX_UPSCALE, WORK_DIE_PX / die_size_px)
    if abs(scale - 1.0) > 0.05:
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        work = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=interp)
    else:
        scale = 1.0
        work = grey
    die_w = die_size_px * scale
    pips = find_pips(work, die_w)
    dice: list[Die] = []
    unreadable: list[Unreadable] = []
    for group in group_pips(work, pips, die_w):
        result = classify_group(group, die_w)
        box = _to_frame(result.box, scale, ox, oy)
        if result.value is None:
            unreadable.append(Unreadable(box, result.reason))
        else:
            dice.append(Die(result.value, box, result.confidence))
    return FrameReading(tuple(dice), tuple(unreadable), float(die_size_px),
                        ms=(time.perf_counter() - t0) * 1000.0)


def _to_frame(box: RotatedRect, scale: float, ox: int, oy: int) -> RotatedRect:
    (cx, cy), (w, h), a = box
    return ((cx / scale + ox, cy / scale + oy), (w / scale, h / scale), a)


__all__ = ["read_frame", "Pip", "PIP_PER_DIE", "WORK_DIE_PX", "math"]
