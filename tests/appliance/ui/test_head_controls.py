"""The head's touch screen, for real: pygame (SDL dummy driver) taps posted as events, the HeadApp
loop with a real HeadLink on a real mosquitto, screens saved as PNG and read back."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from appliance.game.rules import HouseRules
from appliance.head_app import HeadApp
from appliance.head_unit import HeadUnit
from appliance.net import messages
from appliance.net.client import Broker
from appliance.net.head_link import HeadLink
from appliance.net.mosquitto import MosquittoProcess, find_mosquitto
from appliance.store import EventStore
from appliance.ui.head_controls import BUTTON, control_rects
from appliance.ui.head_screen import head_layout_for

PLAYERS = ("Stacy", "Carol", "Wanda", "Hannah", "Betty", "Dolores", "Fran", "Gloria", "Irene", "June", "Kay", "Lois")
SHOTS = os.environ.get("BUNCO_SCREENSHOTS")  # docs/screenshots: write the README's pictures too


@pytest.fixture
def head(tmp_path: Path) -> Iterator[HeadApp]:
    binary = find_mosquitto()
    if binary is None:
        pytest.skip("the mosquitto binary is missing (apt-get install mosquitto)")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from appliance.ui.display import Display

    (tmp_path / "mq").mkdir()
    broker = MosquittoProcess(binary, tmp_path / "mq")
    broker.start()
    link = HeadLink("screen", Broker(broker.host, broker.port))
    store = EventStore.in_dir(tmp_path / "head")
    unit = HeadUnit(store, PLAYERS, HouseRules(sets=1), seed=3, net=link, countdown_s=600)
    display = Display(mode="headless")
    app = HeadApp(unit, link, display, autostart=False, refresh_s=0.0)
    app.page_url, app.pin = "http://192.168.1.20:8080/", "482913"
    link.start()
    yield app
    link.stop()
    display.close()
    store.close()
    broker.kill()


def tap_on(app: HeadApp, key: str) -> None:
    """A finger on the button `key` as it is drawn now, through SDL's event queue, then one loop pass."""
    view = app.screen_view()
    lay = head_layout_for(app.display.size, len(view.tables), len(view.sheet), view.rounds_in_set)
    rect = control_rects(app.display.size, lay.banner, view.buttons, view.overlay)[key]
    w, h = app.display.size
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=rect.centerx / w, y=rect.centery / h,
                                         touch_id=0, finger_id=0, dx=0, dy=0, pressure=1.0))
    app.step()


def shot(app: HeadApp, tmp_path: Path, name: str) -> Any:
    app._redraw = True  # noqa: SLF001 - draw now, whatever the refresh clock says
    app.step()
    path = app.display.screenshot(tmp_path / f"{name}.png")
    if SHOTS:
        app.display.screenshot(Path(SHOTS) / f"{name}.png")
    return pygame.surfarray.array3d(pygame.image.load(str(path))).astype(int)


def colour_count(image: Any, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    part = image[rect.left:rect.right, rect.top:rect.bottom]
    return int(np.all(part == np.array(colour), axis=-1).sum())


def test_before_the_start_every_table_shows_whether_it_is_online_and_the_qr_and_pin(head: HeadApp,
                                                                                   tmp_path: Path) -> None:
    view = head.screen_view()
    assert [(t.table, t.status, t.teams) for t in view.tables] == [(1, "offline", ()), (2, "offline", ()),
                                                                   (3, "offline", ())]
    assert [b.key for b in view.buttons] == ["start", "qr"]
    image = shot(head, tmp_path, "head-800x480-before-start")
    lay = head_layout_for(head.display.size, 3, 0)
    for card in lay.cards:  # each card has the offline look (orange edge)
        assert colour_count(image, card, (255, 110, 40)) > 50
    rects = control_rects(head.display.size, lay.banner, view.buttons, None)
    assert colour_count(image, rects["start"], BUTTON) > rects["start"].w * rects["start"].h // 3
    tap_on(head, "qr")
    assert head.screen == "qr"
    overlay = head.screen_view().overlay
    assert overlay.lines[:2] == ("http://192.168.1.20:8080/", "PIN 482913")
    image = shot(head, tmp_path, "head-800x480-qr-pin")
    # the QR code: a white square with dark modules, in the panel's left half
    w, h = head.display.size
    left = pygame.Rect(int(w * 0.1), int(h * 0.2), int(w * 0.38), int(h * 0.5))
    from appliance.ui.table_screen import BG

    assert colour_count(image, left, (255, 255, 255)) > 15_000  # the code's light modules and quiet zone
    assert colour_count(image, left, BG) > 10_000                # its dark modules
    tap_on(head, "close")
    assert head.screen == "" and head.screen_view().overlay is None


def test_start_then_take_back_a_roll_with_a_confirmation(head: HeadApp, tmp_path: Path) -> None:
    tap_on(head, "start")
    unit = head.unit
    assert unit.phase == "playing"
    assert [b.key for b in head.screen_view().buttons] == ["undo", "qr"]
    # nothing to take back yet: the list says so, and Cancel closes it
    tap_on(head, "undo")
    assert head.screen_view().overlay.lines == ("No table has a roll to take back in this round",)
    tap_on(head, "close")
    # table 2 throws (its line as the head receives it over the network)
    roller = unit.night.current.table(2).roller
    assert unit.ingest(messages.EventMsg(2, 1, {"type": "roll", "table": 2, "dice": [2, 5, 6], "round": 0,
                                                "player": roller}))
    tap_on(head, "undo")
    assert [b.key for b in head.screen_view().overlay.buttons] == ["table:2", "close"]
    shot(head, tmp_path, "head-800x480-undo-pick")
    tap_on(head, "table:2")
    overlay = head.screen_view().overlay
    assert overlay.title == "Take back table 2's last roll?" and overlay.lines == (f"{roller}: 2 5 6",)
    shot(head, tmp_path, "head-800x480-undo-confirm")
    tap_on(head, "close")  # "No": nothing sent
    assert unit.cmds.get(2) is None
    tap_on(head, "undo")
    tap_on(head, "table:2")
    tap_on(head, "yes")
    assert [c.cmd for c in unit.cmds[2]] == ["undo"] and head.screen == ""
    assert any(e.body["type"] == "command" and e.body["table"] == 2 for e in unit.store.events())


def test_a_button_that_cannot_act_now_says_why(head: HeadApp, tmp_path: Path) -> None:
    head.unit.remove_player("Lois")  # 11 players: still fine
    for p in PLAYERS[:10]:
        head.unit.remove_player(p)
    view = head.screen_view()
    assert view.buttons[0].key == "start" and not view.buttons[0].enabled
    tap_on(head, "start")
    banner = head.screen_view().banners[0].text
    assert banner == "cannot start: 1 player: Bunco needs at least 2"
    assert not head.unit.started
