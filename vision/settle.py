"""From a stream of frames to one reading each time the dice come to rest.

Motion is watched on a small grey copy of the tray (cheap: a frame difference), with the
threshold set from the frame's own noise, so the same code works for a noisy Pi camera
and for clean replayed photos. The reader runs only while the tray is still. A reading
is emitted once the tray has been still for `still_s` and the last `agree_frames`
readings agree; then the detector waits for motion (the next roll) before it can emit
again, and a rest that shows the very same dice in the very same places as the last
emitted reading (a hand passed over the tray and left) is not a new roll.

Nothing is emitted for an empty tray or while a hand is in the tray (a large skin-coloured
blob, see `_hand_in`). Fewer readable dice than expected, any unreadable region, or MORE
dice than expected (something foreign in the tray, or two sets mixed) is emitted as a
reading with `reroll_needed` set: the table asks for a re-roll and never guesses.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import cv2
import numpy as np

from vision.dice import FrameReading

Reader = Callable[[np.ndarray], FrameReading]
Roi = tuple[int, int, int, int]


@dataclass(frozen=True)
class Settled:
    """One roll, read once the dice came to rest."""

    values: tuple[int, ...]  # sorted values of the dice that were read
    unreadable: int  # dice that could not be read (regions seen, or dice missing from the count)
    rest_time: float  # timestamp of the first frame of the still tray
    read_time: float  # timestamp of the frame on which the reading was decided
    reading: FrameReading
    expected: int = 3
    agreed: bool = True  # False: the reads never agreed on a still tray (flicker), re-roll

    @property
    def reroll_needed(self) -> bool:
        return self.unreadable > 0 or len(self.values) != self.expected or not self.agreed

    @property
    def message(self) -> str:
        """What the table says, in a few words."""
        if not self.reroll_needed:
            return "read " + " ".join(map(str, self.values))
        if not self.agreed:
            return "the dice could not be read steadily: re-roll"
        if len(self.values) > self.expected:
            return f"{len(self.values)} dice in the tray, {self.expected} expected: re-roll"
        n = self.unreadable
        return f"{n} {'die' if n == 1 else 'dice'} unreadable: re-roll"


class _State(Enum):
    MOVING = "moving"
    STILL = "still"  # still, collecting readings
    DONE = "done"  # decided (emitted, empty or a repeat): wait for motion


@dataclass
class SettleDetector:
    """Feed it frames; it returns a Settled once per roll.

    reader: a callable frame -> FrameReading. Default: vision.reader.read_frame inside this
    detector's roi (imported on first use), left to size the dice itself (both readers measure
    each die): die_size_px here sets only how much change is motion.
    still_s: how long the tray must show no motion. agree_frames: how many consecutive
    readings must agree. motion_k: a pixel moved when its change exceeds motion_k times the
    frame's noise (noise_floor grey levels at least, for clean replayed frames).
    motion_area: motion means changed pixels covering this fraction of one die's area.
    max_reads: give up on a flickering still tray after this many reads (re-roll).
    """

    expected_dice: int = 3
    reader: Reader | None = None
    still_s: float = 0.2
    agree_frames: int = 3
    roi: Roi | None = None
    die_size_px: float | None = None
    work_width: int = 160
    motion_k: float = 5.0
    noise_floor: float = 3.0
    motion_area: float = 0.25
    max_reads: int = 45
    hand_dice_areas: float = 6.0

    state: _State = field(default=_State.MOVING, init=False)
    rest_time: float | None = field(default=None, init=False)
    last: Settled | None = field(default=None, init=False)
    frames_read: int = field(default=0, init=False)  # reader calls so far, for benchmarks and tests

    def __post_init__(self) -> None:
        if self.expected_dice < 1:
            raise ValueError("expected_dice must be at least 1")
        if self.agree_frames < 1:
            raise ValueError("agree_frames must be at least 1")
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None  # the small frame at the start of the still spell
        self._prev_t: float | None = None
        self._noise: float | None = None
        self._scale = 1.0
        self._reads: list[FrameReading] = []
        self._emitted: FrameReading | None = None

    # ------------------------------------------------------------------ the reader
    def _read(self, frame: np.ndarray) -> FrameReading:
        if self.reader is None:
            from vision.reader import read_frame  # lazy: the reader loads its networks

            roi = self.roi
            self.reader = lambda f: read_frame(f, roi=roi)
        self.frames_read += 1
        return self.reader(frame)

    # ------------------------------------------------------------------ motion
    def _small(self, frame: np.ndarray) -> np.ndarray:
        if self.roi is not None:
            x, y, w, h = self.roi
            frame = frame[max(0, y):y + h, max(0, x):x + w]
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        self._scale = min(1.0, self.work_width / grey.shape[1])
        if self._scale < 1.0:
            grey = cv2.resize(grey, None, fx=self._scale, fy=self._scale, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(grey, (3, 3), 0).astype(np.int16)

    def _die_area_small(self, shape: tuple[int, ...]) -> float:
        short = min(shape) / self._scale
        size = self.die_size_px
        if size is None and self._emitted is not None and self._emitted.dice:
            # only a reading that found dice says how big a die is; clamp it to a plausible
            # fraction of the tray, since a size too large would hide every later roll's motion
            size = min(max(self._emitted.die_size_px or 0.0, short / 40.0), short / 4.0)
        if size is None:  # before any calibration or reading: a die is about 1/12 of the tray's short side
            size = short / 12.0
        return (size * self._scale) ** 2

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        """Changed area between two small frames, in dice; updates the noise estimate."""
        d = np.abs(a - b)
        # the median absolute change is noise alone as long as less than half the tray moves
        sigma = float(np.median(d)) / 0.6745 + 0.25
        if self._noise is None:
            self._noise = sigma
        elif sigma < 2.0 * self._noise:  # a hand over most of the tray must not raise the bar
            self._noise = 0.9 * self._noise + 0.1 * sigma
        thr = max(self.noise_floor, self.motion_k * min(self._noise, sigma))
        return float(np.count_nonzero(d > thr)) / self._die_area_small(a.shape)

    # ------------------------------------------------------------------ hands
    def _hand_in(self, frame: np.ndarray) -> bool:
        """A hand: a skin-coloured blob of several dice' area that the tray floor is not.

        Skin is a band of YCrCb chroma; white and ivory dice fall in it too, but a die is one
        die's area, and a tray floor of skin-like wood is excluded by comparing with the
        floor's own colour (the median of the tray's border)."""
        if self.roi is not None:
            x, y, w, h = self.roi
            frame = frame[max(0, y):y + h, max(0, x):x + w]
        s = self._scale
        small = cv2.resize(frame, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else frame
        ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
        skin = cv2.inRange(ycc, (40, 136, 77), (250, 180, 127))
        border = np.concatenate([ycc[:2].reshape(-1, 3), ycc[-2:].reshape(-1, 3),
                                 ycc[:, :2].reshape(-1, 3), ycc[:, -2:].reshape(-1, 3)])
        floor = np.median(border, axis=0)
        near_floor = np.abs(ycc[:, :, 1:].astype(np.int16) - floor[1:].astype(np.int16)).max(axis=2) < 6
        skin[near_floor] = 0
        n, _, stats, _ = cv2.connectedComponentsWithStats(skin)
        if n < 2:
            return False
        return float(stats[1:, cv2.CC_STAT_AREA].max()) > self.hand_dice_areas * self._die_area_small(skin.shape)

    # ------------------------------------------------------------------ the stream
    def feed(self, t: float, frame: np.ndarray) -> Settled | None:
        small = self._small(frame)
        prev, prev_t = self._prev, self._prev_t
        self._prev, self._prev_t = small, t
        if prev is None or prev.shape != small.shape:
            self._anchor = None
            return None
        moving = self._changed(prev, small) > self.motion_area
        if not moving and self._anchor is not None:
            # slow creep stays under the frame-to-frame bar; compare with the start of the spell too
            moving = self._changed(self._anchor, small) > self.motion_area
        if moving:
            self.state = _State.MOVING
            self._anchor = None
            self._reads = []
            self.rest_time = None
            return None
        if self.state is _State.MOVING:
            self.state = _State.STILL
            self._anchor = prev
            self.rest_time = prev_t  # the previous frame already showed the tray at rest
            self._reads = []
        if self.state is _State.DONE:
            return None
        assert self.rest_time is not None
        if self._hand_in(frame):
            self._reads = []
            return None
        reading = self._read(frame)
        self._reads.append(reading)
        if t - self.rest_time < self.still_s - 1e-9 or len(self._reads) < self.agree_frames:
            return None
        recent = self._reads[-self.agree_frames:]
        key = _key(recent[-1])
        if all(_key(r) == key for r in recent):
            return self._decide(recent[-1], t, agreed=True)
        if len(self._reads) >= self.max_reads:
            return self._decide(recent[-1], t, agreed=False)
        return None

    def _decide(self, reading: FrameReading, t: float, *, agreed: bool) -> Settled | None:
        self.state = _State.DONE
        if not reading.dice and not reading.unreadable:
            return None  # an empty tray
        if agreed and self._emitted is not None and _same_dice(self._emitted, reading):
            return None  # the dice did not move: a hand passed over, or a bump of the table
        readable = len(reading.dice)
        missing = max(0, self.expected_dice - readable)
        unreadable = max(len(reading.unreadable), missing) if readable <= self.expected_dice else len(reading.unreadable)
        settled = Settled(reading.values, unreadable, float(self.rest_time or t), t, reading,
                          self.expected_dice, agreed)
        self._emitted = reading
        self.last = settled
        return settled

    def reset(self) -> None:
        """Forget everything (e.g. a new game): the next still tray is read afresh."""
        self.__post_init__()
        self.state = _State.MOVING
        self.rest_time = None
        self.last = None


def _key(r: FrameReading) -> tuple[tuple[int, ...], int]:
    return r.values, len(r.unreadable)


def _same_dice(a: FrameReading, b: FrameReading) -> bool:
    """Same values at the same places (within a third of a die)."""
    if _key(a) != _key(b) or not a.dice:
        return False
    size = a.die_size_px or max(max(d.box[1]) for d in a.dice)
    left = list(b.dice)
    for d in a.dice:
        match = next((e for e in left if e.value == d.value
                      and math.dist(e.box[0], d.box[0]) < size / 3), None)
        if match is None:
            return False
        left.remove(match)
    return True
