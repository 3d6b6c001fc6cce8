"""Train the dice reader's two networks and export them as ONNX for cv2.dnn.

    python -m vision.training.train            # the full run (make model), under an hour on 2 cores
    python -m vision.training.train --quick    # one short epoch on a few photos (the test)

Data: the training split (vision.split) of the three shared photo sets, procedural dice
(vision.drawn) and real dice pasted on procedural trays (vision.training.data). Validation:
the held-out photos of each set and procedural dice in colours the photos lack. Writes
face/face.onnx, finder/finder.onnx and a metrics.json beside each.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from vision.models.face.face import FaceReader
from vision.models.finder.finder import Finder
from vision.models.finder.finder import peaks as finder_peaks
from vision.synthetic import find_dice_root
from vision.training import data
from vision.training.model import FaceNet, FinderExport, FinderNet, parameters

# --- settings ---------------------------------------------------------------------------------
SEED = 1337
THREADS = 2
FACE_EPOCHS = 72
FACE_BATCH = 128
FACE_LR = 3e-3
FACE_DRAWN_POOL = 4000  # procedural face scenes, drawn once, re-augmented every epoch
FINDER_EPOCHS = 120
FINDER_BATCH = 16
FINDER_LR = 3e-3
FINDER_CROP = 160  # trained on 160x160 windows of the 256x256 letterboxed frame (fully convolutional)
FINDER_DRAWN = 1000  # procedural tray frames
FINDER_THRESHOLD = 0.3  # heat peak threshold the validation numbers are quoted at
HARD_THRESHOLD = 0.2  # finder peaks this sure, on no labelled die, become the face's class-6 samples
HARD_REPEATS = 2
SYNTHETIC_VAL_PER_KIND = 250
VAL_SEED = 20261127
# bf16 autocast and channels-last tensors where the CPU does bf16 natively (AVX512-BF16, AMX): a face
# training step 2.4 x and a finder step 1.5 x faster on 2 cores than fp32 NCHW; the weights and the
# optimiser stay fp32. Elsewhere bf16 would be emulated, slower than fp32, so training stays fp32 there
FAST = True
OUT = Path(__file__).resolve().parents[1] / "models"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def to_tensor(batch: np.ndarray) -> torch.Tensor:
    """uint8 BGR NHWC -> float NCHW in 0..1, as cv2.dnn.blobFromImage(scale 1/255, swapRB=False)."""
    return torch.from_numpy(batch).permute(0, 3, 1, 2).float().div_(255.0)


def fast() -> bool:
    """FAST, on a CPU with native bf16 (oneDNN's own test; torch has no public one)."""
    native = getattr(torch.ops.mkldnn, "_is_mkldnn_bf16_supported", lambda: False)
    return FAST and bool(native())


def for_training(net: torch.nn.Module) -> torch.nn.Module:
    """The net in the memory layout training runs fastest in (see FAST)."""
    return net.to(memory_format=torch.channels_last) if fast() else net


def autocast() -> torch.autocast:
    """The forward pass's precision while training (see FAST); evaluation and export stay fp32."""
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=fast())


# --- face -------------------------------------------------------------------------------------


def face_accuracy(net: FaceNet, xs: np.ndarray, ys: np.ndarray) -> dict[str, float]:
    net.eval()
    with torch.no_grad():
        pred = torch.cat([net(to_tensor(xs[i : i + 512])).argmax(1) for i in range(0, len(xs), 512)]).numpy()
    right = int((pred == ys).sum())
    unread = int(((pred == data.NEGATIVE) & (ys != data.NEGATIVE)).sum())
    return {"dice": int(len(ys)), "right": right, "accuracy": round(right / max(1, len(ys)), 4), "wrong": int(len(ys) - right - unread), "unreadable": unread}


def train_face(photos: list[data.Photo], rng: np.random.Generator, epochs: int, pool: int, val: dict, hard: list[data.Scene]) -> tuple[FaceNet, dict]:
    log(f"face: drawing {pool} procedural scenes, {len(hard)} hard negatives (x{HARD_REPEATS})")
    drawn_pool = data.make_drawn_pool(rng, pool) + hard * HARD_REPEATS
    net = for_training(FaceNet())
    log(f"face: {parameters(net)} parameters, bf16 {fast()}")
    opt = torch.optim.AdamW(net.parameters(), lr=FACE_LR, weight_decay=5e-4)
    xs, ys = data.face_batch_source(photos, drawn_pool, rng)
    steps = epochs * math.ceil(len(xs) / FACE_BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, FACE_LR, total_steps=steps + 10, pct_start=0.15)
    for epoch in range(epochs):
        if epoch:
            xs, ys = data.face_batch_source(photos, drawn_pool, rng)
        net.train()
        t0, total = time.time(), 0.0
        for i in range(0, len(xs) - FACE_BATCH + 1, FACE_BATCH):
            x = to_tensor(xs[i : i + FACE_BATCH])
            y = torch.from_numpy(ys[i : i + FACE_BATCH])
            with autocast():
                loss = F.cross_entropy(net(x).float(), y, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(y)
        scores = {k: face_accuracy(net, *v)["accuracy"] for k, v in val.items()}
        log(f"face epoch {epoch + 1}/{epochs}: {len(xs)} samples, loss {total / len(xs):.4f}, {time.time() - t0:.0f} s, val {scores}")
    metrics = {k: face_accuracy(net, *v) for k, v in val.items()}
    return net, metrics


# --- finder -----------------------------------------------------------------------------------


def focal_loss(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the heat map, per positive."""
    pos = heat.eq(1).float()
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos_loss = -F.logsigmoid(logit) * (1 - p) ** 2 * pos
    neg_loss = -F.logsigmoid(-logit) * p**2 * (1 - heat) ** 4 * (1 - pos)
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def finder_batches(frames: list[data.Frame], rng: np.random.Generator, crop: int):
    """Shuffled training batches: augmented letterboxed frames, cut to crop x crop windows."""
    order = rng.permutation(len(frames))
    g = crop // data.STRIDE
    for i in range(0, len(order) - FINDER_BATCH + 1, FINDER_BATCH):
        ims, hs, ss, ms, os_ = [], [], [], [], []
        for j in order[i : i + FINDER_BATCH]:
            f = frames[j]
            im, h, s, m, o = data.finder_sample(f.image, f.centres, f.sides, rng)
            # a window where the picture is (the letterbox's zeros are seen at the edges anyway)
            if crop < data.FINDER_SIZE:
                cells = data.FINDER_SIZE // data.STRIDE
                cy, cx = int(rng.integers(0, cells - g + 1)), int(rng.integers(0, cells - g + 1))
                if h.max() > 0 and rng.random() < 0.7:  # mostly windows with a die in them
                    ys_, xs_ = np.nonzero(h == 1)
                    k = int(rng.integers(len(ys_)))
                    cy = int(np.clip(ys_[k] - rng.integers(0, g), 0, cells - g))
                    cx = int(np.clip(xs_[k] - rng.integers(0, g), 0, cells - g))
                im = im[cy * 4 : cy * 4 + crop, cx * 4 : cx * 4 + crop]
                h, s, m, o = h[cy : cy + g, cx : cx + g], s[cy : cy + g, cx : cx + g], m[cy : cy + g, cx : cx + g], o[:, cy : cy + g, cx : cx + g]
            ims.append(im)
            hs.append(h)
            ss.append(s)
            ms.append(m)
            os_.append(o)
        yield to_tensor(np.stack(ims)), torch.from_numpy(np.stack(hs))[:, None], torch.from_numpy(np.stack(ss))[:, None], torch.from_numpy(np.stack(ms))[:, None], torch.from_numpy(np.stack(os_))


def peaks(heat: np.ndarray, size: np.ndarray, offset: np.ndarray, threshold: float) -> list[tuple[float, float, float, float]]:
    """(x, y, side, score) in 256-input pixels: the run-time decoding (vision.models.finder) at scale 1."""
    return [tuple(f) for f in finder_peaks(heat, size, offset, 1.0, threshold, data.FINDER_SIZE, data.FINDER_SIZE)]


def finder_detect(net: FinderNet, image: np.ndarray, threshold: float) -> tuple[list[tuple[float, float, float, float]], float]:
    canvas, scale = data.letterbox(image)
    with torch.no_grad():
        heat, size, offset = FinderExport(net).eval()(to_tensor(canvas[None]))
    return peaks(heat[0, 0].numpy(), size[0, 0].numpy(), offset[0].numpy(), threshold), scale


def evaluate(detect, read, photos: list[data.Photo]) -> dict:
    """Per set: finder recall/precision of die centres, and (given `read`, crops -> classes, the face
    network) whole-image exactness: the values read, class 6 dropped, equal the labels."""
    out: dict[str, dict] = {}
    for p in photos:
        m = out.setdefault(p.set_name, {"images": 0, "dice": 0, "found": 0, "detections": 0, "true_detections": 0, "images_exact": 0, "dice_read_right": 0, "dice_read_wrong": 0, "size_error": []})
        found, scale = detect(p.image)
        centres = p.boxes[:, 1:3] * scale
        sides = p.sides * scale
        used = set()
        matches = []
        for x, y, s, score in sorted(found, key=lambda f: -f[3]):
            d = np.hypot(centres[:, 0] - x, centres[:, 1] - y) if len(centres) else np.array([])
            cand = [i for i in np.argsort(d) if d[i] < 0.5 * sides[i] and i not in used]
            if cand:
                used.add(cand[0])
                matches.append((cand[0], x, y, s))
                m["size_error"].append(abs(s - sides[cand[0]]) / sides[cand[0]])
        m["images"] += 1
        m["dice"] += len(centres)
        m["found"] += len(used)
        m["detections"] += len(found)
        m["true_detections"] += len(used)
        if read is not None:
            crops = [data.drawn.cut_square(p.image, x / scale, y / scale, data.CUT * s / scale) for x, y, s, _ in found]
            values = []
            if crops:
                pred = read(np.stack(crops))
                values = sorted(int(v) + 1 for v in pred if v != data.NEGATIVE)
                by_det = {(x, y): int(v) for (x, y, _, _), v in zip(found, pred, strict=True)}
                for i, x, y, _ in matches:
                    v = by_det[(x, y)]
                    if v == int(p.boxes[i, 0]) - 1:
                        m["dice_read_right"] += 1
                    elif v != data.NEGATIVE:
                        m["dice_read_wrong"] += 1
            truth = sorted(int(v) for v in p.boxes[:, 0])
            if values == truth or (not p.fully_labelled and all(values.count(v) >= truth.count(v) for v in set(truth))):
                m["images_exact"] += 1
    for m in out.values():
        m["recall"] = round(m["found"] / max(1, m["dice"]), 4)
        m["precision"] = round(m["true_detections"] / max(1, m["detections"]), 4)
        m["image_exact"] = round(m["images_exact"] / max(1, m["images"]), 4)
        m["median_size_error"] = round(float(np.median(m["size_error"])) if m["size_error"] else 0.0, 4)
        del m["size_error"]
    return out


def train_finder(frames: list[data.Frame], rng: np.random.Generator, epochs: int, val_photos: list[data.Photo]) -> FinderNet:
    net = for_training(FinderNet())
    log(f"finder: {parameters(net)} parameters, {len(frames)} frames an epoch, bf16 {fast()}")
    opt = torch.optim.AdamW(net.parameters(), lr=FINDER_LR, weight_decay=5e-4)
    steps = epochs * (len(frames) // FINDER_BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, FINDER_LR, total_steps=steps + 10, pct_start=0.15)
    for epoch in range(epochs):
        net.train()
        t0, total, n = time.time(), 0.0, 0
        for x, heat, size, mask, offset in finder_batches(frames, rng, FINDER_CROP):
            with autocast():
                h, s, o = (t.float() for t in net(x))
            centre = mask.eq(1).float()
            loss = (focal_loss(h, heat) + 5 * (torch.abs(s - size) * mask).sum() / mask.sum().clamp(min=1)
                    + (torch.abs(o - offset) * centre).sum() / centre.sum().clamp(min=1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
            n += 1
        quick = {k: (v["recall"], v["precision"]) for k, v in evaluate(lambda img: finder_detect(net, img, FINDER_THRESHOLD), None, val_photos[:: max(1, len(val_photos) // 40)]).items()}
        log(f"finder epoch {epoch + 1}/{epochs}: loss {total / max(1, n):.4f}, {time.time() - t0:.0f} s, val (recall, precision) on a sample {quick}")
    return net


# --- export -----------------------------------------------------------------------------------


def export(model: torch.nn.Module, shape: tuple[int, ...], path: Path, input_name: str, output_names: list[str], half: bool = False) -> float:
    """torch.onnx.export for cv2.dnn, then check cv2.dnn's outputs against torch's; returns the max difference.
    half: store the weights as float16 (see halve); the outputs may then differ by up to 2e-2."""
    path.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    dummy = torch.rand(*shape)
    torch.onnx.export(model, (dummy,), str(path), input_names=[input_name], output_names=output_names, opset_version=13, dynamo=False)
    if half:
        halve(path)
    net = cv2.dnn.readNetFromONNX(str(path))
    worst = 0.0
    gen = torch.Generator().manual_seed(0)
    for _ in range(3):
        x = torch.rand(*shape, generator=gen)
        with torch.no_grad():
            ref = model(x)
        ref = ref if isinstance(ref, tuple) else (ref,)
        net.setInput(x.numpy(), input_name)
        outs = net.forward(output_names)
        for r, o in zip(ref, outs, strict=True):
            worst = max(worst, float(np.abs(r.numpy() - o.reshape(r.shape)).max()))
    if worst > (2e-2 if half else 1e-4):
        raise SystemExit(f"{path}: cv2.dnn differs from torch by {worst}")
    return worst


def halve(path: Path) -> None:
    """Store an ONNX file's float32 weights as float16, each cast back to float32 by a first node.

    Half the bytes for the same net: cv2.dnn folds the casts at load and runs float32 as before (a
    face pass 1.19 against 1.17 ms, one core), and the face logits move by about 2e-3.
    """
    import onnx  # the train extra's; only training writes files
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    casts = []
    for t in list(model.graph.initializer):
        weights = numpy_helper.to_array(t)
        if weights.dtype != np.float32:
            continue
        model.graph.initializer.remove(t)
        model.graph.initializer.append(numpy_helper.from_array(weights.astype(np.float16), f"{t.name}_fp16"))
        casts.append(helper.make_node("Cast", [f"{t.name}_fp16"], [t.name], to=TensorProto.FLOAT))
    for node in reversed(casts):
        model.graph.node.insert(0, node)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def onnx_reader(path: Path):
    """The face network as shipped, through its run-time wrapper: crops -> class indices (one turn)."""
    faces = FaceReader(1, path)
    return lambda crops: faces.logits(list(crops)).argmax(axis=1)


def onnx_detector(path: Path, threshold: float = HARD_THRESHOLD):
    """The finder as shipped, through its run-time wrapper: image -> (peaks in 256-input px, scale)."""
    finder = Finder(threshold, path)

    def detect(image: np.ndarray):
        heat, size, offset, scale = finder.maps(image)
        return peaks(heat, size, offset, threshold), scale

    return detect


def hard_negatives(detect, photos: list[data.Photo]) -> list[data.Scene]:
    """Where the finder marks a die no label has (a round button, a pip-like spot, an oblique
    camera's side face): class-6 crops for the face network, so a false find reads as no die."""
    out: list[data.Scene] = []
    for p in photos:
        if not p.fully_labelled:
            continue
        found, scale = detect(p.image)
        body = 1.0 if data.WHOLE_DIE_BOXES[p.set_name] else 1.6
        for x, y, s, _ in found:
            fx, fy, fs = x / scale, y / scale, max(4.0, s / scale)
            d = np.hypot(p.boxes[:, 1] - fx, p.boxes[:, 2] - fy)
            if np.all(d > 0.6 * p.sides * body):
                out.append(data.Scene(p.image, fx, fy, fs, data.NEGATIVE))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one short epoch on a few photos")
    ap.add_argument("--out", type=Path, default=None, help="folder for face/ and finder/ (default: vision/models, the shipped files)")
    ap.add_argument("--dice", type=Path, default=None, help="the shared photo sets (default: ../shared/dice)")
    ap.add_argument("--threads", type=int, default=THREADS, help=f"torch threads (default {THREADS}; 1 is faster when other jobs share the cores)")
    ap.add_argument("--only", choices=("face", "finder"), help="train one network; the other's file in --out is used and kept")
    ap.add_argument("--evaluate", action="store_true", help="train nothing: score the ONNX pair in --out on the validation photos")
    ap.add_argument("--leave-out", choices=data.SETS, action="append", default=[], metavar="SET",
                    help="train on none of SET's photos and validate on all of them: how the reader does on a "
                         "kind of dice and camera it never saw (repeatable; for study, not for the shipped files)")
    ap.add_argument("--seed", type=int, default=SEED, help=f"torch's and numpy's seed (default {SEED}, the shipped files'): "
                                                           "a second seed tells a change's effect from chance")
    args = ap.parse_args(argv)
    if args.out is None:
        if args.leave_out or args.seed != SEED:
            ap.error("--leave-out and --seed are for study: give --out a folder of its own, not the shipped vision/models")
        args.out = OUT
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    root = args.dice or find_dice_root()
    limit = 3 if args.quick else None
    train_photos = data.load_photos(root, validation=False, limit=limit)
    val_photos = data.load_photos(root, validation=True, limit=limit)
    if args.leave_out:
        val_photos += [p for p in train_photos if p.set_name in args.leave_out]
        train_photos = [p for p in train_photos if p.set_name not in args.leave_out]
    log(f"{len(train_photos)} training photos, {len(val_photos)} validation photos from {root}"
        + (f"; left out of training: {', '.join(args.leave_out)}" if args.leave_out else ""))
    face_path = args.out / "face" / "face.onnx"
    finder_path = args.out / "finder" / "finder.onnx"
    common = {"seed": args.seed, "threads": args.threads, "quick": args.quick, "left_out": args.leave_out, "train_photos": len(train_photos), "validation_photos": len(val_photos)}
    if args.evaluate:
        metrics = {f"threshold {t}": evaluate(onnx_detector(finder_path, t), onnx_reader(face_path), val_photos) for t in (FINDER_THRESHOLD, 0.5)}
        log(f"pair validation: {json.dumps(metrics)}")
        saved = json.loads((finder_path.parent / "metrics.json").read_text())
        saved["validation"] = metrics
        (finder_path.parent / "metrics.json").write_text(json.dumps(saved, indent=1) + "\n")
        return

    # 1. the finder (it needs nothing of the face network)
    finder = None
    finder_minutes = 0.0
    if args.only != "face":
        started = time.time()
        log("finder: drawing procedural trays")
        pasteable = [p for p in train_photos if data.WHOLE_DIE_BOXES[p.set_name] and len(p.boxes)]
        frames = [data.photo_frame(p) for p in train_photos if p.fully_labelled and len(p.boxes)] * (1 if args.quick else 2)
        frames += [data.drawn_frame(rng, pasteable) for _ in range(16 if args.quick else FINDER_DRAWN)]
        finder = train_finder(frames, rng, 1 if args.quick else FINDER_EPOCHS, val_photos)
        diff = export(FinderExport(finder), (1, 3, data.FINDER_SIZE, data.FINDER_SIZE), finder_path, "image", ["heat", "size", "offset"])
        finder_minutes = round((time.time() - started) / 60, 1)
        log(f"exported {finder_path} ({finder_path.stat().st_size} B, cv2.dnn vs torch {diff:.1e}) after {finder_minutes} min")

    # 2. the face network, with the finder's false finds on training photos as class 6
    if args.only != "finder":
        started = time.time()
        if finder is not None:
            hard = hard_negatives(lambda img: finder_detect(finder, img, HARD_THRESHOLD), train_photos)
        else:
            hard = hard_negatives(onnx_detector(finder_path), train_photos) if finder_path.exists() else []
        face_val = data.real_val_crops(val_photos)
        synth_val = data.synthetic_val_crops(VAL_SEED, 10 if args.quick else SYNTHETIC_VAL_PER_KIND)
        val = {**face_val, **{f"drawn {k}": v for k, v in synth_val.items()}}
        epochs = 1 if args.quick else FACE_EPOCHS
        face, face_metrics = train_face(train_photos, rng, epochs, 30 if args.quick else FACE_DRAWN_POOL, val, hard)
        log(f"face validation: {json.dumps(face_metrics)}")
        diff = export(face, (1, 3, data.drawn.CROP, data.drawn.CROP), face_path, "crop", ["logits"], half=True)
        minutes = round((time.time() - started) / 60, 1)
        log(f"exported {face_path} ({face_path.stat().st_size} B, cv2.dnn vs torch {diff:.1e}) after {minutes} min")
        (face_path.parent / "metrics.json").write_text(json.dumps({**common, "train_minutes": minutes, "parameters": parameters(face), "epochs": epochs, "hard_negatives": len(hard), "validation": face_metrics}, indent=1) + "\n")

    # 3. the pair on the validation photos
    if finder is not None:
        read = onnx_reader(face_path) if face_path.exists() else None
        finder_metrics = {f"threshold {t}": evaluate(lambda img: finder_detect(finder, img, t), read, val_photos) for t in (FINDER_THRESHOLD, 0.5)}
        log(f"finder validation: {json.dumps(finder_metrics)}")
        (finder_path.parent / "metrics.json").write_text(json.dumps({**common, "train_minutes": finder_minutes, "parameters": parameters(finder), "epochs": 1 if args.quick else FINDER_EPOCHS, "validation": finder_metrics}, indent=1) + "\n")
    log("done")


if __name__ == "__main__":
    main()
