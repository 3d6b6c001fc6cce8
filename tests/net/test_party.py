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
        table = unit.table_round
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
