"""Calibration: tray region and die size on synthetic trays and a real photo; `bunco calibrate`."""

from __future__ import annotations

import csv
import random
import tomllib

import cv2
import numpy as np
import pytest

from appliance.cli import main
from appliance.commands.calibrate import update_section
from appliance.errors import ConfigError, UserError
from vision.calibrate import calibrate, find_tray, write_overlay
from vision.dice import FrameReading
from vision.synthetic import DICE_ROOT, Roll, SyntheticRolls

BYLER = DICE_ROOT / "byler-d6"


def no_reader(frame, **kw):
    return FrameReading()


@pytest.mark.parametrize("die_px, seed", [(30, 1), (36, 2), (44, 3)])
def test_die_size_and_tray_on_synthetic_frames(die_px, seed):
    src = SyntheticRolls([Roll((2, 4, 6), move_s=0.4, rest_s=0.4)], rng=random.Random(seed), fps=15, die_px=die_px)
    frames = [f for _, f in src][-8:]
    cal = calibrate(frames, reader=no_reader)
    assert cal.die_size_source == "blobs"
    assert cal.die_size_px == pytest.approx(die_px, rel=0.15)
    fx, fy, fw, fh = src.tray.floor
    x, y, w, h = cal.roi
    assert cal.tray_found
    assert abs(x - fx) <= 6 and abs(y - fy) <= 6 and abs(x + w - fx - fw) <= 6 and abs(y + h - fy - fh) <= 6
    # every die lies inside the region found
    assert all(x < cx < x + w and y < cy < y + h for cx, cy in src.truth[0].centres)


def test_real_tray_photo_region_holds_every_labelled_die(dice_sets):
    name = "IMG_20191208_111228.jpg"
    img = cv2.imread(str(BYLER / "images" / name))
    roi, found = find_tray([img])
    assert found
    x, y, w, h = roi
    assert w * h < 0.8 * img.shape[0] * img.shape[1]  # the tray, not the whole photo
    with (BYLER / "boxes.csv").open(newline="") as f:
        boxes = [r for r in csv.DictReader(f) if r["file"] == name]
    for r in boxes:
        cx, cy = float(r["xc"]) * img.shape[1], float(r["yc"]) * img.shape[0]
        assert x <= cx <= x + w and y <= cy <= y + h


def test_plain_surface_has_no_tray_edge(dice_sets):
    img = cv2.imread(str(BYLER / "images" / "IMG_20191209_095533.jpg"))
    roi, found = find_tray([img])
    assert not found and roi == (0, 0, img.shape[1], img.shape[0])


def test_overlay_picture(tmp_path):
    src = SyntheticRolls([Roll((1, 3, 5), move_s=0.3, rest_s=0.3)], rng=random.Random(5), fps=15)
    frames = [f for _, f in src][-4:]
    cal = calibrate(frames)  # the real reader draws its values
    out = write_overlay(tmp_path / "cal.png", frames[-1], cal)
    back = cv2.imread(str(out))
    assert back.shape == frames[-1].shape
    x, y, w, h = cal.roi
    edge = back[y + h // 2, x]  # the tray's left edge is drawn green
    assert edge[1] > 150 and edge[0] < 60 and edge[2] < 60
    with pytest.raises(Exception, match="does not exist"):
        write_overlay(tmp_path / "nope" / "cal.png", frames[-1], cal)


# ---------------------------------------------------------------- the [camera] section of a config


CONFIG = """# table unit 3
name = "table 3"  # shown on the screen

[camera]
# chosen by hand
source = "picamera"
roi = [0, 0, 10, 10]

[net]
broker = "head.local"
"""


def test_update_section_keeps_everything_else(tmp_path):
    path = tmp_path / "unit.toml"
    path.write_text(CONFIG)
    update_section(path, "camera", {"roi": [45, 45, 550, 390], "die_size_px": 36.5})
    text = path.read_text()
    data = tomllib.loads(text)
    assert data == {"name": "table 3", "camera": {"source": "picamera", "roi": [45, 45, 550, 390],
                                                   "die_size_px": 36.5}, "net": {"broker": "head.local"}}
    assert "# chosen by hand" in text and "# table unit 3" in text and "# shown on the screen" in text
    assert text.index("die_size_px") < text.index("[net]")


def test_update_section_creates_the_file_and_the_section(tmp_path):
    path = tmp_path / "new.toml"
    update_section(path, "camera", {"roi": [1, 2, 3, 4]})
    assert tomllib.loads(path.read_text()) == {"camera": {"roi": [1, 2, 3, 4]}}
    path.write_text('name = "x"')  # no newline at the end
    update_section(path, "camera", {"die_size_px": 40.0})
    assert tomllib.loads(path.read_text()) == {"name": "x", "camera": {"die_size_px": 40.0}}


def test_update_section_refuses_what_it_cannot_edit_safely(tmp_path):
    path = tmp_path / "unit.toml"
    path.write_text('camera = { roi = [0, 0, 1, 1] }\n')
    with pytest.raises(ConfigError, match="camera in .*unit.toml: is written as .*inline table"):
        update_section(path, "camera", {"roi": [1, 2, 3, 4]})
    path.write_text('[camera]\nroi = [\n  0, 0,\n  1, 1,\n]\n')
    with pytest.raises(ConfigError, match="could not be updated safely"):
        update_section(path, "camera", {"roi": [1, 2, 3, 4]})
    assert path.read_text() == '[camera]\nroi = [\n  0, 0,\n  1, 1,\n]\n'  # untouched
    path.write_text("[camera\nroi = 1\n")
    with pytest.raises(UserError, match="not valid TOML"):
        update_section(path, "camera", {"roi": [1, 2, 3, 4]})


def test_bunco_calibrate_on_synthetic_rolls(tmp_path, capsys):
    config = tmp_path / "unit.toml"
    config.write_text(CONFIG)
    debug = tmp_path / "debug.png"
    code = main(["calibrate", "--camera", "synthetic:2", "--skip", "40", "--frames", "8",
                 "--config", str(config), "--debug", str(debug)])
    assert code == 0
    data = tomllib.loads(config.read_text())
    assert data["net"] == {"broker": "head.local"} and data["camera"]["source"] == "picamera"
    x, y, w, h = data["camera"]["roi"]
    assert 30 < x < 60 and 30 < y < 60 and 500 < w < 570 and 350 < h < 410
    assert data["camera"]["die_size_px"] == pytest.approx(36, rel=0.15)
    assert cv2.imread(str(debug)).shape == (480, 640, 3)
    assert "written to [camera]" in capsys.readouterr().out


def test_bunco_calibrate_errors_are_one_line(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "picamera2", None)
    config = tmp_path / "unit.toml"
    assert main(["calibrate", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sudo apt install python3-picamera2" in err
    assert not config.exists()
    assert main(["calibrate", "--camera", f"replay:{tmp_path / 'none'}", "--config", str(config)]) == 2
    assert "does not exist" in capsys.readouterr().err
    config.write_text("[camera\n")
    assert main(["calibrate", "--camera", "synthetic", "--config", str(config)]) == 2
    assert "not valid TOML" in capsys.readouterr().err
    assert np.array_equal(np.frombuffer(config.read_bytes(), np.uint8), np.frombuffer(b"[camera\n", np.uint8))
