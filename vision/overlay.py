"""A picture of what the reader saw: boxes and values drawn on the frame."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice import FrameReading


def draw_reading(frame_bgr: np.ndarray, reading: FrameReading) -> np.ndarray:
    """A copy of the frame with each die's box and value (green) and each unreadable region
    (red, with its reason) drawn on it."""
    out = frame_bgr.copy()
    if out.ndim == 2:
        out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
    size = reading.die_size_px or 40.0
    font = max(0.4, size / 60.0)
    thick = max(1, int(round(size / 30.0)))
    for die in reading.dice:
        pts = cv2.boxPoints(die.box).astype(np.int32)
        cv2.polylines(out, [pts], True, (0, 200, 0), thick)
        (cx, cy), (_, h), _ = die.box
        org = (int(cx - size * 0.15), int(cy - h / 2 - 4))
        cv2.putText(out, str(die.value), org, cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0), thick + 2)
        cv2.putText(out, str(die.value), org, cv2.FONT_HERSHEY_SIMPLEX, font, (0, 255, 0), thick)
    for region in reading.unreadable:
        pts = cv2.boxPoints(region.box).astype(np.int32)
        cv2.polylines(out, [pts], True, (0, 0, 255), thick)
        (cx, cy), (_, h), _ = region.box
        org = (int(cx - size * 0.5), int(cy - h / 2 - 4))
        cv2.putText(out, "?" + region.reason, org, cv2.FONT_HERSHEY_SIMPLEX, font * 0.7,
                    (0, 0, 255), thick)
    return out
