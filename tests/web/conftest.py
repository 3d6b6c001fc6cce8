"""A live head unit for the hostess page's tests: real mosquitto, real HeadApp loop, real aiohttp.

``live``   a LiveParty: the head unit's loop on its own thread serving the page on a free port,
           three party tables (TableUnit + TableLink) on another thread, and a small HTTP client.
           State is read from the page itself (/state, the /events stream), never from the head's
           objects across threads.
"""

from __future__ import annotations

import http.cookiejar
import json
import queue
import random
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from appliance.commands.head import start_web
from appliance.game.rules import HouseRules
from appliance.head_app import HeadApp
from appliance.head_unit import HeadUnit
from appliance.net.client import Broker
from appliance.net.head_link import HeadLink
from appliance.net.mosquitto import MosquittoProcess, find_mosquitto
from appliance.net.table_link import TableLink
from appliance.store import EventStore
from appliance.table_unit import TableUnit

PARTY = "web"
PIN = "246810"


class Tables(threading.Thread):
    """Party tables on one thread of their own (a table unit belongs to one thread, like on a Pi)."""

    def __init__(self, broker: Broker, root: Path, rules: HouseRules, count: int, seed: int = 7) -> None:
        super().__init__(name="tables", daemon=True)
        self.broker, self.root, self.rules = broker, root, rules
        self.rng = random.Random(seed)
        self.units: dict[int, tuple[TableUnit, TableLink]] = {}
        self.calls: queue.Queue[tuple[Callable[[], Any], Future[Any]]] = queue.Queue()
        self.halt = threading.Event()
        self.count = count

    def open(self, n: int) -> None:
        """Table n's unit switched on (on this thread)."""
        store = EventStore(self.root / f"table{n}.sqlite")
        link = TableLink(PARTY, n, self.broker, store)
        self.units[n] = (TableUnit(store, (), self.rules, table=n, link=link, party=True), link)
        link.start()

    def run(self) -> None:
        for n in range(1, self.count + 1):
            self.open(n)
        while not self.halt.is_set():
            for unit, link in self.units.values():
                for msg in link.pump():
                    unit.on_command(msg) if hasattr(msg, "cmds") else unit.on_head(msg)
                unit.set_network(link.state)
            try:
                fn, done = self.calls.get(timeout=0.01)
            except queue.Empty:
                continue
            try:
                done.set_result(fn())
            except Exception as exc:  # the test sees it
                done.set_exception(exc)
        for unit, link in self.units.values():
            link.stop()
            unit.store.close()

    def call(self, fn: Callable[[], Any]) -> Any:
        done: Future[Any] = Future()
        self.calls.put((fn, done))
        return done.result(timeout=30)

    def roll_once(self, n: int) -> bool:
        """One throw at table n if it can roll now (a Bunco is called, as players do)."""
        def throw() -> bool:
            unit, link = self.units[n]
            table = unit.table_round if unit.ready else None
            if table is None or table.done or link.acked != link.last_seq:
                return False
            dice = tuple(self.rng.randint(1, 6) for _ in range(table.expected_dice))
            notes = unit.on_reading(dice)
            if "press_bunco" in notes or table.callable_bunco is not None:
                unit.press()
            return True
        return bool(self.call(throw))


class Client:
    """A phone: its own cookies; JSON in and out."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf: str | None = None

    def get(self, path: str) -> tuple[int, bytes, dict[str, str]]:
        try:
            with self.opener.open(self.base + path, timeout=30) as r:
                return r.status, r.read(), dict(r.headers)
        except urllib.error.HTTPError as e:
            return e.code, e.read(), dict(e.headers)

    def state(self) -> dict[str, Any]:
        code, body, _ = self.get("state")
        assert code == 200
        return json.loads(body)

    def post(self, path: str, body: dict[str, Any] | None = None, csrf: str | None = None,
             origin: str | None = None) -> tuple[int, dict[str, Any], dict[str, str]]:
        headers = {"Content-Type": "application/json"}
        token = csrf if csrf is not None else self.csrf
        if token:
            headers["X-Bunco-Csrf"] = token
        if origin:
            headers["Origin"] = origin
        req = urllib.request.Request(self.base + path, data=json.dumps(body or {}).encode(), headers=headers,
                                     method="POST")
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, json.loads(r.read()), dict(r.headers)
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}"), dict(e.headers)

    def login(self, pin: str = PIN) -> tuple[int, dict[str, Any], dict[str, str]]:
        code, data, headers = self.post("login", {"pin": pin})
        if code == 200:
            self.csrf = data["csrf"]
        return code, data, headers

    def act(self, action: str, /, **body: Any) -> tuple[int, dict[str, Any]]:
        code, data, _ = self.post(f"api/{action}", body)
        return code, data


class Stream:
    """The page's /events stream: wait for the state the test expects, event by event."""

    def __init__(self, base: str) -> None:
        self.resp = urllib.request.urlopen(base + "events", timeout=30)
        self.last: dict[str, Any] = {}

    def until(self, pred: Callable[[dict[str, Any]], bool], what: str, events: int = 5000) -> dict[str, Any]:
        if self.last and pred(self.last):
            return self.last
        quiet = 0
        for _ in range(events):
            line = self.resp.readline()
            if not line:
                break
            if line.startswith(b":"):  # the server's keep-alive: 15 s without a change
                quiet += 1
                if quiet == 4:
                    break
            if line.startswith(b"data: "):
                self.last = json.loads(line[6:])
                if pred(self.last):
                    return self.last
        raise AssertionError(f"the page never showed {what}; last: phase {self.last.get('phase')}")

    def close(self) -> None:
        self.resp.close()


class LiveParty:
    def __init__(self, broker: MosquittoProcess, root: Path, tables: int = 3, players: tuple[str, ...] = ()) -> None:
        self.rules = HouseRules(sets=1, points_to_win=11)
        self.pin = PIN
        self.broker = Broker(broker.host, broker.port)
        self.link = HeadLink(PARTY, self.broker)
        self.store = EventStore.in_dir(root / "head")
        self.unit = HeadUnit(self.store, players, self.rules, seed=11, net=self.link, countdown_s=600.0)
        self.app = HeadApp(self.unit, self.link, None, autostart=False)
        (root / "pin").write_text(PIN + "\n")
        self.server = start_web(self.app, 0, root / "pin", host="127.0.0.1")
        self.base = f"http://127.0.0.1:{self.server.port}/"
        self.stop = threading.Event()
        self.link.start()
        self.head = threading.Thread(target=self.app.run, args=(self.stop,), name="head", daemon=True)
        self.head.start()
        self.tables = Tables(self.broker, root, self.rules, tables)
        self.tables.start()
        self.stream = Stream(self.base)

    def client(self) -> Client:
        return Client(self.base)

    def play_until(self, pred: Callable[[dict[str, Any]], bool], what: str, rolls: int = 3000) -> dict[str, Any]:
        """Every table throws in turn (each waits for its last line to reach the head) until pred."""
        for _ in range(rolls):
            state = self.state()
            if pred(state):
                return state
            for n in self.tables.units:
                self.tables.roll_once(n)
        raise AssertionError(f"{what}: not after {rolls} throws a table")

    def state(self) -> dict[str, Any]:
        return self.client().state()

    def close(self) -> None:
        self.stream.close()
        self.tables.halt.set()
        self.tables.join(timeout=30)
        self.stop.set()
        self.head.join(timeout=30)
        self.server.stop()
        self.link.stop()
        self.store.close()


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[MosquittoProcess]:
    binary = find_mosquitto()
    if binary is None:
        pytest.skip("the mosquitto binary is missing (apt-get install mosquitto; `make test` installs it)")
    folder = tmp_path / "mosquitto"
    folder.mkdir()
    broker = MosquittoProcess(binary, folder, "allow_anonymous true\n", persistence=False, verbose=False)
    broker.start()
    yield broker
    broker.kill()


@pytest.fixture
def live(mosquitto: MosquittoProcess, tmp_path: Path) -> Iterator[LiveParty]:
    party = LiveParty(mosquitto, tmp_path)
    party.stream.until(lambda s: all(t["status"] == "online" for t in s["tables"]) or not s["tables"],
                       "the page")
    yield party
    party.close()
