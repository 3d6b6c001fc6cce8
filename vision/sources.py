"""Where frames come from: the Pi camera, an OpenCV capture, a replay, or synthetic rolls.

Every source gives (timestamp, BGR frame) pairs through read() (None at the end), iteration,
close() and `with`. Live sources stamp frames with an injectable clock; replayed and synthetic
frames are stamped frame index / fps, so tests can run them faster than real time, and
pace=True makes them wait for each frame's time (the demo).

Anything a person can fix (no camera, no picamera2, a missing folder) raises CameraError with
a message that names the fix, never a traceback from deep inside a library.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], None]
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpg", ".mjpeg", ".h264", ".m4v"}


class CameraError(Exception):
    """A camera or frame source that cannot be opened or read; the message says how to fix it."""


class FrameSource(Protocol):
    def read(self) -> tuple[float, np.ndarray] | None: ...
    def close(self) -> None: ...
    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]: ...
    def __enter__(self) -> FrameSource: ...
    def __exit__(self, *exc: object) -> None: ...


class _Base:
    """Iteration and `with` on top of read() and close()."""

    def read(self) -> tuple[float, np.ndarray] | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        while (item := self.read()) is not None:
            yield item

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Pacer:
    """Stamps frames index / fps; with pace=True also waits until each one is due."""

    def __init__(self, fps: float, pace: bool, clock: Clock, sleep: Sleep) -> None:
        if fps <= 0:
            raise CameraError(f"fps must be above 0, not {fps}")
        self.fps, self.pace, self.clock, self.sleep = float(fps), pace, clock, sleep
        self.index = 0
        self._t0: float | None = None

    def next(self) -> float:
        t = self.index / self.fps
        self.index += 1
        self.due(t)
        return t

    def due(self, t: float) -> None:
        """With pace=True, wait until the frame stamped t is due (the first frame sets the origin)."""
        if not self.pace:
            return
        if self._t0 is None:
            self._t0 = self.clock() - t
        wait = self._t0 + t - self.clock()
        if wait > 0:
            self.sleep(wait)


# --------------------------------------------------------------------------- OpenCV


def _quiet_capture(target: int | str) -> cv2.VideoCapture:
    """Open a capture without OpenCV's own warnings on stderr: our CameraError says it better."""
    level = cv2.getLogLevel()
    cv2.setLogLevel(0)  # LOG_LEVEL_SILENT
    try:
        return cv2.VideoCapture(target)
    finally:
        cv2.setLogLevel(level)


class CaptureSource(_Base):
    """A webcam (device index) or a network stream (URL) through OpenCV, stamped by the clock."""

    def __init__(self, target: int | str, *, size: tuple[int, int] | None = None,
                 clock: Clock = time.monotonic) -> None:
        self.target, self.clock = target, clock
        self.cap = _quiet_capture(target)
        if not self.cap.isOpened():
            self.cap.release()
            if isinstance(target, int):
                raise CameraError(f"no camera found at index {target}: check that it is plugged in "
                                  "(ls /dev/video*) and that no other program uses it, or pass another index")
            raise CameraError(f"cannot open stream {target}: check the URL and that the stream is up")
        if size is not None:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> tuple[float, np.ndarray] | None:
        if self.cap is None:
            return None
        ok, frame = self.cap.read()
        if not ok:
            return None
        return self.clock(), frame

    def close(self) -> None:
        if self.cap is not None:
            self.cap.release()
            self.cap = None


class VideoFileSource(_Base):
    """A video file, stamped frame index / fps (the file's own rate unless fps is given)."""

    def __init__(self, path: str | Path, *, fps: float | None = None, loop: bool = False, pace: bool = False,
                 clock: Clock = time.monotonic, sleep: Sleep = time.sleep) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise CameraError(f"cannot open video file {self.path}: no such file")
        self.cap = _quiet_capture(str(self.path))
        ok, first = self.cap.read() if self.cap.isOpened() else (False, None)
        if not ok:
            self.cap.release()
            raise CameraError(f"cannot open video file {self.path}: OpenCV cannot decode it "
                              "(convert it with: ffmpeg -i IN -c:v mjpeg OUT.avi)")
        self._first: np.ndarray | None = first
        file_fps = self.cap.get(cv2.CAP_PROP_FPS) or 0.0
        self.loop = loop
        self.pacer = _Pacer(fps or (file_fps if 1 <= file_fps <= 240 else 30.0), pace, clock, sleep)

    @property
    def fps(self) -> float:
        return self.pacer.fps

    def read(self) -> tuple[float, np.ndarray] | None:
        if self.cap is None:
            return None
        if self._first is not None:
            frame, self._first = self._first, None
        else:
            ok, frame = self.cap.read()
            if not ok and self.loop:
                self.cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self.cap.read()
            if not ok:
                return None
        return self.pacer.next(), frame

    def close(self) -> None:
        if self.cap is not None:
            self.cap.release()
            self.cap = None


class PhotoFolderSource(_Base):
    """A folder of photos in name order, each shown for `hold` frames, at fps.

    hold > 1 lets the settle stage see each photo as a still tray (the demo replays photos
    of rolls this way). A file that is not a readable picture is skipped with a warning."""

    def __init__(self, folder: str | Path, *, fps: float = 10.0, hold: int = 1, loop: bool = False,
                 size: tuple[int, int] | None = None, pace: bool = False,
                 clock: Clock = time.monotonic, sleep: Sleep = time.sleep) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"replay folder {self.folder} does not exist: give a folder of photos or a video file")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"no photos ({', '.join(sorted(IMAGE_SUFFIXES))}) in replay folder {self.folder}")
        if hold < 1:
            raise CameraError(f"hold must be at least 1 frame, not {hold}")
        self.hold, self.loop, self.size = hold, loop, size
        self.pacer = _Pacer(fps, pace, clock, sleep)
        self.skipped: list[Path] = []
        self._i = 0
        self._current: np.ndarray | None = None
        self._left = 0
        self.current_file: Path | None = None

    @property
    def fps(self) -> float:
        return self.pacer.fps

    def _next_photo(self) -> np.ndarray | None:
        tried = 0
        while tried < len(self.files):
            if self._i >= len(self.files):
                if not self.loop:
                    return None
                self._i = 0
            path = self.files[self._i]
            self._i += 1
            tried += 1
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if img is None:
                if path not in self.skipped:
                    log.warning("replay: skipping %s, not a readable picture", path)
                    self.skipped.append(path)
                continue
            if self.size is not None and (img.shape[1], img.shape[0]) != tuple(self.size):
                img = cv2.resize(img, tuple(self.size), interpolation=cv2.INTER_AREA)
            self.current_file = path
            return img
        return None

    def read(self) -> tuple[float, np.ndarray] | None:
        if self._left == 0:
            self._current = self._next_photo()
            if self._current is None:
                return None
            self._left = self.hold
        self._left -= 1
        assert self._current is not None
        return self.pacer.next(), self._current.copy()


# --------------------------------------------------------------------------- Picamera2


PICAMERA_FIX = ("picamera2 is not installed: sudo apt install python3-picamera2, "
                "and make the venv with --system-site-packages")
NUMPY_ABI_FIX = ("install simplejpeg>=1.9 into the venv (the installer's [pi] extra does: "
                 "pip install 'bunco-appliance[pi]')")


def _import_picamera2() -> Any:
    """Picamera2 comes from apt on a Pi (it needs the system libcamera), never from pip.

    On Raspberry Pi OS bookworm apt's picamera2 imports apt's simplejpeg, compiled for
    numpy 1.24, while the venv holds numpy 2 (pyproject allows it, pip takes it): the import fails with
    "numpy.dtype size changed" (a ValueError). A simplejpeg from pip, built for numpy 2,
    comes first on the venv's path and mends it.
    """
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as exc:
        if getattr(exc, "name", None) == "libcamera" or "libcamera" in str(exc):
            raise CameraError("libcamera's Python module is missing: sudo apt install python3-libcamera, "
                              "and make the venv with --system-site-packages") from None
        raise CameraError(PICAMERA_FIX) from None
    except ValueError as exc:  # a compiled module built against another numpy
        raise CameraError(f"picamera2 could not load a module built for another numpy (numpy {np.__version__}"
                          f" here: {exc}): {NUMPY_ABI_FIX}") from None
    return Picamera2


class PicameraSource(_Base):
    """The Pi camera: warmed up, then exposure, white balance and focus locked.

    A still tray must give the same pixels frame after frame, or the settle stage sees motion
    in auto-exposure hunting and the reader's thresholds drift; so after `warmup_s` the
    controls the camera chose are read back and frozen. `locked` holds them (calibration
    stores them in the unit's config)."""

    def __init__(self, *, size: tuple[int, int] = (640, 480), warmup_s: float = 1.5,
                 controls: dict[str, Any] | None = None, camera: int = 0,
                 clock: Clock = time.monotonic, sleep: Sleep = time.sleep) -> None:
        Picamera2 = _import_picamera2()
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera could not even enumerate
            raise CameraError(f"libcamera cannot list cameras ({exc}): check rpicam-hello --list-cameras") from None
        if camera >= len(cameras):
            raise CameraError(f"no Pi camera found (libcamera sees {len(cameras)}): check the ribbon cable "
                              "and that the camera is enabled; rpicam-hello --list-cameras must show it")
        self.clock = clock
        try:
            self.cam = Picamera2(camera)
            config = self.cam.create_video_configuration(main={"size": tuple(size), "format": "RGB888"})
            self.cam.configure(config)
            self.cam.start()
        except Exception as exc:
            raise CameraError(f"cannot start the Pi camera ({exc}): is another program using it?") from None
        self.locked = self._lock(warmup_s, controls or {}, sleep)

    def _lock(self, warmup_s: float, controls: dict[str, Any], sleep: Sleep) -> dict[str, Any]:
        cam = self.cam
        if "AfMode" in cam.camera_controls:  # Camera Module 3: focus once, then hold it
            try:
                cam.autofocus_cycle()
            except Exception:  # some firmware lacks it; the manual lock below still holds focus
                log.warning("autofocus cycle failed; focus left where it is")
        sleep(warmup_s)
        meta = cam.capture_metadata()
        locked: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in meta:
                locked[key] = meta[key]
        if "AfMode" in cam.camera_controls:
            from libcamera import controls as lc  # type: ignore[import-not-found]

            locked["AfMode"] = lc.AfModeEnum.Manual
            if "LensPosition" in meta:
                locked["LensPosition"] = meta["LensPosition"]
        locked.update(controls)  # values from the unit's config win
        cam.set_controls(locked)
        sleep(0.2)  # the new controls take a few frames
        return locked

    def read(self) -> tuple[float, np.ndarray] | None:
        if self.cam is None:
            return None
        frame = self.cam.capture_array("main")  # "RGB888" is B, G, R in memory: OpenCV's order
        return self.clock(), frame

    def close(self) -> None:
        if self.cam is not None:
            try:
                self.cam.stop()
                self.cam.close()
            finally:
                self.cam = None


# --------------------------------------------------------------------------- the one entry point


def open_source(spec: str, **opts: Any) -> Any:
    """Open a frame source from a spec string.

    "picamera" (opts: size, warmup_s, controls), a device index "0" (size), a URL
    "rtsp://..." or "http://...", a video file path (fps, loop, pace), "replay:PATH" (a folder of
    photos: fps, hold, loop, size, pace; or a video file), "synthetic" (endless random rolls:
    seed, n_dice, fps, pace, ...; see vision.synthetic.SyntheticRolls). clock and sleep are
    injectable everywhere they apply.
    """
    spec = spec.strip()
    if not spec:
        raise CameraError("no camera given: use picamera, a device index like 0, a video file, "
                          "a URL, replay:FOLDER or synthetic")
    kind, _, rest = spec.partition(":")
    if spec == "picamera" or kind == "picamera":
        return PicameraSource(**_pick(opts, "size", "warmup_s", "controls", "clock", "sleep"),
                              **({"camera": int(rest)} if rest else {}))
    if spec.lstrip("-").isdigit():
        return CaptureSource(int(spec), **_pick(opts, "size", "clock"))
    if "://" in spec:
        return CaptureSource(spec, **_pick(opts, "size", "clock"))
    if kind == "synthetic":
        import random

        from vision.synthetic import SyntheticRolls

        seed = opts.pop("seed", None)
        if rest:
            seed = int(rest) if rest.isdigit() else rest
        rng = opts.pop("rng", None) or random.Random(seed)
        return SyntheticRolls(None, rng=rng, **_pick(opts, "n_dice", "fps", "size", "noise", "die_px",
                                                     "min_contrast", "pace", "clock", "sleep", "root"))
    if kind == "replay":
        path = Path(rest).expanduser()
        if not rest:
            raise CameraError("replay needs a folder or a video file: replay:FOLDER")
        if path.is_file():
            return VideoFileSource(path, **_pick(opts, "fps", "loop", "pace", "clock", "sleep"))
        return PhotoFolderSource(path, **_pick(opts, "fps", "hold", "loop", "size", "pace", "clock", "sleep"))
    path = Path(spec).expanduser()
    if path.is_dir():
        return PhotoFolderSource(path, **_pick(opts, "fps", "hold", "loop", "size", "pace", "clock", "sleep"))
    if path.suffix.lower() in IMAGE_SUFFIXES:
        raise CameraError(f"{spec} is one photo: give its folder as replay:{path.parent}")
    if not path.exists() and path.suffix.lower() not in VIDEO_SUFFIXES:
        raise CameraError(f"unknown camera {spec!r}: use picamera, a device index like 0, a video file, "
                          "a URL, replay:FOLDER or synthetic")
    return VideoFileSource(path, **_pick(opts, "fps", "loop", "pace", "clock", "sleep"))


def _pick(opts: dict[str, Any], *names: str) -> dict[str, Any]:
    """The options this kind of source understands; None means "use the default"."""
    return {k: opts[k] for k in names if opts.get(k) is not None}
