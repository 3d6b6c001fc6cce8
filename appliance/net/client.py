"""One paho-mqtt client for a unit: connects in the background, reconnects for ever,
leaves a last will, and hands incoming messages to the unit's own thread.

paho runs its network loop in a thread of its own; the units are single-threaded
folds over their logs. So nothing here touches a unit: messages wait in a queue until
the unit's loop calls `drain()`, exactly like button presses.
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
from dataclasses import dataclass
from typing import Callable

import paho.mqtt.client as mqtt

from appliance.net import messages

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Broker:
    host: str = "127.0.0.1"
    port: int = 1883
    username: str | None = None
    password: str | None = None

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


class UnitClient:
    """MQTT 3.1.1 (mosquitto and amqtt both speak it), QoS 1, a retained status with a will."""

    def __init__(self, broker: Broker, client_id: str, status_topic: str, unit: str,
                 subscriptions: list[str], persistent: bool = False) -> None:
        self.broker = broker
        self.status_topic = status_topic
        self.unit = unit
        self.subscriptions = subscriptions
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.connected = threading.Event()
        self.connects = 0  # how often a connection came up: a new one means "send again"
        self._seen_connects = 0
        self.on_connect: Callable[[], None] | None = None
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                   protocol=mqtt.MQTTv311, clean_session=not persistent)
        if broker.username:
            self._client.username_pw_set(broker.username, broker.password)
        self._client.will_set(status_topic, messages.encode(messages.StatusMsg(unit, "offline")), qos=1, retain=True)
        self._client.reconnect_delay_set(min_delay=1, max_delay=2)
        self._client.on_connect = self._connected
        self._client.on_connect_fail = self._connect_failed
        self._failing = False  # said once per outage: the broker cannot be reached (a bad name, nobody there)
        self._client.on_disconnect = self._disconnected
        self._client.on_message = self._message
        self._client.on_socket_open = _no_delay
        self._stopping = False

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=5)
        self._client.loop_start()

    def stop(self) -> None:
        self._stopping = True
        if self.connected.is_set():
            info = self._client.publish(self.status_topic, messages.encode(messages.StatusMsg(self.unit, "offline")),
                                        qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=1.0)
            except (RuntimeError, ValueError):
                pass
        self._client.disconnect()
        self._client.loop_stop()

    @property
    def state(self) -> str:
        """For the screens: "online" or "offline"."""
        return "online" if self.connected.is_set() else "offline"

    def new_connection(self) -> bool:
        """True once after each (re)connect: the unit's cue to send its state again."""
        if self.connects != self._seen_connects:
            self._seen_connects = self.connects
            return True
        return False

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> bool:
        """False when not connected now (the caller sends again after the next connect)."""
        if not self.connected.is_set():
            return False
        info = self._client.publish(topic, payload, qos=1, retain=retain)
        return info.rc == mqtt.MQTT_ERR_SUCCESS

    def drain(self) -> list[tuple[str, bytes]]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    # ---- paho's thread -------------------------------------------------------------
    def _connected(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            log.warning("%s: broker %s refused the connection: %s", self.unit, self.broker, reason)
            return
        for topic in self.subscriptions:
            client.subscribe(topic, qos=1)
        client.publish(self.status_topic, messages.encode(messages.StatusMsg(self.unit, "online")), qos=1, retain=True)
        self.connects += 1
        self.connected.set()
        self._failing = False
        log.info("%s: connected to %s", self.unit, self.broker)

    def _connect_failed(self, client, userdata) -> None:
        if not self._failing and not self._stopping:
            self._failing = True
            log.warning("%s: cannot reach the broker %s (is the name right, is it running?); trying again",
                        self.unit, self.broker)

    def _disconnected(self, client, userdata, flags, reason, properties) -> None:
        if self.connected.is_set() and not self._stopping:
            log.warning("%s: lost the broker %s (%s); playing on, will send again", self.unit, self.broker, reason)
        self.connected.clear()

    def _message(self, client, userdata, msg) -> None:
        self.inbox.put((msg.topic, bytes(msg.payload)))


def _no_delay(client, userdata, sock) -> None:
    """Nagle's algorithm would hold a round message back behind the ack before it (up to
    ~50 ms measured on loopback by `bunco bench net`): send small messages at once."""
    if hasattr(sock, "setsockopt"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class UnitLink:
    """A unit's side of the party network, over its one UnitClient: what the head's and a
    table's links share (their messages differ)."""

    client: UnitClient

    def start(self) -> None:
        self.client.start()

    def stop(self) -> None:
        self.client.stop()

    @property
    def state(self) -> str:
        return self.client.state
