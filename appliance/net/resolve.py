"""Where a unit finds its broker: the config's host, or the head unit found with zeroconf."""

from __future__ import annotations

from appliance.errors import UserError
from appliance.net.client import Broker
from appliance.unit_config import NetworkConfig


def broker_for(net: NetworkConfig, timeout: float = 10.0) -> Broker:
    where = net.host_port()
    if where is None:
        from appliance.net.discovery import find_head

        where = find_head(net.party, timeout=timeout)
        if where is None:
            raise UserError(f"no head unit of party {net.party!r} answered on this network in {timeout:.0f} s "
                            "(zeroconf _bunco._tcp): is the head unit on and on the same Wi-Fi? Or set "
                            "[network] broker = \"host:port\" in the config")
    return Broker(where[0], where[1], net.username, net.password())
