"""Dice drawn from nothing: procedural d6 dice on procedural trays, numpy and OpenCV only.

The shared photo sets hold a few dozen kinds of dice; a party brings any kind (red party-pack
dice with white pips, pink, black, translucent, marbled). A learned reader only reads what it
was shown, so training draws every kind here, and the demo's synthetic camera uses the same
drawing when no photos are present. A die is a cube seen from above: its top face and, when it
is tilted, one or two side faces, each warped into place by a homography, with rounded edges,
shadow, glare, blur, sensor noise and JPEG. Pip layouts are the real d6 layouts, rotated with
the die, so the 2, 3 and 6 turn as they do on a table.

All randomness comes from the `rng: np.random.Generator` a caller passes in.

`cut_square` (the face network's crop) and `letterbox` (the finder network's frame) are the one
way each network's input is made, shared by training and run time so both see the same pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

Colour = tuple[int, int, int]  # BGR

CROP = 32  # the face network's input side: cut_square's output, the crops training cuts

# Body colours (BGR). Named so a validation set can ask for the colours the photos lack.
BODY_COLOURS: dict[str, Colour] = {
    "red": (40, 30, 200),
    "dark-red": (30, 20, 130),
    "pink": (180, 130, 245),
    "cream": (190, 225, 240),
    "white": (240, 240, 240),
    "black": (25, 25, 25),
    "blue": (170, 70, 20),
    "light-blue": (230, 180, 110),
    "green": (60, 150, 30),
    "dark-green": (40, 80, 20),
    "yellow": (30, 210, 240),
    "orange": (20, 120, 245),
    "purple": (130, 40, 110),
    "grey": (120, 120, 120),
    "teal": (140, 140, 20),
}
PIP_COLOURS: dict[str, Colour] = {
    "white": (245, 245, 245),
    "black": (20, 20, 20),
    "gold": (40, 170, 215),
    "red": (30, 30, 190),
    "blue": (160, 60, 20),
}
BACKGROUNDS = ("felt", "wood", "cardboard", "paper", "black-box")

# Pip centres of each face in units of the pip spread (x right, y down), the standard d6 layout.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

_TEX = 96  # face texture side in pixels


@dataclass(frozen=True)
class DieLook:
    """How one die looks: body (and a second body colour for marbled or smoky dice), pips, shape."""

    body: Colour
    pip: Colour
    body2: Colour | None = None  # marbled/smoky second colour
    marble: float = 0.0  # 0 solid .. 1 strongly veined
    opacity: float = 1.0  # < 1: translucent, the background shows through the body
    corner: float = 0.18  # corner radius as a fraction of the side
    pip_size: float = 0.10  # pip radius as a fraction of the side
    pip_spread: float = 0.25  # pip offset from the centre as a fraction of the side
    big_one: bool = False  # the 1's pip drawn large (and often red), as on many dice


@dataclass(frozen=True)
class Pose:
    """Where a die lies: centre (px), side (px), rotation about the vertical, tilt and its direction."""

    value: int
    xc: float
    yc: float
    side: float
    yaw: float = 0.0  # degrees
    tilt: float = 0.0  # degrees off flat; up to ~30 a side face shows, ~45 it is cocked
    tilt_dir: float = 0.0  # degrees, direction the die leans
    perspective: float = 0.0  # 0 orthographic .. ~0.3 strong


@dataclass(frozen=True)
class DrawnDie:
    """The truth about a drawn die: the top face's value and its axis-aligned box in pixels."""

    value: int
    xc: float
    yc: float
    w: float
    h: float


def cut_square(frame: np.ndarray, xc: float, yc: float, side: float) -> np.ndarray:
    """The face network's input: the square of `side` px centred on (xc, yc), edge-replicated
    where it leaves the frame, resized with INTER_AREA to CROP x CROP BGR uint8."""
    h, w = frame.shape[:2]
    s = max(1, int(round(side)))
    x0 = min(max(int(round(xc - s / 2)), -s + 1), w - 1)
    y0 = min(max(int(round(yc - s / 2)), -s + 1), h - 1)
    crop = frame[max(0, y0) : min(h, y0 + s), max(0, x0) : min(w, x0 + s)]
    pads = (max(0, -y0), max(0, y0 + s - h), max(0, -x0), max(0, x0 + s - w))
    if any(pads):
        crop = cv2.copyMakeBorder(crop, *pads, cv2.BORDER_REPLICATE)
    return cv2.resize(crop, (CROP, CROP), interpolation=cv2.INTER_AREA)


ALIGN = 16  # the finder's coarsest stride: a trimmed input's sides are multiples of it


def letterbox(frame: np.ndarray, size: int = 256, trim: bool = False,
              scale: float | None = None) -> tuple[np.ndarray, float]:
    """The finder network's input picture: `frame` area-averaged down so its longer side is `size`,
    pasted top-left on a size x size canvas of zeros. Returns it and the scale (frame px -> input px).

    trim (run time): leave out the black rows or columns past the picture (rounded up to ALIGN):
    the net is fully convolutional, so a 640x480 frame runs as 256x192, a quarter less work.
    scale: scale by this instead (at most size / the longer side): a part of a frame scaled as
    the whole frame would be, so its dice have the size the finder sees in whole frames.
    """
    h, w = frame.shape[:2]
    scale = size / max(h, w) if scale is None else min(scale, size / max(h, w))
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    if trim:
        sw, sh = min(size, -(-nw // ALIGN) * ALIGN), min(size, -(-nh // ALIGN) * ALIGN)
    else:
        sw = sh = size
    canvas = np.zeros((sh, sw, 3), np.uint8)
    if w >= 2 * nw and h >= 2 * nh:
        # INTER_AREA at a non-integer factor (640 -> 256: 2.5) takes OpenCV's slow general path,
        # 1.0 ms of a 3.3 ms find; linear to twice the size, then area's fast 2x2 means, is 0.4 ms
        # and within 0.16 grey levels of it on average (the same dice read, see the finder card)
        frame = cv2.resize(frame, (2 * nw, 2 * nh), interpolation=cv2.INTER_LINEAR)
    canvas[:nh, :nw] = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA)
    return canvas, scale


# ---------------------------------------------------------------------------------------------
# looks


def _jitter(rng: np.random.Generator, colour: Colour, amount: float) -> Colour:
    c = np.array(colour, np.float32) + rng.normal(0, amount, 3)
    return tuple(int(v) for v in np.clip(c, 0, 255))  # type: ignore[return-value]


def _contrasting_pip(rng: np.random.Generator, body: Colour) -> str:
    light = float(np.mean(body)) > 120
    if light:
        return str(rng.choice(["black", "black", "black", "red", "blue", "gold"] if np.mean(body) > 170 else ["black", "white", "gold"]))
    return str(rng.choice(["white", "white", "white", "gold", "black", "red"] if np.mean(body) > 60 else ["white", "white", "gold", "red"]))


def _luma(c: Colour) -> float:
    return 0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2]


# Pips stand out from the body by lightness or by colour. Red pips on a black or a blue body are
# hardly lighter than it (luma 52 and 11 apart) but plainly red (CIE Lab distance 80 and 107): such
# dice are common (smoky, marbled and blue dice with red pips) and were never drawn while luma alone
# decided
PIP_LUMA = 70.0
PIP_DELTA_E = 75.0


def _delta_e(a: Colour, b: Colour) -> float:
    """CIE76 colour distance (L* 0-100) of two BGR colours."""
    lab = cv2.cvtColor(np.uint8([[a, b]]), cv2.COLOR_BGR2LAB).astype(np.float32) * (100 / 255, 1, 1)
    return float(np.linalg.norm(lab[0, 0] - lab[0, 1]))


def _stands_out(pip: Colour, body: Colour) -> bool:
    return abs(_luma(pip) - _luma(body)) > PIP_LUMA or _delta_e(pip, body) > PIP_DELTA_E


def random_look(rng: np.random.Generator, body: str | Colour | None = None, pip: str | None = None) -> DieLook:
    """A plausible die: the body colour (a name or BGR) and pip colour when given, else any; pips
    stand out from the body by lightness or colour (a die whose pips cannot be seen is no die
    anyone buys)."""
    if body is None:
        if rng.random() < 0.2:
            body_c = tuple(int(v) for v in rng.integers(0, 256, 3))
        else:
            body_c = BODY_COLOURS[str(rng.choice(list(BODY_COLOURS)))]
    else:
        body_c = BODY_COLOURS[body] if isinstance(body, str) else body
    body_c = _jitter(rng, body_c, 12)
    name = pip
    for _ in range(10):
        name = pip if pip is not None else _contrasting_pip(rng, body_c)
        if pip is not None or _stands_out(PIP_COLOURS[name], body_c):
            break
    else:
        name = "white" if _luma(body_c) < 128 else "black"
    pip_c = PIP_COLOURS[name]
    pip_c = _jitter(rng, pip_c, 8)
    body2 = None
    marble = 0.0
    if body is None and rng.random() < 0.2:
        body2 = _jitter(rng, BODY_COLOURS[str(rng.choice(list(BODY_COLOURS)))], 20)
        marble = float(rng.uniform(0.3, 1.0))
    opacity = 1.0 if (body is not None or rng.random() < 0.8) else float(rng.uniform(0.55, 0.85))
    return DieLook(
        body=body_c,
        pip=pip_c,
        body2=body2,
        marble=marble,
        opacity=opacity,
        corner=float(rng.uniform(0.06, 0.3)),
        pip_size=float(rng.uniform(0.075, 0.115)),
        pip_spread=float(rng.uniform(0.22, 0.29)),
        big_one=bool(rng.random() < 0.25),
    )


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Low-frequency noise in 0..1 (random grid upsampled), for marbling, grain and lighting."""
    grid = rng.random((cells + 1, cells + 1)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _face_texture(rng: np.random.Generator, look: DieLook, value: int) -> tuple[np.ndarray, np.ndarray]:
    """A face as a _TEX square: colour (float32 BGR) and coverage mask (rounded, feathered)."""
    t = _TEX
    body = np.empty((t, t, 3), np.float32)
    body[:] = look.body
    if look.body2 is not None and look.marble > 0:
        n = _smooth_noise(rng, t, t, int(rng.integers(2, 5)))
        veins = (0.5 + 0.5 * np.sin(n * rng.uniform(6, 18))) ** (1 + 2 * (1 - look.marble))
        body = body * (1 - veins[..., None]) + np.array(look.body2, np.float32) * veins[..., None]
    body += rng.normal(0, 3, (t, t, 1)).astype(np.float32)
    # pips, drawn at 4x subpixel precision
    scale = 16
    spread = look.pip_spread * t
    r = look.pip_size * t
    pip = np.array(look.pip, np.float32)
    pip_mask = np.zeros((t, t), np.float32)
    for px, py in PIP_LAYOUTS[value]:
        rr = r * (1.6 if (value == 1 and look.big_one) else 1.0)
        cx, cy = t / 2 + px * spread, t / 2 + py * spread
        cv2.circle(pip_mask, (int(cx * scale), int(cy * scale)), int(rr * scale), 1.0, -1, cv2.LINE_AA, shift=4)
    pip_colour = np.array((40, 40, 200), np.float32) if (value == 1 and look.big_one and rng.random() < 0.5) else pip
    # a darker rim inside each pip: pips are holes, painted
    rim = cv2.GaussianBlur(pip_mask, (0, 0), r * 0.25) * 0.3
    colour = body * (1 - pip_mask[..., None]) + pip_colour * pip_mask[..., None]
    colour *= 1 - (pip_mask - rim).clip(0, 0.3)[..., None] * 0.3
    # rounded square coverage, feathered: the rounded edge of the die
    mask = np.zeros((t, t), np.float32)
    rad = max(1.0, look.corner * t)
    inset = 1.5
    cv2.rectangle(mask, (int((inset + rad) * scale), int(inset * scale)), (int((t - inset - rad) * scale), int((t - inset) * scale)), 1.0, -1, cv2.LINE_AA, shift=4)
    cv2.rectangle(mask, (int(inset * scale), int((inset + rad) * scale)), (int((t - inset) * scale), int((t - inset - rad) * scale)), 1.0, -1, cv2.LINE_AA, shift=4)
    for cx in (inset + rad, t - inset - rad):
        for cy in (inset + rad, t - inset - rad):
            cv2.circle(mask, (int(cx * scale), int(cy * scale)), int(rad * scale), 1.0, -1, cv2.LINE_AA, shift=4)
    # the face darkens toward its rounded edge
    edge = cv2.GaussianBlur(mask, (0, 0), rad * 0.5 + 1)
    colour *= (0.75 + 0.25 * edge)[..., None]
    return colour, mask


def _rotation(pose: Pose) -> np.ndarray:
    """3-D rotation: tilt about a horizontal axis, then yaw about the vertical."""
    a = math.radians(pose.tilt_dir)
    axis = np.array([math.cos(a), math.sin(a), 0.0])
    t = math.radians(pose.tilt)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tilt = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)
    y = math.radians(pose.yaw)
    yaw = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    return yaw @ tilt


# cube faces: normal, in-face x axis, in-face y axis (a right-handed cube, +z toward the camera)
_FACES = (
    (np.array([0, 0, 1.0]), np.array([1, 0, 0.0]), np.array([0, 1, 0.0])),
    (np.array([1, 0, 0.0]), np.array([0, 1, 0.0]), np.array([0, 0, -1.0])),
    (np.array([-1, 0, 0.0]), np.array([0, -1, 0.0]), np.array([0, 0, -1.0])),
    (np.array([0, 1, 0.0]), np.array([-1, 0, 0.0]), np.array([0, 0, -1.0])),
    (np.array([0, -1, 0.0]), np.array([1, 0, 0.0]), np.array([0, 0, -1.0])),
)


def _side_values(rng: np.random.Generator, top: int) -> list[int]:
    """Values of the four side faces: the four that are neither the top nor its opposite (7 - top)."""
    sides = [v for v in range(1, 7) if v not in (top, 7 - top)]
    a, b = sides[0], 7 - sides[0]
    c = next(v for v in sides if v not in (a, b))
    order = [a, b, c, 7 - c]  # +x, -x, +y, -y: opposite faces sum to 7
    if rng.random() < 0.5:
        order = [b, a, 7 - c, c]
    return order


def draw_die(frame: np.ndarray, look: DieLook, pose: Pose, rng: np.random.Generator, shadow: float = 0.4, glare: float = 0.0) -> DrawnDie:
    """Draw one die into `frame` (BGR uint8, in place) and return its value and box.

    The box is the axis-aligned box of the die's whole outline (like byler-d6 and rune55 boxes).
    """
    rot = _rotation(pose)
    s = pose.side
    values = [pose.value, *_side_values(rng, pose.value)]
    faces = []
    for (normal, ax, ay), value in zip(_FACES, values, strict=True):
        n = rot @ normal
        if n[2] <= 0.03:
            continue
        corners3 = [rot @ (normal * 0.5 + ax * sx * 0.5 + ay * sy * 0.5) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        pts = []
        for c in corners3:
            k = 1.0 / (1.0 - pose.perspective * c[2] * 0.5)
            pts.append((pose.xc + c[0] * s * k, pose.yc + c[1] * s * k))
        faces.append((n[2], value, np.array(pts, np.float32)))
    faces.sort(key=lambda f: f[0])
    allpts = np.concatenate([f[2] for f in faces])
    x0 = int(math.floor(allpts[:, 0].min())) - 2
    y0 = int(math.floor(allpts[:, 1].min())) - 2
    x1 = int(math.ceil(allpts[:, 0].max())) + 3
    y1 = int(math.ceil(allpts[:, 1].max())) + 3
    H, W = frame.shape[:2]
    margin = int(0.35 * s) + 3
    sx0, sy0 = max(0, x0 - margin), max(0, y0 - margin)
    sx1, sy1 = min(W, x1 + margin), min(H, y1 + margin)
    if sx1 <= sx0 or sy1 <= sy0:
        return _box(pose.value, allpts)
    patch = frame[sy0:sy1, sx0:sx1].astype(np.float32)
    ph, pw = patch.shape[:2]
    off = np.array([sx0, sy0], np.float32)
    # silhouette: convex hull of the visible faces with rounded corners (inset hull + a thick round-joined outline)
    hull = cv2.convexHull(allpts - off).reshape(-1, 2)
    rad = max(0.5, look.corner * s * 0.5)
    centre = hull.mean(0)
    towards = centre - hull
    dist = np.linalg.norm(towards, axis=1, keepdims=True) + 1e-6
    inset = hull + towards / dist * np.minimum(rad * 1.41, dist * 0.9)
    pts16 = np.round(inset * 16).astype(np.int32)
    sil8 = np.zeros((ph, pw), np.uint8)
    cv2.fillConvexPoly(sil8, pts16, 255, cv2.LINE_AA, shift=4)
    cv2.polylines(sil8, [pts16], True, 255, max(1, int(round(2 * rad))), cv2.LINE_AA, shift=4)
    sil = sil8.astype(np.float32) / 255
    if shadow > 0:
        d = s * rng.uniform(0.03, 0.15)
        a = rng.uniform(0, 2 * math.pi)
        m = np.float32([[1, 0, d * math.cos(a)], [0, 1, d * math.sin(a)]])
        sh = cv2.warpAffine(sil, m, (pw, ph))
        sh = cv2.GaussianBlur(sh, (0, 0), max(0.5, s * rng.uniform(0.03, 0.12)))
        patch *= (1 - shadow * sh)[..., None]
    background = patch.copy()
    edge_colour = np.array(look.body, np.float32) * 0.6
    alpha = look.opacity
    patch = patch * (1 - alpha * sil[..., None]) + edge_colour * alpha * sil[..., None]
    light = rng.uniform(0.85, 1.1)
    for nz, value, pts in faces:
        tex, mask = _face_texture(rng, look, value)
        src = np.float32([[0, 0], [_TEX, 0], [_TEX, _TEX], [0, _TEX]])
        hmat = cv2.getPerspectiveTransform(src, pts - off)
        wt = cv2.warpPerspective(tex, hmat, (pw, ph), flags=cv2.INTER_LINEAR)
        wm = cv2.warpPerspective(mask, hmat, (pw, ph), flags=cv2.INTER_LINEAR) * sil
        shade = light * (0.35 + 0.65 * nz)
        # a translucent face (pips and all) lets the background through
        wa = wm[..., None] * alpha
        patch = patch * (1 - wa) + (wt * shade) * wa
        if alpha < 1:
            patch += (background * (1 - alpha) * 0.5 * wm[..., None]) * 0.3
    if glare > 0:
        top = faces[-1][2] - off
        g = top.mean(0) + (top[0] - top.mean(0)) * rng.uniform(0, 0.7) + (top[1] - top.mean(0)) * rng.uniform(-0.5, 0.5)
        yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
        sigma = s * rng.uniform(0.05, 0.2)
        spot = np.exp(-((xx - g[0]) ** 2 + (yy - g[1]) ** 2) / (2 * sigma * sigma)) * sil
        patch += (glare * 255 * spot)[..., None]
    frame[sy0:sy1, sx0:sx1] = np.clip(patch, 0, 255).astype(np.uint8)
    return _box(pose.value, allpts)


def _box(value: int, pts: np.ndarray) -> DrawnDie:
    x0, y0 = pts.min(0)
    x1, y1 = pts.max(0)
    return DrawnDie(value, float((x0 + x1) / 2), float((y0 + y1) / 2), float(x1 - x0), float(y1 - y0))


# ---------------------------------------------------------------------------------------------
# backgrounds and the camera


def background(rng: np.random.Generator, height: int, width: int, kind: str | None = None) -> np.ndarray:
    """A surface to roll on: felt of any colour, wood grain, cardboard, paper, or a black felt box."""
    kind = kind or str(rng.choice(BACKGROUNDS))
    h, w = height, width
    if kind == "felt":
        base = np.array(rng.integers(10, 200, 3), np.float32)
        if rng.random() < 0.4:
            base = np.array([[60, 110, 30], [100, 60, 20], [30, 30, 120], [90, 40, 90], [40, 40, 40]][rng.integers(5)], np.float32)
        img = base + rng.normal(0, rng.uniform(4, 12), (h, w, 1)).astype(np.float32)
        img = cv2.GaussianBlur(img, (0, 0), 0.8)
    elif kind == "wood":
        base = np.array([rng.uniform(40, 120), rng.uniform(80, 150), rng.uniform(120, 210)], np.float32)
        warp = _smooth_noise(rng, h, w, 4) * rng.uniform(20, 60)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, math.pi)
        coord = xx * math.cos(a) + yy * math.sin(a) + warp
        grain = 0.5 + 0.5 * np.sin(coord * rng.uniform(0.15, 0.5))
        fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5)
        img = base * (0.75 + 0.2 * grain + 0.05 * fine)[..., None]
    elif kind == "cardboard":
        base = np.array([rng.uniform(90, 130), rng.uniform(140, 180), rng.uniform(175, 215)], np.float32)
        fibre = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
        img = base * (1 + 0.04 * fibre)[..., None] + rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    elif kind == "paper":
        base = np.array(rng.uniform(200, 250, 3), np.float32)
        img = base + rng.normal(0, 2.5, (h, w, 1)).astype(np.float32)
    else:  # black felt box: dark felt with a lighter wall round the edge
        v = rng.uniform(15, 45)
        img = np.full((h, w, 3), v, np.float32) + rng.normal(0, 5, (h, w, 1)).astype(np.float32)
        wall = int(min(h, w) * rng.uniform(0.04, 0.12))
        wall_c = np.array(rng.uniform(30, 90, 3), np.float32)
        m = np.ones((h, w), np.float32)
        m[wall : h - wall, wall : w - wall] = 0
        m = cv2.GaussianBlur(m, (0, 0), 2)
        img = img * (1 - m[..., None]) + wall_c * m[..., None]
    light = 0.75 + 0.4 * _smooth_noise(rng, h, w, 2)
    return np.clip(img * light[..., None], 0, 255).astype(np.uint8)


def motion_blur(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    """A die still sliding, or a shaken camera: img smeared along a line `length` px long at
    `angle` degrees."""
    k = max(1, int(length))
    kernel = np.zeros((k, k), np.float32)
    kernel[k // 2, :] = 1 / k
    rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle, 1)
    kernel = cv2.warpAffine(kernel, rot, (k, k))
    return cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))


def finish(frame: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """The camera: white balance and exposure, blur (focus or motion), sensor noise, JPEG."""
    img = frame.astype(np.float32)
    img = img * rng.uniform(1 - 0.15 * strength, 1 + 0.15 * strength, 3) + rng.uniform(-20, 20) * strength
    if rng.random() < 0.6 * strength:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.4))
    elif rng.random() < 0.3 * strength:
        k = int(rng.integers(3, 7))
        img = motion_blur(img, k, float(rng.uniform(0, 180)))
    img += rng.normal(0, rng.uniform(0, 8) * strength, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7 * strength:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def random_pose(rng: np.random.Generator, value: int, xc: float, yc: float, side: float, max_tilt: float = 30.0) -> Pose:
    """A die at rest: any rotation, mostly flat, sometimes leaning on something (up to max_tilt)."""
    tilt = 0.0 if rng.random() < 0.4 else float(rng.uniform(0, max_tilt))
    return Pose(value, xc, yc, side, float(rng.uniform(0, 360)), tilt, float(rng.uniform(0, 360)), float(rng.uniform(0, 0.25)))


Footprint = tuple[tuple[float, float], tuple[float, float], float]  # cv2.RotatedRect: centre, size, degrees


def _footprint(pose: Pose) -> Footprint:
    """The square a die covers on the table as seen from above: its top face, enlarged as
    perspective enlarges it (a tilted die's side faces may lean over a neighbour, as real ones do)."""
    side = pose.side / (1.0 - pose.perspective * 0.25)
    return ((pose.xc, pose.yc), (side, side), pose.yaw)


def _overlaps(a: Footprint, b: Footprint) -> bool:
    return cv2.rotatedRectangleIntersection(a, b)[0] != cv2.INTERSECT_NONE


def _against(rng: np.random.Generator, placed: list[Pose], side: float, width: int, height: int) -> Pose | None:
    """A pose for a die of `side` lying against one of the `placed` dice (0-6 % of a side apart),
    overlapping none and inside the frame; half the time turned like its neighbour, as dice pushed
    together square up. Lying in a cluster, it is tilted at most 10 degrees. None when 20 tries
    find no room."""
    footprints = [_footprint(p) for p in placed]
    for _ in range(20):
        anchor = footprints[int(rng.integers(len(footprints)))]
        (ax, ay), (aside, _), ayaw = anchor
        pose = random_pose(rng, int(rng.integers(1, 7)), ax, ay, side)
        pose = replace(pose, yaw=ayaw + float(rng.uniform(-8, 8)) if rng.random() < 0.5 else pose.yaw, tilt=min(pose.tilt, 10.0))
        a = float(rng.uniform(0, 2 * math.pi))
        ux, uy = math.cos(a), math.sin(a)
        near, far = 0.0, (side + aside) * 0.75  # far: beyond the two squares' circumscribed radii
        for _ in range(12):  # the nearest distance along (ux, uy) at which the two squares part
            mid = (near + far) / 2
            if _overlaps(_footprint(replace(pose, xc=ax + mid * ux, yc=ay + mid * uy)), anchor):
                near = mid
            else:
                far = mid
        d = far + side * float(rng.uniform(0.0, 0.06))
        x, y = ax + d * ux, ay + d * uy
        pose = replace(pose, xc=x, yc=y)
        if 0.6 * side < x < width - 0.6 * side and 0.6 * side < y < height - 0.6 * side and not any(_overlaps(_footprint(pose), f) for f in footprints):
            return pose
    return None


def compose_tray(
    rng: np.random.Generator,
    width: int = 640,
    height: int = 480,
    count: int | None = None,
    side: tuple[float, float] = (20.0, 120.0),
    looks: list[DieLook] | None = None,
    kind: str | None = None,
    camera: bool = True,
    touching: float = 0.0,
    camouflage: float = 0.0,
) -> tuple[np.ndarray, list[DrawnDie]]:
    """A whole tray frame with `count` dice (1-8 when None), none overlapping.

    `touching` is the chance that a die (after the first) lies against an earlier one, as dice
    do that roll into a tray's corner or a tower's cup: the finder must split such a cluster into
    its dice. `camouflage` is the chance that the dice (when `looks` is not given) share a body
    of the surface's own colour, as black dice in a black felt box or white dice on white paper: a
    die is then told by its edges, shading and pips, not its colour.

    Returns the frame (BGR uint8) and each die's value and box in pixels. One die size for the
    frame (dice of one set), varied 15 % die to die as perspective and sets do.
    """
    count = int(rng.integers(1, 9)) if count is None else count
    frame = background(rng, height, width, kind)
    base = float(rng.uniform(*side))
    base = min(base, 0.9 * min(width, height) / max(1.0, math.sqrt(count) * 1.6))
    shared_look = random_look(rng) if rng.random() < 0.5 else None
    if camouflage > 0 and not looks and rng.random() < camouflage:
        shared_look = random_look(rng, tuple(int(v) for v in np.median(frame.reshape(-1, 3), axis=0)))
    placed: list[Pose] = []
    dice: list[DrawnDie] = []
    for i in range(count):
        s = base * float(rng.uniform(0.88, 1.12))
        pose = None
        if touching > 0 and placed and rng.random() < touching:
            pose = _against(rng, placed, s, width, height)
        if pose is None:
            for _ in range(60):
                x = float(rng.uniform(0.6 * s, width - 0.6 * s))
                y = float(rng.uniform(0.6 * s, height - 0.6 * s))
                if all(math.hypot(x - p.xc, y - p.yc) >= (s + p.side) / 2 * float(rng.uniform(1.05, 1.5)) for p in placed):
                    break
            else:
                continue
        look = looks[i % len(looks)] if looks else (shared_look or random_look(rng))
        if pose is None:
            pose = random_pose(rng, int(rng.integers(1, 7)), x, y, s)
        placed.append(pose)
        dice.append(draw_die(frame, look, pose, rng, shadow=float(rng.uniform(0.1, 0.6)), glare=float(rng.uniform(0, 0.5)) if rng.random() < 0.4 else 0.0))
    if camera:
        frame = finish(frame, rng)
    return frame, dice


def contact_sheet(rng: np.random.Generator, columns: int = 8, rows: int = 6, cell: int = 96) -> np.ndarray:
    """A grid of single drawn dice (value written under each), to look at the drawing by eye."""
    sheet = np.zeros((rows * (cell + 14), columns * cell, 3), np.uint8)
    for i in range(rows * columns):
        r, c = divmod(i, columns)
        tile = background(rng, cell, cell)
        value = i % 6 + 1
        pose = random_pose(rng, value, cell / 2, cell / 2, float(rng.uniform(25, 60)))
        draw_die(tile, random_look(rng), pose, rng, shadow=0.4, glare=0.3 if rng.random() < 0.3 else 0.0)
        tile = finish(tile, rng, 0.5)
        sheet[r * (cell + 14) : r * (cell + 14) + cell, c * cell : (c + 1) * cell] = tile
        cv2.putText(sheet, str(value), (c * cell + cell // 2 - 4, r * (cell + 14) + cell + 11), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
    return sheet
