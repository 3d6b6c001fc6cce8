"""The party's MQTT topics, in one place: the link, the broker's ACL and the tests all read these.

Party id P, table n. Every table, the head table (1) too, has its own table unit; the head
unit beside table 1 runs the broker, the bell and the hostess's screen.

- ``bunco/P/head/round``          retained, head only: night header, round index, phase, seat plan
- ``bunco/P/head/ack/n``          retained, head only: the highest seq of table n the head has stored
- ``bunco/P/head/cmd/n``          retained, head only: the hostess's corrections for table n
- ``bunco/P/head/status``         retained, last will "offline"
- ``bunco/P/table/n/events``      QoS 1, table n only: its log entries, each with (table, seq)
- ``bunco/P/table/n/tally``       retained, table n only: the tally snapshot for the hostess screen
- ``bunco/P/table/n/status``      retained, table n only, last will "offline"
"""

from __future__ import annotations

import re

ROOT = "bunco"
PARTY_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def check_party(party: str) -> str:
    """Party ids go into topic names and user names: keep them plain."""
    if not PARTY_ID.match(party):
        raise ValueError(f"party id {party!r}: use 1-32 lower-case letters, digits or '-'")
    return party


def head_round(party: str) -> str:
    return f"{ROOT}/{party}/head/round"


def head_ack(party: str, table: int) -> str:
    return f"{ROOT}/{party}/head/ack/{table}"


def head_cmd(party: str, table: int) -> str:
    return f"{ROOT}/{party}/head/cmd/{table}"


def head_status(party: str) -> str:
    return f"{ROOT}/{party}/head/status"


def table_events(party: str, table: int) -> str:
    return f"{ROOT}/{party}/table/{table}/events"


def table_tally(party: str, table: int) -> str:
    return f"{ROOT}/{party}/table/{table}/tally"


def table_status(party: str, table: int) -> str:
    return f"{ROOT}/{party}/table/{table}/status"


def table_prefix(party: str, table: int) -> str:
    """Everything table n may publish (for the ACL: ``pattern``-free, one line a table)."""
    return f"{ROOT}/{party}/table/{table}/#"


def head_prefix(party: str) -> str:
    return f"{ROOT}/{party}/head/#"


def all_tables(party: str) -> str:
    """What the head subscribes to."""
    return f"{ROOT}/{party}/table/+/#"


_TABLE_TOPIC = re.compile(rf"^{ROOT}/([^/]+)/table/(\d+)/(events|tally|status)$")


def parse_table_topic(topic: str) -> tuple[str, int, str] | None:
    """(party, table, kind) of a table topic, or None for anything else."""
    m = _TABLE_TOPIC.match(topic)
    if not m:
        return None
    return m.group(1), int(m.group(2)), m.group(3)


# MQTT user names: one a unit, so the ACL can tell them apart.
def head_user(party: str) -> str:
    return f"{party}-head"


def table_user(party: str, table: int) -> str:
    return f"{party}-table{table}"
