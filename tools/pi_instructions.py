#!/usr/bin/env python3
"""The instruction-count route to the Raspberry Pi 4 estimate (a cross-check of tools/pi_estimate.py).

Times on a shared 2-core machine wobble with its load; the number of instructions a forward pass
executes does not. valgrind (callgrind) counts them: a process that reads the net, runs one warm-up
pass and then K passes, minus the same process with K = 0, divided by K. Then, as in
pi_estimate.py, the references' published Pi times turn instructions into Pi milliseconds:

    Pi ms (ours) = instructions (ours) x Pi ms (reference) / instructions (reference)

valgrind emulates a CPU without AVX-512, so OpenCV picks its AVX2 kernels (8 floats a vector; the
Pi's NEON holds 4): like the time route this assumes our nets use the vector units as well as the
references do. One thread. Slow (callgrind runs ~100x slower): ~10 minutes for the small nets on
a shared machine, ResNet50 alone as long again (--skip resnet50_vd).

    nice -n 10 python tools/pi_instructions.py [--passes 4]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pi_estimate import NCNN_PI4_MS, PUBLISHED_MS, REFERENCES, ROOT, input_shape  # noqa: E402

RUN_NET = """
import sys, cv2, numpy as np
cv2.setNumThreads(1)
net = cv2.dnn.readNetFromONNX(sys.argv[1])
blob = np.random.default_rng(1).random(tuple(int(d) for d in sys.argv[2].split('x')), dtype=np.float32)
for _ in range(1 + int(sys.argv[3])):
    net.setInput(blob)
    net.forward()
"""


def instructions(python: str, path: Path, shape: tuple[int, ...], passes: int) -> int:
    """Instructions (callgrind's Ir) the whole process executes with `passes` timed passes."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", python, "-c", RUN_NET,
             str(path), "x".join(map(str, shape)), str(passes)],
            capture_output=True, text=True, check=False)
    match = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not match:
        raise RuntimeError(f"valgrind failed on {path.name}: {proc.stderr.strip().splitlines()[-1:]}")
    return int(match.group(1))


def per_pass(python: str, path: Path, passes: int) -> float:
    shape = input_shape(onnx.load(path))
    return (instructions(python, path, shape, passes) - instructions(python, path, shape, 0)) / passes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finder", type=Path, default=ROOT / "vision/models/finder/finder.onnx")
    parser.add_argument("--face", type=Path, default=ROOT / "vision/models/face/face.onnx")
    parser.add_argument("--passes", type=int, default=4, help="forward passes counted (after one warm-up)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose cv2 is measured")
    parser.add_argument("--skip", action="append", default=[], choices=list(REFERENCES),
                        help="leave a reference out (resnet50_vd takes most of the run)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    references = [r for r in REFERENCES if r not in args.skip]
    counts: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        nets = {}
        for name in references:
            nets[name] = Path(tmp) / f"{name}.onnx"
            onnx.save(REFERENCES[name](), nets[name])
        nets["finder"], nets["face"] = args.finder, args.face
        for name, path in nets.items():
            counts[name] = per_pass(args.python, path, args.passes)
            print(f"  {name:13s} {counts[name] / 1e6:10.1f} M instructions a pass", flush=True)
    estimates: dict[str, dict[str, dict[str, float]]] = {"pi_4_threads": {}, "pi_1_thread": {}}
    for pi_threads, key in ((4, "pi_4_threads"), (1, "pi_1_thread")):
        print(f"\nPi 4 estimate, {pi_threads} thread(s) there (ms), scaled by each reference's Pi ms / instructions:")
        for ref in references:
            pi_ms = PUBLISHED_MS[ref][0] * (NCNN_PI4_MS[ref][1] / NCNN_PI4_MS[ref][0] if pi_threads == 1 else 1.0)
            per_instr = pi_ms / counts[ref]
            finder, face = counts["finder"] * per_instr, counts["face"] * per_instr
            e = estimates[key][ref] = {"finder": finder, "face": face, "read_3_dice_1_turn": finder + 3 * face,
                                       "read_3_dice_4_turns": finder + 12 * face}
            print(f"  {ref:13s} finder {finder:7.2f}  face {face:6.2f}  3 dice 1 turn {e['read_3_dice_1_turn']:6.1f}"
                  f"  4 turns {e['read_3_dice_4_turns']:6.1f}")
    if args.json:
        args.json.write_text(json.dumps({"instructions": counts, "estimates": estimates}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
