"""Markdown tables of a training run's metrics.json files, for the model cards:
`python -m vision.training.tables [vision/models]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def face_table(metrics: dict) -> str:
    rows = ["| validation crops | dice | right | wrong value | unreadable (class 6) | accuracy |", "|---|---|---|---|---|---|"]
    for name, m in metrics["validation"].items():
        rows.append(f"| {name} | {m['dice']} | {m['right']} | {m['wrong']} | {m['unreadable']} | {100 * m['accuracy']:.1f} % |")
    return "\n".join(rows)


def finder_table(metrics: dict) -> str:
    rows = ["| threshold | set | photos | dice | recall | precision | median side error | photos exact (finder + face) | dice read wrong |", "|---|---|---|---|---|---|---|---|---|"]
    for thr, sets in metrics["validation"].items():
        for name, m in sets.items():
            rows.append(f"| {thr.split()[-1]} | {name} | {m['images']} | {m['dice']} | {100 * m['recall']:.1f} % | {100 * m['precision']:.1f} % | {100 * m['median_size_error']:.1f} % | {100 * m['image_exact']:.1f} % | {m['dice_read_wrong']} |")
    return "\n".join(rows)


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "models"
    print(face_table(json.loads((root / "face" / "metrics.json").read_text())))
    print()
    print(finder_table(json.loads((root / "finder" / "metrics.json").read_text())))


if __name__ == "__main__":
    main()
