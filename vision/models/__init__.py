"""The reader's two networks, as ONNX files shipped inside the package and run by OpenCV's DNN module.

In the style of the OpenCV Zoo: each network has a folder with its .onnx file, a README card and a
thin wrapper class (finder/finder.py, face/face.py) that turns frames into numbers and back. No torch
at run time: the files are trained by vision/training (`make model`), which needs torch, and read
here with cv2.dnn alone. Each net is loaded once (per thread) on first use (the load is ~10 ms and
every reading would pay it), and `cv2.setNumThreads` is left to the caller (the benchmarks pin one
core; the appliance leaves OpenCV its default).
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2

HERE = Path(__file__).resolve().parent


class ModelMissing(RuntimeError):
    """The package was installed without its .onnx files (package data): a broken install."""


def model_path(name: str) -> Path:
    """The shipped file of network `name` ("finder" or "face")."""
    return HERE / name / f"{name}.onnx"


_NETS = threading.local()


def load(path: Path) -> cv2.dnn.Net:
    """The network in `path`, read once per process thread on first use.

    One per thread, not one per process: a cv2.dnn.Net keeps its layers' buffers between calls, so
    two threads running forward() on one net at once would share them (the demo's tables and the
    tests' thread pools read frames in parallel). The files are small (under a megabyte each).
    """
    nets = getattr(_NETS, "nets", None)
    if nets is None:
        nets = _NETS.nets = {}
    net = nets.get(path)
    if net is None:
        if not path.is_file():
            raise ModelMissing(f"{path}: the network file is missing (reinstall the package, or `make model`)")
        # OpenCV 4.10 (pyproject pins it): its DNN module runs these small nets about 15 % faster than
        # OpenCV 5.0's classic engine and twice as fast as 5.0's default one, with the same readings
        # (docs/pi4-estimate.md, session 34)
        net = nets[path] = cv2.dnn.readNetFromONNX(str(path))
    return net
