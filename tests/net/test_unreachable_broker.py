"""A broker that cannot be reached is said once, in one line, not waited on in silence.

Found running the installer in a container without /etc/hosts: the units' "localhost" did not
resolve, and neither the head nor the tables said anything while they waited.
"""

from __future__ import annotations

import logging
import threading

from appliance.net.client import Broker, UnitClient


class Said(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []
        self.first = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        self.first.set()


def test_a_name_that_does_not_resolve_is_reported_once() -> None:
    said = Said()
    logger = logging.getLogger("appliance.net.client")
    logger.addHandler(said)
    client = UnitClient(Broker("no-such-head.invalid", 1883), "bunco-t-unreach", "bunco/t/table/9/status", "table 9",
                        subscriptions=[])
    tries = []
    third = threading.Event()
    original = client._client.on_connect_fail  # noqa: SLF001 - count paho's tries, then say what was logged

    def counted(c, userdata) -> None:
        original(c, userdata)
        tries.append(1)
        if len(tries) >= 3:
            third.set()

    client._client.on_connect_fail = counted  # noqa: SLF001
    try:
        client.start()
        assert said.first.wait(timeout=30)
        assert third.wait(timeout=60)  # paho tried again (every 1-2 s) ...
    finally:
        client.stop()
        logger.removeHandler(said)
    assert said.lines[0] == ("table 9: cannot reach the broker no-such-head.invalid:1883 "
                             "(is the name right, is it running?); trying again")
    assert said.lines.count(said.lines[0]) == 1 and client.state == "offline"  # ... and said it once
