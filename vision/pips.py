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
from vision.layout import GroupResult, classify_group
from vision.segment import PIP_PER_DIE, Pip, estimate_pip_diameter, find_pips, group_pips
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
    results, scale, die_w = _read_at(grey, die_size_px)
    dice: list[Die] = []
    unreadable: list[Unreadable] = []
    for result in results:
        box = _to_frame(result.box, scale, ox, oy)
        if result.value is None:
            unreadable.append(Unreadable(box, result.reason))
        else:
            dice.append(Die(result.value, box, result.confidence))
    return FrameReading(tuple(dice), tuple(unreadable), float(die_size_px),
                        ms=(time.perf_counter() - t0) * 1000.0)


def _read_at(grey: np.ndarray, die_size_px: float) -> tuple[list[GroupResult], float, float]:
    """Faces read with the frame scaled so a die is WORK_DIE_PX wide: (faces, scale, die_w)."""
    scale = min(MAX_UPSCALE, WORK_DIE_PX / die_size_px)
    if abs(scale - 1.0) > 0.05:
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        work = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=interp)
    else:
        scale = 1.0
        work = grey
    die_w = die_size_px * scale
    pips = find_pips(work, die_w)
    results = []
    for group in group_pips(work, pips, die_w):
        result = classify_group(group, die_w)
        if result.value is None and len(group) > 1:
            # two faces run together (touching dice, or a side face): split at a
            # tighter spacing, which holds every face but the 2 together
            parts = [classify_group(g, die_w) for g in group_pips(work, group, die_w, 0.62)]
            if any(p.value is not None for p in parts):
                results.extend(parts)
                continue
        results.append(result)
    results = [r for r in results if r.value not in (1, 2) or _on_plain_body(work, r, die_w)]
    return _top_faces(results, pips, die_w), scale, die_w


def _top_faces(results: list[GroupResult], pips: list[Pip], die_w: float) -> list[GroupResult]:
    """One face a die: the one seen most squarely from above; lone blobs must look like pips.

    An oblique camera sees a die's side faces next to its top face; their pips are
    smaller and squashed. Faces are taken best first and any other face whose centre
    lies within one die of a taken face is that die's side, not a die of its own.
    """
    if not results:
        return []
    strong = [p for p in pips]
    med_area = float(np.median([p.area for p in strong]))
    med_con = float(np.median([p.contrast for p in strong]))
    keep: list[GroupResult] = []
    for r in results:
        if len(r.pips) == 1 and r.value == 1:
            p = r.pips[0]
            if (p.area < 0.8 * med_area or p.contrast < 0.8 * med_con
                    or min(p.w, p.h) < 0.7 * max(p.w, p.h)):
                continue
        keep.append(r)
    # readable faces first, bigger faces first, then the most top-like
    keep.sort(key=lambda r: (r.value is not None, r.topness * (1 + 0.15 * len(r.pips))),
              reverse=True)
    taken: list[GroupResult] = []
    for r in keep:
        cx, cy = r.centre
        near = 0.8 * die_w if r.value is not None else 1.0 * die_w
        if any(np.hypot(cx - t.centre[0], cy - t.centre[1]) < near for t in taken):
            continue
        taken.append(r)
    return taken


def _on_plain_body(grey: np.ndarray, face: GroupResult, die_w: float) -> bool:
    """A 1 or a 2 must sit on a plain die face: a ring around the face centre, clear of
    the pips, is even in tone and differs from the pips. Turns away letters, cable
    ends and other clutter that show one or two round blobs."""
    cx, cy = face.centre
    radius = (0.3 if face.value == 1 else 0.2) * die_w
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    xs = np.clip(np.rint(cx + radius * np.cos(angles)).astype(int), 0, grey.shape[1] - 1)
    ys = np.clip(np.rint(cy + radius * np.sin(angles)).astype(int), 0, grey.shape[0] - 1)
    ring = grey[ys, xs].astype(np.float32)
    contrast = min(p.contrast for p in face.pips)
    spread = float(np.percentile(ring, 90) - np.percentile(ring, 10))
    return spread <= 0.6 * contrast


def _to_frame(box: RotatedRect, scale: float, ox: int, oy: int) -> RotatedRect:
    (cx, cy), (w, h), a = box
    return ((cx / scale + ox, cy / scale + oy), (w / scale, h / scale), a)


__all__ = ["read_frame", "Pip", "PIP_PER_DIE", "WORK_DIE_PX", "math"]
