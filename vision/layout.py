"""Does a group of pips form one of the six die faces, and which?

A face of edge E shows its pips on a 3x3 grid of pitch about 0.28 E around the face
centre. The checks are loose enough for the squash an oblique camera puts on the top
face and strict enough to turn away side faces seen edge-on, blobs of a printed tray
wall and two faces run together.

The die crop is turned upright by its outline, so a face's pip grid runs along the face's
own edges: the 2 and 3 lie on a diagonal, the corner pips of 4/5/6 at 45 degrees from
the edges. A pair of glare spots or two pips of a 4 seen as a 2 rarely lie so.
"""

from __future__ import annotations

import numpy as np


# in die edges: the pips of a face span at most MAX_EXTENT, no two lie nearer than
# MIN_APART, and a 2's diagonal spans at least TWO_EXTENT
MAX_EXTENT = 1.05
MIN_APART = 0.17
TWO_EXTENT = 0.42
INNER_6 = 0.9  # a 6's middle pips lie at most this part of its corners' distance from its centre
# (0.71 on a square face; one pip displaced by the spot search or the squash of an oblique view
# reached 0.85-0.9 on real 6s, while the other checks still turn away a 4 with two side pips)
_PAIRS = {n: np.triu_indices(n, 1) for n in range(2, 7)}  # each pair of n points once
_OTHERS = {n: [np.array([j for j in range(n) if j != i]) for i in range(n)] for n in (3, 5)}  # np.delete(r, i), as an index


def centroid(pts: np.ndarray) -> np.ndarray:
    """The points' mean: pts.mean(axis=0) without its checks (this runs for every layout tried)."""
    return np.add.reduce(pts, 0) / len(pts)


def pair_distances(pts: np.ndarray, die_w: float) -> np.ndarray:
    """Each two points' distance apart, in die edges (n x n): those of the first k points are its first k rows and columns."""
    return np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1]) / die_w


def layout_error(pts: np.ndarray, die_w: float, d: np.ndarray | None = None) -> float | None:
    """How far the points are from the layout of their count, in die edges (None: not one).

    d: pair_distances(pts, die_w) when the caller has it (a chooser tries the first k of
    the same points for each k).
    """
    n = len(pts)
    if n == 1:
        return 0.0
    if d is None:
        d = pair_distances(pts, die_w)
    extent = d.max()
    if extent > MAX_EXTENT or n > 6:
        return None
    if n > 1 and d[_PAIRS[n]].min() < MIN_APART:
        return None
    if n == 2:
        return 0.0 if TWO_EXTENT <= extent else None
    return shape_error(pts, die_w, d, extent)


def shape_error(pts: np.ndarray, die_w: float, d: np.ndarray, extent: np.float32) -> float | None:
    """layout_error of 3-6 points past its first checks (extent, the nearest two), which the caller made.

    d: pair_distances(pts, die_w); extent: d.max() (float32: its bounds are held as float32 holds them).
    """
    n = len(pts)
    c = centroid(pts)
    r = np.hypot(*(pts - c).T) / die_w
    if n == 3:
        # in a line, the middle pip on the centre
        mid = int(np.argmin(r))
        if r[mid] > 0.1 or extent < 0.45:
            return None
        outer = r[_OTHERS[3][mid]]
        return float(r[mid] + abs(outer[0] - outer[1]))
    if n == 4:
        if r.min() < 0.6 * r.max() or extent < 0.4:
            return None
        return float((r.max() - r.min()))
    if n == 5:
        mid = int(np.argmin(r))
        outer = r[_OTHERS[5][mid]]
        if r[mid] > 0.1 or outer.min() < 0.6 * outer.max():
            return None
        return float(r[mid] + outer.max() - outer.min())
    # n == 6: two rows of three; the two middle pips nearer the centre, opposite each other
    order = np.argsort(r)
    inner, outer = order[:2], order[2:]
    if r[inner].max() > INNER_6 * r[outer].min() or outer.size != 4:
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


def layout_tilt(pts: np.ndarray, edge_angle: float = 0.0) -> float:
    """How far (degrees, 0-45) a layout is turned from a face whose edges run at edge_angle.

    The pips of 2-5 farthest from their centre are the face's corners (at 45 degrees to
    its edges); a 6 is told by its two middle pips, which lie along an edge.
    """
    n = len(pts)
    if n < 2:
        return 0.0
    c = centroid(pts)
    if n in (2, 4):  # every pip is a corner: no order needed
        v = pts - c
        a = (np.degrees(np.arctan2(v[:, 1], v[:, 0])) - edge_angle) % 90
        return float(np.max(np.abs(a - 45)))
    r = np.hypot(*(pts - c).T)
    if n <= 5:
        v = pts[np.argsort(r)[-(4 if n > 3 else 2):]] - c
        a = (np.degrees(np.arctan2(v[:, 1], v[:, 0])) - edge_angle) % 90
        return float(np.max(np.abs(a - 45)))
    inner = np.argsort(r)[:2]
    v = pts[inner[0]] - pts[inner[1]]
    a = float((np.degrees(np.arctan2(v[1], v[0])) - edge_angle) % 90)
    return min(a, 90 - a)
