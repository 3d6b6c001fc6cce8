"""Reading settings files (TOML). Every problem names the key and the file."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from appliance.errors import ConfigError, UserError
from appliance.game.rules import HouseRules


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None


def load_rules(path: Path) -> HouseRules:
    """A house-rules file: the settings at the top level, or under [rules]."""
    data = read_toml(path)
    if "rules" in data:
        table = data["rules"]
        if not isinstance(table, dict):
            raise ConfigError("rules", "must be a table", str(path))
        return HouseRules.from_mapping(table, source=str(path))
    return HouseRules.from_mapping(data, source=str(path))
