"""Opens the screen and turns key presses and touches into the few inputs a table needs.

Three ways to run: a window on a desktop, fullscreen on a Pi console through SDL's kmsdrm
driver (no X or Wayland), or headless (SDL's dummy driver) for tests and demos, where
screenshot() is the only way to see a frame. In every mode the screensaver is switched
off: the screen must never blank while a party runs.
"""

from __future__ import annotations

import enum
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pygame

from appliance.errors import UserError
from appliance.ui.head_screen import draw_head
from appliance.ui.layout import layout_for
from appliance.ui.table_screen import draw_table
from appliance.ui.view import HeadView, TableView

log = logging.getLogger(__name__)

MODES = ("auto", "window", "fullscreen", "headless")
# Window sizes tried on a desktop, biggest first: the largest that fits is used.
WINDOW_SIZES: tuple[tuple[int, int], ...] = ((1920, 1080), (1280, 720), (800, 480))
HEADLESS_SIZE = (800, 480)


class DisplayError(UserError):
    """The screen could not be opened (no display, no kmsdrm device, bad size)."""


class Input(enum.Enum):
    BUNCO = "bunco"   # space bar, or a touch/click on the BUNCO! button
    UNDO = "undo"     # backspace held for hold_s, or a touch/click on the last roll
    QUIT = "quit"     # Escape or the window's close box


def choose_mode(mode: str, env: dict[str, str] | None = None, platform: str | None = None) -> str:
    """Resolve "auto": dummy driver -> headless; a Linux box without X/Wayland (a Pi
    console) -> fullscreen on kmsdrm; anything else -> a window."""
    if mode not in MODES:
        raise DisplayError(f"display mode {mode!r}: use one of {', '.join(MODES)}")
    if mode != "auto":
        return mode
    env = dict(os.environ) if env is None else env
    platform = sys.platform if platform is None else platform
    if env.get("SDL_VIDEODRIVER") == "dummy":
        return "headless"
    if platform.startswith("linux") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return "fullscreen"
    return "window"


def window_size(desktop: tuple[int, int]) -> tuple[int, int]:
    """The largest standard size that fits in the desktop with room for window borders."""
    dw, dh = desktop
    for w, h in WINDOW_SIZES[:-1]:
        if w <= dw * 0.95 and h <= dh * 0.9:
            return w, h
    # Between standard sizes (a 1366x768 laptop): a 16:9 window filling most of it.
    h = int(min(dh * 0.88, dw * 0.95 * 9 / 16))
    small = WINDOW_SIZES[-1]
    return (h * 16 // 9, h) if h * 16 // 9 >= small[0] and h >= small[1] else small


class Display:
    """The table's screen. show(view) draws a frame; pump() returns the inputs since the last call."""

    def __init__(self, mode: str = "auto", size: tuple[int, int] | None = None, hold_s: float = 1.0,
                 clock: Callable[[], float] = time.monotonic, title: str = "Bunco") -> None:
        if size is not None and (size[0] < 320 or size[1] < 240):
            raise DisplayError(f"display size {size[0]}x{size[1]} is too small (at least 320x240)")
        self.mode = choose_mode(mode)
        self.hold_s = hold_s
        self._clock = clock
        self._backspace_since: float | None = None
        self._backspace_fired = False
        if self.mode == "headless":
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        elif self.mode == "fullscreen" and sys.platform.startswith("linux") \
                and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
        try:
            pygame.display.init()
            pygame.font.init()
            self.surface = self._open(size, title)
        except pygame.error as exc:
            driver = os.environ.get("SDL_VIDEODRIVER", "default")
            raise DisplayError(f"cannot open the screen ({self.mode}, SDL driver {driver}): {exc}") from exc
        # Never blank during a party; on a console nobody needs a mouse pointer on the TV.
        pygame.display.set_allow_screensaver(False)
        if self.mode == "fullscreen":
            pygame.mouse.set_visible(False)
        log.info("screen %dx%d (%s, SDL driver %s)", *self.surface.get_size(), self.mode,
                 pygame.display.get_driver())

    def _open(self, size: tuple[int, int] | None, title: str) -> pygame.Surface:
        pygame.display.set_caption(title)
        if self.mode == "headless":
            return pygame.display.set_mode(size or HEADLESS_SIZE)
        if self.mode == "fullscreen":
            return pygame.display.set_mode(size or (0, 0), pygame.FULLSCREEN)
        desktop = pygame.display.get_desktop_sizes()[0]
        return pygame.display.set_mode(size or window_size(desktop), pygame.RESIZABLE)

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def show(self, view: TableView | HeadView) -> None:
        """Draw a table view (or the hostess's HeadView) and put it on the screen."""
        self.surface = pygame.display.get_surface() or self.surface  # follows a resized window
        if isinstance(view, HeadView):
            draw_head(self.surface, view)
        else:
            draw_table(self.surface, view)
        pygame.display.flip()

    def screenshot(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))
        return path

    def pump(self) -> list[Input]:
        """Inputs since the last call, in order. Call it every frame (it also keeps the
        window responsive and times a held backspace)."""
        out: list[Input] = []
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                out.append(Input.QUIT)
            elif event.type == pygame.KEYDOWN:
                if event.key == pygame.K_ESCAPE:
                    out.append(Input.QUIT)
                elif event.key == pygame.K_SPACE:
                    out.append(Input.BUNCO)
                elif event.key == pygame.K_BACKSPACE:
                    self._backspace_since = self._clock()
                    self._backspace_fired = False
            elif event.type == pygame.KEYUP and event.key == pygame.K_BACKSPACE:
                self._check_hold(out)
                self._backspace_since = None
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                    and not getattr(event, "touch", False):
                # SDL also turns touches into mouse clicks; those come as FINGERDOWN below.
                self._tap(event.pos, out)
            elif event.type == pygame.FINGERDOWN:
                w, h = self.size
                self._tap((round(event.x * w), round(event.y * h)), out)
        self._check_hold(out)
        return out

    def _check_hold(self, out: list[Input]) -> None:
        if self._backspace_since is not None and not self._backspace_fired \
                and self._clock() - self._backspace_since >= self.hold_s:
            self._backspace_fired = True
            out.append(Input.UNDO)

    def _tap(self, pos: tuple[int, int], out: list[Input]) -> None:
        lay = layout_for(self.size)
        if lay.bunco_button.collidepoint(pos):
            out.append(Input.BUNCO)
        elif lay.dice_area.collidepoint(pos):
            out.append(Input.UNDO)

    def close(self) -> None:
        pygame.display.quit()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
