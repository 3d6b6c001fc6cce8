"""The real `bunco table` process in a real X server (Xvfb), keys typed by xdotool: 1 1 1 Enter,
space, then Escape to stop it. Then `bunco export` and `bunco replay`, as separate processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUNCO = [sys.executable, "-m", "appliance.cli"]

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                                reason="needs Xvfb and xdotool (apt-get install -y xvfb xdotool)")


@pytest.fixture
def xserver():
    """A fresh X display; Xvfb writes its number to the pipe once it accepts clients."""
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            pytest.fail(f"Xvfb did not start: {proc.stderr.read().decode(errors='replace')[-500:]}")
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def xdotool(display: str, *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_keys_typed_into_the_real_window_are_a_hand_roll_and_a_call(xserver, tmp_path):
    data = tmp_path / "D"
    env = {**os.environ, "DISPLAY": xserver, "SDL_AUDIODRIVER": "dummy"}
    env.pop("SDL_VIDEODRIVER", None)   # the real X11 driver, not the tests' dummy one
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.Popen([*BUNCO, "table", "--standalone", "--players", "Ann,Bea,Cat,Dot", "--camera", "none",
                             "--fake-gpio", "--data", str(data), "--seed", "5"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # --sync: xdotool waits until the window is mapped (and has the focus) instead of guessing a delay;
        # the window is found by its _NET_WM_PID (SDL sets it)
        window = xdotool(xserver, "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)).split()[0]
        xdotool(xserver, "windowfocus", "--sync", window)
        # XTEST key events, as a keyboard would type them into the focused window
        xdotool(xserver, "key", "--delay", "50", "1", "1", "1", "Return", "space", "Escape")
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err

    export = subprocess.run([*BUNCO, "export", "--data", str(data)], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert export.returncode == 0, export.stderr
    lines = [json.loads(line) for line in export.stdout.splitlines()]
    assert [line["type"] for line in lines] == ["night", "round", "roll", "call"]
    roll = lines[2]
    assert roll["dice"] == [1, 1, 1] and roll["source"] == "hand"
    log = tmp_path / "night.jsonl"
    log.write_text(export.stdout)
    again = subprocess.run([*BUNCO, "replay", str(log), "--json"], cwd=ROOT, capture_output=True, text=True,
                           timeout=120)
    assert again.returncode == 0, again.stderr
    players = json.loads(again.stdout)["players"]
    assert players[roll["player"]]["buncos"] == 1
    assert sum(p["buncos"] for p in players.values()) == 1


def test_the_windowed_demo_keeps_its_final_screens_until_a_key(xserver, tmp_path):
    from vision.synthetic import DICE_ROOT

    if not (DICE_ROOT / "byler-d6").is_dir():
        pytest.skip(f"needs the shared dice photos ({DICE_ROOT})")
    env = {**os.environ, "DISPLAY": xserver, "SDL_AUDIODRIVER": "dummy", "BUNCO_DICE_DIR": str(DICE_ROOT)}
    env.pop("SDL_VIDEODRIVER", None)
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.Popen([*BUNCO, "demo", "--rounds", "1", "--fast", "--out", str(tmp_path / "png"),
                             "--data", str(tmp_path / "data")],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = []
        for line in proc.stdout:   # the demo says when its final screens are up
            said.append(line)
            if "final screens stay up" in line:
                break
        else:
            pytest.fail("the demo ended without holding its final screens:\n" + "".join(said[-20:]))
        assert proc.poll() is None                                   # still showing them
        window = xdotool(xserver, "search", "--onlyvisible", "--pid", str(proc.pid)).split()[0]
        xdotool(xserver, "windowfocus", "--sync", window)
        xdotool(xserver, "key", "q")
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0
    assert (tmp_path / "png" / "party-final.png").exists()
