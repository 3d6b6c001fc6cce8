"""The hand-entry pickers, the correction's confirm, the round result and the night's end, drawn
with real pygame, saved as PNG and read back (the docs' screenshots are these views)."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from appliance.ui import examples
from appliance.ui.layout import die_probe, layout_for, moves_grid, panel_layout
from appliance.ui.table_screen import (
    DIE_FACE, ENTRY_OFFER, LIT_FACE, OK_BUTTON, OK_DIM, PANEL, RESULT_BANNER, UNLIT_FACE,
)
from appliance.ui.view import Panel

DOC_SIZES = [(800, 480), (1920, 1080)]


def px(image: pygame.Surface, pos) -> tuple[int, int, int]:
    return tuple(image.get_at(pos))[:3]


@pytest.mark.parametrize("size", DOC_SIZES)
def test_pickers_light_the_faces_picked_and_ok_waits_for_every_die(frame, size):
    view = examples.hand_entry()
    image = frame(view, size, name="entry")
    pl = panel_layout(size, "entry", 3)
    for die, picked in enumerate(view.panel.dice):
        for face, rect in enumerate(pl.pickers[die], start=1):
            assert px(image, die_probe(rect)) == (LIT_FACE if face == picked else UNLIT_FACE)
        assert pl.pickers[die][0].w >= 70 * min(size[0] / 800, size[1] / 480)   # a finger's width
    assert px(image, (pl.buttons["ok"].x + 8, pl.buttons["ok"].centery)) == OK_DIM
    done = frame(replace(view, panel=Panel("entry", view.panel.title, (1, 4, 2))), size, name="entry-done")
    assert px(done, (pl.buttons["ok"].x + 8, pl.buttons["ok"].centery)) == OK_BUTTON
    # the table behind is shaded: the lit Enter dice control is not seen through at full strength
    lay = layout_for(size)
    assert px(image, (lay.entry_button.centerx, lay.entry_button.bottom - 3)) != ENTRY_OFFER


@pytest.mark.parametrize("size", DOC_SIZES)
def test_the_enter_dice_control_stands_out_when_offered(frame, size):
    lay = layout_for(size)
    probe = (lay.entry_button.x + lay.entry_button.w // 2, lay.entry_button.y + 6 + lay.entry_button.h // 10)
    offered = frame(replace(examples.mixed_roll(), entry="offer"), size, name="offer")
    shown = frame(examples.mixed_roll(), size, name="shown")
    hidden = frame(replace(examples.mixed_roll(), entry="hide"), size, name="hidden")
    assert px(offered, probe) == ENTRY_OFFER
    assert px(shown, probe) != ENTRY_OFFER and px(shown, probe) != px(hidden, probe)


@pytest.mark.parametrize("size", DOC_SIZES)
def test_a_correction_shows_the_roll_that_will_stand(frame, size):
    view = examples.correct_roll()
    image = frame(view, size, name="correct")
    pl = panel_layout(size, "confirm", 3)
    assert len(pl.preview) == 3
    for rect in pl.preview:
        assert px(image, die_probe(rect)) == DIE_FACE
    assert px(image, (pl.buttons["yes"].x + 8, pl.buttons["yes"].centery)) == OK_BUTTON
    assert pl.hit(pl.buttons["no"].center) == ("no", 0, 0)
    assert pl.hit((pl.box.x + 2, pl.box.bottom - 2)) is None


def _banner_and_cards(image, size, cards: int) -> list[pygame.Rect]:
    """The result banner is drawn in its row, and a panel in each of the `cards` cells below: the cells."""
    lay = layout_for(size)
    assert px(image, (lay.banner.x + 4, lay.banner.centery)) == RESULT_BANNER[0]
    cells = moves_grid(lay.bottom, cards, lay.unit)
    for cell in cells:
        assert px(image, (cell.x + 3, cell.centery)) == PANEL
    return cells


@pytest.mark.parametrize("size", DOC_SIZES)
def test_the_result_keeps_the_banner_row_and_lists_four_moves(frame, size):
    view = examples.round_result_waiting()
    _banner_and_cards(frame(view, size, name="result"), size, 4)


@pytest.mark.parametrize("size", DOC_SIZES)
def test_the_night_end_lists_each_players_record(frame, size):
    view = examples.night_over()
    image = frame(view, size, name="night")
    cells = _banner_and_cards(image, size, len(view.cards))
    assert len(cells) == 4
    for cell in cells:
        inner = pygame.Rect(cell.x + cell.w // 20, cell.y, cell.w // 2, cell.h)
        bright = sum(1 for x in range(inner.x, inner.right, 2) for y in range(inner.y, inner.bottom, 2)
                     if min(px(image, (x, y))) > 200)
        assert bright > 20                                     # a name and a record are written
    # a party table cannot know the night's W/L: it points to the hostess's screen instead
    party = frame(replace(view, cards=(), network="online"), size, name="night-party")
    assert px(party, (cells[0].x + 3, cells[0].centery)) != PANEL
