"""Finding the head unit's broker on the party's network with zeroconf (mDNS/DNS-SD).

The head advertises ``_bunco._tcp.local.`` with TXT ``party=<id>``, ``port=<broker port>``
and ``v=1``; a table browses for that type and takes the first service whose party is its
own, so nobody types an address at a party and two parties on one network stay apart.

Browsing asks QM questions (answers multicast), not zeroconf's default QU first question:
when the head and a table run on the same machine (the demo, a laptop) a unicast answer goes
to port 5353 on this host, which several zeroconf sockets share, and the kernel may hand it to
the wrong one; the browser then waits for its next query, a second later.
"""

from __future__ import annotations

import ipaddress
import logging
import queue
import time
from types import TracebackType

import ifaddr
from zeroconf import (
    DNSQuestionType,
    InterfaceChoice,
    InterfacesType,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)

from appliance.net.topics import check_party

log = logging.getLogger(__name__)

SERVICE_TYPE = "_bunco._tcp.local."
TXT_VERSION = "1"


class DiscoveryError(OSError):
    """Zeroconf could not open its multicast sockets on the chosen interfaces."""


def service_properties(party: str, port: int) -> dict[str, str]:
    """The TXT record of a head's advert."""
    check_party(party)
    _check_port(port)
    return {"party": party, "port": str(port), "v": TXT_VERSION}


def service_name(party: str) -> str:
    return f"Bunco head {check_party(party)}.{SERVICE_TYPE}"


def build_info(party: str, port: int, addresses: list[str]) -> ServiceInfo:
    """The ServiceInfo a head registers: SRV and TXT both carry the broker port."""
    if not addresses:
        raise ValueError("a head advert needs at least one address")
    for address in addresses:
        ipaddress.ip_address(address)  # ValueError names the bad one
    return ServiceInfo(
        SERVICE_TYPE,
        service_name(party),
        port=port,
        properties=service_properties(party, port),
        server=f"bunco-head-{party}.local.",
        parsed_addresses=list(addresses),
    )


def head_address(info: ServiceInfo, party: str, ip_version: IPVersion = IPVersion.V4Only) -> tuple[str, int] | None:
    """(host, port) of the broker a service advertises, or None if it is not our party's head.

    A service of another version or another party, or one without a usable port or address,
    is not ours: ignored rather than guessed at.
    """
    props = info.decoded_properties
    if props.get("v") != TXT_VERSION or props.get("party") != party:
        return None
    try:
        port = _check_port(int(props.get("port") or ""))
    except ValueError:
        return None
    addresses = info.parsed_addresses(ip_version)
    if not addresses:
        return None
    # Prefer an address another machine can reach; loopback only when that is all there is.
    best = sorted(addresses, key=lambda a: (ipaddress.ip_address(a).is_loopback, ipaddress.ip_address(a).is_link_local))
    return best[0], port


def default_addresses(interfaces: InterfacesType = InterfaceChoice.All) -> list[str]:
    """The IPv4 addresses to advertise: the explicit interface addresses if given, else
    this machine's non-loopback IPv4 addresses, else loopback (a machine alone)."""
    if not isinstance(interfaces, InterfaceChoice):
        explicit = [i for i in interfaces if isinstance(i, str) and _is_ipv4(i)]
        if explicit:
            return explicit
    ipv4 = {str(ip.ip) for adapter in ifaddr.get_adapters() for ip in adapter.ips if ip.is_IPv4}
    found = sorted(a for a in ipv4 if not ipaddress.ip_address(a).is_loopback)
    return found or ["127.0.0.1"]


def _is_ipv4(text: str) -> bool:
    try:
        return isinstance(ipaddress.ip_address(text), ipaddress.IPv4Address)
    except ValueError:
        return False


def _check_port(port: int) -> int:
    if not 1 <= port <= 65535:
        raise ValueError(f"broker port {port}: use 1-65535")
    return port


def _open(interfaces: InterfacesType, ip_version: IPVersion) -> Zeroconf:
    try:
        return Zeroconf(interfaces=interfaces, ip_version=ip_version)
    except OSError as exc:
        raise DiscoveryError(exc.errno, f"zeroconf could not open multicast sockets on {interfaces!r}: {exc}") from exc


class Advertiser:
    """The head's advert of its broker; withdrawn (goodbye packets) on close().

    ``start`` blocks for about 1.7 s while zeroconf probes that the name is free and announces
    it. If another head already uses the name, zeroconf picks "Bunco head P (2)".

    ``addresses`` must be where the broker listens. The default (this machine's LAN addresses)
    suits mosquitto on the head's Pi; the embedded broker listens on loopback only, so advertise
    it with ``Advertiser(interfaces=["127.0.0.1"]).start(party, port, ["127.0.0.1"])`` (tables
    on the same machine still find it with the default interfaces).
    """

    def __init__(self, interfaces: InterfacesType = InterfaceChoice.All,
                 ip_version: IPVersion = IPVersion.V4Only) -> None:
        self._interfaces = interfaces
        self._ip_version = ip_version
        self._zc: Zeroconf | None = None
        self.info: ServiceInfo | None = None

    def start(self, party: str, port: int, addresses: list[str] | None = None) -> ServiceInfo:
        if self._zc is not None:
            raise RuntimeError("already advertising; close() first")
        info = build_info(party, port, addresses or default_addresses(self._interfaces))
        zc = _open(self._interfaces, self._ip_version)
        try:
            zc.register_service(info, allow_name_change=True)
        except BaseException:
            zc.close()
            raise
        self._zc, self.info = zc, info
        log.info("advertising %s at %s port %d", info.name, info.parsed_addresses(), port)
        return info

    def close(self) -> None:
        zc, info = self._zc, self.info
        self._zc = self.info = None
        if zc is None:
            return
        try:
            if info is not None:
                zc.unregister_service(info)
        except Exception:  # noqa: BLE001 - a failed goodbye must not keep the sockets open
            log.warning("zeroconf: could not withdraw the advert cleanly", exc_info=True)
        finally:
            zc.close()

    def __enter__(self) -> Advertiser:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def find_head(
    party: str,
    timeout: float = 5.0,
    interfaces: InterfacesType = InterfaceChoice.All,
    ip_version: IPVersion = IPVersion.V4Only,
) -> tuple[str, int] | None:
    """(host, port) of our party's head broker, or None if none answered within ``timeout`` s.

    Returns as soon as a matching advert is complete: 0.1-0.3 s against a settled advert,
    about 1.1 s within a second of the head (re)announcing or of another query, when mDNS
    holds back repeated multicast answers. Never waits past ``timeout`` (closing zeroconf
    afterwards takes a few milliseconds). Raises DiscoveryError if the multicast sockets cannot
    be opened at all. Call it from a plain thread, not from inside a running asyncio loop
    (zeroconf's blocking API refuses that).
    """
    check_party(party)
    if timeout < 0:
        raise ValueError(f"timeout {timeout}: must be >= 0")
    deadline = time.monotonic() + timeout
    names: queue.Queue[str] = queue.Queue()

    def on_change(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            names.put(name)

    zc = _open(interfaces, ip_version)
    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[on_change], question_type=DNSQuestionType.QM)
        try:
            while (left := deadline - time.monotonic()) > 0:
                try:
                    name = names.get(timeout=left)
                except queue.Empty:
                    break
                left_ms = int((deadline - time.monotonic()) * 1000)
                if left_ms <= 0:
                    break
                info = zc.get_service_info(SERVICE_TYPE, name, timeout=left_ms, question_type=DNSQuestionType.QM)
                if info is None:
                    continue
                found = head_address(info, party, ip_version)
                if found is not None:
                    return found
                log.debug("zeroconf: %s is not party %s's head, ignored", name, party)
        finally:
            browser.cancel()
    finally:
        zc.close()
    return None
