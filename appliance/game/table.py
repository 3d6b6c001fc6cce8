"""One table's round as a state machine.

The state is a fold over the table's events (rolls, calls, bells): an undo drops the last
roll and folds again, so a correction can never leave the tally half-changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from appliance.game.events import Bell, Call, Roll, TableEvent, Undo
from appliance.game.rules import HouseRules
from appliance.game.scoring import RollKind, RollScore, score_roll


class GameError(ValueError):
    """An event that cannot happen in the current state (a roll at a finished table...)."""


@dataclass(frozen=True)
class TableSetup:
    table: int
    seats: tuple[str, ...]          # clockwise from the scorekeeper
    target: int
    rules: HouseRules
    individual: bool = False        # each player for herself (one-table Bunco, small layouts)
    ghosts: frozenset[str] = frozenset()
    is_head: bool = False
    draw_first: bool = False        # the night's first round with the one-die draw

    def __post_init__(self) -> None:
        if not self.individual and len(self.seats) != 4:
            raise GameError(f"table {self.table}: a team table needs 4 seats, got {len(self.seats)}")
        if self.individual and not 2 <= len(self.seats) <= 4:
            raise GameError(f"table {self.table}: an individual table needs 2-4 seats")
        if len(set(self.seats)) != len(self.seats):
            raise GameError(f"table {self.table}: a player sits twice")

    @property
    def team_count(self) -> int:
        return len(self.seats) if self.individual else 2

    def team_of(self, seat: int) -> int:
        return seat if self.individual else seat % 2

    def team_players(self, team: int) -> tuple[str, ...]:
        return (self.seats[team],) if self.individual else (self.seats[team], self.seats[team + 2])

    def roller_of(self, seat: int) -> str:
        """A ghost's partner rolls for it (and is credited)."""
        player = self.seats[seat]
        if player in self.ghosts:
            if self.individual:
                raise GameError("ghosts sit only at team tables")
            return self.seats[(seat + 2) % 4]
        return player


@dataclass(frozen=True)
class RollRecord:
    seat: int
    roller: str
    dice: tuple[int, ...]
    score: RollScore | None   # None for a one-die draw or race roll
    phase: str                # "draw", "play", "roll_off"
    turn: int                 # turn number at the table, for the "turn" call window
    called: bool = False


@dataclass
class PlayerTally:
    buncos: int = 0
    mini_buncos: int = 0
    wipeouts: int = 0
    white_elephants: int = 0


@dataclass(frozen=True)
class TableResult:
    table: int
    teams: tuple[tuple[tuple[str, ...], int], ...]  # (players, points) per team
    winner_team: int
    winners: tuple[str, ...]
    losers: tuple[str, ...]


@dataclass
class TableRound:
    setup: TableSetup
    events: list[TableEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._reset()
        for event in list(self.events):
            self._apply(event)

    # ---- public ---------------------------------------------------------------------
    def apply(self, event: TableEvent) -> tuple[str, ...]:
        """Apply one event; returns notes for the screen ("false_call", "bunco_called", ...)."""
        if isinstance(event, Undo):
            index = _last_roll_index(self.events)
            if index is None:
                raise GameError(f"table {self.setup.table}: no roll to undo")
            kept = [e for i, e in enumerate(self.events) if i < index or (i > index and isinstance(e, Bell))]
            self._reset()
            for e in kept:
                self._apply(e)
            return ("undo",)
        return self._apply(event)

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def turn_seat(self) -> int:
        return self._seat

    @property
    def roller(self) -> str:
        """Who rolls next."""
        return self.setup.roller_of(self._seat)

    @property
    def expected_dice(self) -> int:
        """How many dice the next roll takes (one for the draw and the race roll-off)."""
        if self.phase == "draw" or (self.phase == "roll_off" and self.setup.rules.roll_off == "race"):
            return 1
        return self.setup.rules.dice

    @property
    def callable_bunco(self) -> RollRecord | None:
        """The Bunco a BUNCO! press would claim now, if any."""
        index = self._callable_index()
        return None if index is None else self.rolls[index]

    def result(self) -> TableResult:
        if not self.done:
            raise GameError(f"table {self.setup.table}: the round is not over")
        s = self.setup
        teams = tuple((s.team_players(t), self.points[t]) for t in range(s.team_count))
        winners = s.team_players(self.winner)
        losers = tuple(p for t in range(s.team_count) if t != self.winner for p in s.team_players(t))

        def real(names: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(n for n in names if n not in s.ghosts)

        return TableResult(s.table, teams, self.winner, real(winners), real(losers))

    # ---- the fold -------------------------------------------------------------------
    def _reset(self) -> None:
        s = self.setup
        self.events = []
        self.rolls: list[RollRecord] = []
        self.points = [0] * s.team_count
        self.tallies: dict[str, PlayerTally] = {}
        self.traveling: list[str] = []      # who took the traveling object, in order
        self.last_bunco: str | None = None
        self.false_calls = 0
        self.bell = False                   # the room's bell reached this table
        self.bell_trigger: str | None = None  # why this table asks the room to ring ("target", "bunco")
        self.winner: int = -1
        self.turn = 0
        self.turn_points = 0
        self._turn_rolls = 0
        self._seat = 0
        self._rolloff: list[int] = []       # seats taking part, in order
        self._rolloff_pos = 0
        self._rolloff_points: dict[int, int] = {}
        if s.draw_first:
            self.phase = "draw"
            self._draw = [i for i, p in enumerate(s.seats) if p not in s.ghosts]
            self._draw_values: dict[int, int] = {}
            self._seat = self._draw[0]
        else:
            self.phase = "playing"

    def _apply(self, event: TableEvent) -> tuple[str, ...]:
        if isinstance(event, Bell):
            self.events.append(event)
            return self._on_bell()
        if isinstance(event, Call):
            self.events.append(event)
            return self._on_call()
        if isinstance(event, Roll):
            dice = tuple(event.dice)
            if self.phase == "done":
                raise GameError(f"table {self.setup.table}: the round is over at this table")
            if len(dice) != self.expected_dice:
                raise GameError(f"table {self.setup.table}: expected {self.expected_dice} dice, got {len(dice)}")
            if any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
                raise GameError(f"table {self.setup.table}: dice must show 1-6, got {list(dice)}")
            self.events.append(event)
            if self.phase == "draw":
                return self._on_draw(dice)
            if self.phase == "roll_off":
                return self._on_rolloff(dice)
            return self._on_play(dice)
        raise GameError(f"unknown event {event!r}")

    def _tally(self, player: str) -> PlayerTally:
        return self.tallies.setdefault(player, PlayerTally())

    def _record(self, dice: tuple[int, ...], score: RollScore | None, phase: str) -> RollRecord:
        record = RollRecord(self._seat, self.roller, dice, score, phase, self.turn)
        self.rolls.append(record)
        return record

    def _score_common(self, record: RollRecord) -> list[str]:
        """Credits shared by play and roll-off rolls: mini Buncos, wipeouts, traveling trio."""
        rules, score, notes = self.setup.rules, record.score, []
        assert score is not None
        team = self.setup.team_of(record.seat)
        if score.kind is RollKind.WIPEOUT:
            self.points[team] = 0
            self._tally(record.roller).wipeouts += 1
            notes.append("wipeout")
        else:
            self.points[team] += score.points
            self.turn_points += score.points
        if score.kind in (RollKind.MINI_BUNCO, RollKind.HIGH_BUNCO):
            tally = self._tally(record.roller)
            tally.mini_buncos += 1
            notes.append(score.kind.value)
            if rules.white_elephant:
                tally.white_elephants += 1
                notes.append("white_elephant")
        if score.kind is RollKind.BUNCO:
            notes.append("press_bunco")
        if rules.traveling == "trio" and sorted(record.dice) == sorted(rules.traveling_trio):
            self.traveling.append(record.roller)
            notes.append("traveling")
        return notes

    def _on_play(self, dice: tuple[int, ...]) -> tuple[str, ...]:
        s = self.setup
        score = score_roll(dice, s.target, s.rules)
        record = self._record(dice, score, "play")
        self._turn_rolls += 1
        notes = self._score_common(record)
        if not score.scores:
            notes.append("turn_over")
            self._end_turn()
            if self.phase in ("finishing",):
                notes += self._finish_play()
        notes += self._check_reached()
        return tuple(notes)

    def _end_turn(self) -> None:
        self.turn += 1
        self.turn_points = 0
        self._turn_rolls = 0
        self._seat = (self._seat + 1) % len(self.setup.seats)

    def _check_reached(self) -> list[str]:
        s = self.setup
        if self.phase not in ("playing", "finishing") or max(self.points) < s.rules.points_to_win:
            return []
        if s.rules.round_end == "every_table":
            return ["reached"] + self._finish_play()
        if s.is_head and self.bell_trigger is None:
            self.bell_trigger = "target"
            return ["reached"]
        return []

    def _on_bell(self) -> tuple[str, ...]:
        if self.bell or self.phase in ("done", "roll_off"):
            self.bell = True
            return ()
        self.bell = True
        if self._turn_rolls == 0:  # the dice just passed: nobody is mid-turn here
            return ("bell",) + tuple(self._finish_play())
        self.phase = "finishing"
        return ("bell",)

    def _finish_play(self) -> list[str]:
        top = max(self.points)
        leaders = [t for t, p in enumerate(self.points) if p == top]
        if len(leaders) == 1:
            self.winner = leaders[0]
            self.phase = "done"
            return ["table_done"]
        self.phase = "roll_off"
        self._start_rolloff(leaders)
        return ["roll_off"]

    # ---- roll-offs ------------------------------------------------------------------
    def _start_rolloff(self, teams: list[int]) -> None:
        s = self.setup
        self._rolloff = [seat for seat in range(len(s.seats)) if s.team_of(seat) in teams]
        self._rolloff_pos = 0
        self._rolloff_points = {t: 0 for t in teams}
        self._seat = self._rolloff[0]
        self.turn += 1
        self.turn_points = 0
        self._turn_rolls = 0

    def _next_rolloff_seat(self) -> list[str]:
        self._rolloff_pos += 1
        self.turn += 1
        self.turn_points = 0
        self._turn_rolls = 0
        if self._rolloff_pos == len(self._rolloff):
            if self.setup.rules.roll_off == "pass":
                top = max(self.points[t] for t in self._rolloff_points)
                leaders = [t for t in self._rolloff_points if self.points[t] == top]
                if len(leaders) == 1:
                    self.winner = leaders[0]
                    self.phase = "done"
                    return ["table_done"]
                self._start_rolloff(leaders)
                return ["roll_off"]
            self._rolloff_pos = 0
        self._seat = self._rolloff[self._rolloff_pos]
        return []

    def _on_rolloff(self, dice: tuple[int, ...]) -> tuple[str, ...]:
        s = self.setup
        style = s.rules.roll_off
        team = s.team_of(self._seat)
        if style == "race":
            self._record(dice, None, "roll_off")
            self._rolloff_points[team] += dice[0]
            if self._rolloff_points[team] >= s.rules.race_points:
                self.winner = team
                self.phase = "done"
                return ("table_done",)
            return tuple(self._next_rolloff_seat())
        score = score_roll(dice, s.target, s.rules)
        record = self._record(dice, score, "roll_off")
        self._turn_rolls += 1
        if style == "first_target":
            notes = self._score_common(record)
            if any(score.scoring) or score.kind is RollKind.BUNCO:
                self.winner = team
                self.phase = "done"
                return tuple(notes + ["table_done"])
            return tuple(notes + self._next_rolloff_seat())
        notes = self._score_common(record)  # "pass": a whole turn, points to the tally
        if not score.scores:
            notes += self._next_rolloff_seat()
        return tuple(notes)

    # ---- the draw for the first roller ----------------------------------------------
    def _on_draw(self, dice: tuple[int, ...]) -> tuple[str, ...]:
        self._record(dice, None, "draw")
        self._draw_values[self._seat] = dice[0]
        pending = [seat for seat in self._draw if seat not in self._draw_values]
        if pending:
            self._seat = pending[0]
            return ()
        top = max(self._draw_values.values())
        tied = [seat for seat in self._draw if self._draw_values[seat] == top]
        if len(tied) > 1:  # ties roll again
            self._draw, self._draw_values = tied, {}
            self._seat = tied[0]
            return ("draw_tie",)
        self._seat = tied[0]
        self.turn += 1
        self.phase = "playing"
        return ("draw_done",)

    # ---- the BUNCO! call ------------------------------------------------------------
    def _callable_index(self) -> int | None:
        window = self.setup.rules.call_window
        candidates = [i for i, r in enumerate(self.rolls) if r.score is not None]
        if not candidates:
            return None
        if window == "next_roll":
            candidates = candidates[-1:] if candidates[-1] == len(self.rolls) - 1 else []
        elif window == "turn":
            last_turn = self.rolls[candidates[-1]].turn
            candidates = [i for i in candidates if self.rolls[i].turn == last_turn]
        for i in reversed(candidates):
            record = self.rolls[i]
            assert record.score is not None
            if record.score.kind is RollKind.BUNCO and not record.called:
                return i
        return None

    def _on_call(self) -> tuple[str, ...]:
        index = self._callable_index()
        if index is None:
            self.false_calls += 1
            return ("false_call",)
        s = self.setup
        record = self.rolls[index]
        assert record.score is not None
        self.rolls[index] = RollRecord(record.seat, record.roller, record.dice, record.score,
                                       record.phase, record.turn, called=True)
        team = s.team_of(record.seat)
        self.points[team] += record.score.bunco_bonus
        if record.turn == self.turn:
            self.turn_points += record.score.bunco_bonus
        self._tally(record.roller).buncos += 1
        self.last_bunco = record.roller
        notes = ["bunco_called"]
        if s.rules.traveling == "bunco":
            self.traveling.append(record.roller)
            notes.append("traveling")
        end = s.rules.bunco_end
        if record.phase == "play" and (end == "any_table" or (end == "head_table" and s.is_head)):
            self.bell_trigger = self.bell_trigger or "bunco"
            if self.phase in ("playing", "finishing"):
                self.bell = True
                notes += self._finish_play()  # "at once": the roller's turn ends too
            return tuple(notes)
        if self.phase == "done" and record.phase == "play" and not any(r.phase == "roll_off" for r in self.rolls):
            notes += self._finish_play()  # a late call (longer call window) can change the winner
        return tuple(notes + self._check_reached())


def _last_roll_index(events: list[TableEvent]) -> int | None:
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], Roll):
            return i
    return None
