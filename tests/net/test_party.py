"""A party over a real mosquitto: the head unit and three table units, in this process.

Dice come from a seeded script (the camera has its own tests); everything else is real:
the broker, the paho clients, the SQLite logs, the head's master fold.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from appliance.game.rules import HouseRules
from appliance.head_unit import HeadUnit
from appliance.net.client import Broker
from appliance.net.head_link import HeadLink
from appliance.net.table_link import TableLink
from appliance.nightlog import replay, result_json
from appliance.store import EventStore
from appliance.table_unit import TableUnit

PLAYERS = ("Stacy", "Carol", "Wanda", "Hannah", "Betty", "Dolores", "Fran", "Gloria", "Irene", "June", "Kay", "Lois")
PARTY = "test"


class Party:
    def __init__(self, broker, root: Path, rules: HouseRules, seed: int = 5) -> None:
        self.broker = Broker(broker.host, broker.port)
        self.root = root
        self.rules = rules
        self.rng = random.Random(seed)
        self.head_link = HeadLink(PARTY, self.broker)
        self.head = HeadUnit(EventStore(root / "head.sqlite"), PLAYERS, rules, seed=seed, net=self.head_link,
                             countdown_s=0.2)
        self.head_link.start()
        self.tables: dict[int, tuple[TableUnit, TableLink]] = {}
        for n in (1, 2, 3):
            self.open_table(n)

    def open_table(self, n: int) -> TableUnit:
        store = EventStore(self.root / f"table{n}.sqlite")
        link = TableLink(PARTY, n, self.broker, store)
        unit = TableUnit(store, (), self.rules, table=n, link=link, party=True)
        link.start()
        self.tables[n] = (unit, link)
        return unit

    def close_table(self, n: int) -> None:
        unit, link = self.tables.pop(n)
        link.stop()
        unit.store.close()

    def pump(self) -> None:
        if self.head_link.reconnected():
            self.head.publish_all()
        for msg in self.head_link.pump():
            self.head.ingest(msg)
        self.head.tick()
        for unit, link in self.tables.values():
            for msg in link.pump():
                unit.on_command(msg) if hasattr(msg, "cmds") else unit.on_head(msg)
            unit.set_network(link.state)

    def settle(self, until, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            if until():
                return
            time.sleep(0.01)
        raise AssertionError(f"timed out: head phase {self.head.phase}, acks {self.head.acks}")

    def roll(self, n: int) -> None:
        unit, _ = self.tables[n]
        table = unit.table_round if unit.ready else None
        if table is None or table.done:
            return
        dice = tuple(self.rng.randint(1, 6) for _ in range(table.expected_dice))
        notes = unit.on_reading(dice)
        if "press_bunco" in notes or (table.callable_bunco is not None):
            unit.press()

    def table_done(self, n: int) -> bool:
        unit, _ = self.tables[n]
        return unit.table_round is not None and unit.table_round.done

    def in_sync(self) -> bool:
        """Every connected table's log is at the head (a cut-off table plays on alone)."""
        return all(link.acked == link.last_seq for _, link in self.tables.values() if link.state == "online")

    def close(self) -> None:
        for n in list(self.tables):
            self.close_table(n)
        self.head_link.stop()
        self.head.store.close()


@pytest.fixture
def party(mosquitto_broker, tmp_path):
    p = Party(mosquitto_broker, tmp_path, HouseRules(sets=1, points_to_win=11))
    p.settle(lambda: all(p.head_link.status.get(n) == "online" for n in (1, 2, 3)))
    yield p
    p.close()


def play_round(party: Party, max_rolls: int = 400, between=None) -> None:
    index = party.head.night.rounds_started
    party.settle(lambda: all(u.ready and u.night.rounds_started == index for u, _ in party.tables.values()))
    for i in range(max_rolls):
        for n in list(party.tables):
            party.roll(n)
        party.settle(party.in_sync)
        if between:
            between(i)
        if party.head.night.rounds_started > index or party.head.phase in ("between", "over"):
            return
    raise AssertionError(f"round {index} did not end in {max_rolls} rolls a table")


def master_equals_replay(party: Party) -> dict:
    sheet = result_json(party.head.night.finish())
    again = result_json(replay(party.head.export_lines(), source="head export"))
    assert again == sheet
    return sheet


def test_three_tables_play_a_round_and_the_master_sheet_is_the_replay(party):
    party.head.start_night()
    play_round(party)
    party.settle(party.in_sync)
    sheet = master_equals_replay(party)
    assert len(sheet["rounds"]) == 1 and len(sheet["rounds"][0]["tables"]) == 3
    assert sum(c["wins"] for c in sheet["players"].values()) == 6
    # the seats of the next round reach every table
    party.settle(lambda: all(u.night.rounds_started == 2 for u, _ in party.tables.values()))
    plans = {tuple(map(tuple, party.head.night.current.setup.tables[n - 1].seats)) for n in (1, 2, 3)}
    for n, (unit, _) in party.tables.items():
        assert unit.table_round.setup.seats == party.head.night.current.table(n).setup.seats
    assert len(plans) == 3


def assert_nothing_lost_nothing_twice(party: Party) -> None:
    """Every line of every table's log is in the master log exactly once, as the table wrote it."""
    master: dict[int, list[tuple[int, dict]]] = {}
    for e in party.head.store.events():
        if "from" in e.body:
            body = e.body.get("body") if e.body["type"] in ("received", "refused") else {
                k: v for k, v in e.body.items() if k not in ("from", "seq")}
            master.setdefault(e.body["from"], []).append((e.body["seq"], body))
    for n, (unit, _) in party.tables.items():
        mine = [(e.seq, e.body) for e in unit.store.events()]
        assert master.get(n, []) == mine, f"table {n}: master log differs from the table's own"
    assert party.head.refused == 0


def test_a_table_killed_mid_turn_restarts_where_it_was(party):
    party.head.start_night()
    party.settle(lambda: all(u.ready and u.table_round is not None for u, _ in party.tables.values()))
    for _ in range(6):
        for n in (1, 2, 3):
            party.roll(n)
        party.settle(party.in_sync)
    unit, link = party.tables[2]
    before = (unit.table_round.points, unit.table_round.roller, unit.table_round.turn_points, link.last_seq)
    # a pulled plug: the paho thread stops without a DISCONNECT, the store is just dropped
    link.client._client.loop_stop()
    link.client._client.socket().close()
    party.tables.pop(2)
    party.settle(lambda: party.head_link.status.get(2) == "offline")   # the last will
    unit = party.open_table(2)
    t = unit.table_round
    assert (t.points, t.roller, t.turn_points, party.tables[2][1].last_seq) == before
    play_round(party)
    party.settle(party.in_sync)
    assert_nothing_lost_nothing_twice(party)
    master_equals_replay(party)


def test_the_broker_stops_for_five_seconds(party, mosquitto_broker):
    party.head.start_night()
    outage_done = []

    def outage(i: int) -> None:
        if i == 3 and not outage_done:
            mosquitto_broker.stop()
            stop_at = time.monotonic() + 5
            while time.monotonic() < stop_at:  # the tables play on with no network
                for n in (1, 2, 3):
                    party.roll(n)
                party.pump()
                time.sleep(0.2)
            mosquitto_broker.start()
            outage_done.append(True)
            party.settle(lambda: all(link.state == "online" for _, link in party.tables.values()), timeout=15)

    play_round(party, between=outage)
    assert outage_done
    party.settle(party.in_sync, timeout=15)
    assert_nothing_lost_nothing_twice(party)
    master_equals_replay(party)


def test_a_table_cut_off_for_a_whole_round_rejoins(party):
    party.head.start_night()
    play_round(party)
    party.settle(lambda: all(u.night.rounds_started == 2 for u, _ in party.tables.values()), timeout=10)
    unit3, link3 = party.tables[3]
    link3.stop()                      # Wi-Fi gone at table 3 for the whole of round 2
    index = party.head.night.rounds_started
    for _ in range(400):
        for n in (1, 2, 3):
            party.roll(n)
        party.settle(party.in_sync)
        if party.head.phase == "ending" and party.table_done(1) and party.table_done(2):
            break
    assert party.head.phase == "ending" and not unit3.table_round.bell
    offline_lines = link3.pending
    assert offline_lines > 0
    link = TableLink(PARTY, 3, party.broker, unit3.store)   # back on the Wi-Fi
    unit3.link = link
    party.tables[3] = (unit3, link)
    link.start()
    party.settle(lambda: unit3.table_round.bell, timeout=10)   # it hears the bell it missed
    for _ in range(100):
        if party.head.night.rounds_started > index or party.head.phase == "between":
            break
        party.roll(3)
        party.settle(party.in_sync)
    assert party.head.phase in ("between", "playing") and len(party.head.night.played) == 2
    assert_nothing_lost_nothing_twice(party)
    master_equals_replay(party)


def test_the_hostess_undoes_a_roll_at_a_table(party):
    party.head.start_night()
    unit, _ = party.tables[2]
    party.settle(lambda: unit.ready and unit.table_round is not None)
    party.roll(2)
    party.roll(2)
    party.settle(party.in_sync)
    rolls = len(unit.table_round.rolls)
    assert rolls >= 1
    party.head.undo(2)
    party.settle(lambda: len(unit.table_round.rolls) == rolls - 1)
    party.settle(party.in_sync)
    assert len(party.head.night.current.table(2).rolls) == rolls - 1
    kinds = [e.body["type"] for e in unit.store.events()]
    assert kinds.count("undo") == 1 and "command" in [e.body["type"] for e in party.head.store.events()]
    # a restarted table does not apply the same correction twice
    party.close_table(2)
    unit = party.open_table(2)
    party.settle(lambda: party.tables[2][1].acked == party.tables[2][1].last_seq)
    time.sleep(0.3)
    party.pump()
    assert [e.body["type"] for e in unit.store.events()].count("undo") == 1
    assert_nothing_lost_nothing_twice(party)
