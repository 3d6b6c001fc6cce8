"""What can happen at a table; a table's state is a fold over these."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Roll:
    """The next roll at the table, by whoever's turn it is (draw and roll-off rolls too)."""

    table: int
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Call:
    """The BUNCO! button: claims the table's callable Bunco, or is a false call."""

    table: int


@dataclass(frozen=True)
class Undo:
    """Takes back the table's last roll (and any call of it)."""

    table: int


@dataclass(frozen=True)
class Bell:
    """The room's round-end bell reached the table: current turns finish, no new turn starts."""

    table: int


TableEvent = Roll | Call | Undo | Bell
