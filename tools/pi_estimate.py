#!/usr/bin/env python3
"""Estimate the dice reader's time on a Raspberry Pi 4 from this machine's cv2.dnn times.

Nobody here has a Pi. OpenCV Zoo publishes cv2.dnn times on a Raspberry Pi 4B (and an Intel PC)
for networks whose architecture is public: MobileNet V1 and V2 and PP-ResNet (ResNet50-vd) at
224x224. This script rebuilds those three architectures as ONNX graphs (random weights: the time
of a dense float network does not depend on its weights), counts their MACs (tools/count_macs.py),
times them and our two networks here with the same cv2.dnn, then scales our times by each
reference's Pi-over-here ratio:

    Pi ms (ours) = here ms (ours) x Pi ms (reference) / here ms (reference)

Times are medians: of `--repeat` forward passes after `--warmup`, then the median of `--runs`
such runs. One thread (cv2.setNumThreads(1)) unless --threads. Run it niced on a shared machine.

    nice -n 10 python tools/pi_estimate.py [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from count_macs import total_macs  # noqa: E402

from vision.training.quantize import read_net, run_medians  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# OpenCV Zoo, benchmark/README.md, "Detailed Results" (opencv-python 4.10.0, `benchmark.py --all`,
# default backend and target = OpenCV on CPU, OpenCV's default thread count, i.e. all 4 cores of
# the Pi). Median ms of 10 runs after 30 warm-ups, pre- and post-processing included.
PUBLISHED_MS = {
    # name: (Raspberry Pi 4B, Intel i7-12700K)
    "mobilenet_v1": (64.30, 3.14),
    "mobilenet_v2": (58.41, 3.02),
    "resnet50_vd": (420.73, 19.47),
}

# The Pi times above use all 4 cores; the benchmarks pin one. OpenCV Zoo has no one-thread Pi run,
# but ncnn's benchmark/README.md has the same architectures on a Raspberry Pi 4B (Cortex-A72 at
# 1.8 GHz) with 4 threads and with 1: `benchncnn 10 4 0 -1 1` and `benchncnn 10 1 0 -1 1`, avg ms.
# Their ratio (1 thread / 4 threads) turns a 4-thread Pi time into a 1-thread one.
NCNN_PI4_MS = {
    # name: (4 threads, 1 thread); ncnn's "mobilenet" is V1, "resnet50" plain ResNet-50
    "mobilenet_v1": (61.17, 124.32),
    "mobilenet_v2": (61.88, 93.48),
    "resnet50_vd": (262.83, 534.11),
}


class Graph:
    """A tiny ONNX graph builder: conv / relu / pool / add nodes on one running tensor name."""

    def __init__(self, seed: int = 0) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.rng = np.random.default_rng(seed)
        self.count = 0

    def _name(self, kind: str) -> str:
        self.count += 1
        return f"{kind}{self.count}"

    def _weight(self, shape: tuple[int, ...]) -> str:
        name = self._name("w")
        fan_in = int(np.prod(shape[1:])) or 1
        w = (self.rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        self.inits.append(numpy_helper.from_array(w, name))
        return name

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int = 1, groups: int = 1,
             act: str | None = "relu") -> str:
        """Conv with bias (BatchNorm folded, as exported nets are), then ReLU, ReLU6 or nothing."""
        y = self._name("conv")
        w = self._weight((cout, cin // groups, k, k))
        b = self._name("b")
        self.inits.append(numpy_helper.from_array(np.zeros(cout, np.float32), b))
        self.nodes.append(helper.make_node("Conv", [x, w, b], [y], kernel_shape=[k, k], strides=[stride, stride],
                                           pads=[k // 2] * 4, group=groups))
        return self.act(y, act)

    def act(self, x: str, act: str | None) -> str:
        if act is None:
            return x
        y = self._name(act)
        if act == "relu":
            self.nodes.append(helper.make_node("Relu", [x], [y]))
        else:  # relu6
            lo, hi = self._name("lo"), self._name("hi")
            self.inits += [numpy_helper.from_array(np.array(0, np.float32), lo),
                           numpy_helper.from_array(np.array(6, np.float32), hi)]
            self.nodes.append(helper.make_node("Clip", [x, lo, hi], [y]))
        return y

    def op(self, op: str, inputs: list[str], **attrs) -> str:
        y = self._name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [y], **attrs))
        return y

    def classifier(self, x: str, cin: int, classes: int = 1000) -> str:
        pooled = self.op("GlobalAveragePool", [x])
        flat = self.op("Flatten", [pooled])
        w, b = self._name("fc_w"), self._name("fc_b")
        self.inits += [numpy_helper.from_array((self.rng.standard_normal((classes, cin)) * 0.01).astype(np.float32), w),
                       numpy_helper.from_array(np.zeros(classes, np.float32), b)]
        return self.op("Gemm", [flat, w, b], transB=1)

    def model(self, x: str, y: str, size: int) -> onnx.ModelProto:
        graph = helper.make_graph(self.nodes, "reference", [
            helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, 3, size, size])],
            [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 1000])], self.inits)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def mobilenet_v1(size: int = 224) -> onnx.ModelProto:
    """MobileNet V1 1.0 (Howard et al. 2017, table 1): 569 M MACs at 224."""
    g = Graph()
    x = g.conv("input", 3, 32, 3, 2)
    cin = 32
    plan = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), *[(512, 1)] * 5, (1024, 2), (1024, 1)]
    for cout, stride in plan:
        x = g.conv(x, cin, cin, 3, stride, groups=cin)
        x = g.conv(x, cin, cout, 1)
        cin = cout
    return g.model("input", g.classifier(x, cin), size)


def mobilenet_v2(size: int = 224) -> onnx.ModelProto:
    """MobileNet V2 1.0 (Sandler et al. 2018, table 2): 300 M MACs at 224."""
    g = Graph()
    x = g.conv("input", 3, 32, 3, 2, act="relu6")
    cin = 32
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            y = x if t == 1 else g.conv(x, cin, hidden, 1, act="relu6")
            y = g.conv(y, hidden, hidden, 3, stride, groups=hidden, act="relu6")
            y = g.conv(y, hidden, c, 1, act=None)
            x = g.op("Add", [x, y]) if stride == 1 and cin == c else y
            cin = c
    x = g.conv(x, cin, 1280, 1, act="relu6")
    return g.model("input", g.classifier(x, 1280), size)


def resnet50_vd(size: int = 224) -> onnx.ModelProto:
    """ResNet50-vd (He et al. 2019, "Bag of Tricks", ResNet-D), the architecture of OpenCV Zoo's
    PP-ResNet (PaddleHub resnet50_vd_imagenet_ssld): three 3x3 stem convs, stride on the 3x3 of a
    bottleneck, an average-pooled 1x1 shortcut when downsampling."""
    g = Graph()
    x = g.conv("input", 3, 32, 3, 2)
    x = g.conv(x, 32, 32, 3)
    x = g.conv(x, 32, 64, 3)
    x = g.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for width, blocks, stride in [(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)]:
        for i in range(blocks):
            s = stride if i == 0 else 1
            cout = width * 4
            y = g.conv(x, cin, width, 1)
            y = g.conv(y, width, width, 3, s)
            y = g.conv(y, width, cout, 1, act=None)
            if i == 0:
                short = g.op("AveragePool", [x], kernel_shape=[2, 2], strides=[2, 2]) if s == 2 else x
                short = g.conv(short, cin, cout, 1, act=None)
            else:
                short = x
            x = g.act(g.op("Add", [short, y]), "relu")
            cin = cout
    return g.model("input", g.classifier(x, cin), size)


REFERENCES = {"mobilenet_v1": mobilenet_v1, "mobilenet_v2": mobilenet_v2, "resnet50_vd": resnet50_vd}


def time_net(path: Path, shape: tuple[int, ...], warmup: int, repeat: int, runs: int,
             engine: str = "auto") -> list[float]:
    """Median ms of one forward pass, one value per run (a fresh net each run)."""
    blob = np.random.default_rng(1).random(shape, dtype=np.float32)
    return run_medians(lambda: read_net(path, engine), blob, None, runs, repeat, warmup)


@dataclass
class Row:
    name: str
    macs: int
    here_ms: float
    here_runs: list[float]
    pi_ms: float | None = None  # published (references) or estimated (ours, per reference)


def input_shape(model: onnx.ModelProto) -> tuple[int, ...]:
    return tuple(d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finder", type=Path, default=ROOT / "vision/models/finder/finder.onnx")
    parser.add_argument("--face", type=Path, default=ROOT / "vision/models/face/face.onnx")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--engine", choices=("auto", "classic", "new"), default="auto",
                        help="OpenCV 5's DNN engine (ignored by OpenCV 4)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--save-references", type=Path, help="also write the reference ONNX graphs here")
    parser.add_argument("--json", type=Path, help="write the rows and estimates here")
    args = parser.parse_args(argv)
    for path in (args.finder, args.face):
        if not path.is_file():
            print(f"pi_estimate: no network at {path}", file=sys.stderr)
            return 2
    cv2.setNumThreads(args.threads)
    engine = args.engine if hasattr(cv2.dnn, "ENGINE_CLASSIC") else "4.x"
    print(f"cv2 {cv2.__version__} (engine {engine}), {cv2.getNumThreads()} thread(s), {args.runs} runs x {args.repeat} passes")

    rows: dict[str, Row] = {}
    with tempfile.TemporaryDirectory() as tmp:
        nets: list[tuple[str, Path, tuple[int, ...] | None]] = []  # name, file, input shape (None: as declared)
        for name, build in REFERENCES.items():
            path = (args.save_references or Path(tmp)) / f"{name}.onnx"
            path.parent.mkdir(parents=True, exist_ok=True)
            onnx.save(build(), path)
            nets.append((name, path, None))
        # the finder as the brief states it (256x256) and as vision.reader runs a 640x480 frame
        # (TRIM: the letterbox's black rows left out, 256x192)
        nets += [("finder", args.finder, None), ("finder_trim", args.finder, (1, 3, 192, 256)), ("face", args.face, None)]
        for name, path, shape in nets:
            model = onnx.load(path)
            shape = shape or input_shape(model)
            runs = time_net(path, shape, args.warmup, args.repeat, args.runs, args.engine)
            published = PUBLISHED_MS.get(name, (None, None))[0]
            rows[name] = Row(name, total_macs(model, shape), statistics.median(runs), runs, published)
            print(f"  {name:13s} {rows[name].macs / 1e6:8.2f} M MACs  here {rows[name].here_ms:8.3f} ms"
                  f"  runs {', '.join(f'{r:.3f}' for r in runs)}", flush=True)

    estimates: dict[str, dict[str, dict[str, float]]] = {"pi_4_threads": {}, "pi_1_thread": {}}
    for pi_threads, key in ((4, "pi_4_threads"), (1, "pi_1_thread")):
        print(f"\nPi 4 estimate, {pi_threads} thread(s) there (ms), scaled by each reference's Pi ms / here ms;"
              " a read of 3 dice = 1 finder pass + 3 x turns face passes:")
        print(f"  {'reference':13s} {'Pi ms':>7s} {'ratio':>6s} {'finder':>7s} {'trimmed':>8s} {'face':>6s}"
              f" {'1 turn':>7s} {'4 turns':>8s} {'4 turns, trimmed':>17s}")
        for ref in REFERENCES:
            pi_ms = rows[ref].pi_ms
            if pi_threads == 1:
                four, one = NCNN_PI4_MS[ref]
                pi_ms *= one / four
            ratio = pi_ms / rows[ref].here_ms
            finder, trimmed, face = (rows[n].here_ms * ratio for n in ("finder", "finder_trim", "face"))
            e = estimates[key][ref] = {
                "pi_ms_reference": pi_ms, "ratio": ratio, "finder": finder, "finder_trim": trimmed, "face": face,
                "read_3_dice_1_turn": finder + 3 * face, "read_3_dice_4_turns": finder + 12 * face,
                "read_3_dice_4_turns_trimmed": trimmed + 12 * face}
            print(f"  {ref:13s} {pi_ms:7.1f} {ratio:6.1f} {finder:7.2f} {trimmed:8.2f} {face:6.2f}"
                  f" {e['read_3_dice_1_turn']:7.1f} {e['read_3_dice_4_turns']:8.1f} {e['read_3_dice_4_turns_trimmed']:17.1f}")
    if args.json:
        args.json.write_text(json.dumps({"cv2": cv2.__version__, "engine": engine, "threads": args.threads,
                                         "rows": {k: asdict(v) for k, v in rows.items()},
                                         "estimates": estimates}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
