"""The table screen: draws a TableView onto a pygame Surface, nothing else.

No game logic here: what scored, who leads, who won, where players go are all decided by
the game and handed over in the view. The screen only decides how it looks: big type, a
dark background with light text for dim rooms, and team colours from the Okabe-Ito
palette (told apart with colour blindness); meaning is never carried by colour alone
(the leading panel also says LEADS, lit dice are also brighter, network status is words).
"""

from __future__ import annotations

import pygame

from appliance.ui.layout import (
    Layout,
    TeamLayout,
    bar_fill_width,
    bar_mark_x,
    PANEL_BUTTONS,
    layout_for,
    moves_grid,
    panel_layout,
)
from appliance.ui.text import draw_text, fit_size
from appliance.ui.view import Banner, Panel, TableView

Colour = tuple[int, int, int]

BG: Colour = (14, 16, 20)
PANEL: Colour = (34, 38, 46)
PANEL_EDGE: Colour = (74, 80, 92)
TEXT: Colour = (246, 246, 246)
DIM: Colour = (178, 184, 194)
BLACK: Colour = (0, 0, 0)
WHITE: Colour = (255, 255, 255)

# Okabe-Ito: sky blue, orange, reddish purple, bluish green.
TEAM_COLOURS: tuple[Colour, ...] = ((86, 180, 233), (230, 159, 0), (204, 121, 167), (0, 158, 115))

BAR_TRACK: Colour = (8, 9, 12)
BAR_OVER: Colour = (40, 43, 50)      # the stretch of bar past the goal
MARK: Colour = (255, 255, 255)

DIE_FACE: Colour = (248, 248, 244)   # the round's target die
DIE_PIP: Colour = (10, 10, 10)
LIT_FACE: Colour = (240, 228, 66)    # a die that scored
LIT_PIP: Colour = (0, 0, 0)
UNLIT_FACE: Colour = (66, 70, 80)
UNLIT_PIP: Colour = (196, 200, 206)

BUTTON: Colour = (213, 94, 0)

# kind -> (background, text)
BANNER_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "bunco": ((240, 228, 66), BLACK),
    "press_bunco": ((213, 94, 0), WHITE),
    "reroll": ((230, 159, 0), BLACK),
    "bell": ((0, 158, 115), BLACK),
    "roll_off": ((0, 114, 178), WHITE),
    "wipeout": ((150, 40, 20), WHITE),
    "mini_bunco": ((86, 180, 233), BLACK),
    "white_elephant": ((236, 236, 236), BLACK),
    "traveling": ((204, 121, 167), BLACK),
    "false_call": ((96, 100, 110), WHITE),
    "undo": ((96, 100, 110), WHITE),
    "hand_entry": ((86, 180, 233), BLACK),
}
ENTRY_BUTTON: Colour = (52, 58, 70)
ENTRY_OFFER: Colour = (86, 180, 233)     # sky blue: the camera is not reading, key the dice in
SHADE: tuple[int, int, int, int] = (0, 0, 0, 190)
OK_BUTTON: Colour = (0, 158, 115)
OK_DIM: Colour = (44, 70, 62)
RESULT_BANNER: tuple[Colour, Colour] = ((0, 114, 178), WHITE)

NETWORK_LOOK: dict[str, tuple[str, Colour]] = {
    "standalone": ("Standalone", DIM),
    "online": ("Online", (0, 190, 140)),
    "offline": ("OFFLINE", (255, 110, 40)),
    "connecting": ("Connecting…", (240, 228, 66)),
}

PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)),
}


def team_colour(index: int) -> Colour:
    return TEAM_COLOURS[index % len(TEAM_COLOURS)]


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """a mixed into b by t (0 = b, 1 = a)."""
    return tuple(round(x * t + y * (1 - t)) for x, y in zip(a, b))  # type: ignore[return-value]


def panel_fill(team_index: int, leading: bool) -> Colour:
    """A leading team's panel glows in its own colour; the others stay neutral."""
    return blend(team_colour(team_index), PANEL, 0.42) if leading else PANEL


def ordinal_word(target: int) -> str:
    return {1: "1s", 2: "2s", 3: "3s", 4: "4s", 5: "5s", 6: "6s"}[target]


# --- pieces -------------------------------------------------------------------------

def draw_die(surface: pygame.Surface, rect: pygame.Rect, value: int, face: Colour, pip: Colour,
             edge: Colour | None = None, edge_w: int = 0) -> None:
    radius = max(3, rect.w // 7)
    if edge is not None and edge_w > 0:
        pygame.draw.rect(surface, edge, rect.inflate(2 * edge_w, 2 * edge_w), border_radius=radius + edge_w)
    pygame.draw.rect(surface, face, rect, border_radius=radius)
    r = max(2, round(rect.w * 0.095))
    for fx, fy in PIPS[value]:
        centre = (rect.x + round(rect.w * fx), rect.y + round(rect.h * fy))
        pygame.draw.circle(surface, pip, centre, r)
        pygame.draw.aacircle(surface, pip, centre, r)


def _draw_header(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    pygame.draw.rect(surface, (24, 27, 33), lay.header)
    pygame.draw.line(surface, PANEL_EDGE, lay.header.bottomleft, lay.header.bottomright, max(1, round(lay.unit)))
    title = f"Table {view.table}" + (" · Head table" if view.table == 1 else "")
    draw_text(surface, title, lay.title, TEXT, align="left")
    draw_text(surface, f"Set {view.set_no} · Round {view.round_no}", lay.subtitle, DIM, align="center")
    words, colour = NETWORK_LOOK[view.network]
    text_rect = draw_text(surface, words, lay.network, colour, align="right")
    r = max(4, lay.network.h // 5)
    dot = (text_rect.x - r - max(4, round(6 * lay.unit)), lay.network.centery)
    if view.network == "offline":
        pygame.draw.circle(surface, colour, dot, r, max(2, r // 2))
    else:
        pygame.draw.circle(surface, colour, dot, r)


def _draw_target(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    draw_text(surface, f"ROUND {view.round_no}", lay.round_label, TEXT, align="center")
    draw_die(surface, lay.target_die, view.target, DIE_FACE, DIE_PIP)
    caption = "Roll-off!" if view.phase == "roll_off" else f"Roll {ordinal_word(view.target)}"
    draw_text(surface, caption, lay.target_caption, DIM, align="center")


def _draw_team(surface: pygame.Surface, tl: TeamLayout, view: TableView, i: int, leading: bool,
               unit: float) -> None:
    team = view.teams[i]
    colour = team_colour(i)
    radius = max(4, round(10 * unit))
    pygame.draw.rect(surface, panel_fill(i, leading), tl.panel, border_radius=radius)
    edge_w = max(3, round(4 * unit)) if leading else max(1, round(1.5 * unit))
    pygame.draw.rect(surface, colour if leading else PANEL_EDGE, tl.panel, edge_w, border_radius=radius)

    label_rect = tl.label
    if view.turn_team == i and view.phase in ("playing", "ending", "roll_off"):
        # A pointer in front of the label: this team is rolling.
        s = label_rect.h * 0.7
        x, cy = label_rect.x, label_rect.centery
        pygame.draw.polygon(surface, TEXT, [(x, cy - s / 2), (x + s * 0.8, cy), (x, cy + s / 2)])
        label_rect = label_rect.copy()
        label_rect.x += round(s)
        label_rect.w -= round(s)
    draw_text(surface, team.label, label_rect, TEXT, align="left")
    players = " & ".join(team.players)
    if players and players != team.label:
        draw_text(surface, players, tl.players, TEXT if leading else DIM, align="left")

    if leading:
        tag = "WINS" if view.phase == "over" else "LEADS"
        draw_text(surface, tag, tl.tag, TEXT, align="right")
    draw_text(surface, str(team.points), tl.points, TEXT, align="right")
    _draw_bar(surface, tl, team.points, view.points_to_win, colour, unit)


def _draw_bar(surface: pygame.Surface, tl: TeamLayout, points: int, to_win: int, colour: Colour,
              unit: float) -> None:
    bar = tl.bar
    mark_x = bar_mark_x(bar)
    pygame.draw.rect(surface, BAR_TRACK, bar)
    pygame.draw.rect(surface, BAR_OVER, pygame.Rect(mark_x, bar.y, bar.right - mark_x, bar.h))
    fill = bar_fill_width(bar, points, to_win)
    if fill:
        pygame.draw.rect(surface, colour, pygame.Rect(bar.x, bar.y, fill, bar.h))
    pygame.draw.rect(surface, PANEL_EDGE, bar, max(1, round(unit)))
    # The mark: a white post through the bar, sticking out above and below; its number
    # sits just past it, dark where the fill has already run over it.
    mw = max(3, round(4 * unit))
    stick = max(3, bar.h // 5)
    post = pygame.Rect(0, 0, mw, bar.h + 2 * stick)
    post.midtop = (mark_x, bar.y - stick)
    pygame.draw.rect(surface, BLACK, post.inflate(2 * max(1, round(unit)), 0))
    pygame.draw.rect(surface, MARK, post)
    label = pygame.Rect(post.right + mw, bar.y, bar.right - post.right - 2 * mw, bar.h).inflate(0, -bar.h // 6)
    covered = bar.x + fill > label.x + label.h
    draw_text(surface, str(to_win), label, BLACK if covered else TEXT, align="left")


def _draw_banners(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    area = lay.banner
    banners = view.banners_by_priority()
    radius = max(4, round(10 * lay.unit))
    gap = max(4, round(8 * lay.unit))
    if view.phase == "over" and banners:
        # The round's result stays up until the next bell: news goes beside it, never over it.
        main_w = round(area.w * 0.64)
        _draw_default_strip(surface, pygame.Rect(area.x, area.y, main_w, area.h), view, lay.unit)
        _draw_side_banners(surface, pygame.Rect(area.x + main_w + gap, area.y, area.w - main_w - gap, area.h),
                           banners[:3], radius, gap)
        return
    if not banners:
        _draw_default_strip(surface, area, view, lay.unit)
        return
    if len(banners) == 1:
        _banner_box(surface, area, banners[0], radius)
        return
    main_w = round(area.w * 0.64)
    _banner_box(surface, pygame.Rect(area.x, area.y, main_w, area.h), banners[0], radius)
    _draw_side_banners(surface, pygame.Rect(area.x + main_w + gap, area.y, area.w - main_w - gap, area.h),
                       banners[1:4], radius, gap)


def _draw_side_banners(surface: pygame.Surface, side: pygame.Rect, rest: tuple[Banner, ...], radius: int,
                       gap: int) -> None:
    h = (side.h - gap * (len(rest) - 1)) // len(rest)
    for k, banner in enumerate(rest):
        _banner_box(surface, pygame.Rect(side.x, side.y + k * (h + gap), side.w, h), banner, radius)


def _banner_box(surface: pygame.Surface, rect: pygame.Rect, banner: Banner, radius: int) -> None:
    bg, fg = BANNER_COLOURS[banner.kind]
    pygame.draw.rect(surface, bg, rect, border_radius=radius)
    draw_text(surface, banner.text, rect.inflate(-2 * radius, -max(4, rect.h // 7)), fg, align="center")


def _draw_default_strip(surface: pygame.Surface, area: pygame.Rect, view: TableView, unit: float) -> None:
    """No banner: say what the table is waiting for, quietly."""
    inner = area.inflate(-area.h // 2, -area.h // 3)
    if view.phase == "over":
        bg, fg = RESULT_BANNER
        pygame.draw.rect(surface, bg, area, border_radius=max(4, round(10 * unit)))
        names = " & ".join(view.winners)
        text = f"Round {view.round_no} over: {names} win{'s' if len(view.winners) == 1 else ''}!" \
            if names else f"Round {view.round_no} over"
        if view.night_over:
            text = f"The night is over! Last round: {names} win{'s' if len(view.winners) == 1 else ''}" \
                if names else "The night is over!"
        draw_text(surface, text, area.inflate(-area.h // 2, -area.h // 6), fg, align="center")
        return
    text = {
        "waiting": "Waiting for the bell…",
        "playing": f"Three {ordinal_word(view.target)} = BUNCO! Press the button",
        "ending": "The bell rang: finish your turn",
        "roll_off": "Tie! Roll-off: one turn each",
    }[view.phase]
    draw_text(surface, text, inner, DIM, align="center")


def _draw_turn(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    if view.turn_player:
        colour = team_colour(view.turn_team) if view.turn_team is not None else TEXT
        stripe = pygame.Rect(lay.turn_name.x, lay.turn_name.y, max(4, round(6 * lay.unit)),
                             lay.turn_points.bottom - lay.turn_name.y)
        pygame.draw.rect(surface, colour, stripe)
        pad = stripe.w * 3
        name_rect = lay.turn_name.inflate(-pad, 0).move(pad // 2, 0)
        points_rect = lay.turn_points.inflate(-pad, -lay.turn_points.h // 8).move(pad // 2, 0)
        if not view.turn_partner:  # alone (one-table Bunco): close the gap between the lines
            name_rect.y += lay.turn_partner.h // 2
            points_rect.y -= lay.turn_partner.h // 2
        who = f"{view.turn_player} rolls first" if view.phase == "waiting" else f"{view.turn_player}'s turn"
        draw_text(surface, who, name_rect, TEXT, align="left")
        if view.turn_partner:
            draw_text(surface, f"partner {view.turn_partner}", lay.turn_partner.inflate(-pad, 0).move(pad // 2, 0),
                      DIM, align="left")
        if view.phase != "waiting":
            draw_text(surface, f"This turn: +{view.turn_points}", points_rect, TEXT, align="left")
    elif view.phase == "waiting":
        draw_text(surface, "Get ready", lay.turn_name, TEXT, align="left")


def _draw_roll(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    if not view.last_roll:
        if view.phase != "waiting":
            words = "Roll, then key the dice in" if view.entry == "offer" else "Roll the dice!"
            draw_text(surface, words, lay.dice_area.inflate(0, -lay.dice_area.h // 2), DIM, align="center")
        return
    caption = f"Last roll · {view.last_roller}" if view.last_roller else "Last roll"
    draw_text(surface, caption, lay.dice_caption, DIM, align="center")
    scoring = view.scoring or (False,) * len(view.last_roll)
    glow = max(2, round(4 * lay.unit))
    for rect, value, lit in zip(lay.dice, view.last_roll, scoring):
        if lit:
            draw_die(surface, rect, value, LIT_FACE, LIT_PIP, edge=WHITE, edge_w=glow)
        else:
            draw_die(surface, rect, value, UNLIT_FACE, UNLIT_PIP)


def _draw_button(surface: pygame.Surface, lay: Layout) -> None:
    rect = lay.bunco_button
    radius = max(6, round(14 * lay.unit))
    pygame.draw.rect(surface, BUTTON, rect, border_radius=radius)
    pygame.draw.rect(surface, WHITE, rect, max(2, round(3 * lay.unit)), border_radius=radius)
    draw_text(surface, "BUNCO!", rect.inflate(-rect.w // 6, -rect.h // 3), WHITE, align="center")


def _draw_entry_button(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    """"Enter dice": quiet beside the roll, bright when the camera cannot be relied on."""
    rect = lay.entry_button
    radius = max(6, round(14 * lay.unit))
    offer = view.entry == "offer"
    pygame.draw.rect(surface, ENTRY_OFFER if offer else ENTRY_BUTTON, rect, border_radius=radius)
    pygame.draw.rect(surface, WHITE if offer else PANEL_EDGE, rect, max(2, round(3 * lay.unit)), border_radius=radius)
    fg = BLACK if offer else TEXT
    inner = rect.inflate(-rect.w // 8, -rect.h // 4)
    half = inner.h // 2
    draw_text(surface, "Enter", pygame.Rect(inner.x, inner.y, inner.w, half), fg, align="center")
    draw_text(surface, "dice", pygame.Rect(inner.x, inner.y + half, inner.w, inner.h - half), fg, align="center")


def _button_box(surface: pygame.Surface, rect: pygame.Rect, words: str, bg: Colour, fg: Colour,
                unit: float, size: int) -> None:
    radius = max(6, round(14 * unit))
    pygame.draw.rect(surface, bg, rect, border_radius=radius)
    pygame.draw.rect(surface, WHITE, rect, max(2, round(3 * unit)), border_radius=radius)
    draw_text(surface, words, _button_text_box(rect), fg, align="center", size=size)


def _button_text_box(rect: pygame.Rect) -> pygame.Rect:
    return rect.inflate(-rect.h // 3, -rect.h // 3) if rect.w > rect.h else rect.inflate(-rect.w // 6, -rect.w // 2)


def draw_panel(surface: pygame.Surface, panel: Panel) -> None:
    """The question over the screen: the table dims behind it, the pickers and buttons are big."""
    size = surface.get_size()
    pl = panel_layout(size, panel.kind, len(panel.dice))
    unit = min(size[0] / 800, size[1] / 480)
    shade = pygame.Surface(size, pygame.SRCALPHA)
    shade.fill(SHADE)
    surface.blit(shade, (0, 0))
    radius = max(6, round(14 * unit))
    pygame.draw.rect(surface, PANEL, pl.box, border_radius=radius)
    pygame.draw.rect(surface, WHITE, pl.box, max(2, round(3 * unit)), border_radius=radius)
    draw_text(surface, panel.title, pl.title, TEXT, align="center")
    glow = max(2, round(4 * unit))
    for picked, row in zip(panel.dice, pl.pickers):
        for face, rect in enumerate(row, start=1):
            if face == picked:
                draw_die(surface, rect, face, LIT_FACE, LIT_PIP, edge=WHITE, edge_w=glow)
            else:
                draw_die(surface, rect, face, UNLIT_FACE, UNLIT_PIP)
    for rect, face in zip(pl.preview, panel.dice):
        draw_die(surface, rect, face, DIE_FACE, DIE_PIP)
    labels = [(name, panel.yes if name == "yes" else words) for name, words in PANEL_BUTTONS[panel.kind]]
    # One type size for the panel's buttons: the largest at which every label fits its button.
    size = min(fit_size(words, _button_text_box(pl.buttons[name]).w, _button_text_box(pl.buttons[name]).h)
               for name, words in labels)
    for name, words in labels:
        rect = pl.buttons[name]
        if name in ("ok", "yes"):
            ready = panel.kind != "entry" or panel.complete
            _button_box(surface, rect, words, OK_BUTTON if ready else OK_DIM, WHITE if ready else DIM, unit, size)
        elif name in ("take_back", "correct"):
            _button_box(surface, rect, words, BUTTON, WHITE, unit, size)
        else:
            _button_box(surface, rect, words, ENTRY_BUTTON, TEXT, unit, size)


def _move_words(to: int, here: int) -> str:
    if to < here:
        return f"up to table {to}"
    if to > here:
        return f"down to table {to}"
    return f"stays at table {to}"


def _results_area(lay: Layout, view: TableView) -> pygame.Rect:
    """The bottom row after a round: all of it, or up to the Enter dice control when it shows."""
    area = lay.bottom
    if view.entry == "hide":
        return area
    gap = max(4, round(8 * lay.unit))
    return pygame.Rect(area.x, area.y, lay.entry_button.x - gap - area.x, area.h)


def _draw_cards(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    """The night's end: each of this table's players with her wins, losses and Buncos."""
    area = _results_area(lay, view)
    if not view.cards:
        draw_text(surface, "Prizes on the hostess's screen", area.inflate(0, -area.h // 2), DIM, align="center")
        return
    gap = max(4, round(8 * lay.unit))
    cells = moves_grid(area, len(view.cards), lay.unit)
    lines = [f"{c.player}: {c.wins} W · {c.losses} L · {c.buncos} Bunco{'' if c.buncos == 1 else 's'}"
             for c in view.cards]
    inner = cells[0].inflate(-2 * gap, -gap)
    size = min(fit_size(line, inner.w, inner.h) for line in lines)
    for cell, line in zip(cells, lines):
        pygame.draw.rect(surface, PANEL, cell, border_radius=max(4, round(8 * lay.unit)))
        draw_text(surface, line, cell.inflate(-2 * gap, -gap), TEXT, align="left", size=size)


def _draw_moves(surface: pygame.Surface, lay: Layout, view: TableView) -> None:
    area = _results_area(lay, view)
    if not view.moves:
        words = "Next: roll to start the next round" if view.network == "standalone" and view.entry != "hide" \
            else "Next: the bell for the next round"
        draw_text(surface, words, area.inflate(0, -area.h // 2), DIM, align="center")
        return
    gap = max(4, round(8 * lay.unit))
    cells = moves_grid(area, len(view.moves), lay.unit)
    # One type size for every cell, the largest at which the longest line fits.
    inner = cells[0].inflate(-2 * gap, -gap)
    arrow_w = round(inner.h * 1.2)
    size = min(fit_size(f"{m.player}  {_move_words(m.table, view.table)}", inner.w - arrow_w, inner.h)
               for m in view.moves)
    for cell, move in zip(cells, view.moves):
        pygame.draw.rect(surface, PANEL, cell, border_radius=max(4, round(8 * lay.unit)))
        _draw_move(surface, cell.inflate(-2 * gap, -gap), move.player, move.table, view.table, size)


def _draw_move(surface: pygame.Surface, cell: pygame.Rect, player: str, to: int, here: int, size: int) -> None:
    name_box = draw_text(surface, player, cell, TEXT, align="left", size=size)
    a = round(cell.h * 0.55)
    arrow = pygame.Rect(name_box.right + a // 2, cell.centery - a // 2, a, a)
    cx, top, bot, s = arrow.centerx, arrow.top, arrow.bottom, a / 2
    if to < here:      # toward the head table
        pygame.draw.polygon(surface, TEXT, [(cx, top), (cx + s, bot), (cx - s, bot)])
    elif to > here:
        pygame.draw.polygon(surface, TEXT, [(cx - s, top), (cx + s, top), (cx, bot)])
    else:
        pygame.draw.circle(surface, TEXT, arrow.center, round(s * 0.6))
    rest = pygame.Rect(arrow.right + a // 2, cell.y, cell.right - arrow.right - a // 2, cell.h)
    draw_text(surface, _move_words(to, here), rest, DIM, align="left", size=size)


# --- the screen ---------------------------------------------------------------------

def draw_table(surface: pygame.Surface, view: TableView) -> Layout:
    """Draw the whole table screen for view; the layout follows the surface size.

    Returns the layout used, so a caller can map touches to what was drawn.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    lay = layout_for(surface.get_size(), len(view.teams), max(1, len(view.last_roll)))
    surface.fill(BG)
    _draw_header(surface, lay, view)
    _draw_target(surface, lay, view)
    leaders = view.leaders()
    for i, tl in enumerate(lay.teams):
        _draw_team(surface, tl, view, i, i in leaders, lay.unit)
    _draw_banners(surface, lay, view)
    if view.night_over:
        _draw_cards(surface, lay, view)
    elif view.phase == "over":
        _draw_moves(surface, lay, view)
    else:
        _draw_turn(surface, lay, view)
        _draw_roll(surface, lay, view)
        if view.phase != "waiting":
            _draw_button(surface, lay)
    if view.entry != "hide":
        _draw_entry_button(surface, lay, view)
    if view.panel is not None:
        draw_panel(surface, view.panel)
    return lay
