"""The event log on real SQLite: what append() returned survives closing and reopening."""

from __future__ import annotations

from appliance.store import EventStore


def test_seq_and_events_survive_reopening(tmp_path):
    store = EventStore.in_dir(tmp_path)
    assert store.last_seq() == 0 and len(store) == 0
    seqs = [store.append({"n": i}, 100.0 + i) for i in range(3)]
    assert seqs == [1, 2, 3]
    store.close()
    again = EventStore.in_dir(tmp_path)
    assert again.last_seq() == 3
    assert [(e.seq, e.body["n"]) for e in again.events(after=1)] == [(2, 1), (3, 2)]
    assert again.append({"n": 3}, 104.0) == 4 and again.last_seq() == 4
    again.close()
