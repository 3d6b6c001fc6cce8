"""Debouncing a push button by the edges' own timestamps: edges in, presses and holds out.

Why timestamps and not timers: the edges reach Python on gpiozero's callback thread, and the
timer that says "the pin has been quiet for bounce_s" runs on a thread of its own. Both need
the GIL, which the table loop holds while it reads a frame. When the callbacks run late, a
short press's down and up edges can be handled back to back, before the timer of the down
edge has run; judged by when the callbacks ran, the press looked like a 0 ms spike and was
dropped as bounce. (A 60 ms tap with a 50 ms bounce window had 10 ms to spare.) Judged by when
the pin changed, it is what it was: down for 60 ms, one press.

The same holds for telling a press from a hold: gpiozero's hold thread says "held" after the
hold time as its thread measures it, and a release that comes first makes it say nothing. A
release after at least hold_s down is a hold whatever the threads did (it fires then, once), and
never a Bunco call.

So a level counts as stable once the NEXT edge comes at least bounce_s after the edge that
set it, or, with no next edge, when the caller says the pin has been quiet (`quiet()`, from a
timer). Either way the decision depends only on the edge times, never on thread scheduling.
Pure: no clock, no threads; `hardware.button.PressButton` feeds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Debouncer", "Action"]

# ("press", the time the button went down) or ("hold", the time the hold was seen)
Action = tuple[Literal["press", "hold"], float]


@dataclass
class Debouncer:
    bounce_s: float
    hold_s: float
    pressed: bool = False  # the debounced level
    bounces: int = 0  # edges ignored as contact bounce, for `bunco hwtest`
    _level: bool | None = field(default=None, repr=False)  # the pin after the last edge, not yet stable
    _last_edge: float = field(default=0.0, repr=False)
    _burst_start: float | None = field(default=None, repr=False)
    _burst_edges: int = field(default=0, repr=False)
    _down_t: float | None = field(default=None, repr=False)
    _held: bool = field(default=False, repr=False)

    def edge(self, level: bool, t: float) -> list[Action]:
        """The pin went to `level` (True = pressed) at time `t` (the edge's own time)."""
        out: list[Action] = []
        if self._level is not None and t - self._last_edge >= self.bounce_s:
            out += self._commit()  # the level before this edge lasted bounce_s: it was real
        if self._burst_start is None:
            self._burst_start = t
        self._burst_edges += 1
        self._level, self._last_edge = level, t
        if self.bounce_s <= 0:
            out += self._commit()
        return out

    def quiet(self) -> list[Action]:
        """No edge has come for bounce_s since the last one: the pin's level is stable."""
        return self._commit() if self._level is not None else []

    def held(self, t: float) -> list[Action]:
        """The button has been down for the hold time (gpiozero's when_held): one hold, no press."""
        out: list[Action] = []
        if self._level is True:
            out += self._commit()  # down far longer than bounce_s, though no timer has said so yet
        if not self.pressed or self._held:
            return out
        self._held = True
        return out + [("hold", t)]

    @property
    def settling(self) -> bool:
        """An edge is waiting to be judged (the caller's quiet timer is due)."""
        return self._level is not None

    def _commit(self) -> list[Action]:
        level, start, edges = self._level, self._burst_start, self._burst_edges
        self._level, self._burst_start, self._burst_edges = None, None, 0
        if level == self.pressed:
            self.bounces += edges
            return []
        self.bounces += edges - 1
        self.pressed = bool(level)
        if self.pressed:
            self._down_t, self._held = start, False  # the press began at the burst's first edge
            return []
        down_t, self._down_t = self._down_t, None
        if self._held or down_t is None or start is None:
            return []
        if start - down_t >= self.hold_s:  # held that long, though the hold thread never said so
            return [("hold", down_t + self.hold_s)]
        return [("press", down_t)]
