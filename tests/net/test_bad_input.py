"""Bad input on every topic is logged and dropped: the head keeps running, its state unchanged.

The messages go through a real mosquitto into the real links, so what is tested is what a
stray or broken client on the party's Wi-Fi can do.
"""

from __future__ import annotations

import json
import time

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance.game.rules import HouseRules
from appliance.head_unit import HeadUnit
from appliance.net import messages, topics
from appliance.net.client import Broker
from appliance.net.head_link import HeadLink
from appliance.net.table_link import TableLink
from appliance.store import EventStore
from appliance.table_unit import TableUnit

PARTY = "bad"
PLAYERS = tuple(f"P{i}" for i in range(8))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)

# payloads that look almost right: the right keys with wrong types, versions and values
near_miss = st.fixed_dictionaries({
    "v": st.sampled_from([1, 2, 0, "1", None, True]),
    "table": st.sampled_from([1, 2, 0, -1, "2", 99, True]),
    "seq": st.sampled_from([0, 1, 2, 3, 50, -5, "3", None, 1.5]),
    "body": st.one_of(json_values, st.fixed_dictionaries({
        "type": st.sampled_from(["roll", "call", "undo", "bell", "night", "zzz"]),
        "table": st.sampled_from([1, 2, "1"]),
        "dice": st.lists(st.integers(-1, 8), max_size=5),
        "round": st.sampled_from([0, 1, -1, "0"]),
        "player": st.sampled_from(["P0", "nobody", 3])})),
})

payloads = st.one_of(
    st.binary(max_size=200),
    json_values.map(lambda v: json.dumps(v).encode()),
    near_miss.map(lambda v: json.dumps(v).encode()),
    st.just(b"{" * 100_000),
    st.just(json.dumps({"v": 1, "table": 1, "seq": 1, "body": {"type": "roll", "pad": "x" * 70_000}}).encode()),
)
targets = st.sampled_from(["events1", "events2", "status1", "tally1", "round", "ack1", "cmd1", "head_status"])


def topic_of(party: str, name: str) -> str:
    return {
        "events1": topics.table_events(party, 1), "events2": topics.table_events(party, 2),
        "status1": topics.table_status(party, 1), "tally1": topics.table_tally(party, 1),
        "round": topics.head_round(party), "ack1": topics.head_ack(party, 1), "cmd1": topics.head_cmd(party, 1),
        "head_status": topics.head_status(party),
    }[name]


@pytest.fixture
def rig(mosquitto_broker, tmp_path):
    broker = Broker(mosquitto_broker.host, mosquitto_broker.port)
    head_link = HeadLink(PARTY, broker)
    head = HeadUnit(EventStore(tmp_path / "head.sqlite"), PLAYERS, HouseRules(sets=1), seed=1, net=head_link)
    store = EventStore(tmp_path / "t1.sqlite")
    link = TableLink(PARTY, 1, broker, store)
    table = TableUnit(store, (), HouseRules(), table=1, link=link, party=True)
    head_link.start()
    link.start()
    evil = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stray", protocol=mqtt.MQTTv311)
    evil.connect(mosquitto_broker.host, mosquitto_broker.port)
    evil.loop_start()

    def pump(seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if head_link.reconnected():
                head.publish_all()
            for msg in head_link.pump():
                head.ingest(msg)
            for msg in link.pump():
                table.on_command(msg) if isinstance(msg, messages.CmdMsg) else table.on_head(msg)
            time.sleep(0.01)

    pump(0.5)
    head.start_night()
    pump(0.5)
    table.on_reading((1, 2, 3))
    pump(0.5)
    assert link.acked == link.last_seq > 0
    yield head, head_link, table, link, evil, pump
    evil.loop_stop()
    evil.disconnect()
    link.stop()
    head_link.stop()


def state(head: HeadUnit, table: TableUnit) -> tuple:
    h = head.night.current
    return (head.phase, dict(head.acks), len(head.store), h.table(1).points, h.table(1).roller,
            len(table.store), table.table_round.points, table.table_round.roller)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(st.tuples(targets, payloads), min_size=1, max_size=6))
def test_bad_messages_are_dropped_and_change_nothing(rig, batch):
    head, head_link, table, link, evil, pump = rig
    before = state(head, table)
    dropped = head_link.dropped + link.dropped
    for name, payload in batch:
        evil.publish(topic_of(PARTY, name), payload, qos=1)
    pump(0.3)
    assert state(head, table) == before
    malformed = [p for n, p in batch if n not in ("status1", "tally1", "head_status") and _malformed(n, p)]
    assert head_link.dropped + link.dropped - dropped >= len(malformed)


def _malformed(name: str, payload: bytes) -> bool:
    try:
        obj = json.loads(payload)
    except ValueError:
        return True
    return not isinstance(obj, dict) or obj.get("v") != 1 or isinstance(obj.get("v"), bool)


def test_duplicate_and_out_of_order_seqs_count_once(rig):
    head, head_link, table, link, evil, pump = rig
    events = list(table.store.events())
    points = head.night.current.table(1).points
    stored = len(head.store)
    for e in reversed(events):  # every event again, newest first, twice
        for _ in range(2):
            evil.publish(topics.table_events(PARTY, 1),
                         messages.encode(messages.EventMsg(1, e.seq, e.body)), qos=1)
    future = messages.EventMsg(1, link.last_seq + 5, {"type": "roll", "table": 1, "dice": [1, 1, 1], "round": 0})
    evil.publish(topics.table_events(PARTY, 1), messages.encode(future), qos=1)
    pump(0.5)
    assert len(head.store) == stored and head.night.current.table(1).points == points
    assert head.acks[1] == link.last_seq
