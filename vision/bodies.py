"""Die bodies: what stands out from the plain surface, as blobs, and the die size.

The surface a die lies on is plain at the scale of a die (a tray, a desk); dice of any
colour differ from it. The surface colour at every point is estimated from a tiny,
median-filtered copy of the frame (dice cover a small part of it), and a pixel belongs to
the foreground when its Lab colour differs enough, or when it lies on a strong outline (a
pale die on a pale surface). Blobs of that mask are candidate dice, sized by the square
ones (die_size). A blob too big for one die is cut at higher distance levels first
(raise_level: a die against the tray wall differs from the surface more than the seam
does); blobs the size of several dice are cut around each die's core (split_at_cores).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.numeric import median

# Lab distance (L weighted down, so soft shadows count less than colour) above which a
# pixel is foreground; a blob must also hold some pixels above the strong level.
WEAK = 11.0
STRONG = 24.0
L_WEIGHT = 0.55
AB_WEIGHT = 1.4  # colour (a, b) weighted up: a die of another colour differs most there
_L_SCALE = np.arange(256, dtype=np.float32) * L_WEIGHT  # |dL| * L_WEIGHT for every 8-bit |dL|
# Sobel strength of the surface-level grey above which a pixel is an outline: at least
# EDGE, and EREL times the frame's median (a grained desk's own texture is not an outline)
EDGE = 70.0
EREL = 25.0
LEVELS = (18.0, 32.0)  # higher levels a too-big blob is cut at
COMPACT = 0.6  # squareness above which a blob has a die's shape (square, filled)
# cutting a blob of dice at their cores, in die edges: a hole smaller than HOLE die areas
# is the die's own (pips, a pale face); a core is where the outline is at least SEED_R
# away; two cores are SEED_GAP apart or more; a die's pixels lie within REACH of its core
# (half its diagonal, and a little); a piece no core reaches is a thing of its own (a
# cable) when it is bigger than TAIL die areas, runs on farther than TAIL_LEN from every
# core (the corners of an obliquely seen die stay nearer) and has no point farther than
# TAIL_WIDTH from the blob's outline (a cable is thin; a shadow cast between dice is
# wider). A blob bigger than MAX_DICE die areas is not cut this way.
HOLE = 1.2
SEED_R = 0.3
SEED_GAP = 0.6
REACH = 0.8
TAIL = 0.6
TAIL_LEN = 1.6
TAIL_WIDTH = 0.5
MAX_DICE = 8.5
# a blob of MORE_LEAST or more die areas with no tail, in view, holds as many dice as its
# area says: cores missing for them go to deep points (MORE_DEPTH die edges inside its
# outline) at least MORE_GAP die edges from the others. (A pair's two cores are found: its
# ridge is long enough)
MORE_DEPTH = 0.3
MORE_GAP = 0.85
MORE_LEAST = 3
# a die against the tray wall runs into the strip of the wall's foot (its shadow, its
# seam) along the frame: the strip is thinner than STRIP die edges, the die is not, so an
# opening by a disk that wide leaves the die alone (pieces under STRIP_LEAST die areas are
# the strip's thicker bits)
STRIP = 0.5
STRIP_LEAST = 0.35
# a blob of at most INSCRIBED_FEW areas of its inscribed circle's square is a die or two
# run together (die_size_inscribed): its squareness says how die-like it is
INSCRIBED_FEW = 3.0
# the surface's colour is the median of BG_MEDIAN x BG_MEDIAN pixels of the frame shrunk
# BG_DIV times: a die much smaller than that window does not count in it. A die close to
# the camera is as big as the window, and its own body is its surface: only its pips
# stand out. The coarse estimate shrinks COARSE times more (a die is small in it again;
# a grained or shaded surface is followed less, so it is the second try, see vision.pips)
BG_DIV = 8
BG_MEDIAN = 5
COARSE = 2


@dataclass(frozen=True)
class Blob:
    rect: tuple[tuple[float, float], tuple[float, float], float]  # minAreaRect, work pixels
    area: float
    contour: np.ndarray
    by_area: bool = False  # a part around a core the blob's area called for (split_at_cores)

    @property
    def side(self) -> float:
        return float(np.sqrt(self.area))

    @property
    def squareness(self) -> float:
        (_, _), (w, h), _ = self.rect
        if min(w, h) <= 0:
            return 0.0
        fill = self.area / (w * h)
        return float(min(w, h) / max(w, h) * min(1.0, fill / 0.85))

    def filled(self, pad: int = 0) -> tuple[np.ndarray, tuple[int, int]]:
        """The blob's outline filled (255) in a mask of its bounding box grown by pad pixels
        each way, and where that mask's corner lies (working pixels)."""
        x, y, w, h = cv2.boundingRect(self.contour)
        x, y = x - pad, y - pad
        m = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        cv2.drawContours(m, [self.contour - np.array([x, y])], -1, 255, -1)
        return m, (x, y)


def foreground(work_bgr: np.ndarray, coarse: bool = False) -> np.ndarray:
    """A uint8 0/255 mask of what differs from the surface around it."""
    return foreground_dist(work_bgr, coarse)[0]


def foreground_dist(work_bgr: np.ndarray, coarse: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The foreground mask and the colour distance from the surface it was cut from
    (the surface estimated at the coarse scale when `coarse`)."""
    h, w = work_bgr.shape[:2]
    lab = cv2.cvtColor(work_bgr, cv2.COLOR_BGR2LAB)
    div = BG_DIV * COARSE if coarse else BG_DIV
    tw, th = max(8, w // div), max(8, h // div)
    tiny = cv2.resize(lab, (tw, th), interpolation=cv2.INTER_AREA)
    tiny = cv2.medianBlur(tiny, BG_MEDIAN)
    bg = cv2.resize(tiny, (w, h), interpolation=cv2.INTER_LINEAR)
    # per plane, contiguous: cv2 copies strided channel views; L's weighting by a table.
    # The full-size temporaries are worked in place and dropped once used: a frame's peak
    # of them, freed, was trimmed off the heap and faulted in afresh on the next frame
    # (a third of this function's time)
    cv2.absdiff(lab, bg, bg)
    d0, d1, d2 = cv2.split(bg)
    del bg
    ab = d1.astype(np.float32)
    cv2.magnitude(ab, d2.astype(np.float32), ab)
    ab *= AB_WEIGHT
    dist = cv2.LUT(d0, _L_SCALE)
    cv2.magnitude(dist, ab, dist)
    del ab, d0, d1, d2
    weak = cv2.compare(dist, WEAK, cv2.CMP_GT)
    strong = dist > STRONG
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    weak = cv2.morphologyEx(weak, cv2.MORPH_OPEN, k)
    # a pale die on a pale surface differs from it mostly at its outline and pips: its
    # outline joins the fragments of its mask into one blob
    grey = cv2.GaussianBlur(cv2.extractChannel(lab, 0), (3, 3), 0)
    mag = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    cv2.magnitude(mag, cv2.Sobel(grey, cv2.CV_32F, 0, 1), mag)
    # the median of every third pixel each way: as good as the whole's, 10x cheaper
    edge = cv2.compare(mag, max(EDGE, EREL * median(mag[::3, ::3])), cv2.CMP_GT)
    del mag
    weak |= cv2.morphologyEx(edge, cv2.MORPH_CLOSE, k)
    # 16-bit labels when they cannot run out (8-connected blobs are at least 2 px apart each
    # way, so there are at most ceil(h/2) * ceil(w/2) of them): half the memory to index
    most = ((h + 1) // 2) * ((w + 1) // 2)
    n, labels = cv2.connectedComponents(weak, connectivity=8, ltype=cv2.CV_16U if most < 65535 else cv2.CV_32S)
    if n <= 1:
        return np.zeros((h, w), np.uint8), dist
    if n <= 256:  # the usual case: 8-bit labels, and the blobs kept by a table
        labels = labels.astype(np.uint8)
    has_strong = np.zeros(max(n, 256), np.uint8)
    has_strong[labels[strong]] = 255
    has_strong[0] = 0
    if n <= 256:
        return cv2.LUT(labels, has_strong[:256]), dist
    return np.take(has_strong, labels), dist


def raise_level(blob: Blob, mask: np.ndarray, dist: np.ndarray, die: float, min_side: float) -> tuple[list[Blob], int]:
    """Die-sized parts of a too-big blob, cut out at higher colour-distance levels.

    A die touching the tray wall or a die of another colour runs into one blob at the
    surface level; the die differs from the surface more than the seam between them, so
    at some higher level the blob falls apart. The first level whose parts are mostly
    square and die-sized wins: (its parts, how many of them look like one die).
    """
    filled, (x, y) = blob.filled()
    h, w = filled.shape
    # the blob's own pixels and its small holes (pips), not what lies in a big hole of it
    # (the dice inside a tray's rim)
    _, own = cv2.connectedComponents(mask[y:y + h, x:x + w] & filled, connectivity=8)
    px, py = blob.contour[0, 0] - np.array([x, y])
    sub = (own == own[py, px]).astype(np.uint8)
    nh, hl, hs, _ = cv2.connectedComponentsWithStats(((filled > 0) & (sub == 0)).astype(np.uint8), connectivity=4)
    small = hs[:, cv2.CC_STAT_AREA] < 0.3 * die * die
    small[0] = False
    sub = ((sub > 0) | small[hl]).astype(np.uint8) * 255
    d = dist[y:y + h, x:x + w]
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    best: list[Blob] = []
    best_n = 0
    for level in LEVELS:
        # (one pass each, by OpenCV: numpy's comparison, and, cast and scale took four)
        m = cv2.bitwise_and(cv2.compare(d, level, cv2.CMP_GT), sub)
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, k)
        parts = [Blob(((b.rect[0][0] + x, b.rect[0][1] + y), b.rect[1], b.rect[2]), b.area, b.contour + np.array([x, y]))
                 for b in blobs(m, min_side)]
        n = sum(0.55 * die * die < b.area < 1.5 * die * die and b.squareness > COMPACT for b in parts)
        if n > best_n:
            best_n, best = n, [b for b in parts if b.area > 0.35 * die * die]
    return best, best_n


def without_strips(blob: Blob, die: float) -> list[Blob]:
    """The blob's die-thick pieces once what is thinner than STRIP die edges is cut off.

    A die touching the tray wall, its blob run into the wall's foot (a straight strip of
    shadow or seam along the frame), makes a ragged blob whose box is the strip's, not the
    die's, and reads as nothing; nor has it a point deep enough inside (the die's mask is
    pinched by its own shading) to set a die's square at. The strip is thinner than the
    die: opened by a disk of STRIP die edges the die's piece is left, square.
    """
    filled, (x, y) = blob.filled(1)
    k = int(round(STRIP * die)) | 1
    opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    cs, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in cs:
        area = cv2.contourArea(c)
        if area >= STRIP_LEAST * die * die:
            c = c + np.array([x, y])
            out.append(Blob(cv2.minAreaRect(c), float(area), c))
    return out


def blobs(mask: np.ndarray, min_side: float) -> list[Blob]:
    """Filled outer blobs of a mask (pips of the surface's colour are holes: filled)."""
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    if hier is None:
        return out
    for c, hrow in zip(contours, hier[0]):
        if hrow[3] != -1:  # a hole's boundary (a tray's inside, a pip): not a blob
            continue
        area = cv2.contourArea(c)
        if area < min_side * min_side:
            continue
        out.append(Blob(cv2.minAreaRect(c), float(area), c))
    return out


def die_size(candidates: list[Blob]) -> float | None:
    """The typical die edge: the median side of the compact, square blobs of a similar size."""
    sq = [b for b in candidates if b.squareness > COMPACT]
    if not sq:
        return None
    return _typical_side([b.side for b in sq])


def _typical_side(found: list[float], tie: list[float] | None = None) -> float:
    """The median of the densest run of sides within +-25 %: the dice, not noise or clutter.

    Runs as dense as each other go to the one with the highest tie key when one is given
    (how die-like its blobs are), else to the larger sides.
    """
    order = sorted(range(len(found)), key=found.__getitem__)
    vals = [float(found[i]) for i in order]
    keys = None if tie is None else [float(tie[i]) for i in order]
    sides = np.array(vals, np.float64)
    # sorted: each run is one slice, its median the middle one (or two) of it
    starts = np.searchsorted(sides, sides * 0.8, side="right").tolist()
    ends = np.searchsorted(sides, sides * 1.25, side="left").tolist()

    def median(a: int, b: int) -> float:
        m = (a + b) // 2
        return vals[m] if (b - a) % 2 else (vals[m - 1] + vals[m]) / 2

    best, best_n, best_key = median(0, len(vals)), 0, (-1.0, 0.0)
    for s, a, b in zip(vals, starts, ends):
        n = b - a
        key = (max(keys[a:b]), s) if keys is not None else (0.0, s)
        if n > best_n or (n == best_n and (key > best_key if keys is not None else s > best)):
            best_n, best, best_key = n, median(a, b), key
    return best


def die_size_inscribed(candidates: list[Blob], mask: np.ndarray) -> float | None:
    """The die edge from the widest circle inside each blob, when no blob is square.

    Dice run together (a pair touching) make no square blob, but the circle inscribed in
    the pair is still the one inscribed in one die. A blob counts when its area holds
    one to a few dice of that size (not a cable, not a laptop's edge). One die or a pair
    of the few often stands alone, as does a thing's widest place (a cable's bead, the
    label on it, a laptop's corner), and that is bigger: of runs as dense as each other
    the one with the most compact blob wins (squareness, counted for blobs of at most
    INSCRIBED_FEW circle areas: a long thing's squareness is no die's).
    """
    dt = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
    sides: list[float] = []
    tie: list[float] = []
    for b in candidates:
        inner, (x, y) = b.filled()
        h, w = inner.shape
        r = float((dt[y:y + h, x:x + w] * (inner > 0)).max())
        side = 2.0 * r
        if side > 0 and 0.7 < b.area / (side * side) < 6.0:
            sides.append(side)
            tie.append(b.squareness if b.area < INSCRIBED_FEW * side * side else 0.0)
    if not sides:
        return None
    return _typical_side(sides, tie)


def split_at_cores(blob: Blob, mask: np.ndarray, die: float, by_tail: list[Blob] | None = None,
                   in_view: bool = True, most: float = MAX_DICE) -> list[Blob]:
    """A blob of dice run together, cut into one part a die around each die's core.

    Each die keeps a core far from the blob's outline (its inscribed circle, radius about
    half the die edge) even when it touches others; the seams between dice and thin
    things (a cable, a shadow's tail) have none. The cores (maxima of the distance to the
    outline, at least SEED_GAP apart) are the dice: each pixel goes to its nearest core
    within a die's reach. What no core reaches is no die; a part that runs into a big,
    long, thin piece of it (TAIL, TAIL_LEN, TAIL_WIDTH) is more likely the end of a thing
    (a cable's ferrite bead, a port) than a die lying by it: it is dropped, or put in
    by_tail when one is given (the caller decides what is a die). Cutting by area instead (k dice = area / die area, k-means) made
    parts that straddle two dice and read wrong more often than right. A heap's cores
    may still be fewer than its area holds dice (its thickest place is where dice meet):
    the missing ones are added (_more_cores) and their parts marked by_area.
    """
    if blob.area > most * die * die:
        return [blob]  # a tray's rim or a laptop's edge: raise_level's job, not this
    filled, (x, y) = blob.filled()
    h, w = filled.shape
    own = (mask[y:y + h, x:x + w] > 0) & (filled > 0)
    # pips of the surface's colour, or the whole face of a pale die on a pale surface
    # (its outline only stands out), are holes in the die: its own pixels
    _, hl, hs, _ = cv2.connectedComponentsWithStats(((filled > 0) & ~own).astype(np.uint8), connectivity=4)
    small = hs[:, cv2.CC_STAT_AREA] < HOLE * die * die
    small[0] = False
    sub = cv2.copyMakeBorder((own | small[hl]).astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    dt = cv2.distanceTransform(sub, cv2.DIST_L2, 3)
    seeds = _cores(dt, die)
    if not seeds:
        return []
    owner, tails = _owners(sub, dt, seeds, die)
    # a blob with no tail is a heap, not a thing with a cable: unless it runs out of the
    # camera's view (in_view False: its area counts only its part in view; the caller knows
    # which edges are the camera's, a region's edge is the tray wall) it holds as many dice
    # as its area says
    more = _more_cores(dt, seeds, die, blob.area, most) if tails is None and in_view else []
    if more:
        seeds = seeds + more
        owner, tails = _owners(sub, dt, seeds, die)
    out = []
    for i in range(1, len(seeds) + 1):
        at_tail = tails is not None and tails[i]
        if at_tail and by_tail is None:
            continue
        part = (owner == i).astype(np.uint8)
        cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cs:
            continue
        c = max(cs, key=cv2.contourArea) + np.array([x - 1, y - 1])
        (by_tail if at_tail else out).append(Blob(cv2.minAreaRect(c), float(np.count_nonzero(part)), c,
                                                  i > len(seeds) - len(more)))
    return out


def _owners(sub: np.ndarray, dt: np.ndarray, seeds: list[tuple[int, int]], die: float
            ) -> tuple[np.ndarray, np.ndarray | None]:
    """Each pixel's core (1-based; 0 where none reaches) and, when the blob has a tail,
    which cores' parts touch it (indexed as owner; else None)."""
    free = np.full(sub.shape, 255, np.uint8)
    for sx, sy in seeds:
        free[sy, sx] = 0
    reach, near = cv2.distanceTransformWithLabels(free, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    lut = np.zeros(int(near.max()) + 1, np.int32)
    for i, (sx, sy) in enumerate(seeds):
        lut[near[sy, sx]] = i + 1
    reached = (sub > 0) & (reach < REACH * die)
    owner = lut[near] * reached
    _, rl, rs, _ = cv2.connectedComponentsWithStats(((sub > 0) & ~reached).astype(np.uint8), connectivity=8)
    tails = None
    if len(rs) > 1:
        # each unreached piece's farthest reach and widest point (the background, label 0, is no piece)
        at = np.flatnonzero(rl)
        lab = rl.ravel()[at]
        far = np.zeros(len(rs), np.float32)
        np.maximum.at(far, lab, reach.ravel()[at])
        thick = np.zeros(len(rs), np.float32)
        np.maximum.at(thick, lab, dt.ravel()[at])
        big = ((rs[:, cv2.CC_STAT_AREA] > TAIL * die * die) & (far > TAIL_LEN * die)
               & (thick < TAIL_WIDTH * die))
        big[0] = False
        if big.any():
            # the parts that touch a tail (8-neighbours): one dilation of the tails for all parts
            near_tail = cv2.dilate(big[rl].astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
            tails = np.zeros(len(seeds) + 1, bool)
            tails[owner[near_tail > 0]] = True
    return owner, tails


def _more_cores(dt: np.ndarray, seeds: list[tuple[int, int]], die: float, area: float,
                most: float = MAX_DICE) -> list[tuple[int, int]]:
    """Cores for the dice a heap's area holds beyond those _cores found.

    A heap's thickest place is where dice meet (three dice in an L: the circle inscribed
    at their junction is wider than one die's), and a die's middle there lies on a ridge
    that climbs to it, no maximum of its own: one core stands for the heap. The blob's
    area says how many dice it holds; each missing core goes to the deep point (MORE_DEPTH
    die edges inside the outline) farthest from the cores so far, while that is MORE_GAP
    die edges or more from them (two touching dice's middles are a die edge apart).
    """
    want = min(int(round(area / (die * die))), int(most))
    if want <= len(seeds) or want < MORE_LEAST:
        return []
    ys, xs = np.nonzero(dt > MORE_DEPTH * die)
    if not len(xs):
        return []
    deep = np.stack([xs, ys], 1).astype(np.float32)
    d2 = ((deep[:, None, :] - np.array(seeds, np.float32)[None, :, :]) ** 2).sum(2).min(1)
    out: list[tuple[int, int]] = []
    while len(seeds) + len(out) < want:
        i = int(np.argmax(d2))
        if d2[i] < (MORE_GAP * die) ** 2:
            break
        out.append((int(xs[i]), int(ys[i])))
        d2 = np.minimum(d2, ((deep - deep[i]) ** 2).sum(1))
    return out


def _cores(dt: np.ndarray, die: float) -> list[tuple[int, int]]:
    """The dice's cores (x, y) in a blob's distance-to-outline map, deepest first."""
    k = int(round(SEED_GAP * die)) | 1
    # a core's pixel is a maximum of its k-neighbourhood: only the box around the deep
    # pixels is dilated (the neighbourhoods of its pixels lie in it or off the image)
    deep = dt > SEED_R * die
    rows, cols = np.flatnonzero(deep.any(1)), np.flatnonzero(deep.any(0))
    if not len(rows):
        return []
    r = k // 2
    y0, y1 = max(0, int(rows[0]) - r), min(dt.shape[0], int(rows[-1]) + r + 1)
    x0, x1 = max(0, int(cols[0]) - r), min(dt.shape[1], int(cols[-1]) + r + 1)
    box = dt[y0:y1, x0:x1]
    # (within 1e-3 of it: every pixel of a flat top counts; the greedy pick below keeps one)
    peak = (box >= cv2.dilate(box, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) - 1e-3) & deep[y0:y1, x0:x1]
    ys, xs = np.nonzero(peak)
    ys += y0
    xs += x0
    order = np.argsort(-dt[ys, xs], kind="stable")
    gap2 = (SEED_GAP * die) ** 2
    seeds: list[tuple[int, int]] = []
    for px, py in zip(xs[order].tolist(), ys[order].tolist()):  # Python ints: numpy scalars are slow here
        if all((px - sx) ** 2 + (py - sy) ** 2 > gap2 for sx, sy in seeds):
            seeds.append((px, py))
    return seeds
