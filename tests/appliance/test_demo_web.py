"""`bunco demo` serves the hostess page: while it runs, GET / shows the players and /night.jsonl replays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from appliance.demo import DEMO_PLAYERS
from appliance.net.mosquitto import free_port
from vision.synthetic import DICE_ROOT

BUNCO = [sys.executable, "-m", "appliance.cli"]


@pytest.mark.skipif(not (DICE_ROOT / "byler-d6" / "boxes.csv").exists(), reason=f"needs the shared dice photos ({DICE_ROOT})")
def test_the_demo_serves_the_hostess_page(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    demo = subprocess.Popen([*BUNCO, "demo", "--headless", "--fast", "--rounds", "2", "--web-port", str(port),
                             "--data", str(tmp_path / "data"), "--out", str(tmp_path / "png")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert demo.stdout is not None
    try:
        said = []
        for line in demo.stdout:  # the address is printed before the party starts
            said.append(line)
            if line.startswith("the hostess page: "):
                break
        assert said[-1].startswith(f"the hostess page: http://127.0.0.1:{port}/"), "".join(said)
        base = f"http://127.0.0.1:{port}/"
        page = urllib.request.urlopen(base, timeout=30).read().decode()
        for name in DEMO_PLAYERS:
            assert f"<li>{name}</li>" in page
        # the night under way (the first round line is in the head's log once it has started)
        lines: list[str] = []
        for _ in range(10_000):
            lines = urllib.request.urlopen(base + "night.jsonl", timeout=30).read().decode().splitlines()
            if any(json.loads(line)["type"] == "roll" for line in lines):
                break
        night = tmp_path / "night.jsonl"
        night.write_text("\n".join(lines) + "\n")
        done = subprocess.run([*BUNCO, "replay", str(night), "--json"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert sorted(json.loads(done.stdout)["players"]) == sorted(DEMO_PLAYERS)
        rest = demo.stdout.read()
        assert demo.wait(timeout=300) == 0, rest
        assert "re-scored from the head's export with bunco replay: same result" in rest
    finally:
        if demo.poll() is None:
            demo.kill()
