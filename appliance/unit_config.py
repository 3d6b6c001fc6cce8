"""A unit's config file (TOML): table number, players, house rules, pins, camera calibration.

    table = 1
    players = ["Stacy", "Carol", "Wanda", "Hannah"]   # standalone seating
    [rules]   ... house rules (appliance.game.rules)
    [pins]    ... wiring (hardware.config.PinConfig)
    [camera]  roi = [x, y, w, h], die_size_px = 41.5  (written by `bunco calibrate`)
    [network] party = "smith-2026", broker = "auto" | "host[:port]",
              username = "...", password_file = "/etc/bunco/....password"

Every problem names the key and the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance.config import read_toml
from appliance.errors import ConfigError
from appliance.game.players import PlayerError, check_players
from appliance.game.rules import HouseRules
from hardware.config import PinConfig, PinConfigError

TOP_KEYS = {"table", "players", "seed", "rules", "pins", "camera", "network"}
CAMERA_KEYS = {"roi", "die_size_px"}
NETWORK_KEYS = {"party", "broker", "username", "password_file"}


@dataclass(frozen=True)
class NetworkConfig:
    party: str = "party"
    broker: str = "auto"               # "auto": find the head unit with zeroconf
    username: str | None = None
    password_file: Path | None = None

    def password(self) -> str | None:
        if self.password_file is None:
            return None
        try:
            return self.password_file.read_text().strip()
        except OSError as exc:
            raise ConfigError("network.password_file", f"cannot read {self.password_file}: {exc.strerror}") from None

    def host_port(self) -> tuple[str, int] | None:
        """None for "auto"."""
        if self.broker == "auto":
            return None
        host, _, port = self.broker.rpartition(":") if ":" in self.broker else (self.broker, "", "1883")
        return host, int(port)


@dataclass(frozen=True)
class UnitConfig:
    table: int = 1
    players: tuple[str, ...] = ()
    seed: int | None = None
    rules: HouseRules = field(default_factory=HouseRules)
    pins: PinConfig = field(default_factory=PinConfig)
    roi: tuple[int, int, int, int] | None = None
    die_size_px: float | None = None
    network: NetworkConfig = field(default_factory=NetworkConfig)


def load_unit_config(path: Path | None) -> UnitConfig:
    if path is None:
        return UnitConfig()
    data = read_toml(path)
    return config_from_mapping(data, str(path))


def config_from_mapping(data: dict[str, Any], source: str) -> UnitConfig:
    for key in data:
        if key not in TOP_KEYS:
            raise ConfigError(key, f"unknown setting (known: {', '.join(sorted(TOP_KEYS))})", source)
    table = data.get("table", 1)
    if isinstance(table, bool) or not isinstance(table, int) or table < 1:
        raise ConfigError("table", f"must be a table number from 1, not {table!r}", source)
    players = data.get("players", [])
    if not isinstance(players, list):
        raise ConfigError("players", "must be a list of names", source)
    if players:
        try:
            players = list(check_players(players))
        except PlayerError as exc:
            raise ConfigError("players", str(exc), source) from None
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigError("seed", "must be a whole number", source)
    rules_map = data.get("rules", {})
    if not isinstance(rules_map, dict):
        raise ConfigError("rules", "must be a table ([rules])", source)
    rules = HouseRules.from_mapping(rules_map, source=f"{source} [rules]")
    pins_map = data.get("pins", {})
    if not isinstance(pins_map, dict):
        raise ConfigError("pins", "must be a table ([pins])", source)
    try:
        pins = PinConfig.from_mapping(pins_map, source=source)
    except PinConfigError as exc:
        raise ConfigError(f"pins.{exc.key}", exc.problem, source) from None
    camera = data.get("camera", {})
    if not isinstance(camera, dict):
        raise ConfigError("camera", "must be a table ([camera])", source)
    for key in camera:
        if key not in CAMERA_KEYS:
            raise ConfigError(f"camera.{key}", f"unknown setting (known: {', '.join(sorted(CAMERA_KEYS))})", source)
    roi = camera.get("roi")
    if roi is not None and (not isinstance(roi, list) or len(roi) != 4
                            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in roi)):
        raise ConfigError("camera.roi", "must be [x, y, width, height] in whole pixels", source)
    size = camera.get("die_size_px")
    if size is not None and (isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0):
        raise ConfigError("camera.die_size_px", "must be a positive number of pixels", source)
    return UnitConfig(table, tuple(players), seed, rules, pins,
                      tuple(roi) if roi else None, float(size) if size else None,
                      _network(data.get("network", {}), source))


def _network(net: Any, source: str) -> NetworkConfig:
    from appliance.net.topics import PARTY_ID

    if not isinstance(net, dict):
        raise ConfigError("network", "must be a table ([network])", source)
    for key, value in net.items():
        if key not in NETWORK_KEYS:
            raise ConfigError(f"network.{key}", f"unknown setting (known: {', '.join(sorted(NETWORK_KEYS))})", source)
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"network.{key}", "must be a non-empty string", source)
    party = net.get("party", "party")
    if not PARTY_ID.match(party):
        raise ConfigError("network.party", "use 1-32 lower-case letters, digits or '-'", source)
    broker = net.get("broker", "auto")
    if broker != "auto":
        host, sep, port = broker.rpartition(":")
        if sep and (not host or not port.isdigit() or not 0 < int(port) < 65536):
            raise ConfigError("network.broker", f"must be \"auto\" or host[:port], not {broker!r}", source)
    pw = net.get("password_file")
    return NetworkConfig(party, broker, net.get("username"), Path(pw) if pw else None)
