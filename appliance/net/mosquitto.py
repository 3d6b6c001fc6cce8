"""The real broker, run as a child process: `bunco bench net` and the tests each start their own.

On a unit, systemd runs mosquitto; here a private one listens on a free loopback port, so
a benchmark or a test never meets another's broker. It can be stopped and started again on
the same port, which is how the tests take the network away and bring it back.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")  # Debian keeps it off a user's PATH
START_TIMEOUT_S = 10.0


class MosquittoError(RuntimeError):
    """mosquitto would not start; the message holds its own words (from its log)."""


def find_mosquitto() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return next((p for p in MOSQUITTO_PATHS if os.access(p, os.X_OK)), None)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class MosquittoProcess:
    """One mosquitto on a free loopback port, configured by `conf` (which must not open a listener).

    verbose logs every packet (for a test's post-mortem; too slow for a benchmark).
    """

    host = "127.0.0.1"

    def __init__(self, binary: str, folder: Path, conf: str = "allow_anonymous true\n", *,
                 persistence: bool = False, verbose: bool = False) -> None:
        self.binary = binary
        self.port = free_port()
        self.conf_path = folder / "mosquitto.conf"
        self.log_path = folder / "mosquitto.log"
        me = pwd.getpwuid(os.getuid()).pw_name
        lines = [
            # run as root (CI, containers) mosquitto would switch to the "mosquitto" user and then
            # fail to read our files in a private temp folder; as anyone else `user` does nothing
            f"user {me}",
            f"listener {self.port} {self.host}",
            "set_tcp_nodelay true",
            "log_dest stderr",
        ]
        lines += ["log_type all", "connection_messages true"] if verbose else []
        lines += (["persistence true", f"persistence_location {folder}/", "autosave_interval 1"]
                  if persistence else ["persistence false"])
        self.conf_path.write_text("\n".join(lines) + "\n" + conf, encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None
        self._log = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> int:
        """Start (again, on the same port) and wait until it listens: the port."""
        if self.running:
            return self.port
        self._log = open(self.log_path, "ab")
        self.process = subprocess.Popen([self.binary, "-c", str(self.conf_path)],
                                        stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                self._end(signal.SIGKILL)
                raise MosquittoError(f"mosquitto exited with {code}: {self.log().strip()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self.port
            except OSError:
                time.sleep(0.02)
        self.kill()
        raise MosquittoError(f"mosquitto did not listen on {self.host}:{self.port} in {START_TIMEOUT_S:g} s: "
                             f"{self.log().strip()}")

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

    def peak_rss_mb(self) -> float | None:
        """The broker's own peak resident memory (VmHWM), while it runs."""
        if not self.running:
            return None
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def _end(self, sig: int) -> None:
        if self.running:
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
