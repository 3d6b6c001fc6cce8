"""`bunco read IMAGE...`: read the dice in photographs, one JSON line an image."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from appliance.errors import UserError

HELP = "read the dice in image files: one JSON line an image (--overlay DIR draws them)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files to read")
    parser.add_argument("--overlay", metavar="DIR",
                        help="write each image with boxes and values drawn into DIR")
    parser.add_argument("--die-size", type=float, default=None, metavar="PX",
                        help="the die edge in pixels if known (default: estimated per image)")


def check_images(names: list[str]) -> None:
    """Every file exists, can be opened and starts like an image OpenCV decodes, before any is read.

    A missing file or a text file named .png is the user's slip: one line naming it
    (exit 2), not an OpenCV warning and a JSON error row. Existence is checked first
    because OpenCV warns on stderr about a path it cannot open.
    """
    import cv2

    for name in names:
        path = Path(name)
        if not path.exists():
            raise UserError(f"{name}: no such file")
        if path.is_dir():
            raise UserError(f"{name}: is a folder, not an image file")
        try:
            with path.open("rb"):
                pass
        except OSError as exc:
            raise UserError(f"{name}: cannot open ({exc.strerror})") from None
        if not cv2.haveImageReader(name):
            raise UserError(f"{name}: not an image (OpenCV knows no picture format that starts like it)")


def run(args: argparse.Namespace) -> int:
    import cv2

    check_images(args.images)
    from vision.overlay import draw_reading
    from vision.reader import read_frame

    overlay_dir = Path(args.overlay) if args.overlay else None
    if overlay_dir is not None:
        overlay_dir.mkdir(parents=True, exist_ok=True)
    if args.die_size is not None and args.die_size <= 0:
        raise UserError(f"--die-size must be a positive number of pixels, not {args.die_size}")
    failed = 0
    for name in args.images:
        frame = cv2.imread(name, cv2.IMREAD_COLOR)
        if frame is None:
            print(json.dumps({"file": name, "error": "cannot read image"}), flush=True)
            failed += 1
            continue
        reading = read_frame(frame, die_size_px=args.die_size)
        print(json.dumps({"file": name, "dice": list(reading.values),
                          "unreadable": len(reading.unreadable),
                          "ms": round(reading.ms, 2)}), flush=True)
        if overlay_dir is not None:
            out = overlay_dir / (Path(name).stem + ".png")
            if not cv2.imwrite(str(out), draw_reading(frame, reading)):
                raise UserError(f"{out}: cannot write the overlay picture")
    return 1 if failed else 0
