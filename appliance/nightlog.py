"""The night's log (JSON lines): read it, replay it through the engine, report the result.

The units write exactly this format (`bunco export`), so any night can be re-scored
anywhere. A line that cannot happen stops the replay with its line number: a re-score
that guessed would be worse than none.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable

from appliance.errors import UserError
from appliance.game.events import Bell, Call, Roll, Undo
from appliance.game.night import Night, NightResult
from appliance.game.rules import HouseRules
from appliance.game.seating import SeatPlan
from appliance.game.table import GameError


# The lines that move the game; a unit's store also keeps history (re-rolls, results...).
GAME_LINES = frozenset({"night", "join", "round", "roll", "call", "undo", "bell"})


class LogError(UserError):
    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}, line {line}: {problem}")
        self.line = line


# ---- writing -------------------------------------------------------------------------
def night_line(players: Iterable[str], rules: HouseRules, seed: int, *, heard_bells: bool = False) -> dict[str, Any]:
    """`heard_bells`: a party's log, where each table logs when it heard the bell (round.py)."""
    line = {"type": "night", "players": list(players), "rules": rules.to_mapping(), "seed": seed}
    if heard_bells:
        line["bells"] = "heard"
    return line


def join_line(player: str) -> dict[str, Any]:
    return {"type": "join", "player": player}


def round_line(plan: SeatPlan, index: int | None = None) -> dict[str, Any]:
    """`index`: the round's place in the night from 0 (a party's logs carry it)."""
    line: dict[str, Any] = {"type": "round", "tables": [list(t) for t in plan.tables]}
    if index is not None:
        line["index"] = index
    return line


def event_line(event: Roll | Call | Undo | Bell, **extra: Any) -> dict[str, Any]:
    kind = {Roll: "roll", Call: "call", Undo: "undo", Bell: "bell"}[type(event)]
    line: dict[str, Any] = {"type": kind, "table": event.table}
    if isinstance(event, Roll):
        line["dice"] = list(event.dice)
    line.update(extra)
    return line


def dumps(line: dict[str, Any]) -> str:
    return json.dumps(line, separators=(", ", ": "))


# ---- reading and replaying -------------------------------------------------------------
def _field(obj: dict[str, Any], key: str, kind: type, where: tuple[str, int]) -> Any:
    if key not in obj:
        raise LogError(*where, f"'{obj.get('type')}' needs '{key}'")
    value = obj[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise LogError(*where, f"'{key}' must be a whole number, not {value!r}")
    if not isinstance(value, kind):
        raise LogError(*where, f"'{key}' must be a {kind.__name__}, not {value!r}")
    return value


class NightFold:
    """Log lines in, a Night out: the one place a line becomes a move in the game.

    `bunco replay` folds a whole file; a table unit folds its own store on start-up and
    each new event as it happens, so the screen and the re-score can never disagree.
    """

    def __init__(self, source: str = "log", only: int | None = None) -> None:
        self.source = source
        self.only = only  # a party table folds its own table only
        self.night: Night | None = None
        self.header: dict[str, Any] | None = None
        self.lines = 0

    def feed_text(self, raw: str) -> dict[int, tuple[str, ...]]:
        self.lines += 1
        where = (self.source, self.lines)
        if not raw.strip():
            return {}
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LogError(*where, f"not JSON ({exc.msg})") from None
        return self._feed(obj, where)

    def feed(self, obj: dict[str, Any]) -> dict[int, tuple[str, ...]]:
        self.lines += 1
        return self._feed(obj, (self.source, self.lines))

    def _feed(self, obj: Any, where: tuple[str, int]) -> dict[int, tuple[str, ...]]:
        if not isinstance(obj, dict) or "type" not in obj:
            raise LogError(*where, "each line must be a JSON object with a 'type'")
        kind = obj["type"]
        if self.night is None:
            if kind != "night":
                raise LogError(*where, "the first line must be the 'night' line")
            self.night = _start_night(obj, where, self.only)
            self.header = obj
            return {}
        if kind == "night":
            raise LogError(*where, "a second 'night' line")
        try:
            return _replay_line(self.night, obj, kind, where)
        except GameError as exc:
            raise LogError(*where, str(exc)) from None


def replay(lines: Iterable[str], source: str = "log") -> NightResult:
    fold = NightFold(source)
    for raw in lines:
        fold.feed_text(raw)
    if fold.night is None:
        raise LogError(source, 1, "the log is empty")
    return fold.night.finish()


def _start_night(obj: dict[str, Any], where: tuple[str, int], only: int | None = None) -> Night:
    players = _field(obj, "players", list, where)
    if not all(isinstance(p, str) for p in players):
        raise LogError(*where, "'players' must be a list of names")
    rules_map = obj.get("rules", {})
    if not isinstance(rules_map, dict):
        raise LogError(*where, "'rules' must be an object")
    rules = HouseRules.from_mapping(rules_map, source=f"{where[0]}, line {where[1]}, rules")
    seed = obj.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise LogError(*where, "'seed' must be a whole number")
    bells = obj.get("bells", "derived")
    if bells not in ("derived", "heard"):
        raise LogError(*where, f"'bells' must be 'derived' or 'heard', not {bells!r}")
    try:
        return Night(tuple(players), rules, random.Random(seed), heard_bells=bells == "heard", only=only)
    except GameError as exc:
        raise LogError(*where, str(exc)) from None


def _replay_line(night: Night, obj: dict[str, Any], kind: str, where: tuple[str, int]) -> dict[int, tuple[str, ...]]:
    if kind == "round":
        tables = _field(obj, "tables", list, where)
        if not all(isinstance(t, list) and all(isinstance(p, str) for p in t) for t in tables):
            raise LogError(*where, "'tables' must be lists of player names")
        index = obj.get("index")
        if index is not None and (isinstance(index, bool) or not isinstance(index, int) or index < 0):
            raise LogError(*where, f"'index' must be a round number from 0, not {index!r}")
        night.start_round(SeatPlan(tuple(tuple(t) for t in tables)), index=index)
        return {}
    if kind == "join":  # a late arrival, between rounds (the head's hostess page)
        night.add_player(_field(obj, "player", str, where))
        return {}
    if kind not in ("roll", "call", "undo", "bell"):
        raise LogError(*where, f"unknown line type {kind!r}")
    table = _field(obj, "table", int, where)
    if kind == "roll":
        dice = _field(obj, "dice", list, where)
        if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            raise LogError(*where, f"dice must show 1-6, not {dice}")
        if night.current is None or night.current.complete:
            if night.over:
                raise LogError(*where, "a roll after the night is over")
            night.start_round()
        assert night.current is not None
        expected = obj.get("player")
        if expected is not None and expected != night.current.table(table).roller:
            raise LogError(*where, f"it is {night.current.table(table).roller}'s roll, not {expected}'s")
        return night.apply(Roll(table, tuple(dice)))
    if night.current is None:
        raise LogError(*where, f"'{kind}' before any roll")
    if kind == "bell":
        if not night.heard_bells:
            raise LogError(*where, "a 'bell' line in a night whose bells are not logged")
        return night.current.apply(Bell(table))
    return night.apply(Call(table) if kind == "call" else Undo(table))


# ---- reporting ------------------------------------------------------------------------
def result_json(result: NightResult) -> dict[str, Any]:
    return {
        "rounds": [
            {
                "set": r.set_no,
                "round": r.round_no,
                "tables": [
                    {
                        "table": t.table,
                        "teams": [{"players": list(players), "points": points} for players, points in t.teams],
                        "winners": list(t.winners),
                    }
                    for t in r.results
                ],
            }
            for r in result.rounds
        ],
        "players": {
            name: {"wins": c.wins, "losses": c.losses, "buncos": c.buncos, "mini_buncos": c.mini_buncos,
                   "wipeouts": c.wipeouts, "white_elephants": c.white_elephants}
            for name, c in result.cards.items()
        },
        "standings": list(result.standings),
        "prizes": result.prizes,
    }


def result_text(result: NightResult) -> str:
    out = []
    for r in result.rounds:
        tables = "   ".join(
            f"T{t.table}: " + " vs ".join(f"{'/'.join(players)} {points}" for players, points in t.teams)
            for t in r.results
        )
        out.append(f"set {r.set_no} round {r.round_no}  {tables}")
    out.append("")
    out.append(f"{'#':>3}  {'player':<16} {'W':>3} {'L':>3} {'Bunco':>6} {'mini':>5} {'wipe':>5}")
    for i, name in enumerate(result.standings, start=1):
        c = result.cards[name]
        out.append(f"{i:>3}  {name:<16} {c.wins:>3} {c.losses:>3} {c.buncos:>6} {c.mini_buncos:>5} {c.wipeouts:>5}")
    out.append("")
    out.append("prizes:")
    for prize, who in result.prizes.items():
        out.append(f"  {prize.replace('_', ' '):<18} {who or '-'}")
    return "\n".join(out)
