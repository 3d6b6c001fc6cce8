"""What the hostess page shows: the head unit's state as plain JSON, made on the head's thread.

The page is a fold of this one object (sent again by server-sent events after every change),
so the page, the head screen and `bunco replay` all read the same night.
"""

from __future__ import annotations

from typing import Any

from appliance.game.night import ROUNDS_PER_SET
from appliance.head_unit import HeadUnit


def page_state(unit: HeadUnit, status: dict[int, str] | None = None, network: str = "online") -> dict[str, Any]:
    status = status or {}
    view = unit.view(status, network if network in ("online", "offline", "connecting") else "offline")
    phase = unit.phase
    state: dict[str, Any] = {
        "phase": phase, "held": unit.held, "trouble": unit.trouble, "network": network,
        "players": list(unit.players), "started": unit.started,
        "banners": [b.text for b in view.banners],
    }
    tables: list[dict[str, Any]] = []
    if not unit.started:
        state["round"] = None
        for n in range(1, unit.tables + 1):
            tables.append({"table": n, "status": status.get(n, "offline"), "phase": "waiting", "teams": [],
                           "rolls": 0, "last": None, "note": ""})
    else:
        night = unit.night
        room = night.current
        state["round"] = {"started": night.rounds_started, "of": night.total_rounds, "set": view.set_no,
                          "round": view.round_no, "target": view.target, "to_win": view.points_to_win}
        for tally in view.tables:
            rolls, last = 0, None
            if room is not None:
                t = room.table(tally.table)
                rolls = len(t.rolls)
                if t.rolls:
                    last = {"who": t.rolls[-1].roller, "dice": list(t.rolls[-1].dice)}
            tables.append({"table": tally.table, "status": tally.status, "phase": tally.phase,
                           "teams": [{"label": team.label, "players": list(team.players), "points": team.points}
                                     for team in tally.teams],
                           "rolls": rolls, "last": last, "note": tally.note})
        shown = {t["table"] for t in tables}
        for n in range(1, unit.tables + 1):  # a table a late arrival added: no round there yet
            if n not in shown:
                tables.append({"table": n, "status": status.get(n, "offline"), "phase": "waiting", "teams": [],
                               "rolls": 0, "last": None, "note": ""})
    state["tables"] = tables
    state["sheet"] = [{"rank": r.rank, "player": r.player, "marks": list(r.marks), "wins": r.wins,
                       "losses": r.losses, "buncos": r.buncos, "minis": r.minis, "wipeouts": r.wipeouts}
                      for r in view.sheet]
    state["prizes"] = [{"title": p.title, "player": p.player} for p in view.prizes]
    state["rounds_in_set"] = ROUNDS_PER_SET
    state["can"] = sorted(_possible(unit))
    return state


def _possible(unit: HeadUnit) -> set[str]:
    """The actions that can happen now: the page greys out the rest (the head still checks)."""
    if unit.trouble is not None:
        return set()
    phase = unit.phase
    if not unit.started:
        return {"players", "add", "rename", "remove", "start"} | ({"resume"} if unit.held else {"hold"})
    if phase == "over":
        return set()
    can = {"resume"} if unit.held else {"hold"}
    if unit.night.current is None:
        can |= {"add", "next", "end"}
    else:
        can.add("undo")
    return can
