"""Reading back what a gpiozero mock pin went through (for `bunco hwtest --fake-gpio` and tests)."""

from __future__ import annotations

from typing import Sequence

from gpiozero.pins.mock import PinState

__all__ = ["pulses"]


def pulses(states: Sequence[PinState], active_high: bool = True) -> list[float]:
    """Lengths in seconds of the finished "on" pulses in a MockPin.states history.

    Each PinState holds the time since the previous change and the new level; a level counts as
    on when it is non-zero (active-high) or zero (active-low). A pulse still on at the end of
    the history is not counted.
    """
    lengths: list[float] = []
    on_since: float | None = None
    elapsed = 0.0
    for i, st in enumerate(states):
        elapsed += st.timestamp if i else 0.0
        on = bool(st.state) if active_high else not bool(st.state)
        if on and on_since is None and i:
            on_since = elapsed
        elif not on and on_since is not None:
            lengths.append(elapsed - on_since)
            on_since = None
    return lengths
