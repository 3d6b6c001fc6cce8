"""The shipped networks read drawn dice of party colours the photo sets lack, and say "no die" of
bare felt: through the wrappers the Pi runs (cv2.dnn alone, no torch). The files' names, shapes and
stored outputs are checked in test_models.py."""

from __future__ import annotations

import numpy as np

from vision import drawn
from vision.models.face.face import FaceReader
from vision.models.finder.finder import Finder

FACE_FLOOR = 0.9
FINDER_RECALL_FLOOR = 0.9


def _party_trays(seed: int, trays: int):
    rng = np.random.default_rng(seed)
    kinds = (("red", "white"), ("pink", "white"), ("black", "white"), ("blue", "white"), ("white", "black"))
    for i in range(trays):
        look = drawn.random_look(rng, *kinds[i % len(kinds)])
        yield drawn.compose_tray(rng, 320, 240, count=3, side=(30, 60), looks=[look])


def test_face_reads_drawn_party_dice():
    right = total = 0
    for frame, dice in _party_trays(11, 20):
        reads = FaceReader()([drawn.cut_square(frame, d.xc, d.yc, 1.3 * max(d.w, d.h)) for d in dice])
        right += sum(r.value == d.value for r, d in zip(reads, dice, strict=True))
        total += len(dice)
    assert total >= 50
    assert right / total >= FACE_FLOOR


def test_face_says_bare_felt_is_no_die():
    rng = np.random.default_rng(5)
    patches = [drawn.finish(drawn.background(rng, 64, 64, "felt"), rng) for _ in range(20)]
    reads = FaceReader()([drawn.cut_square(p, 32, 32, 52) for p in patches])
    assert sum(r.value is None for r in reads) >= 18


def test_finder_marks_each_drawn_die_once():
    found = total = extra = 0
    finder = Finder(0.3)
    for frame, dice in _party_trays(12, 15):
        finds = finder(frame)
        for d in dice:
            found += any(np.hypot(f.xc - d.xc, f.yc - d.yc) < 0.5 * max(d.w, d.h) for f in finds)
        extra += max(0, len(finds) - len(dice))
        total += len(dice)
    assert found / total >= FINDER_RECALL_FLOOR
    assert extra <= 0.1 * total
