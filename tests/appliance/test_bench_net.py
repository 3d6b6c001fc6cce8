"""`bunco bench net` end to end, small: a real broker, three table units, two rounds.

The timing is the benchmark's business (never asserted here); what must hold on any
machine is the shape of the answer and that nothing was lost.
"""

from __future__ import annotations

import json

from appliance import cli
from appliance.net.mosquitto import find_mosquitto


def test_bench_net_three_tables_two_rounds_loses_nothing(capsys):
    code = cli.main(["bench", "net", "--tables", "3", "--rounds", "2", "--json", "--roll-ms", "150",
                     "--countdown", "0.2"])
    out = capsys.readouterr().out
    result = json.loads(out)
    assert {"tables", "p50_ms", "p99_ms", "lost"} <= result.keys()
    assert result["tables"] == 3
    assert result["lost"] == 0 and result["refused"] == 0 and result["finished"]
    assert result["rounds"] == 2
    assert result["samples"] == 3 * 2 * 2       # every table took in both bells of both rounds
    assert result["events"] > 3 * 2 * 3         # round line, rolls, bell, result at each table, each round
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    assert result["broker"] == ("mosquitto" if find_mosquitto() else "embedded")
    assert code == 0


def test_bench_net_refuses_a_night_longer_than_four_sets(capsys):
    assert cli.main(["bench", "net", "--tables", "3", "--rounds", "25"]) == 2
    assert "--rounds 25" in capsys.readouterr().err


def test_lost_counts_missing_changed_and_doubled_lines(tmp_path):
    from appliance.benchmarks.net import count_lost
    from appliance.store import EventStore

    table = EventStore(tmp_path / "table.sqlite")
    lines = [{"type": "round", "tables": [["A", "B", "C", "D"]], "index": 0},
             {"type": "roll", "table": 1, "dice": [1, 2, 3], "round": 0},
             {"type": "result", "table": 1, "round": 0, "winners": ["A", "C"]}]
    for line in lines:
        table.append(line, 0.0)

    def head_with(*stored: dict) -> EventStore:
        head = EventStore(tmp_path / f"head{len(list(tmp_path.iterdir()))}.sqlite")
        for line in stored:
            head.append(line, 0.0)
        return head

    as_head = [{**lines[0], "from": 1, "seq": 1}, {**lines[1], "from": 1, "seq": 2},
               {"type": "received", "from": 1, "seq": 3, "body": lines[2]}]
    assert count_lost({1: table}, head_with(*as_head)) == (0, 3)
    assert count_lost({1: table}, head_with(*as_head[:2])) == (1, 3)                   # one missing
    assert count_lost({1: table}, head_with(*as_head, as_head[1])) == (1, 3)           # one stored twice
    changed = {**as_head[1], "dice": [1, 1, 3]}
    assert count_lost({1: table}, head_with(as_head[0], changed, as_head[2])) == (2, 3)  # not as written
    refused = {"type": "refused", "from": 1, "seq": 2, "body": lines[1], "why": "late"}
    assert count_lost({1: table}, head_with(as_head[0], refused, as_head[2])) == (0, 3)  # stored: counted apart
    assert count_lost({1: table}, head_with(*as_head, {**as_head[1], "from": 2})) == (1, 3)  # no such table
