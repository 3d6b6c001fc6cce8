"""Real frames of the table screen, saved as PNG and read back, checked pixel by pixel.

Positions come from layout_for() (the same geometry the screen draws with); colours are
checked against literal RGB values so a wrong colour or a missing element fails.
"""

from dataclasses import replace

import numpy as np
import pygame
import pytest

from appliance.ui import examples
from appliance.ui.layout import bar_mark_x, die_probe, layout_for, moves_grid
from appliance.ui.table_screen import panel_fill, team_colour
from appliance.ui.view import Banner, Move, TableView, TeamView

SIZES = [(800, 480), (1280, 720), (1920, 1080)]
DOC_SIZES = [(800, 480), (1920, 1080)]

WHITE = (255, 255, 255)
PANEL = (34, 38, 46)
BAR_TRACK = (8, 9, 12)
BAR_OVER = (40, 43, 50)
LIT_FACE = (240, 228, 66)
UNLIT_FACE = (66, 70, 80)
BUNCO_YELLOW = (240, 228, 66)
BUTTON = (213, 94, 0)
SKY_BLUE = (86, 180, 233)
ORANGE = (230, 159, 0)


def px(image: pygame.Surface, pos) -> tuple[int, int, int]:
    return tuple(image.get_at((int(pos[0]), int(pos[1]))))[:3]


def lum(c) -> float:
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def region(image: pygame.Surface, rect: pygame.Rect) -> np.ndarray:
    return pygame.surfarray.array3d(image)[rect.left:rect.right, rect.top:rect.bottom].astype(int)


def count_colour(image: pygame.Surface, rect: pygame.Rect, colour) -> int:
    return int(np.all(region(image, rect) == np.array(colour), axis=-1).sum())


def two_teams(us: int, them: int, to_win: int = 21, **kw) -> TableView:
    base = dict(table=2, set_no=1, round_no=2, target=2, points_to_win=to_win,
                teams=(TeamView("Us", ("Stacy", "Wanda"), us), TeamView("Them", ("Carol", "Hannah"), them)),
                phase="playing", turn_player="Stacy", turn_partner="Wanda", turn_team=0,
                last_roll=(2, 5, 6), scoring=(True, False, False), last_roller="Stacy")
    base.update(kw)
    return TableView(**base)


@pytest.mark.parametrize("size", SIZES)
def test_frame_has_the_display_size(frame, size):
    image = frame(examples.mid_round(), size)
    assert image.get_size() == size
    # Not a blank frame: the dark background plus a good share of bright pixels.
    arr = pygame.surfarray.array3d(image)
    assert (arr.max(axis=-1) > 200).mean() > 0.05


def test_layout_is_chosen_from_the_display_size():
    assert layout_for((800, 480)).compact
    assert layout_for((1024, 600)).compact
    assert not layout_for((1280, 720)).compact
    assert not layout_for((1920, 1080)).compact
    small, big = layout_for((800, 480)), layout_for((1920, 1080))
    # Type and boxes grow with the screen.
    assert big.teams[0].points.h > 2 * small.teams[0].points.h
    assert big.banner.h > 2 * small.banner.h


@pytest.mark.parametrize("size", SIZES)
def test_21_mark_sits_at_two_thirds_of_each_bar(frame, size):
    image = frame(two_teams(7, 0), size)
    lay = layout_for(size)
    for tl in lay.teams:
        bar = tl.bar
        expected = bar.x + round(bar.w * 21 / 31.5)        # the bar spans 1.5 x 21 points
        assert bar_mark_x(bar) == expected
        assert px(image, (expected, bar.centery)) == WHITE
        assert px(image, (expected, bar.y - 2)) == WHITE   # the post sticks out above the bar
        assert px(image, (expected, bar.bottom + 1)) == WHITE
        # Beside the post there is no post: the mark is narrow and exactly there.
        assert px(image, (expected - bar.w // 8, bar.y - 2)) != WHITE
        assert px(image, (expected + bar.w // 8, bar.y - 2)) != WHITE
        assert px(image, (bar.right - 4, bar.centery)) == BAR_OVER


@pytest.mark.parametrize("size", DOC_SIZES)
def test_bar_fill_is_proportional_and_grows_past_the_mark(frame, size):
    lay = layout_for(size)
    image = frame(two_teams(7, 0), size)
    us, them = lay.teams[0].bar, lay.teams[1].bar
    end = us.x + round(us.w * 7 / 31.5)
    assert px(image, (end - 3, us.centery)) == SKY_BLUE
    assert px(image, (end + 3, us.centery)) == BAR_TRACK
    assert px(image, (them.x + 4, them.centery)) == BAR_TRACK      # 0 points: empty bar

    image = frame(two_teams(28, 45), size, name="over21")
    end = us.x + round(us.w * 28 / 31.5)
    assert end > bar_mark_x(us) + us.w // 8
    assert px(image, (end - 6, us.centery)) == SKY_BLUE             # past the mark
    assert px(image, (end + 3, us.centery)) == BAR_OVER
    assert px(image, (them.right - 4, them.centery)) == ORANGE      # 45 > 31.5: clamped full


@pytest.mark.parametrize("size", DOC_SIZES)
def test_eleven_point_rounds_move_the_scale_not_the_mark(frame, size):
    lay = layout_for(size)
    image = frame(two_teams(11, 3, to_win=11), size)
    bar = lay.teams[0].bar
    mark = bar.x + round(bar.w * 2 / 3)
    assert px(image, (mark, bar.centery)) == WHITE
    # 11 of 11 fills the bar up to the mark.
    assert px(image, (mark - bar.w // 30 - 4, bar.centery)) == SKY_BLUE
    assert px(image, (mark + bar.w // 30 + 4, bar.y + 2)) == BAR_OVER


@pytest.mark.parametrize("size", SIZES)
def test_leading_team_panel_has_the_lead_colour(frame, size):
    lay = layout_for(size)
    them_lead = frame(two_teams(3, 9), size, name="them")
    lead = px(them_lead, lay.teams[1].probe)
    assert lead == panel_fill(1, True)
    assert lead[0] > lead[1] > lead[2] and lum(lead) > lum(PANEL) + 30   # an orange glow
    assert px(them_lead, lay.teams[0].probe) == PANEL
    us_lead = frame(two_teams(9, 3), size, name="us")
    assert px(us_lead, lay.teams[0].probe) == panel_fill(0, True)
    assert px(us_lead, lay.teams[1].probe) == PANEL
    tie = frame(two_teams(5, 5), size, name="tie")
    assert px(tie, lay.teams[0].probe) == PANEL
    assert px(tie, lay.teams[1].probe) == PANEL


def test_lead_colours_are_the_team_hue_and_brighter_than_a_plain_panel():
    blue, orange = panel_fill(0, True), panel_fill(1, True)
    assert blue[2] > blue[1] > blue[0]          # sky blue: blue-dominant
    assert orange[0] > orange[1] > orange[2]    # orange: red-dominant
    assert lum(blue) > lum(PANEL) + 30 and lum(orange) > lum(PANEL) + 30
    assert panel_fill(0, False) == panel_fill(1, False) == PANEL


@pytest.mark.parametrize("size", SIZES)
def test_bunco_banner_fills_the_banner_area_and_only_it(frame, size):
    lay = layout_for(size)
    quiet = frame(replace(examples.mid_round(), banners=()), size, name="quiet")
    loud = frame(examples.mid_round(), size, name="bunco")
    before, after = region(quiet, lay.banner), region(loud, lay.banner)
    changed = np.any(before != after, axis=-1).mean()
    assert changed > 0.6
    assert px(loud, (lay.banner.centerx, lay.banner.y + 2)) == BUNCO_YELLOW
    assert px(quiet, (lay.banner.centerx, lay.banner.y + 2)) != BUNCO_YELLOW
    # Everything outside the banner strip is the same frame.
    whole_before, whole_after = pygame.surfarray.array3d(quiet), pygame.surfarray.array3d(loud)
    mask = np.ones(whole_before.shape[:2], bool)
    mask[lay.banner.left:lay.banner.right, lay.banner.top:lay.banner.bottom] = False
    assert np.array_equal(whole_before[mask], whole_after[mask])


def test_most_important_banner_gets_the_big_box(frame):
    size = (800, 480)
    lay = layout_for(size)
    view = replace(examples.mid_round(), banners=(Banner("traveling", "Hannah takes the traveling prize"),
                                                  Banner("bunco", "BUNCO!  Hannah +21")))
    image = frame(view, size)
    # The Bunco banner (listed second) takes the left, big box; traveling sits at the side.
    assert px(image, (lay.banner.x + lay.banner.w // 4, lay.banner.y + 2)) == BUNCO_YELLOW
    assert px(image, (lay.banner.right - lay.banner.w // 8, lay.banner.y + 2)) == (204, 121, 167)


@pytest.mark.parametrize("size", SIZES)
def test_lit_dice_differ_from_unlit_dice(frame, size):
    image = frame(examples.mixed_roll(), size)          # 1-1-3, target 1: two dice lit
    dice = layout_for(size, 2, 3).dice
    faces = [px(image, die_probe(r)) for r in dice]
    assert faces == [LIT_FACE, LIT_FACE, UNLIT_FACE]
    assert lum(faces[0]) > 2.5 * lum(faces[2])
    # Pips are drawn: the 3 has three times the pip area of a 1.
    one = count_colour(image, dice[0], (0, 0, 0))
    three = count_colour(image, dice[2], (196, 200, 206))
    assert one > 0 and 2.5 < three / one < 3.5


@pytest.mark.parametrize("size", DOC_SIZES)
def test_target_die_shows_the_round(frame, size):
    lay = layout_for(size)
    one = frame(replace(examples.mid_round(), target=1, round_no=1), size, name="t1")
    four = frame(replace(examples.mid_round(), target=4, round_no=4), size, name="t4")
    six = frame(replace(examples.mid_round(), target=6, round_no=6), size, name="t6")
    pips = [count_colour(img, lay.target_die, (10, 10, 10)) for img in (one, four, six)]
    assert pips[0] > 0
    assert 3.5 < pips[1] / pips[0] < 4.5
    assert 5.5 < pips[2] / pips[0] < 6.5


@pytest.mark.parametrize("size", SIZES)
def test_one_table_with_four_players_renders_four_panels(frame, size):
    view = examples.one_table()                          # Carol leads with 14
    image = frame(view, size)
    lay = layout_for(size, 4, 4)
    assert len(lay.teams) == 4
    panels = [tl.panel for tl in lay.teams]
    for i, a in enumerate(panels):
        assert pygame.Rect(0, 0, *size).contains(a)
        assert all(not a.colliderect(b) for b in panels[i + 1:])
    for i, tl in enumerate(lay.teams):
        assert px(image, tl.probe) == (panel_fill(i, True) if i == 1 else PANEL)
        assert px(image, (bar_mark_x(tl.bar), tl.bar.centery)) == WHITE
        assert px(image, (tl.bar.x + 3, tl.bar.centery)) == team_colour(i)
    # Four dice of the last roll, two lit.
    faces = [px(image, die_probe(r)) for r in lay.dice]
    assert faces == [LIT_FACE, LIT_FACE, UNLIT_FACE, UNLIT_FACE]


@pytest.mark.parametrize("size", DOC_SIZES)
def test_round_over_shows_where_each_player_goes(frame, size):
    view = examples.end_of_round()
    lay = layout_for(size)
    image = frame(view, size)
    cells = moves_grid(lay.bottom, len(view.moves), lay.unit)
    assert len(cells) == 4
    for cell in cells:
        assert px(image, (cell.x + 3, cell.centery)) == PANEL
        bright = (region(image, cell).min(axis=-1) > 200).sum()
        assert bright > cell.w * cell.h * 0.02           # a name and a destination are written
    # No BUNCO! button once the round is over; the results strip names the winners.
    assert count_colour(image, lay.bunco_button, BUTTON) == 0
    assert px(image, (lay.banner.centerx, lay.banner.y + 2)) == (0, 114, 178)

    # Each cell shows its own move: sending Stacy elsewhere changes her cell only.
    moved = frame(replace(view, moves=view.moves[:2] + (Move("Stacy", 3),) + view.moves[3:]), size, name="moved")
    for k, cell in enumerate(cells):
        differs = np.any(region(image, cell) != region(moved, cell))
        assert differs == (k == 2)


@pytest.mark.parametrize("size", DOC_SIZES)
def test_bunco_button_shows_while_playing(frame, size):
    lay = layout_for(size)
    image = frame(examples.mid_round(), size)
    assert px(image, (lay.bunco_button.centerx, lay.bunco_button.y + lay.bunco_button.h // 8)) == BUTTON
    waiting = frame(replace(examples.mid_round(), phase="waiting", banners=()), size, name="waiting")
    assert count_colour(waiting, lay.bunco_button, BUTTON) == 0


@pytest.mark.parametrize("size", DOC_SIZES)
def test_network_status_in_the_corner(frame, size):
    lay = layout_for(size)
    online = frame(replace(examples.mid_round(), network="online"), size, name="on")
    offline = frame(replace(examples.mid_round(), network="offline"), size, name="off")
    assert count_colour(online, lay.network, (0, 190, 140)) > 20
    assert count_colour(offline, lay.network, (255, 110, 40)) > 20
    assert count_colour(offline, lay.network, (0, 190, 140)) == 0


def test_turn_stripe_in_the_rolling_team_colour(frame):
    size = (800, 480)
    lay = layout_for(size)
    us = frame(two_teams(1, 1, turn_team=0), size, name="us")
    them = frame(two_teams(1, 1, turn_team=1, turn_player="Carol", turn_partner="Hannah"), size, name="them")
    spot = (lay.turn_name.x + 2, lay.turn_name.centery)
    assert px(us, spot) == SKY_BLUE
    assert px(them, spot) == ORANGE
