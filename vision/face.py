"""Read the top face of one die: first its pips as spots (vision.spots), else as holes.

Two readers that fail differently: the spot reader wants round pips that stand out from
the body around them (it copes with marbled, glossy and small dice); the hole reader
wants a clean body plane (it copes with soft or merged pips on a plain face). The spot
reader answers first; when it is unsure, the hole reader below has its turn. When the
spot reader is only half sure and the hole reader reads another value, the die is left
unread: a re-roll costs less than a wrong score. A half sure 1 needs the hole reader's 1.

The hole reader: a die's crop is reduced to one grey channel, the direction in colour space along which
its pixels vary most (body vs pips, whatever their colours). Then, for both polarities
(dark pips on a light body and the reverse) and for two levels (all of the body, or only
its brightest plane, the top face of an obliquely seen die), the body plane is the largest
region above the level and the pips are the round holes inside its hull. The candidate
whose holes form a 1-6 layout best wins; none fits -> the die is unreadable.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.layout import centroid, layout_error, layout_tilt
from vision.spots import SpotsSeen, read_spots_seen

CROP = 40  # the die crop, pixels a side
MARGIN = 1.12  # crop side / die blob side
MIN_FACE = 0.22  # the face plane's hull must cover this fraction of the crop
PIP_AT = 0.15  # a missing pip's place: at most this fraction of it on the body plane
MAX_TILT = 25.0  # degrees the holes' layout may be turned from the face plane's edges
SURE_SPOTS = 0.45  # a spot read less sure than this must not be contradicted by the hole reader
SEEN_NOT_2 = 5  # a hole reader's 2 on a face where the spot maps see this many even, strong spots is not read
SEEN_NOT_2_VETO = True  # ... nor does it veto a half sure spot read of 3-6 there (the same 2 of holes left of the
# pips that ran together or into the marbling): byler-d6's dark dice with red pips, 111932's blue 5 on four grids,
# 100155's 6, 111919's 4, 112332's smoke 3. score.py byler-d6, four grids: MEAN4 0.8155 -> 0.8192, wrong 81 -> 81,
# 8 dice read, 1 lost (112332's 2 on shift3). False: for tests
SECOND_AXIS_DOUBT = (2, 3)  # counts the hole reader does not take from the second colour axis alone
SEEN_NOT_1 = 4  # ... nor a 1 there on a face whose spot maps see this many even, strong spots (up to 6, a face's
# most; more are marbling): a 6's column run into one bar on a dark translucent body, a 5's centre pip run into the
# marbling. Cached final reads, byler-d6 over four grids: such 1s were 15 wrong and 1 right (of 11 second-axis 1s right)
NOT_1_VETO = (6,)  # ... nor does a hole reader's 1 veto a half sure spot read of these counts there (SEEN_NOT_1 to 6
# even, strong spots): a glint or one pip standing out of a blurred dark die's red pips, where the spot maps read a 6 of
# two bars (byler-d6 111919's smoke 6 on none, shift3, dark0.6; 111803's on blur1). With 5s, blur1 111228's 3 read 5
# (4 right 5s on the cached crops); from 3 up, a partial crop's 2 read 4. () for tests
TWO_SEEN = 4  # a sure spot read of 1 or 2 (TWO_SEEN_READS) on a face whose spot maps see this many even, strong spots
TWO_SEEN_READS = (1, 2)  # (as SEEN_NOT_1; 3 read the same dice) is checked by the hole reader, and its count is read
TWO_SEEN_HOLES = (4, 5, 6)  # instead when it is one of these: one or two pips of a bigger face stood out of a glossy or
# marbled body, and the holes show them all (byler-d6 095426's 6 read 2 on shift1, shift3, turn1 and scale0.8, 111642's
# 5 and 100514's 4 read 1 on jpeg40 and noise8). score.py, both sets: none, shift1, shift3, turn1 MEAN4 0.8912 -> 0.8923,
# wrong 86 -> 83; eight more changes (dark0.6 ... noise8) 4 dice more, 3 of them wrong reads made right, one unread on
# the even half (112911's 4, jpeg40); no die lost anywhere. A hole reader's 3 is no help: 2s with a glint between their
# pips read 3 (112300's on warm, two_36's on scale0.8), and 112905's 1 on shift3. () for tests
HOLES_SEEN = 1  # a face the spot reader did not read has the hole reader's turn (and the outline band's) only when
# its spot maps saw this many pip-like spots (SpotsSeen.seen): a face with none is a tray's edge, a cable, a shadow or
# a side face (20-34 % of the reads, the dearest: every map and every later reader runs and reads nothing); the
# hole reader read 49 of 3825 such faces on both sets' twelve grids, 43 as 1s. Speed: callgrind instructions of 10
# frames, byler-d6 0.975, penlington-wood 0.980 of before. score.py none, shift1, shift3, turn1 MEAN4 0.8939 -> 0.8936,
# wrong 79 -> 79, extra 18 -> 18 (byler-d6 095641's 1 lost on none, 112342's 3 read on shift3); eight more changes
# 0.8559 -> 0.8562, wrong 243 -> 243, extra 73 -> 68 (two 1s lost, 100722's 4 read right on scale0.6). 0: for tests
MAX_STRAY = 0.2  # a 1's face: at most this part of its hull off the plane besides the pip
# two looks half a pixel each way read more than three did, for less: byler-d6 exact over none, shift1, shift3 and
# turn1 0.6525 -> 0.66 on the mean, no more wrong reads; penlington-wood shift1 +1 photo
LOOKS = ((0.5, 0.5), (-0.5, -0.5))  # a face read nothing (LOOK_AGAIN): crop pixels the crop is moved by,
# each look on another sampling grid; taken only when every look reads the same value (_look_again),
LOOK_LEAST = 4  # ... of 4-6 pips (a 1-3 is what glare, a side face or the gap between two dice make on three grids
# alike: from 1 up, penlington-wood shift1 read 3 more extra dice, byler-d6 0.9 more wrong reads a grid)
LOOK_SEEN = 4  # ... and only for a face whose spot maps saw this many pip-like spots (SpotsSeen.seen): on byler-d6
# none, shift1 and shift3 14 of the 15 faces the looks read saw 5-12; the faces that saw fewer were most of the
# looks' cost
LOOK_SQUARE = 1.2  # ... on a die-shaped blob: its mask's least rectangle at most this long over its width,
LOOK_AREA = 0.7  # ... covering this part of a die's square at least (a die's piece and a wall's strip, two dice run
# together, a cable's end: there the blob, not the grid, keeps the face from reading; byler-d6 shift1 112353's 4 at
# 2.0 long, 0.34 of a die; penlington-wood turn1 six_56's 6 at 1.5, five_43's 5 read 6 at 1.29)
LOOK_AGAIN = ("unclear", "readers disagree")  # ... when nothing read or the readers disagreed (not a face turned away
# on purpose: a refused 2, a doubtful 1, a 4 and a side face's row)
PAST_THE_BAND = "read past the outline band"  # the reason given with a read from the spot maps faded towards the
# outline (vision.spots.OUTLINE_BAND): the last word, when neither reader nor the blob's outline read
BAND_DIE_SHAPED = True  # ... taken only on a die-shaped blob (_die_shaped): two dice in one blob read as one 6 (byler-d6
# 111304's 4 and the die beside it)
_K3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_K5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


@dataclass(frozen=True)
class FaceRead:
    value: int | None
    confidence: float
    reason: str = ""
    centre: tuple[float, float] = (0.0, 0.0)  # of the face, in crop pixels
    side: float = 0.0  # face side, crop pixels


def crop_die(frame: np.ndarray, centre: tuple[float, float], side: float, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The die warped upright into a CROP x CROP patch, and the affine that did it.

    Bilinear at every scale, also where the die is bigger than the crop (most of
    penlington-wood's dice): cv2.warpAffine has no INTER_AREA (given it, it samples
    bilinearly), and the readers' thresholds were tuned on these point-sampled crops.
    Anti-aliased crops (a Gaussian pre-blur, warping bigger and averaging down, bicubic)
    read fewer dice and more wrong ones over the four grids, and were no less dependent on
    the sampling grid: the thresholds, not the sampling, decide near so many dice.
    """
    scale = CROP / (side * MARGIN)
    m = cv2.getRotationMatrix2D(centre, angle, scale)
    m[0, 2] += CROP / 2 - centre[0]
    m[1, 2] += CROP / 2 - centre[1]
    patch = cv2.warpAffine(frame, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return patch, m


def _axes(patch: np.ndarray, mask: np.ndarray, second: bool = True) -> list[np.ndarray]:
    """The patch projected on its first and second colour axes, each scaled to 0..255.

    The first axis is usually body vs pips; the second catches pips that differ from the
    body in hue more than in brightness (yellow on teal) when the first is taken by glare
    or a translucent body's own shading.
    """
    return list(_axis_maps(patch, mask, second))


def _axis_maps(patch: np.ndarray, mask: np.ndarray, second: bool = True) -> Iterator[np.ndarray]:
    """_axes one at a time: the second is projected only when the first did not read (_read_holes)."""
    pix = patch.reshape(-1, 3).astype(np.float32)
    # the axes come from the die's inside only: its outline and shadow would make them
    # "die vs surface" instead of "body vs pips"
    inner = cv2.erode(mask, _K5, iterations=2)
    # (by flat indices, in the same order: a boolean index of a colour image costs twice as much)
    sel = pix.take(np.flatnonzero(inner), axis=0)
    if len(sel) < 30:
        sel = pix.take(np.flatnonzero(mask), axis=0)
    if len(sel) < 30:
        return
    mean = sel.mean(axis=0)
    d = sel.astype(np.float64)
    d -= d.mean(axis=0)
    cov = (d.T @ d) / (len(d) - 1)  # np.cov's sample covariance, without its checks
    _, vecs = np.linalg.eigh(cov)
    inside = mask.ravel() > 0
    for v in (vecs[:, -1], vecs[:, -2])[:2 if second else 1]:
        if v.sum() < 0:
            v = -v  # positive = brighter, so polarity names keep their meaning
        proj = (pix - mean) @ v
        lo, hi = _percentiles(proj[inside], 2.0, 98.0)
        if hi - lo < 12.0:  # no contrast along this axis: no pips to see
            continue
        g = np.clip((proj - lo) * (255.0 / (hi - lo)), 0, 255).astype(np.uint8)
        yield g.reshape(patch.shape[:2])


def _percentiles(a: np.ndarray, q1: float, q2: float) -> tuple[float, float]:
    """np.percentile's two linear-interpolated values, by one partition instead of a sort."""
    n = len(a)
    pos = [q * (n - 1) / 100.0 for q in (q1, q2)]
    idx = sorted({min(n - 1, int(p) + j) for p in pos for j in (0, 1)})
    part = np.partition(a, idx)
    out = []
    for p in pos:
        i = int(p)
        lo, hi, t = float(part[i]), float(part[min(n - 1, i + 1)]), p - i
        out.append(lo + (hi - lo) * t if t < 0.5 else hi - (hi - lo) * (1 - t))
    return out[0], out[1]


def _principal(patch: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    axes = _axes(patch, mask)
    return axes[0] if axes else None


def _candidate(plane: np.ndarray, die_side: float) -> tuple[int, float, np.ndarray, float, tuple[float, float]] | None:
    """Pips in one body plane: (count, layout error, points, face side, face centre) or None."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(plane, connectivity=4)
    if n <= 1:
        return None
    big = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
    if stats[big, cv2.CC_STAT_WIDTH] * stats[big, cv2.CC_STAT_HEIGHT] < MIN_FACE * die_side * die_side:
        return None  # its hull (corners on its pixels' centres) is smaller than its box: too small, as below
    face = (labels == big).astype(np.uint8)
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    hull_area = cv2.contourArea(hull)
    if hull_area < MIN_FACE * die_side * die_side:
        return None
    filled = np.zeros(face.shape, np.uint8)  # (np.zeros_like: ten times the call)
    cv2.drawContours(filled, [hull], -1, 1, -1)
    holes = cv2.morphologyEx(filled & (1 - face), cv2.MORPH_OPEN, _K3)
    m = cv2.moments(hull)
    fc = (m["m10"] / m["m00"], m["m01"] / m["m00"])
    fside = float(np.sqrt(hull_area))
    k, hl, hs, hc = cv2.connectedComponentsWithStats(holes, connectivity=8)
    if k <= 1:
        return (0, 0.0, np.zeros((0, 2), np.float32), fside, fc)
    # a pip lies inside its face: a hole open to the hull's edge is a notch of the outline
    rim = filled - cv2.erode(filled, _K3)
    touch = np.zeros(k, bool)
    touch[hl[rim > 0]] = True
    area = hs[1:, cv2.CC_STAT_AREA].astype(np.float32)
    f2 = fside * fside
    # the holes' sizes are whole pixel counts, exact in float32: the bounds are held as float32
    # holds them, and each ratio is off its bound by far more than a float32 unit unless on it
    least, most = float(np.float32(0.006 * f2)), float(np.float32(0.12 * f2))
    ok = np.array([not t and least <= a <= most and 20 * a >= 9 * max(1, w * h) and 5 * max(w, h) <= 11 * max(1, min(w, h))
                   for t, (_, _, w, h, a) in zip(touch[1:].tolist(), hs[1:].tolist())], bool)
    if ok.any():  # the elongation's moments only when some hole is left to judge
        ok &= _elongation(hl, k, ok) <= 2.2
    if ok.any():  # the pips of one face are of one size: smaller holes are dirt or glare
        ok &= area >= 0.4 * area[ok].max()
    pts = hc[1:][ok].astype(np.float32)
    areas = area[ok]
    if len(pts) == 0:
        return (0, 0.0, pts, fside, fc)
    if len(pts) > 6:
        return None
    if len(pts) >= 2 and areas.max() > 3.5 * areas.min():
        return None
    if len(pts) == 1:
        off = float(np.hypot(*(pts[0] - np.array(fc)))) / fside
        if off > 0.2 or areas[0] < 0.02 * f2:
            return None
        # a lone hole in a face with much else off its plane (marbling, glare, the pips of
        # a bigger face gone to pieces) is no 1
        if np.count_nonzero(filled & (1 - face)) - areas[0] > MAX_STRAY * hull_area:
            return None
        return (1, off, pts, fside, fc)
    err = layout_error(pts, fside)
    if err is None or layout_tilt(pts, cv2.minAreaRect(hull)[2]) > MAX_TILT:
        return None
    # the layout must sit near the middle of its face
    off = float(np.hypot(*(centroid(pts) - np.array(fc)))) / fside
    if off > 0.2:
        return None
    return (len(pts), err + off, pts, fside, fc)


def _complete(plane: np.ndarray, inside: np.ndarray, pts: np.ndarray, fside: float, count: int) -> int:
    """The count, raised when the layout's missing pips are there after all.

    A corner pip of a light-pipped die runs into the bright surface around the die at the
    body's level, so it reads as a notch of the outline and a 4 reads as a 2 (a 5 as a 3,
    a 6 as a 4). The layout says where those pips would be: when every one of those
    places is off the body plane (yet inside the die), the face holds them. Likewise a
    centre pip run into the corner ones (a 5 read as a 4): the middle is off the plane.
    """
    if count not in (2, 3, 4):
        return count
    c = centroid(pts)
    r = max(1, int(round(0.05 * fside)))

    def pip_at(p: np.ndarray) -> bool:
        x, y = int(round(p[0])), int(round(p[1]))
        if not (r <= x < plane.shape[1] - r and r <= y < plane.shape[0] - r) or not inside[y, x]:
            return False
        return float(plane[y - r:y + r + 1, x - r:x + r + 1].mean()) < PIP_AT

    if count in (2, 3):
        ends = pts[np.argsort(np.hypot(*(pts - c).T))[-2:]]
        v = ends[0] - c
        others = [c + np.array([-v[1], v[0]]), c - np.array([-v[1], v[0]])]
        if all(pip_at(q) for q in others):
            count += 2
        if count in (2, 4) and pip_at(c):  # a centre pip run into the corner ones
            count += 1
        return count
    if pip_at(c):
        return 5
    # a 4 -> 6: the middles of one pair of opposite sides
    order = np.argsort(np.arctan2(*(pts - c).T[::-1]))
    q = pts[order]
    for i in (0, 1):
        mids = [(q[i] + q[i + 1]) / 2, (q[(i + 2) % 4] + q[(i + 3) % 4]) / 2]
        if all(pip_at(m) for m in mids):
            return 6
    return count


def _elongation(labels: np.ndarray, k: int, judged: np.ndarray | None = None) -> np.ndarray:
    """Length over width of each labelled region (from its second moments), index 1..k-1.

    judged: the regions (index 1..k-1) worth measuring; the others' pixels are passed over
    (each region's sums are its own pixels' alone, in scan order: the measured are the same)
    and they come out 1."""
    on = labels > 0 if judged is None else np.concatenate(([False], judged))[labels]
    ys, xs = np.nonzero(on)
    lab = labels[on]  # (in the same scan order as ys, xs)
    xs = xs.astype(np.float64)
    ys = ys.astype(np.float64)
    n = np.maximum(1, np.bincount(lab, minlength=k))
    mx = np.bincount(lab, xs, k) / n
    my = np.bincount(lab, ys, k) / n
    sxx = np.bincount(lab, xs * xs, k) / n - mx * mx + 1 / 12
    syy = np.bincount(lab, ys * ys, k) / n - my * my + 1 / 12
    sxy = np.bincount(lab, xs * ys, k) / n - mx * my
    tr, det = sxx + syy, sxx * syy - sxy * sxy
    disc = np.sqrt(np.maximum(0, tr * tr / 4 - det))
    l1, l2 = tr / 2 + disc, np.maximum(1e-6, tr / 2 - disc)
    return np.sqrt(l1 / l2)[1:]


def read_face(patch: np.ndarray, mask: np.ndarray, second_axis: bool = True) -> FaceRead:
    """Read one die crop (CROP x CROP BGR) whose die pixels are mask > 0.

    The readers' many thresholds make a face that reads nothing on one sampling grid read
    on another: moving every crop by a part of a pixel (8 offsets) changes the reading of
    129 of byler-d6's 1487 dice found each time, mostly between a value and a re-roll, and
    no one threshold is to blame. A camera never sees our grid, so a face that reads
    nothing gets two more looks, each on the crop moved by half a pixel (LOOKS); a value
    every look reads alike is no luck of one grid.
    """
    read, seen = _read_once(patch, mask, second_axis)
    if read.value is None and read.reason in LOOK_AGAIN and seen >= LOOK_SEEN:
        again = _look_again(patch, mask, second_axis)
        if again is not None:
            return again
    return read


def _look_again(patch: np.ndarray, mask: np.ndarray, second_axis: bool) -> FaceRead | None:
    """The value every look (LOOKS) reads alike, LOOK_LEAST pips at least, or None.

    A look resamples the crop (Lanczos: the least blur a sub-pixel shift can do) and its
    blob mask (nearest pixel) on a grid moved by LOOKS; the face centre is moved back.
    The mask moves by a whole pixel or none where the picture moves by half: the mask is
    the blob's outline from the working image, itself no finer than a pixel.
    """
    if not _die_shaped(mask):
        return None
    first = None
    for dx, dy in LOOKS:
        t = np.float64([[1, 0, dx], [0, 1, dy]])
        moved = cv2.warpAffine(patch, t, (CROP, CROP), flags=cv2.INTER_LANCZOS4, borderMode=cv2.BORDER_REPLICATE)
        moved_mask = cv2.warpAffine(mask, t, (CROP, CROP), flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
        read, _ = _read_once(moved, moved_mask, second_axis)
        if read.value is None or read.value < LOOK_LEAST or (first is not None and read.value != first.value):
            return None
        if first is None:
            first = FaceRead(read.value, read.confidence, "", (read.centre[0] - dx, read.centre[1] - dy), read.side)
    return first


def _die_shaped(mask: np.ndarray) -> bool:
    """Is the blob's mask a die's square (LOOK_SQUARE, LOOK_AREA), not a piece of one or one and more?

    (A part cut out of a heap is read with a rectangle for its mask, which always passes:
    there the cut, not the blob, says it is one die.)"""
    area = np.count_nonzero(mask)
    if area < LOOK_AREA * (CROP / MARGIN) ** 2:
        return False
    pts = cv2.findNonZero(mask)
    (w, h) = cv2.minAreaRect(pts)[1]
    return max(w, h) <= LOOK_SQUARE * max(1.0, min(w, h))


def _read_once(patch: np.ndarray, mask: np.ndarray, second_axis: bool) -> tuple[FaceRead, int]:
    """read_face on the crop's own sampling grid (the spot reader, then the hole reader), and SpotsSeen.seen."""
    by_spots = read_spots_seen(patch, mask)
    return _weigh(patch, mask, second_axis, by_spots), by_spots.seen


def _weigh(patch: np.ndarray, mask: np.ndarray, second_axis: bool, by_spots: SpotsSeen) -> FaceRead:
    """The spot read weighed against the hole reader's (read_face)."""
    spots, seen, spare = by_spots.read, by_spots.seen, by_spots.spare
    if by_spots.refused:
        # a 2 refused by the spot reader: flat spots (a die seen obliquely whose top face is
        # not that 2) or two glints around a 1's pip the hue map shows (HUE_MIDDLE); the hole
        # reader, given its turn, read some of them as the same 2 (penlington-wood dice_11)
        return FaceRead(None, 0.0, "a 2 of flat spots or glints")
    if spots is not None:
        value, conf, centre, side = spots
        if conf < SURE_SPOTS:
            # a doubtful spot read stands unless the hole reader reads something else:
            # then neither is trusted and the table asks for a re-roll
            holes = _read_holes(patch, mask, second_axis)
            if holes.value == 2 and value > 2 and seen >= SEEN_NOT_2 and SEEN_NOT_2_VETO:
                # two holes left of a face whose other pips the hole plane lost: the spot
                # maps see them (SEEN_NOT_2), so that 2 says nothing against the spot read
                holes = FaceRead(None, 0.0, "spots see more pips than two holes")
            if holes.value == 1 and value in NOT_1_VETO and SEEN_NOT_1 <= seen <= 6:
                # one hole on a face whose spot maps see a 6's pips: a glint or a pip that stood out
                holes = FaceRead(None, 0.0, "spots see more pips than one hole")
            if holes.value is not None and holes.value != value:
                return FaceRead(None, 0.0, "readers disagree")
            if value == 1 and holes.value != 1:
                # a doubtful 1 is mostly the strongest of a few spots (glare, a side face's
                # pip): it stands only when the hole reader finds the lone pip too
                return FaceRead(None, 0.0, "a doubtful 1")
        if conf >= SURE_SPOTS and value in TWO_SEEN_READS and seen >= TWO_SEEN and TWO_SEEN_HOLES:
            # a few pips of a bigger face the spot maps see (TWO_SEEN): the hole reader's 4-6 counts them all
            holes = _read_holes(patch, mask, second_axis)
            if holes.value in TWO_SEEN_HOLES:
                return holes
        return FaceRead(value, conf, "", centre, side)
    if seen < HOLES_SEEN:
        return FaceRead(None, 0.0, "unclear")  # no pip-like spot on any map: nothing for the holes to find (HOLES_SEEN)
    holes = _read_holes(patch, mask, second_axis, seen)
    if holes.value == 6 and by_spots.no_six:
        # the spots' 6 was a 4 and a side face's row of flat pips (an oblique die): the
        # holes of that row make the same 6 (penlington-wood four_13)
        return FaceRead(None, 0.0, "a 4 and a side face's row")
    if holes.value == 2 and seen >= SEEN_NOT_2:
        # two diagonal holes left of a 4-6 whose other pips ran into each other or the
        # outline: the spot maps still show those pips
        return FaceRead(None, 0.0, "spots see more pips than two holes")
    blob = spare() if holes.value is None and spare is not None else None
    if blob is not None:
        # the spots on the blob's outline, past a body colour patch that cut pips off
        value, conf, centre, side = blob
        return FaceRead(value, conf, "", centre, side)
    band = None
    if holes.value is None and by_spots.band is not None and (not BAND_DIE_SHAPED or _die_shaped(mask)):
        band = by_spots.band()  # the maps faded towards the outline: the last word (vision.spots.OUTLINE_BAND)
    if band is not None:
        value, conf, centre, side = band
        return FaceRead(value, conf, PAST_THE_BAND, centre, side)
    return holes


def _read_holes(patch: np.ndarray, mask: np.ndarray, second_axis: bool, seen: int = 0) -> FaceRead:
    """The hole reader: the first colour axis, else the second, with its doubtful counts left unread.

    seen: the spot maps' even, strong spots (SpotsSeen.seen) when the hole reader has the last word
    (SEEN_NOT_1); 0 when it only checks a doubtful spot read: a spot reader's 1 the second axis finds
    too is two readers agreeing (held to SEEN_NOT_1 there too, 7 right 1s of byler-d6 went unread).
    """
    read = None
    for i, g in enumerate(_axis_maps(patch, mask, second_axis)):
        read = _read_plane(g, mask, second_axis)
        if read.value is not None and not (i > 0 and (read.value in SECOND_AXIS_DOUBT or (
                read.value == 1 and SEEN_NOT_1 <= seen <= 6))):  # seen: SpotsSeen.seen (SEEN_NOT_1)
            return read
    if read is None:
        return FaceRead(None, 0.0, "no contrast")
    # a 2 or 3 read on the second axis only: the pips of a bigger face that show there in
    # part (on the cached crops 3 such reads were right and 10 wrong)
    return FaceRead(None, 0.0, "unclear") if read.value is not None else read


def _read_plane(g: np.ndarray, mask: np.ndarray, extra_levels: bool = True) -> FaceRead:
    die_side = CROP / MARGIN
    inside = mask > 0
    vals = g[inside]
    best: tuple[float, int, tuple] | None = None
    values = set()
    for pol in (1, -1):
        gp = g if pol > 0 else 255 - g
        vp = vals if pol > 0 else 255 - vals
        t1, _ = cv2.threshold(vp.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        upper = vp[vp > t1]
        levels = [t1]
        if len(upper) > 20:
            t2, _ = cv2.threshold(upper.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            levels.append(t2)
            if extra_levels:  # in-between levels, for glare and soft pips on a die-like blob
                levels += [(t1 + t2) / 2, t1 - (t2 - t1) / 2]
        seen = set()
        for t in levels:
            if int(np.floor(t)) in seen:
                continue  # the same plane: gp > t is gp > floor(t) for whole numbers
            seen.add(int(np.floor(t)))
            plane = ((gp > t) & inside).astype(np.uint8)
            c = _candidate(plane, die_side)
            if c is None or c[0] == 0:
                continue
            count, err, _, fside, fc = c
            values.add(count)
            score = (fside / die_side) * max(0.05, 1.0 - 2.0 * err) * (1.0 + 0.15 * count)
            if best is None or score > best[0]:
                best = (score, count, c, plane)
    if best is None:
        return FaceRead(None, 0.0, "unclear")
    score, count, (_, err, pts, fside, fc), plane = best
    count = _complete(plane, inside, pts, fside, count)
    conf = float(max(0.05, min(1.0, 1.0 - 2.0 * err)))
    if len(values) > 1:
        conf *= 0.7
    return FaceRead(count, conf, "", fc, fside)
