"""Does a group of pips form one of the six die faces, and which?

A face of edge E shows its pips on a 3x3 grid of pitch about 0.28 E around the face
centre. The checks are loose enough for the squash an oblique camera puts on the top
face and strict enough to turn away side faces seen edge-on, blobs of a printed tray
wall and two faces run together.
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
    pips: tuple[Pip, ...] = ()

    @property
    def centre(self) -> tuple[float, float]:
        return self.box[0]

    @property
    def topness(self) -> float:
        """How much this looks like a face seen from above: big, round, strong pips."""
        if not self.pips:
            return 0.0
        area = float(np.mean([p.area for p in self.pips]))
        round_ = float(np.mean([min(p.w, p.h) / max(p.w, p.h) for p in self.pips]))
        return area * round_


def _box(points: np.ndarray, die_w: float) -> RotatedRect:
    cx, cy = points.mean(axis=0)
    angle = 0.0
    if len(points) >= 2:
        (_, _), (_, _), a = cv2.minAreaRect(points.astype(np.float32))
        angle = float(a)
        if len(points) in (2, 3):  # a diagonal: the face's sides lie 45 degrees off it
            angle = (angle + 45.0) % 90.0
    return ((float(cx), float(cy)), (float(die_w), float(die_w)), angle)


def layout_error(pts: np.ndarray, die_w: float) -> float | None:
    """How far the points are from the layout of their count, in die edges (None: not one)."""
    n = len(pts)
    if n == 1:
        return 0.0
    c = pts.mean(axis=0)
    r = np.hypot(*(pts - c).T) / die_w
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1]) / die_w
    extent = d.max()
    if extent > 1.05 or n > 6:
        return None
    if n > 1 and d[np.triu_indices(n, 1)].min() < 0.17:
        return None
    if n == 2:
        return 0.0 if 0.42 <= extent else None
    if n == 3:
        # in a line, the middle pip on the centre
        mid = int(np.argmin(r))
        if r[mid] > 0.1 or extent < 0.45:
            return None
        outer = np.delete(r, mid)
        return float(r[mid] + abs(outer[0] - outer[1]))
    if n == 4:
        if r.min() < 0.6 * r.max() or extent < 0.4:
            return None
        return float((r.max() - r.min()))
    if n == 5:
        mid = int(np.argmin(r))
        outer = np.delete(r, mid)
        if r[mid] > 0.1 or outer.min() < 0.6 * outer.max():
            return None
        return float(r[mid] + outer.max() - outer.min())
    # n == 6: two rows of three; the two middle pips nearer the centre, opposite each other
    order = np.argsort(r)
    inner, outer = order[:2], order[2:]
    if r[inner].max() > 0.85 * r[outer].min() or outer.size != 4:
        return None
    if np.hypot(*(pts[inner].mean(axis=0) - c)) / die_w > 0.1:
        return None
    if r[outer].min() < 0.7 * r[outer].max():
        return None
    # columns twice as far apart as the pips in a column: not a 4 with two side pips
    across = float(np.hypot(*(pts[inner[0]] - pts[inner[1]]))) / die_w
    pitch = float(np.mean([d[i][outer].min() for i in inner]))
    if across < 1.15 * pitch:
        return None
    return float(r[outer].max() - r[outer].min() + r[inner].max() - r[inner].min())


def classify_group(group: list[Pip], die_w: float) -> GroupResult:
    """Read a group of pips as one face, or say why it cannot be read."""
    pts = np.array([[p.x, p.y] for p in group], np.float32)
    box = _box(pts, die_w)
    err = layout_error(pts, die_w)
    if err is not None:
        return GroupResult(len(group), box, float(max(0.05, 1.0 - 2.0 * err)), "", tuple(group))
    # A face with a side face's pips run into it: keep the pips that look seen from above
    # (the biggest, roundest) and try again.
    big = max(p.area for p in group)
    top = [p for p in group if p.area >= 0.6 * big and min(p.w, p.h) >= 0.6 * max(p.w, p.h)]
    if 0 < len(top) < len(group):
        tpts = np.array([[p.x, p.y] for p in top], np.float32)
        err = layout_error(tpts, die_w)
        if err is not None:
            return GroupResult(len(top), _box(tpts, die_w), float(max(0.05, 0.8 - 2.0 * err)),
                               "", tuple(top))
    return GroupResult(None, box, 0.0, "unclear", tuple(group))
