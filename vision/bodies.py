"""Die bodies: what stands out from the plain surface, as blobs, and the die size.

The surface a die lies on is plain at the scale of a die (a tray, a desk); dice of any
colour differ from it. The surface colour at every point is estimated from a tiny,
median-filtered copy of the frame (dice cover a small part of it), and a pixel belongs to
the foreground when its Lab colour differs enough, or when it lies on a strong outline (a
pale die on a pale surface). A blob too big for one die is cut at higher distance levels
first (a die against the tray wall differs from the surface more than the seam does). Blobs of that mask are candidate dice;
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
# Sobel strength of the surface-level grey above which a pixel is an outline: at least
# EDGE, and EREL times the frame's median (a grained desk's own texture is not an outline)
EDGE = 70.0
EREL = 25.0
LEVELS = (18.0, 28.0, 42.0)  # higher levels a too-big blob is cut at


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
    return foreground_dist(work_bgr)[0]


def foreground_dist(work_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The foreground mask and the colour distance from the surface it was cut from."""
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
    # a pale die on a pale surface differs from it mostly at its outline and pips: its
    # outline joins the fragments of its mask into one blob
    grey = cv2.GaussianBlur(lab[..., 0], (3, 3), 0)
    mag = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    edge = (mag > max(EDGE, EREL * float(np.median(mag)))).astype(np.uint8)
    weak |= cv2.morphologyEx(edge, cv2.MORPH_CLOSE, k)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    if n <= 1:
        return np.zeros((h, w), np.uint8), dist
    has_strong = np.zeros(n, bool)
    has_strong[np.unique(labels[strong])] = True
    has_strong[0] = False
    return (has_strong[labels].astype(np.uint8)) * 255, dist


def raise_level(blob: Blob, mask: np.ndarray, dist: np.ndarray, die: float, min_side: float) -> tuple[list[Blob], int]:
    """Die-sized parts of a too-big blob, cut out at higher colour-distance levels.

    A die touching the tray wall or a die of another colour runs into one blob at the
    surface level; the die differs from the surface more than the seam between them, so
    at some higher level the blob falls apart. The first level whose parts are mostly
    square and die-sized wins: (its parts, how many of them look like one die).
    """
    x, y, w, h = cv2.boundingRect(blob.contour)
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, [blob.contour - np.array([x, y])], -1, 255, -1)
    # the blob's own pixels and its small holes (pips), not what lies in a big hole of it
    # (the dice inside a tray's rim)
    _, own = cv2.connectedComponents(mask[y:y + h, x:x + w] & filled, connectivity=8)
    px, py = blob.contour[0, 0] - np.array([x, y])
    sub = (own == own[py, px]).astype(np.uint8)
    nh, hl, hs, _ = cv2.connectedComponentsWithStats(((filled > 0) & (sub == 0)).astype(np.uint8), connectivity=4)
    small = hs[:, cv2.CC_STAT_AREA] < 0.3 * die * die
    small[0] = False
    sub = ((sub > 0) | small[hl]).astype(np.uint8)
    d = dist[y:y + h, x:x + w]
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    best: list[Blob] = []
    best_n = 0
    for level in LEVELS:
        m = ((d > level) & (sub > 0)).astype(np.uint8) * 255
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, k)
        parts = [Blob(((b.rect[0][0] + x, b.rect[0][1] + y), b.rect[1], b.rect[2]), b.area, b.contour + np.array([x, y]))
                 for b in blobs(m, min_side)]
        n = sum(0.55 * die * die < b.area < 1.5 * die * die and b.squareness > 0.6 for b in parts)
        if n > best_n:
            best_n, best = n, [b for b in parts if b.area > 0.35 * die * die]
    return best, best_n


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
    return _typical_side([b.side for b in sq])


def _typical_side(found: list[float]) -> float:
    """The median of the densest run of sides within +-25 %: the dice, not noise or clutter."""
    sides = np.array(sorted(found))
    best, best_n = float(np.median(sides)), 0
    for s in sides:
        n = int(((sides > s * 0.8) & (sides < s * 1.25)).sum())
        if n > best_n or (n == best_n and s > best):
            best_n, best = n, float(np.median(sides[(sides > s * 0.8) & (sides < s * 1.25)]))
    return best


def die_size_inscribed(candidates: list[Blob], mask: np.ndarray) -> float | None:
    """The die edge from the widest circle inside each blob, when no blob is square.

    Dice run together (a pair touching) make no square blob, but the circle inscribed in
    the pair is still the one inscribed in one die. A blob counts when its area holds
    one to a few dice of that size (not a cable, not a laptop's edge).
    """
    dt = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
    sides = []
    for b in candidates:
        x, y, w, h = cv2.boundingRect(b.contour)
        inner = np.zeros((h, w), np.uint8)
        cv2.drawContours(inner, [b.contour - np.array([x, y])], -1, 1, -1)
        r = float((dt[y:y + h, x:x + w] * inner).max())
        side = 2.0 * r
        if side > 0 and 0.7 < b.area / (side * side) < 6.0:
            sides.append(side)
    if not sides:
        return None
    return _typical_side(sides)


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
    # k-means++ draws from OpenCV's global random state: seed it, so the same frame reads
    # the same whatever was read before it
    cv2.setRNGSeed(len(pts))
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
