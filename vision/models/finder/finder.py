"""Finder: a frame in, the dice's centres and sizes out (a heatmap network run by cv2.dnn).

The network sees the frame letterboxed to 256x256 (the longer side scaled to 256, pasted top-left
on black) and gives three 64x64 maps (CenterNet's heads): "heat", how sure it is that a die's
centre lies in each cell (sigmoid applied in the net), "size", the die's side there in input
pixels / 64, and "offset", where in its cell the centre lies (dx, dy in cells from the cell's
middle). A die is a 3x3 local maximum of the heat over a threshold, placed by its offset: a cell is
4 input pixels, a few frame pixels, too coarse to centre a small die's crop on.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.drawn import letterbox
from vision.models import load, model_path

INPUT = 256  # the network's square input
STRIDE = 4  # input pixels per heat cell (256 / 64)
SIZE_UNIT = 64.0  # the size map's unit, in input pixels
OVERLAP = 0.5  # a find nearer than this x a larger find's side to its centre, ...
NESTED = 0.8  # ... and under this x its side, is one of that die's pips (see peaks)
SAME = 0.4  # a find nearer than this x a larger find's side to its centre, whatever its size, is that die


class Found(NamedTuple):
    """One die the finder found, in the frame's pixels: (xc, yc, side, score)."""

    xc: float
    yc: float
    side: float  # the die's side (its box's longer side)
    score: float  # the heat at its centre, 0..1


class Finder:
    """finder(frame_bgr) -> [Found], best first. The net is read on first use (vision.models.load)."""

    def __init__(self, threshold: float = 0.3, path=None, trim: bool = False) -> None:
        self.threshold = threshold
        self.trim = trim
        self.path = path if path is not None else model_path("finder")

    def maps(self, frame_bgr: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """The heat, size and offset maps of a frame (64x64; fewer rows or columns trimmed), and the letterbox scale (input px / frame px)."""
        if frame_bgr.ndim == 2:
            frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
        square, scale = letterbox(frame_bgr, INPUT, trim=self.trim, scale=scale)
        net = load(self.path)
        net.setInput(cv2.dnn.blobFromImage(square, 1 / 255.0, swapRB=False), "image")
        heat, size, offset = net.forward(["heat", "size", "offset"])
        return heat[0, 0], size[0, 0], offset[0], scale

    def __call__(self, frame_bgr: np.ndarray, scale: float | None = None) -> list[Found]:
        """The dice in the frame; scale: see letterbox (None: the frame's longer side to 256)."""
        heat, size, offset, scale = self.maps(frame_bgr, scale)
        return peaks(heat, size, offset, scale, self.threshold, frame_bgr.shape[1], frame_bgr.shape[0])


def peaks(heat: np.ndarray, size: np.ndarray, offset: np.ndarray, scale: float, threshold: float,
          width: int, height: int) -> list[Found]:
    """The 3x3 local maxima of `heat` over `threshold`, in frame pixels, best first.

    Plateaus (two equal neighbouring cells) would give two dice for one: of equal cells only the
    first in raster order is kept. A big die's pip can look like a small die to the net: a peak
    much smaller than another and within half the other's side of its centre is a pip of that die,
    and dropped. Peaks of like size that close are kept: two dice side by side seen obliquely,
    whose sides the net overestimates. Closer still (SAME) they are one die: a tilted die's top and
    side faces, each marked by a finder trained to split dice that lie against each other.
    """
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= top) & (heat >= threshold))
    taken = np.zeros(heat.shape, bool)
    out: list[Found] = []
    for y, x in sorted(zip(ys.tolist(), xs.tolist()), key=lambda p: -heat[p]):
        if taken[max(0, y - 1):y + 2, max(0, x - 1):x + 2].any():
            continue
        taken[y, x] = True
        xc = ((x + 0.5 + float(offset[0, y, x])) * STRIDE) / scale
        yc = ((y + 0.5 + float(offset[1, y, x])) * STRIDE) / scale
        if xc >= width or yc >= height:
            continue  # in the letterbox's black padding
        side = float(size[y, x]) * SIZE_UNIT / scale
        out.append(Found(xc, yc, side, float(heat[y, x])))
    dice: list[Found] = []
    for f in sorted(out, key=lambda f: -f.side):  # the larger first: a die holds its pips, not they it
        near = [(np.hypot(f.xc - d.xc, f.yc - d.yc), d.side) for d in dice]
        if not any((f.side < NESTED * side and dist < OVERLAP * side) or dist < SAME * side for dist, side in near):
            dice.append(f)
    return sorted(dice, key=lambda f: -f.score)
