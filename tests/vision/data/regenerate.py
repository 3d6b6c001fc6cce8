"""Write the stored inputs and expected outputs of tests/vision/test_models.py from the shipped ONNX files.

Run it whenever vision/models/*/*.onnx change (`.venv/bin/python tests/vision/data/regenerate.py`):
the test then checks that cv2.dnn, on any machine, gives these numbers for these inputs. The inputs
are our own drawings (vision.drawn, a fixed seed), so no photo's licence travels with the tests.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cv2
import numpy as np

from vision.drawn import background, compose_tray, cut_square, draw_die, random_look, random_pose
from vision.models import model_path
from vision.models.face.face import CROP_GROW, FaceReader
from vision.models.finder.finder import Finder

HERE = Path(__file__).resolve().parent


def main() -> None:
    rng = np.random.default_rng(2026)
    faces = FaceReader()
    crops = []
    for value in range(1, 7):  # one drawn die of each value, on a floor, cut as the reader cuts it
        tile = background(rng, 96, 96)
        side = float(rng.uniform(40, 60))
        drawn = draw_die(tile, random_look(rng), random_pose(rng, value, 48, 48, side, max_tilt=10), rng)
        crop = cut_square(tile, drawn.xc, drawn.yc, CROP_GROW * max(drawn.w, drawn.h))
        cv2.imwrite(str(HERE / f"face_{value}.png"), crop)
        crops.append((f"face_{value}.png", value, cv2.imread(str(HERE / f"face_{value}.png"))))
    blank = background(rng, 32, 32, "felt")  # bare floor: no die
    cv2.imwrite(str(HERE / "face_none.png"), blank)
    crops.append(("face_none.png", None, cv2.imread(str(HERE / "face_none.png"))))
    logits = faces.logits([c for _, _, c in crops])
    tray, dice = compose_tray(rng, 320, 240, count=3, side=(30.0, 40.0), camera=False)
    cv2.imwrite(str(HERE / "tray.png"), tray)
    heat, size, offset, scale = Finder().maps(cv2.imread(str(HERE / "tray.png")))
    expected = {
        "onnx_sha256": {name: hashlib.sha256(model_path(name).read_bytes()).hexdigest() for name in ("face", "finder")},
        "faces": [{"file": f, "drawn": v, "logits": [round(float(x), 4) for x in row]}
                  for (f, v, _), row in zip(crops, logits)],
        "tray": {"file": "tray.png", "dice": [[d.value, round(d.xc, 1), round(d.yc, 1), round(max(d.w, d.h), 1)] for d in dice],
                 "heat_sum": round(float(heat.sum()), 4), "heat_max": round(float(heat.max()), 4),
                 "size_sum": round(float(size.sum()), 4), "offset_abs_sum": round(float(np.abs(offset).sum()), 4)},
    }
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(json.dumps(expected["faces"], indent=None)[:2000])
    print(expected["tray"])


if __name__ == "__main__":
    main()
