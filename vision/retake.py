"""The same photo as another camera, lens or room would have taken it.

The reader is judged on photographs that are not in the shared sets. These changes stand
in for them: a reader tuned to the exact pixels of the shared photos loses under every
one, a reader tuned to the kind of picture holds. `bunco bench vision DIR --change NAME`
scores a set so changed, and the accuracy tests keep a floor on some of them.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.drawn import motion_blur

Change = Callable[[np.ndarray], np.ndarray]


def _scale(f: float) -> Change:
    return lambda img: cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)


def _exposure(gain: float) -> Change:
    return lambda img: cv2.convertScaleAbs(img, alpha=gain)


def _gamma(g: float) -> Change:
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** g + 0.5, 0, 255).astype(np.uint8)
    return lambda img: cv2.LUT(img, lut)


def _white_balance(b: float, r: float) -> Change:
    return lambda img: cv2.convertScaleAbs(img * np.array([b, 1.0, r], np.float32))


def _blur(sigma: float) -> Change:
    return lambda img: cv2.GaussianBlur(img, (0, 0), sigma)


def _motion(length: int, degrees: float) -> Change:
    # the camera shaken during the exposure (or every die still sliding the same way)
    return lambda img: motion_blur(img, length, degrees)


def _jpeg(quality: int) -> Change:
    return lambda img: cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                                    cv2.IMREAD_COLOR)


def _shift(dx: int, dy: int) -> Change:
    # the picture moved by whole pixels, the edge pixels repeated: the same scene, sampled on another grid
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return lambda img: cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)


def _turn(degrees: float) -> Change:
    # the camera turned a little about its axis: every pixel resampled, the edges repeated
    def turn(img: np.ndarray) -> np.ndarray:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), degrees, 1.0)
        return cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return turn


def _noise(sd: float) -> Change:
    # seeded from the picture, so each photo gets the same noise on every run
    def add(img: np.ndarray) -> np.ndarray:
        rng = np.random.default_rng(int(img[::37, ::41].sum()))
        return np.clip(img + rng.normal(0.0, sd, img.shape), 0, 255).astype(np.uint8)
    return add


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


CHANGES: dict[str, Change] = {
    "none": lambda img: img,
    "scale0.6": _scale(0.6),  # a camera further away, or of fewer pixels
    "scale0.8": _scale(0.8),
    "scale1.5": _scale(1.5),  # nearer, or more pixels
    "dark0.6": _exposure(0.6),  # a dim room under a locked exposure
    "gamma1.5": _gamma(1.5),  # another tone curve: darker middle tones
    "warm": _white_balance(0.8, 1.15),  # tungsten light, white balance locked elsewhere
    "blur1": _blur(1.0),  # soft focus
    "motion7": _motion(7, 30.0),  # a shaken camera: a 7-px streak (a fifth of a byler-d6 die's side)
    "jpeg40": _jpeg(40),  # heavy compression
    "noise8": _noise(8.0),  # a small sensor in poor light
    "shift1": _shift(1, 1),  # the camera nudged by a pixel
    "shift3": _shift(3, 2),  # nudged again, onto another grid: a check for a rule tuned on shift1
    "turn1": _turn(1.0),  # the camera turned by a degree
    "grey": _grey,  # a monochrome camera (a dice tower's), its one channel given as three
}
