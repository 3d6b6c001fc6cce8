"""Scorecards, the winner of the night and the prizes, with the rule sheets' tie-breaks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Scorecard:
    marks: list[str] = field(default_factory=list)  # "W" / "L" per round played
    buncos: int = 0
    mini_buncos: int = 0
    wipeouts: int = 0
    white_elephants: int = 0

    @property
    def wins(self) -> int:
        return self.marks.count("W")

    @property
    def losses(self) -> int:
        return self.marks.count("L")


def rolloff_order(names: list[str], rng: random.Random) -> list[str]:
    """One die each, high first; players still tied roll again among themselves."""
    if len(names) <= 1:
        return list(names)
    rolls = {n: rng.randint(1, 6) for n in names}
    out: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        group = [n for n in names if rolls[n] == value]
        out += rolloff_order(group, rng) if len(group) > 1 else group
    return out


def _ranked(names: list[str], key, rng: random.Random) -> list[str]:
    """Order by key (high first); ties broken by roll-off."""
    out: list[str] = []
    for value in sorted({key(n) for n in names}, reverse=True):
        out += rolloff_order([n for n in names if key(n) == value], rng)
    return out


def standings(cards: dict[str, Scorecard], rng: random.Random) -> list[str]:
    """Most wins; tie -> most Buncos; still tied -> roll-off [004]."""
    return _ranked(sorted(cards), lambda n: (cards[n].wins, cards[n].buncos), rng)


_MOST = {
    "most_wins": lambda c: c.wins,
    "most_buncos": lambda c: c.buncos,
    "most_mini_buncos": lambda c: c.mini_buncos,
    "most_losses": lambda c: c.losses,
    "most_wipeouts": lambda c: c.wipeouts,
}


def award_prizes(
    cards: dict[str, Scorecard],
    enabled: tuple[str, ...],
    buncos_in_order: list[str],
    traveling_holder: str | None,
    rng: random.Random,
) -> dict[str, str | None]:
    """One prize a player, the first listed being the higher; traveling is outside that limit.

    A tie for a prize goes to most Buncos, then a one-die roll-off [002]. A prize nobody
    qualifies for (no one rolled a wipeout) stays None.
    """
    taken: set[str] = set()
    prizes: dict[str, str | None] = {}

    def best(candidates: list[str], stat) -> str | None:
        if not candidates:
            return None
        top = max(stat(cards[n]) for n in candidates)
        tied = sorted(n for n in candidates if stat(cards[n]) == top)
        return _ranked(tied, lambda n: cards[n].buncos, rng)[0]

    for prize in enabled:
        free = [n for n in sorted(cards) if n not in taken]
        if prize in _MOST:
            stat = _MOST[prize]
            winner = best([n for n in free if stat(cards[n]) > 0], stat)
        elif prize == "half_and_half":
            winner = best([n for n in free if cards[n].wins == cards[n].losses > 0], lambda c: 0)
        elif prize == "last_bunco":
            winner = next((n for n in reversed(buncos_in_order) if n in free), None)
        elif prize == "traveling":
            prizes[prize] = traveling_holder if traveling_holder in cards else None
            continue
        else:  # booby: a draw among those who won nothing
            continue
        prizes[prize] = winner
        if winner:
            taken.add(winner)
    if "booby" in enabled:
        holder = prizes.get("traveling")
        losers = [n for n in sorted(cards) if n not in taken and n != holder]
        prizes["booby"] = rng.choice(losers) if losers else None
    return {p: prizes.get(p) for p in enabled}
