"""How long a full redraw of the table screen takes, per layout.

    python -m appliance.ui.bench [--runs 5] [--frames 50]

Prints the median of several runs (the machine may be shared and noisy). A Pi redraws on
every change; this says how much of a frame budget that costs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1280, 720), (1920, 1080))


def bench_draw(size: tuple[int, int], view_name: str = "mid_round", frames: int = 50) -> float:
    """Milliseconds per draw_table call, averaged over frames (fonts warmed up first)."""
    import pygame

    from appliance.ui import examples
    from appliance.ui.table_screen import draw_table

    view = examples.ALL[view_name]()
    surface = pygame.Surface(size)
    draw_table(surface, view)  # warm the font cache
    t0 = time.perf_counter()
    for _ in range(frames):
        draw_table(surface, view)
    return (time.perf_counter() - t0) * 1000 / frames


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time draw_table at each layout size.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=50)
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.display.init()
    pygame.font.init()
    print(f"draw_table, ms per frame, median of {args.runs} runs x {args.frames} frames")
    for name in ("mid_round", "end_of_round", "one_table"):
        for size in SIZES:
            runs = [bench_draw(size, name, args.frames) for _ in range(args.runs)]
            print(f"  {name:13s} {size[0]:4d}x{size[1]:<4d} median {statistics.median(runs):6.2f}"
                  f"  (min {min(runs):.2f}, max {max(runs):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
