"""Finding the real broker on this machine and a free loopback port for it: `bunco bench net`
and the tests each start their own mosquitto."""

from __future__ import annotations

import os
import shutil
import socket

MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")  # Debian keeps it off a user's PATH


def find_mosquitto() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return next((p for p in MOSQUITTO_PATHS if os.access(p, os.X_OK)), None)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
