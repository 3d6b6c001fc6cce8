"""The hostess screen rendered for real, saved as PNG, read back and checked."""

from dataclasses import replace

import numpy as np
import pygame
import pytest

from appliance.ui import examples
from appliance.ui.head_screen import draw_head, head_layout_for
from appliance.ui.layout import bar_mark_x
from appliance.ui.view import HeadView, SheetRow, TableTally, TeamView

SIZES = [(800, 480), (1920, 1080)]
WIN_CELL = (0, 158, 115)
BUNCO_DOT = (240, 228, 66)
OFFLINE = (255, 110, 40)
ONLINE = (0, 190, 140)


@pytest.fixture
def head_frame(tmp_path):
    def render(view, size, name="head"):
        surface = pygame.Surface(size)
        draw_head(surface, view)
        path = tmp_path / f"{name}-{size[0]}x{size[1]}.png"
        pygame.image.save(surface, str(path))
        return pygame.image.load(str(path))
    return render


def region(image, rect):
    return pygame.surfarray.array3d(image)[rect.left:rect.right, rect.top:rect.bottom].astype(int)


def count_colour(image, rect, colour):
    return int(np.all(region(image, rect) == np.array(colour), axis=-1).sum())


def lay_for(view, size):
    return head_layout_for(size, len(view.tables), len(view.sheet), view.rounds_in_set)


@pytest.mark.parametrize("size", SIZES)
def test_one_card_per_table_with_its_status(head_frame, size):
    view = examples.head_live()                      # table 3 offline
    image = head_frame(view, size)
    assert image.get_size() == size
    lay = lay_for(view, size)
    assert len(lay.cards) == 3
    for card, tally in zip(lay.cards, view.tables):
        if tally.status == "offline":
            assert count_colour(image, card, OFFLINE) > 50      # red-orange frame and word
            assert count_colour(image, card, ONLINE) == 0
        else:
            assert count_colour(image, card, ONLINE) > 10
            assert count_colour(image, card, OFFLINE) == 0
        # Each team line has a bar with its white 21 mark.
        whites = count_colour(image, card, (255, 255, 255))
        assert whites > 0


@pytest.mark.parametrize("size", SIZES)
def test_sheet_marks_wins_in_green_and_bunco_dots(head_frame, size):
    view = examples.head_live()
    image = head_frame(view, size)
    lay = lay_for(view, size)
    assert len(lay.rows) == len(view.sheet) == 12
    for k, row in enumerate(view.sheet):
        for r, mark in enumerate(row.marks):
            green = count_colour(image, lay.cell(k, f"r{r + 1}"), WIN_CELL)
            cell_area = lay.cell(k, f"r{r + 1}").w * lay.cell(k, f"r{r + 1}").h
            if mark == "W":
                assert green > cell_area * 0.3, (row.player, r)
            else:
                assert green == 0, (row.player, r)
        dots = sum(count_colour(image, lay.cell(k, f"r{r + 1}"), BUNCO_DOT) for r in range(len(row.marks)))
        assert (dots > 0) == (sum(row.buncos_by_round) > 0), row.player
        # Rounds not played yet stay empty.
        for r in range(len(row.marks), view.rounds_in_set):
            cell = lay.cell(k, f"r{r + 1}")
            assert region(image, cell).max() < 60


def test_totals_change_the_total_cells_only(head_frame):
    size = (1920, 1080)
    view = examples.head_live()
    lay = lay_for(view, size)
    before = head_frame(view, size, name="a")
    rows = list(view.sheet)
    rows[4] = replace(rows[4], buncos=rows[4].buncos + 5)
    after = head_frame(replace(view, sheet=tuple(rows)), size, name="b")
    diff = np.any(pygame.surfarray.array3d(before) != pygame.surfarray.array3d(after), axis=-1)
    changed = np.argwhere(diff)
    assert len(changed) > 0
    b_cell = lay.cell(4, "B")
    assert all(b_cell.collidepoint(int(x), int(y)) for x, y in changed)


def test_many_players_leave_the_rest_off_the_bottom():
    size = (800, 480)
    rows = tuple(SheetRow(k + 1, f"Player {k + 1}", ("W",), (0,), 1, 0, 0) for k in range(40))
    view = HeadView(set_no=1, round_no=2, target=2, points_to_win=21, phase="playing",
                    tables=tuple(TableTally(t + 1, (TeamView("Us", ("a", "b"), t), TeamView("Them", ("c", "d"), 0)))
                                 for t in range(10)),
                    sheet=rows)
    surface = pygame.Surface(size)
    lay = draw_head(surface, view)
    assert 0 < len(lay.rows) < 40
    assert all(lay.sheet.contains(r) for r in lay.rows)
    assert len(lay.cards) == 10 and all(lay.left.contains(c) for c in lay.cards)
    for a_i, a in enumerate(lay.cards):
        assert all(not a.colliderect(b) for b in lay.cards[a_i + 1:])


@pytest.mark.parametrize("size", SIZES)
def test_prizes_replace_the_tallies_at_the_end(head_frame, size):
    live = head_frame(examples.head_live(), size, name="live")
    end = head_frame(examples.head_prizes(), size, name="end")
    lay = lay_for(examples.head_prizes(), size)
    # The left column now holds the prize list: the yellow "Prizes" title, no status colours.
    assert count_colour(end, lay.left, BUNCO_DOT) > 100
    assert count_colour(end, lay.left, OFFLINE) == 0
    assert count_colour(live, lay.left, OFFLINE) > 0
    # The bell banner of the night's end fills the bottom strip.
    assert tuple(end.get_at((lay.banner.centerx, lay.banner.y + 2)))[:3] == (0, 158, 115)


def test_card_bar_mark_at_two_thirds(head_frame):
    size = (1920, 1080)
    view = replace(examples.head_live(), tables=(TableTally(1, (TeamView("Us", ("a", "b"), 0),
                                                                TeamView("Them", ("c", "d"), 0))),))
    image = head_frame(view, size)
    card = lay_for(view, size).cards[0]
    # Find the bar tracks: the darkest run in each team line; the mark is white at 2/3 of it.
    arr = region(image, card)
    track = np.all(arr == np.array((8, 9, 12)), axis=-1)
    ys = np.where(track.any(axis=0))[0]
    assert len(ys) > 0
    y = int(ys[len(ys) // 4])
    xs = np.where(track[:, y])[0]
    over = np.where(np.all(arr[:, y] == np.array((40, 43, 50)), axis=-1))[0]
    bar = pygame.Rect(card.x + int(xs.min()), card.y + y, int(over.max() - xs.min()) + 1, 1)
    mark = bar_mark_x(bar)
    assert abs(int(np.where(np.all(arr[:, y] == 255, axis=-1))[0].mean()) + card.x - mark) <= 2
