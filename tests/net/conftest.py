"""A real mosquitto on a free loopback port, for the network tests.

``mosquitto_broker``   a running broker, anonymous clients allowed, no ACL: ``.host``, ``.port``,
                       ``.stop()``, ``.start()``, ``.kill()``, ``.outage(seconds)``, ``.log()``
``mosquitto_factory``  ``mosquitto_factory(conf="...", persistence=False)`` -> a running broker
                       whose conf is the given text (it must not open its own listener; the
                       factory adds ``listener <port> 127.0.0.1``), for the ACL tests

Both are killed at the end of the test. A stopped broker starts again on the same port, so a
test can take the broker away for a while ("stop for 5 s and start again") and bring it back
where the clients expect it. Skipped, with the reason, only when the mosquitto binary is missing.
"""

from __future__ import annotations

import os
import pwd
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from appliance.net.mosquitto import find_mosquitto, free_port

START_TIMEOUT_S = 10.0


class MosquittoBroker:
    """One mosquitto process at a time, always on the same host and port."""

    host = "127.0.0.1"

    def __init__(self, binary: str, folder: Path, conf: str, persistence: bool = False) -> None:
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.conf_path = folder / "broker.conf"
        self.log_path = folder / "broker.log"
        me = pwd.getpwuid(os.getuid()).pw_name
        lines = [
            # Run as root (CI, containers), mosquitto would switch to the "mosquitto" user and then
            # fail to read our files in a private tmp folder; as anyone else `user` does nothing.
            f"user {me}",
            f"listener {self.port} {self.host}",
            "log_dest stderr",
            "log_type all",
            "connection_messages true",
        ]
        if persistence:
            lines += ["persistence true", f"persistence_location {folder}/", "autosave_interval 1"]
        self.conf_path.write_text("\n".join(lines) + "\n" + conf, encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None
        self._log = None

    def start(self) -> None:
        if self.running:
            return
        self._log = open(self.log_path, "ab")
        self.process = subprocess.Popen([self.binary, "-c", str(self.conf_path)],
                                        stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited with {self.process.returncode}:\n{self.log()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        self.kill()
        raise RuntimeError(f"mosquitto did not listen on {self.host}:{self.port} in {START_TIMEOUT_S} s:\n{self.log()}")

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """A clean stop (SIGTERM): mosquitto saves its persistence file, as under systemd."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """A crash or a pulled plug (SIGKILL): nothing saved since the last autosave."""
        self._end(signal.SIGKILL)

    def outage(self, seconds: float, hard: bool = False) -> None:
        """Take the broker away for `seconds`, then bring it back on the same port."""
        self.kill() if hard else self.stop()
        time.sleep(seconds)
        self.start()

    def _end(self, sig: int) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""


@pytest.fixture
def mosquitto_factory(tmp_path: Path) -> Iterator[Callable[..., MosquittoBroker]]:
    binary = find_mosquitto()
    if binary is None:
        pytest.skip("the mosquitto binary is missing (apt-get install mosquitto; `make test` installs it)")
    brokers: list[MosquittoBroker] = []

    def make(conf: str = "allow_anonymous true\n", persistence: bool = False) -> MosquittoBroker:
        folder = tmp_path / f"mosquitto{len(brokers)}"
        folder.mkdir()
        broker = MosquittoBroker(binary, folder, conf, persistence)
        brokers.append(broker)
        broker.start()
        return broker

    yield make
    for broker in brokers:
        broker.kill()


@pytest.fixture
def mosquitto_broker(mosquitto_factory: Callable[..., MosquittoBroker]) -> MosquittoBroker:
    """A running broker: anonymous clients allowed, no ACL, no persistence."""
    return mosquitto_factory()
