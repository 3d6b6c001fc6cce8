"""The head unit: round control, the bell, the master score sheet, the hostess's view.

The master log (SQLite, like a table's) holds the night line, each round line, and every
line a table sent, stored once by (table, seq) before the head acknowledges it. Table
game lines (roll, call, undo, bell) are folded into one Night with "heard" bells, so the
master sheet is the same fold `bunco replay` makes of the head's export. The phase is
derived from that fold, never stored: after a power cut the head stands where it was.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from appliance.game.night import Night, ROUNDS_PER_SET
from appliance.game.players import PlayerError, check_newcomer, check_players
from appliance.game.rules import HouseRules
from appliance.game.seating import SeatPlan, plan_layout
from appliance.game.table import GameError
from appliance.nightlog import GAME_LINES, LogError, NightFold, dumps, join_line, night_line, round_line
from appliance.net import messages
from appliance.store import EventStore
from appliance.ui.view import Banner, HeadView, Prize, SheetRow, TableTally, TeamView

log = logging.getLogger(__name__)

TABLE_GAME_LINES = frozenset({"roll", "call", "undo", "bell"})  # what a table sends that moves the game
HOSTESS_LINES = frozenset({"roster", "hold", "resume", "next_now", "end"})  # her actions that are not game lines


class Refused(Exception):
    """A hostess action that cannot happen now: one line saying why; nothing changed."""


class Publisher:
    """Where the head's retained messages go (appliance.net.head_link.HeadLink on a party)."""

    def publish_round(self, msg: messages.RoundMsg) -> None: ...
    def publish_ack(self, table: int, seq: int) -> None: ...
    def publish_cmds(self, msg: messages.CmdMsg) -> None: ...


@dataclass
class HeadSignals:
    bell: Callable[[str], None] = lambda pattern: None     # "ring_start", "ring_end", "fanfare"
    show: Callable[[HeadView], None] = lambda view: None


@dataclass
class HeadUnit:
    store: EventStore
    players: tuple[str, ...]
    rules: HouseRules = field(default_factory=HouseRules)
    seed: int = 0
    net: Publisher = field(default_factory=Publisher)
    signals: HeadSignals = field(default_factory=HeadSignals)
    countdown_s: float = 10.0     # results on every screen, then the next round's bell
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self.fold = NightFold(source=f"{self.store.path} (master)")
        self.acks: dict[int, int] = {}
        self.cmds: dict[int, list[messages.Command]] = {}
        self.refused = 0
        self.news: dict[int, str] = {}
        self.held = False           # the hostess's hold: no next round until she resumes
        self.ended = False          # the hostess ended the night early
        self.trouble: str | None = None  # a log this head cannot fold: reported, then it waits
        self._next_plan: SeatPlan | None = None
        self._next_at: float | None = None
        self._rang_end = False
        try:
            self.players = check_players(self.players) if self.players else ()
        except PlayerError as exc:
            self.trouble = f"the player list: {exc}"
            self.players = ()
        for event in self.store.events():
            if self.trouble is None or event.body.get("type") not in GAME_LINES:
                self._restore(event.body)
        if self.trouble is not None:
            log.error("head: %s; waiting for the hostess", self.trouble)
        if self.fold.night is not None:
            self.players = self.night.players
            self.rules = self.night.rules
            room = self.night.current
            self._rang_end = bool(room and room.bell)
            if room is not None and room.complete:  # the fold never closes a round: the head does
                self._close_round()

    # ---- state ----------------------------------------------------------------------
    @property
    def night(self) -> Night:
        assert self.fold.night is not None
        return self.fold.night

    @property
    def started(self) -> bool:
        return self.fold.night is not None

    @property
    def phase(self) -> str:
        if not self.started:
            return "waiting"
        if self.night.over or self.ended:
            return "over"
        room = self.night.current
        if room is None:
            return "between" if self.night.played else "waiting"
        return "ending" if room.bell else "playing"

    @property
    def tables(self) -> int:
        if self.started:
            return len(self.night.layout.slots)
        if len(self.players) < 2:
            return 0
        return len(plan_layout(len(self.players), self.rules).slots)

    def round_msg(self) -> messages.RoundMsg:
        header = self.fold.header or night_line(self.players, self.rules, self.seed, heard_bells=True)
        if not self.started:
            return messages.RoundMsg(header, 0, "waiting", ())
        room = self.night.current
        plan = room and tuple(tuple(t.seats) for t in room.setup.tables)
        if plan is None and self.night.played:
            plan = self.night.played[-1].plan.tables
        starts_in = max(0.0, self._next_at - self.clock()) if self._next_at is not None else 0.0
        nxt = self._next_plan.tables if self._next_plan is not None else ()
        joined = self.night.players[len(header.get("players", ())):]
        return messages.RoundMsg(header, self.night.rounds_started, self.phase, plan or (), nxt, round(starts_in, 1),
                                 tuple(joined))

    # ---- control (the hostess: head screen, button, page) ------------------------------
    def _check_can_act(self) -> None:
        if self.trouble is not None:
            raise Refused(f"the head cannot go on: {self.trouble}")

    def set_players(self, names: Any) -> None:
        """The whole list, typed or pasted, before the start."""
        self._check_can_act()
        if self.started:
            raise Refused("the night has started: add a late arrival between rounds instead")
        try:
            players = check_players(names)
        except PlayerError as exc:
            raise Refused(str(exc)) from None
        self._roster(players)

    def add_player(self, name: Any) -> str:
        """Before the start: onto the list. Between rounds: a late arrival (a `join` line)."""
        self._check_can_act()
        try:
            clean = check_newcomer(name, self.players)
        except PlayerError as exc:
            raise Refused(str(exc)) from None
        if not self.started:
            self._roster(self.players + (clean,))
            return clean
        if self.phase == "over":
            raise Refused("the night is over")
        if self.night.current is not None:
            raise Refused(f"round {self.night.rounds_started} is under way: {clean} can join when it is over")
        self._append(join_line(clean))
        self.players = self.night.players
        self._next_plan = self.night.next_plan()
        self.publish_all(tables=False)
        return clean

    def rename_player(self, old: str, new: Any) -> str:
        self._check_can_act()
        if self.started:
            raise Refused("the night has started: names are on the score sheet now")
        if old not in self.players:
            raise Refused(f"{old!r} is not on the list")
        try:
            clean = check_newcomer(new, [p for p in self.players if p != old])
        except PlayerError as exc:
            raise Refused(str(exc)) from None
        self._roster(tuple(clean if p == old else p for p in self.players))
        return clean

    def remove_player(self, name: str) -> None:
        self._check_can_act()
        if self.started:
            raise Refused("the night has started: a player who leaves stays on the sheet")
        if name not in self.players:
            raise Refused(f"{name!r} is not on the list")
        self._roster(tuple(p for p in self.players if p != name))

    def _roster(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.store.append({"type": "roster", "players": list(players), "by": "hostess"}, time.time())
        self.publish_all(tables=False)

    def start_night(self) -> None:
        """Seat the players (the draw) and ring the first round in."""
        self._check_can_act()
        if self.started:
            raise Refused("the night has already started")
        try:
            check_players(self.players)
        except PlayerError as exc:
            raise Refused(f"cannot start: {exc}") from None
        self._append(night_line(self.players, self.rules, self.seed, heard_bells=True))
        self.start_round()

    def hold(self) -> None:
        """No next round until she resumes (a round under way plays on to its end)."""
        self._check_can_act()
        if self.phase == "over":
            raise Refused("the night is over")
        if self.held:
            raise Refused("the night is already on hold")
        self.held = True
        self._next_at = None
        self.store.append({"type": "hold", "by": "hostess"}, time.time())
        self.publish_all(tables=False)

    def resume(self) -> None:
        self._check_can_act()
        if not self.held:
            raise Refused("the night is not on hold")
        self.held = False
        self.store.append({"type": "resume", "by": "hostess"}, time.time())
        if self.started and self.phase == "between":
            self._next_at = self.clock() + self.countdown_s
        self.publish_all(tables=False)

    def next_round_now(self) -> None:
        """Between rounds: the next bell now, without the countdown (even on hold)."""
        self._check_can_act()
        if not self.started:
            raise Refused("the night has not started: start it first")
        if self.phase == "over":
            raise Refused("the night is over")
        if self.night.current is not None:
            raise Refused(f"round {self.night.rounds_started} is under way: the next one starts when it is over")
        self.store.append({"type": "next_now", "by": "hostess"}, time.time())
        self.held = False
        self.start_round()

    def end_night(self) -> None:
        """Between rounds: the night ends here; the sheet and prizes count the rounds played."""
        self._check_can_act()
        if not self.started:
            raise Refused("the night has not started")
        if self.phase == "over":
            raise Refused("the night is already over")
        if self.night.current is not None:
            raise Refused(f"round {self.night.rounds_started} is under way: end the night when it is over")
        self.store.append({"type": "end", "by": "hostess"}, time.time())
        self.ended = True
        self._next_plan, self._next_at = None, None
        self.signals.bell("fanfare")
        self.publish_all(tables=False)

    def start_round(self) -> None:
        if self.night.over or self.ended or self.night.current is not None:  # a complete round is closed at once
            return
        plan = self._next_plan or self.night.next_plan()
        self._next_plan, self._next_at = None, None
        self._append(round_line(plan, index=self.night.rounds_started))
        self._rang_end = False
        self.news.clear()
        self.signals.bell("ring_start")
        self.publish_all(tables=False)

    def tick(self) -> None:
        """The countdown between rounds."""
        if self._next_at is not None and not self.held and self.clock() >= self._next_at:
            self.start_round()

    def undo(self, table: int) -> None:
        """The hostess takes back table n's last roll: a command the table logs as its own undo."""
        self._check_can_act()
        if not self.started or self.night.current is None:
            raise Refused("no round is under way: there is no roll to take back")
        if not 1 <= table <= self.tables:
            raise Refused(f"there is no table {table} tonight")
        if not self.night.current.table(table).rolls:
            raise Refused(f"table {table} has no roll to take back in this round")
        cmd = messages.Command(max((c.id for c in self.cmds.get(table, [])), default=0) + 1, "undo",
                               self.night.rounds_started - 1)
        self._append({"type": "command", "table": table, "id": cmd.id, "cmd": "undo", "round": cmd.round,
                      "by": "hostess"})
        self.cmds.setdefault(table, []).append(cmd)
        self.net.publish_cmds(messages.CmdMsg(table, tuple(self.cmds[table])))

    def publish_all(self, tables: bool = True) -> None:
        """The retained state: after a (re)connect, and the round message after every change."""
        if self.trouble is not None:  # never a night the tables cannot fold
            return
        if not self.started:  # the list may still change: a table folds the night line it first hears
            return
        self.net.publish_round(self.round_msg())
        if tables:
            for table in range(1, self.tables + 1):
                self.net.publish_ack(table, self.acks.get(table, 0))
                if self.cmds.get(table):
                    self.net.publish_cmds(messages.CmdMsg(table, tuple(self.cmds[table])))

    # ---- table events -----------------------------------------------------------------
    def ingest(self, msg: messages.EventMsg) -> bool:
        """Store a table's line once, by (table, seq), then acknowledge it. True if new."""
        table, seq = msg.table, msg.seq
        have = self.acks.get(table, 0)
        if not 1 <= table <= self.tables:
            log.warning("head: an event from table %d, but the night has %d tables: dropped", table, self.tables)
            return False
        if seq <= have:  # sent again: already stored, counted once
            self.net.publish_ack(table, have)
            return False
        if seq > have + 1:  # a gap: the table sends again from the ack
            log.info("head: table %d seq %d after %d: waiting for the missing ones", table, seq, have)
            self.net.publish_ack(table, have)
            return False
        before = self.phase
        line = self._game_line(msg)
        self._append(line)
        self.net.publish_ack(table, seq)
        if line["type"] == "refused":
            self.refused += 1
        self._after_event(before)
        return True

    def _game_line(self, msg: messages.EventMsg) -> dict[str, Any]:
        body = msg.body
        base = {"from": msg.table, "seq": msg.seq}
        if body.get("type") not in TABLE_GAME_LINES:
            return {"type": "received", **base, "body": body}
        why = None
        if not self.started or self.night.current is None:
            why = "no round is under way"
        elif body.get("round") != self.night.rounds_started - 1:
            why = f"meant for round index {body.get('round')!r}, the head is at {self.night.rounds_started - 1}"
        if why is None:
            return {**body, **base}
        return {"type": "refused", **base, "body": body, "why": why}

    def _after_event(self, before: str) -> None:
        room = self.night.current if self.started else None
        if room is None:
            return
        if room.bell and not self._rang_end:
            self._rang_end = True
            self.signals.bell("ring_end")
        if room.complete:
            self._close_round()
            if self.night.over:
                self.signals.bell("fanfare")
        if self.phase != before or room.complete:
            self.publish_all(tables=False)

    def _close_round(self) -> None:
        """A complete round onto the sheet; then the next round's seats and the countdown to it."""
        self.night.close_round()
        if not self.night.over and not self.ended:
            self._next_plan = self.night.next_plan()
            self._next_at = None if self.held else self.clock() + self.countdown_s

    # ---- the log ----------------------------------------------------------------------
    def _append(self, line: dict[str, Any]) -> None:
        """Fold first, then store. A table's line the game refuses is stored as refused (not as a
        move); the head's own lines (night, round, join) are checked before they come here, and
        one the fold still refuses is not stored at all."""
        if line["type"] in GAME_LINES:
            try:
                notes = self.fold.feed(line)
            except LogError as exc:
                if "from" not in line:
                    raise Refused(str(exc).split(": ", 1)[-1]) from None
                line = {"type": "refused", "from": line["from"], "seq": line["seq"],
                        "body": {k: v for k, v in line.items() if k not in ("from", "seq")}, "why": str(exc)}
                log.warning("head: table %s seq %s refused: %s", line["from"], line["seq"], exc)
            else:
                self._note(line, notes)
        self.store.append(line, time.time())
        if isinstance(line.get("from"), int) and isinstance(line.get("seq"), int):
            self.acks[line["from"]] = max(self.acks.get(line["from"], 0), line["seq"])

    def _restore(self, line: dict[str, Any]) -> None:
        kind = line.get("type")
        if kind in GAME_LINES:
            try:
                self.fold.feed(line)
            except (LogError, GameError) as exc:  # a log written by hand or by an older head
                self.trouble = str(exc)
                return
        elif kind == "command":
            self.cmds.setdefault(line["table"], []).append(messages.Command(line["id"], "undo", line["round"]))
        elif kind == "roster" and isinstance(line.get("players"), list):
            try:
                self.players = check_players(line["players"], at_least=0)
            except PlayerError as exc:
                self.trouble = f"{self.store.path}: the hostess's list: {exc}"
        elif kind in ("hold", "resume"):
            self.held = kind == "hold"
        elif kind == "end":
            self.ended = True
        if isinstance(line.get("from"), int) and isinstance(line.get("seq"), int):
            self.acks[line["from"]] = max(self.acks.get(line["from"], 0), line["seq"])

    def _note(self, line: dict[str, Any], notes: dict[int, tuple[str, ...]]) -> None:
        table = line.get("table")
        if table is None or self.night.current is None:
            return
        for note in notes.get(table, ()):
            if note == "bunco_called" and self.night.current.table(table).last_bunco:
                self.news[table] = f"BUNCO! {self.night.current.table(table).last_bunco}"
            elif note == "wipeout":
                self.news[table] = "Wipeout!"

    def export_lines(self) -> list[str]:
        """The party's log as `bunco replay` reads it: the master's game lines, in fold order."""
        return [dumps(e.body) for e in self.store.events() if e.body.get("type") in GAME_LINES]

    # ---- the hostess's screen --------------------------------------------------------
    def view(self, status: dict[int, str] | None = None, network: str = "online") -> HeadView:
        status = status or {}
        rules = self.rules
        if not self.started:  # every expected table, and whether it is online
            tallies = tuple(TableTally(n, (), status=status.get(n, "offline"), phase="waiting")
                            for n in range(1, self.tables + 1))
            text = (f"Cannot go on: {self.trouble}" if self.trouble else
                    f"{len(self.players)} players: waiting to start" if self.players else
                    "No players yet: type them on the hostess page")
            return HeadView(1, 1, 1, rules.points_to_win, "waiting", tallies, (), network=network,
                            banners=(Banner("bell", text),))
        night = self.night
        index = night.rounds_started - 1 if night.current is not None else max(len(night.played) - 1, 0)
        set_no, round_no = index // ROUNDS_PER_SET + 1, index % ROUNDS_PER_SET + 1
        tallies = []
        room = night.current
        results = night.played[-1].results if room is None and night.played else ()
        for n in range(1, self.tables + 1):
            st = status.get(n, "offline")
            if room is not None:
                t = room.table(n)
                s = t.setup
                teams = tuple(TeamView(s.seats[i] if s.individual else ("Us", "Them")[i], s.team_players(i), t.points[i])
                              for i in range(s.team_count))
                phase = "over" if t.done else ("roll_off" if t.phase == "roll_off" else
                                               "ending" if room.bell else "playing")
            elif n <= len(results):  # (a table added by a late arrival has no results yet)
                r = results[n - 1]
                teams = tuple(TeamView(p[0] if len(p) == 1 else ("Us", "Them")[i], p, pts)
                              for i, (p, pts) in enumerate(r.teams))
                phase = "over"
            else:
                continue
            tallies.append(TableTally(n, teams, status=st, phase=phase, note=self.news.get(n, "")))
        first = (index // ROUNDS_PER_SET) * ROUNDS_PER_SET
        # the standings as `bunco replay` gives them (its tie-breaks too), at any point of the night
        result = night.finish()
        order = result.standings
        sheet = []
        for rank, player in enumerate(order, start=1):
            card = night.cards[player]
            marks = tuple(card.marks[first:first + ROUNDS_PER_SET])
            buncos = tuple(r.buncos.count(player) for r in night.played[first:first + len(marks)])
            sheet.append(SheetRow(rank, player, marks, buncos, card.wins, card.losses, card.buncos,
                                  card.mini_buncos, card.wipeouts))
        prizes = tuple(Prize(k.replace("_", " ").capitalize(), v)
                       for k, v in (result.prizes.items() if self.phase == "over" else ()) if v)
        banners: list[Banner] = []
        if self.phase == "between" and self._next_at is not None:
            banners.append(Banner("bell", f"Next round in {max(0, round(self._next_at - self.clock()))} s"))
        elif self.phase == "ending":
            banners.append(Banner("bell", "Bell! Tables finish their turns"))
        return HeadView(set_no, round_no, round_no, rules.points_to_win,
                        "over" if self.phase in ("between", "over") else self.phase, tuple(tallies), tuple(sheet),
                        night_over=self.phase == "over", prizes=prizes, banners=tuple(banners), network=network)
