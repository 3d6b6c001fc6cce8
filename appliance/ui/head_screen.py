"""The hostess screen: every table's live tally, the master score sheet, and the prizes.

Like the table screen it only draws what the HeadView holds (standings come sorted,
totals come summed); the layout follows the screen size and is exposed through
head_layout_for() so the tests check pixels where things are meant to be.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import pygame

from appliance.ui.layout import bar_fill_width, bar_mark_x, is_compact
from appliance.ui.table_screen import (
    BANNER_COLOURS,
    BAR_OVER,
    BAR_TRACK,
    BG,
    BLACK,
    DIM,
    MARK,
    NETWORK_LOOK,
    PANEL,
    PANEL_EDGE,
    TEXT,
    ordinal_word,
    team_colour,
)
from appliance.ui.text import draw_text, fit_size
from appliance.ui.view import BANNER_PRIORITY, HeadView, TableTally

WIN_CELL = (0, 158, 115)         # bluish green: a W on the sheet
BUNCO_DOT = (240, 228, 66)
ROW_STRIPE = (24, 27, 33)
TOTAL_COLUMNS = ("W", "L", "B")


@dataclass(frozen=True)
class SheetColumn:
    key: str          # "rank", "player", "r1".."r6", "W", "L", "B"
    title: str
    x: int
    w: int


@dataclass(frozen=True)
class HeadLayout:
    size: tuple[int, int]
    compact: bool
    unit: float
    header: pygame.Rect
    title: pygame.Rect
    subtitle: pygame.Rect
    network: pygame.Rect
    left: pygame.Rect                   # table cards, or the prizes when the night is over
    cards: tuple[pygame.Rect, ...]      # one per table
    sheet: pygame.Rect
    sheet_header: pygame.Rect
    rows: tuple[pygame.Rect, ...]       # one per shown sheet row (may be fewer than players)
    columns: tuple[SheetColumn, ...]
    banner: pygame.Rect

    def cell(self, row: int, key: str) -> pygame.Rect:
        r = self.rows[row]
        col = next(c for c in self.columns if c.key == key)
        return pygame.Rect(col.x, r.y, col.w, r.h)


def head_layout_for(size: tuple[int, int], n_tables: int, n_players: int, rounds: int = 6) -> HeadLayout:
    w, h = size
    compact = is_compact(size)
    u = min(w / 800, h / 480)
    m = max(4, round(8 * u))
    header = pygame.Rect(0, 0, w, round(h * (0.085 if compact else 0.075)))
    network = pygame.Rect(w - round(w * 0.26), header.y + m // 2, round(w * 0.26) - m, header.h - m)
    title = pygame.Rect(m, network.y, round(w * 0.36), network.h)
    subtitle = pygame.Rect(title.right + m, network.y, network.x - title.right - 2 * m, network.h)
    banner = pygame.Rect(m, h - m - round(h * 0.1), w - 2 * m, round(h * 0.1))
    body = pygame.Rect(m, header.bottom + m, w - 2 * m, banner.y - m - header.bottom - m)

    left = pygame.Rect(body.x, body.y, round(body.w * 0.36), body.h)
    sheet = pygame.Rect(left.right + m, body.y, body.right - left.right - m, body.h)

    n = max(1, n_tables)
    cols = 1 if n <= (3 if compact else 5) else 2
    rows_n = math.ceil(n / cols)
    cw = (left.w - m * (cols - 1)) // cols
    ch = min((left.h - m * (rows_n - 1)) // rows_n, round(left.h * 0.4))
    cards = tuple(pygame.Rect(left.x + (k % cols) * (cw + m), left.y + (k // cols) * (ch + m), cw, ch)
                  for k in range(n_tables))

    # Sheet rows: as tall as fits, never taller than a comfortable line; players that do not
    # fit are left off the bottom (the sheet arrives best first).
    max_row = round(h * 0.075)
    min_row = max(12, round(14 * u))
    row_h = max(min_row, min(max_row, sheet.h // (n_players + 1)))
    shown = min(n_players, sheet.h // row_h - 1)
    sheet_header = pygame.Rect(sheet.x, sheet.y, sheet.w, row_h)
    rows = tuple(pygame.Rect(sheet.x, sheet_header.bottom + k * row_h, sheet.w, row_h) for k in range(shown))

    # Columns: rank, name (the rest), one per round, the night's totals.
    unit_w = sheet.w / (1.3 + 4.5 + rounds + 3 * 1.15)
    widths = [("rank", "#", 1.3), ("player", "Player", 4.5)]
    widths += [(f"r{k + 1}", str(k + 1), 1.0) for k in range(rounds)]
    widths += [(t, t, 1.15) for t in TOTAL_COLUMNS]
    columns = []
    x = float(sheet.x)
    for key, title_text, share in widths:
        columns.append(SheetColumn(key, title_text, round(x), round(x + share * unit_w) - round(x)))
        x += share * unit_w
    return HeadLayout((w, h), compact, u, header, title, subtitle, network, left, cards, sheet,
                      sheet_header, rows, tuple(columns), banner)


def _draw_card(surface: pygame.Surface, rect: pygame.Rect, tally: TableTally, to_win: int, unit: float) -> None:
    radius = max(4, round(8 * unit))
    pygame.draw.rect(surface, PANEL, rect, border_radius=radius)
    offline = tally.status == "offline"
    words, colour = NETWORK_LOOK[tally.status]
    pygame.draw.rect(surface, colour if offline else PANEL_EDGE, rect,
                     max(3, round(3 * unit)) if offline else max(1, round(unit)), border_radius=radius)
    pad = max(3, round(6 * unit))
    inner = rect.inflate(-2 * pad, -2 * pad)
    top_h = round(inner.h * 0.3)
    top = pygame.Rect(inner.x, inner.y, inner.w, top_h)
    draw_text(surface, f"Table {tally.table}", pygame.Rect(top.x, top.y, top.w // 2, top.h), TEXT)
    status = draw_text(surface, words, pygame.Rect(top.centerx, top.y, top.w // 2, top.h).inflate(0, -top.h // 5),
                       colour, align="right")
    r = max(3, top.h // 6)
    dot = (status.x - 2 * r, top.centery)
    pygame.draw.circle(surface, colour, dot, r, 0 if not offline else max(2, r // 2))
    body = pygame.Rect(inner.x, top.bottom, inner.w, inner.bottom - top.bottom)
    if not tally.teams:  # before the start: the table is expected, nobody sits there yet
        draw_text(surface, "ready" if tally.status == "online" else "not switched on yet",
                  body.inflate(-pad, -body.h // 3), TEXT if tally.status == "online" else DIM, align="center")
        return
    n = max(1, len(tally.teams))
    line_h = body.h // n
    top_points = max((t.points for t in tally.teams), default=0)
    leaders = [i for i, t in enumerate(tally.teams) if t.points == top_points]
    for i, team in enumerate(tally.teams):
        line = pygame.Rect(body.x, body.y + i * line_h, body.w, line_h).inflate(0, -max(2, line_h // 8))
        name_w = round(line.w * 0.3)
        pts_w = round(line.w * 0.16)
        lead = len(leaders) == 1 and leaders[0] == i
        draw_text(surface, team.label, pygame.Rect(line.x, line.y, name_w, line.h), TEXT if lead else DIM)
        draw_text(surface, str(team.points), pygame.Rect(line.right - pts_w, line.y, pts_w, line.h), TEXT,
                  align="right")
        bar = pygame.Rect(line.x + name_w + pad, line.y + line.h // 4, line.w - name_w - pts_w - 2 * pad,
                          line.h // 2)
        pygame.draw.rect(surface, BAR_TRACK, bar)
        mx = bar_mark_x(bar)
        pygame.draw.rect(surface, BAR_OVER, pygame.Rect(mx, bar.y, bar.right - mx, bar.h))
        fill = bar_fill_width(bar, team.points, to_win)
        if fill:
            pygame.draw.rect(surface, team_colour(i), pygame.Rect(bar.x, bar.y, fill, bar.h))
        post = pygame.Rect(0, 0, max(2, round(3 * unit)), bar.h + 2 * max(2, bar.h // 5))
        post.center = (mx, bar.centery)
        pygame.draw.rect(surface, MARK, post)


def _draw_sheet(surface: pygame.Surface, lay: HeadLayout, view: HeadView) -> None:
    hdr = lay.sheet_header
    pygame.draw.rect(surface, PANEL, hdr)
    size = fit_size("Player", max(1, next(c.w for c in lay.columns if c.key == "player")), round(hdr.h * 0.7))
    for col in lay.columns:
        current = col.key == f"r{view.round_no}"
        rect = pygame.Rect(col.x, hdr.y, col.w, hdr.h)
        if current:
            pygame.draw.rect(surface, PANEL_EDGE, rect)
        draw_text(surface, col.title, rect.inflate(-4, -hdr.h // 4), TEXT if current else DIM,
                  align="left" if col.key == "player" else "center", size=min(size, fit_size(col.title, col.w - 4,
                                                                                             round(hdr.h * 0.7))))
    for k, (row_rect, row) in enumerate(zip(lay.rows, view.sheet)):
        if k % 2:
            pygame.draw.rect(surface, ROW_STRIPE, row_rect)
        text_h = round(row_rect.h * 0.72)
        draw_text(surface, str(row.rank), lay.cell(k, "rank").inflate(-4, 0), DIM, align="center",
                  size=fit_size("00", lay.cell(k, "rank").w - 4, text_h))
        draw_text(surface, row.player, lay.cell(k, "player").inflate(-4, 0), TEXT, align="left",
                  size=min(fit_size(row.player, lay.cell(k, "player").w - 4, text_h), fit_size("Wg", 999, text_h)))
        buncos = row.buncos_by_round or (0,) * len(row.marks)
        for r, (mark, b) in enumerate(zip(row.marks, buncos)):
            cell = lay.cell(k, f"r{r + 1}").inflate(-max(2, row_rect.h // 10), -max(2, row_rect.h // 10))
            if mark == "W":
                pygame.draw.rect(surface, WIN_CELL, cell, border_radius=max(2, cell.h // 6))
                draw_text(surface, "W", cell, BLACK, align="center", size=fit_size("W", cell.w, round(cell.h * 0.8)))
            elif mark == "L":
                draw_text(surface, "L", cell, DIM, align="center", size=fit_size("W", cell.w, round(cell.h * 0.8)))
            rr = max(3, cell.h // 5)   # a yellow dot on the mark for each Bunco that round
            for d in range(min(b, 3)):
                centre = (cell.right - rr - d * (2 * rr + 2), cell.y + rr)
                pygame.draw.circle(surface, BLACK, centre, rr + 1)
                pygame.draw.circle(surface, BUNCO_DOT, centre, rr)
        for key, value in zip(TOTAL_COLUMNS, (row.wins, row.losses, row.buncos)):
            cell = lay.cell(k, key)
            draw_text(surface, str(value), cell.inflate(-4, 0), TEXT if key != "L" else DIM, align="center",
                      size=fit_size("00", cell.w - 4, text_h))
    hidden = len(view.sheet) - len(lay.rows)
    if hidden > 0 and lay.rows:
        last = lay.rows[-1]
        note = pygame.Rect(lay.sheet.x, last.bottom, lay.sheet.w, min(last.h, lay.sheet.bottom - last.bottom))
        draw_text(surface, f"+ {hidden} more", note, DIM, align="center")


def _draw_prizes(surface: pygame.Surface, lay: HeadLayout, view: HeadView) -> None:
    area = lay.left
    pygame.draw.rect(surface, PANEL, area, border_radius=max(4, round(8 * lay.unit)))
    pad = max(4, round(8 * lay.unit))
    inner = area.inflate(-2 * pad, -2 * pad)
    title_h = round(inner.h * 0.12)
    draw_text(surface, "Prizes", pygame.Rect(inner.x, inner.y, inner.w, title_h), BUNCO_DOT, align="left")
    if not view.prizes:
        return
    line_h = min((inner.h - title_h) // len(view.prizes), round(inner.h * 0.2))
    for k, prize in enumerate(view.prizes):
        line = pygame.Rect(inner.x, inner.y + title_h + k * line_h, inner.w, line_h)
        draw_text(surface, prize.title + (f" · {prize.detail}" if prize.detail else ""),
                  pygame.Rect(line.x, line.y, line.w, line.h * 4 // 10), DIM)
        draw_text(surface, prize.player, pygame.Rect(line.x, line.y + line.h * 4 // 10, line.w, line.h * 5 // 10), TEXT)


def draw_head(surface: pygame.Surface, view: HeadView) -> HeadLayout:
    """Draw the hostess screen for view; returns the layout used."""
    if not pygame.font.get_init():
        pygame.font.init()
    lay = head_layout_for(surface.get_size(), len(view.tables), len(view.sheet), view.rounds_in_set)
    surface.fill(BG)
    pygame.draw.rect(surface, (24, 27, 33), lay.header)
    draw_text(surface, "Head table · Hostess", lay.title, TEXT)
    phase = {"waiting": "waiting for the bell", "playing": "playing", "ending": "last turns",
             "roll_off": "roll-offs", "over": "round over"}[view.phase]
    if view.phase == "waiting" and not view.sheet:
        subtitle = "before the start: the tables"
    else:
        subtitle = f"Set {view.set_no} · Round {view.round_no} ({ordinal_word(view.target)}) · {phase}"
    draw_text(surface, subtitle, lay.subtitle, DIM, align="center")
    words, colour = NETWORK_LOOK[view.network]
    draw_text(surface, words, lay.network, colour, align="right")

    if view.night_over:
        _draw_prizes(surface, lay, view)
    else:
        for rect, tally in zip(lay.cards, view.tables):
            _draw_card(surface, rect, tally, view.points_to_win, lay.unit)
    _draw_sheet(surface, lay, view)

    offline = [t.table for t in view.tables if t.status == "offline"]
    news = sorted(view.banners, key=lambda b: BANNER_PRIORITY.index(b.kind))
    full_banner = lay.banner
    if view.buttons:  # the touch buttons take the right of the banner line
        from appliance.ui.head_controls import bar_rect

        bar = bar_rect(surface.get_size(), lay.banner)
        lay = dataclasses.replace(lay, banner=pygame.Rect(lay.banner.x, lay.banner.y,
                                                          bar.x - lay.banner.x - max(4, lay.banner.h // 8),
                                                          lay.banner.h))
    if news:
        bg, fg = BANNER_COLOURS[news[0].kind]
        pygame.draw.rect(surface, bg, lay.banner, border_radius=max(4, round(8 * lay.unit)))
        draw_text(surface, news[0].text, lay.banner.inflate(-lay.banner.h, -lay.banner.h // 5), fg, align="center")
    elif offline:
        text = "Offline: " + ", ".join(f"table {n}" for n in offline) + " (they keep playing; scores follow)"
        draw_text(surface, text, lay.banner.inflate(-lay.banner.h, -lay.banner.h // 4),
                  NETWORK_LOOK["offline"][1], align="center")
    else:
        notes = [f"T{t.table}: {t.note}" for t in view.tables if t.note]
        if notes:
            draw_text(surface, "   ".join(notes), lay.banner.inflate(-lay.banner.h, -lay.banner.h // 4), DIM,
                      align="center")
    if view.buttons or view.overlay is not None:
        from appliance.ui.head_controls import draw_controls

        draw_controls(surface, full_banner, tuple(view.buttons), view.overlay)
    return dataclasses.replace(lay, banner=full_banner)
