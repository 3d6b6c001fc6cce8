"""Several screens in one window: the demo shows the hostess's screen and every table's.

Each pane is part of one canvas that a unit draws into exactly as it would draw its own
screen (the same draw_table / draw_head at 800x480), so what the demo shows is what the
tables show. The canvas is scaled to whatever window there is, so a laptop screen
smaller than four Pi displays still shows all of them.
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame

from appliance.ui.head_screen import draw_head
from appliance.ui.table_screen import draw_table
from appliance.ui.view import HeadView, TableView

PANE = (800, 480)  # the official Pi touch display


class Pane:
    def __init__(self, wall: Wall, rect: pygame.Rect) -> None:
        self.wall, self.rect = wall, rect

    @property
    def surface(self) -> pygame.Surface:
        return self.wall.canvas.subsurface(self.rect)

    def show(self, view: TableView | HeadView) -> None:
        surface = self.surface
        (draw_head if isinstance(view, HeadView) else draw_table)(surface, view)
        self.wall.dirty = True

    def screenshot(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface.copy(), str(path))
        return path


class Wall:
    """A grid of panes on one Display (a window, or headless)."""

    def __init__(self, display, cols: int = 2, rows: int = 2, fps: float = 15.0) -> None:
        self.display = display
        self.canvas = pygame.Surface(self.size(cols, rows))
        self.dirty = False
        self._min_gap = 1.0 / fps
        self._flipped = 0.0
        w, h = PANE
        self.panes = [Pane(self, pygame.Rect(c * w, r * h, w, h)) for r in range(rows) for c in range(cols)]

    @staticmethod
    def size(cols: int = 2, rows: int = 2) -> tuple[int, int]:
        return PANE[0] * cols, PANE[1] * rows

    def flip(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.dirty and (force or now - self._flipped >= self._min_gap):
            window = pygame.display.get_surface()
            if window is not None:
                if window.get_size() == self.canvas.get_size():
                    window.blit(self.canvas, (0, 0))
                else:
                    window.blit(pygame.transform.smoothscale(self.canvas, window.get_size()), (0, 0))
            pygame.display.flip()
            self.dirty = False
            self._flipped = now

    def screenshot(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.canvas, str(path))
        return path
