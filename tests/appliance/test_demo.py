"""The demo party end to end: embedded broker, head unit, three table units, real reader.

With the shared photos the synthetic cameras throw real die crops; without them (a plain clone)
they draw their dice (vision.drawn): the demo runs either way."""

from __future__ import annotations

import json
import subprocess
import sys

import pygame


def test_headless_demo_plays_a_round_and_the_replay_of_the_heads_export_agrees(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    from appliance.demo import run_demo

    lines: list[str] = []
    outcome = run_demo(rounds=1, fast=True, headless=True, seed=2, out=tmp_path / "png", data=tmp_path / "data",
                       printer=lines.append)
    assert outcome.rounds == 1 and outcome.replay_matches
    assert sum(1 for line in lines if line.startswith("set 1 round 1 table")) == 3
    assert any("head bell: ring start" in line for line in lines)
    wall = pygame.image.load(str(tmp_path / "png" / "party-final.png"))
    assert wall.get_size() == (1600, 960)
    for name in ("head", "table1", "table2", "table3"):
        assert pygame.image.load(str(tmp_path / "png" / f"{name}.png")).get_size() == (800, 480)
    # the export of the head's data folder re-scores to the same standings with the CLI
    export = tmp_path / "night.jsonl"
    run = [sys.executable, "-m", "appliance.cli"]
    subprocess.run(run + ["export", "--data", str(tmp_path / "data" / "head"), "--json", "--out", str(export)],
                   check=True)
    replayed = subprocess.run(run + ["replay", str(export), "--json"], check=True, capture_output=True, text=True)
    assert json.loads(replayed.stdout)["standings"] == outcome.standings
    sheet = json.loads((tmp_path / "data" / "sheet.json").read_text())
    assert sheet["standings"] == outcome.standings


def test_the_demo_runs_without_the_shared_photos(tmp_path):
    """A plain clone has no ../shared/dice: `bunco demo` draws its dice and still plays a night."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(BUNCO_DICE_DIR=str(tmp_path / "no-photos"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    run = subprocess.run([sys.executable, "-m", "appliance.cli", "demo", "--headless", "--fast", "--rounds", "1",
                          "--data", str(tmp_path / "data")], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "re-scored from the head's export with bunco replay: same result" in run.stdout
    assert "Traceback" not in run.stderr
