"""The hostess page over HTTP against a live head unit (real mosquitto, real tables, real aiohttp)."""

from __future__ import annotations

import csv
import io
import json

from typing import Any

from appliance.nightlog import replay, result_json

LiveParty = Any  # tests/web/conftest.py's LiveParty (conftest modules are not importable here)

TWELVE = ["Stacy", "Carol", "Wanda", "Hannah", "Betty", "Dolores", "Fran", "Gloria", "Irene", "June", "Kay", "Lois"]
ACTIONS = {"players": {"text": "A\nB"}, "add": {"name": "Zoe"}, "rename": {"old": "A", "new": "Q"},
           "remove": {"name": "A"}, "start": {}, "hold": {}, "resume": {}, "next": {}, "end": {}, "undo": {"table": 1}}


def test_without_the_pin_the_page_shows_the_night_and_every_change_is_403(live: LiveParty) -> None:
    phone = live.client()
    code, html, headers = phone.get("")
    assert code == 200 and b"Bunco" in html and headers["Content-Type"].startswith("text/html")
    logged = live.app.submit(lambda u: len(u.store)).result(timeout=30)
    before = {k: v for k, v in phone.state().items() if k != "network"}
    for name, body in ACTIONS.items():
        code, data = phone.act(name, **body)
        assert code == 403, name
        assert data["error"] == "read-only: type the party's PIN to make changes"
    # a session without its CSRF token (what a cross-site form would send) is refused too
    hostess = live.client()
    assert hostess.login()[0] == 200
    code, data, _ = hostess.post("api/start", csrf="forged")
    assert code == 403
    code, data, _ = hostess.post("api/start", origin="http://evil.example")
    assert code == 403 and "another site" in data["error"]
    code, data, _ = hostess.post("login", {"pin": live.pin}, origin="http://evil.example")
    assert code == 403
    assert {k: v for k, v in phone.state().items() if k != "network"} == before  # nothing changed
    assert live.app.submit(lambda u: len(u.store)).result(timeout=30) == logged  # nothing logged
    code, body, _ = phone.get("session")
    assert json.loads(body) == {"hostess": False, "csrf": None}


def test_ten_wrong_pins_in_a_row_are_slowed_down(live: LiveParty) -> None:
    now = [1000.0]
    live.server.gate.clock = lambda: now[0]
    phone = live.client()
    waits = []
    for _ in range(10):
        code, data, _ = phone.login("000000")
        assert code == 403 and data["error"].startswith("wrong PIN")
        waits.append(data["wait_s"])
        if data["wait_s"]:
            # before the wait is over even the right PIN is turned away, saying how long to wait
            code, data, headers = phone.login(live.pin)
            assert code == 429 and int(headers["Retry-After"]) == round(waits[-1])
            assert data["error"] == f"too many wrong PINs: try again in {round(waits[-1])} s"
            now[0] += waits[-1]
    assert waits == [0, 0, 2, 4, 8, 16, 32, 64, 128, 256]
    # another phone is not slowed by this one
    assert live.client().login()[0] == 200
    code, data, _ = phone.login(live.pin)
    assert code == 200 and data["hostess"] is True
    assert phone.login("000000")[1]["wait_s"] == 0  # the right PIN starts the count again


def test_every_hostess_action_and_the_downloads(live: LiveParty) -> None:
    hostess = live.client()
    assert hostess.login()[0] == 200
    # players: a bad list names the player and changes nothing
    code, data = hostess.act("players", text="Ann\nBea\nann\nDot")
    assert (code, data["error"]) == (409, "'ann' is listed twice (as 'Ann' and 'ann')")
    assert hostess.act("players", text="Ann")[1]["error"] == "1 player: Bunco needs at least 2"
    assert hostess.state()["players"] == []
    code, data = hostess.act("players", text="\n".join(TWELVE[:10] + ["Typo", TWELVE[10]]))
    assert (code, data["message"]) == (200, "12 players on the list")
    assert hostess.act("rename", old="Typo", new="Lois")[0] == 200
    assert hostess.act("rename", old="Lois", new="stacy")[1]["error"] == "'stacy' is already playing (as 'Stacy')"
    assert hostess.act("add", name="Extra")[0] == 200
    assert hostess.act("remove", name="Extra")[0] == 200
    assert hostess.act("remove", name="Nobody")[1]["error"] == "'Nobody' is not on the list"
    state = live.stream.until(lambda s: sorted(s["players"]) == sorted(TWELVE), "the 12 players")
    assert len(state["tables"]) == 3
    live.stream.until(lambda s: all(t["status"] == "online" for t in s["tables"]), "three tables online")
    assert hostess.act("next")[1]["error"] == "the night has not started: start it first"
    assert hostess.act("undo", table=2)[1]["error"] == "no round is under way: there is no roll to take back"
    # the night
    assert hostess.act("start") == (200, {"ok": True, "message": "the night has started"})
    assert hostess.act("start")[1]["error"] == "the night has already started"
    assert hostess.act("rename", old="Kay", new="Kate")[0] == 409
    live.stream.until(lambda s: s["phase"] == "playing", "the first round")
    code, data = hostess.act("add", name="Zoe")
    assert (code, data["error"]) == (409, "round 1 is under way: Zoe can join when it is over")
    assert hostess.act("undo", table=2)[1]["error"] == "table 2 has no roll to take back in this round"
    assert hostess.act("end")[1]["error"] == "round 1 is under way: end the night when it is over"
    # a roll at table 2, taken back
    state = live.play_until(lambda s: s["tables"][1]["rolls"] >= 2, "two rolls at table 2")
    rolls = state["tables"][1]["rolls"]
    assert hostess.act("undo", table=2) == (200, {"ok": True, "message": "table 2: the last roll is being taken back"})
    live.stream.until(lambda s: s["tables"][1]["rolls"] == rolls - 1, "table 2's roll taken back")
    # hold: the round ends, and no next round starts by itself
    assert hostess.act("hold")[0] == 200 and hostess.act("hold")[1]["error"] == "the night is already on hold"
    live.play_until(lambda s: s["phase"] == "between", "the end of round 1")
    assert hostess.act("add", name="Zoe") == (200, {"ok": True, "message": "Zoe joins the next round"})
    assert hostess.act("add", name="zoe")[1]["error"] == "'zoe' is already playing (as 'Zoe')"
    assert hostess.act("resume")[0] == 200
    assert hostess.act("next")[0] == 200
    state = live.stream.until(lambda s: s["phase"] == "playing" and s["round"]["started"] == 2, "round 2")
    assert len(state["tables"]) == 4 and "Zoe" in state["players"]  # a fourth table: the seats drawn again
    seated = [p for t in state["tables"] for team in t["teams"] for p in team["players"]]
    assert "Zoe" in seated
    live.tables.call(lambda: live.tables.open(4))  # the fourth table's unit is switched on
    live.play_until(lambda s: s["phase"] == "between", "the end of round 2")
    assert hostess.act("end") == (200, {"ok": True, "message": "the night is over"})
    final = live.stream.until(lambda s: s["phase"] == "over" and s["prizes"], "the prizes")
    assert hostess.act("hold")[1]["error"] == "the night is over"
    # the downloads: bunco replay of night.jsonl is the sheet the page shows
    code, body, headers = hostess.get("night.jsonl")
    assert code == 200 and 'filename="night.jsonl"' in headers["Content-Disposition"]
    lines = body.decode().splitlines()
    assert json.loads(lines[0])["players"] == [p for p in final["players"] if p != "Zoe"]
    assert {"type": "join", "player": "Zoe"} in [json.loads(line) for line in lines]
    again = result_json(replay(lines, source="night.jsonl"))
    assert again["standings"] == [row["player"] for row in final["sheet"]]
    assert {p: again["players"][p]["wins"] for p in again["players"]} == {r["player"]: r["wins"] for r in final["sheet"]}
    code, body, _ = hostess.get("scorecards.csv")
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert code == 200 and len(rows) == 13
    # every action is in the head's log
    kinds = live.app.submit(lambda u: [e.body["type"] for e in u.store.events()]).result(timeout=30)
    for kind in ("roster", "night", "command", "hold", "resume", "join", "next_now", "end"):
        assert kind in kinds, kind
