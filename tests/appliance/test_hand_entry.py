"""Keying the dice in by hand, and correcting a misread: real pygame events (SDL's dummy
driver) through the real `bunco table` command, then `bunco export` and `bunco replay`."""

from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from appliance.cli import main  # noqa: E402
from appliance.commands.export import export_lines  # noqa: E402
from appliance.game.rules import HouseRules  # noqa: E402
from appliance.nightlog import replay, result_json  # noqa: E402
from appliance.store import EventStore  # noqa: E402
from appliance.table_app import TableApp  # noqa: E402
from appliance.table_unit import TableUnit  # noqa: E402
from appliance.ui.display import Display, Input, Pick  # noqa: E402
from appliance.ui.layout import layout_for, panel_layout  # noqa: E402

PLAYERS = ("Ann", "Bea", "Cat", "Dot")


def key(k: int, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=unicode, scancode=0))


def click(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))


def exported(data: Path) -> list[dict]:
    return [json.loads(line) for line in export_lines(data)]


def test_bunco_table_camera_none_takes_111_enter_space(tmp_path):
    """The command itself: keys 1 1 1 Enter, space, then Escape (quit); the log holds a hand roll and
    a call, and replay credits the Bunco to whoever rolled it."""
    pygame.display.init()
    pygame.event.clear()
    for k, u in ((pygame.K_1, "1"), (pygame.K_1, "1"), (pygame.K_1, "1"), (pygame.K_RETURN, "\r"),
                 (pygame.K_SPACE, " "), (pygame.K_ESCAPE, "\x1b")):
        key(k, u)
    data = tmp_path / "D"
    code = main(["table", "--standalone", "--players", ",".join(PLAYERS), "--camera", "none", "--fake-gpio",
                 "--data", str(data), "--headless", "--seed", "3"])
    assert code == 0
    lines = exported(data)
    kinds = [line["type"] for line in lines]
    assert kinds == ["night", "round", "roll", "call"]
    roll = lines[2]
    assert roll["dice"] == [1, 1, 1] and roll["source"] == "hand"
    result = result_json(replay(export_lines(data)))
    assert result["players"][roll["player"]]["buncos"] == 1
    assert sum(p["buncos"] for p in result["players"].values()) == 1


def make_app(tmp_path: Path, size=(800, 480)) -> tuple[TableApp, Display]:
    unit = TableUnit(EventStore.in_dir(tmp_path), PLAYERS, HouseRules(sets=1), seed=7, hand_only=True)
    display = Display(mode="headless", size=size)
    unit.signals.show = display.show
    unit._refresh(())  # noqa: SLF001 - first frame, as `bunco table` draws it
    pygame.event.clear()
    return TableApp(unit, None, None, display=display), display


def points(unit: TableUnit) -> tuple[int, ...]:
    return tuple(t.points for t in unit.view().teams)


def test_touch_pickers_and_ok_log_a_hand_roll(tmp_path):
    app, display = make_app(tmp_path)
    unit = app.unit
    roller = unit.table_round.roller
    click(layout_for(display.size).entry_button.center)
    assert app.step()
    assert unit.view().panel is not None and unit.view().panel.dice == (0, 0, 0)
    pl = panel_layout(display.size, "entry", 3)
    click(pl.buttons["ok"].center)             # OK before every die is picked: nothing
    for die, face in enumerate((1, 4, 1)):
        click(pl.pickers[die][face - 1].center)
    click(pl.pickers[1][2].center)             # changed her mind: the middle die is a 3
    assert app.step()
    assert unit.view().panel.dice == (1, 3, 1) and points(unit) == (0, 0)
    click(pl.buttons["ok"].center)
    assert app.step()
    view = unit.view()
    assert view.panel is None and view.last_roll == (1, 3, 1) and view.last_roller == roller
    assert points(unit)[0] == 2
    roll = [e.body for e in unit.store.events() if e.body["type"] == "roll"][-1]
    assert roll["source"] == "hand" and roll["player"] == roller
    display.close()


def test_digits_backspace_and_escape(tmp_path):
    app, display = make_app(tmp_path)
    unit = app.unit
    for k in (pygame.K_2, pygame.K_5, pygame.K_BACKSPACE, pygame.K_KP6, pygame.K_4, pygame.K_3):
        key(k)
    assert app.step()
    assert unit.view().panel.dice == (2, 6, 4)   # the 5 was erased; a fourth digit is not taken
    key(pygame.K_ESCAPE)                          # with a panel open, Escape cancels, it does not quit
    assert app.step()
    assert unit.view().panel is None and unit.view().last_roll == ()
    assert [e.body["type"] for e in unit.store.events()] == ["night", "round"]
    display.close()


def test_three_rerolls_in_a_row_offer_hand_entry(tmp_path):
    unit = TableUnit(EventStore.in_dir(tmp_path), PLAYERS, HouseRules(sets=1), seed=7)
    for n in range(3):
        assert unit.view().entry == "show"
        assert not any(b.kind == "hand_entry" for b in unit.view().banners)
        unit.on_reading((1, 2), unreadable=1, reroll=True)
    view = unit.view()
    assert view.entry == "offer" and any(b.kind == "hand_entry" for b in view.banners)
    unit.on_reading((2, 2, 3))
    assert unit.view().entry == "show"


def test_a_single_tap_on_the_last_roll_changes_nothing(tmp_path):
    app, display = make_app(tmp_path)
    unit = app.unit
    unit.on_reading((1, 1, 5), source="hand")
    before, log_before = points(unit), len(unit.store)
    click(layout_for(display.size).dice_area.center)
    assert app.step()
    assert unit.view().panel.kind == "menu"
    assert points(unit) == before and len(unit.store) == log_before
    click((5, display.size[1] - 5))            # a touch beside the panel's buttons
    assert app.step()
    assert points(unit) == before and len(unit.store) == log_before and unit.view().panel.kind == "menu"
    display.close()


def test_tap_take_back_confirm_takes_the_roll_back(tmp_path):
    app, display = make_app(tmp_path)
    unit = app.unit
    unit.on_reading((1, 1, 5), source="hand")
    assert points(unit)[0] == 2
    click(layout_for(display.size).dice_area.center)
    assert app.step()
    click(panel_layout(display.size, "menu").buttons["take_back"].center)
    assert app.step()
    assert unit.view().panel.kind == "confirm" and points(unit)[0] == 2
    click(panel_layout(display.size, "confirm").buttons["yes"].center)
    assert app.step()
    assert points(unit)[0] == 0 and unit.view().last_roll == () and unit.view().panel is None
    assert [e.body["type"] for e in unit.store.events()][-2:] == ["roll", "undo"]
    display.close()


def test_correction_is_undo_plus_hand_roll_and_replays(tmp_path):
    app, display = make_app(tmp_path, size=(1920, 1080))
    unit = app.unit
    unit.on_reading((1, 1, 5), source="camera")   # the camera misread a 1 as a 5
    roller = unit.view().last_roller
    click(layout_for(display.size).dice_area.center)
    assert app.step()
    click(panel_layout(display.size, "menu").buttons["correct"].center)
    assert app.step()
    assert unit.view().panel.kind == "entry" and unit.view().panel.dice == (1, 1, 5)
    click(panel_layout(display.size, "entry", 3).pickers[2][0].center)
    click(panel_layout(display.size, "entry", 3).buttons["ok"].center)
    assert app.step()
    panel = unit.view().panel
    assert panel.kind == "confirm" and panel.dice == (1, 1, 1) and points(unit)[0] == 2
    key(pygame.K_RETURN)                          # Enter confirms too
    assert app.step()
    view = unit.view()
    assert view.last_roll == (1, 1, 1) and view.last_roller == roller and view.panel is None
    assert any(b.kind == "press_bunco" for b in view.banners)
    tail = [e.body for e in unit.store.events()][-3:]
    assert [b["type"] for b in tail] == ["roll", "undo", "roll"]
    assert tail[2]["source"] == "hand" and tail[2]["dice"] == [1, 1, 1] and tail[2]["player"] == roller
    unit.press()
    assert result_json(replay(export_lines(tmp_path))) == result_json(unit.night.finish())
    assert result_json(unit.night.finish())["players"][roller]["buncos"] == 1
    display.close()


def test_a_confirm_about_a_roll_that_is_gone_does_nothing(tmp_path):
    unit = TableUnit(EventStore.in_dir(tmp_path), PLAYERS, HouseRules(sets=1), seed=7)
    unit.on_reading((2, 3, 4))
    unit.tap_roll()
    unit.take_back()
    assert unit.view().panel.kind == "confirm"
    unit.on_reading((5, 5, 6))                    # the camera reads the next roll meanwhile
    assert unit.view().panel is None
    unit.ok()                                     # a late Enter: opens the pickers, takes nothing back
    assert unit.view().last_roll == (5, 5, 6)
    assert [e.body["type"] for e in unit.store.events()].count("undo") == 0


def test_display_maps_keys_and_panel_touches(tmp_path):
    with Display(mode="headless", size=(800, 480)) as display:
        pygame.event.clear()
        key(pygame.K_3)
        key(pygame.K_RETURN)
        key(pygame.K_ESCAPE)
        assert display.pump() == [Pick(3), Input.OK, Input.QUIT]
        click(layout_for(display.size).dice_area.center)
        click(layout_for(display.size).entry_button.center)
        assert display.pump() == [Input.ROLL_TAP, Input.ENTRY]


@pytest.mark.parametrize("four, panels", [("individual", 4), ("teams", 2)])
def test_one_table_of_four_each_for_herself_or_in_teams(tmp_path, four, panels):
    pygame.display.init()
    pygame.event.clear()
    for k in (pygame.K_2, pygame.K_3, pygame.K_1, pygame.K_RETURN, pygame.K_ESCAPE):
        key(k)
    data = tmp_path / "D"
    assert main(["table", "--standalone", "--players", ",".join(PLAYERS), "--camera", "none", "--fake-gpio",
                 "--data", str(data), "--headless", "--seed", "3", "--four-players", four]) == 0
    lines = exported(data)
    assert lines[0]["rules"] == ({"four_players": "individual"} if four == "individual" else {})
    assert lines[2]["dice"] == [2, 3, 1] and lines[2]["source"] == "hand"
    unit = TableUnit(EventStore.in_dir(data), (), HouseRules(), seed=0)
    view = unit.view()
    assert len(view.teams) == panels and sum(t.points for t in view.teams) == 1
    if four == "individual":
        assert [t.label for t in view.teams] == list(unit.table_round.setup.seats) and view.turn_partner is None
    unit.store.close()


def test_four_dice_rule_opens_four_pickers(tmp_path):
    rules = HouseRules(sets=1, dice=4, traveling_trio=(1, 2, 3, 4))
    unit = TableUnit(EventStore.in_dir(tmp_path), PLAYERS, rules, seed=7)
    roller = unit.table_round.roller
    unit.open_entry()
    assert unit.view().panel.dice == (0, 0, 0, 0)
    for face in (1, 1, 2, 5):
        unit.pick(face)
    unit.ok()
    view = unit.view()
    assert view.last_roll == (1, 1, 2, 5) and view.last_roller == roller and view.panel is None
    assert [e.body.get("source") for e in unit.store.events() if e.body["type"] == "roll"] == ["hand"]
