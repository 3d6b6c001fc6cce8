"""Frame sources: their error messages, replay of the shared photos, pacing, and the Pi camera
code path against a stand-in picamera2 module (the real one needs a Pi)."""

from __future__ import annotations

import builtins
import shutil
import sys
import types

import cv2
import numpy as np
import pytest

from vision.sources import CameraError, PhotoFolderSource, open_source
from vision.synthetic import DICE_ROOT

PHOTOS = DICE_ROOT / "penlington-wood" / "images"


# ---------------------------------------------------------------- error messages


def test_missing_picamera2_names_the_apt_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` fail
    with pytest.raises(CameraError) as err:
        open_source("picamera")
    msg = str(err.value)
    assert "sudo apt install python3-picamera2" in msg and "--system-site-packages" in msg
    assert err.value.__cause__ is None and err.value.__suppress_context__


def test_missing_libcamera_names_its_package(monkeypatch):
    real_import = builtins.__import__

    def fake_import(name, *args, **kw):
        if name == "picamera2":
            raise ModuleNotFoundError("No module named 'libcamera'", name="libcamera")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(CameraError, match="sudo apt install python3-libcamera"):
        open_source("picamera")


def test_picamera2_built_for_another_numpy_names_the_fix(monkeypatch):
    # what bookworm's apt simplejpeg (numpy 1) raises under the venv's numpy 2, as measured on
    # an aarch64 Python under qemu with simplejpeg 1.7.2's wheel
    real_import = builtins.__import__

    def fake_import(name, *args, **kw):
        if name == "picamera2":
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                             "Expected 96 from C header, got 88 from PyObject")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(CameraError) as err:
        open_source("picamera")
    msg = str(err.value)
    assert "simplejpeg>=1.9" in msg and "numpy.dtype size changed" in msg and np.__version__ in msg
    assert err.value.__cause__ is None and err.value.__suppress_context__


def fake_picamera2(monkeypatch, cameras, *, autofocus=False):
    """A stand-in picamera2 (and libcamera) with the calls PicameraSource makes, recorded."""
    calls = []

    class Picamera2:
        @staticmethod
        def global_camera_info():
            return cameras

        def __init__(self, index=0):
            calls.append(("open", index))
            self.camera_controls = {"ExposureTime": (1, 1000000, 0)}
            if autofocus:
                self.camera_controls["AfMode"] = (0, 2, 0)

        def create_video_configuration(self, main):
            calls.append(("config", main))
            return {"main": main}

        def configure(self, config):
            self.size = config["main"]["size"]

        def start(self):
            calls.append(("start",))

        def autofocus_cycle(self):
            calls.append(("autofocus",))

        def capture_metadata(self):
            return {"ExposureTime": 8000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "LensPosition": 3.2}

        def set_controls(self, controls):
            calls.append(("set_controls", dict(controls)))

        def capture_array(self, stream="main"):
            w, h = self.size
            return np.full((h, w, 3), 77, np.uint8)

        def stop(self):
            calls.append(("stop",))

        def close(self):
            calls.append(("close",))

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    libcamera = types.ModuleType("libcamera")
    libcamera.controls = types.SimpleNamespace(AfModeEnum=types.SimpleNamespace(Manual="manual"))
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    return calls


def test_no_pi_camera_attached(monkeypatch):
    fake_picamera2(monkeypatch, cameras=[])
    with pytest.raises(CameraError, match="no Pi camera found.*ribbon cable.*rpicam-hello --list-cameras"):
        open_source("picamera")


def test_pi_camera_locks_exposure_white_balance_and_focus(monkeypatch):
    calls = fake_picamera2(monkeypatch, cameras=[{"Model": "imx708"}], autofocus=True)
    clock = iter(range(100, 200))
    with open_source("picamera", warmup_s=0.0, clock=lambda: next(clock), sleep=lambda s: None) as cam:
        t, frame = cam.read()
        assert (t, frame.shape) == (100, (480, 640, 3))
        assert cam.locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000, "AnalogueGain": 2.5,
                              "ColourGains": (1.8, 1.4), "AfMode": "manual", "LensPosition": 3.2}
    names = [c[0] for c in calls]
    assert names.index("autofocus") < names.index("set_controls")  # focus found first, then held
    assert ("config", {"size": (640, 480), "format": "RGB888"}) in calls
    assert names[-2:] == ["stop", "close"]


def test_pi_camera_without_autofocus_gets_no_focus_controls(monkeypatch):
    calls = fake_picamera2(monkeypatch, cameras=[{"Model": "ov5647"}])
    with open_source("picamera", warmup_s=0.0, sleep=lambda s: None, controls={"ExposureTime": 5000}) as cam:
        assert "AfMode" not in cam.locked and cam.locked["ExposureTime"] == 5000  # the config wins
    assert ("autofocus",) not in calls


def test_bad_device_index():
    with pytest.raises(CameraError, match="no camera found at index 7"):
        open_source("7")


def test_missing_replay_folder(tmp_path):
    with pytest.raises(CameraError, match=f"replay folder {tmp_path / 'nope'} does not exist"):
        open_source(f"replay:{tmp_path / 'nope'}")


def test_empty_replay_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("no photos here")
    with pytest.raises(CameraError, match="no photos"):
        open_source(f"replay:{tmp_path}")


def test_missing_video_file(tmp_path):
    with pytest.raises(CameraError, match="cannot open video file .*no such file"):
        open_source(str(tmp_path / "roll.mp4"))


def test_undecodable_video_file(tmp_path):
    bad = tmp_path / "roll.mp4"
    bad.write_bytes(b"not a video at all" * 100)
    with pytest.raises(CameraError, match="cannot open video file .*cannot decode"):
        open_source(str(bad))


def test_one_photo_and_unknown_specs_are_explained(tmp_path):
    with pytest.raises(CameraError, match="is one photo: give its folder"):
        open_source(str(PHOTOS / "dice_1.jpg"))
    with pytest.raises(CameraError, match="unknown camera 'webcam'"):
        open_source("webcam")
    with pytest.raises(CameraError, match="no camera given"):
        open_source("  ")


# ---------------------------------------------------------------- replay


def test_replay_of_a_folder_of_the_shared_photos(tmp_path, dice_sets):
    names = ["dice_1.jpg", "dice_10.jpg", "dice_11.jpg"]
    for n in names:
        shutil.copy(PHOTOS / n, tmp_path / n)
    (tmp_path / "broken.jpg").write_bytes(b"garbage")  # skipped with a warning, nothing else lost
    with open_source(f"replay:{tmp_path}", fps=10, hold=2) as src:
        got = list(src)
        assert [p.name for p in src.skipped] == ["broken.jpg"]
    assert [t for t, _ in got] == pytest.approx([i / 10 for i in range(6)])
    for i, n in enumerate(names):
        photo = cv2.imread(str(PHOTOS / n))
        assert np.array_equal(got[2 * i][1], photo) and np.array_equal(got[2 * i + 1][1], photo)


def test_replay_of_the_whole_shared_folder_loops(dice_sets):
    src = PhotoFolderSource(PHOTOS, fps=30, loop=True)
    n = len(src.files)
    assert n == len(list(PHOTOS.glob("*.jpg")))
    src._i = n - 1  # jump to the last photo; the next read wraps around
    first = [src.read()[1].shape for _ in range(2)]
    assert first == [(480, 640, 3)] * 2
    assert src.current_file == src.files[0]


def test_replay_of_a_video_file(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20.0, (640, 480))
    assert writer.isOpened()
    from vision.synthetic import Roll, SyntheticRolls

    frames = [f for _, f in SyntheticRolls([Roll((1, 2, 3), move_s=0.3, rest_s=0.3)], fps=20)]
    for f in frames:
        writer.write(f)
    writer.release()
    with open_source(f"replay:{path}") as src:
        got = list(src)
    assert len(got) == len(frames)
    assert got[1][0] == pytest.approx(1 / 20)  # stamped by the file's own frame rate
    assert np.abs(got[-1][1].astype(int) - frames[-1]).mean() < 4  # JPEG-compressed, same picture


def test_pacing_waits_with_the_injected_clock(tmp_path, dice_sets):
    shutil.copy(PHOTOS / "dice_1.jpg", tmp_path / "a.jpg")
    now = [50.0]
    slept = []

    def sleep(s):
        slept.append(s)
        now[0] += s

    src = open_source(f"replay:{tmp_path}", fps=4, hold=5, pace=True, clock=lambda: now[0], sleep=sleep)
    stamps = [t for t, _ in src]
    assert stamps == [0, 0.25, 0.5, 0.75, 1.0]
    assert sum(slept) == pytest.approx(1.0) and now[0] == pytest.approx(51.0)


def test_synthetic_spec():
    with open_source("synthetic:7", fps=10, n_dice=4) as src:
        t0, f0 = src.read()
        t1, f1 = src.read()
    assert (t0, t1) == (0.0, 0.1) and f0.shape == (480, 640, 3)
    assert len(src.truth[0].values) == 4
