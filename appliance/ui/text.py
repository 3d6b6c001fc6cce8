"""Text that fills its box: the largest size of pygame's own font that fits a rectangle.

pygame's bundled font (freesansbold) needs nothing installed on a Pi. Fonts are cached
per pixel size because opening a TTF for every string would cost more than drawing it.
"""

from __future__ import annotations

import pygame

# Font(None, size).get_height() is about 0.68 x size for the bundled font.
_HEIGHT_PER_SIZE = 0.68
_MIN_SIZE = 8
_fonts: dict[int, pygame.font.Font] = {}


def font(size: int) -> pygame.font.Font:
    """pygame's default font at size (cached); a system font if the default will not load."""
    size = max(_MIN_SIZE, int(size))
    f = _fonts.get(size)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        try:
            f = pygame.font.Font(None, size)
        except (OSError, pygame.error):
            f = pygame.font.SysFont(None, size)
        _fonts[size] = f
    return f


def fit_size(text: str, width: int, height: int) -> int:
    """The largest font size whose rendering of text fits width x height."""
    size = max(_MIN_SIZE, int(height / _HEIGHT_PER_SIZE))
    while size > _MIN_SIZE and font(size).get_height() > height:
        size -= 1
    w = font(size).size(text)[0]
    if w > width > 0:
        size = max(_MIN_SIZE, int(size * width / w))
        while size > _MIN_SIZE and font(size).size(text)[0] > width:
            size -= 1
    return size


def draw_text(surface: pygame.Surface, text: str, rect: pygame.Rect, colour: tuple[int, int, int],
              align: str = "left", size: int | None = None) -> pygame.Rect:
    """Draw text as big as fits rect (or at size), vertically centred; returns where it landed."""
    if not text or rect.w <= 0 or rect.h <= 0:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    face = font(size or fit_size(text, rect.w, rect.h))
    if face.size(text)[0] == 0:  # only zero-width characters (a soft hyphen): SDL_ttf refuses them
        return pygame.Rect(rect.x, rect.y, 0, 0)
    image = face.render(text, True, colour)
    box = image.get_rect()
    box.centery = rect.centery
    if align == "center":
        box.centerx = rect.centerx
    elif align == "right":
        box.right = rect.right
    else:
        box.left = rect.left
    if rect.contains(box):
        surface.blit(image, box)
    else:  # even the smallest size is too wide: cut it at the box, never spill over
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip))
        surface.blit(image, box)
        surface.set_clip(clip)
    return box.clip(rect)
