"""Calibration: where the tray is in the picture and how big a die is, from a few frames.

The tray floor is the plain region around the middle of the picture, flood-filled on the
per-pixel median of the frames (dice that move drop out of a median) and stopped by the
picture's edges (Canny), closed over the dice lying on it; the tray region is its bounding box. When the floor runs off every edge (a tray bigger than
the view, or a plain table) the whole frame is the region.

The die size is measured without the reader, as the median side of the compact square
blobs that stand out from the floor, so a weak reader cannot spoil the calibration it relies
on; the reader's own estimate is kept beside it for the debug picture and the report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.dice import FrameReading

Roi = tuple[int, int, int, int]


class CalibrationError(Exception):
    """Calibration could not measure something; the message says what to change."""


@dataclass(frozen=True)
class Calibration:
    roi: Roi  # x, y, w, h of the tray floor
    die_size_px: float | None  # die edge, px; None when no die was seen
    frame_size: tuple[int, int]  # width, height of the frames measured
    tray_found: bool  # False: no tray edge seen, roi is the whole frame
    die_size_source: str  # "blobs", "reader" or "none"
    die_size_blobs: float | None = None
    die_size_reader: float | None = None
    blobs: tuple[tuple[tuple[float, float], tuple[float, float], float], ...] = ()
    reading: FrameReading | None = field(default=None, compare=False)

    def as_config(self) -> dict[str, object]:
        """The [camera] keys a unit's config stores."""
        out: dict[str, object] = {"roi": [int(v) for v in self.roi]}
        if self.die_size_px is not None:
            out["die_size_px"] = round(float(self.die_size_px), 1)
        return out


def _median_frame(frames: Sequence[np.ndarray]) -> np.ndarray:
    if len(frames) == 1:
        return frames[0]
    step = max(1, len(frames) // 9)  # a median of up to ~9 frames is plenty and cheap
    return np.median(np.stack(frames[::step]), axis=0).astype(np.uint8)


def _floor_distance(img: np.ndarray) -> tuple[np.ndarray, float]:
    """Lab distance of every pixel to the floor colour, and a threshold from the floor's spread."""
    h, w = img.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    centre = lab[int(h * 0.3):int(h * 0.7), int(w * 0.3):int(w * 0.7)].reshape(-1, 3)
    floor = np.median(centre, axis=0)
    dist = np.linalg.norm(lab - floor, axis=2)
    spread = float(np.median(np.linalg.norm(centre - floor, axis=1)))
    return dist, max(14.0, 5.0 * spread)


# Canny's hysteresis thresholds on the blurred grey picture: a tray's wall, crease or rim is
# an edge above them; the floor's grain and a lens's vignetting stay below. On the byler-d6
# photos anything from 10/40 to 30/90 finds all 28 trays and none of 172 plain tables (the
# flood fill alone, at any step, finds at most 26); the low end also keeps a soft crease
# (1.25 to 3 grey levels a pixel) that the fill's step would cross.
EDGE_LOW, EDGE_HIGH = 10, 40


def find_tray(frames: Sequence[np.ndarray], *, step: float = 3.0) -> tuple[Roi, bool]:
    """The tray floor's bounding box, and whether a tray edge was actually found.

    The floor is flood-filled from the middle, each pixel joining when it is within `step`
    grey levels of a neighbour already in: vignetting and uneven light change the floor slowly
    and pass, the tray's wall is a sharp step and stops the fill. A wall lit evenly from above
    can shade so smoothly from the floor to the rim that no single step is sharp (the
    cardboard trays of byler-d6), so the picture's edges are a barrier too: the fill cannot
    cross a line Canny draws, and the crease or the rim closes the floor in."""
    img = _median_frame(frames)
    h, w = img.shape[:2]
    smooth = cv2.GaussianBlur(img, (0, 0), 2.0)
    edges = cv2.Canny(cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY), EDGE_LOW, EDGE_HIGH)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))  # no diagonal gaps for a 4-way fill
    dist, thr = _floor_distance(img)
    # seed: the floor-coloured pixel nearest the centre (the centre itself may hold a die)
    ys, xs = np.nonzero((dist < thr / 2) & (edges == 0))
    if len(xs) == 0:
        return (0, 0, w, h), False
    i = int(np.argmin((xs - w / 2) ** 2 + (ys - h / 2) ** 2))
    mask = np.zeros((h + 2, w + 2), np.uint8)
    mask[1:-1, 1:-1] = edges > 0  # floodFill never enters a pixel already set in its mask
    cv2.floodFill(smooth, mask, (int(xs[i]), int(ys[i])), (0, 0, 0), (step,) * 3, (step,) * 3,
                  4 | cv2.FLOODFILL_MASK_ONLY | (255 << 8))
    floor = (mask[1:-1, 1:-1] == 255).astype(np.uint8)
    k = max(3, int(min(w, h) / 12)) | 1  # about a die: closes the floor over the dice on it
    floor = cv2.morphologyEx(floor, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    floor = cv2.morphologyEx(floor, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(floor)
    if n < 2:
        return (0, 0, w, h), False
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh, area = (int(v) for v in stats[best])
    touches = (x == 0) + (y == 0) + (x + bw == w) + (y + bh == h)
    if area < 0.15 * w * h or touches >= 3:
        return (0, 0, w, h), False
    return (x, y, bw, bh), True


def _blobs(img: np.ndarray, roi: Roi) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
    """Compact, square blobs on the floor: dice, as rotated rectangles in frame pixels."""
    x, y, w, h = roi
    sub = img[y:y + h, x:x + w]
    dist, thr = _floor_distance(sub)
    fg = (dist > thr * 1.5).astype(np.uint8)
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    short = min(w, h)
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if not (short / 40) ** 2 <= area <= (short / 4) ** 2:
            continue
        (cx, cy), (rw, rh), a = cv2.minAreaRect(c)
        if min(rw, rh) <= 0 or max(rw, rh) / min(rw, rh) > 1.3 or area < 0.7 * rw * rh:
            continue
        bx, by, bw, bh = cv2.boundingRect(c)
        if bx <= 1 or by <= 1 or bx + bw >= w - 1 or by + bh >= h - 1:
            continue  # cut by the tray's edge: not a whole die
        out.append(((cx + x, cy + y), (rw, rh), a))
    return out


def calibrate(frames: Sequence[np.ndarray], *, reader: Callable[..., FrameReading] | None = None,
              use_reader: bool = True) -> Calibration:
    """Measure the tray region and the die size from a few frames of the tray with dice in it.

    reader(frame, die_size_px=..., roi=...) defaults to vision.reader.read_frame."""
    if not frames:
        raise CalibrationError("no frames to calibrate from: is the camera giving pictures?")
    h, w = frames[0].shape[:2]
    roi, found = find_tray(frames)
    still = _median_frame(frames)
    blobs = _blobs(still, roi) + [b for f in frames[-3:] for b in _blobs(f, roi)]
    size_blobs = float(np.median([(b[1][0] + b[1][1]) / 2 for b in blobs])) if blobs else None
    reading = None
    size_reader = None
    if use_reader:
        if reader is None:
            from vision.reader import read_frame as reader
        own = reader(frames[-1], die_size_px=None, roi=roi)  # the reader's own idea of the size
        if own.die_size_px:
            size_reader = float(own.die_size_px)
        elif own.dice:
            size_reader = float(np.median([max(d.box[1]) for d in own.dice]))
        # the picture shows what the reader makes of the frame with the measured size
        reading = reader(frames[-1], die_size_px=size_blobs, roi=roi) if size_blobs else own
    if size_blobs is not None:
        size, source = size_blobs, "blobs"
    elif size_reader is not None:
        size, source = size_reader, "reader"
    else:
        size, source = None, "none"
    return Calibration(roi, size, (w, h), found, source, size_blobs, size_reader, tuple(blobs), reading)


def draw_overlay(frame: np.ndarray, cal: Calibration) -> np.ndarray:
    """The frame with the tray region (green), die blobs (yellow), read dice (blue, with their
    values) and unreadable regions (red, with the reason) drawn on it."""
    out = frame.copy()
    x, y, w, h = cal.roi
    cv2.rectangle(out, (x, y), (x + w - 1, y + h - 1), (0, 200, 0), 2)
    for b in cal.blobs:
        cv2.drawContours(out, [cv2.boxPoints(b).astype(np.int32)], -1, (0, 220, 255), 1)
    if cal.reading is not None:
        for d in cal.reading.dice:
            cv2.drawContours(out, [cv2.boxPoints(d.box).astype(np.int32)], -1, (255, 80, 0), 2)
            (cx, cy), (bw, bh), _ = d.box
            cv2.putText(out, str(d.value), (int(cx + max(bw, bh) / 2 + 2), int(cy)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.7, (255, 80, 0), 2, cv2.LINE_AA)
        for u in cal.reading.unreadable:
            cv2.drawContours(out, [cv2.boxPoints(u.box).astype(np.int32)], -1, (0, 0, 255), 2)
            (cx, cy), _, _ = u.box
            cv2.putText(out, u.reason, (int(cx), int(cy)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 255), 1,
                        cv2.LINE_AA)
    size = "no die seen" if cal.die_size_px is None else f"die {cal.die_size_px:.1f} px ({cal.die_size_source})"
    tray = f"tray {w}x{h} at {x},{y}" if cal.tray_found else "no tray edge: whole frame"
    _caption(out, f"{tray}; {size}")
    return out


def _caption(out: np.ndarray, text: str) -> None:
    """White text on a black band along the bottom, drawn once.

    An outline made by drawing the text twice (thick black, then thin white) does not line
    up in OpenCV 5, whose putText advances each glyph by its thickness: the two copies
    drifted apart into an unreadable double caption."""
    font, scale, thick = cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    y = out.shape[0] - 8
    cv2.rectangle(out, (0, y - th - 6), (min(out.shape[1], tw + 16) - 1, out.shape[0] - 1), (0, 0, 0), cv2.FILLED)
    cv2.putText(out, text, (8, y), font, scale, (255, 255, 255), thick, cv2.LINE_AA)


def write_overlay(path: str | Path, frame: np.ndarray, cal: Calibration) -> Path:
    path = Path(path)
    if path.parent and not path.parent.exists():
        raise CalibrationError(f"cannot write {path}: folder {path.parent} does not exist")
    if not cv2.imwrite(str(path), draw_overlay(frame, cal)):
        raise CalibrationError(f"cannot write {path}: use a .png or .jpg name in a writable folder")
    return path
