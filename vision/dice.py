"""What the reader says about one frame: the dice it read and the regions it could not."""

from __future__ import annotations

from dataclasses import dataclass, field

# OpenCV's rotated rectangle: ((centre x, centre y), (width, height), angle in degrees).
RotatedRect = tuple[tuple[float, float], tuple[float, float], float]


@dataclass(frozen=True)
class Die:
    value: int  # 1..6, the top face
    box: RotatedRect
    confidence: float  # 0..1


@dataclass(frozen=True)
class Unreadable:
    """A region that looks like a die but cannot be read: the caller asks for a re-roll."""

    box: RotatedRect
    reason: str  # e.g. "cocked", "occluded", "glare", "unclear"


@dataclass(frozen=True)
class FrameReading:
    dice: tuple[Die, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    die_size_px: float | None = None  # the die edge length the reader worked with
    ms: float = field(default=0.0, compare=False)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(sorted(d.value for d in self.dice))
