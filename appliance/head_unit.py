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
from appliance.game.rules import HouseRules
from appliance.game.seating import SeatPlan
from appliance.nightlog import GAME_LINES, LogError, NightFold, dumps, night_line, round_line
from appliance.net import messages
from appliance.store import EventStore
from appliance.ui.view import Banner, HeadView, Prize, SheetRow, TableTally, TeamView

log = logging.getLogger(__name__)

TABLE_GAME_LINES = frozenset({"roll", "call", "undo", "bell"})  # what a table sends that moves the game


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
        self._next_plan: SeatPlan | None = None
        self._next_at: float | None = None
        self._rang_end = False
        for event in self.store.events():
            self._restore(event.body)
        if self.fold.night is not None:
            self.players = tuple((self.fold.header or {}).get("players", self.players))
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
        if self.night.over:
            return "over"
        room = self.night.current
        if room is None:
            return "between" if self.night.played else "waiting"
        return "ending" if room.bell else "playing"

    @property
    def tables(self) -> int:
        if self.started:
            return len(self.night.layout.slots)
        from appliance.game.seating import plan_layout
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
        return messages.RoundMsg(header, self.night.rounds_started, self.phase, plan or (), nxt, round(starts_in, 1))

    # ---- control --------------------------------------------------------------------
    def start_night(self) -> None:
        """Seat the players (the draw) and ring the first round in."""
        if self.started:
            return
        self._append(night_line(self.players, self.rules, self.seed, heard_bells=True))
        self.start_round()

    def start_round(self) -> None:
        if self.night.over or self.night.current is not None:  # a complete round is closed at once
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
        if self._next_at is not None and self.clock() >= self._next_at:
            self.start_round()

    def undo(self, table: int) -> None:
        """The hostess takes back table n's last roll: a command the table logs as its own undo."""
        if not self.started or self.night.current is None:
            return
        cmd = messages.Command(max((c.id for c in self.cmds.get(table, [])), default=0) + 1, "undo",
                               self.night.rounds_started - 1)
        self._append({"type": "command", "table": table, "id": cmd.id, "cmd": "undo", "round": cmd.round})
        self.cmds.setdefault(table, []).append(cmd)
        self.net.publish_cmds(messages.CmdMsg(table, tuple(self.cmds[table])))

    def publish_all(self, tables: bool = True) -> None:
        """The retained state: after a (re)connect, and the round message after every change."""
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
        if not self.night.over:
            self._next_plan = self.night.next_plan()
            self._next_at = self.clock() + self.countdown_s

    # ---- the log ----------------------------------------------------------------------
    def _append(self, line: dict[str, Any]) -> None:
        """Fold first (so a line the game refuses is stored as refused, not as a move), then store."""
        if line["type"] in GAME_LINES:
            try:
                notes = self.fold.feed(line)
            except LogError as exc:
                line = {"type": "refused", "from": line.get("from"), "seq": line.get("seq"),
                        "body": {k: v for k, v in line.items() if k not in ("from", "seq")}, "why": str(exc)}
                log.warning("head: table %s seq %s refused: %s", line["from"], line["seq"], exc)
            else:
                self._note(line, notes)
        self.store.append(line, time.time())
        if "from" in line:
            self.acks[line["from"]] = max(self.acks.get(line["from"], 0), line["seq"])

    def _restore(self, line: dict[str, Any]) -> None:
        if line.get("type") in GAME_LINES:
            self.fold.feed(line)
        elif line.get("type") == "command":
            self.cmds.setdefault(line["table"], []).append(messages.Command(line["id"], "undo", line["round"]))
        if "from" in line:
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
        if not self.started:
            return HeadView(1, 1, 1, rules.points_to_win, "waiting", (), (), network=network,
                            banners=(Banner("bell", f"{len(self.players)} players: waiting to start"),))
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
            elif results:
                r = results[n - 1]
                teams = tuple(TeamView(p[0] if len(p) == 1 else ("Us", "Them")[i], p, pts)
                              for i, (p, pts) in enumerate(r.teams))
                phase = "over"
            else:
                continue
            tallies.append(TableTally(n, teams, status=st, phase=phase, note=self.news.get(n, "")))
        first = (index // ROUNDS_PER_SET) * ROUNDS_PER_SET
        result = night.finish() if night.over else None
        order = result.standings if result else tuple(sorted(
            night.cards, key=lambda p: (-night.cards[p].wins, -night.cards[p].buncos, p)))
        sheet = []
        for rank, player in enumerate(order, start=1):
            card = night.cards[player]
            marks = tuple(card.marks[first:first + ROUNDS_PER_SET])
            buncos = tuple(r.buncos.count(player) for r in night.played[first:first + len(marks)])
            sheet.append(SheetRow(rank, player, marks, buncos, card.wins, card.losses, card.buncos,
                                  card.mini_buncos, card.wipeouts))
        prizes = tuple(Prize(k.replace("_", " ").capitalize(), v) for k, v in (result.prizes.items() if result else ())
                       if v)
        banners: list[Banner] = []
        if self.phase == "between" and self._next_at is not None:
            banners.append(Banner("bell", f"Next round in {max(0, round(self._next_at - self.clock()))} s"))
        elif self.phase == "ending":
            banners.append(Banner("bell", "Bell! Tables finish their turns"))
        return HeadView(set_no, round_no, round_no, rules.points_to_win,
                        "over" if self.phase in ("between", "over") else self.phase, tuple(tallies), tuple(sheet),
                        night_over=self.phase == "over", prizes=prizes, banners=tuple(banners), network=network)
