"""Player lists: the one check every list of names passes before anything is logged.

A list comes from many places (`--players`, a roster file, a unit's config, the hostess's
page, a night line in a log or a retained message). All of them are checked here, so a
bad name is refused with one line naming the player, and a night that could never be
scored (two "Ann"s, an empty seat name) is never written down. Pure: names in, names or a
PlayerError out.
"""

from __future__ import annotations

from typing import Iterable

from appliance.game.seating import GHOST_PREFIX
from appliance.game.table import GameError

MAX_NAME = 24  # fits a table screen's seat and a phone's sheet row in big type
MIN_PLAYERS = 2


class PlayerError(GameError):
    """A player list that cannot make a night; the text names the player."""


def check_name(name: object, position: int | None = None) -> str:
    """One name, stripped; `position` (from 1) names an empty one."""
    where = f"player {position}" if position is not None else "a player"
    if not isinstance(name, str):
        raise PlayerError(f"{where} is not a name: {name!r}")
    clean = " ".join(name.split())
    if not clean:
        raise PlayerError(f"{where} has an empty name")
    if len(clean) > MAX_NAME:
        raise PlayerError(f"{clean!r} is longer than {MAX_NAME} characters ({len(clean)}): shorten it")
    if clean.casefold().startswith(GHOST_PREFIX.casefold()):
        raise PlayerError(f"{clean!r}: names starting with {GHOST_PREFIX.strip()!r} are the ghosts'")
    if any(not ch.isprintable() for ch in clean):
        raise PlayerError(f"{clean!r} holds a character that cannot be shown")
    return clean


def check_players(names: Iterable[object], *, at_least: int = MIN_PLAYERS, at_most: int | None = None) -> tuple[str, ...]:
    """The whole list: each name, no one twice (case-insensitive), and enough of them."""
    seen: dict[str, str] = {}
    out: list[str] = []
    for position, raw in enumerate(names, start=1):
        name = check_name(raw, position)
        key = name.casefold()
        if key in seen:
            same = "" if seen[key] == name else f" (as {seen[key]!r} and {name!r})"
            raise PlayerError(f"{name!r} is listed twice{same}")
        seen[key] = name
        out.append(name)
    if len(out) < at_least:
        raise PlayerError(f"{len(out)} player{'s' if len(out) != 1 else ''}: Bunco needs at least {at_least}")
    if at_most is not None and len(out) > at_most:
        raise PlayerError(f"{len(out)} players: at most {at_most} here")
    return tuple(out)


def check_newcomer(name: object, players: Iterable[str]) -> str:
    """A late arrival (or a rename): a good name nobody already has."""
    clean = check_name(name)
    taken = {p.casefold(): p for p in players}
    if clean.casefold() in taken:
        raise PlayerError(f"{clean!r} is already playing (as {taken[clean.casefold()]!r})")
    return clean


def split_list(text: str) -> tuple[str, ...]:
    """A typed or pasted list: one name a line, or comma-separated; blank lines dropped.

    Empty items between commas are kept (and then refused by check_players): "Ann,,Bea" is
    a typing slip the hostess should see, not a list the head quietly repairs.
    """
    lines = [line for line in text.replace("\r", "\n").split("\n") if line.strip()]
    if len(lines) == 1:
        return tuple(lines[0].split(","))
    return tuple(item for line in lines for item in line.split(","))
