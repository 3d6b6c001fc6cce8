"""Zeroconf discovery of the head's broker.

The live tests run real mDNS over the loopback interface (IPv4 only). Where the machine cannot
loop multicast back (some containers), they are skipped with the reason; the adverts' contents,
party filtering and the timeout are tested without the network either way.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from zeroconf import IPVersion, ServiceInfo

from appliance.net.discovery import (
    SERVICE_TYPE,
    Advertiser,
    build_info,
    default_addresses,
    find_head,
    head_address,
    service_properties,
)
from appliance.net.embedded import EmbeddedBroker

LOOPBACK = ["127.0.0.1"]


def _multicast_loops_back() -> bool:
    """Can a datagram sent to an mDNS-style group on 127.0.0.1 come back to us?"""
    group = "224.0.0.251"
    try:
        rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    except OSError:
        return False
    with rx, tx:
        try:
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            rx.bind(("", 0))
            port = rx.getsockname()[1]
            mreq = struct.pack("4s4s", socket.inet_aton(group), socket.inet_aton("127.0.0.1"))
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            rx.settimeout(0.5)
            tx.sendto(b"bunco?", (group, port))
            return rx.recv(16) == b"bunco?"
        except OSError:
            return False


live = pytest.mark.skipif(not _multicast_loops_back(), reason="multicast does not loop back on 127.0.0.1 here")


def _info(props: dict[str, str], addresses: list[str] | None = None, port: int = 1883) -> ServiceInfo:
    return ServiceInfo(SERVICE_TYPE, f"Someone.{SERVICE_TYPE}", port=port, properties=props,
                       server="someone.local.", parsed_addresses=addresses or ["127.0.0.1"])


# -- what an advert holds, without the network ----------------------------------------


def test_txt_properties_survive_the_wire_format() -> None:
    assert service_properties("fri-night", 1883) == {"party": "fri-night", "port": "1883", "v": "1"}
    info = build_info("fri-night", 41883, ["192.168.1.20"])
    assert info.type == SERVICE_TYPE and info.name == f"Bunco head fri-night.{SERVICE_TYPE}"
    assert info.port == 41883
    # What a table gets is the raw TXT record: parse it back from the bytes on the wire.
    seen = ServiceInfo(SERVICE_TYPE, info.name, port=info.port, properties=info.text,
                       parsed_addresses=info.parsed_addresses())
    assert seen.decoded_properties == {"party": "fri-night", "port": "41883", "v": "1"}
    assert head_address(seen, "fri-night") == ("192.168.1.20", 41883)


def test_a_service_of_another_party_or_version_is_ignored() -> None:
    ours = {"party": "alpha", "port": "1883", "v": "1"}
    assert head_address(_info(ours), "alpha") == ("127.0.0.1", 1883)
    assert head_address(_info(ours), "beta") is None
    assert head_address(_info({**ours, "v": "2"}), "alpha") is None
    assert head_address(_info({"port": "1883", "v": "1"}), "alpha") is None


@pytest.mark.parametrize("port", ["0", "65536", "abc", ""])
def test_a_broken_port_is_not_guessed(port: str) -> None:
    assert head_address(_info({"party": "alpha", "port": port, "v": "1"}), "alpha") is None


def test_txt_port_is_the_broker_port_and_lan_addresses_come_first() -> None:
    info = _info({"party": "alpha", "port": "1884", "v": "1"}, ["127.0.0.1", "169.254.3.4", "10.0.0.7"], port=9)
    assert head_address(info, "alpha") == ("10.0.0.7", 1884)
    only_v6 = _info({"party": "alpha", "port": "1884", "v": "1"}, ["fd00::7"])
    assert head_address(only_v6, "alpha") is None
    assert head_address(only_v6, "alpha", IPVersion.All) == ("fd00::7", 1884)


def test_bad_input_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="party id"):
        build_info("Alpha Party", 1883, LOOPBACK)
    with pytest.raises(ValueError, match="port"):
        build_info("alpha", 0, LOOPBACK)
    with pytest.raises(ValueError, match="not-an-ip"):
        build_info("alpha", 1883, ["not-an-ip"])
    with pytest.raises(ValueError, match="party id"):
        find_head("", timeout=0.1)
    with pytest.raises(ValueError, match="timeout"):
        find_head("alpha", timeout=-1)


def test_default_addresses() -> None:
    assert default_addresses(LOOPBACK) == LOOPBACK
    found = default_addresses()
    assert found and all(a.count(".") == 3 for a in found)
    assert found == ["127.0.0.1"] or "127.0.0.1" not in found


# -- live mDNS on loopback ------------------------------------------------------------


@pytest.mark.parametrize("timeout", [0.0, 0.8])
def test_nobody_advertising_returns_none_on_time(timeout: float) -> None:
    t0 = time.monotonic()
    assert find_head("nobody-here", timeout=timeout, interfaces=LOOPBACK) is None
    assert time.monotonic() - t0 < timeout + 0.5


@pytest.fixture
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker() as running:
        yield running


@live
def test_a_table_finds_its_party_head_and_connects(broker: EmbeddedBroker) -> None:
    with Advertiser(interfaces=LOOPBACK) as other, Advertiser(interfaces=LOOPBACK) as ours:
        # Register both at once: each probes for ~1.7 s.
        threads = [threading.Thread(target=other.start, args=("beta", 1, LOOPBACK)),
                   threading.Thread(target=ours.start, args=("alpha", broker.port, LOOPBACK))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert other.info is not None and ours.info is not None

        # Two heads are on the air; a table of a third party finds neither, and gives up on time.
        t0 = time.monotonic()
        assert find_head("gamma", timeout=1.5, interfaces=LOOPBACK) is None
        assert time.monotonic() - t0 < 2.0

        t0 = time.monotonic()
        found = find_head("alpha", timeout=5.0, interfaces=LOOPBACK)
        assert found == ("127.0.0.1", broker.port)
        assert time.monotonic() - t0 < 5.0
        assert find_head("beta", timeout=5.0, interfaces=LOOPBACK) == ("127.0.0.1", 1)

        # What was found is a broker a table can use.
        connected = threading.Event()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="alpha-table2", protocol=mqtt.MQTTv311)
        client.on_connect = lambda *_a: connected.set()
        client.connect(*found)
        client.loop_start()
        try:
            assert connected.wait(5)
        finally:
            client.disconnect()
            client.loop_stop()

    # Closed: the head said goodbye, nobody answers for alpha any more.
    assert find_head("alpha", timeout=1.0, interfaces=LOOPBACK) is None


@live
def test_advertiser_refuses_a_second_start_and_close_is_idempotent() -> None:
    adv = Advertiser(interfaces=LOOPBACK)
    adv.start("delta", 1883, LOOPBACK)
    try:
        with pytest.raises(RuntimeError, match="already advertising"):
            adv.start("delta", 1883, LOOPBACK)
    finally:
        adv.close()
    adv.close()
    assert adv.info is None
