"""int8 variants of the two networks: static quantisation with ONNX Runtime's tools, then checked
with cv2.dnn, the runtime that would ship them.

Why: a Raspberry Pi's cores do 16 int8 multiply-adds in a NEON register where they do 4 float
ones, so int8 can be faster there, if OpenCV's DNN module loads the quantised graph and the
answers hold. This script answers those questions; it does not ship anything into vision/models.

Calibration and checking use procedural dice (vision.drawn) only: `--calibrate` tray frames
(seed 1) give the finder's letterboxed inputs and the face crops (cut_square at CROP_GROW x the die's
box, as at run time); a second, disjoint set (seed 2) measures how far int8 answers stray from
float ones: the face net's argmax agreement and the finder's heat differences and peaks.

    python -m vision.training.quantize --out /tmp/int8     # needs onnxruntime (tested 1.31.1)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from vision import drawn
from vision.models import model_path
from vision.models.face.face import CROP_GROW
from vision.models.finder.finder import INPUT as FINDER_INPUT
from vision.models.finder.finder import peaks

FORMATS = ("qdq", "qoperator")


def drawn_inputs(seed: int, frames: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Finder blobs (1x3x256x256) and face blobs (1x3xCROPxCROP) from `frames` drawn tray frames."""
    rng = np.random.default_rng(seed)
    finder_blobs, face_blobs = [], []
    for _ in range(frames):
        frame, dice = drawn.compose_tray(rng, 640, 480, count=int(rng.integers(1, 7)), side=(24, 110))
        square, _ = drawn.letterbox(frame, FINDER_INPUT)
        finder_blobs.append(cv2.dnn.blobFromImage(square, 1 / 255.0, swapRB=False))
        for d in dice:
            crop = drawn.cut_square(frame, d.xc, d.yc, CROP_GROW * max(d.w, d.h))
            face_blobs.append(cv2.dnn.blobFromImage(crop, 1 / 255.0, (drawn.CROP, drawn.CROP), swapRB=False))
    return finder_blobs, face_blobs


class Blobs:
    """onnxruntime's CalibrationDataReader protocol: get_next() -> {input name: array} or None."""

    def __init__(self, name: str, blobs: list[np.ndarray]) -> None:
        self.name = name
        self.items: Iterator[np.ndarray] = iter(blobs)

    def get_next(self) -> dict[str, np.ndarray] | None:
        blob = next(self.items, None)
        return None if blob is None else {self.name: blob}


def quantize(src: Path, dst: Path, input_name: str, blobs: list[np.ndarray], fmt: str) -> None:
    """Static int8 quantisation: int8 weights per channel, uint8 activations, MinMax calibration."""
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    prepared = dst.with_suffix(".prep.onnx")
    quant_pre_process(str(src), str(prepared), skip_symbolic_shape=True)
    quantize_static(
        str(prepared), str(dst), Blobs(input_name, blobs),
        quant_format=QuantFormat.QDQ if fmt == "qdq" else QuantFormat.QOperator,
        per_channel=True, weight_type=QuantType.QInt8, activation_type=QuantType.QUInt8,
        calibrate_method=CalibrationMethod.MinMax)
    prepared.unlink()


def engines() -> list[str]:
    """OpenCV 5's two DNN engines ("auto" tries the new graph engine first), or 4.x's one."""
    return ["auto", "classic"] if hasattr(cv2.dnn, "ENGINE_CLASSIC") else ["4.x"]


def read_net(path: Path, engine: str = "auto") -> cv2.dnn.Net:
    """The net with cv2's default backend and target (OpenCV's own, CPU). engine: OpenCV 5's
    ENGINE_AUTO (its new graph engine first), ENGINE_CLASSIC (4.x's) or ENGINE_NEW; 4.x has one."""
    if engine == "auto" or not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), getattr(cv2.dnn, f"ENGINE_{engine.upper()}"))


def forward(net: cv2.dnn.Net, blob: np.ndarray, outputs: list[str]) -> list[np.ndarray]:
    net.setInput(blob)
    return [o.copy() for o in net.forward(outputs)]


def run_medians(net_for_run: Callable[[], cv2.dnn.Net], blob: np.ndarray, outputs: list[str] | None = None,
                runs: int = 5, repeat: int = 30, warmup: int = 10) -> list[float]:
    """Each run's median forward time in ms, after `warmup` passes: a machine shared with other jobs
    has slow spells, and a median of medians steps round them. net_for_run gives the run's net (the
    same one, or a fresh one to include what a first load leaves cold)."""
    def once(net: cv2.dnn.Net) -> None:
        net.setInput(blob)
        net.forward(outputs) if outputs else net.forward()  # no names: the net's last output

    medians = []
    for _ in range(runs):
        net = net_for_run()
        for _ in range(warmup):
            once(net)
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            once(net)
            times.append((time.perf_counter() - t0) * 1000.0)
        medians.append(statistics.median(times))
    return medians


def median_ms(net: cv2.dnn.Net, blob: np.ndarray, outputs: list[str], runs: int = 5, repeat: int = 30) -> float:
    """The median over `runs` of each run's median forward time (after 10 warm-up passes)."""
    return statistics.median(run_medians(lambda: net, blob, outputs, runs, repeat))


def compare_face(float_net: cv2.dnn.Net, int8_net: cv2.dnn.Net, blobs: list[np.ndarray]) -> dict[str, float]:
    agree, worst = 0, 0.0
    for blob in blobs:
        (a,), (b,) = forward(float_net, blob, ["logits"]), forward(int8_net, blob, ["logits"])
        agree += int(np.argmax(a) == np.argmax(b))
        worst = max(worst, float(np.abs(a - b).max()))
    return {"crops": len(blobs), "argmax_agreement": agree / len(blobs), "logit_max_diff": worst}


def compare_finder(float_net: cv2.dnn.Net, int8_net: cv2.dnn.Net, blobs: list[np.ndarray],
                   threshold: float = 0.4) -> dict[str, float]:
    """Heat differences; the float peaks over `threshold` (vision.reader's FIND_AT) that int8 also
    finds (within one cell), the peaks int8 adds, and the die side's change at the kept peaks."""
    heat_diff, kept, extra, float_peaks, side_changes = 0.0, 0, 0, 0, []
    for blob in blobs:
        hf, sf, of = forward(float_net, blob, ["heat", "size", "offset"])
        hq, sq, oq = forward(int8_net, blob, ["heat", "size", "offset"])
        heat_diff = max(heat_diff, float(np.abs(hf - hq).max()))
        pf = peaks(hf[0, 0], sf[0, 0], of[0], 1.0, threshold, FINDER_INPUT, FINDER_INPUT)
        pq = peaks(hq[0, 0], sq[0, 0], oq[0], 1.0, threshold, FINDER_INPUT, FINDER_INPUT)
        float_peaks += len(pf)
        matched = set()
        for a in pf:
            near = [i for i, b in enumerate(pq) if i not in matched and abs(a.xc - b.xc) <= 4 and abs(a.yc - b.yc) <= 4]
            if near:
                matched.add(near[0])
                kept += 1
                side_changes.append(abs(pq[near[0]].side - a.side) / a.side)
        extra += len(pq) - len(matched)
    return {"frames": len(blobs), "heat_max_diff": heat_diff, "float_peaks": float_peaks,
            "peaks_kept": kept / max(1, float_peaks), "peaks_added": extra,
            "side_change_median": float(np.median(side_changes)) if side_changes else 0.0,
            "side_change_max": float(max(side_changes, default=0.0))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="a folder for the int8 files")
    parser.add_argument("--calibrate", type=int, default=60, help="drawn tray frames to calibrate on (about 3.5 dice each)")
    parser.add_argument("--check", type=int, default=60, help="other drawn tray frames to compare on")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    try:
        import onnxruntime
    except ImportError:
        print("quantize: needs onnxruntime (pip install onnxruntime==1.31.1)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    cal_finder, cal_face = drawn_inputs(1, args.calibrate)
    chk_finder, chk_face = drawn_inputs(2, args.check)
    print(f"onnxruntime {onnxruntime.__version__}, cv2 {cv2.__version__}; calibration: {len(cal_finder)} frames,"
          f" {len(cal_face)} crops; check: {len(chk_finder)} frames, {len(chk_face)} crops")
    report: dict[str, dict] = {}
    for name, input_name, outputs, cal, chk, compare in (
            ("face", "crop", ["logits"], cal_face, chk_face, compare_face),
            ("finder", "image", ["heat", "size", "offset"], cal_finder, chk_finder, compare_finder)):
        src = model_path(name)
        entry = report[name] = {"float": {"bytes": src.stat().st_size}}
        float_net = read_net(src, "auto")
        for engine in engines():
            entry["float"][f"ms_{engine}"] = median_ms(read_net(src, engine), chk[0], outputs)
        print(f"  {name} float: {json.dumps(entry['float'])}", flush=True)
        for fmt in FORMATS:
            dst = args.out / f"{name}-int8-{fmt}.onnx"
            quantize(src, dst, input_name, cal, fmt)
            row: dict[str, object] = {"bytes": dst.stat().st_size}
            for engine in engines():
                try:
                    int8_net = read_net(dst, engine)
                    forward(int8_net, chk[0], outputs)
                except cv2.error as exc:
                    row[engine] = {"loads": False, "error": str(exc).strip().splitlines()[-1][:200]}
                    continue
                row[engine] = {"loads": True, "ms": median_ms(int8_net, chk[0], outputs),
                               **compare(float_net, int8_net, chk)}
            entry[fmt] = row
            print(f"  {name} {fmt}: {json.dumps(row)}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
