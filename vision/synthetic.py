"""Synthetic dice rolls built from real photographs, for the settle stage, tests and the demo.

A Pi camera over a tray is not in the shared photo sets, so we build such frames: real die
crops (cut out of the byler-d6 top-down photos with their boxes.csv, so every crop's value is a
label written by a person) are placed on a tray made from an empty patch of the same photos.
The dice tumble in, come to rest, and stay; a hand may reach in; a die may be hidden under the
tray's rim. Every roll records the frame where the dice came to rest: the truth a settle test
or a latency benchmark needs.

Why byler-d6 and not penlington-wood: its photos look straight down like a camera over a tray
and its boxes hold the whole die; penlington-wood is oblique and its boxes hold only the top face.

Without the photos (a plain clone of the repository, no ../shared beside it) the dice and the tray
floor are drawn instead (vision.drawn, the same drawing the networks are trained on), so the demo
and every test of the settle stage run from the package alone; with the photos present the real
crops are used.
"""

from __future__ import annotations

import configparser
import csv
import functools
import math
import os
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dice import Die, FrameReading, Unreadable
from vision.sources import _Pacer



def find_dice_root(checkout: Path = Path(__file__).resolve().parents[1], env: dict[str, str] | None = None) -> Path:
    """Where the shared photo sets are: BUNCO_DICE_DIR, else ../shared/dice beside the checkout,
    else beside the checkout this one was cloned from (a fresh clone of a local checkout, made
    anywhere, still finds them). The first place is returned when none has them, for the message."""
    env = os.environ if env is None else env
    if env.get("BUNCO_DICE_DIR"):
        return Path(env["BUNCO_DICE_DIR"])
    beside = checkout.parent / "shared" / "dice"
    if beside.is_dir():
        return beside
    origin = _origin_path(checkout)
    if origin is not None and (origin.parent / "shared" / "dice").is_dir():
        return origin.parent / "shared" / "dice"
    return beside


def _origin_path(checkout: Path) -> Path | None:
    """The local folder the checkout was cloned from (remote "origin"), if it was."""
    config = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        config.read(checkout / ".git" / "config", encoding="utf-8")
        url = config.get('remote "origin"', "url", fallback="")
    except configparser.Error:
        return None
    url = url.removeprefix("file://")
    return Path(url).resolve() if url.startswith("/") else None


DICE_ROOT = find_dice_root()


def has_photos(root: str | os.PathLike[str] = DICE_ROOT) -> bool:
    """True when the byler-d6 photos and boxes the real crop bank is cut from are at `root`."""
    return (Path(root) / "byler-d6" / "boxes.csv").is_file()
FRAME_SIZE = (640, 480)  # width, height


# --------------------------------------------------------------------------- the crop bank


@dataclass(frozen=True)
class DieCrop:
    """One real die cut out of a photo: pixels, a soft mask, and its labelled value."""

    value: int
    image: np.ndarray  # BGR, square patch with the die at its centre
    mask: np.ndarray  # float32 0..1, same height/width
    edge_px: float  # the die's edge length in the photo
    angle: float  # degrees, the die's rotation in the photo (minAreaRect)
    source: str  # file name, for debugging
    contrast: float = 0.0  # grey-level gap between pips and body: low for dark dice with red pips
    # a soft shadow is pasted under the die. Not under drawn dice: their masks are exact, where a
    # real crop's is cut a pixel inside the die, and with the shadow too their blobs measured 12-17 %
    # over die_px in `bunco calibrate` (real crops 1-7 %, drawn ones without it 0-9 %)
    shadow: bool = True


def _lab_distance(img: np.ndarray, ref_lab: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    return np.linalg.norm(lab - ref_lab.astype(np.float32), axis=2)


def _cut_die(img: np.ndarray, xc: float, yc: float, bw: float, bh: float) -> tuple | None:
    """Separate one die from the plain surface around it; None when it does not come out clean.

    The surface colour is the median of a ring around the labelled box; the die is the big
    blob that differs from it. Only crops whose blob is a clean square of the expected size
    are kept, so white dice on the white surface (no contrast) simply drop out.
    """
    h, w = img.shape[:2]
    side = max(bw, bh)
    half = int(math.ceil(side * 0.85))
    x0, y0, x1, y1 = int(xc) - half, int(yc) - half, int(xc) + half, int(yc) + half
    if x0 < 0 or y0 < 0 or x1 >= w or y1 >= h:
        return None
    patch = img[y0:y1, x0:x1]
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)
    ring = np.concatenate([lab[:3].reshape(-1, 3), lab[-3:].reshape(-1, 3),
                           lab[:, :3].reshape(-1, 3), lab[:, -3:].reshape(-1, 3)])
    bg = np.median(ring, axis=0)
    if np.median(np.linalg.norm(ring.astype(np.float32) - bg, axis=1)) > 12:
        return None  # busy surroundings: another die, the tray wall
    dist = _lab_distance(patch, bg)
    fg = (dist > 28).astype(np.uint8)
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg)
    if n < 2:
        return None
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero((labels == big).astype(np.uint8))
    hull = cv2.convexHull(pts)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(hull)
    if min(rw, rh) < 0.6 * side or max(rw, rh) > 1.15 * side or max(rw, rh) / min(rw, rh) > 1.2:
        return None
    if cv2.contourArea(hull) < 0.74 * rw * rh:  # a die's rounded corners give about 0.8
        return None
    solid = np.zeros(patch.shape[:2], np.uint8)
    contours, _ = cv2.findContours((labels == big).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(solid, contours, -1, 1, -1)
    if solid.sum() < 0.9 * cv2.contourArea(hull):  # a ragged blob: the die did not come out whole
        return None
    # the mask: the minAreaRect square with rounded corners, feathered by a pixel
    mask = np.zeros(patch.shape[:2], np.uint8)
    box = cv2.boxPoints(((cx, cy), (rw, rh), angle)).astype(np.int32)
    cv2.fillConvexPoly(mask, box, 255, lineType=cv2.LINE_AA)
    # rounded corners: only what differs from the surface, a pixel in from the edge, so no
    # light fringe of the photo's surface comes along (a reader would take it for a pip)
    mask = cv2.bitwise_and(mask, solid * 255)
    mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
    soft = cv2.GaussianBlur(mask, (3, 3), 0).astype(np.float32) / 255.0
    # recentre on the die
    shift = np.float32([[1, 0, half - cx], [0, 1, half - cy]])
    size = (patch.shape[1], patch.shape[0])
    patch_c = cv2.warpAffine(patch, shift, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    soft_c = cv2.warpAffine(soft, shift, size, flags=cv2.INTER_LINEAR)
    return patch_c, soft_c, (rw + rh) / 2.0, angle, _pip_contrast(patch_c, soft_c)


def _pip_contrast(patch: np.ndarray, mask: np.ndarray) -> float:
    """How far the pips stand out from the body in grey: the gap between Otsu's two classes."""
    inner = cv2.erode((mask > 0.9).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)[inner]
    if grey.size < 50:
        return 0.0
    t, _ = cv2.threshold(grey.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    lo, hi = grey[grey <= t], grey[grey > t]
    if lo.size == 0 or hi.size == 0:
        return 0.0
    return float(hi.mean() - lo.mean())


@functools.lru_cache(maxsize=4)
def crop_bank(root: str | os.PathLike[str] = DICE_ROOT, dataset: str = "byler-d6") -> tuple[DieCrop, ...]:
    """All clean single-die crops of a photo set, cached per process (it takes about a second)."""
    folder = Path(root) / dataset
    boxes_csv = folder / "boxes.csv"
    if not boxes_csv.is_file():
        raise FileNotFoundError(f"no {boxes_csv}: the real dice photos are needed for synthetic frames")
    skip: set[str] = set()
    issues = folder / "label_issues.csv"
    if issues.is_file():
        with issues.open(newline="") as f:
            skip = {row["file"] for row in csv.DictReader(f)}
    by_file: dict[str, list[tuple[int, float, float, float, float]]] = {}
    with boxes_csv.open(newline="") as f:
        for row in csv.DictReader(f):
            by_file.setdefault(row["file"], []).append(
                (int(row["value"]), float(row["xc"]), float(row["yc"]), float(row["w"]), float(row["h"])))
    crops: list[DieCrop] = []
    for name in sorted(by_file):
        if name in skip:
            continue
        img = cv2.imread(str(folder / "images" / name))
        if img is None:
            continue
        h, w = img.shape[:2]
        boxes = [(v, xc * w, yc * h, bw * w, bh * h) for v, xc, yc, bw, bh in by_file[name]]
        for i, (v, xc, yc, bw, bh) in enumerate(boxes):
            side = max(bw, bh)
            crowded = any(
                j != i and abs(xc - ox) < 0.85 * side + ow / 2 and abs(yc - oy) < 0.85 * side + oh / 2
                for j, (_, ox, oy, ow, oh) in enumerate(boxes))
            if crowded:
                continue
            cut = _cut_die(img, xc, yc, bw, bh)
            if cut is None:
                continue
            crops.append(DieCrop(v, *cut[:4], name, cut[4]))
    if not {c.value for c in crops} >= {1, 2, 3, 4, 5, 6}:
        raise RuntimeError(f"too few clean die crops in {folder} ({len(crops)})")
    return tuple(crops)


# Drawn dice sets for a camera without the photos: (body, pips) as vision.drawn names them,
# the kinds a Bunco party brings; a SyntheticRolls source draws all its dice in one of them.
DRAWN_LOOKS: tuple[tuple[str, str], ...] = (("white", "black"), ("red", "white"), ("cream", "black"),
                                            ("blue", "white"), ("black", "white"), ("pink", "black"))


@functools.lru_cache(maxsize=8)
def drawn_bank(body: str = "white", pip: str = "black", per_value: int = 3, side: float = 64.0,
               seed: int = 0) -> tuple[DieCrop, ...]:
    """Dice drawn procedurally (vision.drawn), lying flat and square to the frame, as crops like
    crop_bank's: `per_value` of each value, one look (a set's dice look alike).

    Each die is drawn twice, on black and on white, with the same random draws: where the two
    differ the floor shows through, which gives the die's exact coverage (its mask) and its own
    colour, ready to be turned, scaled, blurred and pasted like a real crop.
    """
    from vision.drawn import Pose, draw_die, random_look

    rng = np.random.default_rng(seed)
    look = random_look(rng, body, pip)
    size = int(math.ceil(side * 1.7)) | 1
    crops: list[DieCrop] = []
    for value in range(1, 7):
        for k in range(per_value):
            draw_seed = int(rng.integers(2**32))
            pose = Pose(value, size / 2, size / 2, side)
            on_black = np.zeros((size, size, 3), np.uint8)
            on_white = np.full((size, size, 3), 255, np.uint8)
            draw_die(on_black, look, pose, np.random.default_rng(draw_seed), shadow=0.0)
            draw_die(on_white, look, pose, np.random.default_rng(draw_seed), shadow=0.0)
            seen = 1.0 - (on_white.astype(np.float32) - on_black.astype(np.float32)).mean(axis=2) / 255.0
            mask = np.clip(seen, 0.0, 1.0)
            colour = on_black.astype(np.float32) / np.maximum(mask, 1e-3)[:, :, None]
            image = np.clip(colour, 0, 255).astype(np.uint8)
            crops.append(DieCrop(value, image, mask, float(side), 0.0, f"drawn:{body}/{pip}#{k}",
                                 _pip_contrast(image, mask), shadow=False))
    return tuple(crops)


# --------------------------------------------------------------------------- the tray


@dataclass(frozen=True)
class Tray:
    """A frame-sized picture of an empty tray, and where its floor is."""

    image: np.ndarray  # BGR, frame size
    rim: np.ndarray  # bool mask: the tray's rim, drawn over anything under it
    floor: tuple[int, int, int, int]  # x, y, w, h: the open floor inside the rim


@functools.lru_cache(maxsize=4)
def _floor_texture(root: str | os.PathLike[str] = DICE_ROOT) -> np.ndarray:
    """A patch of the light surface of a byler photo, with its dice painted out."""
    folder = Path(root) / "byler-d6"
    rows: dict[str, list[tuple[float, float, float, float]]] = {}
    with (folder / "boxes.csv").open(newline="") as f:
        for row in csv.DictReader(f):
            rows.setdefault(row["file"], []).append(
                (float(row["xc"]), float(row["yc"]), float(row["w"]), float(row["h"])))
    # the plain-surface photos are the IMG_20191209 ones; take the one with fewest dice
    name = min((n for n in rows if n.startswith("IMG_20191209")), key=lambda n: (len(rows[n]), n))
    img = cv2.imread(str(folder / "images" / name))
    h, w = img.shape[:2]
    hole = np.zeros((h, w), np.uint8)
    for xc, yc, bw, bh in rows[name]:
        cv2.rectangle(hole, (int((xc - bw * 0.8) * w), int((yc - bh * 0.8) * h)),
                      (int((xc + bw * 0.8) * w), int((yc + bh * 0.8) * h)), 255, -1)
    clean = cv2.inpaint(img, hole, 5, cv2.INPAINT_TELEA)
    # below the white bar at the top of those photos
    return clean[int(h * 0.22):int(h * 0.97), int(w * 0.03):int(w * 0.97)].copy()


def _drawn_floor(width: int, height: int) -> np.ndarray:
    """A tray floor without the photos: vision.drawn's felt (dice of any colour stand out on it),
    its uneven light taken out and its grain cut to a third (make_tray adds its own soft vignette; a floor
    much lighter at one end, or as grainy as drawn felt, is one `bunco calibrate` cannot flood-fill
    from its middle to the tray's wall, where the photos' tray floor is)."""
    from vision.drawn import background

    felt = background(np.random.default_rng(1234), height, width, "felt").astype(np.float32)
    light = cv2.GaussianBlur(felt, (0, 0), max(width, height) / 8)
    return np.clip(0.3 * (felt - light) + light.mean(axis=(0, 1)), 0, 255).astype(np.uint8)


def make_tray(size: tuple[int, int] = FRAME_SIZE, *, rim_px: int = 14, margin_px: int | None = None,
              root: str | os.PathLike[str] = DICE_ROOT) -> Tray:
    """A tray floor (the photos' light surface, or drawn felt without them) with a dark rim, on a brown table."""
    w, h = size
    margin = margin_px if margin_px is not None else max(8, int(min(w, h) * 0.06))
    rng = np.random.default_rng(1234)
    # table: brown with a soft wood-like grain
    table = np.empty((h, w, 3), np.float32)
    table[:] = (40, 62, 92)
    grain = cv2.resize(rng.normal(0, 9, (h // 8 + 1, 2)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    table += grain[:, :, None]
    img = np.clip(table, 0, 255).astype(np.uint8)
    ox, oy, ow, oh = margin, margin, w - 2 * margin, h - 2 * margin
    fx, fy, fw, fh = ox + rim_px, oy + rim_px, ow - 2 * rim_px, oh - 2 * rim_px
    img[fy:fy + fh, fx:fx + fw] = cv2.resize(_floor_texture(root), (fw, fh), interpolation=cv2.INTER_AREA) \
        if has_photos(root) else _drawn_floor(fw, fh)
    rim = np.zeros((h, w), bool)
    rim[oy:oy + oh, ox:ox + ow] = True
    rim[fy:fy + fh, fx:fx + fw] = False
    # the rim: dark, lighter towards its top edge so it reads as a wall
    ring = np.zeros((h, w), np.float32)
    for k in range(rim_px):
        cv2.rectangle(ring, (ox + k, oy + k), (ox + ow - 1 - k, oy + oh - 1 - k), 1.0 - k / rim_px * 0.6, 1)
    rim_colour = np.array([38, 36, 40], np.float32)
    wall = rim_colour[None, None, :] * (0.8 + 0.8 * ring[:, :, None])
    img[rim] = np.clip(wall[rim], 0, 255).astype(np.uint8)
    # a soft vignette, as a small lens over a tray gives
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    img = np.clip(img.astype(np.float32) * (1.0 - 0.10 * r2)[:, :, None], 0, 255).astype(np.uint8)
    return Tray(img, rim, (fx, fy, fw, fh))


# --------------------------------------------------------------------------- drawing


def _rotated_patch(crop: DieCrop, angle: float, scale: float, blur: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The crop turned by `angle`, scaled, with motion blur along `blur` (dx, dy in px)."""
    ph, pw = crop.image.shape[:2]
    side = int(math.ceil(max(ph, pw) * scale * 1.05)) | 1
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, scale)
    m[0, 2] += side / 2 - pw / 2
    m[1, 2] += side / 2 - ph / 2
    img = cv2.warpAffine(crop.image, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpAffine(crop.mask, m, (side, side), flags=cv2.INTER_LINEAR)
    length = math.hypot(*blur)
    if length >= 1.5:
        k = int(length) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        ux, uy = blur[0] / length, blur[1] / length
        cv2.line(kernel, (int(round(c - ux * c)), int(round(c - uy * c))),
                 (int(round(c + ux * c)), int(round(c + uy * c))), 1.0, 1)
        kernel /= kernel.sum()
        pad = c
        img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        mask = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        img = cv2.filter2D(img, -1, kernel)
        mask = cv2.filter2D(mask, -1, kernel)
    return img, mask


def _paste(frame: np.ndarray, img: np.ndarray, mask: np.ndarray, cx: float, cy: float, shadow: bool = True) -> None:
    """Alpha-blend a patch centred at (cx, cy), with a soft shadow below and right of it."""
    ph, pw = mask.shape
    x0, y0 = int(round(cx - pw / 2)), int(round(cy - ph / 2))
    fh, fw = frame.shape[:2]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    sx1, sy1 = min(pw, fw - x0), min(ph, fh - y0)
    if sx1 <= sx0 or sy1 <= sy0:
        return
    region = frame[y0 + sy0:y0 + sy1, x0 + sx0:x0 + sx1].astype(np.float32)
    a = mask[sy0:sy1, sx0:sx1, None]
    if shadow:
        sh = cv2.GaussianBlur(mask, (0, 0), 2.5)
        sh = np.roll(np.roll(sh, 3, axis=0), 2, axis=1)[sy0:sy1, sx0:sx1, None]
        region *= 1.0 - 0.35 * sh
    region = region * (1.0 - a) + img[sy0:sy1, sx0:sx1].astype(np.float32) * a
    frame[y0 + sy0:y0 + sy1, x0 + sx0:x0 + sx1] = np.clip(region, 0, 255).astype(np.uint8)


_SKIN = np.array([118, 150, 205], np.float32)  # BGR of a light skin tone under room light


def _draw_hand(frame: np.ndarray, tip: tuple[float, float], width: float) -> None:
    """A hand and forearm coming up from the bottom edge, fingertips at `tip`."""
    h, w = frame.shape[:2]
    tx, ty = tip
    mask = np.zeros((h, w), np.uint8)
    palm_c = (int(tx), int(ty + width * 0.75))
    cv2.ellipse(mask, palm_c, (int(width * 0.5), int(width * 0.6)), 0, 0, 360, 255, -1)
    for i, off in enumerate((-0.36, -0.12, 0.12, 0.36)):
        fx = int(tx + off * width)
        flen = width * (0.55 if i in (1, 2) else 0.45)
        cv2.ellipse(mask, (fx, int(ty + width * 0.2 + (0.55 - flen / width) * width)),
                    (int(width * 0.1), int(flen * 0.5)), 0, 0, 360, 255, -1)
    cv2.ellipse(mask, (int(tx - width * 0.5), int(ty + width * 0.7)), (int(width * 0.12), int(width * 0.35)),
                -35, 0, 360, 255, -1)  # thumb
    cv2.rectangle(mask, (int(tx - width * 0.4), palm_c[1]), (int(tx + width * 0.4), h + 10), 255, -1)
    soft = cv2.GaussianBlur(mask, (0, 0), 1.5).astype(np.float32)[:, :, None] / 255.0
    yy = np.linspace(0.85, 1.1, h, dtype=np.float32)[:, None, None]
    skin = _SKIN[None, None, :] * yy
    frame[:] = np.clip(frame * (1 - soft) + skin * soft, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- the script


@dataclass(frozen=True)
class Roll:
    """Dice thrown into the tray: they tumble for move_s, then lie still for rest_s.

    hidden=k puts k of the dice mostly under the tray's rim, so they cannot be read."""

    values: tuple[int, ...]
    hidden: int = 0
    move_s: float = 0.7
    rest_s: float = 1.2


@dataclass(frozen=True)
class Hand:
    """A hand reaches into the tray, holds still for hold_s, and leaves (taking the dice)."""

    hold_s: float = 0.8
    in_s: float = 0.35
    out_s: float = 0.35
    take_dice: bool = True


@dataclass(frozen=True)
class Empty:
    """The tray lies empty (the dice were picked up between two frames) for s seconds."""

    s: float = 0.5


@dataclass(frozen=True)
class Wait:
    """Nothing happens for s seconds: whatever lies in the tray stays."""

    s: float = 0.5


Step = Roll | Hand | Empty | Wait


@dataclass
class RollTruth:
    """What really happened in one roll: the answer the settle stage must give."""

    values: tuple[int, ...]  # sorted, all dice including hidden ones
    hidden: int
    start_index: int  # first frame of the throw
    rest_index: int  # first frame with every die at its final place
    end_index: int  # last frame of the rest
    fps: float
    centres: tuple[tuple[float, float], ...] = ()
    die_size_px: float = 0.0

    @property
    def rest_time(self) -> float:
        return self.rest_index / self.fps


@dataclass(frozen=True)
class DieInScene:
    value: int  # the face shown (while tumbling, whatever face is up in this frame)
    x: float
    y: float
    angle: float
    hidden: bool  # mostly under the rim
    moving: bool


@dataclass(frozen=True)
class Scene:
    """What the last frame shows: for tests that need a reader that knows the answer."""

    index: int
    dice: tuple[DieInScene, ...] = ()
    hand: tuple[float, float, float] | None = None  # fingertip x, y and hand width


@dataclass
class _DieState:
    crop: DieCrop
    x: float
    y: float
    angle: float
    hidden: bool = False


def random_script(rng: random.Random, n_dice: int = 3, *, hidden_p: float = 0.08,
                  hand_p: float = 0.4) -> Iterator[Step]:
    """An endless, varied party: rolls, sometimes a hidden die, hands and empty trays between."""
    while True:
        values = tuple(rng.randint(1, 6) for _ in range(n_dice))
        hidden = 1 if rng.random() < hidden_p else 0
        yield Roll(values, hidden, move_s=rng.uniform(0.5, 0.9), rest_s=rng.uniform(1.5, 3.0))
        if rng.random() < hand_p:
            yield Hand(hold_s=rng.uniform(0.2, 0.8))
        if rng.random() < 0.5:
            yield Empty(rng.uniform(0.3, 1.0))


class SyntheticRolls:
    """A frame source that plays a script of rolls on a synthetic tray.

    Timestamps are frame index / fps, so tests run faster than real time; pace=True makes
    read() wait (with the injected clock and sleep) until each frame is due, for the demo.
    `truth` grows by one RollTruth as each roll starts being drawn.
    """

    def __init__(self, script: Iterable[Step] | None = None, *, rng: random.Random | None = None,
                 n_dice: int = 3, fps: float = 30.0, size: tuple[int, int] = FRAME_SIZE,
                 noise: float = 2.0, die_px: float = 36.0, min_contrast: float = 60.0, pace: bool = False,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 root: str | os.PathLike[str] = DICE_ROOT) -> None:
        self.rng = rng if rng is not None else random.Random(0)
        self.script: Iterator[Step] = iter(script) if script is not None else random_script(self.rng, n_dice)
        self.fps = float(fps)
        self.size = size
        # dark dice with dark-red pips are the reader's hard cases, measured on the real photos;
        # here they would only blur what a settle test checks, so by default they stay out
        # (and all dice of a set are one size: every crop is scaled to die_px, none blown up much)
        # without the photos, one drawn set of dice in a look of the rng's choosing (vision.drawn)
        bank = crop_bank(str(root)) if has_photos(root) else drawn_bank(*self.rng.choice(DRAWN_LOOKS))
        self.crops = tuple(c for c in bank if c.contrast >= min_contrast and c.edge_px >= die_px / 1.25)
        if not {c.value for c in self.crops} >= {1, 2, 3, 4, 5, 6}:
            raise ValueError(f"no crops for some values at die_px={die_px}, min_contrast={min_contrast}")
        self.by_value: dict[int, list[DieCrop]] = {v: [c for c in self.crops if c.value == v] for v in range(1, 7)}
        self.tray = make_tray(size, root=str(root))
        self.die_size_px = float(die_px)
        self.truth: list[RollTruth] = []
        self.scene = Scene(-1)
        self._scene = Scene(-1)
        self.index = 0
        self._dice: list[_DieState] = []
        self._frames = self._generate()
        nrng = np.random.default_rng(self.rng.randrange(2**32))
        w, h = size
        self._noise = [nrng.normal(0, noise, (h, w, 3)).astype(np.int16) for _ in range(6)] if noise > 0 else []
        self._pacer = _Pacer(self.fps, pace, clock, sleep)  # uses only due(t): the index is ours
        self._closed = False

    # ---- the FrameSource interface (see vision.sources)
    def read(self) -> tuple[float, np.ndarray] | None:
        if self._closed:
            return None
        frame = next(self._frames, None)
        if frame is None:
            return None
        t = self.index / self.fps
        self.scene = Scene(self.index, self._scene.dice, self._scene.hand)
        self.index += 1
        if self._noise:
            frame = cv2.add(frame, self._noise[self.rng.randrange(len(self._noise))], dtype=cv2.CV_8U)
        self._pacer.due(t)
        return t, frame

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        while (item := self.read()) is not None:
            yield item

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> SyntheticRolls:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- drawing
    def _n(self, seconds: float) -> int:
        return max(1, int(round(seconds * self.fps)))

    def _render(self, dice: Sequence[tuple[DieCrop, float, float, float, tuple[float, float]]],
                hand: tuple[float, float, float] | None = None, hidden: Sequence[bool] = (),
                moving: bool = False) -> np.ndarray:
        hidden = list(hidden) or [False] * len(dice)
        self._scene = Scene(-1, tuple(DieInScene(c.value, x, y, a % 360, hid, moving)
                                      for (c, x, y, a, _), hid in zip(dice, hidden)), hand)
        frame = self.tray.image.copy()
        for crop, x, y, angle, blur in dice:
            img, mask = _rotated_patch(crop, angle, self.die_size_px / crop.edge_px, blur)
            _paste(frame, img, mask, x, y, shadow=crop.shadow and math.hypot(*blur) < 6)
        np.copyto(frame, self.tray.image, where=self.tray.rim[:, :, None])
        if hand is not None:
            _draw_hand(frame, (hand[0], hand[1]), hand[2])
        return frame

    def _static(self) -> np.ndarray:
        return self._render([(d.crop, d.x, d.y, d.angle, (0.0, 0.0)) for d in self._dice],
                            hidden=[d.hidden for d in self._dice])

    def _places(self, n: int, hidden: int) -> list[tuple[float, float]]:
        fx, fy, fw, fh = self.tray.floor
        s = self.die_size_px
        places: list[tuple[float, float]] = []
        for k in range(n):
            for _ in range(500):
                if k < hidden:  # mostly under the rim: about a fifth of the die shows
                    side = self.rng.choice("lrtb")
                    if side in "lr":
                        x = fx - s * 0.2 if side == "l" else fx + fw + s * 0.2
                        y = self.rng.uniform(fy + s * 1.5, fy + fh - s * 1.5)
                    else:
                        y = fy - s * 0.2 if side == "t" else fy + fh + s * 0.2
                        x = self.rng.uniform(fx + s * 1.5, fx + fw - s * 1.5)
                else:
                    x = self.rng.uniform(fx + s * 1.2, fx + fw - s * 1.2)
                    y = self.rng.uniform(fy + s * 1.2, fy + fh - s * 1.2)
                if all(math.hypot(x - px, y - py) > s * 2.0 for px, py in places):
                    places.append((x, y))
                    break
            else:
                raise RuntimeError("cannot place the dice: the tray is too small for them")
        return places

    def _generate(self) -> Iterator[np.ndarray]:
        for step in self.script:
            if isinstance(step, Roll):
                yield from self._roll(step)
            elif isinstance(step, Hand):
                yield from self._hand(step)
            elif isinstance(step, (Empty, Wait)):
                if isinstance(step, Empty):
                    self._dice = []
                still = self._static()
                for _ in range(self._n(step.s)):
                    yield still
            else:
                raise TypeError(f"not a script step: {step!r}")

    def _roll(self, roll: Roll) -> Iterator[np.ndarray]:
        n = len(roll.values)
        if not 0 <= roll.hidden <= n:
            raise ValueError(f"hidden={roll.hidden} but only {n} dice")
        fx, fy, fw, fh = self.tray.floor
        ends = self._places(n, roll.hidden)
        order = list(range(n))
        self.rng.shuffle(order)  # which dice are the hidden ones
        hidden_slots = set(order[:roll.hidden])
        # ends[:hidden] are the places under the rim; they go to the hidden dice
        ri, oi = iter(ends[:roll.hidden]), iter(ends[roll.hidden:])
        final_for = {k: next(ri) if k in hidden_slots else next(oi) for k in range(n)}
        crops = [self.rng.choice(self.by_value[v]) for v in roll.values]
        # thrown in from the bottom edge of the tray, spread out
        starts = [(self.rng.uniform(fx + fw * 0.25, fx + fw * 0.75), fy + fh + self.die_size_px * 0.8) for _ in range(n)]
        a0 = [self.rng.uniform(0, 360) for _ in range(n)]
        a1 = [self.rng.uniform(0, 360) for _ in range(n)]
        spins = [self.rng.choice((-1, 1)) * self.rng.uniform(360, 900) for _ in range(n)]
        frames = self._n(roll.move_s)
        start_index = self.index + (1 if self._dice else 0)
        # the truth is known before the first frame of the throw is drawn
        rest_frames = self._n(roll.rest_s)
        rest_index = start_index + frames
        self.truth.append(RollTruth(tuple(sorted(roll.values)), roll.hidden, start_index, rest_index,
                                    rest_index + rest_frames - 1, self.fps,
                                    tuple(final_for[k] for k in range(n)), self.die_size_px))
        if self._dice:  # the last dice were picked up: one empty frame
            self._dice = []
            yield self._static()
        prev = list(starts)
        tumble_every = max(1, int(self.fps / 12))
        shown = [self.rng.choice(self.crops) for _ in range(n)]
        for i in range(frames):
            u = (i + 1) / frames
            ease = 1 - (1 - u) ** 3  # fast in, slowing down
            parts = []
            for k in range(n):
                x = starts[k][0] + (final_for[k][0] - starts[k][0]) * ease
                y = starts[k][1] + (final_for[k][1] - starts[k][1]) * ease
                # a small bounce while it slows down
                wob = (1 - u) * self.die_size_px * 0.15 * math.sin(u * 25 + k)
                x += wob
                angle = a1[k] + spins[k] * (1 - ease)
                if u < 0.7 and i % tumble_every == 0:
                    shown[k] = self.rng.choice(self.crops)
                crop = shown[k] if u < 0.7 else crops[k]
                blur = ((x - prev[k][0]) * 0.5, (y - prev[k][1]) * 0.5)
                prev[k] = (x, y)
                parts.append((crop, x, y, angle, blur))
            yield self._render(parts, hidden=[k in hidden_slots for k in range(n)], moving=True)
        self._dice = [_DieState(crops[k], final_for[k][0], final_for[k][1], a1[k], k in hidden_slots)
                      for k in range(n)]
        # the rest frames: their first one is the frame where every die stopped
        rest = self._static()
        for _ in range(rest_frames):
            yield rest

    def _hand(self, hand: Hand) -> Iterator[np.ndarray]:
        fx, fy, fw, fh = self.tray.floor
        w, h = self.size
        width = self.die_size_px * 3.2
        if self._dice:
            tx = float(np.mean([d.x for d in self._dice]))
            ty = float(np.mean([d.y for d in self._dice])) - width * 0.3
        else:
            tx, ty = fx + fw / 2, fy + fh / 2
        start_y = h + width * 0.2
        n_in, n_out = self._n(hand.in_s), self._n(hand.out_s)
        still = [(d.crop, d.x, d.y, d.angle, (0.0, 0.0)) for d in self._dice]
        hid = [d.hidden for d in self._dice]
        for i in range(n_in):
            u = (i + 1) / n_in
            yield self._render(still, (tx, start_y + (ty - start_y) * u, width), hid)
        held = self._render(still, (tx, ty, width), hid)
        for _ in range(self._n(hand.hold_s)):
            yield held
        if hand.take_dice:
            self._dice, still, hid = [], [], []
        for i in range(n_out):
            u = (i + 1) / n_out
            yield self._render(still, (tx, ty + (start_y - ty) * u, width), hid)


class SceneReader:
    """A reader that reports what a SyntheticRolls source really drew in its last frame.

    It stands in for the dice reader where the subject is the settle logic (its tests, and a
    benchmark of the settle stage alone): it reads a die only where one was drawn, tumbling
    dice show whatever face is up, dice under the rim are unreadable. It does not look for
    hands (the settle detector must) and reads dice under a hand as if it could see them.
    """

    def __init__(self, source: SyntheticRolls) -> None:
        self.source = source
        self.calls = 0

    def __call__(self, frame: np.ndarray) -> FrameReading:
        self.calls += 1
        size = self.source.die_size_px
        dice, unreadable = [], []
        for d in self.source.scene.dice:
            box = ((d.x, d.y), (size, size), d.angle)
            if d.hidden:
                unreadable.append(Unreadable(box, "occluded"))
            else:
                dice.append(Die(d.value, box, 0.9))
        return FrameReading(tuple(dice), tuple(unreadable), size)
