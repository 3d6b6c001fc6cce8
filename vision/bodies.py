"""Die bodies: what stands out from the plain surface, as blobs, and the die size.

The surface a die lies on is plain at the scale of a die (a tray, a desk); dice of any
colour differ from it. The surface colour at every point is estimated from a tiny,
median-filtered copy of the frame (dice cover a small part of it), and a pixel belongs to
the foreground when its Lab colour differs enough. Blobs of that mask are candidate dice;
blobs the size of several dice are split by their area in die units.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Lab distance (L weighted down, so soft shadows count less than colour) above which a
# pixel is foreground; a blob must also hold some pixels above the strong level.
WEAK = 11.0
STRONG = 24.0
L_WEIGHT = 0.55


@dataclass(frozen=True)
class Blob:
    rect: tuple[tuple[float, float], tuple[float, float], float]  # minAreaRect, work pixels
    area: float
    contour: np.ndarray

    @property
    def side(self) -> float:
        return float(np.sqrt(self.area))

    @property
    def squareness(self) -> float:
        (_, _), (w, h), _ = self.rect
        if min(w, h) <= 0:
            return 0.0
        fill = self.area / (w * h)
        return float(min(w, h) / max(w, h) * min(1.0, fill / 0.85))


def foreground(work_bgr: np.ndarray) -> np.ndarray:
    """A uint8 0/255 mask of what differs from the surface around it."""
    h, w = work_bgr.shape[:2]
    lab = cv2.cvtColor(work_bgr, cv2.COLOR_BGR2LAB)
    tw, th = max(8, w // 8), max(8, h // 8)
    tiny = cv2.resize(lab, (tw, th), interpolation=cv2.INTER_AREA)
    tiny = cv2.medianBlur(tiny, 5)
    bg = cv2.resize(tiny, (w, h), interpolation=cv2.INTER_LINEAR)
    d = cv2.absdiff(lab, bg).astype(np.float32)
    dist = cv2.magnitude(d[..., 0] * L_WEIGHT, cv2.magnitude(d[..., 1], d[..., 2]) * 1.4)
    weak = (dist > WEAK).astype(np.uint8)
    strong = dist > STRONG
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    weak = cv2.morphologyEx(weak, cv2.MORPH_OPEN, k)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    if n <= 1:
        return np.zeros((h, w), np.uint8)
    has_strong = np.zeros(n, bool)
    has_strong[np.unique(labels[strong])] = True
    has_strong[0] = False
    return (has_strong[labels].astype(np.uint8)) * 255


def blobs(mask: np.ndarray, min_side: float) -> list[Blob]:
    """Filled outer blobs of a mask (pips of the surface's colour are holes: filled)."""
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    if hier is None:
        return out
    for c, hrow in zip(contours, hier[0]):
        if hrow[3] != -1:  # a hole's boundary (a tray's inside, a pip): not a blob
            continue
        area = cv2.contourArea(c)
        if area < min_side * min_side:
            continue
        out.append(Blob(cv2.minAreaRect(c), float(area), c))
    return out


def die_size(candidates: list[Blob]) -> float | None:
    """The typical die edge: the median side of the compact, square blobs of a similar size."""
    sq = [b for b in candidates if b.squareness > 0.6]
    if not sq:
        return None
    sides = np.array(sorted(b.side for b in sq))
    # the densest run of sides within +-25 %: the dice, not noise or clutter
    best, best_n = float(np.median(sides)), 0
    for s in sides:
        n = int(((sides > s * 0.8) & (sides < s * 1.25)).sum())
        if n > best_n or (n == best_n and s > best):
            best_n, best = n, float(np.median(sides[(sides > s * 0.8) & (sides < s * 1.25)]))
    return best


def split(blob: Blob, mask: np.ndarray, die: float) -> list[Blob]:
    """A blob of k dice run together, cut into k parts by k-means on its pixels."""
    k = int(round(blob.area / (die * die)))
    if k < 2 or k > 8:
        return [blob]
    x, y, w, h = cv2.boundingRect(blob.contour)
    sub = np.zeros((h, w), np.uint8)
    cv2.drawContours(sub, [blob.contour - np.array([x, y])], -1, 255, -1)
    sub &= mask[y:y + h, x:x + w]
    ys, xs = np.nonzero(sub)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    if len(pts) < k * 4:
        return [blob]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, lab, _ = cv2.kmeans(pts, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    out = []
    for i in range(k):
        p = pts[lab.ravel() == i]
        if len(p) < 4:
            continue
        p = p + np.array([x, y], np.float32)
        hull = cv2.convexHull(p)
        out.append(Blob(cv2.minAreaRect(p), float(len(p)), hull.astype(np.int32)))
    return out
