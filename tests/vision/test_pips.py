"""The reader on real photographs: scale freedom, no guessing, the box it gives."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.evaluate import load_set
from vision.dice import Die
from vision.pips import read_frame

# dice_sets: the shared photo sets (tests/vision/conftest.py)

def _byler_box(dice_sets, file, at):
    """A byler-d6 photo's labelled box centred at `at`, and what read_frame reads in it (called anew each time)."""
    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == file)
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    [box] = [b for b in image.boxes(w, h) if (int(b.xc), int(b.yc)) == at]
    return box, lambda: [d.value for d in read_frame(frame).dice if box.contains(*d.box[0])]


def _box_on_grids(dice_sets, name, file, at):
    """A photo's labelled box centred at `at`, and what read_frame reads in it on the photo
    as it is and moved (shift1, shift3, turn1): a rule must hold on every grid, not one."""
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / name) if i.file == file)
    shot = cv2.imread(str(image.path))
    h, w = shot.shape[:2]
    [box] = [b for b in image.boxes(w, h) if (int(b.xc), int(b.yc)) == at]
    frames = [shot] + [CHANGES[c](shot) for c in ("shift1", "shift3", "turn1")]
    return box, lambda: [[d.value for d in read_frame(f).dice if box.contains(*d.box[0])] for f in frames]


def _sample(dice_sets, name, step):
    return load_set(dice_sets / name)[::step]


def test_reads_a_clear_photo(dice_sets):
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_44.jpg")
    reading = read_frame(cv2.imread(str(image.path)))
    # five 5s are labelled; the cable and its label run out of the view: not dice
    assert reading.values == (5, 5, 5, 5, 5)
    for die in reading.dice:
        assert 1 <= die.value <= 6 and 0.0 < die.confidence <= 1.0
        (cx, cy), (w, h), _ = die.box
        assert 0 <= cx < 640 and 0 <= cy < 480 and w > 10


@pytest.mark.parametrize("factor", [0.6, 1.5])
def test_scale_free(dice_sets, factor):
    """The same photo resized reads the same for most of a fixed sample (no pixel constants)."""
    same = total = 0
    for image in _sample(dice_sets, "penlington-wood", 10):
        frame = cv2.imread(str(image.path))
        base = read_frame(frame).values
        if base != image.values:
            continue  # only photos read right at their own size say anything about scale
        interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
        resized = cv2.resize(frame, None, fx=factor, fy=factor, interpolation=interp)
        total += 1
        same += read_frame(resized).values == base
    assert total >= 5
    assert same / total >= 0.4, (same, total)  # measured 3/7: see the issue note


def test_die_without_clear_pips_is_not_guessed(dice_sets):
    """Wipe the pips off one die (fill its top face with its body colour): no value there."""
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_44.jpg")
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    box = image.boxes(w, h)[0]
    x0, x1 = int(box.xc - box.w * 0.6), int(box.xc + box.w * 0.6)
    y0, y1 = int(box.yc - box.h * 0.6), int(box.yc + box.h * 0.6)
    patch = frame[y0:y1, x0:x1]
    body = np.median(patch.reshape(-1, 3), axis=0)
    frame[y0:y1, x0:x1] = body.astype(np.uint8)
    reading = read_frame(frame)
    for die in reading.dice:
        assert not box.contains(*die.box[0]), "a value was guessed for a die with no pips"
    assert reading.values.count(5) == 4


def test_roi_limits_and_offsets(dice_sets):
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_44.jpg")
    frame = cv2.imread(str(image.path))
    full = read_frame(frame)
    roi = (200, 100, 440, 380)
    part = read_frame(frame, roi=roi, die_size_px=full.die_size_px)
    assert part.dice, "dice inside the region must still be read"
    for die in part.dice:
        cx, cy = die.box[0]
        assert roi[0] <= cx <= roi[0] + roi[2] and roi[1] <= cy <= roi[1] + roi[3]


def test_a_die_cut_by_the_view_is_not_read_but_one_at_a_region_edge_is(dice_sets):
    """The same pixels, cut at a die's left side: by the camera's view (the die could be
    anything: the desk clutter read as dice was mostly such) or by a region (the tray
    wall: dice lie against it)."""
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_44.jpg")
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    box = image.boxes(w, h)[0]
    x0 = int(box.xc - box.w / 2) + 1
    size = read_frame(frame).die_size_px
    cut = read_frame(frame[:, x0:], die_size_px=size)
    assert not any(box.contains(d.box[0][0] + x0, d.box[0][1]) for d in cut.dice)
    assert cut.values == (5, 5, 5, 5)
    region = read_frame(frame, roi=(x0, 0, w - x0, h), die_size_px=size)
    assert sum(box.contains(*d.box[0]) for d in region.dice) == 1
    assert region.values == (5, 5, 5, 5, 5)


def test_a_die_that_only_touches_the_view_edge_is_read_from_above(dice_sets, monkeypatch):
    """byler-d6 095545's 4 by the photo's left edge: its blob touches the view's edge at a
    corner (under EDGE_TOUCH of a die edge), so it is a whole die, read from straight above
    on every grid; taken for one the view cuts (EDGE_SQUARE out of reach) it is missed on
    the photo as it is, moved one pixel and turned a degree (moved (3, 2) its blob does
    not reach the edge)."""
    import vision.pips as pips
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == "IMG_20191209_095545.jpg")
    shot = cv2.imread(str(image.path))
    h, w = shot.shape[:2]
    [box] = [b for b in image.boxes(w, h) if (int(b.xc), int(b.yc)) == (22, 431)]
    frames = [shot] + [CHANGES[c](shot) for c in ("shift1", "shift3", "turn1")]

    def read_in_box():
        return [[d.value for d in read_frame(f).dice if box.contains(*d.box[0])] for f in frames]

    assert read_in_box() == [[4]] * 4 and box.value == 4
    monkeypatch.setattr(pips, "EDGE_SQUARE", 1.0)
    assert read_in_box() == [[], [], [4], []]


def test_a_thing_running_out_of_the_view_is_not_read_as_a_die(dice_sets, monkeypatch):
    """penlington-wood four_45 moved (3, 2): a laptop key in the frame's corner is a square
    blob of a die's size that the view cuts, and reads as a 2; it meets the view's edge
    along its width (over EDGE_TOUCH), so it is not taken for a die touching the edge."""
    import vision.pips as pips
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "four_45.jpg")
    frame = CHANGES["shift3"](cv2.imread(str(image.path)))
    assert read_frame(frame).values == image.values
    monkeypatch.setattr(pips, "EDGE_TOUCH", 10.0)
    monkeypatch.setattr(pips, "UNLIKE_DARKER", 1e9)  # the key's dark face is unlike the pale 4s too
    assert read_frame(frame).values == tuple(sorted(image.values + (2,)))


def test_a_dark_thing_among_pale_dice_is_not_read_as_one(dice_sets, monkeypatch):
    """penlington-wood five_44: five pale 5s and a plug's label with dark print beside
    them. Moved (3, 2) or turned a degree, the print reads as a 1; its face is far darker
    than the five alike pale faces (UNLIKE_DARKER), so it is not one of them: the photo
    reads its five 5s on every grid, and with that bound out of reach an extra 1 on two."""
    import vision.pips as pips
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_44.jpg")
    shot = cv2.imread(str(image.path))
    frames = [shot] + [CHANGES[c](shot) for c in ("shift1", "shift3", "turn1")]
    assert [read_frame(f).values for f in frames] == [image.values] * 4
    monkeypatch.setattr(pips, "UNLIKE_DARKER", 1e9)
    extra = tuple(sorted(image.values + (1,)))
    assert [read_frame(f).values for f in frames] == [image.values, image.values, extra, extra]


def test_a_dark_die_among_dice_of_mixed_colours_is_read(dice_sets, monkeypatch):
    """byler-d6 100625: a dark 3 beside three alike coloured dice. They are not pale
    (UNLIKE_PALE, UNLIKE_GREY), so the 3 is one of them and read on every grid; were any
    set of alike faces enough, it would be dropped turned a degree as a thing unlike them."""
    import vision.pips as pips
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == "IMG_20191209_100625.jpg")
    shot = cv2.imread(str(image.path))
    h, w = shot.shape[:2]
    [box] = [b for b in image.boxes(w, h) if (int(b.xc), int(b.yc)) == (310, 412)]
    frames = [shot] + [CHANGES[c](shot) for c in ("shift1", "shift3", "turn1")]

    def read_in_box(frame):
        return [d.value for d in read_frame(frame).dice if box.contains(*d.box[0])]

    assert [read_in_box(f) for f in frames] == [[3]] * 4 and box.value == 3
    monkeypatch.setattr(pips, "UNLIKE_PALE", 0.0)
    monkeypatch.setattr(pips, "UNLIKE_GREY", 255.0)
    assert read_in_box(frames[3]) == []


def test_blank_frame_reads_nothing():
    frame = np.full((480, 640, 3), 200, np.uint8)
    reading = read_frame(frame)
    assert reading.dice == () and reading.values == ()


def _synthetic_rest_frames(seed: int, rolls: int, every: int):
    """(visible values, frame) of at-rest, hand-free frames of a synthetic tray, 48 px dice."""
    from vision.sources import open_source

    src = open_source(f"synthetic:{seed}", die_px=48)
    out = []
    while len(src.truth) <= rolls:
        item = src.read()
        if item is None:
            break
        if not src.truth:
            continue
        truth = src.truth[-1]
        scene = src.scene
        if (truth.rest_index <= scene.index <= truth.end_index and scene.hand is None
                and not any(d.moving for d in scene.dice) and scene.index % every == 0):
            out.append((tuple(sorted(d.value for d in scene.dice if not d.hidden)), item[1]))
    return out


def test_synthetic_tray_frames_read_right():
    """The real reader on the synthetic tray (what the demo and end-to-end tests feed it).

    Measured 83 % of at-rest frames exact (seeds 1-3, 10 rolls each), 74 % on this sample
    (75 % with the die size given);
    the target is 95 %.
    The floor sits below today's rate so a regression fails; see the issue note.
    """
    frames = [f for seed in (1, 2) for f in _synthetic_rest_frames(seed, 8, 7)]
    assert len(frames) >= 60
    exact = sum(read_frame(frame).values == values for values, frame in frames)
    with_size = sum(read_frame(frame, die_size_px=48.0).values == values for values, frame in frames[::3])
    assert exact / len(frames) >= 0.70, (exact, len(frames))
    assert with_size / len(frames[::3]) >= 0.70, (with_size, len(frames[::3]))


def _candidates_per_box(dice_sets, name, file):
    image = next(i for i in load_set(dice_sets / name) if i.file == file)
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    reading = read_frame(frame)
    centres = [d.box[0] for d in reading.dice] + [u.box[0] for u in reading.unreadable]
    boxes = image.boxes(w, h)
    per_box = [sum(b.contains(*c) for c in centres) for b in boxes]
    on_nothing = sum(not any(b.contains(*c) for b in boxes) for c in centres)
    return per_box, on_nothing, len(centres) - on_nothing


def test_touching_pale_dice_are_found(dice_sets):
    """Four ivory dice in a touching chain on pale wood make no square blob: the die size
    must still be found (it read nothing at all before): every die gets a candidate.
    Measured 6 candidates on the 4 dice (the chain is cut in too many parts); the target
    is 4, and the bound is today's so a regression fails."""
    per_box, _, on_dice = _candidates_per_box(dice_sets, "penlington-wood", "four_36.jpg")
    assert min(per_box) >= 1 and on_dice <= 6, (per_box, on_dice)


def test_plain_studs_are_not_unreadable_dice(dice_sets):
    """The tray's four grey studs are die-sized and round-square, but show no pips: no
    candidate of any kind on them."""
    per_box, on_nothing, _ = _candidates_per_box(dice_sets, "byler-d6", "IMG_20191208_111913.jpg")
    assert on_nothing == 0
    assert sum(n == 1 for n in per_box) >= len(per_box) - 1, per_box


def test_touching_dice_are_cut_one_part_a_die(dice_sets):
    """Crowded byler trays: dice run together are cut around each die's core, so no
    labelled die is read twice (cut by area, k-means left parts straddling two dice:
    7-8 labelled dice read twice and 16 right here). Measured 0 twice, 24 right."""
    twice = right = 0
    for file in ("IMG_20191208_111446.jpg", "IMG_20191209_095359.jpg", "IMG_20191208_112833.jpg"):
        image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == file)
        frame = cv2.imread(str(image.path))
        h, w = frame.shape[:2]
        reading = read_frame(frame)
        for box in image.boxes(w, h):
            inside = [d for d in reading.dice if box.contains(*d.box[0])]
            twice += len(inside) > 1
            right += len(inside) == 1 and inside[0].value == box.value
    assert twice == 0 and right >= 21, (twice, right)


@pytest.mark.parametrize("file", ["six_53.jpg", "five_36.jpg", "five_28.jpg", "six_46.jpg", "six_49.jpg"])
def test_no_die_is_read_off_the_dice(dice_sets, file):
    """six_53: a cable's end and its label, cut off the cable by area, read as a 1 and a 2;
    a part that runs into a thin piece no die's core reaches is the end of a thing, not a
    die. five_36: an obliquely seen die (top and side faces), cut in two by area, read as
    a 5 and a 1; it has one core. five_28, six_46, six_49: parts by a cable's tail that
    read as dice (its label as a 1, a keyboard's key as a 2) when every such part was
    read; only one of a die's shape and size counts. No read die may lie off the labelled dice."""
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    boxes = image.boxes(w, h)
    reading = read_frame(frame)
    off = [d for d in reading.dice if not any(b.contains(*d.box[0]) for b in boxes)]
    assert not off and reading.dice, off


def test_a_speck_does_not_set_the_die_size(dice_sets, monkeypatch):
    """four_25: three ivory dice seen obliquely are not square enough to size, a speck at
    the frame's edge is: the die size came out a pip's and no die was read. Blobs smaller
    than a fortieth of the frame do not size dice: every die gets a candidate and no read
    is wrong (measured: three 4s, the oblique one by its top face; a cable's ferrite bead
    is unreadable, as it was when the oblique die read as nothing)."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "four_25.jpg")
    frame = cv2.imread(str(image.path))
    reading = read_frame(frame)
    per_box, _, _ = _candidates_per_box(dice_sets, "penlington-wood", "four_25.jpg")
    assert min(per_box) >= 1 and len(reading.unreadable) <= 1, (per_box, reading)
    assert len(reading.dice) >= 2 and set(reading.values) == {4}, reading.values
    # with specks sizing dice again a wrong die is read (measured (2, 4, 4)); the speck is
    # cut by the frame's edge, so _sizers keeps it out twice: both are switched off
    # (test_what_may_set_the_die_size holds MIN_DIE_FRAC alone); that 2, read on a whole part,
    # is the top end's 4 by TWO_END_MORE, and the hole reader's 4 where the spot maps see more pips than a sure
    # spot 2 (vision.face.TWO_SEEN_HOLES): switched off too, to see the sizing alone
    import vision.face as face

    monkeypatch.setattr(pips, "_sizers", lambda cands, shape, edges, view: cands)
    monkeypatch.setattr(pips, "TWO_END_MORE", 7)
    monkeypatch.setattr(face, "TWO_SEEN_HOLES", ())
    assert set(read_frame(frame).values) != {4}


def test_what_may_set_the_die_size():
    """_sizers, one bound at a time, on square blobs in a 320 x 240 working view: a speck
    (under MIN_DIE_FRAC of the long side) and a tray's rim (over MAX_DIE_FRAC of the short
    side) do not size dice, a die does; a blob cut by the view's edge is left out only when
    every square blob is cut. The bounds are the camera frame's (`view`), not a region's:
    in a region two dice wide the die still counts."""
    from vision.pips import MAX_DIE_FRAC, MIN_DIE_FRAC, _rect_blob, _sizers

    def square(x, y, side):
        return _rect_blob(((x + side / 2, y + side / 2), (side, side), 0.0))

    view, everywhere = (240.0, 320.0), (True, True, True, True)
    speck = square(50, 50, MIN_DIE_FRAC * 320 - 1)
    rim = square(10, 10, MAX_DIE_FRAC * 240 + 1)
    die, cut = square(100, 100, 30), square(0, 120, 30)
    assert _sizers([speck, rim, die], (240, 320), everywhere, view) == [die]
    assert _sizers([die, cut], (240, 320), everywhere, view) == [die, cut]
    assert _sizers([cut], (240, 320), everywhere, view) == []
    assert _sizers([cut], (240, 320), (False, False, False, False), view) == [cut]
    region = square(5, 5, 30)  # a 70 px region of the frame: its die is over 0.4 of the region
    assert _sizers([region], (70, 70), (False, False, False, False), view) == [region]


def test_a_die_in_a_small_region_is_read(dice_sets):
    """A calibrated tray region may be a few dice wide: the die-size bounds are fractions
    of the camera's frame, not of the region. five_44's five 5s, each alone in a 60 px
    region, were read as (), (2,), (1,), (1,) and one 5 when the bounds were the region's."""
    frame = cv2.imread(str(dice_sets / "penlington-wood" / "images" / "five_44.jpg"))
    for die in read_frame(frame).dice:
        (cx, cy), _, _ = die.box
        assert read_frame(frame, roi=(int(cx - 30), int(cy - 30), 60, 60)).values == (5,), die.box


def test_a_pale_die_seen_in_part_is_still_read(dice_sets):
    """dice_26: an ivory die on pale wood stands out only by its shaded sides: a ragged
    blob of little colour spread, its pip outside it. Only compact blobs of one colour
    (a tray's studs) are skipped unread; this one is read."""
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "dice_26.jpg")
    assert read_frame(cv2.imread(str(image.path))).values == image.values


@pytest.mark.parametrize("name, file, unseeded", [("penlington-wood", "two_17.jpg", ()),
                                                 ("byler-d6", "IMG_20191209_095647.jpg", None)])
def test_pale_dice_found_by_their_pips(dice_sets, name, file, unseeded, monkeypatch):
    """Ivory and white dice on a pale surface whose bodies barely differ from it: no blob
    of theirs reaches a die's size (two_17 read nothing at all, 095647 lost its white 2).
    Their dark pips still stand out; a cluster of them seeds a die candidate that reads.
    With no pip seeds two_17 reads nothing again. (095647's 2 is read with the pip seeds
    off too now, by another of the reader's rules: it no longer shows this one, and stays
    here only as a read that must not be lost.)"""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / name) if i.file == file)
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == image.values
    if unseeded is not None:
        monkeypatch.setattr(pips, "_pip_seeds", lambda *args: [])
        assert read_frame(frame).values == unseeded


def test_fast_helpers_match_numpy():
    # the shortcuts kept for speed give what numpy's own functions give
    from vision.pips import _largest_eigenvalue, _median_u8, _spread

    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 10, 11, 8560):
        for lo, hi in ((0, 256), (100, 103)):
            a = rng.integers(lo, hi, n).astype(np.uint8)
            assert _median_u8(a) == float(np.median(a))
    patch = rng.integers(0, 256, (40, 40, 3)).astype(np.uint8)
    patch[10:20, 10:20] = (30, 40, 200)
    mask = np.zeros((40, 40), np.uint8)
    cv2.circle(mask, (20, 20), 15, 255, -1)
    inner = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    pix = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[inner > 0].astype(np.float32)
    want = float(np.sqrt(np.linalg.eigvalsh(np.cov(pix.T))[-1]))
    assert _spread(patch, mask) == pytest.approx(want, rel=1e-9)
    assert _spread(patch, np.zeros_like(mask)) == 0.0
    for x in (rng.normal(size=(50, 3)) * (40, 3, 0.5), np.repeat(rng.normal(size=(50, 1)), 3, 1), np.zeros((50, 3))):
        c = np.cov(x.T)
        assert _largest_eigenvalue(c.tolist()) == pytest.approx(np.linalg.eigvalsh(c)[-1], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("h, w", [(96, 96), (480, 640)])
def test_foreground_keeps_the_blobs_with_a_strong_pixel(h, w):
    # a few blobs (8-bit labels) or many more than 255 (wider labels): the foreground is
    # the strongly differing squares, never the faint ones
    from vision.bodies import foreground

    img = np.full((h, w, 3), 128, np.uint8)
    strong, faint = [], []
    for i, y in enumerate(range(6, h - 8, 12)):
        for j, x in enumerate(range(6, w - 8, 12)):
            is_strong = (i + j) % 2 == 1
            img[y:y + 4, x:x + 4] = (0, 0, 255) if is_strong else (140, 126, 118)
            (strong if is_strong else faint).append((y + 2, x + 2))
    mask = foreground(img)
    assert all(mask[y, x] == 255 for y, x in strong)
    assert not any(mask[y, x] for y, x in faint)
    n, _ = cv2.connectedComponents(mask, connectivity=8)
    assert n - 1 == len(strong)


def test_a_die_lying_by_a_cable_is_read(dice_sets, monkeypatch):
    """six_57: a die touching a cable was cut off with the cable's tail and lost (a part by
    a tail was taken for the thing the cable ends in). A die-shaped part by a tail that
    reads as a die is kept: all five dice read. With the parts by a tail dropped by the cut
    (split_at_cores given no by_tail list) the 5 is lost."""
    import vision.bodies as bodies
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "six_57.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == image.values == (2, 3, 5, 5, 6)
    cut = bodies.split_at_cores
    monkeypatch.setattr(pips, "split_at_cores",
                        lambda blob, mask, die, by_tail=None, in_view=True: cut(blob, mask, die, None, in_view))
    assert read_frame(frame).values == (2, 3, 5, 6)


@pytest.mark.parametrize("file", ["three_24.jpg", "dice_17.jpg"])
def test_an_oblique_die_is_read_by_its_top_face(dice_sets, file, monkeypatch):
    """A die seen from the side is one long blob, top face and side face, that reads as
    nothing; the other dice in the frame show which way the view leans, and the blob's end
    on that side (its top face) reads. Both frames lost one die before; now all read.
    Without the top ends (_top_ends finds none) one die is lost again."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == image.values
    monkeypatch.setattr(pips, "_top_ends", lambda parts, lean: [])
    assert len(read_frame(frame).values) == len(image.values) - 1


def test_top_ends_follow_the_lean():
    """The end of an oblique part on the side the read faces lean to; none without a lean
    or across it."""
    from vision.bodies import Blob
    from vision.pips import _top_ends

    rect = ((50.0, 50.0), (20.0, 30.0), 0.0)  # long axis along y
    part = Blob(rect, 600.0, np.rint(cv2.boxPoints(rect)).astype(np.int32).reshape(-1, 1, 2))
    [(whole, end)] = _top_ends([part], [(0.0, -0.3), (0.05, -0.2)])
    assert whole is part
    (cx, cy), (w, h), _ = end.rect
    assert (cx, cy) == pytest.approx((50.0, 42.5)) and (w, h) == pytest.approx((20.0, 15.0))
    [(_, down)] = _top_ends([part], [(0.0, 0.3)])
    assert down.rect[0][1] == pytest.approx(57.5)
    assert _top_ends([part], [(0.0, 0.05)]) == []  # no clear lean
    assert _top_ends([part], [(0.3, 0.0)]) == []  # the part lies across it
    assert _top_ends([part], []) == []


def test_a_ragged_part_is_read_at_its_core(dice_sets, monkeypatch):
    """A dark die with a white die touching its corner (095503) or its own shadow run into
    it (111457) makes one ragged part of about a die and a half that reads as nothing. The
    die is the part's thickest place: a die-sized square there reads. The white 3 beside
    the 6 of 095503 is still found by its pips (the 6 holds back only its own middle).
    With no point deep enough for a core (CORE_DEPTH out of reach) 095503's 6 is lost."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == "IMG_20191209_095503.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == image.values
    with monkeypatch.context() as m:
        m.setattr(pips, "CORE_DEPTH", 1e9)
        assert read_frame(frame).values == tuple(v for v in image.values if v != 6)
    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == "IMG_20191208_111457.jpg")
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    reading = read_frame(frame)
    boxes = image.boxes(w, h)
    ones = [b for b in boxes if b.value == 1]
    assert len(ones) == 3

    def nearest(d):  # touching dice's boxes overlap: a die is its nearest box's (as scored)
        return min(boxes, key=lambda b: (b.xc - d.box[0][0]) ** 2 + (b.yc - d.box[0][1]) ** 2)

    assert all([d.value for d in reading.dice if b.contains(*d.box[0]) and nearest(d) is b] == [1] for b in ones)


def test_core_square_sits_where_a_die_fits():
    """The square goes to a part's deepest point, a die in size; a part too thin for a die
    anywhere (a cable's end, a strip of a tray's rim) gives none."""
    from vision.bodies import blobs
    from vision.pips import _deepest, _squares

    work = np.full((120, 160, 3), 200, np.uint8)
    mask = np.zeros((120, 160), np.uint8)
    cv2.rectangle(mask, (40, 40), (69, 69), 255, -1)  # a die 30 px, its centre (54.5, 54.5)
    cv2.rectangle(mask, (70, 50), (110, 58), 255, -1)  # its tail
    cv2.rectangle(mask, (20, 100), (140, 108), 255, -1)  # a thin strip
    cv2.rectangle(work, (40, 40), (69, 69), (40, 40, 40), -1)
    part, strip = sorted(blobs(mask, 5), key=lambda b: b.rect[0][1])
    assert _deepest(*strip.filled(1), 30.0, 1) == []
    [sq] = _squares(work, _deepest(*part.filled(1), 30.0, 1), 30.0)
    (cx, cy), (sw, sh), angle = sq.rect
    assert abs(cx - 54.5) <= 1.5 and abs(cy - 54.5) <= 1.5 and (sw, sh) == (30.0, 30.0)
    assert min(abs(angle) % 90, 90 - abs(angle) % 90) < 5  # the die's own edges


def test_leftover_of_a_blob_of_dice_is_searched_for_a_die():
    """Three dice in a row, two of them read: what the blob keeps beyond them holds the
    third's core, and nothing else is deep enough for a die."""
    from vision.bodies import blobs
    from vision.pips import _deepest, _leftover

    mask = np.zeros((80, 160), np.uint8)
    for x in (20, 50, 80):
        cv2.rectangle(mask, (x, 20), (x + 29, 49), 255, -1)
    [blob] = blobs(mask, 5)
    held = []
    for x in (20, 50):
        one = np.zeros_like(mask)
        cv2.rectangle(one, (x, 20), (x + 29, 49), 255, -1)
        held += list(blobs(one, 5)[0].contour[None])
    [(cx, cy)] = _deepest(*_leftover(blob, held, mask), 30.0, 4)
    assert abs(cx - 94.5) <= 1.5 and abs(cy - 34.5) <= 1.5
    assert _deepest(*_leftover(blob, held + [blob.contour], mask), 30.0, 4) == []


@pytest.mark.parametrize("file", ["IMG_20191208_112340.jpg", "IMG_20191208_112342.jpg"])
def test_a_die_the_cut_missed_is_found_in_what_is_left(dice_sets, file, monkeypatch):
    """Dice heaped in byler-d6's tray: the cut around the dice's cores, or the higher level
    it was made at, left one die of the heap out of every part (a 4 in 112340 and 112342).
    What the blob keeps beyond its read parts holds that die's core: a die-sized square
    there reads right; with no leftover core looked for (LEFT_MOST 0) it is missed. The
    heap's area cores (bodies.MORE_LEAST) now find both 4s too: off here. (112704's 5, once
    a case of this rule, reads from its own part now, with both off: dropped.)"""
    import vision.bodies as bodies
    import vision.pips as pips

    at = {"IMG_20191208_112340.jpg": (517, 262), "IMG_20191208_112342.jpg": (518, 260)}[file]
    box, read_in_box = _byler_box(dice_sets, file, at)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(bodies, "MORE_LEAST", 1e9)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "LEFT_MOST", 0)
    assert read_in_box() == []


@pytest.mark.parametrize("file", ["five_15.jpg", "dice_31.jpg", "dice_13.jpg", "two_25.jpg"])
def test_a_whole_die_seen_obliquely_is_read_by_its_top_face(dice_sets, file, monkeypatch):
    """A close, oblique camera sees a whole die, top face and the side face turned to it,
    as one nearly square blob that reads unclear (a 1 on top with a side's pips). In a
    view that leans clearly the top face is the blob's end the read faces lean to: each of
    these frames had one such die unreadable, now every die reads; with no lean clear
    enough for it (TILTED out of reach) that die is a re-roll again."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    frame = cv2.imread(str(image.path))
    reading = read_frame(frame)
    assert reading.values == image.values and not reading.unreadable
    monkeypatch.setattr(pips, "TILTED", 1e9)
    reading = read_frame(frame)
    assert len(reading.values) == len(image.values) - 1 and len(reading.unreadable) == 1


def test_tilted_ends_take_the_axis_along_a_clear_lean():
    """The end along whichever side of the part lies along the lean (here its short one);
    none when the lean is not clear; along the lean's own axis when it runs across the
    part's corners."""
    from vision.bodies import Blob
    from vision.dice import Unreadable
    from vision.pips import _tilted_ends

    rect = ((50.0, 50.0), (30.0, 24.0), 0.0)  # wider than tall; the lean runs along y
    part = Blob(rect, 720.0, np.rint(cv2.boxPoints(rect)).astype(np.int32).reshape(-1, 1, 2))
    u = Unreadable(rect, "unclear")
    [(whole, end, back)] = _tilted_ends([(part, u)], [(0.0, -0.3), (0.02, -0.2)])
    assert whole is part and back is u
    (cx, cy), (along, across), _ = end.rect
    assert (cx, cy) == pytest.approx((50.0, 44.0)) and (along, across) == pytest.approx((12.0, 30.0))
    assert _tilted_ends([(part, u)], [(0.0, 0.12)]) == []  # leans, but not clearly
    [(_, corner, _)] = _tilted_ends([(part, u)], [(0.25, 0.22)])  # across its corners
    (cx, cy), (along, across), angle = corner.rect
    lx, ly = 0.25 / math.hypot(0.25, 0.22), 0.22 / math.hypot(0.25, 0.22)
    assert angle == pytest.approx(math.degrees(math.atan2(ly, lx)))
    off = np.array([cx - 50.0, cy - 50.0])
    assert off @ np.array([lx, ly]) > 0.2 * along and abs(off @ np.array([-ly, lx])) < 1.0  # on the lean, its way
    assert _tilted_ends([(part, u)], []) == []


@pytest.mark.parametrize("file, at", [("IMG_20191208_112353.jpg", (286, 199)), ("IMG_20191208_112926.jpg", (283, 165)),
                                      ("IMG_20191208_112404.jpg", (337, 360))])
def test_a_die_a_read_neighbours_part_took_is_found(dice_sets, file, at, monkeypatch):
    """byler-d6 heaps: the cut around the dice's cores gave a die's part most of the die
    touching it; the part reads as its own die, its face box covering under FACE_COVER of
    it. Holding only that box out of the blob's leftover leaves the neighbour's core to be
    read (a 5, a 2, a 2); holding the whole part (FACE_COVER 0) loses it, when the search
    one die edge on from a read face (REST_BLOB) does not find it either, nor a core of
    its own as the heap's area holds more dice than cores were found (bodies.MORE_LEAST:
    that finds 112353's 5 too)."""
    import vision.bodies as bodies
    import vision.pips as pips

    box, read_in_box = _byler_box(dice_sets, file, at)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "REST_BLOB", 1e9)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(bodies, "MORE_LEAST", 1e9)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "FACE_COVER", 0.0)
    assert read_in_box() == []


def test_a_part_its_face_fills_holds_all_of_itself():
    """_held: a two-dice part read as one die holds only that die's face box; a part its
    face fills, or an unclear part, holds its whole outline."""
    from vision.bodies import Blob
    from vision.dice import Die, Unreadable
    from vision.pips import _held

    rect = ((40.0, 25.0), (60.0, 30.0), 0.0)
    part = Blob(rect, 1800.0, np.rint(cv2.boxPoints(rect)).astype(np.int32).reshape(-1, 1, 2))
    face = Die(3, ((50.0, 50.0), (56.0, 56.0), 0.0), 0.9)  # full-frame pixels; s = 0.5: 28 x 28 working
    box = _held(part, face, 0.5)
    assert cv2.contourArea(box) == pytest.approx(28 * 28, rel=0.05)
    assert cv2.boundingRect(box)[0] == pytest.approx(11, abs=1)
    assert _held(part, Die(3, ((40.0, 50.0), (90.0, 90.0), 0.0), 0.9), 0.5) is part.contour  # 45 x 45 of 60 x 30
    assert _held(part, Unreadable(rect, "unclear"), 0.5) is part.contour


def test_the_gap_a_heap_of_dice_encloses_is_no_die():
    """Eight dice around a die-sized gap of the surface, all read: the blob's outline
    filled would leave the gap, deep enough for a die; the blob's own mask does not."""
    from vision.bodies import blobs
    from vision.pips import _deepest, _leftover

    mask = np.zeros((130, 130), np.uint8)
    cv2.rectangle(mask, (20, 20), (109, 109), 255, -1)
    cv2.rectangle(mask, (50, 50), (79, 79), 0, -1)
    [blob] = blobs(mask, 5)
    held = [np.array([[[x, y]], [[x + 29, y]], [[x + 29, y + 29]], [[x, y + 29]]], np.int32)
            for x in (20, 50, 80) for y in (20, 50, 80) if (x, y) != (50, 50)]
    assert _deepest(*_leftover(blob, held, mask), 30.0, 4) == []
    filled = mask.copy()
    cv2.rectangle(filled, (50, 50), (79, 79), 255, -1)
    [(cx, cy)] = _deepest(*_leftover(blob, held, filled), 30.0, 4)
    assert abs(cx - 64.5) <= 1.5 and abs(cy - 64.5) <= 1.5


@pytest.mark.parametrize("file, at", [("IMG_20191208_112353.jpg", (280, 339))])
def test_a_heap_bigger_than_max_dice_is_searched_when_its_dice_fill_it(dice_sets, file, at, monkeypatch):
    """byler-d6 112353's heap of 13.9 die areas, more than MAX_DICE: the dice read in it
    fill at least HEAP of the blob, so it is a heap, not the tray's rim, and what it keeps
    beyond its read parts holds a 2; with HEAP out of reach it stays missed (so on every
    grid: none, shift1, shift3, turn1). 111803's heap was a case too, but only its photo as
    it is needed HEAP: moved by a pixel its 2 read without it."""
    import vision.pips as pips

    box, read_in_box = _byler_box(dice_sets, file, at)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "HEAP", 1e9)
    assert read_in_box() == []


@pytest.mark.parametrize("file, at", [("IMG_20191208_112332.jpg", (279, 258)), ("IMG_20191208_111642.jpg", (243, 427))])
def test_a_heap_over_max_dice_is_cut_at_its_cores_too(dice_sets, file, at, monkeypatch):
    """byler-d6 112332's heap (34 die areas: a white 1 touching dark dice) and 111642's
    (9-10): the raised levels and the leftover's deepest points miss a die the cut at the
    heap's cores (HEAP_MOST) reads, on every grid (none, shift1, shift3, turn1); with the
    cut only for blobs up to MAX_DICE, as before, it is missed on every grid."""
    import vision.pips as pips
    box, read_in_box = _box_on_grids(dice_sets, "byler-d6", file, at)

    assert read_in_box() == [[box.value]] * 4
    monkeypatch.setattr(pips, "HEAP_MOST", pips.MAX_DICE)
    assert read_in_box() == [[]] * 4


@pytest.mark.parametrize("name, file, at", [("byler-d6", "IMG_20191208_111411.jpg", (293, 133)),
                                            ("byler-d6", "IMG_20191208_112942.jpg", (129, 260))])
def test_a_blob_cut_at_its_cores_has_its_raised_parts_read_too(dice_sets, name, file, at, monkeypatch):
    """byler-d6 111411's 2 by the tray wall, run together with a 1 and a 4 (3.1-3.5 die
    areas), and 112942's 5 beside a 6: the raised levels found fewer die-like parts than the
    blob's area holds, so it was cut at its cores, which missed the die; its raised part
    reads it (RAISED_AGAIN) on every grid (none, shift1, shift3, turn1). Without that,
    111411's 2 is missed on three of them and 112942's 5 on two."""
    import vision.pips as pips
    box, read_in_box = _box_on_grids(dice_sets, name, file, at)

    assert read_in_box() == [[box.value]] * 4
    monkeypatch.setattr(pips, "RAISED_AGAIN", False)
    assert sum(r == [] for r in read_in_box()) >= 2


def test_a_part_its_face_covers_little_of_claims_only_its_face_from_the_pip_seeds(dice_sets, monkeypatch):
    """penlington-wood five_34: two pale 5s, one behind the other in the oblique view,
    make one part that reads as the nearer die, its face box under FACE_COVER of it. The
    pip seeds may take the other die's pips only if the part claims no more than its face
    box: all four 5s read; claiming the whole part (FACE_COVER 0), three. (The strip rule
    and the pair-end rule read the fourth 5 too when FACE_COVER is off, and so do seeds
    whose square runs into the claim, SEED_NEAR: all three are turned off first, so the four
    5s are this rule's reading.)"""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_34.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == image.values == (5, 5, 5, 5)
    monkeypatch.setattr(pips, "STRIP_VALUE", 99)  # a part cut off its strip reads that die too
    monkeypatch.setattr(pips, "PAIR_END_LEAST", 99)  # as does a long part's end
    monkeypatch.setattr(pips, "SEED_NEAR", pips.SEED_OVERLAP)  # and a seed by the part's claim
    assert read_frame(frame).values == (5, 5, 5, 5)
    monkeypatch.setattr(pips, "FACE_COVER", 0.0)
    assert read_frame(frame).values == (5, 5, 5)


def test_a_die_a_softer_picture_washed_out_is_read(dice_sets, monkeypatch):
    """byler-d6 095919 blurred (sigma 1 px, as a softer lens would): two dark red dice with
    dark red pips spread only 13-16 Lab inside their outlines (42-55 as shot), under the
    old floor for a plain blob; read as a layout of pips, the 4 and a 5 are found. With
    that floor back (PLAIN at MIN_SPREAD: no plain blob is read) they are not."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == "IMG_20191209_095919.jpg")
    frame = cv2.GaussianBlur(cv2.imread(str(image.path)), (0, 0), 1.0)
    h, w = frame.shape[:2]
    boxes = {(int(b.xc), int(b.yc)): b.value for b in image.boxes(w, h)}

    def washed() -> list[tuple[int, int]]:
        reading = read_frame(frame)
        found = {(int(b.xc), int(b.yc)): [d.value for d in reading.dice if b.contains(*d.box[0])]
                 for b in image.boxes(w, h)}
        return [at for at, v in boxes.items() if found[at] == [v] and v in (4, 5)]

    assert len(washed()) >= 2
    monkeypatch.setattr(pips, "PLAIN", pips.MIN_SPREAD)
    assert len(washed()) < 2


def _plain_die(pip_grey: int, pips: list[tuple[int, int]]):
    """A grey 60 px die on a paler surface, its pips dark grey discs: (frame, mask, blob)."""
    from vision.bodies import blobs

    frame = np.full((240, 240, 3), 200, np.uint8)
    cv2.rectangle(frame, (100, 100), (159, 159), (165, 165, 165), -1)
    for p in pips:
        cv2.circle(frame, p, 6, (pip_grey,) * 3, -1)
    mask = np.zeros((240, 240), np.uint8)
    cv2.rectangle(mask, (100, 100), (159, 159), 255, -1)
    return frame, mask, blobs(mask, 5)[0]


def test_a_plain_blob_counts_only_as_a_layout_of_pips():
    """Between PLAIN and MIN_SPREAD a compact blob is read: two faint pips are a 2, one dark
    spot (a stud, the tray's corner, as much as a 1) is nothing; below PLAIN nothing is read."""
    import vision.pips as pips

    def spread_and_face(frame, mask, blob):
        patch, m = pips.crop_die(frame, blob.rect[0], 60, 0)
        pmask = cv2.warpAffine(mask, m, (pips.CROP, pips.CROP))
        return pips._spread(patch, pmask), pips.read_face(patch, pmask).value

    two = _plain_die(108, [(115, 115), (145, 145)])
    assert pips.PLAIN < spread_and_face(*two)[0] <= pips.MIN_SPREAD
    read = pips._read_blob(two[0], two[2], 1.0, 60.0)
    assert type(read).__name__ == "Die" and read.value == 2
    one = _plain_die(90, [(130, 130)])
    spread, face = spread_and_face(*one)
    assert pips.PLAIN < spread <= pips.MIN_SPREAD and face == 1
    assert pips._read_blob(one[0], one[2], 1.0, 60.0) is None
    faint = _plain_die(120, [(115, 115), (145, 145)])
    assert spread_and_face(*faint)[0] <= pips.PLAIN
    assert pips._read_blob(faint[0], faint[2], 1.0, 60.0) is None


@pytest.mark.parametrize("file, change", [("four_16.jpg", "warm"), ("three_45.jpg", "blur"), ("three_27.jpg", "blur")])
def test_a_side_face_beside_a_read_die_is_no_die(dice_sets, file, change, monkeypatch):
    """penlington-wood: pale dice on pale wood seen obliquely; a die's side face shows its
    pips and no outline, a lone blob smaller than a die beside the die read from its top
    face. Under a warmer white balance or a 1 px blur it read as a die of its own (an extra
    die: a re-roll every time); its face lies within NEAR die edges of the read die's."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    frame = cv2.imread(str(image.path))
    if change == "warm":
        frame = cv2.convertScaleAbs(frame * np.array([0.8, 1.0, 1.15]))
    else:
        frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    assert read_frame(frame).values == image.values
    monkeypatch.setattr(pips, "NEAR", 0.0)
    assert len(read_frame(frame).dice) == len(image.values) + 1


def test_two_pale_dice_run_together_are_read_by_their_pips(dice_sets, monkeypatch):
    """penlington-wood five_20: two pale 5s a hair apart; the closed mask runs them into one
    part of 1.44 die areas (under SEVERAL, not cut), which reads unclear. Their pips link into
    one group of ten (nearest pips under SEED_LINK apart): cut in two at the widest gap, the
    pip seeds read both 5s, and the unclear part they lie in goes (no re-roll)."""
    import vision.pips as pips
    import vision.spots as spots

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_20.jpg")
    frame = cv2.imread(str(image.path))
    reading = read_frame(frame)
    assert reading.values == (5, 5) and not reading.unreadable
    # the part claims the pips from the seeds: the part is unclear, no die read (nor one
    # of the two read at the part's ends, as a lone oblique die is)
    monkeypatch.setattr(pips, "PAIR", 1e9)
    monkeypatch.setattr(pips, "END_SPANS", ())
    reading = read_frame(frame)
    assert reading.values == () and len(reading.unreadable) == 1
    # the pips' group is not cut: one group of ten, no seed
    monkeypatch.setattr(pips, "PAIR", 1.4)
    monkeypatch.setattr(pips, "SPLIT_GAP", 1e9)
    monkeypatch.setattr(spots, "GROW", 0.0)  # the patch grown a little (spots.GROW) reads a 1 of the ten pips
    assert read_frame(frame).values == ()


def test_a_group_of_two_dices_pips_is_cut_at_its_widest_gap():
    """Two dice's pips (a 5 and a 4, 1.2 die edges apart) linked into one group are cut
    between the dice; one die's pips (a 6 and a stray spot, pips 0.3 apart) are not."""
    from vision.pips import _two

    die = 30.0
    five = [(0, 0), (9, 0), (0, 9), (9, 9), (4.5, 4.5)]
    four = [(x, y + 1.2 * die) for x, y in [(0, 0), (9, 0), (0, 9), (9, 9)]]
    parts = _two(np.array(five + four, np.float32), die)
    assert sorted(len(p) for p in parts) == [4, 5]
    assert {tuple(map(float, q)) for q in parts[0]} in ({tuple(map(float, q)) for q in np.float32(five)},
                                                       {tuple(map(float, q)) for q in np.float32(four)})
    six = [(0, 0), (0, 9), (0, 18), (9, 0), (9, 9), (9, 18), (4.5, 27)]
    assert len(_two(np.array(six, np.float32), die)) == 1
    assert len(_two(np.array(five, np.float32), die)) == 1


@pytest.mark.parametrize("file, change", [("six_43.jpg", "blur"), ("six_54.jpg", "jpeg")])
def test_a_cables_plug_by_its_tail_is_no_1(dice_sets, file, change, monkeypatch):
    """penlington-wood: a cable with its plug and label is a blob of 6-9 die areas; the part
    by its tail, blurred by 1 px or saved as JPEG 40, read as a 1 (one dark spot: the plug's
    hole, the label's print), an extra die. A tail part of a blob over TAIL_ONE die areas
    counts only as a 2 or more."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    frame = cv2.imread(str(image.path))
    if change == "blur":
        frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    else:
        frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], cv2.IMREAD_COLOR)
    h, w = frame.shape[:2]

    def off_labels(reading):
        return [d.value for d in reading.dice if not any(b.contains(*d.box[0]) for b in image.boxes(w, h))]

    assert off_labels(read_frame(frame)) == []
    monkeypatch.setattr(pips, "TAIL_ONE", 1e9)
    monkeypatch.setattr(pips, "UNLIKE_DARKER", 1e9)  # the plug's face is unlike the pale 6s too
    assert off_labels(read_frame(frame)) == [1]


def test_a_tail_part_of_a_small_blob_may_be_a_1():
    """byler-d6: a die with its shadow or a touching speck is a blob of 1.7-3.6 die areas,
    and the 1 read from the part by its tail is right; only a long blob's 1 is dropped."""
    from vision.dice import Unreadable
    from vision.pips import TAIL_ONE, _tail_die

    one, two = Die(1, ((0.0, 0.0), (20.0, 20.0), 0.0), 0.9), Die(2, ((0.0, 0.0), (20.0, 20.0), 0.0), 0.9)
    assert _tail_die(one, 3.6) and _tail_die(two, 3.6) and _tail_die(two, 7.5)
    assert not _tail_die(one, 6.5) and not _tail_die(None, 3.0)
    assert not _tail_die(Unreadable(((0.0, 0.0), (20.0, 20.0), 0.0), "unclear"), 3.0)
    assert 3.6 < TAIL_ONE < 6.5


def test_the_second_die_of_a_pair_read_as_one_is_found_by_its_pips(dice_sets, monkeypatch):
    """penlington-wood five_19: two pale 5s run into one part of 1.63 die areas, which reads
    as the upper 5; its face box is all the part claims, but with the SEED_CLEAR margin
    around it the claim ran into the lower 5's square (9 % of it) and that 5 went unread.
    A pair-sized part's face box is claimed with no margin. (A seed whose square runs into
    the claim, SEED_NEAR, reads the lower 5 too: it is off here, so the 5 is this rule's.)"""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "five_19.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == (5, 5)
    monkeypatch.setattr(pips, "SEED_NEAR", pips.SEED_OVERLAP)
    assert read_frame(frame).values == (5, 5)
    monkeypatch.setattr(pips, "PAIR", 1e9)
    assert read_frame(frame).values == (5,)


@pytest.mark.parametrize("file", ["six_2.jpg", "five_7.jpg", "dice_9.jpg"])
def test_a_lone_oblique_die_is_read_by_its_ends(dice_sets, file, monkeypatch):
    """penlington-wood: one pale die seen obliquely, its top face and a side face in one
    blob, reads unclear as a whole; no other die is read, so the frame's lean cannot tell
    which end is the top face. Most of its ends (half and 0.6 of it along either axis, at
    either end) read the top face: the top face's end and the lengthwise ends, which the
    larger face's pips rule. Without the ends it is a re-roll (with the coarse reading at
    about the same die size off: it reads six_2's die whole, and dice_9's 1 as a 2; and the
    spot reader's streak skip, spots.SKIP_FLAT, off: it reads five_7's die whole, its side
    face's flat pip passed over; both are turned off first, so what reads then is the ends'
    reading)."""
    import vision.pips as pips
    import vision.spots as spots

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    frame = cv2.imread(str(image.path))
    reading = read_frame(frame)
    assert reading.values == image.values and not reading.unreadable
    monkeypatch.setattr(pips, "COARSE_SAME", pips.COARSE_GROW)
    monkeypatch.setattr(spots, "SKIP_FLAT", 99.0)
    reading = read_frame(frame)
    assert reading.values == image.values and not reading.unreadable
    monkeypatch.setattr(pips, "END_SPANS", ())
    reading = read_frame(frame)
    assert reading.values == () and len(reading.unreadable) == 1


def test_ends_agree_only_along_both_axes_by_most_and_not_at_both_ends_of_each(monkeypatch):
    """A value read only at the ends along one axis (a cable's or a keyboard's unclear part:
    one dark spot at either end) is no die; nor is one read by no more ends than the
    others together (penlington-wood four_30: a 4 whose side shows a 6, 6 at half spans,
    4 at 0.6); nor one read at both ends of each axis (a face seen square on: its halves).
    When no half reads, the longer ends are not read (a cable's parts: half the cost)."""
    import vision.pips as pips

    part = pips._rect_blob(((50.0, 50.0), (30.0, 24.0), 0.0))

    def reads(values):
        it = iter(values)

        def read(frame, blob, s, die):
            v = next(it)
            return None if v is None else Die(v, (blob.rect[0], (10.0, 10.0), 0.0), 0.5)
        return read

    frame = np.zeros((100, 100, 3), np.uint8)
    # order: span 0.5 (axis 0: +, -; axis 1: +, -), then span 0.6 likewise
    monkeypatch.setattr(pips, "_read_blob", reads([6, None, 6, 6, 6, None, None, 1]))
    assert pips._ends_agree(frame, part, 1.0, 24.0).value == 6
    monkeypatch.setattr(pips, "_read_blob", reads([1, 1, None, None, 1, 1, None, None]))
    assert pips._ends_agree(frame, part, 1.0, 24.0) is None  # one axis only
    monkeypatch.setattr(pips, "_read_blob", reads([6, 6, None, 6, 4, 4, 4, None]))
    assert pips._ends_agree(frame, part, 1.0, 24.0) is None  # 3 of 6: no majority
    monkeypatch.setattr(pips, "_read_blob", reads([2, 2, 2, 2, None, None, None, None]))
    assert pips._ends_agree(frame, part, 1.0, 24.0) is None  # both ends of both axes: a 4's halves
    monkeypatch.setattr(pips, "_read_blob", reads([None, None, None, None, 3, None, 3, None]))
    assert pips._ends_agree(frame, part, 1.0, 24.0) is None  # no half reads: the 0.6 spans are not read


def test_a_face_seen_square_on_is_not_read_by_its_ends(dice_sets, monkeypatch):
    """byler-d6 112710: a 6 from straight above reads unclear; its ends read 4s (a 6's end
    holds four of its pips, as it is cut), at both ends of one axis and one of the other. The frame's read
    faces sit on their parts' centres (no lean over LEAN): the view is not oblique, and
    the part is not cut into ends (a re-roll, not a wrong 4)."""
    import vision.pips as pips
    import vision.spots as spots

    # the 6 whose middle pip sank into one bar (spots.BAR_THREE) is read: off, to test its ends
    monkeypatch.setattr(spots, "BAR_THREE", 2)
    box, near = _byler_box(dice_sets, "IMG_20191208_112710.jpg", (422, 317))
    # the ends' 4s are held midway, a 6's ends (spots._sides_held): turned away, they would
    # leave nothing here to tell a square-on view by (and with them on, this test passed
    # with LEAN off)
    monkeypatch.setattr(spots, "SIDES_6", 99.0)
    assert box.value == 6 and near() == []
    monkeypatch.setattr(pips, "LEAN", -1.0)  # every view oblique
    assert near() == [4]


def test_one_read_face_does_not_tell_a_straight_down_view(dice_sets, monkeypatch):
    """penlington-wood six_20: two 6s, one read; the other, seen obliquely, reads unclear.
    The one read face sits on its part's centre (lean 0.03), which alone says little of
    the view (a face's part may hold its shadow): under VIEW_FACES read faces the view may
    be oblique and the unclear part is read at its ends. (Taken for a view from straight
    above, its part, over LOOSE die edges long, is read at its deepest point: LOOSE off,
    first, so the two 6s are the ends' reading; with LOOSE on the test passed with
    VIEW_FACES 1.)"""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "six_20.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == (6, 6)
    monkeypatch.setattr(pips, "LOOSE", 99.0)
    monkeypatch.setattr(pips, "TURN", False)  # (nor read again as its die's square)
    assert read_frame(frame).values == (6, 6)
    monkeypatch.setattr(pips, "VIEW_FACES", 1)
    assert read_frame(frame).values == (6,)


def test_an_oblique_part_read_as_nothing_with_no_lean_is_read_by_its_ends(dice_sets, monkeypatch):
    """penlington-wood two_5: a lone pale 2 seen obliquely; its blob (top face, a side face
    and its pips) is long and ragged and reads as nothing; no read die leans to tell its top
    end (_top_ends). Its ends read the 2."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "two_5.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == (2,)
    monkeypatch.setattr(pips, "END_SPANS", ())
    assert read_frame(frame).values == ()


def test_a_face_that_runs_out_of_the_view_is_no_die(dice_sets, monkeypatch):
    """penlington-wood four_16: two 4s; a plastic bag's ragged blob by the top edge read as a
    3 whose face, 5 px from the edge and 52 px a side, runs out of the camera's view. Part
    of a face is no die, as a blob cut by the view edge is not read."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "four_16.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == (4, 4)
    # a region (the tray) whose edge is not the camera's keeps such a face
    h, w = frame.shape[:2]
    assert read_frame(frame[1:, :]).values == (4, 4)
    assert 3 in read_frame(frame, roi=(0, 1, w, h - 1)).values
    monkeypatch.setattr(pips, "_face_cut", lambda *a: False)
    import vision.spots as spots

    monkeypatch.setattr(spots, "PATCH_EDGE", 0.0)  # (the 3's layout takes a peak on the crop's edge: spots.PATCH_EDGE)
    assert read_frame(frame).values == (3, 4, 4)


@pytest.mark.parametrize("file, at", [("IMG_20191209_100043.jpg", (257, 248)), ("IMG_20191208_112025.jpg", (266, 239))])
def test_a_pale_die_a_dark_ones_blob_took_in_is_found(dice_sets, file, at, monkeypatch):
    """byler-d6: a white die touching a black one; only the white die's rim and pips differ
    from the pale surface, and they join the black die's blob (2.3 and 1.8 die areas) with
    no core of their own. The blob reads as the black die; what it keeps beyond that face
    lies on the white die's side, one die edge on: a 3 and a 2. Not looking there
    (REST_BLOB out of reach) leaves them missed."""
    import vision.pips as pips

    box, read_in_box = _byler_box(dice_sets, file, at)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "REST_BLOB", 1e9)
    assert read_in_box() == []


@pytest.mark.parametrize("file", ["two_20.jpg", "two_39.jpg"])
def test_a_pale_dies_own_side_face_is_no_neighbour(dice_sets, file, monkeypatch):
    """penlington-wood: a pale die seen obliquely is one blob with its side face, which
    shows pips; beyond the read top face it keeps that side face, where a 3 reads (an extra
    die). A pale die differs from the wood by 12-18 (REST_BODY 36): no neighbour is looked
    for by it."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    frame = cv2.imread(str(image.path))
    base = read_frame(frame).values
    assert base == image.values
    monkeypatch.setattr(pips, "REST_BODY", 0.0)
    assert read_frame(frame).values == tuple(sorted(base + (3,)))


def test_a_lone_spot_by_a_read_die_is_no_neighbour(dice_sets, monkeypatch):
    """byler-d6 095919: dark red dice with dark red pips; one die edge on from a read die a
    square reads as a 1 where a 4 lies (one pip of it at the square's edge). A neighbour
    counts as a 2 or more (REST_LEAST). (The 4 has a core of its own now, as the heap's
    area holds more dice than cores were found: bodies.MORE_LEAST; without it, as before.)"""
    import vision.bodies as bodies
    import vision.pips as pips

    box, read_in_box = _byler_box(dice_sets, "IMG_20191209_095919.jpg", (261, 390))
    assert read_in_box() == [box.value] == [4]
    monkeypatch.setattr(bodies, "MORE_LEAST", 1e9)
    assert read_in_box() == []
    monkeypatch.setattr(pips, "REST_LEAST", 1)
    assert read_in_box() == [1]


def test_no_neighbour_is_looked_for_on_the_cameras_side_in_a_leaning_view():
    """_neighbours on a drawn blob: a dark die's face with a piece of blob one die edge
    below it. With no lean the piece is looked at (one square, a die edge below the face);
    in a view leaning up (read faces lie above their parts' centres, the camera below) the
    piece is the die's own side face, on the camera's side (REST_SIDE): nothing."""
    from vision.bodies import blobs
    from vision.pips import _box, _neighbours

    die = 30.0
    work = np.full((200, 200, 3), 200, np.uint8)
    mask = np.zeros((200, 200), np.uint8)
    cv2.rectangle(mask, (85, 40), (114, 69), 255, -1)  # the read die
    cv2.rectangle(mask, (85, 70), (114, 99), 255, -1)  # what its blob keeps below its face
    dist = np.where(mask > 0, 80.0, 0.0).astype(np.float32)  # a die that stands out
    [blob] = blobs(mask, 5)
    face = _box(((99.5, 54.5), (28.0, 28.0), 0.0))
    [sq] = _neighbours(work, mask, dist, [(blob, [face], [])], die, None)
    (cx, cy), _, _ = sq.rect
    assert abs(cx - 99.5) <= 2 and abs(cy - (54.5 + die)) <= 3
    assert _neighbours(work, mask, dist, [(blob, [face], [])], die, (0.0, -0.3, 0.3)) == []
    assert len(_neighbours(work, mask, dist, [(blob, [face], [])], die, (0.3, 0.0, 0.3))) == 1  # across it: looked at


def test_a_neighbour_is_looked_for_from_read_faces_only():
    """_neighbours on a drawn blob: a dark die's read face, below it a pale part that read
    unclear (a re-roll is asked there), below that a piece of blob. The search starts from
    the read face (the unclear part is only cut away): one square, on the piece. Counting
    the unclear part as a face made it the nearest, and its pale body (under REST_BODY)
    stopped the search."""
    from vision.bodies import blobs
    from vision.pips import REST_BODY, _box, _neighbours

    die = 30.0
    work = np.full((240, 200, 3), 200, np.uint8)
    mask = np.zeros((240, 200), np.uint8)
    cv2.rectangle(mask, (85, 40), (114, 69), 255, -1)  # the read die
    cv2.rectangle(mask, (85, 70), (114, 99), 255, -1)  # the unclear part
    cv2.rectangle(mask, (85, 100), (114, 129), 255, -1)  # what the blob keeps beyond both
    dist = np.where(mask > 0, 80.0, 0.0).astype(np.float32)
    dist[70:100, 85:115] = REST_BODY / 2  # the unclear part is pale
    [blob] = blobs(mask, 5)
    face = _box(((99.5, 54.5), (28.0, 28.0), 0.0))
    vague = _box(((99.5, 84.5), (30.0, 30.0), 0.0))
    [sq] = _neighbours(work, mask, dist, [(blob, [face], [vague])], die, None)
    (cx, cy), _, _ = sq.rect
    assert abs(cx - 99.5) <= 2 and abs(cy - 114.5) <= 3
    assert _neighbours(work, mask, dist, [(blob, [face, vague], [])], die, None) == []  # as before


def test_a_die_read_where_a_reroll_was_asked_is_that_die():
    """_on_unclear: a die whose centre lies in an Unreadable's box is that die (read_frame
    drops the re-roll for one die there, so no die comes out both read and unreadable)."""
    from vision.dice import Unreadable
    from vision.pips import _on_unclear

    u = Unreadable(((100.0, 100.0), (40.0, 40.0), 30.0), "unclear")
    assert _on_unclear(Die(3, ((110.0, 95.0), (30.0, 30.0), 0.0), 1.0), [u])
    assert not _on_unclear(Die(3, ((135.0, 100.0), (30.0, 30.0), 0.0), 1.0), [u])
    assert not _on_unclear(Die(3, ((110.0, 95.0), (30.0, 30.0), 0.0), 1.0), [])


def test_a_neighbour_of_a_read_die_by_an_unclear_part_reads(dice_sets, monkeypatch):
    """byler-d6 111642 read in a region: the 3 at (169, 377) touches a die whose part read
    unclear; searched from that unclear part the neighbour was not looked at. From the
    read face it reads as the 3. The heap's area cores (bodies.MORE_LEAST) and the raised
    parts of a blob cut at its cores (RAISED_AGAIN) now read it too: off here; then with no
    neighbour search (REST_BLOB out of reach) it is missed.
    (That the search starts from read faces only is shown on a drawn blob:
    test_a_neighbour_is_looked_for_from_read_faces_only.)"""
    import vision.bodies as bodies
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == "IMG_20191208_111642.jpg")
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    [box] = [b for b in image.boxes(w, h) if (int(b.xc), int(b.yc)) == (169, 377)]

    def read_in_box() -> list[int]:
        return [d.value for d in read_frame(frame, roi=(60, 40, 500, 380)).dice if box.contains(*d.box[0])]

    assert read_in_box() == [3]
    monkeypatch.setattr(bodies, "MORE_LEAST", 1e9)
    monkeypatch.setattr(pips, "RAISED_AGAIN", False)
    assert read_in_box() == [3]
    monkeypatch.setattr(pips, "REST_BLOB", 1e9)
    assert read_in_box() == []


@pytest.mark.parametrize("at", [(252, 232), (394, 159)])
def test_a_ragged_part_of_two_dice_is_searched_beside_the_die_its_core_read(dice_sets, at, monkeypatch):
    """byler-d6 111457: a black 1 touching a red 2, and a gold 1 touching a purple 5, make
    ragged parts of 1.6 and 1.4 die areas that read as nothing; the square at each part's
    deepest point reads the 1, and the part's other die lies one die edge on from that face:
    the 2 and the 5. Not looking beside faces (REST_BLOB out of reach) leaves them missed."""
    import vision.pips as pips

    box, read_in_box = _byler_box(dice_sets, "IMG_20191208_111457.jpg", at)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "REST_BLOB", 1e9)
    assert read_in_box() == []


def test_an_unclear_part_turned_to_its_corner_is_cut_along_the_lean(dice_sets, monkeypatch):
    """penlington-wood three_34: four 3s seen obliquely, the view leaning clearly up the
    frame. One die turned half way reads unclear as a whole; its nearer side lies 36
    degrees off the lean (dot 0.81), and its end along that side reads nothing. Its sides
    both over acos(TILT_COS) 0.9 off the lean, its end is taken along the lean's own axis
    and reads the 3; with TILT_COS at the old 0.8 (the side's end) it stays a re-roll."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "three_34.jpg")
    frame = cv2.imread(str(image.path))
    reading = read_frame(frame)
    assert reading.values == image.values and not reading.unreadable
    monkeypatch.setattr(pips, "TILT_COS", 0.8)
    reading = read_frame(frame)
    assert reading.values == (3, 3, 3) and len(reading.unreadable) == 1


def test_a_top_ends_2_nearer_the_camera_is_a_1_and_a_side_pip(dice_sets, monkeypatch):
    """penlington-wood dice_27: three 1s seen very obliquely, the view leaning up the frame.
    The die at (325, 85) reads unclear as a whole; its top-face end reaches into the side
    face and reads a 2 (the 1 and the side's nearest pip) centred 0.19 die edges toward
    the camera from the end's centre: a re-roll, not a 2. two_29's 2s read at their ends
    lie within 0.06 of it (TWO_NEAR 0.14): at 0 one of them is lost."""
    import vision.pips as pips

    images = {i.file: i for i in load_set(dice_sets / "penlington-wood")}
    frame = cv2.imread(str(images["dice_27.jpg"].path))
    reading = read_frame(frame)
    assert reading.values == (1, 1) and len(reading.unreadable) == 1
    (ux, uy), _, _ = reading.unreadable[0].box
    assert abs(ux - 325) < 20 and abs(uy - 100) < 25
    twos = cv2.imread(str(images["two_29.jpg"].path))
    assert read_frame(twos).values == (2, 2, 2)
    monkeypatch.setattr(pips, "TWO_NEAR", 1e9)
    assert sorted(read_frame(frame).values) == [1, 1, 2]
    monkeypatch.setattr(pips, "TWO_NEAR", 0.0)
    assert read_frame(twos).values == (2, 2)


def test_a_die_read_by_its_heaps_area_counts_apart_from_the_others(dice_sets, monkeypatch):
    """byler-d6 112911: a red 1 bigger than the typical die, with its shadow and the teal
    and blue dice by it, is a blob of 2.5 die areas: the core its area called for (bodies.
    MORE_LEAST) cut the 1 in two, and its lower half read as a 2 inside the 1's box. A die
    read around such a core counts AREA_APART die edges from every other die read."""
    import vision.pips as pips

    import vision.spots as spots

    box, read_in_box = _byler_box(dice_sets, "IMG_20191208_112911.jpg", (251, 143))
    assert read_in_box() == [box.value] == [1]
    monkeypatch.setattr(pips, "AREA_APART", 0.0)
    monkeypatch.setattr(spots, "HUE_GLINTS", ())  # (the lower half's 2 is one the glints rule turns away too,
    monkeypatch.setattr(spots, "PATCH_EDGE", 0.0)  # and it takes a peak on the crop's edge: spots.PATCH_EDGE)
    assert sorted(read_in_box()) == [1, 2]


def test_pip_seeds_keep_less_clear_of_read_dice_in_a_straight_down_view(dice_sets, monkeypatch):
    """byler-d6 111718: a pale 2 touching read dice in a heap, seen from straight above.
    SEED_CLEAR keeps pip seeds half a die edge clear of what was read, for the side faces
    an oblique camera sees (penlington-wood); from above no side face shows, and the 2's
    pips lay within that margin: with SEED_CLEAR_DOWN it is read. (The cut of the heap at
    its cores, HEAP_MOST, reads it too, and so do seeds whose square runs into a read die,
    SEED_NEAR: both are off here, so the 2 is this rule's.)"""
    import vision.pips as pips

    box, read_in_box = _byler_box(dice_sets, "IMG_20191208_111718.jpg", (208, 365))
    assert read_in_box() == [box.value] == [2]
    monkeypatch.setattr(pips, "HEAP_MOST", pips.MAX_DICE)
    monkeypatch.setattr(pips, "SEED_NEAR", pips.SEED_OVERLAP)
    assert read_in_box() == [2]
    monkeypatch.setattr(pips, "SEED_CLEAR_DOWN", pips.SEED_CLEAR)
    assert read_in_box() == []


@pytest.mark.parametrize("file, at", [("IMG_20191208_112353.jpg", (325, 248)), ("IMG_20191209_095919.jpg", (261, 390)),
                                      ("IMG_20191208_111628.jpg", (478, 153))])
def test_no_reroll_is_asked_where_a_heaps_area_core_read_its_die(dice_sets, file, at, monkeypatch):
    """byler-d6 heaps: the part around a heap's one core (where three dice meet) reads
    unclear; the die labelled at `at` (a 3, a 4, a 1) gets a core only because the heap's
    area calls for more (bodies.MORE_LEAST), and reads inside that part's box. The re-roll
    was asked for that die: it is dropped, so no box a re-roll is asked for holds a die
    read. With no re-roll dropped for a die read in its box (_on_unclear never true) the
    re-roll's box holds that die; with MORE_LEAST out of reach as well the die is not read
    at all (and no re-roll box holds a die again: MORE_LEAST off alone cannot show the drop,
    so the drop is switched off first)."""
    import vision.bodies as bodies
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "byler-d6") if i.file == file)
    frame = cv2.imread(str(image.path))
    boxes = image.boxes(*frame.shape[1::-1])
    [box] = [b for b in boxes if (int(b.xc), int(b.yc)) == at]

    def read() -> tuple[list[int], list[int]]:
        """The values read nearest the labelled box (touching dice's boxes overlap: a die is
        its nearest box's, as scored), and those read inside a re-roll's box."""
        reading = read_frame(frame)
        rerolls = [cv2.boxPoints(u.box).astype(np.float32) for u in reading.unreadable]
        in_reroll = [d.value for r in rerolls for d in reading.dice
                     if cv2.pointPolygonTest(r, (float(d.box[0][0]), float(d.box[0][1])), False) >= 0]
        near = [d.value for d in reading.dice
                if min(boxes, key=lambda b: (b.xc - d.box[0][0]) ** 2 + (b.yc - d.box[0][1]) ** 2) is box]
        return near, in_reroll

    assert read() == ([box.value], [])
    monkeypatch.setattr(pips, "_on_unclear", lambda die, unreadable: False)
    assert read() == ([box.value], [box.value])
    monkeypatch.setattr(bodies, "MORE_LEAST", 1e9)
    assert read() == ([], [])


@pytest.mark.parametrize("file, at", [("IMG_20191208_111228.jpg", (392, 143)), ("IMG_20191209_100127.jpg", (214, 227)),
                                      ("IMG_20191209_100127.jpg", (252, 213))])
def test_a_long_part_seen_from_straight_above_is_two_dice_read_at_its_ends(dice_sets, file, at, monkeypatch):
    """byler-d6 111228 (a blue 4 and a dark 1 against the tray wall) and 100127 (a 6 and a
    4 touching): cut as one long part at a raised level (1.2 die areas), which reads as
    nothing. From straight above no die shows a side face, so a long part is two dice: the
    die-sized square at either end of its long axis reads one. With PAIR_END_LEAST out of
    reach, missed. (100127's two dice's pips make one group too big for a die, which tried
    again with its dark spots, SEED_FAINT, reads both too: that is off here.)"""
    import vision.pips as pips

    box, read_in_box = _byler_box(dice_sets, file, at)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "SEED_FAINT", 0.0)
    assert read_in_box() == [box.value]
    monkeypatch.setattr(pips, "PAIR_END_LEAST", 99)
    assert read_in_box() == []


def test_a_pair_ends_2_is_a_4s_half(dice_sets, monkeypatch):
    """byler-d6 112340: a long part's end square over a 4 takes in two of its pips and reads
    2, and the 4 read there later (by its pip seeds) is lost: an end counts showing
    PAIR_END_LEAST 3 or more. (vision.spots' own levels on the hue map, OWN_SURE, read
    the whole 4 in that end square: turned off to keep the 2 this rule is for.)"""
    import vision.pips as pips
    import vision.spots as spots

    monkeypatch.setattr(spots, "OWN_SURE", 99.0)
    box, read_in_box = _byler_box(dice_sets, "IMG_20191208_112340.jpg", (517, 262))
    assert read_in_box() == [4]
    monkeypatch.setattr(pips, "PAIR_END_LEAST", 2)
    monkeypatch.setattr(spots, "PATCH_EDGE", 0.0)  # (past the peaks on its crop's edge the end square reads the 4 too)
    assert read_in_box() == [2]


def _changed(dice_sets, name, file, change):
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / name) if i.file == file)
    return image, CHANGES[change](cv2.imread(str(image.path)))


def test_a_long_parts_end_by_a_read_die_is_its_side_face(dice_sets, monkeypatch):
    """penlington-wood six_20 under gamma1.5: an oblique view whose read faces happen not
    to lean is taken for one from straight above; a 6's part with its side face is long,
    and its side end reads a 5 (at both ends: two 5s) 0.85 die edges from the 6. An end
    counts PAIR_END_APART (1.0) die edges or more from every die read."""
    import vision.pips as pips

    image, frame = _changed(dice_sets, "penlington-wood", "six_20.jpg", "gamma1.5")
    assert read_frame(frame).values == image.values == (6, 6)
    monkeypatch.setattr(pips, "PAIR_END_APART", 0.0)
    assert len(read_frame(frame).dice) > len(image.values)


def test_a_cables_long_part_is_not_read_at_its_ends(dice_sets, monkeypatch):
    """penlington-wood five_38 under noise8: a cable's plug by the frame's edge, a long part
    of a blob with a tail (the cable), read a 6 at its end. A long part of a blob with a
    tail is not read at its ends; PAIR_END_LEAST 3 alone does not keep it out. With the
    tail parts dropped by the cut (split_at_cores given no by_tail list, as before a part
    by a tail was kept) the reader does not know the blob has a tail: the plug's end reads
    the 6, and that 6 is the pair-end rule's (gone with PAIR_END_LEAST out of reach)."""
    import vision.bodies as bodies
    import vision.exposure as exposure
    import vision.pips as pips

    # on the noise as it is: smoothed (vision.exposure.DENOISE), the plug's end reads no 6 with these rules off either
    monkeypatch.setattr(exposure, "DENOISE", False)
    image, frame = _changed(dice_sets, "penlington-wood", "five_38.jpg", "noise8")
    assert read_frame(frame).values == image.values == (5, 5, 5, 5)
    cut = bodies.split_at_cores
    monkeypatch.setattr(pips, "split_at_cores",
                        lambda blob, mask, die, by_tail=None, in_view=True: cut(blob, mask, die, None, in_view))
    monkeypatch.setattr(pips, "UNLIKE_DARKER", 1e9)  # the plug's face is unlike the pale 5s too
    assert read_frame(frame).values == (5, 5, 5, 5, 6)
    monkeypatch.setattr(pips, "PAIR_END_LEAST", 99)
    assert read_frame(frame).values == image.values


@pytest.mark.parametrize("file,change", [("IMG_20191208_112353.jpg", "scale0.8"), ("IMG_20191208_111304.jpg", "dark0.6")])
def test_a_die_read_by_a_long_parts_end_is_not_read_again_by_a_core(dice_sets, monkeypatch, file, change):
    """byler-d6: a long part read at its ends (or with its strip cut off) stays in its
    blob's leftover; a core placed there read the same 4 a second time (0.01 and 0.12 die
    edges apart). A core square's die counts TWICE die edges from every die read."""
    import vision.pips as pips

    def twice(reading):
        d = [x.box[0] for x in reading.dice]
        return [(a, b) for i, a in enumerate(d) for b in d[i + 1:] if math.dist(a, b) < 0.3 * reading.die_size_px]

    _, frame = _changed(dice_sets, "byler-d6", file, change)
    assert twice(read_frame(frame)) == []
    monkeypatch.setattr(pips, "TWICE", 0.0)
    assert twice(read_frame(frame)) != []


def test_oblique_dice_with_no_face_read_are_read_at_their_ends_up_the_picture(dice_sets, monkeypatch):
    """penlington-wood dice_42: five pale 1s seen so obliquely that every side face looks as
    big as the top; no face reads whole, so no lean tells the top ends. Their parts' ends up
    the picture (the table's far side) read four 1s (one of them on the end's far
    TOP_SHORT: the whole end read the 1 and its side face's pip); the side face the pip
    seeds read as a 5 is claimed by its part. With the rule off (UP_LEAST out of reach)
    only that 5 reads."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "dice_42.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == (1, 1, 1, 1)
    monkeypatch.setattr(pips, "UP_LEAST", 99)
    assert read_frame(frame).values == (5,)


def test_a_calibrated_tray_has_no_up(dice_sets):
    """The appliance reads a calibrated tray (a roi) from a camera looking straight down: the
    picture has no up, so dice_42's parts are not read at their ends up the picture there
    (the same frame read as one tray: only the 5)."""
    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "dice_42.jpg")
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    assert read_frame(frame, roi=(0, 0, w, h)).values == (5,)


def test_an_unclear_part_that_may_hold_two_dice_keeps_its_reroll(dice_sets):
    """byler-d6 111858 under gamma1.5: an unclear part over PAIR die areas whose deepest
    point reads one die (LOOSE) holds the 4 at (407, 335) unread too; its re-roll stays
    (dropping it lost the 4 with no re-roll asked)."""
    _, frame = _changed(dice_sets, "byler-d6", "IMG_20191208_111858.jpg", "gamma1.5")
    reading = read_frame(frame)
    assert any(math.hypot(u.box[0][0] - 407, u.box[0][1] - 335) < 30 for u in reading.unreadable)


def test_a_single_part_read_up_the_picture_is_not_enough(dice_sets, monkeypatch):
    """penlington-wood dice_27 under scale0.8 reads its two oblique 1s up the picture; one
    part's end alone (a cable's plug, a keyboard's key) does not count: with UP_LEAST 3 the
    two are not read."""
    import vision.pips as pips

    image, frame = _changed(dice_sets, "penlington-wood", "dice_27.jpg", "scale0.8")
    ones = read_frame(frame).values.count(1)
    monkeypatch.setattr(pips, "UP_LEAST", 3)
    assert read_frame(frame).values.count(1) == ones - 2


def test_one_part_read_up_the_picture_reads_no_die(dice_sets, monkeypatch):
    """penlington-wood two_6 under jpeg40 (one 2, read): one part's end up the picture
    reads a 3, a side face's pips with the top face's; alone it is no die (UP_LEAST 2).
    With UP_LEAST 1 that 3 is read instead of the 2. (It was four_35 under blur1, whose
    four 4s read since a speck cut by the frame's corner no longer sets the die size.)"""
    import vision.pips as pips

    image, frame = _changed(dice_sets, "penlington-wood", "two_6.jpg", "jpeg40")
    assert read_frame(frame).values == (2,)
    monkeypatch.setattr(pips, "UP_LEAST", 1)
    assert read_frame(frame).values == (3,)


def test_a_nearly_square_oblique_part_is_read_along_its_axis_nearer_the_lean(dice_sets, monkeypatch):
    """penlington-wood dice_46: a 1 over its side face's 4, one ragged part 95 x 80 px whose
    long side (set by a corner) lies 53 degrees off the frame's lean; its short axis lies
    along the lean, and its end that way is the top face's 1. With SQUAREISH 1.0 (a part's
    long axis only) the die is missed."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "dice_46.jpg")
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    [box] = [b for b in image.boxes(w, h) if (int(b.xc), int(b.yc)) == (385, 336)]
    assert [d.value for d in read_frame(frame).dice if box.contains(*d.box[0])] == [1]
    assert read_frame(frame).values == image.values
    monkeypatch.setattr(pips, "SQUAREISH", 1.0)
    assert [d.value for d in read_frame(frame).dice if box.contains(*d.box[0])] == []


def test_a_2_read_on_a_whole_oblique_part_nearer_the_camera_is_a_1_and_a_side_pip(dice_sets, monkeypatch):
    """penlington-wood dice_25: a 1 seen obliquely, its side face's nearest pip below it; the
    whole part (95 x 70 px) reads the pair as a 2, its face centred off the part's top end
    toward the camera. Its top end reads the 1. With TWO_NEAR out of reach the top end's 1
    still tells it (TWO_END_ONE); with that off too the 2 is read."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "dice_25.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == image.values == (1, 1, 1)
    monkeypatch.setattr(pips, "TWO_NEAR", 99.0)
    assert read_frame(frame).values == (1, 1, 1)
    monkeypatch.setattr(pips, "TWO_END_ONE", False)
    assert read_frame(frame).values == (1, 1, 2)


@pytest.mark.parametrize("file,at,value", [("IMG_20191208_112826.jpg", (102, 270), 6),
                                           ("IMG_20191208_111751.jpg", (279, 362), 5)])
def test_an_unclear_part_wider_than_a_die_is_read_at_its_deepest_point(dice_sets, file, at, value, monkeypatch):
    """byler-d6, a view from straight above: a die with its shadow (112826's red 6) or a
    dark translucent die with a neighbour's rim (111751's 5) is one part over LOOSE die
    edges long, and its crop, the whole part, reads unclear. A die's square around the
    part's deepest point reads the die. With LOOSE out of reach it stays a re-roll (read
    without TURN there: the die's own square, turned to its edges, reads it too)."""
    import vision.pips as pips

    import vision.face as face

    box, read = _byler_box(dice_sets, file, at)
    assert read() == [value]
    monkeypatch.setattr(pips, "TURN", False)
    assert read() == [value]
    monkeypatch.setattr(pips, "LOOSE", 99.0)
    # (vision.face's SEEN_NOT_2_VETO reads 112826's 6 on the whole part too: switched off to see LOOSE's part alone)
    monkeypatch.setattr(face, "SEEN_NOT_2_VETO", False)
    assert read() == []


def test_an_unclear_parts_deepest_point_reading_1_is_no_die(dice_sets, monkeypatch):
    """penlington-wood six_43 under warm: a cable's label by the frame's edge is an unclear
    part over LOOSE die edges long, and the square at its deepest point reads its print as
    a 1. A die read so counts only showing LOOSE_LEAST (2) or more. (That 1 comes from the hole
    reader's second colour axis where the spot maps see 4-6 spots, which vision.face's SEEN_NOT_1
    refuses as well: it is switched off to see LOOSE_LEAST's part alone.)"""
    import vision.face as face
    import vision.pips as pips

    image, frame = _changed(dice_sets, "penlington-wood", "six_43.jpg", "warm")
    assert read_frame(frame).values == image.values
    monkeypatch.setattr(face, "SEEN_NOT_1", 99)
    assert read_frame(frame).values == image.values
    monkeypatch.setattr(pips, "LOOSE_LEAST", 1)
    assert read_frame(frame).values == (1,) + image.values


@pytest.mark.parametrize("name, file", [("byler-d6", "IMG_20191208_113004.jpg"), ("penlington-wood", "four_35.jpg")])
def test_a_tray_or_a_cut_speck_does_not_set_the_die_size(dice_sets, name, file):
    """Moved by a pixel, byler-d6 113004's stud by the tray that was one of the two square
    blobs of a die's size ran into the rim; the tray's filled rim (254 px, as square as a
    die) then tied with the one die left and, the larger, set the die size: its seven dice
    were lost. A blob over MAX_DIE_FRAC of the frame's short side does not size dice. In
    penlington-wood four_35 the only square blob was then a speck cut by the frame's corner
    (a die of 15 px, not 33: its four 4s lost); a cut blob alone does not size dice either
    (_sizers). The dice are found (read or asked to re-roll) however the photo is moved."""
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / name) if i.file == file)
    frame = cv2.imread(str(image.path))
    h, w = frame.shape[:2]
    boxes = image.boxes(w, h)
    still = read_frame(frame).die_size_px
    for change in ("shift1", "shift3"):
        reading = read_frame(CHANGES[change](frame))
        assert 0.8 < reading.die_size_px / still < 1.25, change
        # (what is read there is the face reader's: found, read or asked to re-roll, is this test's)
        found = [b for b in boxes if any(b.contains(*x.box[0]) for x in reading.dice + reading.unreadable)]
        assert len(found) >= 4, change


@pytest.mark.parametrize("file, at, read_as_1", [("IMG_20191208_111919.jpg", (433, 372), 4),
                                                 ("IMG_20191208_111932.jpg", (425, 273), 3)])
def test_a_one_on_the_second_colour_axis_where_the_spot_maps_see_a_face_of_pips_is_not_read(
        dice_sets, file, at, read_as_1, monkeypatch):
    """byler-d6 111919's 6 (dark translucent body, dark red pips) and 111932's 5 (blue marbled): the
    spot reader reads nothing, and the hole reader's second colour axis (hue) takes a 6's column run
    into one bar, or the 5's centre pip and the marbling around it, for a 1's lone pip, while the spot
    maps see 4-5 even, strong spots. A 1 from the second axis alone is not read there (SEEN_NOT_1):
    a re-roll, not a wrong 1, on every grid (none, shift1, shift3, turn1); without the rule 111919's 6
    reads 1 on all four, 111932's 5 on three."""
    import vision.face as face
    import vision.spots as spots
    box, read_in_box = _box_on_grids(dice_sets, "byler-d6", file, at)

    assert all(1 not in r for r in read_in_box())
    monkeypatch.setattr(face, "SEEN_NOT_1", 99)
    # (a square 4 past the peaks beyond its corners, BEYOND_4, keeps 111932's 1 off too: off here; so does a half sure
    # 6 of the hue map's bars at their lower levels, BAR_LEVELS_HUE, which that 1 vetoes, on 111919 as it is)
    monkeypatch.setattr(spots, "BEYOND_4", False)
    monkeypatch.setattr(spots, "BAR_LEVELS_HUE", (0.4,))
    assert sum(r == [1] for r in read_in_box()) == read_as_1


def _ones_on_grids(dice_sets, file):
    """penlington-wood photo of 1s: over the photo as it is and moved (shift1, shift3,
    turn1), how many labelled boxes read one die, a 1, and how many read another value."""
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    shot = cv2.imread(str(image.path))
    h, w = shot.shape[:2]
    boxes = image.boxes(w, h)
    assert {b.value for b in boxes} == {1}
    frames = [shot] + [CHANGES[c](shot) for c in ("shift1", "shift3", "turn1")]

    def count() -> tuple[int, int]:
        ones = other = 0
        for f in frames:
            dice = read_frame(f).dice
            for b in boxes:
                got = [d.value for d in dice if b.contains(*d.box[0])]
                ones += got == [1]
                other += any(v != 1 for v in got)
        return ones, other

    return count


def test_a_top_end_reaching_into_the_side_face_is_read_shorter(dice_sets, monkeypatch):
    """penlington-wood dice_42: five pale 1s so oblique that each side face is as tall as
    the top face. A part's top-face end (half its length) reaches into the side face and
    reads a 2, the 1 and the side face's nearest pip (_one_and_side_pip): nothing was read
    there. Read again on its far TOP_SHORT it holds the 1 alone: over the four grids 11 of
    the 20 labelled 1s read, no other value in their boxes; with TOP_SHORT 1.0 (not) 5."""
    import vision.pips as pips

    count = _ones_on_grids(dice_sets, "dice_42.jpg")
    ones, other = count()
    assert ones >= 11 and other == 0
    monkeypatch.setattr(pips, "TOP_SHORT", 1.0)
    assert count()[0] <= 5


def test_one_face_read_does_not_bar_the_ends_up_the_picture(dice_sets, monkeypatch):
    """penlington-wood dice_42 moved by a pixel or turned: one whole part reads a 2 (a 1 and
    its side face's pip) whose offset runs sideways, and that one face was the frame's whole
    lean: the other parts' ends were taken along it and read nothing. Under UP_FACES faces
    the ends up the picture are read as with none (_up_ends): 11 of the 20 labelled 1s over
    the four grids; with the rule as it was (UP_FACES 1: no face at all) 4."""
    import vision.pips as pips

    count = _ones_on_grids(dice_sets, "dice_42.jpg")
    assert count()[0] >= 11
    monkeypatch.setattr(pips, "UP_FACES", 1)
    assert count()[0] <= 4


def test_a_thin_parts_face_has_no_say_in_the_lean(dice_sets, monkeypatch):
    """penlington-wood dice_38 moved by a pixel: three 1s read on their parts lean up the
    picture, but a face read off the clutter at the frame's corner (a part of squareness
    0.26, dropped later) pulled the frame's lean under LEAN, and the view was taken for one
    from straight above: the fourth 1, a whole die seen from the side, stayed a re-roll.
    Without that face's say (LEAN_SQUARE) all four 1s read on every grid; with every part's
    say (LEAN_SQUARE 0) the shifted photo loses that 1."""
    import vision.pips as pips

    box, read_in_box = _box_on_grids(dice_sets, "penlington-wood", "dice_38.jpg", (250, 147))
    assert read_in_box() == [[1]] * 4
    assert _ones_on_grids(dice_sets, "dice_38.jpg")() == (16, 0)
    monkeypatch.setattr(pips, "LEAN_SQUARE", 0.0)
    assert read_in_box()[1] == []


@pytest.mark.parametrize("file, at, lost", [("dice_38.jpg", (250, 147), (1, 3)), ("three_24.jpg", (370, 173), (1, 3))])
def test_a_whole_die_is_read_at_its_top_end_in_a_view_that_leans_at_0_15(dice_sets, file, at, lost, monkeypatch):
    """penlington-wood: a whole die seen from the side (top and side faces, one unclear part)
    in a frame whose faces lean 0.15-0.2 die edges (dice_38, three_24 moved by a pixel or
    turned): its top end reads the die (TILTED 0.15); at 0.2 it stays a re-roll there."""
    import vision.pips as pips

    value = 1 if file.startswith("dice") else 3
    box, read_in_box = _box_on_grids(dice_sets, "penlington-wood", file, at)
    assert read_in_box() == [[value]] * 4
    monkeypatch.setattr(pips, "TILTED", 0.2)
    got = read_in_box()
    assert all(got[i] == [] for i in lost)


def test_a_top_end_beside_a_read_face_is_its_side_face(dice_sets, monkeypatch):
    """penlington-wood six_18 moved by a pixel: the far die's blob was cut into its top face
    (a 6, read) and its side faces (an unclear part). That part's top end, in a view that
    leans, read the side face's 1 half a die edge below the 6: a die read so within NEAR die
    edges of a read die's face is that die's side face, not a die (with NEAR 0, an extra 1)."""
    import vision.pips as pips
    from vision.retake import CHANGES

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "six_18.jpg")
    frame = CHANGES["shift1"](cv2.imread(str(image.path)))
    assert read_frame(frame).values == image.values
    monkeypatch.setattr(pips, "NEAR", 0.0)
    assert read_frame(frame).values == (1,) + image.values


@pytest.mark.parametrize("file, at, grid", [("dice_46.jpg", (376, 95), 2), ("dice_25.jpg", (566, 234), 3)])
def test_a_two_on_an_oblique_part_whose_top_end_reads_a_one_is_that_one(dice_sets, file, at, grid, monkeypatch):
    """penlington-wood dice_46 under shift3, dice_25 under turn1: a very oblique 1's whole
    part reads a 2, the 1 and its side face's nearest pip, centred only 0.10-0.12 die edges
    off the top end's centre (under TWO_NEAR); its top end reads the 1. A top face's 2 lies
    in the top end whole and reads there as a 2: a 2 whose top end reads a 1 is that 1
    (TWO_END_ONE). The 1 reads on that grid (and on the photo as it is); with the rule off
    the 2 is read there, outside the 1's box (an extra die and a miss)."""
    import vision.pips as pips

    box, read_in_box = _box_on_grids(dice_sets, "penlington-wood", file, at)
    got = read_in_box()
    assert got[0] == [1] and got[grid] == [1]
    monkeypatch.setattr(pips, "TWO_END_ONE", False)
    assert read_in_box()[grid] == []


def test_a_two_on_an_oblique_part_whose_top_end_reads_more_pips_is_that_face(dice_sets, monkeypatch):
    """penlington-wood four_25: an oblique 4 turned a quarter off the camera's axes (its pips a
    diamond) beside its side faces' rows. On the moved grids (shift1, shift3, turn1) its whole
    part's least rectangle turns 25 degrees and the part reads a 2, two of the 4's pips; its top
    end, the top face, reads the 4. A 2 on a whole oblique part whose top end reads 4-6 pips is
    that face (TWO_END_MORE): the part's 2 was a piece of it. On the photo as it is the whole
    part reads the 4 itself. With the rule off the moved grids read the 2."""
    import vision.pips as pips

    import vision.face as face

    box, read_in_box = _box_on_grids(dice_sets, "penlington-wood", "four_25.jpg", (406, 87))
    assert read_in_box() == [[4], [4], [4], [4]]
    monkeypatch.setattr(pips, "TWO_END_MORE", 7)
    # (the part's sure spot 2, where its spot maps see more pips, is the hole reader's 4 as well: vision.face's
    # TWO_SEEN_HOLES, switched off to see this rule alone)
    monkeypatch.setattr(face, "TWO_SEEN_HOLES", ())
    assert read_in_box() == [[4], [2], [2], [2]]


@pytest.mark.parametrize("file, at, value, grids", [("five_13.jpg", (318, 95), 5, (0, 2)),
                                                    ("four_23.jpg", (171, 257), 4, (2, 3))])
def test_a_six_on_a_long_part_whose_top_end_reads_fewer_pips_is_that_face(dice_sets, file, at, value, grids,
                                                                            monkeypatch):
    """penlington-wood five_13 (as it is, shift3) and four_23 (shift3, turn1): an oblique 5 or 4
    whose whole part, top face and side face (squareness 0.46-0.61), reads a 6 (the 4's corners
    and the side face's row of pips below them), centred off the top end toward the camera;
    the top end reads the top face. A 6 read so is the top end's 4 or 5 (SIX_TOP); with the
    rule off those grids read the 6."""
    import vision.pips as pips

    box, read_in_box = _box_on_grids(dice_sets, "penlington-wood", file, at)
    got = read_in_box()
    assert all(got[g] == [value] for g in grids)
    monkeypatch.setattr(pips, "SIX_TOP", 0.0)
    got = read_in_box()
    assert all(got[g] == [6] for g in grids)


@pytest.mark.parametrize("file, at, grid, without", [("dice_31.jpg", (206, 272), 1, [2]),
                                                      ("dice_46.jpg", (376, 95), 3, [])])
def test_a_two_on_a_long_part_in_a_tilted_view_whose_top_end_reads_a_one_is_that_one(dice_sets, file, at, grid,
                                                                                     without, monkeypatch):
    """penlington-wood dice_31 under shift1, dice_46 under turn1: an oblique 1 whose whole part is
    too square (0.61-0.75) or too small for _oblique reads a 2, the 1 and its side face's nearest
    pip; in a view that leans clearly its top end reads the 1 (TWO_LONG). With the rule off the
    2 stands: in the 1's box (dice_31) or beside it, the 1 missed (dice_46)."""
    import vision.pips as pips

    box, read_in_box = _box_on_grids(dice_sets, "penlington-wood", file, at)
    assert read_in_box()[grid] == [1]
    monkeypatch.setattr(pips, "TWO_LONG", 0.0)
    assert read_in_box()[grid] == without


@pytest.mark.parametrize("file, at, read_on, missed", [
    ("IMG_20191208_112342.jpg", (333, 397), 4, 2),  # a 5 by a neighbour, its part 1.15 die areas
    ("IMG_20191208_111228.jpg", (139, 147), 3, 2),  # a 3 against a red die, its part 1.3-1.5
])
def test_an_unclear_die_is_read_again_as_its_own_square(dice_sets, file, at, read_on, missed, monkeypatch):
    """byler-d6: a die whose part takes in a neighbour's rim or its shadow has a least
    rectangle turned off its edges and bigger than it: the crop reads unclear. Read again
    as its own square (TURN: turned to the colour step along its outline, no bigger than a
    die) it reads on every grid (112342's 5) or three of four (111228's 3), and never
    another value; without that it is missed on two more grids."""
    import vision.face as face
    import vision.pips as pips
    import vision.spots as spots
    box, read_in_box = _box_on_grids(dice_sets, "byler-d6", file, at)

    reads = read_in_box()
    assert all(r in ([box.value], []) for r in reads)
    assert reads.count([box.value]) == read_on
    monkeypatch.setattr(pips, "TURN", False)
    # (vision.face's SEEN_NOT_2_VETO reads 111228's 3 on one more grid without TURN, and vision.spots' HUE_SAG 112342's
    # 5 on shift3: switched off to see TURN's part alone)
    monkeypatch.setattr(face, "SEEN_NOT_2_VETO", False)
    monkeypatch.setattr(spots, "HUE_SAG", None)
    reads = read_in_box()
    assert all(r in ([box.value], []) for r in reads)
    assert reads.count([box.value]) == read_on - missed


def test_a_die_s_square_is_turned_to_its_edges_and_no_bigger_than_a_die():
    """A drawn dark die, 40 px, turned 30 degrees, with its shadow run into its blob on
    one side: the blob's least rectangle takes in the shadow (57 px long); _turned's square
    lies along the die's edges (the colour step at its outline), is no longer than
    TURN_SIDE die edges, and its middle stays within a quarter die edge of the die's."""
    import vision.pips as pips
    from vision.bodies import Blob

    frame = np.full((160, 160, 3), 200, np.uint8)
    die = 40.0
    body = cv2.boxPoints(((80.0, 80.0), (die, die), 30.0))
    shadow = body + np.array([14.0, 10.0], np.float32)
    cv2.fillPoly(frame, [np.rint(shadow).astype(np.int32)], (150, 150, 150))
    cv2.fillPoly(frame, [np.rint(body).astype(np.int32)], (40, 40, 160))
    for x, y in ((70, 70), (90, 90), (80, 80)):
        cv2.circle(frame, (x, y), 4, (230, 230, 230), -1)
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.rint(shadow).astype(np.int32), np.rint(body).astype(np.int32)], 255)
    [c] = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    blob = Blob(cv2.minAreaRect(c), float(cv2.contourArea(c)), c)
    sq = pips._turned(frame, blob, 1.0, die)
    (cx, cy), (w, h), angle = sq.rect
    assert abs((angle - 30.0 + 45.0) % 90.0 - 45.0) < 3.0
    assert max(w, h) <= pips.TURN_SIDE * die + 1e-6
    assert max(w, h) < max(blob.rect[1])
    assert math.hypot(cx - 80.0, cy - 80.0) < 0.25 * die


@pytest.mark.parametrize("file, at, guard, off, grid, wrong", [
    ("IMG_20191208_111434.jpg", (494, 229), "TURN_SHRINK", 1.0, 1, 2),  # a 1 with a glint: a tighter crop alone
    ("IMG_20191208_112322.jpg", (166, 352), "TURN_LOOK", 0.0, 2, 1),  # a 6: one look alone reads a 1
    ("IMG_20191209_095859.jpg", (399, 179), "TURN_TIGHT", 9.0, 1, 4),  # a 6: the square as long as the rect
])
def test_a_die_s_square_read_again_counts_only_as_a_new_crop_read_alike(dice_sets, guard, off, file, at, grid,
                                                                         wrong, monkeypatch):
    """byler-d6: the square TURN reads an unclear part at must be a new crop (TURN_TIGHT,
    and TURN_ASKEW or TURN_SHRINK) and read alike by looks aside (TURN_LOOK): a square that
    is the part's rect again, or one look alone, reads a glint or a side's row as pips (the
    wrong value on the grid given: 0 none, 1 shift1, 2 shift3, 3 turn1); kept, the die is
    left unclear there."""
    import vision.pips as pips
    import vision.spots as spots
    box, read_in_box = _box_on_grids(dice_sets, "byler-d6", file, at)

    # (the maps faded towards the outline read 112322's 6 before TURN is asked: off here)
    monkeypatch.setattr(spots, "OUTLINE_BAND", 0.0)
    assert read_in_box()[grid] != [wrong] != [box.value]
    monkeypatch.setattr(pips, guard, off)
    monkeypatch.setattr(spots, "GROW", 0.0)  # the patch grown a little (spots.GROW) reads 111434's 1 before TURN
    assert read_in_box()[grid] == [wrong]


def test_readings_in_two_threads_are_those_read_one_at_a_time(dice_sets):
    """The blob reads a reading keeps for itself (vision.pips._READS) are its thread's: two
    cameras read at once in two threads read what each reads alone."""
    from concurrent.futures import ThreadPoolExecutor

    images = _sample(dice_sets, "penlington-wood", 40)[:4]
    frames = [cv2.imread(str(i.path)) for i in images]
    alone = [read_frame(f) for f in frames]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(read_frame, frames * 3))
    for k, reading in enumerate(together):
        assert reading.dice == alone[k % len(frames)].dice
        assert reading.unreadable == alone[k % len(frames)].unreadable


@pytest.mark.parametrize("file, at, grid", [("IMG_20191208_112332.jpg", (294, 398), 0),
                                            ("IMG_20191208_111628.jpg", (529, 227), 2)])
def test_pip_seeds_read_a_pale_die_touching_a_read_one(dice_sets, file, at, grid, monkeypatch):
    """byler-d6: a white 5 (112332) and a white 2 (111628) touching coloured dice read from
    their blobs; the white die has no body in the mask, only its pips. Its square overlaps
    the read neighbour's claim with its SEED_CLEAR_DOWN margin (by a quarter for the 5),
    more than SEED_OVERLAP: within SEED_NEAR it is read, and its face lies clear of the
    neighbour's claim itself. Every grid reads the die; with SEED_NEAR no looser than
    SEED_OVERLAP the grid the seeds alone read it on (none, shift3) reads nothing there."""
    import vision.pips as pips

    box, read = _box_on_grids(dice_sets, "byler-d6", file, at)
    assert read() == [[box.value]] * 4
    monkeypatch.setattr(pips, "SEED_NEAR", pips.SEED_OVERLAP)
    assert read()[grid] == []


@pytest.mark.parametrize("file", ["four_16.jpg", "three_27.jpg"])
def test_a_pip_seed_by_a_read_die_counts_only_when_its_face_lies_clear_of_the_claims(dice_sets, file,
                                                                                     monkeypatch):
    """penlington-wood's oblique view: a read ivory die's side face shows pips (a 5 below
    four_16's lower 4 and below one of three_27's 3s), and their square runs into the read
    die's claim by less than SEED_NEAR; the face read there lies in the die's part, which
    the claim holds: it is no die. On every grid the labelled dice alone are read; with the
    face's cover not looked at (_covered nothing) a 5 is read besides on grid none."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == file)
    from vision.retake import CHANGES

    shot = cv2.imread(str(image.path))
    frames = [shot] + [CHANGES[c](shot) for c in ("shift1", "shift3", "turn1")]
    assert [read_frame(f).values for f in frames] == [image.values] * 4
    monkeypatch.setattr(pips, "_covered", lambda face, claims: 0.0)
    assert read_frame(shot).values == tuple(sorted(image.values + (5,)))


def test_a_pip_seed_by_a_read_die_shows_two_pips_at_least(dice_sets, monkeypatch):
    """penlington-wood dice_18 (two 1s): a lone spot beside a read 1, its square within
    SEED_NEAR of the die's claim and its face (barely) clear of it, reads as a 1: the pip
    of the die's side face that its part's outline cut off. SEED_NEAR_LEAST (2) drops it;
    with 1 a third die is read."""
    import vision.pips as pips

    image = next(i for i in load_set(dice_sets / "penlington-wood") if i.file == "dice_18.jpg")
    frame = cv2.imread(str(image.path))
    assert read_frame(frame).values == image.values == (1, 1)
    monkeypatch.setattr(pips, "SEED_NEAR_LEAST", 1)
    assert read_frame(frame).values == (1, 1, 1)


@pytest.mark.parametrize("file, at, grid, instead", [("IMG_20191208_111718.jpg", (191, 411), 0, 3),
                                                     ("IMG_20191208_111228.jpg", (485, 203), 3, 4)])
def test_a_seeded_die_counts_when_a_square_on_its_face_reads_it_again(dice_sets, file, at, grid, instead,
                                                                      monkeypatch):
    """byler-d6: white 6s whose pips run partly into their shadow; the square the pips
    found put on the die reads what part of it shows (111718's as a 3 on grid none,
    111228's as a 4 on turn1). A die-sized square on the face read reads a 6 or nothing:
    with SEED_AGAIN the die is not read wrong on any grid; without it, it is on that grid."""
    import vision.pips as pips

    box, read = _box_on_grids(dice_sets, "byler-d6", file, at)
    assert box.value == 6 and all(r in ([], [6]) for r in read())
    monkeypatch.setattr(pips, "SEED_AGAIN", False)
    assert read()[grid] == [instead]


@pytest.mark.parametrize("file, at, grid", [("IMG_20191209_100719.jpg", (252, 309), 1),
                                            ("IMG_20191209_100722.jpg", (268, 521), 3)])
def test_a_pip_group_too_big_for_a_die_is_tried_again_with_its_dark_spots(dice_sets, file, at, grid,
                                                                          monkeypatch):
    """byler-d6: a white 3 (100719) and a white 4 (100722) alone on the tray; their shaded
    outlines leave pip-sized spots at their corners (30-90 grey levels under the closing,
    the pips 150-190), which join the pips' group: on shift1 the 3's group spans more than
    SEED_SPAN, on turn1 the 4's holds eight spots. Tried again with the spots SEED_FAINT as
    dark as its darkest, the group is the die's pips and the die reads on every grid; with
    no spot faint (SEED_FAINT 0) it goes unread on that grid."""
    import vision.pips as pips
    import vision.spots as spots

    box, read = _box_on_grids(dice_sets, "byler-d6", file, at)
    assert read() == [[box.value]] * 4
    monkeypatch.setattr(pips, "SEED_FAINT", 0.0)
    monkeypatch.setattr(spots, "GROW", 0.0)  # the patch grown a little (spots.GROW) reads it as the last word
    assert read()[grid] == []
