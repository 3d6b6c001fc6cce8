"""An MQTT broker inside the head unit's process, for one machine (the demo, a laptop).

A party runs mosquitto on the head unit's Pi (``bunco setup-broker``). When everything runs on
one machine there is no mosquitto to lean on, so amqtt serves MQTT 3.1.1 on loopback instead.
The rest of the appliance is synchronous (paho-mqtt clients with their own network threads),
so the broker keeps its own asyncio loop in a daemon thread and offers a plain
``start() -> port`` / ``stop()``.

amqtt 0.12.1 has two bugs that matter to us; ``_FixedBroker`` works around each in the
narrowest place (see its docstrings):

- a client that connects gets the retained messages of every topic filter *any* client has
  subscribed to, at QoS 0, before it subscribes to anything;
- the keepalive is never enforced: a client that freezes or drops off without closing its
  socket stays "connected" for ever and its last will is never published.

Behaviour that differs from mosquitto and that callers must live with (not worked around):

- every client is anonymous, and amqtt keeps nothing for an anonymous client that is away:
  no QoS 1 messages are queued for a ``clean_session=False`` client while it is disconnected,
  and its session (subscriptions included) is dropped about a second after it goes. Subscribe
  again in ``on_connect`` and rely on retained messages and resending after the head's ack.
- a second client connecting with a client id that is already connected (clean session) does
  not push the first one off: both stay connected. Give every unit its own client id.
- a message is delivered at the subscriber's QoS, not min(publish QoS, subscription QoS).
- a client that sends an empty client id with ``clean_session=True`` gets a generated one.
- a ``clean_session=False`` client that is back within that second gets the retained messages
  of its subscriptions again (QoS 0), and once more when it subscribes again: retained
  messages must be state, safe to apply twice (they are, in the party's topics).
- stopping the broker while clients' last packets are in flight may log
  "Received PUBACK for unknown pending message" (amqtt, WARNING): harmless.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import ipaddress
import logging
import math
import statistics
import sys
import threading
import time
from types import TracebackType
from typing import Any

from amqtt.broker import Broker
from amqtt.contexts import BrokerConfig, ListenerConfig, ListenerType
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.session import Session

log = logging.getLogger(__name__)

_LISTENER = "default"
# MQTT 3.1.1, 3.1.2.10: the server disconnects a client it has heard nothing from for
# one and a half times its keepalive.
_KEEPALIVE_GRACE = 1.5


class BrokerStartError(RuntimeError):
    """The embedded broker could not start (bad address, port taken, ...)."""


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _drop_connection(handler: BrokerProtocolHandler) -> None:
    """Close a connection whose keepalive ran out, so amqtt treats it as lost.

    amqtt's broker handler ignores read timeouts. Aborting the transport makes the reader
    loop see end-of-stream; from there amqtt's own path runs: no DISCONNECT was received, so
    the will is published and the session is closed.
    """
    writer = handler.writer
    transport = getattr(getattr(writer, "_writer", None), "transport", None)
    client = handler.session.client_id if handler.session else None
    log.info("client %s: keepalive expired, dropping the connection", client)
    if transport is not None:
        transport.abort()
    elif handler.reader is not None:
        handler.reader.feed_eof()


class _FixedBroker(Broker):
    """amqtt's Broker with the two fixes the link needs, and nothing else changed."""

    async def _handle_client_session(  # type: ignore[override]
        self,
        reader: Any,
        writer: Any,
        client_session: Session,
        handler: BrokerProtocolHandler,
        server: Any,
        listener_name: str,
    ) -> None:
        """Enforce the keepalive (amqtt 0.12.1 reads with the keepalive as a timeout, then
        ``BrokerProtocolHandler.handle_read_timeout`` does nothing). The session's keepalive
        is set fresh from every CONNECT, so stretching it here does not compound."""
        if client_session.keep_alive > 0:
            client_session.keep_alive = math.ceil(client_session.keep_alive * _KEEPALIVE_GRACE)
            handler.handle_read_timeout = functools.partial(_drop_connection, handler)  # type: ignore[method-assign]
        await super()._handle_client_session(reader, writer, client_session, handler, server, listener_name)

    async def _publish_retained_messages_for_subscription(
        self, subscription: tuple[str, int], session: Session
    ) -> None:
        """Send retained messages only for a filter this session has subscribed to.

        On every connection amqtt 0.12.1 calls this for *every* filter in the broker (all
        clients' subscriptions), so a fresh client was sent retained messages it never asked
        for. On SUBSCRIBE the session already holds the filter, so that path is unchanged.
        """
        topic_filter = subscription[0]
        holders = self._subscriptions.get(topic_filter, ())
        if not any(held.client_id == session.client_id for held, _qos in holders):
            return
        await super()._publish_retained_messages_for_subscription(subscription, session)


class EmbeddedBroker:
    """amqtt serving MQTT 3.1.1 in a daemon thread of this process.

    ``host`` must be a loopback address unless ``allow_anonymous=True`` is given: the embedded
    broker has no passwords or ACL, which is fine on one machine and not on a party's Wi-Fi
    (that is mosquitto's job). ``port=0`` lets the system pick a free port; ``start()``
    returns the one it got. ``log_level`` sets amqtt's loggers (quiet by default: amqtt logs
    every connection at INFO).
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        allow_anonymous: bool | None = None,
        log_level: int = logging.WARNING,
        start_timeout: float = 10.0,
    ) -> None:
        if not 0 <= port <= 65535:
            raise ValueError(f"embedded broker port {port}: use 0 (any free port) or 1-65535")
        if not _is_loopback(host) and allow_anonymous is not True:
            raise ValueError(
                f"embedded broker host {host!r} is not loopback: it lets anyone in without a "
                "password; pass allow_anonymous=True to mean it, or use mosquitto (bunco setup-broker)"
            )
        self.host = host
        self._requested_port = port
        self._log_level = log_level
        self._start_timeout = start_timeout
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_event: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._port: int | None = None

    @property
    def port(self) -> int:
        """The port the running broker listens on."""
        if self._port is None:
            raise RuntimeError("embedded broker is not running")
        return self._port

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self._port is not None

    def start(self) -> int:
        """Start serving; returns the port once the listener accepts connections."""
        if self._thread is not None:
            raise RuntimeError("embedded broker already started")
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(self._log_level)
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="bunco-embedded-broker", daemon=True)
        self._thread.start()
        if not self._ready.wait(self._start_timeout):
            self.stop()
            raise BrokerStartError(f"embedded broker on {self.host}: not listening after {self._start_timeout:g} s")
        if self._error is not None:
            error = self._error
            self._thread.join(self._start_timeout)
            self._thread = None
            cause = error.__cause__ or error
            raise BrokerStartError(
                f"embedded broker on {self.host}:{self._requested_port} did not start: {cause}"
            ) from error
        assert self._port is not None
        return self._port

    def stop(self, timeout: float = 10.0) -> None:
        """Disconnect every client, close the listener and join the thread. Safe to repeat."""
        thread, loop, stop_event = self._thread, self._loop, self._stop_event
        if thread is None:
            return
        if loop is not None and stop_event is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop_event.set)
            except RuntimeError:  # the loop closed between the check and the call
                pass
        thread.join(timeout)
        if thread.is_alive():
            log.warning("embedded broker thread still running %g s after stop", timeout)
        self._thread = None
        self._port = None

    def __enter__(self) -> EmbeddedBroker:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- the broker's own thread -------------------------------------------------------

    def _config(self) -> BrokerConfig:
        return BrokerConfig(
            listeners={
                # No brackets round an IPv6 address: amqtt 0.12.1 splits at the last ':' and
                # would hand "[::1]" with its brackets to the socket layer.
                _LISTENER: ListenerConfig(type=ListenerType.TCP, bind=f"{self.host}:{self._requested_port}")
            },
            # Only anonymous auth: no $SYS plugin (it wants psutil and publishes every 20 s),
            # no event/packet logger plugins.
            plugins={"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
            timeout_disconnect_delay=0,
        )

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # noqa: BLE001 - reported to start() or logged
            if not self._ready.is_set():
                self._error = exc
                self._ready.set()
            else:
                log.exception("embedded broker stopped with an error")

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop_event = asyncio.Event()
        broker = _FixedBroker(self._config())
        try:
            await broker.start()
            server = broker._servers[_LISTENER].instance  # amqtt keeps no public handle on it
            self._port = int(server.sockets[0].getsockname()[1])
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            await self._stop_event.wait()
        finally:
            await broker.shutdown()


# -- measuring ------------------------------------------------------------------------


def round_trip_ms(host: str, port: int, count: int = 1000, qos: int = 1, timeout: float = 5.0) -> list[float]:
    """Milliseconds from publish() to on_message, one message at a time, between two paho
    clients (a table publishing, the head receiving). Works against any broker."""
    import paho.mqtt.client as mqtt

    topic = f"bunco/bench/{time.monotonic_ns()}"
    arrived = threading.Event()
    subscribed = threading.Event()

    def on_message(_c: Any, _u: Any, _m: Any) -> None:
        arrived.set()

    def new_client(name: str) -> mqtt.Client:
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{name}-{time.monotonic_ns()}", protocol=mqtt.MQTTv311
        )
        client.connect(host, port, keepalive=30)
        client.loop_start()
        return client

    receiver = new_client("rx")
    sender = new_client("tx")
    try:
        receiver.on_message = on_message
        receiver.on_subscribe = lambda *_a: subscribed.set()
        receiver.subscribe(topic, qos)
        if not subscribed.wait(timeout):
            raise TimeoutError(f"no SUBACK from {host}:{port} in {timeout:g} s")
        times: list[float] = []
        payload = b"x" * 64
        for i in range(count):
            arrived.clear()
            t0 = time.perf_counter()
            sender.publish(topic, payload, qos=qos)
            if not arrived.wait(timeout):
                raise TimeoutError(f"message {i} not received in {timeout:g} s")
            times.append((time.perf_counter() - t0) * 1000.0)
        return times
    finally:
        for client in (sender, receiver):
            client.disconnect()
            client.loop_stop()


def main(argv: list[str] | None = None) -> int:
    """``python -m appliance.net.embedded``: QoS 1 round trip through the embedded broker
    (or through any broker, with --port)."""
    parser = argparse.ArgumentParser(prog="python -m appliance.net.embedded", description=main.__doc__)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3, help="repeat and report each run's median")
    parser.add_argument("--qos", type=int, choices=(0, 1, 2), default=1)
    parser.add_argument("--port", type=int, default=None, help="measure a broker already running on this port")
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)

    def one_run(port: int) -> list[float]:
        return round_trip_ms(args.host, port, args.count, args.qos)

    medians = []
    for run in range(args.runs):
        if args.port is None:
            with EmbeddedBroker(args.host) as broker:
                times = one_run(broker.port)
        else:
            times = one_run(args.port)
        q = statistics.quantiles(times, n=100)
        medians.append(statistics.median(times))
        print(
            f"run {run + 1}: {len(times)} x QoS {args.qos}: p50 {medians[-1]:.3f} ms, "
            f"p90 {q[89]:.3f} ms, p99 {q[98]:.3f} ms, max {max(times):.3f} ms"
        )
    print(f"median of run medians: {statistics.median(medians):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
