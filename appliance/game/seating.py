"""Who sits where: the layout for a player count, the round-1 draw, and rotation.

Every layout is a list of tables, each with where its winners and its losers go next
round. The three party rotation schemes and the individual-table layouts of the party
pack [004] are all that one shape, so a single mover serves them all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from appliance.game.rules import HouseRules
from appliance.game.table import GameError, TableResult

GHOST_PREFIX = "Ghost "


@dataclass(frozen=True)
class TableSlot:
    size: int
    individual: bool
    winners_to: int  # table number for the next round
    losers_to: int


@dataclass(frozen=True)
class Layout:
    slots: tuple[TableSlot, ...]
    ghosts: tuple[str, ...] = ()

    @property
    def tables(self) -> int:
        return len(self.slots)


@dataclass(frozen=True)
class SeatPlan:
    """A round's seats: table 1 first, each clockwise from the scorekeeper."""

    tables: tuple[tuple[str, ...], ...]


# The party pack's individual-table layouts [004]: (size, individual, winners to, losers to).
_SMALL: dict[int, tuple[tuple[int, bool, int, int], ...]] = {
    5: ((3, True, 1, 2), (2, True, 1, 1)),
    6: ((4, False, 1, 2), (2, True, 1, 1)),
    7: ((4, False, 1, 2), (3, True, 2, 1)),
    9: ((4, False, 1, 2), (3, True, 2, 3), (2, True, 1, 1)),
    10: ((4, False, 1, 2), (4, False, 2, 3), (2, True, 1, 1)),
    11: ((4, False, 1, 2), (4, False, 2, 3), (3, True, 3, 1)),
}


def ghost_names(count: int) -> tuple[str, ...]:
    return tuple(f"{GHOST_PREFIX}{i}" for i in range(1, count + 1))


def plan_layout(players: int, rules: HouseRules) -> Layout:
    if players < 2:
        raise GameError("Bunco needs at least 2 players")
    if players <= 3 or (players == 4 and rules.four_players == "individual"):
        return Layout((TableSlot(players, True, 1, 1),))
    ghosts = (4 - players % 4) % 4
    tables = (players + ghosts) // 4
    if players in _SMALL and (rules.odd_players == "individual" or ghosts > tables):
        return Layout(tuple(TableSlot(*row) for row in _SMALL[players]))
    slots = tuple(TableSlot(4, False, *_team_flow(t, tables, rules.rotation)) for t in range(1, tables + 1))
    return Layout(slots, ghost_names(ghosts))


def _team_flow(t: int, tables: int, scheme: str) -> tuple[int, int]:
    if scheme == "ladder":
        return max(t - 1, 1), min(t + 1, tables)
    if scheme == "head_losers_last":
        return (1, tables) if t == 1 else (t - 1, t)
    if scheme == "losers_walk":
        return t, t % tables + 1
    raise GameError(f"unknown rotation {scheme!r}")


def draw_seats(players: tuple[str, ...], layout: Layout, rng: random.Random) -> SeatPlan:
    """The round-1 draw (the "Bunco cards"): ghosts go to the last seat of the last tables."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    seats: list[list[str | None]] = [[None] * slot.size for slot in layout.slots]
    for i, ghost in enumerate(layout.ghosts):
        seats[-1 - i][-1] = ghost
    it = iter(shuffled)
    return SeatPlan(tuple(tuple(s if s is not None else next(it) for s in table) for table in seats))


def next_seats(plan: SeatPlan, results: tuple[TableResult, ...], layout: Layout, round_index: int) -> SeatPlan:
    """Move winners and losers by the layout's flows; split every incoming pair."""
    incoming: list[list[tuple[int, int, tuple[str, ...]]]] = [[] for _ in layout.slots]
    for result, seats, slot in zip(results, plan.tables, layout.slots):
        team_size = 1 if slot.individual else 2
        teams = [tuple(seats[t::2]) if team_size == 2 else (seats[t],) for t in range(len(seats) // team_size)]
        winners = teams[result.winner_team]
        losers = tuple(p for i, team in enumerate(teams) if i != result.winner_team for p in team)
        n = result.table
        incoming[slot.winners_to - 1].append((int(slot.winners_to != n), n * 2, winners))
        incoming[slot.losers_to - 1].append((int(slot.losers_to != n), n * 2 + 1, losers))
    tables = []
    ghosts = set(layout.ghosts)
    for slot, groups in zip(layout.slots, incoming):
        flat = [p for _, _, group in sorted(groups) for p in group]
        if len(flat) != slot.size:
            raise GameError(f"rotation gave a table {len(flat)} players for {slot.size} seats")
        if not slot.individual and flat[0] in ghosts and flat[2] in ghosts:
            flat[2], flat[3] = flat[3], flat[2]
        if not slot.individual and flat[1] in ghosts and flat[3] in ghosts:
            flat[2], flat[3] = flat[3], flat[2]
        shift = round_index % slot.size  # the scorekeeper's seat goes round; partners stay opposite
        tables.append(tuple(flat[shift:] + flat[:shift]))
    return SeatPlan(tuple(tables))


def check_plan(plan: SeatPlan, players: tuple[str, ...], layout: Layout) -> None:
    """A seat plan given from outside (a log's `round` line, the head unit) must fit the layout."""
    seated = [p for table in plan.tables for p in table]
    expected = set(players) | set(layout.ghosts)
    if len(plan.tables) != layout.tables:
        raise GameError(f"the layout for {len(players)} players has {layout.tables} tables, not {len(plan.tables)}")
    for number, (table, slot) in enumerate(zip(plan.tables, layout.slots), start=1):
        if len(table) != slot.size:
            raise GameError(f"table {number} needs {slot.size} players, not {len(table)}")
    unknown = [p for p in seated if p not in expected]
    if unknown:
        raise GameError(f"unknown player {unknown[0]!r}")
    if len(seated) != len(set(seated)) or set(seated) != expected:
        missing = sorted(expected - set(seated))
        raise GameError(f"every player must sit once (missing: {', '.join(missing) or 'none'})")


def _partners(plan: SeatPlan, layout: Layout) -> set[frozenset[str]]:
    """The real players' partnerships of a plan: partners sit opposite at a team table."""
    ghosts = set(layout.ghosts)
    pairs: set[frozenset[str]] = set()
    for seats, slot in zip(plan.tables, layout.slots):
        if not slot.individual and len(seats) == 4:
            pairs |= {frozenset(p) for p in ((seats[0], seats[2]), (seats[1], seats[3])) if not set(p) & ghosts}
    return pairs


def check_partners(plan: SeatPlan, previous: SeatPlan, layout: Layout) -> None:
    """Nobody keeps a partner two rounds running (RULES.md, rotation), where the layout allows a change.

    A round line from outside (a log, the head unit) may seat anyone anywhere, so the test
    is per table: a kept partnership is refused only if another way to pair the same four
    players at that table (two ghosts never partners) would have kept none. A ghost is an
    empty seat, not a partner, so sitting opposite the same ghost again is no repeat.
    """
    if len(previous.tables) != layout.tables:
        return  # a round this table never saw (a party table catching up): nothing to compare
    before = _partners(previous, layout)
    ghosts = set(layout.ghosts)
    for number, (seats, slot) in enumerate(zip(plan.tables, layout.slots), start=1):
        if slot.individual or len(seats) != 4:
            continue
        a, b, c, d = seats
        kept = [p for p in ((a, c), (b, d)) if frozenset(p) in before]
        if not kept:
            continue
        pairings = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
        possible = [
            pairing for pairing in pairings
            if not any(set(p) <= ghosts for p in pairing) and not any(frozenset(p) in before for p in pairing)
        ]
        if possible:
            first, second = kept[0]
            raise GameError(f"table {number}: {first} and {second} were partners last round too "
                            "(nobody keeps a partner two rounds running)")
