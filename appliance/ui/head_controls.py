"""The head screen's touch controls: a row of big buttons, and the overlays they open.

The hostess's quick things on the head's own screen: start the night, the next round now,
take back a roll at a table (pick the table, then confirm), and the page's QR code with the
PIN. What is shown is in the HeadView (buttons, overlay); where each button is comes from
control_rects(), which the drawing and the touch handling both use, so a tap lands on what
was drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from appliance.ui.table_screen import BG, DIM, PANEL, PANEL_EDGE, TEXT
from appliance.ui.text import draw_text

BUTTON = (230, 159, 0)        # orange: a button that can be pressed now
BUTTON_OFF = (60, 64, 72)
BUTTON_TEXT = (0, 0, 0)
SHADE = (0, 0, 0, 190)


@dataclass(frozen=True)
class Button:
    key: str          # what a tap does: "start", "next", "undo", "qr", "table:2", "yes", "close" ...
    label: str
    enabled: bool = True


@dataclass(frozen=True)
class Overlay:
    """A panel over the screen: a question with its buttons, or the page's QR code and PIN."""
    title: str
    lines: tuple[str, ...] = ()
    buttons: tuple[Button, ...] = ()
    qr: tuple[str, ...] = ()      # the QR code's rows, "1" dark and "0" light


def bar_rect(size: tuple[int, int], banner: pygame.Rect) -> pygame.Rect:
    """The buttons take the right part of the banner line."""
    w = round(banner.w * 0.56)
    return pygame.Rect(banner.right - w, banner.y, w, banner.h)


def panel_rect(size: tuple[int, int]) -> pygame.Rect:
    w, h = size
    return pygame.Rect(round(w * 0.08), round(h * 0.06), round(w * 0.84), round(h * 0.88))


def control_rects(size: tuple[int, int], banner: pygame.Rect, buttons: tuple[Button, ...],
                  overlay: Overlay | None) -> dict[str, pygame.Rect]:
    """Where each button is: the overlay's when one is open (the bar is covered), else the bar's."""
    if overlay is not None:
        panel = panel_rect(size)
        pad = round(panel.h * 0.04)
        n = max(1, len(overlay.buttons))
        row_h = round(panel.h * 0.16)
        if overlay.qr or len(overlay.buttons) <= 3:  # one row along the bottom
            bw = (panel.w - pad * (n + 1)) // n
            return {b.key: pygame.Rect(panel.x + pad + k * (bw + pad), panel.bottom - pad - row_h, bw, row_h)
                    for k, b in enumerate(overlay.buttons)}
        cols = 2
        rows = -(-n // cols)
        top = panel.y + round(panel.h * 0.2)
        bh = min(row_h, (panel.bottom - pad - top - pad * (rows - 1)) // rows)
        bw = (panel.w - pad * (cols + 1)) // cols
        return {b.key: pygame.Rect(panel.x + pad + (k % cols) * (bw + pad), top + (k // cols) * (bh + pad), bw, bh)
                for k, b in enumerate(overlay.buttons)}
    bar = bar_rect(size, banner)
    n = max(1, len(buttons))
    gap = max(4, bar.h // 8)
    bw = (bar.w - gap * (n - 1)) // n
    return {b.key: pygame.Rect(bar.x + k * (bw + gap), bar.y, bw, bar.h) for k, b in enumerate(buttons)}


def _button(surface: pygame.Surface, rect: pygame.Rect, button: Button) -> None:
    radius = max(4, rect.h // 5)
    pygame.draw.rect(surface, BUTTON if button.enabled else BUTTON_OFF, rect, border_radius=radius)
    draw_text(surface, button.label, rect.inflate(-rect.h // 3, -rect.h // 3),
              BUTTON_TEXT if button.enabled else DIM, align="center")


def draw_controls(surface: pygame.Surface, banner: pygame.Rect, buttons: tuple[Button, ...],
                  overlay: Overlay | None) -> dict[str, pygame.Rect]:
    size = surface.get_size()
    rects = control_rects(size, banner, buttons, overlay)
    if overlay is None:
        for b in buttons:
            _button(surface, rects[b.key], b)
        return rects
    shade = pygame.Surface(size, pygame.SRCALPHA)
    shade.fill(SHADE)
    surface.blit(shade, (0, 0))
    panel = panel_rect(size)
    pygame.draw.rect(surface, PANEL, panel, border_radius=round(panel.h * 0.04))
    pygame.draw.rect(surface, PANEL_EDGE, panel, 2, border_radius=round(panel.h * 0.04))
    pad = round(panel.h * 0.04)
    title = pygame.Rect(panel.x + pad, panel.y + pad, panel.w - 2 * pad, round(panel.h * 0.12))
    draw_text(surface, overlay.title, title, TEXT, align="center")
    buttons_top = min((r.y for r in rects.values()), default=panel.bottom - pad)
    if overlay.qr:
        area = pygame.Rect(panel.x + pad, title.bottom + pad, panel.w // 2 - pad, buttons_top - title.bottom - 2 * pad)
        _draw_qr(surface, area, overlay.qr)
        text = pygame.Rect(area.right + pad, area.y, panel.right - area.right - 2 * pad, area.h)
    else:
        text = pygame.Rect(panel.x + pad, title.bottom, panel.w - 2 * pad, round(panel.h * 0.1) * len(overlay.lines))
    line_h = min(round(panel.h * 0.14), text.h // max(1, len(overlay.lines))) if overlay.lines else 0
    for k, line in enumerate(overlay.lines):
        draw_text(surface, line, pygame.Rect(text.x, text.y + k * line_h, text.w, line_h),
                  TEXT if k == 0 or overlay.qr else DIM, align="left" if overlay.qr else "center")
    for b in overlay.buttons:
        _button(surface, rects[b.key], b)
    return rects


def _draw_qr(surface: pygame.Surface, area: pygame.Rect, rows: tuple[str, ...]) -> None:
    """Dark modules on a white square with its quiet zone, as big as fits."""
    n = len(rows)
    cell = max(1, min(area.w, area.h) // (n + 4))
    side = cell * (n + 4)
    box = pygame.Rect(0, 0, side, side)
    box.center = area.center
    pygame.draw.rect(surface, (255, 255, 255), box)
    for y, row in enumerate(rows):
        for x, bit in enumerate(row):
            if bit == "1":
                pygame.draw.rect(surface, BG, (box.x + (x + 2) * cell, box.y + (y + 2) * cell, cell, cell))


def qr_rows(text: str) -> tuple[str, ...]:
    """The QR code of text (segno), as rows of "1"/"0" with no border (the drawing adds one)."""
    import segno

    qr = segno.make(text, error="m")
    return tuple("".join("1" if bit else "0" for bit in row) for row in qr.matrix)


def hit(rects: dict[str, pygame.Rect], pos: tuple[int, int]) -> str | None:
    return next((key for key, rect in rects.items() if rect.collidepoint(pos)), None)


def read_inputs(size: tuple[int, int]) -> list[tuple[str, tuple[int, int] | None]]:
    """The head screen's events: ("quit", None), ("start", None) for the space bar, ("tap", pos)."""
    out: list[tuple[str, tuple[int, int] | None]] = []
    for event in pygame.event.get():
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            out.append(("quit", None))
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            out.append(("start", None))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
            out.append(("tap", event.pos))  # SDL also makes clicks of touches: those come as FINGERDOWN
        elif event.type == pygame.FINGERDOWN:
            out.append(("tap", (round(event.x * size[0]), round(event.y * size[1]))))
    return out
