"""The embedded broker with real paho-mqtt 2.2 clients (MQTT 3.1.1) on loopback.

The behaviour tests run against the embedded broker and against a real mosquitto (the
``mosquitto_broker`` fixture from conftest.py), so they check that the embedded broker is a
stand-in for what a party runs, not just that amqtt agrees with itself.
"""

from __future__ import annotations

import queue
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from appliance.net.embedded import BrokerStartError, EmbeddedBroker

WAIT_S = 5.0


@dataclass
class Endpoint:
    host: str
    port: int
    kind: str = "embedded"


@pytest.fixture
def embedded() -> Iterator[EmbeddedBroker]:
    broker = EmbeddedBroker()
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture(params=["embedded", "mosquitto"])
def broker(request: pytest.FixtureRequest) -> Endpoint:
    if request.param == "embedded":
        emb: EmbeddedBroker = request.getfixturevalue("embedded")
        return Endpoint(emb.host, emb.port, "embedded")
    mosq = request.getfixturevalue("mosquitto_broker")
    return Endpoint(mosq.host, mosq.port, "mosquitto")


class Client:
    """A paho client on its own network thread that records what it receives."""

    def __init__(self, endpoint: Endpoint, client_id: str, keepalive: int = 30,
                 will: tuple[str, bytes] | None = None) -> None:
        self.messages: queue.Queue[mqtt.MQTTMessage] = queue.Queue()
        self.connected = threading.Event()
        self.disconnected = threading.Event()
        self._subacks: queue.Queue[int] = queue.Queue()
        self.paho = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
        self.paho.on_message = lambda _c, _u, msg: self.messages.put(msg)
        self.paho.on_connect = lambda *_a: self.connected.set()
        self.paho.on_disconnect = lambda *_a: self.disconnected.set()
        self.paho.on_subscribe = lambda _c, _u, mid, *_a: self._subacks.put(mid)
        if will is not None:
            self.paho.will_set(will[0], will[1], qos=1, retain=True)
        self.paho.connect(endpoint.host, endpoint.port, keepalive=keepalive)
        self.paho.loop_start()
        assert self.connected.wait(WAIT_S), f"{client_id} did not connect"

    def subscribe(self, topic: str, qos: int = 1) -> None:
        _rc, mid = self.paho.subscribe(topic, qos)
        assert self._subacks.get(timeout=WAIT_S) == mid

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        info = self.paho.publish(topic, payload, qos=qos, retain=retain)
        info.wait_for_publish(WAIT_S)
        assert info.is_published()

    def next(self, timeout: float = WAIT_S) -> mqtt.MQTTMessage:
        return self.messages.get(timeout=timeout)

    def nothing_for(self, seconds: float) -> list[tuple[str, bytes]]:
        """What arrived in the next `seconds` (expected: nothing)."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                msg = self.messages.get(timeout=left)
            except queue.Empty:
                break
            got.append((msg.topic, msg.payload))
        return got

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()


@pytest.fixture
def clients() -> Iterator[Callable[..., Client]]:
    made: list[Client] = []

    def make(endpoint: Endpoint, client_id: str, **kw: Any) -> Client:
        made.append(Client(endpoint, client_id, **kw))
        return made[-1]

    yield make
    for c in made:
        c.close()


# A unit that can be killed: a paho client in its own process with a retained last will.
VICTIM = textwrap.dedent("""
    import sys
    import paho.mqtt.client as mqtt
    host, port, keepalive, topic = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=sys.argv[5], protocol=mqtt.MQTTv311)
    c.will_set(topic, b"offline", qos=1, retain=True)
    def on_connect(client, userdata, flags, rc, props):
        client.publish(topic, b"online", qos=1, retain=True)
    def on_publish(client, userdata, mid, rc, props):
        print("up", flush=True)
    c.on_connect = on_connect
    c.on_publish = on_publish
    c.connect(host, port, keepalive=keepalive)
    c.loop_forever()
""")


@pytest.fixture
def victims() -> Iterator[Callable[..., subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []

    def spawn(endpoint: Endpoint, topic: str, client_id: str, keepalive: int = 30) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, "-c", VICTIM, endpoint.host, str(endpoint.port), str(keepalive), topic, client_id],
            stdout=subprocess.PIPE, text=True,
        )
        procs.append(proc)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "up", "victim client did not come up"
        return proc

    yield spawn
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)
            proc.kill()
        proc.wait(timeout=5)
        if proc.stdout is not None:
            proc.stdout.close()


# -- the broker as a thing that starts and stops --------------------------------------


def test_start_returns_a_listening_port_and_stop_releases_it() -> None:
    broker = EmbeddedBroker()
    port = broker.start()
    assert broker.running and broker.port == port and port > 0
    socket.create_connection(("127.0.0.1", port), timeout=1).close()
    broker.stop()
    assert not broker.running
    assert not any(t.name == "bunco-embedded-broker" and t.is_alive() for t in threading.enumerate())
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    broker.stop()  # a second stop is harmless
    # The port is free again: a new broker (mosquitto in real life, here another) can take it.
    with EmbeddedBroker(port=port) as again:
        assert again.port == port


def test_context_manager_and_connected_clients_are_disconnected_on_stop(clients: Callable[..., Client]) -> None:
    with EmbeddedBroker() as broker:
        client = clients(Endpoint(broker.host, broker.port), "unit-1")
        client.paho.reconnect_delay_set(60, 60)  # no reconnecting while we look
    assert client.disconnected.wait(WAIT_S)


def test_a_taken_port_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        broker = EmbeddedBroker(port=port)
        with pytest.raises(BrokerStartError, match=f"127.0.0.1:{port}"):
            broker.start()
        assert not broker.running


def test_anonymous_only_on_loopback_unless_asked() -> None:
    with pytest.raises(ValueError, match="not loopback"):
        EmbeddedBroker("0.0.0.0")
    with pytest.raises(ValueError, match="not loopback"):
        EmbeddedBroker("::")
    EmbeddedBroker("0.0.0.0", allow_anonymous=True)  # built, not started
    EmbeddedBroker("localhost")


def test_ipv6_loopback(clients: Callable[..., Client]) -> None:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with EmbeddedBroker("::1") as broker:
        client = clients(Endpoint("::1", broker.port), "p-table6")
        client.subscribe("bunco/p/head/round")
        client.publish("bunco/p/head/round", b"r", retain=True)
        assert client.next().payload == b"r"
        client.close()


def test_start_twice_is_refused(embedded: EmbeddedBroker) -> None:
    with pytest.raises(RuntimeError, match="already started"):
        embedded.start()


# -- MQTT behaviour the link relies on, against both brokers --------------------------


def test_qos1_messages_arrive_in_order_at_qos1(broker: Endpoint, clients: Callable[..., Client]) -> None:
    head = clients(broker, "p-head")
    head.subscribe("bunco/p/table/+/events", qos=1)
    table = clients(broker, "p-table2")
    for seq in range(50):
        table.paho.publish("bunco/p/table/2/events", f"seq {seq}".encode(), qos=1)
    got = [head.next() for _ in range(50)]
    assert [m.payload for m in got] == [f"seq {seq}".encode() for seq in range(50)]
    assert {m.qos for m in got} == {1}
    assert {m.topic for m in got} == {"bunco/p/table/2/events"}


def test_late_subscriber_gets_the_last_retained_message(broker: Endpoint, clients: Callable[..., Client]) -> None:
    head = clients(broker, "p-head")
    head.publish("bunco/p/head/round", b"round 1", retain=True)
    head.publish("bunco/p/head/round", b"round 2", retain=True)
    head.publish("bunco/p/head/ack/3", b"17", retain=True)
    head.publish("bunco/p/head/ack/4", b"x", retain=True)
    head.publish("bunco/p/head/ack/4", b"", retain=True)  # an empty retained message clears the topic

    table = clients(broker, "p-table3")
    table.subscribe("bunco/p/head/round")
    msg = table.next()
    assert (msg.topic, msg.payload, msg.retain) == ("bunco/p/head/round", b"round 2", True)
    table.subscribe("bunco/p/head/ack/+")
    msg = table.next()
    assert (msg.topic, msg.payload, msg.retain) == ("bunco/p/head/ack/3", b"17", True)
    assert table.nothing_for(0.3) == []

    # A live message to a subscriber is not flagged retained, even if it was published retained.
    head.publish("bunco/p/head/round", b"round 3", retain=True)
    msg = table.next()
    assert (msg.payload, msg.retain) == (b"round 3", False)


def test_a_new_client_gets_no_retained_message_it_did_not_subscribe_to(
    broker: Endpoint, clients: Callable[..., Client]
) -> None:
    """amqtt 0.12.1 sends a connecting client the retained messages of every filter any
    client holds; the embedded broker must not (this fails against plain amqtt)."""
    head = clients(broker, "p-head")
    head.subscribe("bunco/p/table/+/#")
    table = clients(broker, "p-table2")
    table.publish("bunco/p/table/2/tally", b"tally", retain=True)
    assert head.next().payload == b"tally"
    newcomer = clients(broker, "p-table5")
    assert newcomer.nothing_for(0.5) == []
    newcomer.subscribe("bunco/p/table/2/tally")
    assert [(m.payload, m.retain) for m in [newcomer.next()]] == [(b"tally", True)]
    assert newcomer.nothing_for(0.3) == []  # once, not twice


def test_killed_client_leaves_its_retained_will(
    broker: Endpoint, clients: Callable[..., Client], victims: Callable[..., subprocess.Popen[str]]
) -> None:
    head = clients(broker, "p-head")
    head.subscribe("bunco/p/table/+/status")
    proc = victims(broker, "bunco/p/table/2/status", "p-table2")
    assert head.next().payload == b"online"
    proc.send_signal(signal.SIGKILL)  # no DISCONNECT: the kernel closes the socket
    msg = head.next()
    assert (msg.topic, msg.payload) == ("bunco/p/table/2/status", b"offline")
    # ... and it is retained for whoever looks later (the hostess screen starting up).
    late = clients(broker, "p-hostess")
    late.subscribe("bunco/p/table/2/status")
    assert late.next().payload == b"offline"


def test_clean_disconnect_publishes_no_will(broker: Endpoint, clients: Callable[..., Client]) -> None:
    head = clients(broker, "p-head")
    head.subscribe("bunco/p/table/+/status")
    table = clients(broker, "p-table2", will=("bunco/p/table/2/status", b"offline"))
    table.close()
    assert table.disconnected.wait(WAIT_S)
    assert head.nothing_for(0.5) == []


def test_frozen_client_is_dropped_after_one_and_a_half_keepalives(
    broker: Endpoint, clients: Callable[..., Client], victims: Callable[..., subprocess.Popen[str]]
) -> None:
    """A unit that hangs (here SIGSTOP) keeps its socket open: only the keepalive can tell.
    amqtt 0.12.1 never enforced it, so such a unit's will never went out."""
    head = clients(broker, "p-head")
    head.subscribe("bunco/p/table/+/status")
    frozen = victims(broker, "bunco/p/table/2/status", "p-table2", keepalive=1)
    idle = victims(broker, "bunco/p/table/3/status", "p-table3", keepalive=1)
    assert sorted(head.next().payload for _ in range(2)) == [b"online", b"online"]
    t0 = time.monotonic()
    frozen.send_signal(signal.SIGSTOP)
    msg = head.next(timeout=13.0)
    waited = time.monotonic() - t0
    assert (msg.topic, msg.payload) == ("bunco/p/table/2/status", b"offline")
    # 1.5 x 1 s, rounded up to whole seconds; mosquitto checks keepalives on a coarser timer
    # (5-7 s seen here), so only the embedded broker is held to the tight bound.
    assert 1.0 <= waited < (4.0 if broker.kind == "embedded" else 12.0), waited
    # The idle but healthy unit pings within its keepalive and is never taken for dead.
    assert head.nothing_for(1.5) == []
    assert idle.poll() is None


def test_credentials_meant_for_mosquitto_are_accepted(embedded: EmbeddedBroker) -> None:
    """The link code sends the unit's user name and password when the config has them;
    the embedded broker (no passwords) lets such a client in rather than refusing it."""
    connected: queue.Queue[bool] = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="p-table4", protocol=mqtt.MQTTv311)
    client.username_pw_set("p-table4", "secret")
    client.on_connect = lambda _c, _u, _f, reason, _p: connected.put(not reason.is_failure)
    client.connect(embedded.host, embedded.port)
    client.loop_start()
    try:
        assert connected.get(timeout=WAIT_S) is True
    finally:
        client.disconnect()
        client.loop_stop()
