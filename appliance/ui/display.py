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
from dataclasses import dataclass
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame

from appliance.errors import UserError
from appliance.ui.head_screen import draw_head
from appliance.ui.layout import layout_for, panel_layout
from appliance.ui.table_screen import draw_table
from appliance.ui.view import HeadView, Panel, TableView

log = logging.getLogger(__name__)

MODES = ("auto", "window", "fullscreen", "headless")
# Window sizes tried on a desktop, biggest first: the largest that fits is used.
WINDOW_SIZES: tuple[tuple[int, int], ...] = ((1920, 1080), (1280, 720), (800, 480))
HEADLESS_SIZE = (800, 480)


class DisplayError(UserError):
    """The screen could not be opened (no display, no kmsdrm device, bad size)."""


class Input(enum.Enum):
    BUNCO = "bunco"         # space bar, or a touch/click on the BUNCO! button
    UNDO = "undo"           # backspace held for hold_s (a deliberate hold, like the button's)
    QUIT = "quit"           # Escape (with no panel open) or the window's close box
    ENTRY = "entry"         # the "Enter dice" control: open the pickers
    ROLL_TAP = "roll_tap"   # a touch on the last roll: asks Take back / Correct, changes nothing
    OK = "ok"               # Enter, or the panel's OK / Yes
    CANCEL = "cancel"       # Escape with a panel open, or the panel's Cancel / No
    ERASE = "erase"         # backspace while picking: drop the last face typed
    TAKE_BACK = "take_back"
    CORRECT = "correct"


@dataclass(frozen=True)
class Pick:
    """A face for one die: a digit key 1-6 (die = None: the next one not picked) or a picker touch."""
    face: int
    die: int | None = None


DIGITS = {getattr(pygame, f"K_{n}"): n for n in range(1, 7)} | {getattr(pygame, f"K_KP{n}"): n for n in range(1, 7)}
PANEL_TAPS = {"ok": Input.OK, "yes": Input.OK, "cancel": Input.CANCEL, "no": Input.CANCEL,
              "take_back": Input.TAKE_BACK, "correct": Input.CORRECT}


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
        self._shown: TableView | HeadView | None = None  # touches map onto what was drawn
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
        self._shown = view
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

    @property
    def _panel(self) -> Panel | None:
        """The question open on the screen (a table's), which decides what keys and touches mean."""
        return self._shown.panel if isinstance(self._shown, TableView) else None

    def pump(self, wait_s: float = 0.0) -> list[Input | Pick]:
        """Inputs since the last call, in order (see inputs())."""
        return list(self.inputs(wait_s))

    def inputs(self, wait_s: float = 0.0) -> Iterator[Input | Pick]:
        """Inputs since the last call, in order. Call it every frame (it also keeps the
        window responsive and times a held backspace). `wait_s`: with no camera to pace the
        loop, block up to this long for the first event instead of spinning.

        Lazily: each event is read against the screen as it is when it is reached, so when a
        key opens a panel and the caller shows it, the next key (typed in the same frame) already
        means what the panel makes it mean."""
        events = pygame.event.get()
        if not events and wait_s > 0:
            first = pygame.event.wait(round(wait_s * 1000))
            events = [first] + pygame.event.get() if first.type != pygame.NOEVENT else []
        for event in events:
            out: list[Input | Pick] = []
            self._read(event, out)
            yield from out
        out = []
        self._check_hold(out)
        yield from out

    def _read(self, event: pygame.event.Event, out: list[Input | Pick]) -> None:
        """One pygame event as the table's inputs, by what the screen shows now."""
        if event.type == pygame.QUIT:
            out.append(Input.QUIT)
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                out.append(Input.CANCEL if self._panel is not None else Input.QUIT)
            elif event.key == pygame.K_SPACE:
                out.append(Input.BUNCO)
            elif event.key in DIGITS:
                out.append(Pick(DIGITS[event.key]))
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                out.append(Input.OK)
            elif event.key == pygame.K_BACKSPACE and self._panel is not None:
                out.append(Input.ERASE)
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

    def _check_hold(self, out: list[Input | Pick]) -> None:
        if self._backspace_since is not None and not self._backspace_fired \
                and self._clock() - self._backspace_since >= self.hold_s:
            self._backspace_fired = True
            out.append(Input.UNDO)

    def _tap(self, pos: tuple[int, int], out: list[Input | Pick]) -> None:
        """A touch means what is drawn under it: a panel's pickers and buttons while one is
        open (a touch beside them does nothing), else the table screen's controls."""
        panel = self._panel
        if panel is not None:
            hit = panel_layout(self.size, panel.kind, len(panel.dice)).hit(pos)
            if hit is not None and hit[0] == "pick":
                out.append(Pick(hit[2], hit[1]))
            elif hit is not None:
                out.append(PANEL_TAPS[hit[0]])
            return
        lay = layout_for(self.size)
        if lay.bunco_button.collidepoint(pos):
            out.append(Input.BUNCO)
        elif lay.entry_button.collidepoint(pos):
            out.append(Input.ENTRY)
        elif lay.dice_area.collidepoint(pos):
            out.append(Input.ROLL_TAP)

    def close(self) -> None:
        pygame.display.quit()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
