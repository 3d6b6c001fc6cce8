"""A real mosquitto on a free loopback port, for the network tests.

``mosquitto_broker``   a running broker, anonymous clients allowed, no ACL: ``.host``, ``.port``,
                       ``.stop()``, ``.start()``, ``.kill()``, ``.outage(seconds)``, ``.log()``
``mosquitto_factory``  ``mosquitto_factory(conf="...", persistence=False)`` -> a running broker
                       whose conf is the given text (it must not open its own listener; the
                       factory adds ``listener <port> 127.0.0.1``), for the ACL tests

Both are appliance.net.mosquitto.MosquittoProcess, the class `bunco bench net` runs, with
every packet logged.

Both are killed at the end of the test. A stopped broker starts again on the same port, so a
test can take the broker away for a while ("stop for 5 s and start again") and bring it back
where the clients expect it. Skipped, with the reason, only when the mosquitto binary is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from appliance.net.mosquitto import MosquittoProcess, find_mosquitto


@pytest.fixture
def mosquitto_factory(tmp_path: Path) -> Iterator[Callable[..., MosquittoProcess]]:
    binary = find_mosquitto()
    if binary is None:
        pytest.skip("the mosquitto binary is missing (apt-get install mosquitto; `make test` installs it)")
    brokers: list[MosquittoProcess] = []

    def make(conf: str = "allow_anonymous true\n", persistence: bool = False) -> MosquittoProcess:
        folder = tmp_path / f"mosquitto{len(brokers)}"
        folder.mkdir()
        broker = MosquittoProcess(binary, folder, conf, persistence=persistence, verbose=True)
        brokers.append(broker)
        broker.start()
        return broker

    yield make
    for broker in brokers:
        broker.kill()


@pytest.fixture
def mosquitto_broker(mosquitto_factory: Callable[..., MosquittoProcess]) -> MosquittoProcess:
    """A running broker: anonymous clients allowed, no ACL, no persistence."""
    return mosquitto_factory()
