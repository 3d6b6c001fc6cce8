"""Render the example views to PNG: the docs' screenshots, and a quick look at a layout.

    SDL_VIDEODRIVER=dummy python -m appliance.ui.screenshots docs/screenshots

writes table-800x480.png and table-1920x1080.png (mid-round, with a Bunco banner) and
table-800x480-over.png, table-1920x1080-over.png (end of round: winners and moves);
-entry (the hand-entry pickers), -correct (confirming a correction), -result (the round's result
still up when dice are read before the bell), -night (the night's end, each player's W/L/Buncos);
head-WxH.png and head-WxH-prizes.png (the hostess screen live, and at the night's end);
with --all also one PNG per example view and size.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

DOC_SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1920, 1080))


def render(view_factory: Callable[[], object], size: tuple[int, int]) -> "pygame.Surface":  # noqa: F821
    import pygame

    from appliance.ui.table_screen import draw_table

    surface = pygame.Surface(size)
    draw_table(surface, view_factory())  # type: ignore[arg-type]
    return surface


def save_doc_screenshots(out_dir: Path) -> list[Path]:
    """table-WxH.png (mid-round, Bunco banner), table-WxH-over.png (end of round) and the
    hostess screen's head-WxH.png, head-WxH-prizes.png."""
    import pygame

    from appliance.ui import examples

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for size in DOC_SIZES:
        for suffix, factory in (("", examples.mid_round), ("-over", examples.end_of_round),
                                ("-entry", examples.hand_entry), ("-correct", examples.correct_roll),
                                ("-result", examples.round_result_waiting), ("-night", examples.night_over)):
            path = out_dir / f"table-{size[0]}x{size[1]}{suffix}.png"
            pygame.image.save(render(factory, size), str(path))
            paths.append(path)
    for size in DOC_SIZES:
        for suffix, factory in (("", examples.head_live), ("-prizes", examples.head_prizes)):
            path = out_dir / f"head-{size[0]}x{size[1]}{suffix}.png"
            pygame.image.save(render_head(factory, size), str(path))
            paths.append(path)
    return paths


def render_head(view_factory: Callable[[], object], size: tuple[int, int]) -> "pygame.Surface":  # noqa: F821
    import pygame

    from appliance.ui.head_screen import draw_head

    surface = pygame.Surface(size)
    draw_head(surface, view_factory())  # type: ignore[arg-type]
    return surface


def save_all(out_dir: Path, sizes: tuple[tuple[int, int], ...]) -> list[Path]:
    import pygame

    from appliance.ui import examples

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, factory in examples.ALL.items():
        for size in sizes:
            path = out_dir / f"{name}-{size[0]}x{size[1]}.png"
            pygame.image.save(render(factory, size), str(path))
            paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--all", action="store_true", help="also every example at 800x480, 1280x720, 1920x1080")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.display.init()
    pygame.font.init()
    paths = save_doc_screenshots(args.out_dir)
    if args.all:
        paths += save_all(args.out_dir, ((800, 480), (1280, 720), (1920, 1080)))
    for p in paths:
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
