"""The demo party end to end: embedded broker, head unit, three table units, real reader."""

from __future__ import annotations

import json
import subprocess
import sys

import pygame
import pytest

from vision.synthetic import DICE_ROOT


@pytest.mark.skipif(not (DICE_ROOT / "byler-d6" / "boxes.csv").exists(), reason=f"needs the shared dice photos ({DICE_ROOT})")
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
