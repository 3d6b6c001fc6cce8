"""`bunco bench vision DIR`: accuracy and speed of the dice reader on a labelled photo set."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from appliance.errors import UserError

HELP = "dice reader on a labelled set (DIR/images + labels.csv [+ boxes.csv, label_issues.csv])"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", metavar="DIR", nargs="?",
                        help="a set folder laid out like shared/dice/<set>/ (or --drawn)")
    parser.add_argument("--drawn", action="store_true",
                        help="instead of photos, 640x480 trays drawn by vision.drawn: three dice of a colour "
                             "the photo sets lack (red/white, pink/black, black/white, blue/white), 1-8 dice "
                             "of any looks (mixed 1-8), three dice lying against each other (touching 3), "
                             "three dice of the surface's colour (camouflage 3): one result each (and each --change)")
    parser.add_argument("--frames", type=int, default=40, metavar="N", help="--drawn: trays a set (default 40)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--split", choices=("all", "val", "train"), default="all",
                        help="score every image, or only the validation photos the networks never trained on "
                             "(vision.split), or only the training ones")
    parser.add_argument("--change", default="none", metavar="NAME[,NAME...]",
                        help="read each photo as another camera or room would take it: "
                             "scale0.6, dark0.6, blur1, jpeg40, ... (vision.retake; 'list' lists them); "
                             "several, comma-separated, also give their mean (e.g. none,shift1,shift3,turn1)")
    parser.add_argument("--failures", action="store_true",
                        help="also list the images not read exactly")


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.evaluate import evaluate_set
    from vision.retake import CHANGES
    from vision.split import is_validation

    from vision.reader import read_frame

    if args.change == "list":
        print(" ".join(CHANGES))
        return 0
    names = args.change.split(",")
    for name in names:
        if name not in CHANGES:
            raise UserError(f"--change {name}: not a picture change (one of: {', '.join(CHANGES)})")

    cv2.setNumThreads(1)  # the figure we quote is one core's
    if args.drawn:
        return _drawn(args, read_frame, names)
    if args.dir is None:
        raise UserError("give a set folder DIR, or --drawn")
    folder = Path(args.dir)
    if not (folder / "labels.csv").is_file():
        raise UserError(f"{folder}: not a labelled set (no labels.csv; expected images/ + labels.csv)")
    select = None
    if args.split != "all":
        want = args.split == "val"
        select = lambda _i, img: is_validation(folder.resolve().name, img.file) == want  # noqa: E731
    results = []
    for name in names:
        try:
            score = evaluate_set(folder, read_frame, select, CHANGES[name])
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from exc
        result = score.as_dict()
        if name != "none":
            result["change"] = name
        results.append(result)
        if not args.json:
            _print(result, name)
        if args.failures:
            label = f" [{name}]" if len(names) > 1 else ""
            for s in score.images:
                if not s.exact:
                    print(f"  {s.file}{label}: read {list(s.read)} recalled {s.recalled}/{s.labelled}"
                          f" extra {s.extra}", file=sys.stderr if args.json else sys.stdout)
    if len(results) == 1:
        if args.json:
            print(json.dumps(results[0]))
        return 0
    # one sample of the pixels can be lucky: the mean over several is the steadier score
    mean = {key: _mean([r[key] for r in results]) for key in ("exact", "die_recall", "extra_dice", "wrong_dice")}
    if args.json:
        print(json.dumps({"changes": results, "mean": mean}))
    else:
        recall = "n/a" if mean["die_recall"] is None else f"{mean['die_recall']:.1%}"
        print(f"mean of {len(results)}: exact {mean['exact']:.1%}, die recall {recall},"
              f" extra dice {mean['extra_dice']}, wrong dice {mean['wrong_dice']}")
    return 0


def _drawn(args: argparse.Namespace, read_frame, changes: list[str]) -> int:
    """The drawn validation trays, one result a set (the keys of a photo set's result), a set and
    change ("red/white grey") when several changes are asked for."""
    from vision.evaluate import DRAWN_SETS, evaluate_drawn
    from vision.retake import CHANGES

    if args.frames < 1:
        raise UserError(f"--frames must be at least 1, not {args.frames}")
    results = {}
    for change in changes:
        for name, kind in DRAWN_SETS.items():
            key = name if len(changes) == 1 else f"{name} {change}"
            result = evaluate_drawn(read_frame, kind, args.frames, change=CHANGES[change]).as_dict()
            if change != "none":
                result["change"] = change
            results[key] = result
            if not args.json:
                print(f"drawn {key}")
                _print(result, change)
    if args.json:
        print(json.dumps(results))
    return 0


def _mean(values: list) -> float | None:
    return None if None in values else round(sum(values) / len(values), 4)


def _print(result: dict, name: str) -> None:
    recall = result["die_recall"]
    print(f"images      {result['images']}" + (f" (as {name})" if name != "none" else ""))
    print(f"exact       {result['exact']:.1%}")
    print(f"die recall  {'n/a (no boxes.csv)' if recall is None else f'{recall:.1%}'}")
    print(f"dice        {result['dice']}")
    print(f"extra dice  {result['extra_dice']}")
    wrong = result["wrong_dice"]
    print(f"wrong dice  {'n/a (no boxes.csv)' if wrong is None else wrong}")
    print(f"re-rolls    {result['rerolls']} (images with a die it could not read)")
    print(f"ms p50      {result['ms_p50']:.2f}")
    print(f"ms p95      {result['ms_p95']:.2f}")
