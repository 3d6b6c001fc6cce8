"""The Display under SDL's dummy driver: real pygame events in, simple inputs out."""

import os

import pygame
import pytest

from appliance.errors import UserError
from appliance.ui import examples
from appliance.ui.display import Display, DisplayError, Input, choose_mode, window_size
from appliance.ui.layout import layout_for


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def display(clock):
    d = Display(mode="headless", size=(800, 480), hold_s=1.0, clock=clock)
    pygame.event.clear()
    yield d
    d.close()


def post(kind, **attrs):
    pygame.event.post(pygame.event.Event(kind, **attrs))


def test_headless_display_has_the_asked_size_and_never_sleeps(monkeypatch, tmp_path):
    monkeypatch.setenv("SDL_VIDEO_ALLOW_SCREENSAVER", "1")   # someone's desktop setting
    with Display(mode="headless", size=(1920, 1080)) as d:
        assert d.size == (1920, 1080)
        assert pygame.display.get_driver() == "dummy"
        assert pygame.display.get_allow_screensaver() is False
        d.show(examples.mid_round())
        path = d.screenshot(tmp_path / "shots" / "head.png")
        image = pygame.image.load(str(path))
        assert image.get_size() == (1920, 1080)
        banner = layout_for((1920, 1080)).banner
        assert tuple(image.get_at((banner.centerx, banner.y + 2)))[:3] == (240, 228, 66)


def test_space_is_bunco_escape_and_close_are_quit(display):
    post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=44)
    post(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=4)
    post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41)
    post(pygame.QUIT)
    assert display.pump() == [Input.BUNCO, Input.QUIT, Input.QUIT]
    assert display.pump() == []


def test_backspace_must_be_held_to_undo(display, clock):
    post(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="\b", scancode=42)
    assert display.pump() == []
    clock.now += 0.5
    assert display.pump() == []
    clock.now += 0.6                        # held 1.1 s
    assert display.pump() == [Input.UNDO]
    clock.now += 2
    assert display.pump() == []              # once per press, however long it is held
    post(pygame.KEYUP, key=pygame.K_BACKSPACE, mod=0, unicode="\b", scancode=42)
    assert display.pump() == []
    # A quick tap does nothing.
    post(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="\b", scancode=42)
    assert display.pump() == []
    clock.now += 0.3
    post(pygame.KEYUP, key=pygame.K_BACKSPACE, mod=0, unicode="\b", scancode=42)
    assert display.pump() == []


def test_click_and_touch_on_the_button_and_the_last_roll(display):
    lay = layout_for((800, 480))
    post(pygame.MOUSEBUTTONDOWN, pos=lay.bunco_button.center, button=1, touch=False)
    post(pygame.MOUSEBUTTONDOWN, pos=lay.dice_area.center, button=1, touch=False)
    post(pygame.MOUSEBUTTONDOWN, pos=lay.teams[0].panel.center, button=1, touch=False)   # nothing there
    post(pygame.MOUSEBUTTONDOWN, pos=lay.bunco_button.center, button=3, touch=False)     # right button
    assert display.pump() == [Input.BUNCO, Input.ROLL_TAP]   # a touch on the roll only asks

    x, y = lay.bunco_button.center
    post(pygame.FINGERDOWN, x=x / 800, y=y / 480, touch_id=1, finger_id=0, pressure=1.0, dx=0.0, dy=0.0)
    # SDL's mouse event made from the same touch must not count twice.
    post(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=True)
    assert display.pump() == [Input.BUNCO]


def test_auto_mode_follows_the_environment():
    assert choose_mode("auto", {"SDL_VIDEODRIVER": "dummy"}, "linux") == "headless"
    assert choose_mode("auto", {}, "linux") == "fullscreen"                    # a Pi console
    assert choose_mode("auto", {"DISPLAY": ":0"}, "linux") == "window"
    assert choose_mode("auto", {"WAYLAND_DISPLAY": "wayland-0"}, "linux") == "window"
    assert choose_mode("auto", {}, "darwin") == "window"
    assert choose_mode("window", {"SDL_VIDEODRIVER": "dummy"}, "linux") == "window"
    with pytest.raises(DisplayError, match="display mode 'tv'"):
        choose_mode("tv")


def test_window_size_is_the_largest_that_fits():
    assert window_size((2560, 1440)) == (1920, 1080)
    assert window_size((1920, 1080)) == (1280, 720)     # leaves room for the title bar
    assert window_size((1366, 768)) == (1200, 675)
    assert window_size((1024, 600)) == (938, 528)
    assert window_size((800, 480)) == (800, 480)        # never smaller than the Pi display


def test_bad_size_is_a_user_error():
    with pytest.raises(UserError, match="200x100 is too small"):
        Display(mode="headless", size=(200, 100))


def test_headless_forces_the_dummy_driver(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    with Display(mode="headless", size=(800, 480)) as d:
        assert pygame.display.get_driver() == "dummy"
        assert os.environ["SDL_VIDEODRIVER"] == "dummy"
        assert d.mode == "headless"


def test_show_draws_the_hostess_screen_too(tmp_path):
    with Display(mode="headless", size=(800, 480)) as d:
        d.show(examples.head_prizes())
        image = pygame.image.load(str(d.screenshot(tmp_path / "head.png")))
        assert image.get_size() == (800, 480)
        from appliance.ui.head_screen import head_layout_for
        view = examples.head_prizes()
        lay = head_layout_for((800, 480), len(view.tables), len(view.sheet))
        assert tuple(image.get_at((lay.banner.centerx, lay.banner.y + 2)))[:3] == (0, 158, 115)
