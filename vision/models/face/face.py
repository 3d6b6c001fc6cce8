"""FaceReader: square die crops in, the top face's value and the net's confidence out (cv2.dnn).

The crop is an axis-aligned square centred on the die, its side CROP_GROW times the die's box side
(some floor around the die, whatever its turn), padded by replicating the border where it leaves the
frame, scaled to INPUT x INPUT with INTER_AREA (vision.drawn.cut_square, shared with training). The net
gives 7 logits: values 1..6 and "not a readable die" (a cocked die, a hand, a stray find); the
softmax is taken here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from vision.drawn import CROP as INPUT  # the crop's side fed to the net
from vision.models import load, model_path

CLASSES = 7  # values 1..6, then "not a readable die"
NOT_A_DIE = 6  # the class index of "not a readable die"
# The crop's side over the die box's side. The net trains on cuts of 1.0-1.7 x the labelled side
# (vision.training.data.augment_cut), but a finder sizes dice of a kind it never saw at 0.8 of their
# labelled side (median): a cut of 1.3 x that leaves them little floor and clips a die found off-centre.
# Swept with the shipped pair (session 33), 1.3 / 1.45: byler-d6 with both networks left out (200
# photos) 62.0 / 65.5 % exact, 22 / 24 dice wrong, 56 / 42 photos asking a re-roll (1.5: 67.0 %, 23);
# rune55-trays so (99 photos) 71 / 57 dice wrong; the validation photos byler-d6 88.1 % either way,
# penlington-wood 93.2 / 94.9 %, rune55-trays 19.0 / 23.8 % (its 15-px dice read 83.3 / 82.0 %, and 80.4 %
# at 1.5, fewer pixels a die); drawn trays as many or more exact, fewer dice wrong (face card).
CROP_GROW = 1.45


class FaceRead(NamedTuple):
    """The net's answer for one crop: value None when its best class is "not a readable die"."""

    value: int | None
    confidence: float  # the winning class's probability (averaged over the turns read)
    probs: np.ndarray  # the 7 class probabilities


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


class FaceReader:
    """reader(crops) -> [FaceRead]: crops are BGR squares of any size (scaled to INPUT x INPUT here).

    turns: how many quarter turns of each crop are read and their probabilities averaged (1 = the
    crop as it is; a die's face reads the same turned, so turns cost time for steadier answers).
    sure: with turns > 1, a crop whose first read is at least this confident keeps that read and
    is not turned (None: every crop is turned). Turns steady the unsure reads; most dice are read
    sure at once, so they cost a little over one read a die instead of `turns`.
    """

    def __init__(self, turns: int = 1, path=None, sure: float | None = None) -> None:
        if not 1 <= turns <= 4:
            raise ValueError("turns must be 1..4 quarter turns")
        self.turns = turns
        self.sure = sure
        self.path = path if path is not None else model_path("face")

    def logits(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """The raw (N, 7) logits of crops, one forward pass each (the shipped net has batch 1)."""
        net = load(self.path)
        out = np.empty((len(crops), CLASSES), np.float32)
        for i, crop in enumerate(crops):
            small = crop if crop.shape[:2] == (INPUT, INPUT) else cv2.resize(crop, (INPUT, INPUT), interpolation=cv2.INTER_AREA)
            net.setInput(cv2.dnn.blobFromImage(small, 1 / 255.0, (INPUT, INPUT), swapRB=False), "crop")
            out[i] = net.forward("logits").reshape(-1)[:CLASSES]
        return out

    def __call__(self, crops: Sequence[np.ndarray]) -> list[FaceRead]:
        if not crops:
            return []
        probs = softmax(self.logits(crops))
        unsure = [i for i, p in enumerate(probs) if self.sure is None or p.max() < self.sure]
        if self.turns > 1 and unsure:
            turned = [np.rot90(crops[i], k).copy() for i in unsure for k in range(1, self.turns)]
            more = softmax(self.logits(turned)).reshape(len(unsure), self.turns - 1, CLASSES)
            probs[unsure] = (probs[unsure] + more.sum(axis=1)) / self.turns
        out = []
        for p in probs:
            best = int(np.argmax(p))
            out.append(FaceRead(None if best == NOT_A_DIE else best + 1, float(p[best]), p))
        return out
