"""The table unit: camera readings and button presses in, scored rolls, bell and screen out.

Everything that changes the game is first appended to the unit's SQLite log, then folded
into the engine through the same NightFold that `bunco replay` uses: what the screen
shows after a power cut is what the log says, and nothing else.

Standalone (one-table Bunco) the unit is its own head table: it seats the players, rings
the start and end bells and moves to the next round itself.

Dice can also be keyed in (`pick`/`ok`: the screen's pickers or digit keys), logged as a roll
with `"source": "hand"`; a correction of the last roll is an undo plus such a roll. Nothing the
screen asks (`ask`) changes the game until it is confirmed, so a stray touch changes nothing.

In a party (`party=True`) the head unit decides: its round message (appliance.net) brings
the night, the seats of each round and the bell, and the unit logs each of them as it
learns it, so its own log still replays on its own. The unit folds only its own table,
and every line it logs goes to the head through the `HeadLink` (seq = the store's seq).
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from appliance.game.night import Night
from appliance.game.rules import HouseRules
from appliance.game.seating import SeatPlan
from appliance.game.table import TableRound
from appliance.nightlog import GAME_LINES, NightFold, dumps, event_line, join_line, night_line, round_line
from appliance.game.events import Bell, Call, Roll, Undo
from appliance.store import EventStore
from appliance.ui.view import Banner, Card, Move, Panel, TableView, TeamView

log = logging.getLogger(__name__)



def game_log(store: EventStore) -> list[str]:
    """The unit's log as the JSON lines `bunco replay` reads (re-rolls and results are history only)."""
    return [dumps(e.body) for e in store.events() if e.body.get("type") in GAME_LINES]
# note -> (banner kind, text); {roller}, {mini}, {high} are filled in
BANNER_TEXT = {
    "false_call": ("false_call", "No Bunco showing: false call"),
    "wipeout": ("wipeout", "WIPEOUT! {roller} loses the points"),
    "mini_bunco": ("mini_bunco", "Mini Bunco! {roller} +{mini}"),
    "high_bunco": ("mini_bunco", "High Bunco! {roller} +{high}"),
    "white_elephant": ("white_elephant", "White elephant: {roller} takes a gift!"),
    "undo": ("undo", "Last roll taken back: roll again"),
    "roll_off": ("roll_off", "Tie! Roll-off"),
}


REROLLS_BEFORE_OFFER = 3  # re-roll requests in a row before the screen offers hand entry


@dataclass(frozen=True)
class Ask:
    """The question open on the screen, and what answering it would do.

    kind "entry": picking faces; action "roll" logs a new hand roll, "correct" asks to confirm
    a correction next. kind "menu": the last roll was tapped. kind "confirm": action
    "take_back" or "correct" (then `dice` is the corrected roll). `about` is the roll it is
    about (round, rolls at the table): if that roll is no longer the last, nothing is done.
    """

    kind: str
    dice: tuple[int, ...] = ()
    action: str = "roll"
    about: tuple[int, int] = (-1, -1)


def faces(dice: tuple[int, ...]) -> str:
    return " ".join(str(d) for d in dice)


class HeadLink(Protocol):
    """What the unit tells the head unit (a no-op standalone)."""

    def publish(self, seq: int, body: dict[str, Any]) -> None: ...


class NoLink:
    def publish(self, seq: int, body: dict[str, Any]) -> None:
        return None


@dataclass
class Signals:
    """Where the unit's outputs go: the bell, the light, the screen. All optional."""

    bell: Callable[[str], None] = lambda pattern: None         # "ring_start", "ring_end", "fanfare", "chirp"
    light: Callable[[str], None] = lambda state: None          # "idle", "your_turn", "bunco"
    show: Callable[[TableView], None] = lambda view: None


@dataclass
class TableUnit:
    store: EventStore
    players: tuple[str, ...]
    rules: HouseRules = field(default_factory=HouseRules)
    seed: int = 0
    table: int = 1
    signals: Signals = field(default_factory=Signals)
    link: HeadLink = field(default_factory=NoLink)
    clock: Callable[[], float] = time.time
    party: bool = False
    hand_only: bool = False   # no camera (`--camera none`): every roll is keyed in

    def __post_init__(self) -> None:
        self.inputs: queue.Queue[tuple[str, float]] = queue.Queue()
        self.fold = NightFold(source=str(self.store.path), only=self.table if self.party else None)
        self.head: Any = None           # the head's latest round message (appliance.net.messages.RoundMsg)
        self.network = "connecting" if self.party else "standalone"
        self._last_cmd = 0              # the hostess's last correction applied here
        self._result_logged = -1
        self._notes: tuple[str, ...] = ()
        self._banner_extra: list[Banner] = []
        self._next_plan: SeatPlan | None = None
        self._rang_end = False
        self.ask: Ask | None = None     # the panel open on the screen
        self._rerolls = 0               # re-roll requests since the last roll
        restored = 0
        for event in self.store.events():
            self._last_cmd = max(self._last_cmd, int(event.body.get("cmd", 0)))
            if event.body.get("type") in GAME_LINES:
                self.fold.feed(event.body)
                restored += 1
            elif event.body.get("type") == "result":
                self._result_logged = int(event.body.get("round", -1))
        if self.fold.night is None and self.party:
            log.info("table %d: waiting for the head unit", self.table)
            return
        if self.fold.night is None:
            self._append(night_line(self.players, self.rules, self.seed))
        else:  # the log decides: players and rules of the night already under way
            header = self.fold.header or {}
            self.players = tuple(header.get("players", self.players))
            self.rules = self.night.rules
            log.info("resumed from %s: %d events", self.store.path, restored)
        room = self.night.current
        self._rang_end = bool(room and room.bell)
        if self.party:
            self._rang_end = bool(room and room.table(self.table).bell)
        elif room is None and not self.night.played:
            self.start_round()
        elif room is not None and room.complete and not self.night.over:
            self._next_plan = self._plan_next()
        self._close_if_over()

    # ---- state ----------------------------------------------------------------------
    @property
    def night(self) -> Night:
        assert self.fold.night is not None
        return self.fold.night

    @property
    def table_round(self) -> TableRound | None:
        room = self.night.current
        return room.table(self.table) if room else None

    @property
    def round_index(self) -> int:
        """The current round's place in the night, from 0."""
        return self.night.rounds_started - 1

    @property
    def ready(self) -> bool:
        """False only for a party table that has not heard from its head unit yet."""
        return self.fold.night is not None

    @property
    def round_over(self) -> bool:
        room = self.night.current
        return room is None or room.complete

    # ---- inputs ---------------------------------------------------------------------
    def on_reading(self, values: tuple[int, ...], *, unreadable: int = 0, reroll: bool = False,
                   source: str = "camera", message: str = "") -> tuple[str, ...]:
        """A settled reading: a roll of whoever's turn it is, or a request to roll again."""
        self._banner_extra = []
        if not self.ready or self.night.over:
            return ()
        if self.party and (self.table_round is None or self.table_round.done):
            self._banner_extra = [Banner("reroll", "Dice read: wait for the next bell")]
            self._refresh(("wait",))
            return ("wait",)
        if self.round_over:
            self.start_round()
        table = self.table_round
        assert table is not None
        if reroll or len(values) != table.expected_dice:
            n = table.expected_dice
            text = message or f"Re-roll: {n} {'die' if n == 1 else 'dice'} needed, {len(values)} read"
            self._record({"type": "reroll", "table": self.table, "read": list(values),
                          "unreadable": unreadable, "source": source})
            self._banner_extra = [Banner("reroll", text)]
            self._rerolls += 1
            if self._rerolls >= REROLLS_BEFORE_OFFER:
                self._banner_extra.append(Banner("hand_entry", "Camera can't read them? Tap Enter dice, or type 1-6 + Enter"))
            self.signals.bell("chirp")
            self._refresh(("reroll",))
            return ("reroll",)
        self._rerolls = 0
        line = event_line(Roll(self.table, tuple(values)), player=table.roller, source=source)
        return self._act(line)

    def press(self) -> tuple[str, ...]:
        """The BUNCO! button (or the space bar): claims a Bunco, or a false call."""
        if not self.ready or self.night.current is None or self.night.over:
            return ()
        table = self.table_round
        if self.party and table is not None and table.done and (self.head is None or self.head.phase != "ending"):
            return ()  # the head has closed the round: a call now could only be refused there
        return self._act(event_line(Call(self.table)))

    def hold(self) -> tuple[str, ...]:
        """Holding the button (or backspace): take the last roll back. Not while the screen asks
        something: the answer to the question decides."""
        if not self.ready or self.ask is not None:
            return ()
        table = self.table_round
        if table is None or not table.rolls:
            return ()
        return self._act(event_line(Undo(self.table)))

    # ---- the screen's questions: hand entry, take back, correct ------------------------
    def _about(self) -> tuple[int, int]:
        table = self.table_round
        return (self.round_index, len(table.rolls)) if table is not None else (-1, -1)

    def _can_roll(self) -> bool:
        if not self.ready or self.night.over:
            return False
        table = self.table_round
        return not (self.party and (table is None or table.done))

    def _dice_needed(self) -> int:
        table = self.table_round
        if table is None or table.done:  # standalone: the next round's first roll
            return self.rules.dice
        return table.expected_dice

    def open_entry(self) -> None:
        """The "Enter dice" control (or a first digit key): one picker per die."""
        if not self._can_roll():
            return
        self.ask = Ask("entry", (0,) * self._dice_needed())
        self._refresh(self._notes)

    def pick(self, face: int, die: int | None = None) -> None:
        """A face for one die (a touch), or for the next die not yet picked (a digit key)."""
        if self.ask is None:
            self.open_entry()
        ask = self.ask
        if ask is None or ask.kind != "entry" or not 1 <= face <= 6:
            return
        dice = list(ask.dice)
        if die is None:
            if all(dice):
                return  # all picked: Enter logs them, backspace takes one away
            die = dice.index(0)
        if not 0 <= die < len(dice):
            return
        dice[die] = face
        self.ask = Ask("entry", tuple(dice), ask.action, ask.about)
        self._refresh(self._notes)

    def erase(self) -> None:
        ask = self.ask
        if ask is None or ask.kind != "entry" or not any(ask.dice):
            return
        dice = list(ask.dice)
        last = max(i for i, d in enumerate(dice) if d)
        dice[last] = 0
        self.ask = Ask("entry", tuple(dice), ask.action, ask.about)
        self._refresh(self._notes)

    def ok(self) -> tuple[str, ...]:
        """Enter or OK/Yes: log the keyed roll, go on to confirm a correction, or confirm."""
        ask = self.ask
        if ask is None:
            self.open_entry()
            return ()
        if ask.kind == "entry":
            if not all(ask.dice):
                return ()
            if ask.action == "correct":
                self.ask = Ask("confirm", ask.dice, "correct", ask.about)
                self._refresh(self._notes)
                return ()
            self.ask = None
            if len(ask.dice) != self._dice_needed():  # the roll-off changed what is needed meanwhile
                self._refresh(self._notes)
                return ()
            return self.on_reading(ask.dice, source="hand")
        if ask.kind == "confirm":
            self.ask = None
            if ask.about != self._about():  # the roll it was about is gone: do nothing
                self._banner_extra = [Banner("undo", "The last roll changed: nothing was done")]
                self._refresh(())
                return ()
            if ask.action == "take_back":
                return self.hold()
            return self._correct(ask.dice)
        return ()

    def cancel(self) -> None:
        if self.ask is not None:
            self.ask = None
            self._refresh(self._notes)

    def tap_roll(self) -> None:
        """A touch on the last roll only asks what to do with it: a stray touch changes nothing."""
        table = self.table_round
        room = self.night.current if self.ready else None
        if table is None or room is None or room.complete or not table.rolls:
            return
        self.ask = Ask("menu", table.rolls[-1].dice, about=self._about())
        self._refresh(self._notes)

    def take_back(self) -> None:
        if self.ask is not None and self.ask.kind == "menu":
            self.ask = Ask("confirm", (), "take_back", self.ask.about)
            self._refresh(self._notes)

    def correct(self) -> None:
        if self.ask is not None and self.ask.kind == "menu":
            self.ask = Ask("entry", self.ask.dice, "correct", self.ask.about)
            self._refresh(self._notes)

    def _correct(self, dice: tuple[int, ...]) -> tuple[str, ...]:
        """A correction is an undo and a hand roll in the log, by the same roller."""
        table = self.table_round
        assert table is not None and table.rolls
        if len(dice) != len(table.rolls[-1].dice):
            return ()
        self._act(event_line(Undo(self.table), why="correct"))
        table = self.table_round
        assert table is not None
        self._rerolls = 0
        return self._act(event_line(Roll(self.table, tuple(dice)), player=table.roller, source="hand",
                                    corrects=True))

    def drain_inputs(self, timeout: float = 0.0) -> int:
        """Handle button events queued by gpiozero's threads; returns how many."""
        handled = 0
        while True:
            try:
                kind, _t = self.inputs.get(timeout=timeout if handled == 0 else 0)
            except queue.Empty:
                return handled
            handled += 1
            if kind == "press":
                self.press()
            elif kind == "hold":
                self.hold()

    def start_round(self) -> None:
        """Seat the next round (draw, then rotation), log it, ring the start bell."""
        if self.party or self.night.over:  # in a party the head unit starts rounds
            return
        plan = self._next_plan or self._plan_next()
        self._next_plan = None
        self._append(round_line(plan))
        self._drop_stale_ask()
        self._rang_end = False
        self.signals.bell("ring_start")
        self._refresh(("round_start",))

    # ---- the fold -------------------------------------------------------------------
    def _plan_next(self) -> SeatPlan:
        room = self.night.current
        if room is not None and room.complete:
            self.night.close_round()  # rotation needs the results before the next round line
        return self.night.next_plan()

    def _append(self, body: dict[str, Any]) -> dict[int, tuple[str, ...]]:
        """A game line: folded first (refused lines never reach the log), then recorded."""
        notes = self.fold.feed(body)
        self._record(body)
        return notes

    def _record(self, body: dict[str, Any]) -> None:
        """Every line, game or history, goes to the store and then to the head, in seq order."""
        seq = self.store.append(body, self.clock())
        self.link.publish(seq, body)

    # ---- the head unit (a party) ------------------------------------------------------
    def on_head(self, msg: Any) -> tuple[str, ...]:
        """The head's round message (retained: also the first thing a (re)joining table hears)."""
        self.head = msg
        self._next_plan = SeatPlan(msg.next) if msg.next else None
        notes: tuple[str, ...] = ()
        if self.fold.night is None:
            self._append(dict(msg.night))
            header = self.fold.header or {}
            self.players = tuple(header.get("players", ()))
            self.rules = self.night.rules
        elif msg.night != self.fold.header:
            log.error("table %d: the head's night is not this unit's night: ignored (a new night needs "
                      "an empty --data folder)", self.table)
            return ()
        for name in msg.joined:  # late arrivals: before the round that seats them
            if name not in self.night.players:
                self._append(join_line(name))
        if msg.tables and msg.index > self.night.rounds_started:
            if self.table > len(msg.tables):
                log.error("table %d: the head seats only %d tables: ignored", self.table, len(msg.tables))
                return ()
            self._append(round_line(SeatPlan(msg.tables), index=msg.index - 1))
            self._drop_stale_ask()
            self._rang_end = False
            self.signals.bell("ring_start")
            notes = ("round_start",)
        room = self.night.current
        if (msg.phase == "ending" and room is not None and msg.index == self.night.rounds_started
                and not room.table(self.table).bell):
            notes = tuple(self._append(event_line(Bell(self.table), round=self.round_index)).get(self.table, ()))
            self._rang_end = True
            self.signals.bell("ring_end")
            self._log_result()
            self._close_if_over()
        self._refresh(notes)
        return notes

    def on_command(self, msg: Any) -> None:
        """The hostess's corrections (appliance.net.messages.CmdMsg), each applied once."""
        for cmd in sorted(msg.cmds, key=lambda c: c.id):
            if cmd.id <= self._last_cmd or not self.ready:
                continue
            self._last_cmd = cmd.id
            table = self.table_round
            if cmd.round != self.round_index or table is None or not table.rolls:
                self._record({"type": "cmd_skipped", "table": self.table, "cmd": cmd.id,
                              "why": "no roll to take back in that round"})
                continue
            self._act(event_line(Undo(self.table), by="hostess", cmd=cmd.id))

    def set_network(self, state: str) -> None:
        if state != self.network:
            self.network = state
            if self.ready:
                self._refresh(self._notes)

    def _drop_stale_ask(self) -> None:
        """A question about a roll is moot once the game moves; keyed-in faces for the next roll are not."""
        if self.ask is not None and (self.ask.kind != "entry" or self.ask.action != "roll"):
            self.ask = None

    def _act(self, line: dict[str, Any]) -> tuple[str, ...]:
        self._drop_stale_ask()
        if self.party:
            line["round"] = self.round_index
        notes = self._append(line).get(self.table, ())
        room = self.night.current
        if "bunco_called" in notes:
            self.signals.bell("fanfare")
        if "false_call" in notes:
            self.signals.bell("chirp")
        if not self.party and room is not None and room.bell and not self._rang_end:
            self._rang_end = True
            self.signals.bell("ring_end")
        if room is not None and room.complete:
            self._log_result()
            if not self.party and not self.night.over:
                self._next_plan = self._plan_next()
            self._close_if_over()
        self._refresh(notes)
        return notes

    def _close_if_over(self) -> None:
        """The night's last round onto the scorecards: the end screen shows the night's W/L."""
        room = self.night.current
        if self.night.over and room is not None and room.complete:
            self.night.close_round()

    def _log_result(self) -> None:
        """History for the export (`result` lines are not game lines): once a round."""
        room = self.night.current
        if room is None or not room.complete or self._result_logged == self.round_index:
            return
        self._result_logged = self.round_index
        self._record({"type": "result", "table": self.table, "round": self.round_index,
                      "winners": list(room.table(self.table).result().winners)})

    # ---- the screen -----------------------------------------------------------------
    def _refresh(self, notes: tuple[str, ...]) -> None:
        self._notes = notes
        view = self.view()
        self.signals.show(view)
        table = self.table_round
        if table is not None and table.callable_bunco is not None:
            self.signals.light("bunco")
        elif table is not None and not table.done:
            self.signals.light("your_turn")
        else:
            self.signals.light("idle")

    def view(self) -> TableView:
        """The screen's whole input: the game's state, and the question open over it."""
        view = self._game_view()
        if not self.ready:
            return view
        entry = "hide" if not self._can_roll() else \
            "offer" if self.hand_only or self._rerolls >= REROLLS_BEFORE_OFFER else "show"
        return dataclasses.replace(view, panel=self._panel_view(), entry=entry)

    def _panel_view(self) -> Panel | None:
        ask = self.ask
        if ask is None:
            return None
        table = self.table_round
        last = table.rolls[-1] if table is not None and table.rolls else None
        if ask.kind == "entry" and ask.action == "roll":
            who = table.roller if table is not None and not table.done else "the first roller"
            return Panel("entry", f"Enter the dice for {who}", ask.dice)
        if last is None:
            return None
        if ask.kind == "entry":
            return Panel("entry", f"Correct {last.roller}'s {faces(last.dice)}: pick the right faces", ask.dice)
        if ask.kind == "menu":
            return Panel("menu", f"{last.roller}'s roll: take it back, or correct it?", last.dice)
        if ask.action == "take_back":
            return Panel("confirm", f"Take back {last.roller}'s roll {faces(last.dice)}?", last.dice,
                         yes="Yes, take it back")
        return Panel("confirm", f"Change {last.roller}'s {faces(last.dice)} to {faces(ask.dice)}?", ask.dice,
                     yes="Yes, correct it")

    def _game_view(self) -> TableView:
        if not self.ready:
            return TableView(self.table, 1, 1, 1, self.rules.points_to_win,
                             (TeamView("Us", (), 0), TeamView("Them", (), 0)), "waiting", network=self.network,
                             banners=(Banner("reroll", "Waiting for the head unit"),))
        night, room = self.night, self.night.current
        rules = night.rules
        if room is None:
            last = night.played[-1] if night.played else None
            return self._view_between(last)
        table = room.table(self.table)
        s = table.setup
        teams = tuple(
            TeamView(s.seats[t] if s.individual else ("Us" if t == 0 else "Them"), s.team_players(t), table.points[t])
            for t in range(s.team_count)
        )
        phase = {"draw": "playing", "playing": "playing", "finishing": "ending",
                 "roll_off": "roll_off", "done": "over" if room.complete else "ending"}[table.phase]
        last_roll: tuple[int, ...] = ()
        scoring: tuple[bool, ...] = ()
        last_roller = None
        if table.rolls:
            rec = table.rolls[-1]
            last_roll, last_roller = rec.dice, rec.roller
            scoring = rec.score.scoring if rec.score else ()
        banners = list(self._banner_extra) + self._banners(table, room.bell)
        winners: tuple[str, ...] = ()
        moves: tuple[Move, ...] = ()
        if room.complete:
            winners = table.result().winners
            moves = self._moves()
        seat = table.turn_seat
        return TableView(
            table=self.table, set_no=room.setup.set_no, round_no=room.setup.round_no,
            target=room.setup.target, points_to_win=rules.points_to_win, teams=teams, phase=phase,
            turn_player=None if table.done else table.roller,
            turn_partner=None if (table.done or s.individual) else s.seats[(seat + 2) % 4],
            turn_team=None if table.done else s.team_of(seat),
            turn_points=table.turn_points, last_roll=last_roll, scoring=scoring, last_roller=last_roller,
            banners=tuple(banners), winners=winners, moves=moves, network=self.network,
        )

    def _view_between(self, last: Any) -> TableView:
        rules = self.night.rules
        result = next((r for r in last.results if r.table == self.table), None) if last else None
        if result is None:  # before the first round, or a round the head scored without us
            return TableView(self.table, 1, 1, 1, rules.points_to_win,
                             (TeamView("Us", (), 0), TeamView("Them", (), 0)), "waiting", network=self.network,
                             moves=self._moves())
        teams = tuple(TeamView(players[0] if len(players) == 1 else ("Us", "Them")[i], players, points)
                      for i, (players, points) in enumerate(result.teams))
        return TableView(self.table, last.set_no, last.round_no, last.round_no, rules.points_to_win,
                         teams, "over", winners=result.winners, moves=self._moves(), network=self.network,
                         night_over=self.night.over, cards=self._cards())

    def _seated_here(self) -> tuple[str, ...]:
        """This table's players in the current round, or the last one played."""
        room = self.night.current
        if room is not None:
            return room.table(self.table).setup.seats
        last = self.night.played[-1] if self.night.played else None
        if last is None or len(last.plan.tables) < self.table:
            return ()
        return last.plan.tables[self.table - 1]

    def _moves(self) -> tuple[Move, ...]:
        """Where this table's players sit next round (ghosts need no telling; the other tables
        tell their own players)."""
        if self._next_plan is None or len(self._next_plan.tables) == 1:
            return ()  # one table: nobody moves (the next roll starts the next round)
        here = set(self._seated_here()) - set(self.night.layout.ghosts)
        return tuple(Move(p, n) for n, seats in enumerate(self._next_plan.tables, 1) for p in seats if p in here)

    def _cards(self) -> tuple[Card, ...]:
        """This table's players' night, once it is over. Standalone the table saw the whole night;
        a party table saw only its own rounds (the head's sheet has the rest), so it shows none."""
        if self.party or not self.night.over:
            return ()
        cards = self.night.cards
        return tuple(Card(p, cards[p].wins, cards[p].losses, cards[p].buncos)
                     for p in self._seated_here() if p in cards)

    def _banners(self, table: TableRound, bell: bool) -> list[Banner]:
        notes = self._notes
        out: list[Banner] = []
        rec = table.rolls[-1] if table.rolls else None
        if "bunco_called" in notes and table.last_bunco:
            out.append(Banner("bunco", f"BUNCO! {table.last_bunco} +{self.rules.bunco_points}"))
        if table.callable_bunco is not None:
            out.append(Banner("press_bunco", "Press BUNCO!"))
        if "traveling" in notes and table.traveling:
            out.append(Banner("traveling", f"Traveling: {table.traveling[-1]} takes it"))
        for note, (kind, text) in BANNER_TEXT.items():
            if note in notes:
                out.append(Banner(kind, text.format(roller=rec.roller if rec else "", mini=self.rules.mini_bunco_points,
                                                    high=self.rules.high_bunco_points)))
        if bell and not table.done:
            out.append(Banner("bell", "Bell! Finish your turn"))
        return out
