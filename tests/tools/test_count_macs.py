"""tools/count_macs.py and the reference networks of tools/pi_estimate.py: the MAC counts the
Raspberry Pi estimate scales by must be the published ones and the shipped nets' true ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")  # the `train` / `quantize` extras

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import count_macs  # noqa: E402
import pi_estimate  # noqa: E402


def conv_macs(h: int, w: int, cin: int, cout: int, k: int = 3) -> int:
    return h * w * cin * cout * k * k


def test_references_match_their_papers():
    """MobileNet V1 569 M MACs and 4.2 M parameters; V2 300 M and 3.4-3.5 M (the papers' tables)."""
    v1, v2 = pi_estimate.mobilenet_v1(), pi_estimate.mobilenet_v2()
    assert count_macs.total_macs(v1) == pytest.approx(569e6, rel=0.002)
    assert count_macs.parameters(v1) == pytest.approx(4.2e6, rel=0.01)
    assert count_macs.total_macs(v2) == pytest.approx(300e6, rel=0.005)
    assert 3.4e6 <= count_macs.parameters(v2) <= 3.5e6
    assert count_macs.total_macs(pi_estimate.resnet50_vd()) == pytest.approx(4.33e9, rel=0.01)


def test_face_net_count_is_its_architecture_by_hand():
    """vision.training.model.FaceNet: 3x3 convs at 32, 16 and 8 px, a 1x1 128 -> 7 head."""
    expected = (conv_macs(32, 32, 3, 32) + conv_macs(32, 32, 32, 48) + conv_macs(16, 16, 48, 64)
                + conv_macs(16, 16, 64, 96) + conv_macs(8, 8, 96, 128) + conv_macs(8, 8, 128, 128) + 128 * 7)
    model = onnx.load(REPO / "vision/models/face/face.onnx")
    assert count_macs.total_macs(model) == expected


def test_finder_trimmed_input_is_three_quarters():
    """A 640x480 frame letterboxes to 256x192 when trimmed: 3/4 of the work at every layer."""
    model = onnx.load(REPO / "vision/models/finder/finder.onnx")
    full = count_macs.total_macs(model)
    assert count_macs.total_macs(model, (1, 3, 192, 256)) * 4 == full * 3


def test_unreadable_file_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a network")
    done = subprocess.run([sys.executable, str(REPO / "tools/count_macs.py"), str(bad)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "bad.onnx" in done.stderr
