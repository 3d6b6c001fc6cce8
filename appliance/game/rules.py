"""House rules: every variant of RULES.md is a setting, defaults are the RULES.md defaults.

Real groups play different house rules, so nothing in the engine hard-codes a variant;
it asks the HouseRules it was given. Reading the TOML file is I/O and lives outside the
game package (appliance.config); this module only validates a mapping.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from appliance.errors import ConfigError

PRIZES = (
    "most_wins",
    "most_buncos",
    "most_mini_buncos",
    "last_bunco",
    "half_and_half",
    "most_losses",
    "most_wipeouts",
    "traveling",
    "booby",
)

# Allowed values of the string settings, each with what it means.
CHOICES: dict[str, dict[str, str]] = {
    "round_end": {
        "head_table": "the round ends for the room when a team at the head table reaches the points to win",
        "every_table": "every table plays to the points to win; the round ends when each table has a winner",
    },
    "bunco_ends_round": {
        "auto": "'any_table' with 4 dice (True Bunco), 'no' with 3",
        "no": "a called Bunco scores and the turn goes on",
        "head_table": "a called Bunco at the head table ends the round at once",
        "any_table": "a called Bunco at any table ends the round at once",
    },
    "call_window": {
        "next_roll": "a Bunco can be called until the next roll is read",
        "turn": "until the roller's turn ends",
        "round": "until the round ends",
    },
    "roll_off": {
        "pass": "each player of the tied teams has one turn; repeat while tied",
        "first_target": "players roll in turn; the first roll showing the target wins",
        "race": "players alternately roll one die; the first team to total race_points pips wins",
    },
    "rotation": {
        "ladder": "winners up a table, losers down, the ends stay",
        "head_losers_last": "head winners stay, head losers to the last table, others: winners up, losers stay",
        "losers_walk": "winners stay, losers to the next table, the last table's losers to the head table",
    },
    "first_roller": {
        "scorekeeper": "the scorekeeper (first seat) rolls first",
        "high_die": "in the night's first round each player rolls one die, highest starts, ties roll again",
    },
    "odd_players": {
        "ghost": "ghosts fill empty seats; the ghost's partner rolls for it",
        "individual": "the individual-table layouts for 5 to 11 players",
    },
    "four_players": {
        "teams": "four players at one table play two teams of two",
        "individual": "four players at one table play each for herself",
    },
    "traveling": {
        "bunco": "the traveling object passes to each player who rolls a Bunco",
        "trio": "it passes to each player who rolls the named trio (traveling_trio)",
        "off": "no traveling object",
    },
}


@dataclass(frozen=True)
class HouseRules:
    dice: int = 3
    points_to_win: int = 21
    target_die_points: int = 1
    bunco_points: int = 21
    mini_bunco_points: int = 5  # with 4 dice: Low Bunco
    high_bunco_points: int = 7  # 4 dice only
    wipeout: bool = False
    bunco_ends_round: str = "auto"
    round_end: str = "head_table"
    call_window: str = "next_roll"
    roll_off: str = "pass"
    race_points: int = 5
    rotation: str = "ladder"
    first_roller: str = "scorekeeper"
    odd_players: str = "ghost"
    four_players: str = "teams"
    sets: int = 4
    traveling: str = "bunco"
    traveling_trio: tuple[int, ...] = (1, 2, 3)
    white_elephant: bool = False
    prizes: tuple[str, ...] = PRIZES

    @property
    def bunco_end(self) -> str:
        """The effective Bunco-ends-the-round rule ('auto' resolved by the dice count)."""
        if self.bunco_ends_round == "auto":
            return "any_table" if self.dice == 4 else "no"
        return self.bunco_ends_round

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], source: str | None = None) -> HouseRules:
        """Validate a mapping (a TOML table, a log's `rules`) against the defaults.

        Every problem names the key and the source, so a hostess editing the file by hand
        knows which line to fix.
        """
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in mapping.items():
            if key not in known:
                raise ConfigError(key, f"unknown house rule (known: {', '.join(sorted(known))})", source)
            default = getattr(cls(), key)
            values[key] = _coerce(key, value, default, source)
        rules = replace(cls(), **values)
        rules._check(source)
        return rules

    def to_mapping(self) -> dict[str, Any]:
        """The settings that differ from the defaults, as plain JSON/TOML values."""
        default = HouseRules()
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def _check(self, source: str | None) -> None:
        def bad(key: str, problem: str) -> ConfigError:
            return ConfigError(key, problem, source)

        if self.dice not in (3, 4):
            raise bad("dice", f"must be 3 or 4, not {self.dice}")
        if self.sets not in (1, 2, 3, 4):
            raise bad("sets", f"must be 1 to 4, not {self.sets}")
        for key in ("points_to_win", "target_die_points", "bunco_points", "mini_bunco_points",
                    "high_bunco_points", "race_points"):
            if getattr(self, key) < 1:
                raise bad(key, f"must be at least 1, not {getattr(self, key)}")
        for key, allowed in CHOICES.items():
            if getattr(self, key) not in allowed:
                raise bad(key, f"must be one of {', '.join(allowed)}, not {getattr(self, key)!r}")
        trio = self.traveling_trio
        # The trio matters only when it moves the traveling object: a 4-dice night that
        # passes it on a Bunco (the default) must not be refused for the unused 3-dice trio.
        if self.traveling == "trio" and (len(trio) != self.dice or any(not 1 <= v <= 6 for v in trio)):
            raise bad("traveling_trio", f"must be {self.dice} die faces 1-6 with traveling = 'trio', not {list(trio)}")
        for prize in self.prizes:
            if prize not in PRIZES:
                raise bad("prizes", f"unknown prize {prize!r} (known: {', '.join(PRIZES)})")
        if len(set(self.prizes)) != len(self.prizes):
            raise bad("prizes", "a prize is listed twice")


def _coerce(key: str, value: Any, default: Any, source: str | None) -> Any:
    def wrong(kind: str) -> ConfigError:
        return ConfigError(key, f"must be {kind}, not {type(value).__name__} {value!r}", source)

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise wrong("true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong("a whole number")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise wrong("a string")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)):
            raise wrong("a list")
        item_type = type(default[0])
        if any(isinstance(v, bool) or not isinstance(v, item_type) for v in value):
            raise wrong(f"a list of {'whole numbers' if item_type is int else 'strings'}")
        return tuple(value)
    raise AssertionError(f"no coercion for {key}")  # a new field type needs a branch here
