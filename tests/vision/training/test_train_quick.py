"""The training command runs end to end (one short epoch on a few photos) and its ONNX files
load in cv2.dnn with the run-time contract's names and shapes. Skipped where torch is absent."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")

import cv2  # noqa: E402

from vision import drawn  # noqa: E402
from vision.synthetic import find_dice_root  # noqa: E402
from vision.training import train  # noqa: E402


def test_quick_training_exports_networks_cv2_can_run(tmp_path):
    root = find_dice_root()
    if not (root / "byler-d6" / "boxes.csv").exists():
        pytest.skip(f"no shared dice photos at {root}")
    train.main(["--quick", "--out", str(tmp_path), "--dice", str(root), "--threads", "1"])

    face = cv2.dnn.readNetFromONNX(str(tmp_path / "face" / "face.onnx"))
    frame, dice = drawn.compose_tray(np.random.default_rng(3), 320, 240, count=2)
    crop = drawn.cut_square(frame, dice[0].xc, dice[0].yc, 1.3 * max(dice[0].w, dice[0].h))
    face.setInput(cv2.dnn.blobFromImage(crop, 1 / 255.0, (drawn.CROP, drawn.CROP), swapRB=False), "crop")
    logits = face.forward("logits")
    assert logits.shape == (1, 7) and np.isfinite(logits).all()
    assert (tmp_path / "face" / "face.onnx").stat().st_size < 2.1 * 357_575  # float16 weights: 2 bytes a parameter

    finder = cv2.dnn.readNetFromONNX(str(tmp_path / "finder" / "finder.onnx"))
    canvas = np.zeros((256, 256, 3), np.uint8)
    canvas[:192] = cv2.resize(frame, (256, 192), interpolation=cv2.INTER_AREA)
    finder.setInput(cv2.dnn.blobFromImage(canvas, 1 / 255.0, (256, 256), swapRB=False), "image")
    heat, size, offset = finder.forward(["heat", "size", "offset"])
    assert heat.shape == (1, 1, 64, 64) and size.shape == (1, 1, 64, 64) and offset.shape == (1, 2, 64, 64)
    assert heat.min() >= 0 and heat.max() <= 1

    metrics = json.loads((tmp_path / "face" / "metrics.json").read_text())
    assert metrics["quick"] is True and "byler-d6" in metrics["validation"]


def test_a_left_out_set_is_not_trained_on_and_is_validated_whole(tmp_path):
    root = find_dice_root()
    if not (root / "rune55-trays" / "boxes.csv").exists():
        pytest.skip(f"no shared dice photos at {root}")
    train.main(["--quick", "--only", "face", "--leave-out", "rune55-trays", "--seed", "7", "--out", str(tmp_path),
                "--dice", str(root), "--threads", "1"])

    metrics = json.loads((tmp_path / "face" / "metrics.json").read_text())
    assert metrics["left_out"] == ["rune55-trays"] and metrics["seed"] == 7
    # --quick takes 3 photos a set from each side of the split: the left-out set's 3 training
    # photos move to validation, so 2 sets train (6 photos) and 12 validate
    assert metrics["train_photos"] == 6 and metrics["validation_photos"] == 12
    assert metrics["validation"]["rune55-trays"]["dice"] > 0


@pytest.mark.parametrize("study", [["--leave-out", "rune55-trays"], ["--seed", "7"]])
def test_a_study_run_must_name_its_own_folder(study, capsys):
    """Without --out a run writes the shipped vision/models: a study run must not."""
    shipped = {p: p.stat().st_mtime_ns for p in train.OUT.glob("*/*.onnx")}
    assert len(shipped) == 2
    with pytest.raises(SystemExit) as stop:
        train.main(["--quick", "--only", "face", "--threads", "1", *study])
    assert stop.value.code == 2
    assert "--out" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in train.OUT.glob("*/*.onnx")} == shipped
