"""A party as it runs at a party: `bunco head` and three `bunco table` processes over a real mosquitto.

Each table reads synthetic rolls of real die photographs through the real settle stage and
dice reader, and simulated players press BUNCO! on gpiozero's mock button. The test watches
the head's retained round message over MQTT (as a hostess's phone would), pulls table 2's
plug with SIGKILL while a player is mid-turn, starts it again with the same command line,
and checks the round still finishes; then that `bunco replay` of `bunco export` of the
head's log is the master sheet the head wrote, and that every line of every table's own
log is in the head's master log exactly once.

The cameras run unpaced (`bunco table --fast`): camera time is stamped frame index / fps,
so the settle stage sees the same stills and motion, only sooner.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PARTY = "proc-test"
PLAYERS = ("Stacy", "Carol", "Wanda", "Hannah", "Betty", "Dolores", "Fran", "Gloria", "Irene", "June", "Kay", "Lois")
# Short rounds: one set, and a head table that rings the bell at 5 points.
CONFIG = f"""\
[rules]
sets = 1
points_to_win = 5

[network]
party = "{PARTY}"
"""
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
ROOT = Path(__file__).resolve().parents[2]


def bunco(*args: str) -> list[str]:
    return [sys.executable, "-m", "appliance.cli", *args]


@dataclass
class Unit:
    """One `bunco` process, its output in files (printed when the test fails)."""

    name: str
    argv: list[str]
    folder: Path
    runs: int = 0
    process: subprocess.Popen[bytes] | None = None
    logs: list[Path] = field(default_factory=list)

    def start(self) -> None:
        self.runs += 1
        log = self.folder / f"{self.name}.run{self.runs}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            self.process = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT, env=ENV, cwd=ROOT)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, sig: int, timeout: float = 10.0) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout=timeout)

    def output(self) -> str:
        return "\n".join(f"---- {log.name}\n{log.read_text(errors='replace')}" for log in self.logs if log.exists())


class Watcher:
    """A paho subscriber on the head's retained round message, its acks and the tables' status."""

    def __init__(self, host: str, port: int) -> None:
        import paho.mqtt.client as mqtt

        from appliance.net import messages, topics

        self.messages = messages
        self.rounds: list[Any] = []
        self.acks: dict[int, int] = {}
        self.status: dict[int, list[str]] = {}
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-watcher",
                                  protocol=mqtt.MQTTv311)
        subs = [topics.head_round(PARTY), f"bunco/{PARTY}/head/ack/+", f"bunco/{PARTY}/table/+/status"]
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe([(s, 1) for s in subs])
        self.client.on_message = lambda c, u, m: self.inbox.put((m.topic, m.payload))
        self.client.connect(host, port, keepalive=10)
        self.client.loop_start()

    def pump(self) -> None:
        m = self.messages
        while True:
            try:
                topic, payload = self.inbox.get_nowait()
            except queue.Empty:
                return
            parts = topic.split("/")
            if topic.endswith("/head/round"):
                msg = m.decode_round(payload)
                if not self.rounds or (self.rounds[-1].index, self.rounds[-1].phase) != (msg.index, msg.phase):
                    self.rounds.append(msg)
            elif parts[2:4] == ["head", "ack"]:
                table = int(parts[4])
                self.acks[table] = m.decode_ack(payload, table).seq
            elif parts[2] == "table" and parts[4] == "status":
                self.status.setdefault(int(parts[3]), []).append(m.decode_status(payload).state)

    @property
    def phase(self) -> tuple[int, str]:
        return (self.rounds[-1].index, self.rounds[-1].phase) if self.rounds else (0, "none")

    def phases(self) -> list[tuple[int, str]]:
        return [(r.index, r.phase) for r in self.rounds]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_for(what: str, until: Callable[[], bool], timeout: float, watcher: Watcher,
             units: list[Unit] = (), step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        watcher.pump()
        if until():
            return
        for unit in units:
            if not unit.alive():
                raise AssertionError(f"{unit.name} exited with {unit.process.returncode} while waiting for {what}")
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}; the head said {watcher.phases()}, "
                         f"acks {watcher.acks}")


def log_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """A unit's SQLite log, read-only while its process may still be writing it (WAL)."""
    if not path.exists():
        return []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [(seq, json.loads(body)) for seq, body in db.execute("SELECT seq, body FROM events ORDER BY seq")]
    except sqlite3.OperationalError:  # the table is not there yet
        return []
    finally:
        db.close()


def table_state(path: Path, table: int) -> Any:
    """Table n's round folded from its own log, as the unit folds it on start-up (None before the bell)."""
    from appliance.nightlog import GAME_LINES, NightFold

    fold = NightFold(source=str(path), only=table)
    for _, body in log_lines(path):
        if body.get("type") in GAME_LINES:
            fold.feed(body)
    if fold.night is None or fold.night.current is None:
        return None
    return fold.night.current.table(table)


@pytest.fixture
def party(mosquitto_broker, tmp_path) -> Iterator[tuple[dict[str, Unit], Watcher, Path]]:
    config = tmp_path / "party.toml"
    config.write_text(CONFIG, encoding="utf-8")
    broker = f"{mosquitto_broker.host}:{mosquitto_broker.port}"
    units = {"head": Unit("head", bunco(
        "head", "--broker", broker, "--players", ",".join(PLAYERS), "--data", str(tmp_path / "head"),
        "--config", str(config), "--headless", "--fake-gpio", "--sheet", str(tmp_path / "sheet.json"),
        "--seed", "3",
        # long enough that the night stands still between rounds 1 and 2 while the test compares
        "--countdown", "120"), tmp_path)}
    for n in (1, 2, 3):
        units[f"table{n}"] = Unit(f"table{n}", bunco(
            "table", "--table", str(n), "--broker", broker, "--camera", f"synthetic:{n}", "--fast",
            "--fake-gpio", "--headless", "--simulated-players", str(n), "--data", str(tmp_path / f"t{n}"),
            "--config", str(config)), tmp_path)
    watcher = Watcher(mosquitto_broker.host, mosquitto_broker.port)
    for unit in units.values():
        unit.start()
    try:
        yield units, watcher, tmp_path
    finally:
        for unit in units.values():
            if unit.alive():
                unit.signal(signal.SIGKILL)
        watcher.close()


@contextmanager
def logs_on_failure(units: dict[str, Unit], broker: Any) -> Iterator[None]:
    """Every process's output (and the broker's) in the test report when the test fails."""
    try:
        yield
    except BaseException:
        for unit in units.values():
            print(f"======== {unit.name} ({' '.join(unit.argv[3:])})\n{unit.output()}", file=sys.stderr)
        print(f"======== mosquitto (the end)\n{broker.log()[-4000:]}", file=sys.stderr)
        raise


def test_head_and_three_table_processes_play_a_round_through_a_table_killed_mid_turn(party, mosquitto_broker):
    units, watcher, root = party
    with logs_on_failure(units, mosquitto_broker):
        play_the_round(units, watcher, root)


def play_the_round(units: dict[str, Unit], watcher: Watcher, root: Path) -> None:
    running = list(units.values())
    wait_for("round 1 to start", lambda: watcher.phase == (1, "playing"), 40, watcher, running)

    # Table 2 is mid-turn when its roller has scored this turn and rolls on.
    t2_log = root / "t2" / "events.sqlite"

    def mid_turn() -> bool:
        t = table_state(t2_log, 2)
        return t is not None and not t.done and t.turn_points > 0

    wait_for("table 2 to be mid-turn", mid_turn, 30, watcher, running, step=0.02)
    killed = units["table2"].signal(signal.SIGKILL)
    assert killed == -signal.SIGKILL
    at_kill = table_state(t2_log, 2)
    last_seq = log_lines(t2_log)[-1][0]
    assert at_kill.turn_points > 0 and not at_kill.done
    heard = len(watcher.status.get(2, []))
    # the broker tells everyone: the last will of a unit that vanished
    wait_for("table 2's last will", lambda: "offline" in watcher.status.get(2, [])[heard:], 10, watcher)

    units["table2"].start()
    wait_for("round 1 to end", lambda: watcher.phase == (1, "between"), 60, watcher, running)
    phases = watcher.phases()
    assert phases[phases.index((1, "playing")):] == [(1, "playing"), (1, "ending"), (1, "between")], phases

    # Table 2 came back where it was, from its own log: the same player rolls on.
    assert f"resumed from {t2_log}" in units["table2"].logs[-1].read_text()
    after = [body for seq, body in log_lines(t2_log) if seq > last_seq]
    first_roll = next(body for body in after if body["type"] == "roll")
    assert first_roll["player"] == at_kill.roller
    assert watcher.status[2][-1] == "online"

    # Stop the tables first (SIGTERM, as systemd does): each sends what it logged, then says offline.
    for n in (1, 2, 3):
        code = units[f"table{n}"].signal(signal.SIGTERM)
        assert code == 0, f"table {n} exited with {code} on SIGTERM"

    def all_acked() -> bool:
        return all(watcher.acks.get(n, 0) == log_lines(root / f"t{n}" / "events.sqlite")[-1][0] for n in (1, 2, 3))

    wait_for("the head to hold every table's whole log", all_acked, 15, watcher, [units["head"]])
    assert watcher.phase == (1, "between")
    sheet_path = root / "sheet.json"
    assert sheet_path.exists()
    code = units["head"].signal(signal.SIGTERM)
    assert code == 0, f"the head exited with {code} on SIGTERM"

    sheet = json.loads(sheet_path.read_text(encoding="utf-8"))
    export = root / "night.jsonl"
    done = subprocess.run(bunco("export", "--data", str(root / "head"), "--json", "--out", str(export)),
                          capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    again = subprocess.run(bunco("replay", str(export), "--json"), capture_output=True, text=True, env=ENV,
                           cwd=ROOT, timeout=60)
    assert again.returncode == 0, again.stderr
    replayed = json.loads(again.stdout)
    assert replayed == sheet
    assert len(sheet["rounds"]) == 1 and [t["table"] for t in sheet["rounds"][0]["tables"]] == [1, 2, 3]
    # every table's own screen said what the master sheet says
    for n, entry in enumerate(sheet["rounds"][0]["tables"], start=1):
        own = table_state(root / f"t{n}" / "events.sqlite", n).result()
        assert entry["teams"] == [{"players": list(p), "points": pts} for p, pts in own.teams], f"table {n}"
        assert entry["winners"] == list(own.winners), f"table {n}"

    # Nothing lost, nothing twice: each table's own log is in the master, in order, exactly once.
    master: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for _, body in log_lines(root / "head" / "events.sqlite"):
        if "from" in body:
            line = body["body"] if body["type"] in ("received", "refused") else {
                k: v for k, v in body.items() if k not in ("from", "seq")}
            master.setdefault(body["from"], []).append((body["seq"], line))
    for n in (1, 2, 3):
        mine = log_lines(root / f"t{n}" / "events.sqlite")
        assert master.get(n, []) == mine, f"table {n}: the master log differs from the table's own"
    # A BUNCO! press after the head closed the round (the simulated players press falsely now
    # and then) reaches the head too late to count: stored as refused, and nothing else is.
    for _, body in log_lines(root / "head" / "events.sqlite"):
        if body["type"] == "refused":
            assert body["body"]["type"] == "call" and body["why"] == "no round is under way", body
