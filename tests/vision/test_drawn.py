"""vision.drawn: the face network's crop contract (cut_square), real d6 pip layouts, and trays
whose truth matches what was drawn."""

from __future__ import annotations

import cv2
import numpy as np

from vision import drawn


def test_cut_square_is_the_contract_crop_inside_the_frame():
    frame = np.random.default_rng(0).integers(0, 256, (120, 160, 3), dtype=np.uint8)
    got = drawn.cut_square(frame, 80, 60, 40)
    want = cv2.resize(frame[40:80, 60:100], (drawn.CROP, drawn.CROP), interpolation=cv2.INTER_AREA)
    assert got.dtype == np.uint8 and got.shape == (drawn.CROP, drawn.CROP, 3)
    assert np.array_equal(got, want)


def test_cut_square_replicates_the_edge_outside_the_frame():
    frame = np.zeros((50, 50, 3), np.uint8)
    frame[:, 0] = 200  # the left column: replicated leftwards
    got = drawn.cut_square(frame, 0, 25, 32)  # 16 px left of the frame, 16 inside
    half = drawn.CROP // 2
    assert got.shape == (drawn.CROP, drawn.CROP, 3)
    assert (got[:, :half - 1] == 200).all() and (got[:, half + 1:] == 0).all()


def test_pip_layouts_are_a_real_d6():
    for value, pips in drawn.PIP_LAYOUTS.items():
        assert len(pips) == value
        assert len(set(pips)) == value
        # every layout is symmetric under a half turn, as printed dice are
        assert {(-x, -y) for x, y in pips} == set(pips)


def test_side_faces_are_never_the_top_or_its_opposite():
    rng = np.random.default_rng(1)
    for top in range(1, 7):
        sides = drawn._side_values(rng, top)
        assert sorted(sides) == sorted(v for v in range(1, 7) if v not in (top, 7 - top))
        assert sides[0] + sides[1] == 7 and sides[2] + sides[3] == 7


def test_drawn_top_face_shows_its_pips():
    """A flat white die with black pips on white paper: the dark blobs inside the box are the value."""
    for value in range(1, 7):
        rng = np.random.default_rng(value)
        frame = np.full((160, 160, 3), 235, np.uint8)
        look = drawn.DieLook(body=(240, 240, 240), pip=(10, 10, 10), corner=0.15, pip_size=0.09, pip_spread=0.26)
        die = drawn.draw_die(frame, look, drawn.Pose(value, 80, 80, 90, yaw=float(rng.uniform(0, 360))), rng, shadow=0)
        assert die.value == value and abs(die.xc - 80) < 1 and abs(die.yc - 80) < 1
        x0, y0 = int(die.xc - die.w * 0.42), int(die.yc - die.h * 0.42)
        inside = frame[y0 : int(die.yc + die.h * 0.42), x0 : int(die.xc + die.w * 0.42)]
        dark = (cv2.cvtColor(inside, cv2.COLOR_BGR2GRAY) < 100).astype(np.uint8)
        blobs = cv2.connectedComponentsWithStats(dark)[2][1:]
        assert len([b for b in blobs if b[cv2.CC_STAT_AREA] > 20]) == value


def test_pips_stand_out_by_lightness_or_by_colour():
    pip, body = drawn.PIP_COLOURS, drawn.BODY_COLOURS
    assert drawn._stands_out(pip["red"], body["black"]) and drawn._stands_out(pip["red"], body["blue"])
    assert drawn._stands_out(pip["white"], body["black"])
    assert not drawn._stands_out(pip["blue"], body["black"]) and not drawn._stands_out(pip["gold"], body["yellow"])


def test_random_looks_include_red_pips_on_dark_bodies():
    """Smoky, black and blue dice with red pips are common; luma alone once ruled them out."""
    rng = np.random.default_rng(11)
    looks = [drawn.random_look(rng) for _ in range(3000)]
    red_on_dark = [lk for lk in looks if drawn._luma(lk.body) < 100 and lk.pip[2] > 150 and lk.pip[1] < 80]
    assert 0.02 < len(red_on_dark) / len(looks) < 0.15
    assert all(abs(drawn._luma(lk.pip) - drawn._luma(lk.body)) > 40 or drawn._delta_e(lk.pip, lk.body) > 55 for lk in looks)


def test_compose_tray_is_seeded_and_its_dice_do_not_overlap():
    a, dice_a = drawn.compose_tray(np.random.default_rng(7), 320, 240, count=5, side=(25, 40))
    b, dice_b = drawn.compose_tray(np.random.default_rng(7), 320, 240, count=5, side=(25, 40))
    assert np.array_equal(a, b) and dice_a == dice_b
    assert a.shape == (240, 320, 3) and len(dice_a) >= 3
    for i, d in enumerate(dice_a):
        assert 1 <= d.value <= 6 and 0 <= d.xc < 320 and 0 <= d.yc < 240
        for e in dice_a[i + 1 :]:
            assert np.hypot(d.xc - e.xc, d.yc - e.yc) > 0.5 * (min(d.w, d.h) + min(e.w, e.h))


def _nearest(dice) -> list[float]:
    return [min(np.hypot(d.xc - e.xc, d.yc - e.yc) for e in dice if e is not d) for d in dice]


def test_compose_tray_can_lay_dice_against_each_other_without_overlap():
    # dice of side 30 +- 12 %: two squares that do not overlap have centres at least a side apart (their
    # inscribed circles are apart); two that touch, at most half their diagonals apart (+ a 6 % gap)
    touching, apart = [], []
    for seed in range(8):
        frame, dice = drawn.compose_tray(np.random.default_rng(seed), 320, 240, count=4, side=(30, 30), touching=1.0)
        assert len(dice) == 4 and frame.shape == (240, 320, 3)
        touching += _nearest(dice)
        apart += _nearest(drawn.compose_tray(np.random.default_rng(seed), 320, 240, count=4, side=(30, 30))[1])
    assert min(touching) >= 0.88 * 30
    assert max(touching) <= 1.12 * 30 * 2**0.5 * 1.06
    assert max(apart) > 1.12 * 30 * 2**0.5 * 1.06  # spread dice: the bound above would fail


def test_compose_tray_can_draw_dice_of_the_surface_colour():
    # the dice's top face takes the surface's median colour (jittered); without camouflage, it rarely does
    def body_gap(camouflage: float) -> list[float]:
        gaps = []
        for seed in range(12):
            frame, dice = drawn.compose_tray(np.random.default_rng(seed), 320, 240, count=2, side=(40, 40),
                                             kind="paper", camera=False, camouflage=camouflage)
            surface = np.median(frame.reshape(-1, 3), axis=0)
            for d in dice:  # a ring between the pips and the edge: the body, not a pip
                x, y, r = int(d.xc), int(d.yc), int(0.12 * min(d.w, d.h))
                body = np.median(frame[y - r : y + r, x - 2 * r : x - r].reshape(-1, 3), axis=0)
                gaps.append(float(np.abs(body - surface).max()))
        return gaps
    assert np.median(body_gap(1.0)) < 35  # measured 27
    assert np.median(body_gap(0.0)) > 90  # measured 176


def test_letterbox_scales_the_longer_side_and_pads_with_zeros_bottom_right():
    frame = np.full((480, 640, 3), 90, np.uint8)
    canvas, scale = drawn.letterbox(frame)
    assert canvas.shape == (256, 256, 3) and scale == 0.4
    assert (canvas[:192] == 90).all() and (canvas[192:] == 0).all()


def test_letterbox_shrinking_is_an_area_average():
    """The 2.5x shrink of a 640x480 frame takes a cheaper road than INTER_AREA (linear to twice the
    size, then 2x2 means); it must still average each output pixel's area, or small pips alias away.
    Pixel noise is the hardest case: there one linear step is 28 grey levels off INTER_AREA."""
    frame = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    canvas, _ = drawn.letterbox(frame)
    area = cv2.resize(frame, (256, 192), interpolation=cv2.INTER_AREA).astype(np.float32)
    assert np.abs(canvas[:192].astype(np.float32) - area).mean() < 4.0
