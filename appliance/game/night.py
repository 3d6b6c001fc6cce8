"""The night: sets of six rounds, seating, scorecards, the winner and the prizes.

The Night takes an injected random.Random and splits it into two streams at once (seat
draws, tie-break roll-offs), so a night replayed from its log with the same seed makes
the same draws whether or not the log spells out the seats.

A party table sees only its own table (`only`): the head unit sends it the seats of each
round, and the night's score sheet is the head's. Bells are then "heard" (see round.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from appliance.game.events import Call, Roll, TableEvent, Undo
from appliance.game.players import PlayerError, check_newcomer, check_players
from appliance.game.prizes import Scorecard, award_prizes, standings
from appliance.game.round import RoomRound, RoundSetup
from appliance.game.rules import HouseRules
from appliance.game.seating import (
    Layout, SeatPlan, check_partners, check_plan, draw_seats, next_seats, plan_layout,
)
from appliance.game.table import GameError, TableResult, TableSetup

ROUNDS_PER_SET = 6


@dataclass(frozen=True)
class PlayedRound:
    set_no: int
    round_no: int
    plan: SeatPlan
    results: tuple[TableResult, ...]
    buncos: tuple[str, ...]
    traveling: tuple[str, ...]


@dataclass(frozen=True)
class NightResult:
    rounds: tuple[PlayedRound, ...]
    cards: dict[str, Scorecard]
    standings: tuple[str, ...]
    prizes: dict[str, str | None]
    traveling_holder: str | None


class Night:
    def __init__(self, players: tuple[str, ...], rules: HouseRules, rng: random.Random,
                 heard_bells: bool = False, only: int | None = None) -> None:
        players = tuple(players)
        clean = check_players(players)  # appliance.game.players: the one check of every list
        for p, c in zip(players, clean):
            if p != c:
                raise PlayerError(f"{p!r} has stray spaces (write it {c!r})")
        self.players = players
        self.rules = rules
        self.heard_bells = heard_bells or only is not None
        self.only = only
        self.layout: Layout = plan_layout(len(players), rules)
        self._seat_rng = random.Random(rng.getrandbits(64))
        self._tie_seed = rng.getrandbits(64)
        self.played: list[PlayedRound] = []
        self.current: RoomRound | None = None
        self.cards = {p: Scorecard() for p in players}

    @property
    def total_rounds(self) -> int:
        return self.rules.sets * ROUNDS_PER_SET

    @property
    def finished_rounds(self) -> int:
        return len(self.played) + (self.current is not None and self.current.complete)

    @property
    def over(self) -> bool:
        return self.finished_rounds >= self.total_rounds

    def next_plan(self) -> SeatPlan:
        """The seats of the next round: the draw first, then rotation from the last results.

        After a late arrival the layout may have changed: with the same tables the newcomers
        take the seats of the ghosts who left (rotation goes on); with more or fewer tables
        the seats are drawn again.
        """
        if not self.played:
            return draw_seats(self.players, self.layout, self._seat_rng)
        if self.only is not None:
            raise GameError("a party table gets its seats from the head unit")
        last = self.played[-1]
        if len(last.plan.tables) != self.layout.tables or any(
                len(t) != slot.size for t, slot in zip(last.plan.tables, self.layout.slots)):
            return draw_seats(self.players, self.layout, self._seat_rng)
        seated = {p for t in last.plan.tables for p in t}
        old_ghosts = tuple(sorted(p for p in seated if p not in self.players))
        moved = next_seats(last.plan, last.results, Layout(self.layout.slots, old_ghosts), len(self.played))
        newcomers = iter(p for p in self.players if p not in seated)
        leaving = set(old_ghosts) - set(self.layout.ghosts)
        return SeatPlan(tuple(tuple(next(newcomers) if p in leaving else p for p in t) for t in moved.tables))

    def add_player(self, name: str) -> None:
        """A late arrival, between rounds: a new scorecard (no marks for the rounds before)."""
        if self.current is not None and self.current.complete:
            self.close_round()
        elif self.current is not None and self.only is not None:  # the head moved on (see start_round)
            self._skip(self._plan)
        if self.current is not None:
            raise GameError(f"{name} can join only between rounds (round {self.rounds_started} is under way)")
        if self.over:
            raise GameError("the night is over")
        if name != check_newcomer(name, self.players):
            raise PlayerError(f"{name!r} has stray spaces")
        self.players = self.players + (name,)
        self.layout = plan_layout(len(self.players), self.rules)
        self.cards[name] = Scorecard(marks=[""] * len(self.played))

    @property
    def rounds_started(self) -> int:
        return len(self.played) + (self.current is not None)

    def start_round(self, plan: SeatPlan | None = None, index: int | None = None) -> RoomRound:
        """`index` (0-based) is the head's count; a party table that missed rounds catches up to it."""
        if self.current is not None:
            if self.current.complete:
                self.close_round()
            elif self.only is not None:  # the head moved on: its sheet, not ours, scores the round
                self._skip(self._plan)
            else:
                raise GameError("the current round is not over")
        if index is not None:
            if index < len(self.played):
                raise GameError(f"round {index + 1} of the night has been played already")
            if index > len(self.played) and self.only is None:
                raise GameError(f"round {len(self.played) + 1} is missing before round {index + 1}")
            while len(self.played) < index:  # a replaced or long-lost party table
                self._skip(SeatPlan(()))
        index = len(self.played)
        if index >= self.total_rounds:
            raise GameError(f"the night is over ({self.total_rounds} rounds played)")
        plan = plan or self.next_plan()
        check_plan(plan, self.players, self.layout)
        if self.played:
            check_partners(plan, self.played[-1].plan, self.layout)
        set_no, round_no = index // ROUNDS_PER_SET + 1, index % ROUNDS_PER_SET + 1
        ghosts = frozenset(self.layout.ghosts)
        tables = tuple(
            TableSetup(
                table=n, seats=seats, target=round_no, rules=self.rules,
                individual=slot.individual, ghosts=ghosts & set(seats), is_head=(n == 1),
                draw_first=(index == 0 and self.rules.first_roller == "high_die"),
            )
            for n, (seats, slot) in enumerate(zip(plan.tables, self.layout.slots), start=1)
            if self.only is None or n == self.only
        )
        if not tables:
            raise GameError(f"there is no table {self.only} in this night's layout")
        self.current = RoomRound(RoundSetup(set_no, round_no, tables), heard_bells=self.heard_bells)
        self._plan = plan
        return self.current

    def apply(self, event: TableEvent) -> dict[int, tuple[str, ...]]:
        """A roll at a finished round starts the next one (seated by the engine)."""
        if self.current is None or (isinstance(event, Roll) and self.current.complete):
            self.start_round()
        assert self.current is not None
        return self.current.apply(event)

    def finish(self) -> NightResult:
        """Close the last round (if complete) and work out standings and prizes."""
        if self.current is not None and self.current.complete:
            self.close_round()
        holder = next((p for r in reversed(self.played) for p in reversed(r.traveling)), None)
        buncos = [p for r in self.played for p in r.buncos]
        cards = self.cards
        if self.current is not None:  # a night stopped mid-round: its Buncos were rolled all the same
            cards = {p: replace(c, marks=list(c.marks)) for p, c in cards.items()}
            _add_tallies(cards, self.current)
            buncos += self.current.buncos
            holder = next(reversed(self.current.traveling), holder)
        tie_rng = random.Random(self._tie_seed)  # the same answer however often it is asked
        order = tuple(standings(cards, tie_rng))
        prizes = award_prizes(cards, self.rules.prizes, buncos, holder, tie_rng)
        return NightResult(tuple(self.played), cards, order, prizes, holder)

    def _skip(self, plan: SeatPlan) -> None:
        """A round this party table did not see to its end: the head's sheet has it."""
        i = len(self.played)
        self.played.append(PlayedRound(i // ROUNDS_PER_SET + 1, i % ROUNDS_PER_SET + 1, plan, (), (), ()))
        self.current = None

    def close_round(self) -> None:
        """Mark the complete round on the scorecards; rotation can then seat the next."""
        room = self.current
        assert room is not None and room.complete
        results = room.results()
        for result in results:
            for p in result.winners:
                self.cards[p].marks.append("W")
            for p in result.losers:
                self.cards[p].marks.append("L")
        _add_tallies(self.cards, room)
        self.played.append(PlayedRound(room.setup.set_no, room.setup.round_no, self._plan, results,
                                       tuple(room.buncos), tuple(room.traveling)))
        self.current = None


def _add_tallies(cards: dict[str, Scorecard], room: RoomRound) -> None:
    for table in room.tables.values():
        for player, tally in table.tallies.items():
            card = cards[player]
            card.buncos += tally.buncos
            card.mini_buncos += tally.mini_buncos
            card.wipeouts += tally.wipeouts
            card.white_elephants += tally.white_elephants


__all__ = ["Night", "NightResult", "PlayedRound", "Call", "Roll", "Undo"]
