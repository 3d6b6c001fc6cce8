"""The shipped ONNX files (vision/models/*/*.onnx) load with cv2.dnn alone, keep the run-time
contract's names and shapes, stay small, and read drawn dice of party colours the photo sets lack.
No torch needed: this is what a Pi runs."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import drawn

MODELS = Path(drawn.__file__).resolve().parent / "models"
FACE = MODELS / "face" / "face.onnx"
FINDER = MODELS / "finder" / "finder.onnx"


@pytest.fixture(scope="module")
def face():
    return cv2.dnn.readNetFromONNX(str(FACE))


@pytest.fixture(scope="module")
def finder():
    return cv2.dnn.readNetFromONNX(str(FINDER))


def test_both_files_together_are_at_most_2_mb():
    assert FACE.stat().st_size + FINDER.stat().st_size <= 2 * 1024 * 1024


def _party_trays(seed: int, trays: int):
    rng = np.random.default_rng(seed)
    kinds = (("red", "white"), ("pink", "white"), ("black", "white"), ("blue", "white"), ("white", "black"))
    for i in range(trays):
        look = drawn.random_look(rng, *kinds[i % len(kinds)])
        yield drawn.compose_tray(rng, 320, 240, count=3, side=(30, 60), looks=[look])


def test_face_reads_drawn_party_dice(face):
    right = total = 0
    for frame, dice in _party_trays(11, 20):
        for d in dice:
            crop = drawn.cut_square(frame, d.xc, d.yc, 1.3 * max(d.w, d.h))
            face.setInput(cv2.dnn.blobFromImage(crop, 1 / 255.0, (32, 32), swapRB=False), "crop")
            logits = face.forward("logits")
            assert logits.shape == (1, 7)
            right += int(np.argmax(logits) == d.value - 1)
            total += 1
    assert total >= 50
    assert right / total >= FACE_FLOOR


def test_face_says_bare_felt_is_no_die(face):
    rng = np.random.default_rng(5)
    said_none = 0
    for _ in range(20):
        patch = drawn.finish(drawn.background(rng, 64, 64, "felt"), rng)
        face.setInput(cv2.dnn.blobFromImage(drawn.cut_square(patch, 32, 32, 52), 1 / 255.0, (32, 32), swapRB=False), "crop")
        said_none += int(np.argmax(face.forward("logits")) == 6)
    assert said_none >= 18


def test_finder_marks_each_drawn_die_once(finder):
    found = total = extra = 0
    for frame, dice in _party_trays(12, 15):
        canvas, scale = drawn.letterbox(frame)
        finder.setInput(cv2.dnn.blobFromImage(canvas, 1 / 255.0, (256, 256), swapRB=False), "image")
        heat, size = finder.forward(["heat", "size"])
        assert heat.shape == (1, 1, 64, 64) and size.shape == (1, 1, 64, 64)
        h = heat[0, 0]
        ys, xs = np.nonzero((h >= cv2.dilate(h, np.ones((3, 3), np.uint8))) & (h > 0.3))
        peaks = [((x + 0.5) * 4 / scale, (y + 0.5) * 4 / scale) for y, x in zip(ys, xs, strict=True)]
        for d in dice:
            hit = [p for p in peaks if np.hypot(p[0] - d.xc, p[1] - d.yc) < 0.5 * max(d.w, d.h)]
            found += int(bool(hit))
        extra += max(0, len(peaks) - len(dice))
        total += len(dice)
    assert found / total >= FINDER_RECALL_FLOOR
    assert extra <= 0.1 * total


FACE_FLOOR = 0.9
FINDER_RECALL_FLOOR = 0.9
