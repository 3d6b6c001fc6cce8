"""Pips as blobs, the pip size of a frame, and pips grouped into die faces.

All sizes here are given in pixels of the image passed in, derived from a die edge
length (die_w) or a pip diameter: nothing is tied to one camera distance.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# A pip must stand out from its surroundings by this many grey levels (of 255).
MIN_CONTRAST = 28.0
# Pip diameter, as measured here (the blob above half its peak contrast), as a fraction of
# the die edge: 0.10-0.16 on the shared photo sets, median about 0.12.
PIP_PER_DIE = 0.12


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    area: float
    w: float  # bounding box
    h: float
    dark: bool  # dark pip on a lighter body (else light pip on a darker body)
    contrast: float  # peak difference to the body around it, grey levels

    @property
    def diameter(self) -> float:
        return 2.0 * float(np.sqrt(self.area / np.pi))


def _odd(n: float) -> int:
    k = max(3, int(round(n)))
    return k if k % 2 else k + 1


def _blobs(response: np.ndarray, threshold: float, min_area: float, max_area: float,
           max_side: float, local: int = 0) -> np.ndarray:
    """Connected blobs of response > threshold: rows x, y, area, w, h, peak.

    With local > 0 a pixel must also reach half the strongest response within a
    local x local window, which splits pips that nearly touch (large pips on a 6).
    """
    binary = response > threshold
    if local:
        peak_near = cv2.dilate(response, cv2.getStructuringElement(cv2.MORPH_RECT, (local, local)))
        binary &= response.astype(np.uint16) * 2 >= peak_near
    binary = binary.astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if n <= 1:
        return np.zeros((0, 6), np.float32)
    on = binary.astype(bool)
    lab = labels[on]
    peak = np.zeros(n, np.float32)
    np.maximum.at(peak, lab, response[on].astype(np.float32))
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float32)
    w = stats[:, cv2.CC_STAT_WIDTH].astype(np.float32)
    h = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float32)
    fill = area / np.maximum(1.0, w * h)
    aspect = np.maximum(w, h) / np.maximum(1.0, np.minimum(w, h))
    keep = ((area >= min_area) & (area <= max_area) & (np.maximum(w, h) <= max_side)
            & (fill >= 0.45) & (aspect <= 2.6))
    keep[0] = False
    idx = np.nonzero(keep)[0]
    return np.column_stack([cents[idx, 0], cents[idx, 1], area[idx], w[idx], h[idx],
                            peak[idx]]).astype(np.float32)


def _responses(grey: np.ndarray, kernel: int) -> tuple[np.ndarray, np.ndarray]:
    """(dark-blob, light-blob) local contrast: black-hat and top-hat at pip scale."""
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel, kernel))
    dark = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, k)
    light = cv2.morphologyEx(grey, cv2.MORPH_TOPHAT, k)
    return dark, light


def estimate_pip_diameter(grey: np.ndarray) -> float | None:
    """The typical pip diameter in pixels, from the round blobs that come in clusters.

    Looks for small round blobs at several scales of the frame; pips of one face lie
    near pips of the same size, so the scale with the most such clustered blobs wins
    and their median size is the answer. None when nothing like a pip is in sight.
    """
    kernel = 9
    lo, hi = 2.4, 6.5  # blob diameters, in pixels of the scaled image, the kernel sees well
    best: tuple[float, float] | None = None  # (score, diameter at full scale)
    candidates = []
    s = 0.75
    while min(grey.shape[:2]) * s >= 48:
        small = cv2.resize(grey, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        diams = []
        for resp in _responses(small, kernel):
            b = _blobs(resp, MIN_CONTRAST, np.pi * (lo / 2) ** 2, np.pi * (hi / 2) ** 2, hi + 2,
                       local=5)
            if len(b) < 2:
                continue
            d = 2 * np.sqrt(b[:, 2] / np.pi)
            xy = b[:, :2]
            dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
            ratio = d[:, None] / d[None, :]
            near = (dist < 4.5 * d[:, None]) & (ratio > 0.66) & (ratio < 1.5)
            np.fill_diagonal(near, False)
            clustered = near.any(axis=1)
            diams.extend(d[clustered].tolist())
        if diams:
            med = float(np.median(diams))
            candidates.append((len(diams), med, s))
        s *= 0.7
    if not candidates:
        return None
    top = max(c[0] for c in candidates)
    good = [c for c in candidates if c[0] >= 0.6 * top]
    mid = (lo + hi) / 2
    n, med, s = min(good, key=lambda c: abs(c[1] - mid))
    best = (n, med / s)
    return best[1]


def find_pips(grey: np.ndarray, die_w: float) -> list[Pip]:
    """Every pip-like blob, dark or light, in an image where a die edge is die_w px."""
    pip_d = die_w * PIP_PER_DIE
    kernel = _odd(2.2 * pip_d)
    expect = np.pi * (pip_d / 2) ** 2
    pips: list[Pip] = []
    for dark, resp in zip((True, False), _responses(grey, kernel)):
        b = _blobs(resp, MIN_CONTRAST, 0.25 * expect, 3.2 * expect, 2.4 * pip_d,
                   local=_odd(1.6 * pip_d))
        for x, y, area, w, h, peak in b:
            pips.append(Pip(float(x), float(y), float(area), float(w), float(h), dark,
                            float(peak)))
    return _drop_gaps(pips, pip_d)


def _drop_gaps(pips: list[Pip], pip_d: float) -> list[Pip]:
    """Drop blobs that are the body showing between pips of the other polarity.

    The light patch between two dark pips looks like a light blob at pip scale; a
    blob with a stronger blob of the other polarity right next to it is such a gap.
    """
    if len(pips) < 2:
        return pips
    xy = np.array([[p.x, p.y] for p in pips], np.float32)
    dark = np.array([p.dark for p in pips])
    con = np.array([p.contrast for p in pips], np.float32)
    dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    rival = (dist < 2.2 * pip_d) & (dark[:, None] != dark[None, :]) & (con[None, :] >= con[:, None])
    return [p for p, r in zip(pips, rival.any(axis=1)) if not r]


def _segment_uniform(smooth: np.ndarray, pip_mask: np.ndarray, a: Pip, b: Pip,
                     tolerance: float, samples: int = 14) -> bool:
    """True when the body between two pips is unbroken: no edge or gap between dice."""
    t = np.linspace(0.0, 1.0, samples)
    xs = np.clip(np.rint(a.x + (b.x - a.x) * t).astype(int), 0, smooth.shape[1] - 1)
    ys = np.clip(np.rint(a.y + (b.y - a.y) * t).astype(int), 0, smooth.shape[0] - 1)
    off = ~pip_mask[ys, xs]
    if off.sum() < 2:
        return True
    vals = smooth[ys, xs][off].astype(np.float32)
    ref = float(np.median(vals))
    return bool(np.abs(vals - ref).max() <= tolerance)


def group_pips(grey: np.ndarray, pips: list[Pip], die_w: float,
               link_die: float = 0.95) -> list[list[Pip]]:
    """Pips that lie on one die face, as groups; each pip belongs to exactly one group.

    Two pips join when they are of one polarity and size, close enough to share a
    face (a 2 shows its pips about 0.85 die edges apart), and the die body between
    them is unbroken: touching dice have an edge or a shadow line between them.
    """
    n = len(pips)
    if n == 0:
        return []
    smooth = cv2.GaussianBlur(grey, (3, 3), 0)
    pip_mask = np.zeros(grey.shape[:2], np.uint8)
    for p in pips:
        cv2.circle(pip_mask, (int(round(p.x)), int(round(p.y))),
                   int(round(max(p.w, p.h) / 2 + 1.5)), 1, -1)
    pip_mask = pip_mask.astype(bool)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    xy = np.array([[p.x, p.y] for p in pips], np.float32)
    dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    link = link_die * die_w
    for i in range(n):
        for j in range(i + 1, n):
            if dist[i, j] > link or pips[i].dark != pips[j].dark:
                continue
            ratio = pips[i].area / pips[j].area
            if ratio > 2.2 or ratio < 1 / 2.2:
                continue
            tol = 0.6 * min(pips[i].contrast, pips[j].contrast)
            if not _segment_uniform(smooth, pip_mask, pips[i], pips[j], tol):
                continue
            ri, rj = find(i), find(j)
            if ri != rj:
                parent[ri] = rj
    groups: dict[int, list[Pip]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(pips[i])
    return list(groups.values())
