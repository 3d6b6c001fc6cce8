"""The view data: mis-built views fail where they are built, with the field named."""

from dataclasses import replace

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.ui import examples
from appliance.ui.layout import layout_for
from appliance.ui.table_screen import draw_table
from appliance.ui.view import BANNER_PRIORITY, Banner, Move, TableView, TeamView


def test_unknown_banner_kind_is_refused():
    with pytest.raises(ValueError, match="Banner.kind 'bunko'"):
        Banner("bunko", "BUNCO!")


@pytest.mark.parametrize("change, field", [
    (dict(phase="paused"), "phase"),
    (dict(network="wifi"), "network"),
    (dict(target=7), "target"),
    (dict(points_to_win=0), "points_to_win"),
    (dict(last_roll=(1, 7, 3)), "last_roll"),
    (dict(scoring=(True,)), "scoring"),
    (dict(turn_team=2), "turn_team"),
    (dict(teams=()), "teams"),
])
def test_bad_view_names_the_field(change, field):
    with pytest.raises(ValueError, match=f"TableView.{field}"):
        replace(examples.mid_round(), **change)


def test_leaders():
    v = examples.mid_round()                                    # 8 vs 23
    assert v.leaders() == (1,)
    assert replace(v, teams=(TeamView("Us", ("A", "B"), 5), TeamView("Them", ("C", "D"), 5))).leaders() == ()
    over = examples.end_of_round()
    assert over.leaders() == (1,)
    # After a roll-off the winners decide, not the points.
    assert replace(over, winners=("Stacy", "Wanda")).leaders() == (0,)


def test_banners_sort_by_importance():
    v = replace(examples.mid_round(), banners=(
        Banner("traveling", "t"), Banner("reroll", "r"), Banner("bunco", "b"), Banner("press_bunco", "p")))
    assert [b.kind for b in v.banners_by_priority()] == ["bunco", "press_bunco", "reroll", "traveling"]
    assert BANNER_PRIORITY[:2] == ("bunco", "press_bunco")


names = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x24F), min_size=1, max_size=24)


@st.composite
def views(draw):
    n = draw(st.integers(1, 4))
    teams = tuple(TeamView(draw(names), tuple(draw(st.lists(names, min_size=1, max_size=2))),
                           draw(st.integers(0, 120))) for _ in range(n))
    dice = tuple(draw(st.lists(st.integers(1, 6), min_size=0, max_size=4)))
    scoring = tuple(draw(st.lists(st.booleans(), min_size=len(dice), max_size=len(dice)))) if dice else ()
    banners = tuple(Banner(k, draw(names)) for k in draw(st.lists(st.sampled_from(BANNER_PRIORITY), max_size=5)))
    return TableView(
        table=draw(st.integers(1, 12)), set_no=draw(st.integers(1, 4)), round_no=draw(st.integers(1, 6)),
        target=draw(st.integers(1, 6)), points_to_win=draw(st.sampled_from([11, 21])), teams=teams,
        phase=draw(st.sampled_from(["waiting", "playing", "ending", "roll_off", "over"])),
        turn_player=draw(st.none() | names), turn_partner=draw(st.none() | names),
        turn_team=draw(st.none() | st.integers(0, n - 1)), turn_points=draw(st.integers(0, 200)),
        last_roll=dice, scoring=scoring, last_roller=draw(st.none() | names), banners=banners,
        winners=tuple(draw(st.lists(names, max_size=2))),
        moves=tuple(Move(draw(names), draw(st.integers(1, 12))) for _ in range(draw(st.integers(0, 8)))),
        network=draw(st.sampled_from(["standalone", "online", "offline", "connecting"])),
    )


@settings(max_examples=40, deadline=None)
@given(view=views(), w=st.integers(480, 1920), h=st.integers(320, 1080))
def test_any_view_draws_at_any_size_inside_the_screen(view, w, h):
    surface = pygame.Surface((w, h))
    lay = draw_table(surface, view)
    screen = surface.get_rect()
    rects = [lay.header, lay.banner, lay.bottom, lay.target_die, lay.bunco_button, lay.dice_area, *lay.dice]
    rects += [tl.panel for tl in lay.teams] + [tl.bar for tl in lay.teams]
    for r in rects:
        assert screen.contains(r), r
    # The big regions do not overlap.
    big = [lay.header, lay.banner, lay.bottom, lay.target] + [tl.panel for tl in lay.teams]
    for i, a in enumerate(big):
        for b in big[i + 1:]:
            assert not a.colliderect(b), (a, b)
    assert len(lay.teams) == len(view.teams)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_long_names_are_shrunk_to_fit_their_box(size):
    from appliance.ui.text import draw_text

    surface = pygame.Surface(size)
    box = layout_for(size).teams[0].label
    landed = draw_text(surface, "Bartholomew-Wilhelmina Featherstonehaugh", box, (255, 255, 255))
    assert box.contains(landed)
    short = draw_text(surface, "Us", box, (255, 255, 255))
    assert short.h > landed.h            # short names keep the big type
