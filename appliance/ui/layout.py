"""Where everything sits on the table screen, as rectangles computed from the screen size.

Geometry lives apart from drawing so the tests (and the touch input) can ask where the
21 mark, a panel or the BUNCO! button is instead of hard-coding pixels: the same numbers
draw the frame and check it. Two layouts: a compact one for the 800x480 Pi touch display
(and other small screens) and a large one from 1280x720 up to 1920x1080; sizes scale with
the screen so type stays big for readers without glasses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

# The bar runs from 0 to BAR_SPAN x points_to_win; the mark sits at 1/BAR_SPAN of its width.
# Points beyond the goal keep growing past the mark until the bar is full.
BAR_SPAN = 1.5


@dataclass(frozen=True)
class TeamLayout:
    panel: pygame.Rect
    label: pygame.Rect       # team label ("Us", or the player's name at an individual table)
    players: pygame.Rect     # partner names under the label
    tag: pygame.Rect         # "LEADS" / "WINS" above the points
    points: pygame.Rect      # the big number
    bar: pygame.Rect
    probe: tuple[int, int]   # a point of plain panel background (fill colour check)


@dataclass(frozen=True)
class Layout:
    size: tuple[int, int]
    compact: bool
    unit: float                       # 1.0 at 800x480; line widths and gaps scale by it
    header: pygame.Rect
    title: pygame.Rect                # "Table 1 · Head table"
    subtitle: pygame.Rect             # "Set 1 · Round 3"
    network: pygame.Rect              # status in the top-right corner
    target: pygame.Rect               # the column with the round's die
    round_label: pygame.Rect
    target_die: pygame.Rect
    target_caption: pygame.Rect
    teams: tuple[TeamLayout, ...]
    banner: pygame.Rect
    bottom: pygame.Rect               # turn + dice + button while playing; results when over
    turn_name: pygame.Rect
    turn_partner: pygame.Rect
    turn_points: pygame.Rect
    dice_area: pygame.Rect            # last roll; a tap here opens Take back / Correct
    dice_caption: pygame.Rect
    dice: tuple[pygame.Rect, ...]     # one square per die of the last roll
    bunco_button: pygame.Rect
    entry_button: pygame.Rect         # "Enter dice": the pickers, when the camera cannot read


@dataclass(frozen=True)
class PanelLayout:
    """A panel over the table screen (view.Panel): where its title, pickers and buttons sit."""
    box: pygame.Rect
    title: pygame.Rect
    pickers: tuple[tuple[pygame.Rect, ...], ...]   # entry: one row of faces 1..6 per die
    preview: tuple[pygame.Rect, ...]               # menu, confirm: the roll asked about
    buttons: dict[str, pygame.Rect]                # name -> rect, in drawing order

    def hit(self, pos: tuple[int, int]) -> tuple[str, int, int] | None:
        """("pick", die, face), (button name, 0, 0), or None for a touch on nothing."""
        for die, row in enumerate(self.pickers):
            for face, rect in enumerate(row, start=1):
                if rect.collidepoint(pos):
                    return "pick", die, face
        for name, rect in self.buttons.items():
            if rect.collidepoint(pos):
                return name, 0, 0
        return None


# The buttons of each panel kind, in drawing order, with their words.
PANEL_BUTTONS: dict[str, tuple[tuple[str, str], ...]] = {
    "entry": (("ok", "OK"), ("cancel", "Cancel")),
    "menu": (("take_back", "Take back"), ("correct", "Correct"), ("cancel", "Cancel")),
    "confirm": (("yes", "Yes"), ("no", "No")),
}


def panel_layout(size: tuple[int, int], kind: str, n_dice: int = 3) -> PanelLayout:
    """Big targets for fingers: a face is at least ~1/6 of the box width or one die row high."""
    w, h = size
    u = min(w / 800, h / 480)
    m = max(4, round(8 * u))
    header_h = round(h * (0.085 if is_compact(size) else 0.075))
    box = pygame.Rect(m, header_h + m, w - 2 * m, h - header_h - 2 * m)
    inner = box.inflate(-2 * m, -2 * m)
    title = pygame.Rect(inner.x, inner.y, inner.w, round(inner.h * 0.16))
    body = pygame.Rect(inner.x, title.bottom + m, inner.w, inner.bottom - title.bottom - m)
    gap = max(6, round(12 * u))
    names = [name for name, _ in PANEL_BUTTONS[kind]]
    pickers: tuple[tuple[pygame.Rect, ...], ...] = ()
    preview: tuple[pygame.Rect, ...] = ()
    buttons: dict[str, pygame.Rect] = {}
    if kind == "entry":
        col_w = round(body.w * 0.22)
        rows_area = pygame.Rect(body.x, body.y, body.w - col_w - gap, body.h)
        row_h = (rows_area.h - gap * (n_dice - 1)) // n_dice
        side = min(row_h, (rows_area.w - 5 * gap) // 6)
        x0 = rows_area.x + (rows_area.w - (6 * side + 5 * gap)) // 2
        pickers = tuple(
            tuple(pygame.Rect(x0 + f * (side + gap), rows_area.y + d * (row_h + gap) + (row_h - side) // 2, side, side)
                  for f in range(6))
            for d in range(n_dice))
        col = pygame.Rect(rows_area.right + gap, body.y, col_w, body.h)
        ok_h = round((col.h - gap) * 0.62)
        buttons = {"ok": pygame.Rect(col.x, col.y, col.w, ok_h),
                   "cancel": pygame.Rect(col.x, col.y + ok_h + gap, col.w, col.h - ok_h - gap)}
    else:
        button_h = round(body.h * (0.5 if kind == "menu" else 0.38))
        row = pygame.Rect(body.x, body.bottom - button_h, body.w, button_h)
        bw = (row.w - gap * (len(names) - 1)) // len(names)
        buttons = {name: pygame.Rect(row.x + i * (bw + gap), row.y, bw, row.h) for i, name in enumerate(names)}
        if n_dice:  # menu: the roll asked about; confirm: the roll that will stand
            dice_row = pygame.Rect(body.x, body.y, body.w, row.y - gap - body.y)
            preview = dice_slots(dice_row, n_dice, gap)
    return PanelLayout(box, title, pickers, preview, buttons)


def is_compact(size: tuple[int, int]) -> bool:
    """Small screens (the 800x480 Pi display, 1024x600) get the compact layout."""
    w, h = size
    return h < 640 or w < 1000


def bar_mark_x(bar: pygame.Rect) -> int:
    """x of the points_to_win mark on a bar (the same for 21 or 11: the bar scales)."""
    return bar.x + round(bar.w / BAR_SPAN)


def bar_fill_width(bar: pygame.Rect, points: int, points_to_win: int) -> int:
    """Width of the filled part: proportional to points, clamped at the bar's end."""
    if points <= 0:
        return 0
    full = BAR_SPAN * points_to_win
    return round(bar.w * min(points, full) / full)


def die_probe(rect: pygame.Rect) -> tuple[int, int]:
    """A point on a die's face that no pip covers for any value (top middle)."""
    return rect.x + rect.w // 2, rect.y + round(rect.h * 0.12)


def _grid(area: pygame.Rect, n: int, cols: int, gap: int) -> list[pygame.Rect]:
    rows = math.ceil(n / cols)
    cw = (area.w - gap * (cols - 1)) // cols
    rh = (area.h - gap * (rows - 1)) // rows
    return [pygame.Rect(area.x + (i % cols) * (cw + gap), area.y + (i // cols) * (rh + gap), cw, rh)
            for i in range(n)]


def _team_layout(panel: pygame.Rect, pad: int) -> TeamLayout:
    inner = panel.inflate(-2 * pad, -2 * pad)
    # Points need about 1.3 x the panel height for two big digits; the bar gets the rest.
    right_w = min(round(inner.w * 0.34), round(inner.h * 1.45))
    left_w = inner.w - right_w - pad
    right = pygame.Rect(inner.right - right_w, inner.y, right_w, inner.h)
    h = inner.h
    label = pygame.Rect(inner.x, inner.y, left_w, round(h * 0.30))
    players = pygame.Rect(inner.x, label.bottom, left_w, round(h * 0.22))
    bar_h = round(h * 0.30)
    bar = pygame.Rect(inner.x, inner.bottom - bar_h - round(h * 0.06), left_w, bar_h)
    tag = pygame.Rect(right.x, right.y, right.w, round(h * 0.2))
    points = pygame.Rect(right.x, tag.bottom, right.w, right.bottom - tag.bottom)
    # Between the left column and the points: nothing but panel background there.
    probe = (inner.x + left_w + pad // 2, panel.centery)
    return TeamLayout(panel, label, players, tag, points, bar, probe)


def dice_slots(area: pygame.Rect, n: int, gap: int) -> tuple[pygame.Rect, ...]:
    """n square dice centred in area, as big as fit (4 dice shrink to fit the width)."""
    if n <= 0:
        return ()
    side = min(area.h, (area.w - gap * (n - 1)) // n)
    total = n * side + (n - 1) * gap
    x0 = area.x + (area.w - total) // 2
    y0 = area.y + (area.h - side) // 2
    return tuple(pygame.Rect(x0 + i * (side + gap), y0, side, side) for i in range(n))


def moves_grid(area: pygame.Rect, n: int, unit: float) -> tuple[pygame.Rect, ...]:
    """Cells for "where each player goes next" after the round: 2 columns up to 4 moves."""
    if n <= 0:
        return ()
    cols = 1 if n == 1 else 2 if n <= 4 else 3
    rows = math.ceil(n / cols)
    gap = max(4, round(8 * unit))
    cw = (area.w - gap * (cols - 1)) // cols
    rh = min((area.h - gap * (rows - 1)) // rows, area.h // 2)
    return tuple(pygame.Rect(area.x + (k % cols) * (cw + gap), area.y + (k // cols) * (rh + gap), cw, rh)
                 for k in range(n))


def layout_for(size: tuple[int, int], n_teams: int = 2, n_dice: int = 3) -> Layout:
    """All rectangles of the table screen for a surface of this size."""
    w, h = size
    compact = is_compact(size)
    u = min(w / 800, h / 480)
    m = max(4, round(8 * u))

    header = pygame.Rect(0, 0, w, round(h * (0.085 if compact else 0.075)))
    network = pygame.Rect(w - round(w * 0.3), header.y + m // 2, round(w * 0.3) - m, header.h - m)
    title = pygame.Rect(m, network.y, round(w * 0.38), network.h)
    subtitle = pygame.Rect(title.right + m, network.y, network.x - title.right - 2 * m, network.h)

    bottom_h = round(h * (0.25 if compact else 0.27))
    banner_h = round(h * (0.14 if compact else 0.15))
    bottom = pygame.Rect(m, h - m - bottom_h, w - 2 * m, bottom_h)
    banner = pygame.Rect(m, bottom.y - m - banner_h, w - 2 * m, banner_h)
    main = pygame.Rect(m, header.bottom + m // 2, w - 2 * m, banner.y - m - header.bottom - m // 2)

    # Target column: "ROUND 3", the die, "Roll 3s".
    label_h = round(main.h * 0.15)
    caption_h = round(main.h * 0.13)
    die_side = min(main.h - label_h - caption_h - m, round(w * 0.25) - 2 * m)
    target = pygame.Rect(main.x, main.y, max(die_side + 2 * m, round(w * 0.2)), main.h)
    round_label = pygame.Rect(target.x, target.y, target.w, label_h)
    target_die = pygame.Rect(0, 0, die_side, die_side)
    target_die.midtop = (target.centerx, round_label.bottom + m // 2)
    target_caption = pygame.Rect(target.x, target_die.bottom + m // 2, target.w,
                                 target.bottom - target_die.bottom - m // 2)

    teams_area = pygame.Rect(target.right + m, main.y, main.right - target.right - m, main.h)
    cols = 1 if n_teams <= 2 else 2
    panels = _grid(teams_area, max(1, n_teams), cols, m)
    teams = tuple(_team_layout(p, m) for p in panels)

    # Bottom row: whose turn | the last roll | Enter dice | the BUNCO! button.
    turn_w = round(bottom.w * 0.31)
    button_w = round(bottom.w * 0.2)
    entry_w = round(bottom.w * 0.15)
    turn = pygame.Rect(bottom.x, bottom.y, turn_w, bottom.h)
    bunco_button = pygame.Rect(bottom.right - button_w, bottom.y, button_w, bottom.h)
    entry_button = pygame.Rect(bunco_button.x - m - entry_w, bottom.y, entry_w, bottom.h)
    dice_area = pygame.Rect(turn.right + m, bottom.y, entry_button.x - turn.right - 2 * m, bottom.h)
    cap_h = round(bottom.h * 0.24)
    dice_caption = pygame.Rect(dice_area.x, dice_area.y, dice_area.w, cap_h)
    dice_row = pygame.Rect(dice_area.x, dice_caption.bottom, dice_area.w, dice_area.bottom - dice_caption.bottom)
    dice = dice_slots(dice_row.inflate(0, -m // 2), n_dice, m + m // 2)
    turn_name = pygame.Rect(turn.x, turn.y, turn.w, round(turn.h * 0.38))
    turn_partner = pygame.Rect(turn.x, turn_name.bottom, turn.w, round(turn.h * 0.24))
    turn_points = pygame.Rect(turn.x, turn_partner.bottom, turn.w, turn.bottom - turn_partner.bottom)

    return Layout(
        size=(w, h), compact=compact, unit=u, header=header, title=title, subtitle=subtitle,
        network=network, target=target, round_label=round_label, target_die=target_die,
        target_caption=target_caption, teams=teams, banner=banner, bottom=bottom,
        turn_name=turn_name, turn_partner=turn_partner, turn_points=turn_points,
        dice_area=dice_area, dice_caption=dice_caption, dice=dice, bunco_button=bunco_button,
        entry_button=entry_button,
    )
