"""vision.training.quantize: the int8 networks load in cv2.dnn and answer as the float ones do,
on drawn dice the calibration never saw. Needs onnxruntime (the `quantize` extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("onnxruntime")

import cv2  # noqa: E402

from vision.models import model_path  # noqa: E402
from vision.training import quantize as q  # noqa: E402

# OpenCV 5's default (new) engine runs the int8 finder wrong (its heat ~0 where float's is ~0.9);
# its classic engine, like OpenCV 4's only one, runs it right: check with that one.
ENGINE = q.engines()[-1]


@pytest.fixture(scope="module")
def drawn():
    return q.drawn_inputs(1, 8), q.drawn_inputs(2, 8)


def test_int8_face_reads_as_float(drawn, tmp_path):
    (_, cal), (_, check) = drawn
    out = tmp_path / "face-int8.onnx"
    q.quantize(model_path("face"), out, "crop", cal, "qdq")
    assert out.stat().st_size < model_path("face").stat().st_size * 0.6  # the shipped weights are float16
    result = q.compare_face(cv2.dnn.readNetFromONNX(str(model_path("face"))), q.read_net(out, ENGINE), check)
    assert result["crops"] >= 20
    assert result["argmax_agreement"] >= 0.9


def test_int8_finder_finds_the_float_peaks(drawn, tmp_path):
    (cal, _), (check, _) = drawn
    out = tmp_path / "finder-int8.onnx"
    q.quantize(model_path("finder"), out, "image", cal, "qoperator")
    result = q.compare_finder(cv2.dnn.readNetFromONNX(str(model_path("finder"))), q.read_net(out, ENGINE), check)
    assert result["float_peaks"] >= 10
    assert result["peaks_kept"] >= 0.9 and result["peaks_added"] <= 1
    assert result["heat_max_diff"] < 0.25
