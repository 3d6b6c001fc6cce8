"""Score a reader against a labelled folder of dice photographs.

A set is laid out like ../shared/dice/<set>/: images/, labels.csv (file,dice),
boxes.csv (file,value,xc,yc,w,h normalised, optional) and label_issues.csv (optional:
images where a visible die was left unlabelled, scored on their labelled dice only).
The scoring lives here, apart from the benchmark command, so tests can call it.
"""

from __future__ import annotations

import csv
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from vision.dice import Die, FrameReading

if TYPE_CHECKING:  # a type only: scoring itself needs no numpy
    import numpy as np

# A labelled box is grown by this factor before asking whether a read die's centre lies
# in it: labelled boxes are drawn tight (penlington-wood boxes cover only the pips).
BOX_SLACK = 1.3


@dataclass(frozen=True)
class LabelledBox:
    value: int
    xc: float  # pixels
    yc: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return (abs(x - self.xc) <= self.w * BOX_SLACK / 2
                and abs(y - self.yc) <= self.h * BOX_SLACK / 2)


@dataclass(frozen=True)
class LabelledImage:
    file: str
    path: Path
    values: tuple[int, ...]  # sorted
    boxes_norm: tuple[tuple[int, float, float, float, float], ...] = ()
    partial: bool = False  # listed in label_issues.csv: some visible dice are unlabelled

    def boxes(self, width: int, height: int) -> list[LabelledBox]:
        return [LabelledBox(v, xc * width, yc * height, w * width, h * height)
                for v, xc, yc, w, h in self.boxes_norm]


@dataclass(frozen=True)
class ImageScore:
    file: str
    exact: bool
    labelled: int
    recalled: int  # labelled dice matched by exactly one read die of the right value
    extra: int  # read dice that match no labelled die
    read: tuple[int, ...]
    ms: float
    has_boxes: bool
    wrong: int = 0  # labelled dice matched by exactly one read die, of another value: worse than a re-roll
    unreadable: int = 0  # regions the reader could not read: the table asks for a re-roll


@dataclass
class SetScore:
    images: list[ImageScore] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.images)

    @property
    def exact(self) -> float:
        return sum(s.exact for s in self.images) / max(1, self.n)

    @property
    def die_recall(self) -> float | None:
        scored = [s for s in self.images if s.has_boxes]
        if not scored:
            return None
        return sum(s.recalled for s in scored) / max(1, sum(s.labelled for s in scored))

    @property
    def dice(self) -> int:
        """The labelled dice of the images scored."""
        return sum(s.labelled for s in self.images)

    @property
    def extra_dice(self) -> int:
        return sum(s.extra for s in self.images)

    @property
    def wrong_dice(self) -> int | None:
        """Dice read as another value: the table scores these unless a player undoes them, where an
        unreadable die only costs a re-roll. None without boxes (a die cannot be told from another)."""
        if not any(s.has_boxes for s in self.images):
            return None
        return sum(s.wrong for s in self.images)

    @property
    def rerolls(self) -> int:
        """Images where the reader asked for a re-roll (any unreadable region), exact or not."""
        return sum(s.unreadable > 0 for s in self.images)

    def ms_quantile(self, q: float) -> float:
        ms = sorted(s.ms for s in self.images)
        if not ms:
            return 0.0
        if len(ms) == 1:
            return ms[0]
        return statistics.quantiles(ms, n=100, method="inclusive")[int(round(q * 100)) - 1]

    def as_dict(self) -> dict[str, float | int | None]:
        recall = self.die_recall
        return {
            "images": self.n,
            "dice": self.dice,
            "exact": round(self.exact, 4),
            "die_recall": None if recall is None else round(recall, 4),
            "extra_dice": self.extra_dice,
            "wrong_dice": self.wrong_dice,
            "rerolls": self.rerolls,
            "ms_p50": round(self.ms_quantile(0.5), 2),
            "ms_p95": round(self.ms_quantile(0.95), 2),
        }


def load_set(folder: str | Path) -> list[LabelledImage]:
    """Read labels.csv (+ boxes.csv, label_issues.csv when present) of one set folder."""
    folder = Path(folder)
    labels_path = folder / "labels.csv"
    if not labels_path.is_file():
        raise FileNotFoundError(f"{labels_path}: no labels.csv in this folder")
    boxes: dict[str, list[tuple[int, float, float, float, float]]] = {}
    boxes_path = folder / "boxes.csv"
    if boxes_path.is_file():
        with boxes_path.open(newline="") as fh:
            for row in csv.DictReader(fh):
                boxes.setdefault(row["file"], []).append(
                    (int(row["value"]), float(row["xc"]), float(row["yc"]),
                     float(row["w"]), float(row["h"])))
    partial: set[str] = set()
    issues_path = folder / "label_issues.csv"
    if issues_path.is_file():
        with issues_path.open(newline="") as fh:
            partial = {row["file"] for row in csv.DictReader(fh)}
    images = []
    with labels_path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            values = tuple(sorted(int(v) for v in row["dice"].split()))
            images.append(LabelledImage(row["file"], folder / "images" / row["file"], values,
                                        tuple(boxes.get(row["file"], ())),
                                        row["file"] in partial))
    return images


def _centre(die: Die) -> tuple[float, float]:
    return die.box[0]


def _nearest_box(boxes: list[LabelledBox], x: float, y: float) -> int | None:
    """The labelled box a read die belongs to: of those holding its centre, the one it is
    nearest the middle of (in box sizes), or None.

    Grown boxes of touching dice overlap; a read die lying in two of them is one die's,
    not a second read of each.
    """
    best, where = None, float("inf")
    for j, box in enumerate(boxes):
        if box.contains(x, y):
            d = max(abs(x - box.xc) / box.w, abs(y - box.yc) / box.h)
            if d < where:
                best, where = j, d
    return best


def score_image(image: LabelledImage, reading: FrameReading, width: int, height: int) -> ImageScore:
    """Exact match, die recall (box matching) and extra dice for one image.

    Each read die belongs to the labelled box its centre lies in (the nearest one's
    middle when grown boxes overlap). A labelled die is recalled when exactly one read die
    belongs to it and that die has the labelled value. For an image in label_issues.csv
    only read dice inside labelled boxes count (the unlabelled die may be read freely).
    """
    read_values = tuple(sorted(d.value for d in reading.dice))
    if not image.boxes_norm:
        if image.partial:
            exact = not (Counter(image.values) - Counter(read_values))
            extra = 0
        else:
            exact = read_values == image.values
            extra = max(0, len(read_values) - len(image.values))
        return ImageScore(image.file, exact, len(image.values), 0, extra, read_values,
                          reading.ms, False, unreadable=len(reading.unreadable))
    boxes = image.boxes(width, height)
    owner = [_nearest_box(boxes, *_centre(d)) for d in reading.dice]
    matched_dice = {i for i, b in enumerate(owner) if b is not None}
    recalled = wrong = 0
    for j, box in enumerate(boxes):
        mine = [i for i, b in enumerate(owner) if b == j]
        if len(mine) == 1:
            if reading.dice[mine[0]].value == box.value:
                recalled += 1
            else:
                wrong += 1
    unmatched = len(reading.dice) - len(matched_dice)
    if image.partial:
        considered = tuple(sorted(reading.dice[i].value for i in matched_dice))
        exact = considered == image.values
        extra = 0
    else:
        exact = read_values == image.values
        extra = unmatched
    return ImageScore(image.file, exact, len(boxes), recalled, extra, read_values,
                      reading.ms, True, wrong, len(reading.unreadable))


@dataclass(frozen=True)
class DrawnSet:
    """A kind of drawn validation tray: the dice's look (body, pips as vision.drawn names them; None:
    any looks, one shared look half the time, as vision.drawn.compose_tray draws them), how many
    a tray (None: 1-8), the chance a die lies against an earlier one, and the chance the tray's
    dice are of the surface's own colour (vision.drawn.compose_tray)."""

    look: tuple[str, str] | None
    dice: int | None
    touching: float = 0.0
    camouflage: float = 0.0


# The drawn validation sets: dice of colours the shared photo sets lack, three a tray; "mixed 1-8",
# the crowd a dice tower's camera or a busy tray shows; "touching 3", three dice pushed together,
# as they often come to rest in a small tray; and "camouflage 3", three dice of the surface's own
# colour (black dice in a black felt box, white dice on white paper).
DRAWN_SETS: dict[str, DrawnSet] = {
    "red/white": DrawnSet(("red", "white"), 3), "pink/black": DrawnSet(("pink", "black"), 3),
    "black/white": DrawnSet(("black", "white"), 3), "blue/white": DrawnSet(("blue", "white"), 3),
    "mixed 1-8": DrawnSet(None, None), "touching 3": DrawnSet(None, 3, touching=1.0),
    "camouflage 3": DrawnSet(None, 3, camouflage=1.0),
}


def evaluate_drawn(read: Callable[..., FrameReading], kind: DrawnSet, frames: int = 40, *,
                   size: tuple[int, int] = (640, 480), seed: int = 0,
                   change: Callable[[np.ndarray], np.ndarray] | None = None) -> SetScore:
    """Read `frames` trays of a `kind` drawn by vision.drawn and score them like a labelled photo
    set (every drawn die's box is its label). `change(frame)` is applied to each tray before it is
    read (vision.retake; a change that scales the frame scales its boxes with it, as they are kept
    in fractions of the frame).

    The seed fixes every frame, so two readers (or two runs) see the same trays; the seed is not
    one training draws from (vision/training uses its own), so these trays are validation.
    """
    import numpy as np

    from vision.drawn import compose_tray, random_look

    rng = np.random.default_rng([seed, 7919])
    score = SetScore()
    w, h = size
    for i in range(frames):
        frame, drawn = compose_tray(rng, w, h, count=kind.dice, side=(24.0, 90.0),
                                    looks=None if kind.look is None else [random_look(rng, *kind.look)], kind=None,
                                    touching=kind.touching, camouflage=kind.camouflage)
        boxes = tuple((d.value, d.xc / w, d.yc / h, d.w / w, d.h / h) for d in drawn)
        image = LabelledImage(f"drawn_{i}", Path(f"drawn_{i}"), tuple(sorted(d.value for d in drawn)), boxes)
        if change is not None:
            frame = change(frame)
        score.images.append(score_image(image, read(frame), frame.shape[1], frame.shape[0]))
    return score


def evaluate_set(folder: str | Path, read: Callable[..., FrameReading],
                 files: Callable[[int, LabelledImage], bool] | None = None,
                 change: Callable[[np.ndarray], np.ndarray] | None = None) -> SetScore:
    """Read every labelled image of a set with `read(frame_bgr)` and score it.

    `files(index, image)` optionally selects a subset (e.g. even-indexed files for a split);
    `change(frame)` is applied to each photo before it is read (vision.retake).
    """
    import cv2  # heavy import kept local

    score = SetScore()
    for index, image in enumerate(load_set(folder)):
        if files is not None and not files(index, image):
            continue
        frame = cv2.imread(str(image.path), cv2.IMREAD_COLOR)
        if frame is None:
            raise FileNotFoundError(f"{image.path}: cannot read image")
        if change is not None:
            frame = change(frame)
        reading = read(frame)
        score.images.append(score_image(image, reading, frame.shape[1], frame.shape[0]))
    return score
