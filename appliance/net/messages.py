"""The party's messages: versioned JSON, checked on receipt.

Every message carries ``"v": 1``. Anything that is not exactly what a topic expects -
not JSON, the wrong types, an unknown version, too big - raises BadMessage, which the
receiver logs and drops: a bad message from the network must never stop a unit or
change its state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from appliance.game.players import PlayerError, check_newcomer, check_players

VERSION = 1
MAX_BYTES = 64 * 1024  # a whole night's seat plan is a few hundred bytes; this is generous
PHASES = ("waiting", "playing", "ending", "between", "over")
STATES = ("online", "offline")


class BadMessage(ValueError):
    """A message that is dropped (logged with this text)."""


@dataclass(frozen=True)
class RoundMsg:
    """The head's retained word on where the night stands; a (re)joining table needs only this."""

    night: dict[str, Any]               # the night line (players, rules, seed, bells)
    index: int                          # rounds started so far (0 before the first)
    phase: str
    tables: tuple[tuple[str, ...], ...]  # this round's seats (empty before the first)
    next: tuple[tuple[str, ...], ...] = ()  # the next round's seats, once known (phase between)
    starts_in: float = 0.0              # seconds to the next round's bell, in phase between
    joined: tuple[str, ...] = ()        # late arrivals, in order (each a `join` line after the night line)


@dataclass(frozen=True)
class EventMsg:
    table: int
    seq: int
    body: dict[str, Any]


@dataclass(frozen=True)
class AckMsg:
    table: int
    seq: int


@dataclass(frozen=True)
class Command:
    id: int
    cmd: str      # "undo"
    round: int    # the round it is meant for (index from 0): a stale command is not applied


@dataclass(frozen=True)
class CmdMsg:
    table: int
    cmds: tuple[Command, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class StatusMsg:
    unit: str     # "head" or "table N"
    state: str


Message = RoundMsg | EventMsg | AckMsg | CmdMsg | StatusMsg


# ---- encoding ------------------------------------------------------------------------
def encode(msg: Message) -> bytes:
    if isinstance(msg, RoundMsg):
        obj = {"night": msg.night, "index": msg.index, "phase": msg.phase,
               "tables": [list(t) for t in msg.tables], "next": [list(t) for t in msg.next],
               "starts_in": msg.starts_in, "joined": list(msg.joined)}
    elif isinstance(msg, EventMsg):
        obj = {"table": msg.table, "seq": msg.seq, "body": msg.body}
    elif isinstance(msg, AckMsg):
        obj = {"table": msg.table, "seq": msg.seq}
    elif isinstance(msg, CmdMsg):
        obj = {"table": msg.table, "cmds": [{"id": c.id, "cmd": c.cmd, "round": c.round} for c in msg.cmds]}
    else:
        obj = {"unit": msg.unit, "state": msg.state}
    return json.dumps({"v": VERSION, **obj}, separators=(",", ":")).encode()


# ---- decoding ------------------------------------------------------------------------
def _load(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_BYTES:
        raise BadMessage(f"{len(payload)} bytes, more than {MAX_BYTES}")
    try:
        obj = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadMessage(f"not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise BadMessage("not a JSON object")
    if obj.get("v") != VERSION or isinstance(obj.get("v"), bool):
        raise BadMessage(f"unknown version {obj.get('v')!r}")
    return obj


def _int(obj: dict[str, Any], key: str, low: int = 0) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BadMessage(f"'{key}' must be a whole number >= {low}, not {value!r}")
    return value


def _plan(value: Any, key: str) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list) or not all(
            isinstance(t, list) and all(isinstance(p, str) for p in t) for t in value):
        raise BadMessage(f"'{key}' must be lists of player names")
    return tuple(tuple(t) for t in value)


def decode_round(payload: bytes) -> RoundMsg:
    obj = _load(payload)
    night = obj.get("night")
    if not isinstance(night, dict) or night.get("type") != "night":
        raise BadMessage("'night' must be the night line")
    phase = obj.get("phase")
    if phase not in PHASES:
        raise BadMessage(f"'phase' must be one of {', '.join(PHASES)}, not {phase!r}")
    starts_in = obj.get("starts_in", 0.0)
    if isinstance(starts_in, bool) or not isinstance(starts_in, (int, float)) or not 0 <= starts_in < 3600:
        raise BadMessage(f"'starts_in' must be seconds, not {starts_in!r}")
    players = night.get("players")
    joined = obj.get("joined", [])
    if not isinstance(joined, list):
        raise BadMessage("'joined' must be a list of names")
    try:  # a night no unit could fold is dropped here, not in a unit's log
        check_players(players if isinstance(players, list) else [players])
        for i, name in enumerate(joined):
            check_newcomer(name, [*players, *joined[:i]])
    except PlayerError as exc:
        raise BadMessage(f"the night's players: {exc}") from None
    return RoundMsg(night, _int(obj, "index"), phase, _plan(obj.get("tables"), "tables"),
                    _plan(obj.get("next", []), "next"), float(starts_in), tuple(joined))


def decode_event(payload: bytes, table: int) -> EventMsg:
    obj = _load(payload)
    if _int(obj, "table", 1) != table:
        raise BadMessage(f"table {obj['table']} on table {table}'s topic")
    body = obj.get("body")
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise BadMessage("'body' must be an object with a 'type'")
    if body.get("table", table) != table:
        raise BadMessage(f"an event of table {body.get('table')!r} from table {table}")
    return EventMsg(table, _int(obj, "seq", 1), body)


def decode_ack(payload: bytes, table: int) -> AckMsg:
    obj = _load(payload)
    if _int(obj, "table", 1) != table:
        raise BadMessage(f"an ack for table {obj['table']} on table {table}'s topic")
    return AckMsg(table, _int(obj, "seq"))


def decode_cmd(payload: bytes, table: int) -> CmdMsg:
    obj = _load(payload)
    if _int(obj, "table", 1) != table:
        raise BadMessage(f"commands for table {obj['table']} on table {table}'s topic")
    raw = obj.get("cmds")
    if not isinstance(raw, list):
        raise BadMessage("'cmds' must be a list")
    cmds = []
    for c in raw:
        if not isinstance(c, dict) or c.get("cmd") != "undo":
            raise BadMessage(f"unknown command {c!r}")
        cmds.append(Command(_int(c, "id", 1), "undo", _int(c, "round")))
    return CmdMsg(table, tuple(cmds))


def decode_status(payload: bytes) -> StatusMsg:
    obj = _load(payload)
    unit, state = obj.get("unit"), obj.get("state")
    if not isinstance(unit, str) or state not in STATES:
        raise BadMessage(f"a status needs 'unit' and 'state' ({'/'.join(STATES)})")
    return StatusMsg(unit, state)
