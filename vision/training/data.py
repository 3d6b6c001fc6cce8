"""Training data for the two networks: real photos of the shared sets (training split only),
procedural dice from vision.drawn, and real dice pasted onto procedural trays.

Face samples are 32x32 crops cut like vision.drawn.cut_square (a square of 1.0-1.7 x the die's box
side around its centre, INTER_AREA to 32) but with the side, centre, rotation, colours and camera
jittered, so a die the photos never showed (a red die with white pips, light pips on a dark
body) still looks like something seen. Class 6 is "not a readable die": background, a tray wall,
a crop between two dice, a die half out of the crop, a cocked die.

Finder samples are letterboxed 256x256 frames (longer side scaled to 256, pasted top-left on
zeros, the run-time contract) with a Gaussian heat map at each die's centre on the stride-4 grid
and the die's side / 64 at its centre cell.
"""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import drawn
from vision.split import is_validation

SETS = ("byler-d6", "penlington-wood", "rune55-trays")
# penlington-wood's boxes hold the top face's pips only; the others hold the whole die
WHOLE_DIE_BOXES = {"byler-d6": True, "penlington-wood": False, "rune55-trays": True}
# crop side / box side of the face's validation cuts and of its hard negatives' geometry; its training cuts
# range 1.0-1.7 (augment_cut), and the reader cuts found dice at vision.models.face.face.CROP_GROW (1.45)
CUT = 1.3
FINDER_SIZE = 256
STRIDE = 4
NEGATIVE = 6

# Samples an epoch from each real die, by set: the hard sets (small, marbled, crowded, oblique) more often.
REAL_REPEATS = {"byler-d6": 4, "penlington-wood": 3, "rune55-trays": 6}
# Face cut augmentation: a stretch of up to exp(+-ASPECT) along each axis, ASPECT_P of the time;
# camera blur of BLUR_SIGMA px (at a 40-px cut) BLUR_P of the time (penlington-wood's webcam
# blurs some dice past 1.2 px, where the face net said "not a die")
ASPECT, ASPECT_P = 0.2, 0.5
BLUR_SIGMA, BLUR_P = (0.3, 2.0), 0.35
# a die still sliding when the frame was taken (penlington-wood's webcam smears some dice's pips
# into streaks, read "not a die"): a streak of MOTION x the die's side, MOTION_P of the time. With
# it the reader reads 98.3 % of penlington-wood's validation photos exactly, not 93.2 %, and byler-d6's
# through a shaken camera (vision.retake motion7) 73.8 % with 2 dice wrong, not 47.6 % with 13
MOTION, MOTION_P = (0.05, 0.3), 0.15
# a monochrome camera (a dice tower's): with grey 0.15 of the time the reader reads 57 % of byler-d6's
# validation photos exactly in grey against 86 % in colour (coloured dice whose pips turn the body's
# grey); a run with 0.3 (and no side-face negatives) read no more of them in grey, 55 %
GREY_P = 0.15
# penlington-wood: a cut below the top face, on the side face, is class 6; a run without them read
# penlington-wood no better (93.2 % of photos) and byler-d6 worse (76.2 % against 85.7 %)
SIDE_FACE_NEGATIVES = True
# the readable drawn die's tilt, up to: side faces show as under an oblique camera (rune55-trays' phone,
# a webcam at an angle). The cocked "not a die" class stays at 38-52 degrees. 35 not 25: without
# rune55-trays in training it read 73-74 % of that set's dice, not 71 %, and trained on all three sets
# byler-d6's validation photos 90.5 % exact, not 85.7 % (face card, "Dice it never saw")
READABLE_TILT = 35.0
# a real die in colours no photo shows: RECOLOUR_P of the jittered cuts get a random linear colour map
# (recolour), so an ivory die with black pips also trains as a dark one with red pips, a pink one with
# green pips, ...
RECOLOUR_P = 0.25
# half the drawn bare-floor negatives have a round thing in the middle (spot): a hole in a stand, a
# button, a coin. Without them a network that never saw byler-d6's stand read its round grey holes as ones
SPOT_P = 0.5
# the finder's drawn trays: CROWD_P of them a crowd of 10-30 small dice, each after the first lying against
# an earlier one CROWD_TOUCHING of the time (byler-d6's heaps; a finder that never saw byler-d6 merged them)
CROWD_P, CROWD_TOUCHING = 0.3, 0.6
# Dice sold for Bunco and party games: drawn often so the colours the photos lack are common.
PARTY_LOOKS = (("red", "white"), ("dark-red", "white"), ("pink", "white"), ("pink", "black"), ("black", "white"), ("blue", "white"), ("white", "black"), ("white", "red"), ("green", "white"), ("yellow", "black"), ("purple", "white"), ("cream", "black"))


@dataclass
class Photo:
    """One labelled photo: pixels, boxes in pixels (value, xc, yc, w, h), and whether every
    visible die is labelled (else its background may not be used as 'no die here')."""

    set_name: str
    file: str
    image: np.ndarray
    boxes: np.ndarray  # (n, 5) float32
    fully_labelled: bool

    @property
    def sides(self) -> np.ndarray:
        return np.maximum(self.boxes[:, 3], self.boxes[:, 4])


def load_photos(root: Path, validation: bool, limit: int | None = None) -> list[Photo]:
    """The photos of the three sets on one side of vision.split (validation or training)."""
    photos: list[Photo] = []
    for set_name in SETS:
        folder = root / set_name
        rows: dict[str, list[list[float]]] = defaultdict(list)
        with open(folder / "boxes.csv", newline="") as f:
            for r in csv.DictReader(f):
                rows[r["file"]].append([float(r["value"]), float(r["xc"]), float(r["yc"]), float(r["w"]), float(r["h"])])
        issues: set[str] = set()
        if (folder / "label_issues.csv").exists():
            with open(folder / "label_issues.csv", newline="") as f:
                issues = {r["file"] for r in csv.DictReader(f)}
        with open(folder / "labels.csv", newline="") as f:
            files = [r["file"] for r in csv.DictReader(f)]
        taken = 0
        for file in sorted(files):
            if is_validation(set_name, file) != validation:
                continue
            image = cv2.imread(str(folder / "images" / file), cv2.IMREAD_COLOR)
            if image is None:
                continue
            h, w = image.shape[:2]
            b = np.array(rows.get(file, []), np.float32).reshape(-1, 5)
            b[:, [1, 3]] *= w
            b[:, [2, 4]] *= h
            photos.append(Photo(set_name, file, image, b, file not in issues))
            taken += 1
            if limit is not None and taken >= limit:
                break
    return photos


# ---------------------------------------------------------------------------------------------
# face crops


def augment_cut(scene: np.ndarray, xc: float, yc: float, side: float, rng: np.random.Generator, scale: tuple[float, float] = (1.0, 1.7), shift: float = 0.15) -> np.ndarray:
    """A jittered cut_square: rotated any angle, side scale x box side, centre moved up to
    shift x side, ASPECT_P of the time stretched along each axis (an oblique camera foreshortens
    a die, a phone photo squashed to a square stretches it), camera and motion blur, JPEG at the cut's own
    resolution, INTER_AREA to drawn.CROP square."""
    s = side * float(rng.uniform(*scale))
    cx = xc + float(rng.uniform(-shift, shift)) * side
    cy = yc + float(rng.uniform(-shift, shift)) * side
    out = max(8, int(round(s)))
    m = cv2.getRotationMatrix2D((cx, cy), float(rng.uniform(0, 360)), out / s)
    m[0, 2] += out / 2 - cx
    m[1, 2] += out / 2 - cy
    if rng.random() < ASPECT_P:
        stretch = np.diag(np.exp(rng.uniform(-ASPECT, ASPECT, 2)))
        m = np.hstack([stretch @ m[:, :2], (stretch @ (m[:, 2] - out / 2) + out / 2)[:, None]])
    crop = cv2.warpAffine(scene, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < BLUR_P:
        crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(*BLUR_SIGMA)) * max(1.0, out / 40))
    if rng.random() < MOTION_P:
        crop = drawn.motion_blur(crop, round(float(rng.uniform(*MOTION)) * side * out / s), float(rng.uniform(0, 180)))
    if rng.random() < 0.25:
        ok, enc = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        crop = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return cv2.resize(crop, (drawn.CROP, drawn.CROP), interpolation=cv2.INTER_AREA)


def recolour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The cut's colours turned and stretched about their mean by a random linear map (two random
    rotations of RGB space and gains of 0.6-1.3 between them), then moved to a random mean colour. It
    keeps every contrast the die has (pips against body, die against floor) and gives it any pair of
    colours: hue rotation, channel swaps and inversion only ever map a white body with black pips to
    two greys, never to a dark body with red pips."""
    f = img.reshape(-1, 3).astype(np.float32)
    u, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    v, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    a = (u * rng.uniform(0.6, 1.3, 3)) @ v.T
    out = (f - f.mean(axis=0)) @ a.T.astype(np.float32) + rng.uniform(50, 205, 3).astype(np.float32)
    return np.clip(out, 0, 255).reshape(img.shape).astype(np.uint8)


def colour_jitter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colours no set shows: a random recolouring (recolour), light/dark inversion (light pips on dark
    bodies), hue rotation, channel swaps, greyscale, exposure and gamma, sensor noise."""
    x = img
    if rng.random() < RECOLOUR_P:
        x = recolour(x, rng)
    if rng.random() < 0.3:
        x = 255 - x
    if rng.random() < 0.4:
        hsv = cv2.cvtColor(x, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        x = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.2:
        x = x[..., rng.permutation(3)]
    if rng.random() < GREY_P:
        g = cv2.cvtColor(x, cv2.COLOR_BGR2GRAY)
        x = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    f = x.astype(np.float32) / 255
    f = f ** float(np.exp(rng.normal(0, 0.25)))
    f = f * float(rng.uniform(0.6, 1.3)) * rng.uniform(0.9, 1.1, 3).astype(np.float32) + float(rng.uniform(-0.12, 0.12))
    if rng.random() < 0.4:
        f = f + rng.normal(0, rng.uniform(0.01, 0.05), f.shape).astype(np.float32)
    return np.clip(f * 255, 0, 255).astype(np.uint8)


@dataclass
class Scene:
    """A picture to cut face samples from: a die's box (or a place with no readable die)."""

    image: np.ndarray
    xc: float
    yc: float
    side: float
    label: int  # 0..5 = value 1..6, 6 = not a readable die


def spot(img: np.ndarray, rng: np.random.Generator, xc: float, yc: float, side: float) -> None:
    """A round thing on the floor that is not a die, drawn in place: a hole, a screw head, a button, a
    stain, a coin, 0.2-0.7 x a die's side across, soft-edged, sometimes with a rim. Alone on a plain
    floor, a dark disc is what a one looks like with its body the floor's colour: the face net must
    see the die's edges before it reads a one."""
    r = side * float(rng.uniform(0.1, 0.35))
    centre = (xc + float(rng.normal(0, 0.05)) * side, yc + float(rng.normal(0, 0.05)) * side)
    axes = (r, r * float(rng.uniform(0.75, 1.0)))
    angle = float(rng.uniform(0, 180))
    base = img.astype(np.float32)
    colour = np.array(rng.uniform(0, 255, 3) if rng.random() < 0.5 else base[int(yc), int(xc)] * rng.uniform(0.2, 0.6), np.float32)
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.ellipse(mask, ((centre[0], centre[1]), (2 * axes[0], 2 * axes[1]), angle), 1.0, -1, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, r * float(rng.uniform(0.05, 0.25))))
    out = base * (1 - mask[..., None]) + colour * mask[..., None]
    if rng.random() < 0.3:  # a rim: a lighter or darker ring round it
        ring = np.zeros(img.shape[:2], np.float32)
        cv2.ellipse(ring, ((centre[0], centre[1]), (2 * axes[0], 2 * axes[1]), angle), 1.0, max(1, int(r * 0.15)), cv2.LINE_AA)
        out = out * (1 - 0.5 * ring[..., None]) + (255 - colour) * 0.5 * ring[..., None]
    img[:] = np.clip(out, 0, 255).astype(np.uint8)


def drawn_scene(rng: np.random.Generator, negative: bool = False) -> Scene:
    """One procedural die (maybe with neighbours) on a procedural surface, or a negative:
    bare surface, a cocked die, or two dice with the crop between them."""
    side = float(rng.uniform(16, 64))
    size = int(side * 3.2)
    img = drawn.background(rng, size, size)
    c = size / 2
    look = drawn.random_look(rng, *PARTY_LOOKS[int(rng.integers(len(PARTY_LOOKS)))]) if rng.random() < 0.35 else drawn.random_look(rng)
    kind = int(rng.integers(0, 3)) if negative else -1
    if kind == 0:  # bare surface (sometimes with a round spot in the middle, a die at the edge)
        if rng.random() < SPOT_P:
            spot(img, rng, c, c, side)
        if rng.random() < 0.5:
            a = rng.uniform(0, 2 * math.pi)
            d = side * rng.uniform(1.1, 1.4)
            drawn.draw_die(img, look, drawn.random_pose(rng, int(rng.integers(1, 7)), c + d * math.cos(a), c + d * math.sin(a), side), rng)
        return Scene(drawn.finish(img, rng), c, c, side, NEGATIVE)
    if kind == 1:  # cocked: leaning 40-50 degrees, two faces equally up
        pose = drawn.Pose(int(rng.integers(1, 7)), c, c, side, float(rng.uniform(0, 360)), float(rng.uniform(38, 52)), float(rng.choice([0, 90, 180, 270]) + rng.uniform(-8, 8)), float(rng.uniform(0, 0.2)))
        box = drawn.draw_die(img, look, pose, rng)
        return Scene(drawn.finish(img, rng), box.xc, box.yc, max(box.w, box.h), NEGATIVE)
    if kind == 2:  # two dice, the crop centred between them
        a = rng.uniform(0, 2 * math.pi)
        d = side * rng.uniform(0.55, 0.75)
        for sign in (-1, 1):
            drawn.draw_die(img, look, drawn.random_pose(rng, int(rng.integers(1, 7)), c + sign * d * math.cos(a), c + sign * d * math.sin(a), side, 10), rng)
        return Scene(drawn.finish(img, rng), c, c, side, NEGATIVE)
    # a readable die, maybe with touching neighbours
    for _ in range(int(rng.integers(0, 4)) if rng.random() < 0.4 else 0):
        a = rng.uniform(0, 2 * math.pi)
        d = side * rng.uniform(1.05, 1.4)
        drawn.draw_die(img, look if rng.random() < 0.6 else drawn.random_look(rng), drawn.random_pose(rng, int(rng.integers(1, 7)), c + d * math.cos(a), c + d * math.sin(a), side), rng)
    value = int(rng.integers(1, 7))
    pose = drawn.random_pose(rng, value, c, c, side, max_tilt=READABLE_TILT)
    box = drawn.draw_die(img, look, pose, rng, shadow=float(rng.uniform(0.1, 0.6)), glare=float(rng.uniform(0, 0.6)) if rng.random() < 0.4 else 0.0)
    return Scene(drawn.finish(img, rng), box.xc, box.yc, max(box.w, box.h), value - 1)


def pasted_scene(rng: np.random.Generator, photo: Photo, i: int) -> Scene:
    """A real die (whole-die box) cut out with a rounded mask and pasted onto a procedural surface."""
    v, xc, yc, w, h = photo.boxes[i]
    side = float(max(w, h))
    size = int(side * 3.2)
    bg = drawn.background(rng, size, size)
    half = side * 0.55
    m = cv2.getRotationMatrix2D((float(xc), float(yc)), 0, 1)
    m[0, 2] += size / 2 - xc
    m[1, 2] += size / 2 - yc
    die = cv2.warpAffine(photo.image, m, (size, size), borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((size, size), np.float32)
    c = size / 2
    cv2.rectangle(mask, (int(c - w / 2 * 0.98), int(c - h / 2 * 0.98)), (int(c + w / 2 * 0.98), int(c + h / 2 * 0.98)), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.7, half * 0.12))
    sh = cv2.GaussianBlur(np.roll(mask, (int(side * 0.08), int(side * 0.08)), (0, 1)), (0, 0), max(0.7, side * 0.08))
    img = bg.astype(np.float32) * (1 - 0.4 * sh[..., None])
    img = img * (1 - mask[..., None]) + die.astype(np.float32) * mask[..., None]
    return Scene(np.clip(img, 0, 255).astype(np.uint8), c, c, side, int(v) - 1)


def real_negatives(rng: np.random.Generator, photo: Photo, count: int) -> list[Scene]:
    """Places in a real photo with no readable die centred: surface, tray wall, between two dice."""
    out: list[Scene] = []
    if len(photo.boxes) == 0:
        return out
    sides = photo.sides
    centres = photo.boxes[:, 1:3]
    body = 1.0 if WHOLE_DIE_BOXES[photo.set_name] else 1.6  # penlington's dice reach past their boxes
    h, w = photo.image.shape[:2]
    # between two neighbours
    if len(centres) > 1:
        d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        np.fill_diagonal(d, np.inf)
        for i in range(len(centres)):
            j = int(np.argmin(d[i]))
            if d[i, j] < 1.7 * max(sides[i], sides[j]) * body and rng.random() < 0.5 and len(out) < count // 2:
                mid = (centres[i] + centres[j]) / 2
                out.append(Scene(photo.image, float(mid[0]), float(mid[1]), float(max(sides[i], sides[j])), NEGATIVE))
    # a die half out of the crop
    for _ in range(max(1, count // 6)):
        i = int(rng.integers(len(centres)))
        a = rng.uniform(0, 2 * math.pi)
        r = sides[i] * body * rng.uniform(0.6, 0.8)
        out.append(Scene(photo.image, float(centres[i, 0] + r * math.cos(a)), float(centres[i, 1] + r * math.sin(a)), float(sides[i]), NEGATIVE))
    if SIDE_FACE_NEGATIVES and not WHOLE_DIE_BOXES[photo.set_name]:
        # an oblique camera sees a side face (pips and all) below the top face: not the top face
        for _ in range(max(1, count // 4)):
            i = int(rng.integers(len(centres)))
            a = math.radians(90 + rng.uniform(-35, 35))
            r = sides[i] * rng.uniform(0.85, 1.2)
            out.append(Scene(photo.image, float(centres[i, 0] + r * math.cos(a)), float(centres[i, 1] + r * math.sin(a)), float(sides[i]), NEGATIVE))
    if not photo.fully_labelled:
        return out
    # bare surface
    med = float(np.median(sides))
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        s = med * rng.uniform(0.7, 1.4)
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        dist = np.hypot(centres[:, 0] - x, centres[:, 1] - y)
        if np.all(dist > 0.5 * (sides * body + s * CUT)):
            out.append(Scene(photo.image, float(x), float(y), float(s), NEGATIVE))
    return out


def face_batch_source(photos: list[Photo], drawn_pool: list[Scene], rng: np.random.Generator, negatives_per_photo: int = 4, pasted_fraction: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """One epoch of face samples: (N, CROP, CROP, 3) uint8 BGR and (N,) labels, shuffled."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for p in photos:
        whole = WHOLE_DIE_BOXES[p.set_name]
        scale = (1.0, 1.7) if whole else (1.0, 2.3)
        for i, (v, xc, yc, bw, bh) in enumerate(p.boxes):
            side = float(max(bw, bh))
            for _ in range(REAL_REPEATS[p.set_name]):
                xs.append(colour_jitter(augment_cut(p.image, xc, yc, side, rng, scale), rng))
                ys.append(int(v) - 1)
            if whole and rng.random() < pasted_fraction:
                sc = pasted_scene(rng, p, i)
                xs.append(colour_jitter(augment_cut(sc.image, sc.xc, sc.yc, sc.side, rng), rng))
                ys.append(sc.label)
        for sc in real_negatives(rng, p, negatives_per_photo):
            xs.append(colour_jitter(augment_cut(sc.image, sc.xc, sc.yc, sc.side, rng, shift=0.05), rng))
            ys.append(NEGATIVE)
    for sc in drawn_pool:
        img = augment_cut(sc.image, sc.xc, sc.yc, sc.side, rng, shift=0.15 if sc.label != NEGATIVE else 0.05)
        xs.append(colour_jitter(img, rng) if rng.random() < 0.3 else img)
        ys.append(sc.label)
    order = rng.permutation(len(xs))
    return np.stack(xs)[order], np.array(ys, np.int64)[order]


def make_drawn_pool(rng: np.random.Generator, count: int, negative_fraction: float = 0.2) -> list[Scene]:
    return [drawn_scene(rng, negative=bool(rng.random() < negative_fraction)) for _ in range(count)]


def real_val_crops(photos: list[Photo]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Validation crops, cut_square at CUT x the labelled box side, per set (the reader cuts at
    face.CROP_GROW x the finder's side: these numbers stay comparable with earlier runs)."""
    out: dict[str, tuple[list, list]] = defaultdict(lambda: ([], []))
    for p in photos:
        for v, xc, yc, bw, bh in p.boxes:
            out[p.set_name][0].append(drawn.cut_square(p.image, xc, yc, CUT * max(bw, bh)))
            out[p.set_name][1].append(int(v) - 1)
    return {k: (np.stack(a), np.array(b, np.int64)) for k, (a, b) in out.items()}


SYNTHETIC_VALIDATION = (("red", "white"), ("pink", "white"), ("black", "white"), ("blue", "white"), ("white", "black"))


def synthetic_val_crops(seed: int, per_kind: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Drawn dice of colours the shared sets lack, on procedural trays, cut as at run time."""
    rng = np.random.default_rng(seed)
    out = {}
    for body, pip in SYNTHETIC_VALIDATION:
        xs, ys = [], []
        while len(xs) < per_kind:
            looks = [drawn.random_look(rng, body, pip)]
            frame, dice = drawn.compose_tray(rng, 320, 240, count=3, side=(22, 70), looks=looks)
            for d in dice:
                xs.append(drawn.cut_square(frame, d.xc, d.yc, CUT * max(d.w, d.h)))
                ys.append(d.value - 1)
        out[f"{body}/{pip}"] = (np.stack(xs[:per_kind]), np.array(ys[:per_kind], np.int64))
    return out


# ---------------------------------------------------------------------------------------------
# finder frames


def letterbox(img: np.ndarray, size: int = FINDER_SIZE, scale: float | None = None) -> tuple[np.ndarray, float]:
    """The finder's input (the run-time contract, vision.drawn.letterbox)."""
    return drawn.letterbox(img, size, scale=scale)


def heat_target(centres: np.ndarray, sides: np.ndarray, size: int = FINDER_SIZE) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Heat (Gaussian per die, exactly 1 at its centre cell), side/64 map and its mask, each (g, g),
    and the centre's (dx, dy) from its cell's middle in cells, (2, g, g), set at centre cells only."""
    g = size // STRIDE
    heat = np.zeros((g, g), np.float32)
    sz = np.zeros((g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    off = np.zeros((2, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for (x, y), s in zip(centres, sides, strict=True):
        cx, cy = x / STRIDE - 0.5, y / STRIDE - 0.5
        ix, iy = int(round(cx)), int(round(cy))
        if not (0 <= ix < g and 0 <= iy < g):
            continue
        sigma = max(0.6, 0.12 * s / STRIDE)
        gauss = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        heat = np.maximum(heat, gauss)
        heat[iy, ix] = 1.0
        y0, y1, x0, x1 = max(0, iy - 1), min(g, iy + 2), max(0, ix - 1), min(g, ix + 2)
        sz[y0:y1, x0:x1] = s / 64
        mask[y0:y1, x0:x1] = np.maximum(mask[y0:y1, x0:x1], 0.25)
        mask[iy, ix] = 1.0
        off[:, iy, ix] = (cx - ix, cy - iy)
    return heat, sz, mask, off


def finder_sample(img: np.ndarray, centres: np.ndarray, sides: np.ndarray, rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A letterboxed frame and its targets; with rng, a random crop/zoom in or out, quarter turn,
    flip, colours and blur (a camera higher up or out of focus than any photo's)."""
    h, w = img.shape[:2]
    if rng is not None:
        if rng.random() < 0.5:
            z = float(rng.uniform(1.0, 2.0))
            cw, ch = int(w / z), int(h / z)
            x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
            img = img[y0 : y0 + ch, x0 : x0 + cw]
            centres = centres - np.array([x0, y0], np.float32)
            keep = (centres[:, 0] >= 0) & (centres[:, 0] < cw) & (centres[:, 1] >= 0) & (centres[:, 1] < ch)
            centres, sides = centres[keep], sides[keep]
            h, w = ch, cw
        k = int(rng.integers(0, 4))
        for _ in range(k):  # quarter turn clockwise: (x, y) -> (h - 1 - y, x)
            img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
            centres = np.stack([h - 1 - centres[:, 1], centres[:, 0]], 1) if len(centres) else centres
            h, w = w, h
        if rng.random() < 0.5:
            img = img[:, ::-1]
            if len(centres):
                centres = np.stack([w - 1 - centres[:, 0], centres[:, 1]], 1)
        img = np.ascontiguousarray(img)
    # zoomed out: the frame smaller than the input, black beyond it (as a roi is letterboxed)
    zoom_out = rng is not None and rng.random() < 0.25
    canvas, scale = letterbox(img, scale=FINDER_SIZE / max(h, w) * float(rng.uniform(0.5, 1.0)) if zoom_out else None)
    if rng is not None:
        canvas_in = canvas[: round(h * scale), : round(w * scale)]
        if rng.random() < 0.7:
            canvas_in = colour_jitter(canvas_in, rng)
        if rng.random() < 0.25:
            canvas_in = cv2.GaussianBlur(canvas_in, (0, 0), float(rng.uniform(0.4, 1.5)))
        canvas[: canvas_in.shape[0], : canvas_in.shape[1]] = canvas_in
    return (canvas, *heat_target(centres * scale, sides * scale))


@dataclass
class Frame:
    """A frame for the finder: pixels, die centres (px) and sides (px)."""

    image: np.ndarray
    centres: np.ndarray
    sides: np.ndarray


def photo_frame(p: Photo) -> Frame:
    return Frame(p.image, p.boxes[:, 1:3].copy(), p.sides.copy())


def drawn_frame(rng: np.random.Generator, real: list[Photo] | None = None) -> Frame:
    """A procedural tray: drawn dice, or (with real photos given, half the time) real dice pasted on it."""
    w = int(rng.choice([320, 384, 448]))
    h = int(w * float(rng.choice([0.75, 1.0, 0.5625])))
    if real and rng.random() < 0.4:
        return pasted_frame(rng, real, w, h)
    if rng.random() < CROWD_P:  # a crowd: many small dice, most lying against others
        img, dice = drawn.compose_tray(rng, w, h, count=int(rng.integers(10, 31)), side=(10, 40), touching=CROWD_TOUCHING)
    else:
        img, dice = drawn.compose_tray(rng, w, h, count=int(rng.integers(0, 11)), side=(10, 90))
    return Frame(img, np.array([[d.xc, d.yc] for d in dice], np.float32).reshape(-1, 2), np.array([max(d.w, d.h) for d in dice], np.float32))


def pasted_frame(rng: np.random.Generator, real: list[Photo], w: int, h: int) -> Frame:
    """Real whole-die crops (byler-d6, rune55-trays) pasted onto a procedural surface."""
    img = drawn.background(rng, h, w).astype(np.float32)
    centres, sides = [], []
    p = real[int(rng.integers(len(real)))]
    scale = float(rng.uniform(0.6, 2.0))
    for _ in range(int(rng.integers(1, 9))):
        v, xc, yc, bw, bh = p.boxes[int(rng.integers(len(p.boxes)))]
        s = max(bw, bh) * scale
        if 3 * s >= min(w, h):
            continue
        for _ in range(30):
            x, y = rng.uniform(s, w - s), rng.uniform(s, h - s)
            if all(math.hypot(x - a, y - b) > (s + t) / 2 * 1.1 for (a, b), t in zip(centres, sides, strict=True)):
                break
        else:
            continue
        half = int(max(bw, bh) * 0.75)
        crop = cv2.getRectSubPix(p.image, (2 * half + 1, 2 * half + 1), (float(xc), float(yc)))
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR).astype(np.float32)
        m = np.zeros(crop.shape[:2], np.float32)
        c = crop.shape[0] / 2
        cv2.rectangle(m, (int(c - bw * scale / 2), int(c - bh * scale / 2)), (int(c + bw * scale / 2), int(c + bh * scale / 2)), 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), max(0.7, s * 0.06))[..., None]
        x0, y0 = int(x - c), int(y - c)
        x1, y1 = x0 + crop.shape[1], y0 + crop.shape[0]
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            continue
        img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - m) + crop * m
        centres.append((x, y))
        sides.append(s)
    frame = drawn.finish(np.clip(img, 0, 255).astype(np.uint8), rng, 0.6)
    return Frame(frame, np.array(centres, np.float32).reshape(-1, 2), np.array(sides, np.float32))
