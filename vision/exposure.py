"""A frame's exposure brought up to a normal one before it is read.

The reader's floors are in Lab units (a pip's least contrast, a pale body's nearness to
the surface), and a frame exposed at 60 % of normal holds every contrast at about 60 %:
on penlington-wood so darkened, exact match fell from 0.86 to 0.42 and 29 extra dice
were read. A camera's exposure is locked after its warm-up in whatever light the room
has, so a dim room gives such frames. A frame whose bright end (the 99th percentile of
its grey, the dice and the lit surface) lies below BRIGHT is scaled up to it; a frame
exposed normally is left as it is (the shared photos' bright ends lie at 169-225).
Overexposure is not undone: what clipped is gone.

A noisy frame (a small sensor in poor light, or a dim frame brought up) is smoothed first
(denoised): the hole reader's Otsu planes and the pip seeds' dark spots are cut at single
pixels, and a pixel's noise breaks a body plane into holes and a pip into pieces.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.numeric import median

BRIGHT = 170.0  # grey level of a normally exposed frame's bright end (99th percentile)
MAX_GAIN = 4.0  # a darker frame is mostly noise: brought up this much at most
MIN_GAIN = 1.05  # a smaller gain is the scene's own light, not underexposure
BRIGHT_END = 0.99


def bright_end(frame_bgr: np.ndarray) -> float:
    """The grey level below which BRIGHT_END of the frame lies.

    Counted on every fourth pixel each way (a nearest-neighbour resize, 0.03 ms a frame
    against 0.3 for every pixel): a percentile of 19,000 pixels is as good.
    """
    tiny = cv2.resize(frame_bgr, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_NEAREST)
    grey = tiny if tiny.ndim == 2 else cv2.cvtColor(tiny, cv2.COLOR_BGR2GRAY)
    hist = cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel()
    return float(np.searchsorted(np.cumsum(hist), BRIGHT_END * hist.sum()))


def exposed(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame, scaled up to a normal exposure when it is underexposed (else the very same array)."""
    gain = min(MAX_GAIN, BRIGHT / max(1.0, bright_end(frame_bgr)))
    if gain < MIN_GAIN:
        return frame_bgr
    return cv2.convertScaleAbs(frame_bgr, alpha=gain)


# a frame is noisy when its grey's noise (noise_sd) is at least NOISE_AT grey levels: the shared photos, at every
# scale, blur, JPEG quality and exposure retake.py makes of them, lie at 0-0.5; retake.py's noise8 at 5.4
NOISE_AT = 2.0
# a noisy frame is smoothed by a bilateral filter of DENOISE_D pixels (DENOISE_SPACE its spatial sigma) that averages
# only colours within DENOISE_COLOUR of the noise's sd of each other: noise is a pixel's own, so its filter is in
# pixels (not die edges); a pip's edge stands far above the noise and is kept. noise8 exact/recall/wrong: byler-d6
# 0.535/0.8816/34 -> 0.615/0.9038/31 (a heap's noisy foreground cut no die: 111316; centre pips lost in the noise),
# penlington-wood 0.9226/0.9674/2 -> 0.9097/0.9558/4 (pale dice on the pale desk: their faint outlines are smoothed
# too, two run together). 5 px, sigma 2: byler-d6 0.595/0.9032/38, penlington-wood 0.9065/0.9611/3; 9 px, sigma 4:
# byler-d6 0.645/0.9072/35; 3 sds of colour 0.59/0.8951/37, 1.2 0.575/0.8911/35; non-local means at 1.2 sds
# 0.535/0.8541/36 (smooths small pips away); the crops alone smoothed, not the frame stage's: 0.565/0.8843/44
DENOISE_D = 7
DENOISE_SPACE = 3.0
DENOISE_COLOUR = 2.0
DENOISE = True  # False: for tests
_GREY_SD = 0.67  # a colour noise's sd in the grey (0.299, 0.587, 0.114 of three independent channels)
NOISE_STEP = 4  # the noise is measured at every NOISE_STEP-th pixel each way: the 25,000 answers of a 640x640
# frame give the same sd as all 400,000 (noise8 5.436, the other changes 0) at a quarter of the time (0.66 ms
# against 2.87 on a loaded core, most of it now the grey); every frame pays it


def noise_sd(frame_bgr: np.ndarray) -> float:
    """The frame's noise sd in grey levels, from the median of its Laplacian's size (Immerkaer's mask).

    The mask cancels a plane and a ramp; the median passes over the edges and texture that
    make the few large answers, so what is left is the noise (a noise of sd s gives 6 s).
    """
    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    if h < 3 or w < 3:
        return 0.0
    k = NOISE_STEP

    def at(dy: int, dx: int) -> np.ndarray:  # the pixels (dy, dx) from each measured one
        return grey[1 + dy:h - 1 + dy:k, 1 + dx:w - 1 + dx:k].astype(np.int16)

    lap = (at(-1, -1) + at(-1, 1) + at(1, -1) + at(1, 1)
           - 2 * (at(-1, 0) + at(0, -1) + at(0, 1) + at(1, 0)) + 4 * at(0, 0))
    return float(1.4826 * median(np.abs(lap)) / 6.0)


def denoised(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame smoothed within like colours when it is noisy (NOISE_AT), else the very same array."""
    sd = noise_sd(frame_bgr)
    if not DENOISE or sd < NOISE_AT:
        return frame_bgr
    return cv2.bilateralFilter(frame_bgr, DENOISE_D, DENOISE_COLOUR * sd / _GREY_SD, DENOISE_SPACE)
