"""`bunco bench net`: the head's bell to every table's phase change, over a real broker.

A whole party runs in this process: one head unit (HeadUnit driven by HeadApp.step, the
loop `bunco head` runs, with a real HeadLink) and N table units, each with its own
TableLink (its own paho client and connection), its own SQLite log in a temp folder and
its own thread. A table thread is the table's game loop: every frame (--frame-ms, 33 ms:
the real loop pumps the link once per camera frame) it pumps its link, hands round messages
to `unit.on_head` and commands to `unit.on_command`, and now and then (--roll-ms) feeds its
unit a scripted reading (`on_reading`, and `press` after a Bunco). Only that thread touches
its unit. Four players a table; the dice are scripted so that every round ends quickly and
without endless roll-offs: at the head table someone rolls a called Bunco after a few
rolls, which reaches the points to win and makes the head ring the end bell; at every table
seats 0 and 2 score one point a turn, seats 1 and 3 never score, so each table finishes
with the first turn that ends after it heard the bell.

What is timed, per table and per bell (two bells a round: the start, phase "playing", and
the end, phase "ending"): from the moment the head unit calls HeadLink.publish_round with
the new phase (recorded just before the call, first publication only) to the moment that
table's thread returns from `unit.on_head` having logged the new round (start) or the heard
bell (end) in its SQLite log. So a sample includes paho and the broker on loopback, the
wait for the table's next frame, decoding, and the table's own logging (SQLite, synchronous
FULL). Not included: how long the head took to decide (its own loop, its own log write).
`deliver_*` is the part up to the table's paho thread handing the message to the unit's
inbox (the network alone). All units share one CPython process, so they also compete for
the GIL and two cores here; each real table has a Pi to itself.

"lost" = table log lines the head's master log does not hold exactly once and exactly as
the table wrote them (checked once every table's log is acknowledged), plus bells/rounds a
table never took in (timed messages with no arrival at that table). It must be 0.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import queue
import random
import resource
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from appliance.benchmarks.table import percentile
from appliance.errors import UserError
from appliance.net.mosquitto import MosquittoError, MosquittoProcess, find_mosquitto

HELP = "party network: the head's bell -> every table's phase change (p50/p99), messages lost"

PARTY = "bench"
MAX_ROUNDS = 24           # one night: four sets of six rounds
HEAD_POLL_S = 0.02        # HeadApp.run's own poll
FAR_S = 600.0             # "no next round": a countdown the bench never waits out (< messages' 3600 s)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tables", type=int, default=30, help="table units, 4 players each (default 30)")
    p.add_argument("--rounds", type=int, default=20,
                   help=f"rounds to play, two timed bells each (default 20, at most {MAX_ROUNDS})")
    p.add_argument("--broker", choices=("mosquitto", "embedded"), default=None,
                   help="mosquitto (started here on a free loopback port; the default when it is "
                        "installed) or the embedded amqtt broker")
    p.add_argument("--frame-ms", type=float, default=33.3,
                   help="a table loop's period: it pumps its link once a camera frame (default 33.3)")
    p.add_argument("--roll-ms", type=float, default=250.0,
                   help="mean time between two readings at a table (default 250; a real party: seconds)")
    p.add_argument("--countdown", type=float, default=0.5, help="seconds between a round's end and the next bell")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=None,
                   help="give up after this many seconds (default 30 + 10 a round)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object: tables, p50_ms, p99_ms, lost, ...")


# ---- the broker --------------------------------------------------------------------------
# ---- timing hooks (measurement only: they change nothing the units see) ------------------
class TimedPublisher:
    """The head's Publisher: the HeadLink, with the moment each new round phase goes out."""

    def __init__(self, link: Any) -> None:
        self.link = link
        self.sent: dict[tuple[str, int], float] = {}

    def publish_round(self, msg: Any) -> None:
        self.sent.setdefault((msg.phase, msg.index), time.perf_counter())
        self.link.publish_round(msg)

    def publish_ack(self, table: int, seq: int) -> None:
        self.link.publish_ack(table, seq)

    def publish_cmds(self, msg: Any) -> None:
        self.link.publish_cmds(msg)


class StampedInbox(queue.Queue):
    """A UnitClient inbox that notes when each round message reached the table (paho's thread)."""

    def __init__(self, round_topic: str) -> None:
        super().__init__()
        self.round_topic = round_topic
        self.arrived: dict[tuple[str, int], float] = {}

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        topic, payload = item
        if topic == self.round_topic:
            t = time.perf_counter()
            try:
                obj = json.loads(payload)
                self.arrived.setdefault((obj["phase"], obj["index"]), t)
            except (ValueError, KeyError, TypeError):
                pass  # the link drops it; not ours to judge
        super().put(item, block, timeout)


# ---- a table: its own thread -------------------------------------------------------------
class TableRunner(threading.Thread):
    def __init__(self, n: int, root: Path, broker: Any, rules: Any, args: argparse.Namespace,
                 stop: threading.Event) -> None:
        super().__init__(name=f"bench-table{n}", daemon=True)
        from appliance.net import topics
        from appliance.net.table_link import TableLink
        from appliance.store import EventStore
        from appliance.table_unit import TableUnit

        self.n = n
        self.store = EventStore(root / f"table{n}.sqlite")
        self.link = TableLink(PARTY, n, broker, self.store)
        self.inbox = StampedInbox(topics.head_round(PARTY))
        self.link.client.inbox = self.inbox
        self.unit = TableUnit(self.store, (), rules, table=n, link=self.link, party=True)
        self.rng = random.Random(args.seed * 1000 + n)
        self.frame_s = args.frame_ms / 1000
        self.roll_s = args.roll_ms / 1000
        self.stop_event = stop
        self.heard: dict[tuple[str, int], float] = {}
        self.synced = False
        self.error: BaseException | None = None
        self._bunco_round = -1      # the round whose Bunco the head table has rolled
        self._bunco_after = 0       # head table: readings this round before the Bunco
        self._rolls_round = -1
        self._rolls = 0

    def run(self) -> None:
        try:
            self._loop()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            self.error = exc
            self.stop_event.set()

    def _loop(self) -> None:
        from appliance.net.messages import CmdMsg

        unit, link = self.unit, self.link
        next_frame = time.perf_counter()
        next_roll = next_frame + self.rng.uniform(0, self.roll_s)
        while not self.stop_event.is_set():
            for msg in link.pump():
                if isinstance(msg, CmdMsg):
                    unit.on_command(msg)
                    continue
                rounds, bell = self._where()
                unit.on_head(msg)
                t = time.perf_counter()
                rounds_now, bell_now = self._where()
                if rounds_now > rounds:
                    self.heard.setdefault(("playing", rounds_now), t)
                if bell_now and (rounds_now > rounds or not bell):
                    self.heard.setdefault(("ending", rounds_now), t)
            unit.set_network(link.state)
            now = time.perf_counter()
            if now >= next_roll:
                self._roll()
                next_roll = now + self.roll_s * self.rng.uniform(0.5, 1.5)
            self.synced = link.acked == link.last_seq
            next_frame += self.frame_s
            pause = next_frame - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            else:
                next_frame = time.perf_counter()  # behind: no catching up with a burst of frames

    def _where(self) -> tuple[int, bool]:
        unit = self.unit
        if not unit.ready:
            return 0, False
        table = unit.table_round
        return unit.night.rounds_started, bool(table is not None and table.bell)

    def _roll(self) -> None:
        unit = self.unit
        table = unit.table_round if unit.ready else None
        if table is None or table.done:
            return
        index = unit.round_index
        if index != self._rolls_round:
            self._rolls_round, self._rolls = index, 0
            self._bunco_after = self.rng.randint(3, 7)
        self._rolls += 1
        if table.expected_dice != unit.rules.dice:       # a one-die draw or race (not with these rules)
            unit.on_reading((self.rng.randint(1, 6),) * table.expected_dice)
            return
        target = table.setup.target
        others = [v for v in range(1, 7) if v != target]
        if (self.n == 1 and self._bunco_round != index and table.phase == "playing" and not table.bell
                and self._rolls >= self._bunco_after):
            self._bunco_round = index
            if "press_bunco" in unit.on_reading((target,) * unit.rules.dice):
                unit.press()
            return
        if table.setup.team_of(table.turn_seat) == 0 and table.turn_points == 0:
            dice = (target, *self.rng.sample(others, unit.rules.dice - 1))    # one point, the turn goes on
        else:
            dice = tuple(self.rng.sample(others, unit.rules.dice))            # nothing: the turn ends
        unit.on_reading(dice)


# ---- the head: its own thread ------------------------------------------------------------
class HeadRunner(threading.Thread):
    def __init__(self, root: Path, broker: Any, players: tuple[str, ...], rules: Any,
                 args: argparse.Namespace, stop: threading.Event) -> None:
        super().__init__(name="bench-head", daemon=True)
        from appliance.head_app import HeadApp
        from appliance.head_unit import HeadUnit
        from appliance.net.head_link import HeadLink
        from appliance.store import EventStore

        self.store = EventStore(root / "head.sqlite")
        self.link = HeadLink(PARTY, broker)
        self.publisher = TimedPublisher(self.link)
        self.unit = HeadUnit(self.store, players, rules, seed=args.seed, net=self.publisher,
                             countdown_s=args.countdown)
        self.app = HeadApp(self.unit, self.link, display=None, autostart=True)
        self.rounds = args.rounds
        self.stop_event = stop
        self.played = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop_event.is_set():
                unit = self.unit
                if unit.started and unit.night.rounds_started >= self.rounds:
                    unit.countdown_s = FAR_S     # the last timed round: no next bell
                self.app.step()
                self.played = len(unit.night.played) if unit.started else 0
                time.sleep(HEAD_POLL_S)
        except BaseException as exc:  # noqa: BLE001
            self.error = exc
            self.stop_event.set()


# ---- the run -----------------------------------------------------------------------------
def master_by_table(head_store: Any) -> dict[int, Counter]:
    """What the head stored of each table's lines: (seq, body as the table wrote it) -> count."""
    out: dict[int, Counter] = {}
    for e in head_store.events():
        if "from" not in e.body:
            continue
        if e.body["type"] in ("received", "refused"):
            body = e.body.get("body")
        else:
            body = {k: v for k, v in e.body.items() if k not in ("from", "seq")}
        out.setdefault(e.body["from"], Counter())[(e.body["seq"], json.dumps(body, sort_keys=True))] += 1
    return out


def count_lost(table_stores: dict[int, Any], head_store: Any) -> tuple[int, int]:
    """(lines not stored exactly once as written, lines the tables wrote): head vs every table's log."""
    master = master_by_table(head_store)
    lost = events = 0
    for n, store in table_stores.items():
        mine = Counter((e.seq, json.dumps(e.body, sort_keys=True)) for e in store.events())
        events += sum(mine.values())
        theirs = master.get(n, Counter())
        lost += sum(1 for k in mine if theirs[k] != 1)        # missing, changed or stored twice
        lost += sum(1 for k in theirs if k not in mine)        # stored, but never written so
    lost += sum(sum(c.values()) for n, c in master.items() if n not in table_stores)
    return lost, events


def run(args: argparse.Namespace) -> int:
    from appliance.game.rules import HouseRules
    from appliance.net.client import Broker

    if args.tables < 1:
        raise UserError(f"--tables {args.tables}: at least 1")
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise UserError(f"--rounds {args.rounds}: 1 to {MAX_ROUNDS} (one night of four sets)")
    if args.frame_ms <= 0 or args.roll_ms <= 0 or args.countdown < 0:
        raise UserError("--frame-ms and --roll-ms must be above 0, --countdown at least 0")
    kind = args.broker or ("mosquitto" if find_mosquitto() else "embedded")
    timeout = args.timeout if args.timeout is not None else 30 + 10 * args.rounds
    quiet = [logging.getLogger(name) for name in ("appliance", "amqtt", "transitions")]
    levels = [lg.level for lg in quiet]
    if not getattr(args, "verbose", False):
        for lg in quiet:   # 30 units say "connected" and "waiting for the head" at INFO
            lg.setLevel(logging.WARNING)

    players = tuple(f"P{i:03d}" for i in range(1, 4 * args.tables + 1))
    rules = HouseRules(sets=math.ceil(args.rounds / 6))
    mosquitto: MosquittoProcess | None = None
    embedded: Any = None
    broker_rss: float | None = None
    with tempfile.TemporaryDirectory(prefix="bunco-bench-net-") as tmp:
        root = Path(tmp)
        try:
            if kind == "mosquitto":
                binary = find_mosquitto()
                if binary is None:
                    raise UserError("--broker mosquitto: the mosquitto binary is not installed "
                                    "(apt-get install mosquitto), or use --broker embedded")
                mosquitto = MosquittoProcess(binary, root)
                try:
                    port = mosquitto.start()
                except MosquittoError as exc:
                    raise UserError(str(exc)) from None
            else:
                from appliance.net.embedded import EmbeddedBroker

                embedded = EmbeddedBroker("127.0.0.1")
                port = embedded.start()
            broker = Broker("127.0.0.1", port)
            stop = threading.Event()
            head = HeadRunner(root, broker, players, rules, args, stop)
            tables = [TableRunner(n, root, broker, rules, args, stop) for n in range(1, args.tables + 1)]
            started = time.monotonic()
            head.link.start()
            for t in tables:
                t.link.start()
            head.start()
            for t in tables:
                t.start()
            expected = [(phase, r) for r in range(1, args.rounds + 1) for phase in ("playing", "ending")]
            finished = False
            while not stop.is_set() and time.monotonic() - started < timeout:
                if (head.played >= args.rounds and all(t.synced for t in tables)
                        and all(key in t.heard for t in tables for key in expected)):
                    finished = True
                    break
                time.sleep(0.05)
            elapsed = time.monotonic() - started
            stop.set()
            for th in (head, *tables):
                th.join(10)
            errors = [th.error for th in (head, *tables) if th.error is not None]
            if errors:
                raise errors[0]
            if mosquitto is not None:
                broker_rss = mosquitto.peak_rss_mb()
            for t in tables:
                t.link.stop()
            head.link.stop()

            # ---- the count ------------------------------------------------------------
            sent = head.publisher.sent
            samples, deliver = [], []
            unheard = 0
            for t in tables:
                for key in expected:
                    if key not in t.heard or key not in sent:
                        unheard += 1
                        continue
                    samples.append((t.heard[key] - sent[key]) * 1000)
                    if key in t.inbox.arrived:
                        deliver.append((t.inbox.arrived[key] - sent[key]) * 1000)
            lost_events, events = count_lost({t.n: t.store for t in tables}, head.store)
            refused = head.unit.refused
            for t in tables:
                t.store.close()
            head.store.close()
        finally:
            if mosquitto is not None:
                mosquitto.stop()
            if embedded is not None:
                embedded.stop()
            for lg, level in zip(quiet, levels):
                lg.setLevel(level)

    lost = lost_events + unheard

    def r(v: float | None, digits: int = 1) -> float | None:
        return None if v is None else round(v, digits)

    result = {
        "tables": args.tables,
        "p50_ms": r(statistics.median(samples)) if samples else None,
        "p99_ms": r(percentile(samples, 0.99)) if samples else None,
        "lost": lost,
        "max_ms": r(max(samples)) if samples else None,
        "deliver_p50_ms": r(statistics.median(deliver)) if deliver else None,
        "deliver_p99_ms": r(percentile(deliver, 0.99)) if deliver else None,
        "samples": len(samples),
        "rounds": head.played,
        "lost_events": lost_events,
        "unheard": unheard,
        "refused": refused,
        "events": events,
        "finished": finished,
        "seconds": r(elapsed),
        "rss_mb": r(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "broker": kind,
        "broker_rss_mb": r(broker_rss),
        "frame_ms": args.frame_ms,
        "roll_ms": args.roll_ms,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.tables} tables, {result['rounds']} rounds, {result['samples']} bell arrivals "
              f"({kind} on loopback, a table loop every {args.frame_ms:g} ms, {result['seconds']} s)")
        print(f"head's bell -> table's phase change: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
              f"max {result['max_ms']} ms")
        print(f"of which the network (-> the table's inbox): p50 {result['deliver_p50_ms']} ms, "
              f"p99 {result['deliver_p99_ms']} ms")
        print(f"lost {lost} ({lost_events} of {events} table log lines not stored exactly once at the head, "
              f"{unheard} bells never taken in), refused {refused}")
        broker_mem = f", broker {result['broker_rss_mb']} MB" if broker_rss is not None else ""
        print(f"peak memory (RSS) {result['rss_mb']} MB for head + {args.tables} tables in one process{broker_mem}")
        if not finished:
            print(f"NOT FINISHED: gave up after {timeout:g} s")
    return 0 if finished and lost == 0 and refused == 0 else 1
